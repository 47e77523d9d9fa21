// Compiled scalars, keys and MFPs (include/lir/eval/compiled_scalar.h):
// one compile serves many rows with the values, errors and laziness of the
// one-shot evaluators; compiling reports what CheckScalar reports; the
// filter order follows the input arity; and evaluating compiles nothing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "tests/support/eval_scalar_test_util.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

CompiledScalar Compiled(std::string_view text) {
  absl::StatusOr<CompiledScalar> c = CompiledScalar::Compile(E(text));
  EXPECT_TRUE(c.ok()) << text << ": " << c.status();
  return c.ok() ? *std::move(c) : *CompiledScalar::Compile(E("null"));
}

std::string Show(const absl::StatusOr<Datum>& v) {
  return v.ok() ? FormatDatum(*v) : v.status().ToString();
}

// One compiled program evaluated on many rows gives, row by row, what a
// fresh compile gives on that row alone (so nothing of one row, a moved-out
// literal or a leftover operand, leaks into the next), and the expected
// values where they are spelled out.
TEST(CompiledScalar, OneCompileServesEveryRow) {
  const std::vector<DataRow> rows = {{I(0), I(5), S("a")},
                                     {I(3), N, S("b")},
                                     {N, I(-2), N},
                                     {I(7), I(7), S("")},
                                     {F(2.5), I(1), S("c")}};
  for (const char* text : {"((#0 + 1) * 2)",
                           "(10 / #0)",
                           "(#0 % #1)",
                           "coalesce(#1, #0, 42)",
                           "coalesce(#0, (1 / 0))",
                           "case when (#0 > 2) then \"big\" else #2 end",
                           "case when (#0 = 0) then 0 else (10 / #0) end",
                           "((#0 > 1) AND (#1 > 1))",
                           "((#0 = 0) OR ((1 / #0) > 0))",
                           "((#0 != 0) AND ((10 / #0) > 1))",
                           "greatest(#0, #1, 4)",
                           "least(#0, #1)",
                           "(#2 || \"x\")",
                           "(#0) IS NULL",
                           "NOT((#0 > #1))",
                           "row(#0, \"lit\", 7)",
                           "record_get[1](row(#0, \"lit\", 7))",
                           "list[#1, 1.5]",
                           "integer_to_text(#1)",
                           "abs(-(#1))",
                           "(#5 + 1)"}) {
    CompiledScalar compiled = Compiled(text);
    for (const DataRow& row : rows) {
      EXPECT_EQ(Show(compiled.Eval(row)), Show(EvalScalar(E(text), row)))
          << text << " on " << FormatRow(row);
    }
  }
  CompiledScalar div = Compiled("case when (#0 = 0) then 0 else (10 / #0) end");
  EXPECT_EQ(*div.Eval({I(0)}), I(0));
  EXPECT_EQ(*div.Eval({I(5)}), I(2));
  EXPECT_EQ(*div.Eval({I(0)}), I(0));
  CompiledScalar lit = Compiled("coalesce(#0, \"fallback\")");
  EXPECT_EQ(*lit.Eval({N}), S("fallback"));
  EXPECT_EQ(*lit.Eval({N}), S("fallback"));  // the literal is still there
}

TEST(CompiledScalar, KeepsLazinessAndErrorPrecedence) {
  // coalesce stops at the first non-NULL operand.
  CompiledScalar coalesce = Compiled("coalesce(#0, (1 / 0))");
  EXPECT_EQ(*coalesce.Eval({I(5)}), I(5));
  EXPECT_EQ(coalesce.Eval({N}).status().message(), "division by zero");
  // The dominant value wins over errors in other operands, either side.
  CompiledScalar and_ = Compiled("(((1 / #0) > 0) AND #1)");
  EXPECT_EQ(*and_.Eval({I(0), B(false)}), B(false));
  EXPECT_EQ(and_.Eval({I(0), B(true)}).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*Compiled("(#1 OR ((1 / #0) > 0))").Eval({I(0), B(true)}), B(true));
  // A non-boolean operand is an error unless dominated.
  EXPECT_EQ(Compiled("(#0 AND #1)").Eval({I(1), B(true)}).status().message(),
            "operator AND does not apply to a integer");
  EXPECT_EQ(*Compiled("(#0 AND #1)").Eval({I(1), B(false)}), B(false));
  // case when evaluates one branch only.
  CompiledScalar branch = Compiled("case when #0 then (1 / 0) else 1 end");
  EXPECT_EQ(*branch.Eval({B(false)}), I(1));
  EXPECT_EQ(*branch.Eval({N}), I(1));
  EXPECT_EQ(branch.Eval({B(true)}).status().message(), "division by zero");
  EXPECT_EQ(branch.Eval({I(1)}).status().message(),
            "operator case when does not apply to a integer");
  // Strict operands: the first error in order.
  EXPECT_EQ(Compiled("((1 / #0) + (#1 || 1))")
                .Eval({I(0), S("x")})
                .status()
                .message(),
            "division by zero");
  // A column beyond the row is a data error naming the row's width.
  EXPECT_EQ(Compiled("#3").Eval({I(1)}).status().message(),
            "column #3 out of range for a row of 1 columns");
}

