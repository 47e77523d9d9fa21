// Nested datums (records, lists, arrays), the scalar functions over them,
// and the order-dependent aggregates of the reference evaluator: ordered
// aggregates and window functions as Materialize lowers them into a
// Reduce (src/eval/ordered_aggregates.h), plus their JSON data form.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/eval/data.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "src/eval/operators.h"
#include "src/eval/trace.h"
#include "src/explain/text_primitives.h"
#include "tests/support/eval_scalar_test_util.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

Datum L(std::vector<Datum> elements) {
  return Datum::List(std::move(elements));
}
Datum A(std::vector<Datum> elements) {
  return Datum::Array(std::move(elements));
}

// ---- Datums ----------------------------------------------------------------

TEST(NestedDatum, StaysAsSmallAsAString) {
  // Nested values are boxed: the scalar kinds do not pay for them.
  EXPECT_LE(sizeof(Datum), sizeof(std::string) + 8);
}

TEST(NestedDatum, OrderEqualityAndHash) {
  EXPECT_LT(L({I(1), I(2)}), L({I(1), I(3)}));
  EXPECT_LT(L({I(1)}), L({I(1), I(0)}));  // a proper prefix first
  EXPECT_LT(L({I(9)}), A({I(0)}));        // lists before arrays
  EXPECT_LT(S("zzz"), L({}));             // nested after scalars
  EXPECT_LT(N, L({}));
  EXPECT_EQ(L({I(1), S("x")}), L({I(1), S("x")}));
  EXPECT_NE(L({I(1)}), A({I(1)}));
  EXPECT_EQ(L({F(-0.0)}), L({F(0.0)}));
  absl::flat_hash_set<Datum> set = {L({I(1), S("x")}), L({I(1), S("x")}),
                                    L({F(0.0)}),       L({F(-0.0)}),
                                    A({I(1)}),         L({I(1)})};
  EXPECT_EQ(set.size(), 4u);
}

TEST(NestedDatum, IdenticalRowsLooksInside) {
  // Equal (so one group) but not identical (an arrangement must replace it).
  EXPECT_EQ(L({F(-0.0)}), L({F(0.0)}));
  EXPECT_FALSE(IdenticalRows({L({F(-0.0)})}, {L({F(0.0)})}));
  EXPECT_TRUE(IdenticalRows({L({F(1.5), S("a")})}, {L({F(1.5), S("a")})}));
  EXPECT_FALSE(IdenticalRows({L({I(1)})}, {A({I(1)})}));
}

TEST(NestedDatum, MaterializeOrderPutsNullLastAlsoInside) {
  EXPECT_EQ(MzCompare(N, I(1)), 1);
  EXPECT_EQ(MzCompare(I(1), N), -1);
  EXPECT_EQ(MzCompare(N, N), 0);
  EXPECT_EQ(MzCompare(L({I(1), N}), L({I(1), S("a")})), 1);
  EXPECT_EQ(MzCompare(L({I(1)}), L({I(1), N})), -1);
  // The evaluator's own order is different (NULL first).
  EXPECT_LT(L({I(1), N}), L({I(1), S("a")}));
}

TEST(NestedDatum, PrintsAsExplainAndReadsBack) {
  EXPECT_EQ(FormatDatum(L({I(1), S("x"), N})), "[1, \"x\", null]");
  EXPECT_EQ(FormatDatum(A({I(1), I(2)})), "{1, 2}");
  EXPECT_EQ(FormatDatum(L({})), "[]");
  EXPECT_EQ(FormatRow({L({L({I(1)}), A({F(1.5)})}), I(3)}),
            "([[1], {1.5}], 3)");
  for (const Datum& d : {L({I(1), S("a, b]\"c"), N, B(true)}), A({}), L({}),
                         L({L({}), A({S("}")}), L({F(-2.5), I(-7)})})}) {
    size_t pos = 0;
    absl::StatusOr<Literal> literal =
        explain::ParseLiteral(FormatDatum(d), &pos);
    ASSERT_TRUE(literal.ok()) << FormatDatum(d) << ": " << literal.status();
    absl::StatusOr<Datum> back = FromLiteral(*literal);
    ASSERT_TRUE(back.ok()) << FormatDatum(d) << ": " << back.status();
    EXPECT_EQ(*back, d) << FormatDatum(d);
  }
  // Maps are not datums of the evaluator.
  Literal map;
  map.kind = LiteralKind::kOther;
  map.text = "{a: 1}";
  EXPECT_EQ(FromLiteral(map).status().code(), absl::StatusCode::kUnimplemented);
}

