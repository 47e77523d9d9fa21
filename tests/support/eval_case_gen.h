// Generated evaluator test cases: EXCEPT-shaped plans (EXCEPT, EXCEPT ALL,
// LEFT JOIN anti-sides; arms that fire and arms that decline; projecting
// arms; keyed arms, which are sets, and unkeyed ones; both arm orders;
// nested in Let, Join and Union) in Materialize's verbose EXPLAIN text, with
// multi-round input data including retractions and nulls.
#ifndef LIR_TESTS_SUPPORT_EVAL_CASE_GEN_H_
#define LIR_TESTS_SUPPORT_EVAL_CASE_GEN_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lir/eval/data.h"

namespace lir::test {

/// One generated case.
struct EvalCase {
  std::string plan_text;
  eval::InputData data;
  /// Which templates were combined (for failure messages and counts).
  std::string description;
  /// What a catalog says about the collections: the unique keys of those
  /// the data keeps keyed (no two rows with equal values on the key, every
  /// count 0 or 1), for the antijoin rendering's set checks.
  std::map<std::string, std::vector<std::vector<int>>> unique_keys;
};

/// A case, a pure function of `seed`.
EvalCase GenerateEvalCase(uint64_t seed);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_EVAL_CASE_GEN_H_
