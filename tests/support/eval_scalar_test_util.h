// Helpers shared by the per-row and per-group tests of the reference
// evaluator (eval_scalar_test.cc, eval_operators_test.cc): expressions from
// text, datum shorthands and MFPs.
#ifndef LIR_TESTS_SUPPORT_EVAL_SCALAR_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_EVAL_SCALAR_TEST_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/datum.h"
#include "lir/node.h"
#include "src/explain/text_primitives.h"

namespace lir::test::scalar {

// Shorthand over the evaluator's types, for tests that open lir::eval.
using namespace ::lir::eval;  // NOLINT

/// Parses `text` as a scalar expression, expecting success.
inline ScalarExpr E(std::string_view text) {
  size_t pos = 0;
  absl::StatusOr<ScalarExpr> e = explain::ParseExpr(text, &pos);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status();
  return e.ok() ? *e : ScalarExpr::Opaque(std::string(text));
}

inline Datum I(int64_t i) { return Datum::Int(i); }
inline Datum F(double d) { return Datum::Float(d); }
inline Datum S(std::string s) { return Datum::String(std::move(s)); }
inline Datum B(bool b) { return Datum::Bool(b); }
inline const Datum N = Datum::Null();

inline MapFilterProject Mfp(std::vector<std::string> map,
                            std::vector<std::string> filter,
                            std::optional<std::vector<int>> project) {
  MapFilterProject mfp;
  for (const std::string& m : map) mfp.map.push_back(E(m));
  for (const std::string& f : filter) mfp.filter.push_back(E(f));
  mfp.project = std::move(project);
  return mfp;
}

}  // namespace lir::test::scalar

#endif  // LIR_TESTS_SUPPORT_EVAL_SCALAR_TEST_UTIL_H_