// ---- Scalar functions ------------------------------------------------------

Datum Eval(const std::string& text, const DataRow& row) {
  absl::StatusOr<Datum> d = EvalScalar(E(text), row);
  EXPECT_TRUE(d.ok()) << text << ": " << d.status();
  return d.ok() ? *d : Datum::String("<error>");
}

TEST(NestedScalar, RowListArrayRecordGet) {
  const DataRow row = {I(1), I(2), N};
  EXPECT_EQ(Eval("row(#0, (#1 + 1))", row), L({I(1), I(3)}));
  EXPECT_EQ(Eval("row()", row), L({}));
  EXPECT_EQ(Eval("list[row(#0, #1)]", row), L({L({I(1), I(2)})}));
  EXPECT_EQ(Eval("array[#2, #0]", row), A({N, I(1)}));
  EXPECT_EQ(Eval("record_get[1](row(#0, #1))", row), I(2));
  EXPECT_EQ(Eval("record_get[0](record_get[1](row(#0, row(#1, #0))))", row),
            I(2));
  // NULL in, NULL out.
  EXPECT_EQ(Eval("record_get[0](#2)", row), N);
  EXPECT_TRUE(CheckScalar(E("record_get[12](#0)")).ok());
  absl::StatusOr<Datum> past = EvalScalar(E("record_get[2](row(#0, #1))"), row);
  EXPECT_EQ(past.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalScalar(E("record_get[0](#0)"), row).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckScalar(E("record_get[x](#0)")).code(),
            absl::StatusCode::kUnimplemented);
}

TEST(NestedScalar, JsonbableToJsonbKeepsTheDatum) {
  EXPECT_EQ(Eval("jsonbable_to_jsonb(#0)", {S("a")}), S("a"));
  EXPECT_EQ(Eval("jsonbable_to_jsonb(#0)", {I(4)}), I(4));
  EXPECT_EQ(Eval("jsonbable_to_jsonb(#0)", {N}), N);
  EXPECT_EQ(Eval("jsonbable_to_jsonb(#0)",
                 {F(std::numeric_limits<double>::quiet_NaN())}),
            S("NaN"));
  EXPECT_EQ(Eval("jsonbable_to_jsonb(#0)",
                 {F(-std::numeric_limits<double>::infinity())}),
            S("-Infinity"));
}

// ---- Ordered aggregates and window functions -------------------------------

/// A Basic Reduce with no key whose one aggregate is `aggr` (printed form),
/// reading val column 0.
ReduceOp Single(const std::string& aggr, bool unnest = false) {
  size_t pos = 0;
  absl::StatusOr<AggregateExpr> parsed = explain::ParseAggregate(aggr, &pos);
  EXPECT_TRUE(parsed.ok()) << aggr << ": " << parsed.status();
  ReduceOp op;
  op.kind = ReduceKind::kBasicSingle;
  if (parsed.ok()) op.aggrs = {*parsed};
  op.key_plan = Mfp({}, {}, std::vector<int>{});
  op.val_plan = Mfp({}, {}, std::vector<int>{0});
  op.fused_unnest_list = unnest;
  return op;
}

/// The group's output over val rows of one column (record, multiplicity).
Multiset RunGroup(const ReduceOp& op,
                  std::vector<std::pair<Datum, int64_t>> vals) {
  std::vector<RowDiff> rows;
  for (auto& [d, diff] : vals) rows.push_back({{std::move(d)}, diff});
  absl::StatusOr<Multiset> consolidated = Consolidate(std::move(rows));
  EXPECT_TRUE(consolidated.ok());
  absl::StatusOr<Multiset> out = ReduceGroup(op, {}, *consolidated);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : Multiset{};
}

/// The single value a non-unnesting aggregate produces.
Datum Value(const ReduceOp& op, std::vector<std::pair<Datum, int64_t>> vals) {
  Multiset out = RunGroup(op, std::move(vals));
  EXPECT_EQ(out.size(), 1u);
  if (out.size() != 1 || out[0].first.size() != 1) return S("<none>");
  EXPECT_EQ(out[0].second, 1);
  return out[0].first[0];
}