TEST(CompiledScalar, CompileReportsWhatTheCheckReports) {
  // A node before its operands, operands left to right.
  for (const auto& [text, message] :
       std::vector<std::pair<const char*, const char*>>{
           {"md5(frob(#0))", "unsupported function md5"},
           {"((#0 + 12:00:00) + md5(#0))", "unsupported literal 12:00:00"},
           {"coalesce(#0, md5(#0))", "unsupported function md5"},
           {"record_get[x](#0)", "unsupported function record_get[x]"},
           {"digest(#0)", "unsupported function digest"},
           {"case_lookup #0 when 1 then 2 else 3 end",
            "unsupported function case_lookup"}}) {
    absl::Status compiled = CompiledScalar::Compile(E(text)).status();
    EXPECT_EQ(compiled.code(), absl::StatusCode::kUnimplemented) << text;
    EXPECT_EQ(compiled.message(), message) << text;
    EXPECT_EQ(CheckScalar(E(text)), compiled) << text;
  }
  EXPECT_EQ(CompiledScalar::Compile(ScalarExpr::Column(-1)).status().message(),
            "negative column reference #-1");
  EXPECT_EQ(CompiledScalar::Compile(
                ScalarExpr::Call(CallStyle::kFunction, "coalesce", {}))
                .status()
                .code(),
            absl::StatusCode::kUnimplemented);
  // The one-shot evaluator reports an unsupported part only when it is
  // reached, as the per-row walk always did.
  EXPECT_EQ(*EvalScalar(E("coalesce(#0, md5(#0))"), {I(1)}), I(1));
  EXPECT_EQ(EvalScalar(E("coalesce(#0, md5(#0))"), {N}).status().message(),
            "unsupported function md5");
  EXPECT_EQ(EvalScalar(E("((1 / 0) + md5(#0))"), {N}).status().message(),
            "division by zero");
}

TEST(CompiledScalar, EvaluatingCompilesNothing) {
  const uint64_t before = internal::ScalarCompilations();
  CompiledScalar c =
      Compiled("case when (#0 > 100) then \"big\" else coalesce(#1, 7) end");
  EXPECT_EQ(internal::ScalarCompilations(), before + 1);
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_TRUE(c.Eval({I(i), i % 2 == 0 ? N : I(i)}).ok());
  }
  EXPECT_EQ(internal::ScalarCompilations(), before + 1);
  // The one-shot evaluator compiles per call: the counter sees it, so an
  // engine that evaluated rows with it would be caught by the engine tests.
  ASSERT_TRUE(EvalScalar(E("(#0 + 1)"), {I(1)}).ok());
  EXPECT_EQ(internal::ScalarCompilations(), before + 2);
}

TEST(CompiledKey, EvaluatesInOrderAndStopsAtTheFirstError) {
  absl::StatusOr<CompiledKey> key =
      CompiledKey::Compile({E("#1"), E("(#0 + #1)"), E("7")});
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(key->size(), 3u);
  EXPECT_EQ(*key->Eval({I(1), I(2)}), (DataRow{I(2), I(3), I(7)}));
  EXPECT_EQ(*key->Eval({I(4), I(5)}), (DataRow{I(5), I(9), I(7)}));
  EXPECT_EQ(key->Eval({I(1)}).status().message(),
            "column #1 out of range for a row of 1 columns");
  EXPECT_EQ(CompiledKey::Compile({E("#0"), E("md5(#0)")}).status().message(),
            "unsupported function md5");
}

absl::StatusOr<std::optional<DataRow>> Apply(const CompiledMfp& mfp,
                                             DataRow row) {
  return mfp.Eval(std::move(row));
}

