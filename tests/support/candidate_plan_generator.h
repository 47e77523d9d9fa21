// A generator of random valid plans full of fused set-difference candidates,
// each carrying the outcome ../shared/reference/SEMANTICS.md 4.2/4.3 assigns
// to it, computed while it is built: an oracle independent of the pass
// (tests/recognizer_property_test.cc checks the pass against it).
//
// Arms are Gets of all three kinds with or without the key's arrangement,
// ArrangeBys with input_key/forms/input_mfp, projecting or filtering Mfp
// wrappers, Reduces and nested candidates, in random order and with random
// shape defects, placed in Let values and bodies, LetRec values and bodies,
// Join inputs and nested Unions.
#ifndef LIR_TESTS_SUPPORT_CANDIDATE_PLAN_GENERATOR_H_
#define LIR_TESTS_SUPPORT_CANDIDATE_PLAN_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lir/document.h"
#include "lir/validate.h"

namespace lir::test {

// What the oracle expects for one candidate.
struct Expected {
  std::string code;  // empty: fires
  std::string arm;
  std::vector<int> base_key;
  std::vector<int> subtract_key;
  bool remap_ambiguous = false;
  bool in_let_rec = false;
  size_t key_size = 0;
};

/// One generated plan and what the oracle expects of its candidates.
struct GeneratedCase {
  Document doc;
  ValidateOptions validate;
  std::map<LirId, Expected> expected;  // by the candidate's LirId
};

/// The plan for `seed` (the same seed gives the same plan).
GeneratedCase Generate(uint64_t seed);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_CANDIDATE_PLAN_GENERATOR_H_