Multiset Rows(std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(rows));
  EXPECT_TRUE(m.ok());
  return m.ok() ? *m : Multiset{};
}

TEST(OrderedAggregate, ArrayAggOrdersByKeysThenPayload) {
  // SELECT array_agg(b ORDER BY b DESC): row(array[b], b); NULLs first.
  ReduceOp desc =
      Single("array_agg[order_by=[#0 desc nulls_first]](row(array[#0], #0))");
  EXPECT_EQ(Value(desc, {{L({A({I(1)}), I(1)}), 2},
                         {L({A({I(3)}), I(3)}), 1},
                         {L({A({N}), N}), 1},
                         {L({A({I(2)}), I(2)}), 1}}),
            A({N, I(3), I(2), I(1), I(1)}));
  // No order keys: ties broken by the payload in Materialize's order
  // (NULL last), so the input order does not matter.
  ReduceOp plain = Single("array_agg[order_by=[]](row(array[#0]))");
  EXPECT_EQ(Value(plain,
                  {{L({A({N})}), 1}, {L({A({I(2)})}), 1}, {L({A({I(1)})}), 1}}),
            A({I(1), I(2), N}));
  // DISTINCT: each record once.
  ReduceOp distinct = Single("array_agg[order_by=[]](distinct row(array[#0]))");
  EXPECT_EQ(Value(distinct, {{L({A({I(5)})}), 3}}), A({I(5)}));
}

