// Generated general plans for the evaluator's engine differential test
// (tests/eval_engines_fuzz_test.cc): every node kind the evaluator runs
// (Constant, the three Gets with MFPs, seeks and imported arrangements, Mfp,
// FlatMap, Join::Linear and Join::Delta with closures, the four Reduce
// kinds, the three TopK kinds, Negate, Threshold, Union, ArrangeBy, Let,
// LetRec and AntiJoin), composed recursively a few levels deep over 2-4 typed
// input collections, as Materialize's verbose EXPLAIN text, with multi-round
// input data including retractions.
#ifndef LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_GEN_H_
#define LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_GEN_H_

#include <cstdint>
#include <map>
#include <string>

#include "lir/eval/data.h"

namespace lir::test {

/// One generated case.
struct FuzzCase {
  std::string plan_text;
  eval::InputData data;
  /// How many nodes of each kind (and notable variant: `Get::Arrangement
  /// seek (val)`, `Union consolidate_output=true`, ...) the plan holds.
  std::map<std::string, int> kinds;
};

/// A case, a pure function of `seed`.
FuzzCase GenerateFuzzCase(uint64_t seed);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_GEN_H_