TEST(CompiledMfp, FiltersRunAsSoonAsTheirColumnsExist) {
  // Plan order: a filter on the map column, then one on the input. The
  // input filter runs first and drops a = 0 before the division runs.
  absl::StatusOr<CompiledMfp> mfp = CompiledMfp::Compile(
      Mfp({"(10 / #0)"}, {"(#1 > 0)", "(#0 != 0)"}, std::vector<int>{1}));
  ASSERT_TRUE(mfp.ok()) << mfp.status();
  EXPECT_EQ(*Apply(*mfp, {I(0)}), std::nullopt);
  EXPECT_EQ(*Apply(*mfp, {I(5)}), (DataRow{I(2)}));
  EXPECT_EQ(*Apply(*mfp, {I(-5)}), std::nullopt);
  EXPECT_EQ(*Apply(*mfp, {I(5)}), (DataRow{I(2)}));
}

TEST(CompiledMfp, FilterOrderFollowsTheInputArity) {
  // Two maps; filter A reads map column #2 (a type error), B reads #1 (a
  // division by zero), C only #0. On a one-column row the order by support
  // is C, B, A: B's error. On a three-column row every filter reads input
  // columns only, so plan order holds: A's error.
  absl::StatusOr<CompiledMfp> mfp = CompiledMfp::Compile(Mfp(
      {"(#0 + 1)", "(#0 + 2)"},
      {"(#2 = \"x\")", "((1 / (#1 - #1)) > 0)", "(#0 = #0)"}, std::nullopt));
  ASSERT_TRUE(mfp.ok()) << mfp.status();
  EXPECT_EQ(Apply(*mfp, {I(1)}).status().message(), "division by zero");
  EXPECT_EQ(Apply(*mfp, {I(1), I(1), I(1)}).status().message(),
            "operator = does not apply to a integer and a string");
  // The same orders the one-shot EvalMfp gives.
  MapFilterProject plain =
      Mfp({"(#0 + 1)", "(#0 + 2)"},
          {"(#2 = \"x\")", "((1 / (#1 - #1)) > 0)", "(#0 = #0)"}, std::nullopt);
  EXPECT_EQ(EvalMfp(plain, {I(1)}).status(), Apply(*mfp, {I(1)}).status());
  EXPECT_EQ(EvalMfp(plain, {I(1), I(1), I(1)}).status(),
            Apply(*mfp, {I(1), I(1), I(1)}).status());
  // Filters with equal support keep plan order: both read map column #1.
  absl::StatusOr<CompiledMfp> ties = CompiledMfp::Compile(Mfp(
      {"#0"}, {"((#1 + #0) = \"x\")", "((1 / (#1 - #1)) > 0)"}, std::nullopt));
  ASSERT_TRUE(ties.ok());
  EXPECT_EQ(Apply(*ties, {I(1)}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(CompiledMfp, ProjectionWideAndTemporal) {
  absl::StatusOr<CompiledMfp> mfp = CompiledMfp::Compile(
      Mfp({"(#0 + 1)", "(#1 * 10)"}, {"(#0 > 0)"}, std::vector<int>{2, 0}));
  ASSERT_TRUE(mfp.ok());
  EXPECT_FALSE(mfp->identity());
  EXPECT_EQ(*Apply(*mfp, {I(2)}), (DataRow{I(30), I(2)}));
  EXPECT_EQ(*mfp->EvalWide({I(2)}), (DataRow{I(2), I(3), I(30)}));
  EXPECT_EQ(*mfp->EvalWide({I(-2)}), std::nullopt);
  // Without a projection the maps only feed filters.
  absl::StatusOr<CompiledMfp> unprojected = CompiledMfp::Compile(
      Mfp({"(#0 + 1)", "(1 / 0)"}, {"(#1 > 0)"}, std::nullopt));
  ASSERT_TRUE(unprojected.ok());
  EXPECT_EQ(*Apply(*unprojected, {I(2)}), (DataRow{I(2)}));
  EXPECT_EQ(Apply(*mfp, {I(2)}).status(), absl::OkStatus());
  EXPECT_TRUE(CompiledMfp().identity());
  EXPECT_EQ(*Apply(CompiledMfp(), {I(1), N}), (DataRow{I(1), N}));
  // Errors in map-then-filter order, as CheckMfp reports them.
  EXPECT_EQ(CompiledMfp::Compile(Mfp({"md5(#0)"}, {"frob(#0)"}, std::nullopt))
                .status()
                .message(),
            "unsupported function md5");
  MapFilterProject temporal;
  temporal.temporal = TemporalFilter{{}, {E("#0")}};
  absl::StatusOr<CompiledMfp> needs_round = CompiledMfp::Compile(temporal);
  ASSERT_TRUE(needs_round.ok());
  EXPECT_EQ(Apply(*needs_round, {I(1)}).status().code(),
            absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace lir::eval