TEST(OrderedAggregate, StringAggSeparatorsAndNulls) {
  ReduceOp op = Single(
      "string_agg[order_by=[#0 asc nulls_last]](row(row(#0, \",\"), #1))");
  // The first value has no separator before it; a NULL separator is empty;
  // NULL values are skipped.
  EXPECT_EQ(Value(op, {{L({L({S("a"), S(",")}), I(2)}), 1},
                       {L({L({S("b"), S("-")}), I(1)}), 1},
                       {L({L({N, S(",")}), I(0)}), 1},
                       {L({L({S("c"), N}), I(3)}), 1}}),
            S("b,ac"));
  EXPECT_EQ(Value(op, {{L({L({N, S(",")}), I(0)}), 2}}), N);
  // A multiplicity repeats the value.
  EXPECT_EQ(Value(op, {{L({L({S("x"), S("+")}), I(0)}), 3}}), S("x+x+x"));
  absl::StatusOr<Multiset> bad =
      ReduceGroup(op, {}, Rows({{{L({L({I(1), S(",")}), I(0)})}, 1}}));
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(OrderedAggregate, ListAggConcatenatesLists) {
  ReduceOp op =
      Single("list_agg[order_by=[#0 desc nulls_last]](row(list[#0], #0))");
  EXPECT_EQ(Value(op, {{L({L({I(1)}), I(1)}), 1},
                       {L({L({N}), N}), 1},
                       {L({L({I(2), I(3)}), I(2)}), 1}}),
            L({I(2), I(3), I(1), N}));
  // An array payload is not a list.
  EXPECT_EQ(
      ReduceGroup(op, {}, Rows({{{L({A({I(1)}), I(1)})}, 1}})).status().code(),
      absl::StatusCode::kInvalidArgument);
}

TEST(OrderedAggregate, JsonbAggLeavesOutSqlNulls) {
  ReduceOp op = Single("jsonb_agg[order_by=[]](row(jsonbable_to_jsonb(#0)))");
  EXPECT_EQ(Value(op, {{L({S("b")}), 1}, {L({N}), 1}, {L({S("a")}), 2}}),
            L({S("a"), S("a"), S("b")}));
  EXPECT_EQ(Value(op, {{L({N}), 1}}), L({}));
}

// lead/lag records: row(row(row(x), row(value, offset, default)), x).
Datum LagLeadInput(int64_t x, Datum value, Datum offset, Datum def) {
  return L(
      {L({L({I(x)}), L({std::move(value), std::move(offset), std::move(def)})}),
       I(x)});
}

// One unnested output row: (result, original row).
RowDiff Out(Datum result, int64_t x, int64_t diff = 1) {
  return {{L({std::move(result), L({I(x)})})}, diff};
}

TEST(WindowFunction, LeadOffsetsDefaultsAndNullOffsets) {
  ReduceOp op = Single(
      "lead[order_by=[#0 asc nulls_last]](row(row(row(#0), row(#0, #1, 120)), "
      "#0))",
      /*unnest=*/true);
  // lead(x, offset, 120) OVER (ORDER BY x) with per-row offsets.
  Multiset out = RunGroup(op, {{LagLeadInput(1, I(1), I(2), I(120)), 1},
                               {LagLeadInput(2, I(2), I(-1), I(120)), 1},
                               {LagLeadInput(3, I(3), N, I(120)), 1},
                               {LagLeadInput(4, I(4), I(1), I(120)), 1},
                               {LagLeadInput(5, I(5), I(1), I(120)), 1},
                               {LagLeadInput(6, I(6), I(-9), I(120)), 1},
                               {LagLeadInput(7, I(7), I(0), I(120)), 1}});
  EXPECT_EQ(out, Rows({Out(I(3), 1),  // two ahead
                       Out(I(1), 2),  // a negative offset looks back
                       Out(N, 3),     // a NULL offset gives NULL
                       Out(I(5), 4), Out(I(6), 5),
                       Out(I(120), 6),   // before the first row: the default
                       Out(I(7), 7)}));  // offset 0: the row itself
}

TEST(WindowFunction, LagRespectAndIgnoreNulls) {
  // Values 10, NULL, 30, NULL, 50 at x = 1..5; lag(v, 1, -1).
  std::vector<std::pair<Datum, int64_t>> vals;
  const Datum values[] = {I(10), N, I(30), N, I(50)};
  for (int64_t x = 1; x <= 5; ++x) {
    vals.push_back({LagLeadInput(x, values[x - 1], I(1), I(-1)), 1});
  }
  const char* shape = "(row(row(row(#0), row(#1, 1, -1)), #0))";
  ReduceOp respect =
      Single(std::string("lag[order_by=[#0 asc nulls_last]]") + shape, true);
  EXPECT_EQ(RunGroup(respect, vals),
            Rows({Out(I(-1), 1), Out(I(10), 2), Out(N, 3), Out(I(30), 4),
                  Out(N, 5)}));
  ReduceOp ignore = Single(
      std::string("lag[ignore_nulls=true, order_by=[#0 asc nulls_last]]") +
          shape,
      true);
  EXPECT_EQ(RunGroup(ignore, vals),
            Rows({Out(I(-1), 1), Out(I(10), 2), Out(I(10), 3), Out(I(30), 4),
                  Out(I(30), 5)}));
  // Two non-NULL values back from x = 5 skips the NULLs: 10.
  vals[4].first = LagLeadInput(5, I(50), I(2), I(-1));
  Multiset two = RunGroup(ignore, vals);
  EXPECT_TRUE(std::find(two.begin(), two.end(), Out(I(10), 5)) != two.end());
  // A negative offset with IGNORE NULLS looks ahead, past the NULL.
  vals[1].first = LagLeadInput(2, N, I(-1), I(-1));
  Multiset ahead = RunGroup(ignore, vals);
  EXPECT_TRUE(std::find(ahead.begin(), ahead.end(), Out(I(30), 2)) !=
              ahead.end());
  // Offset 0 on a NULL value (Materialize panics): an error.
  vals[1].first = LagLeadInput(2, N, I(0), I(-1));
  absl::StatusOr<Multiset> zero =
      ReduceGroup(ignore, {}, Rows([&] {
                    std::vector<RowDiff> rows;
                    for (const auto& [d, diff] : vals)
                      rows.push_back({{d}, diff});
                    return rows;
                  }()));
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(WindowFunction, TiesAreBrokenByTheWholeRowWithNullsLast) {
  // Three rows with the same order key 7: original rows (1, NULL), (1, "b"),
  // (1, "a"). Materialize sorts them by the payload: "a", "b", NULL.
  ReduceOp op = Single(
      "lead[order_by=[#0 asc nulls_last]](row(row(row(#0, #1), row(#2, 1, 0)), "
      "#3))",
      true);
  auto input = [](Datum tag, Datum y) {
    return L({L({L({I(1), y}), L({std::move(tag), I(1), I(0)})}), I(7)});
  };
  Multiset out = RunGroup(op, {{input(I(3), N), 1},
                               {input(I(2), S("b")), 1},
                               {input(I(1), S("a")), 1}});
  auto row = [](Datum result, Datum y) {
    return RowDiff{{L({std::move(result), L({I(1), std::move(y)})})}, 1};
  };
  EXPECT_EQ(out, Rows({row(I(2), S("a")), row(I(3), S("b")), row(I(0), N)}));
}

TEST(WindowFunction, MultiplicitiesAreSeparateRows) {
  ReduceOp op = Single(
      "lead[order_by=[#0 asc nulls_last]](row(row(row(#0), row(#0, 1, 0)), "
      "#0))",
      true);
  // x = 1 twice: the first copy's lead is the second copy.
  EXPECT_EQ(RunGroup(op, {{LagLeadInput(1, I(1), I(1), I(0)), 2},
                          {LagLeadInput(2, I(2), I(1), I(0)), 1}}),
            Rows({Out(I(1), 1), Out(I(2), 1), Out(I(0), 2)}));
  // Equal elements consolidate: lag(0) with offset NULL twice.
  EXPECT_EQ(RunGroup(op, {{LagLeadInput(1, I(1), N, I(0)), 3}}),
            Rows({Out(N, 1, 3)}));
}

TEST(WindowFunction, RowNumberRankDenseRank) {
  // row(list[row(x, y)], x): peers (1, "a"), (1, "b") share x.
  std::vector<std::pair<Datum, int64_t>> vals = {
      {L({L({L({I(1), S("b")})}), I(1)}), 1},
      {L({L({L({I(1), S("a")})}), I(1)}), 1},
      {L({L({L({I(2), S("c")})}), I(2)}), 1},
      {L({L({L({I(3), S("d")})}), I(3)}), 1}};
  auto expect = [&](const char* func, std::vector<int64_t> results) {
    ReduceOp op =
        Single(std::string(func) +
                   "[order_by=[#0 asc nulls_last]](row(list[row(#0, #1)], #0))",
               true);
    const Datum rows[] = {L({I(1), S("a")}), L({I(1), S("b")}),
                          L({I(2), S("c")}), L({I(3), S("d")})};
    std::vector<RowDiff> expected;
    for (size_t i = 0; i < 4; ++i) {
      expected.push_back({{L({I(results[i]), rows[i]})}, 1});
    }
    EXPECT_EQ(RunGroup(op, vals), Rows(expected)) << func;
  };
  expect("row_number", {1, 2, 3, 4});
  expect("rank", {1, 1, 3, 4});
  expect("dense_rank", {1, 1, 2, 3});
}

TEST(WindowFunction, FusedLagLead) {
  ReduceOp op = Single(
      "fused_value_window_func[lag[order_by=[]], lead[order_by=[]] order_by=[]]"
      "(row(row(row(#0), row(row(#0, 1, null), row(#0, 1, null)))))",
      true);
  auto input = [](int64_t x) {
    return L({L({L({I(x)}), L({L({I(x), I(1), N}), L({I(x), I(1), N})})})});
  };
  auto out = [](Datum lag, Datum lead, int64_t x) {
    return RowDiff{{L({L({std::move(lag), std::move(lead)}), L({I(x)})})}, 1};
  };
  EXPECT_EQ(RunGroup(op, {{input(3), 1}, {input(1), 1}, {input(2), 1}}),
            Rows({out(N, I(2), 1), out(I(1), I(3), 2), out(I(2), N, 3)}));
}

TEST(WindowFunction, MfpAfterRunsPerUnnestedRowAndKeyComesFirst) {
  ReduceOp op = Single(
      "lag[order_by=[#0 asc nulls_last]](row(row(row(#0), row(#0, 1, null)), "
      "#0))",
      true);
  op.key_plan = Mfp({}, {}, std::vector<int>{1});
  op.val_plan = Mfp({}, {}, std::vector<int>{0});
  op.mfp_after = Mfp({}, {"(record_get[0](#1) < 14)"}, std::nullopt);
  Multiset vals = Rows({{{LagLeadInput(10, I(10), I(1), N)}, 1},
                        {{LagLeadInput(20, I(20), I(1), N)}, 1},
                        {{LagLeadInput(30, I(30), I(1), N)}, 1}});
  absl::StatusOr<Multiset> out = ReduceGroup(op, {S("g")}, vals);
  ASSERT_TRUE(out.ok()) << out.status();
  // Lags: NULL (dropped by the filter), 10 (kept), 20 (dropped).
  EXPECT_EQ(*out, Rows({{{S("g"), L({I(10), L({I(20)})})}, 1}}));
}

TEST(WindowFunction, EmptyNegativeAndMalformedGroups) {
  ReduceOp op = Single(
      "lead[order_by=[#0 asc nulls_last]](row(row(row(#0), row(#0, 1, 0)), "
      "#0))",
      true);
  absl::StatusOr<Multiset> empty = ReduceGroup(op, {}, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  absl::StatusOr<Multiset> negative =
      ReduceGroup(op, {},
                  Rows({{{LagLeadInput(1, I(1), I(1), I(0))}, 2},
                        {{LagLeadInput(2, I(2), I(1), I(0))}, -1}}));
  EXPECT_EQ(negative.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(
      absl::StrContains(negative.status().message(), "negative multiplicity"));
  // Not a record of (payload, order key).
  EXPECT_EQ(ReduceGroup(op, {}, Rows({{{I(4)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  // A group too large to materialize is an error, not an allocation.
  EXPECT_EQ(ReduceGroup(
                op, {},
                Rows({{{LagLeadInput(1, I(1), I(1), I(0))}, int64_t{1} << 40}}))
                .status()
                .code(),
            absl::StatusCode::kOutOfRange);
}

TEST(WindowFunction, UnsupportedFormsAreReportedWhenBuilt) {
  auto check = [](const std::string& aggr, bool unnest) {
    return CheckNode(Node{Single(aggr, unnest)});
  };
  EXPECT_TRUE(
      check("lag[ignore_nulls=true, order_by=[#0 desc nulls_first]](#0)", true)
          .ok());
  EXPECT_EQ(check("lag[bogus=1](#0)", true).message(),
            "unsupported aggregate lag[bogus=1]");
  EXPECT_EQ(check("fused_value_window_func[first_value[order_by=[]], "
                  "lag[order_by=[]] order_by=[]](#0)",
                  true)
                .code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(check("fused_value_window_func[lag[order_by=[#0 asc nulls_last]] "
                  "order_by=[]](#0)",
                  true)
                .code(),
            absl::StatusCode::kInvalidArgument);
  // Materialize unnests only a window function's list.
  EXPECT_EQ(check("array_agg[order_by=[]](#0)", true).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_EQ(check("first_value[order_by=[]](#0)", true).code(),
            absl::StatusCode::kUnimplemented);
}

// ---- JSON data form
// ----------------------------------------------------------

TEST(NestedData, ListsAndArraysAreTaggedObjects) {
  absl::StatusOr<InputData> data = ParseInputData(
      R"({"collections": {"t": {"arity": 2, "updates": [
          [[{"list": [1, "x", null, {"array": [2.5]}]}, {"array": []}], 0, 1]]}}})",
      "d.json");
  ASSERT_TRUE(data.ok()) << data.status();
  const DataRow& row = data->collections.at("t").updates[0].row;
  EXPECT_EQ(row[0], L({I(1), S("x"), N, A({F(2.5)})}));
  EXPECT_EQ(row[1], A({}));
  EXPECT_EQ(DatumToJson(row[0]).dump(),
            R"({"list":[1,"x",null,{"array":[2.5]}]})");
  // Written and read back: the same data.
  absl::StatusOr<InputData> again = ParseInputData(InputDataToJson(*data), "x");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->collections.at("t").updates[0].row, row);
  for (const char* bad :
       {R"({"map": []})", R"({"list": 1})", R"({"list": [], "array": []})",
        R"({"list": [{"x": 1}]})"}) {
    absl::StatusOr<InputData> parsed = ParseInputData(
        std::string(R"({"collections": {"t": {"arity": 1, "updates": [[[)") +
            bad + "], 0, 1]]}}}",
        "d.json");
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
    // Line 1, column 50: the value.
    EXPECT_TRUE(
        absl::StartsWith(parsed.status().message(),
                         "d.json:1:50: collections[\"t\"].updates[0] value 0:"))
        << parsed.status();
  }
}

}  // namespace
}  // namespace lir::eval
