// The per-group semantics of the reference evaluator: aggregates, TopK,
// table functions, join stages, Constant, CheckNode, and a sweep of
// CheckNode over the corpus. Scalar expressions and MFPs are in
// eval_scalar_test.cc.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "src/eval/operators.h"
#include "src/explain/text_primitives.h"
#include "tests/support/corpus_util.h"
#include "tests/support/eval_scalar_test_util.h"
#include "tests/support/plan_text_gen.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

/// Parses a one-object plan (`body` indented by two spaces per level,
/// starting at level 1) and returns its root.
NodePtr Plan(const std::string& body) {
  absl::StatusOr<Document> doc = explain::ParseText(
      absl::StrCat(test::kQueryHeader, body, "\nTarget cluster: q\n"));
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << body;
  if (!doc.ok() || doc->objects.empty()) return nullptr;
  return std::move(doc->objects[0].plan);
}

// ---- Reduce ----------------------------------------------------------------

AggregateExpr Agg(std::string func, bool distinct = false) {
  AggregateExpr a;
  a.func = std::move(func);
  a.distinct = distinct;
  a.expr = E("#0");
  return a;
}

/// A Basic reduce over val columns with the given aggregates.
ReduceOp Basic(std::vector<AggregateExpr> aggrs) {
  ReduceOp op;
  op.kind =
      aggrs.size() == 1 ? ReduceKind::kBasicSingle : ReduceKind::kBasicMultiple;
  op.aggrs = std::move(aggrs);
  return op;
}

Multiset Vals(std::vector<RowDiff> updates) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(updates));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Multiset{};
}

/// The group's one output row (nullopt for none); a group of these
/// aggregates never outputs more than one row, once.
std::optional<DataRow> Group(const ReduceOp& op, const DataRow& key,
                             const Multiset& vals) {
  absl::StatusOr<Multiset> out = ReduceGroup(op, key, vals);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok() || out->empty()) return std::nullopt;
  EXPECT_EQ(out->size(), 1u);
  EXPECT_EQ(out->front().second, 1);
  return out->front().first;
}

TEST(Reduce, CountSumMinMaxWithNullsAndMultiplicities) {
  ReduceOp op = Basic({Agg("count"), Agg("sum"), Agg("min"), Agg("max")});
  // Column p feeds aggregate p.
  Multiset vals = Vals({{{I(3), I(3), I(3), I(3)}, 2},
                        {{N, N, N, N}, 5},
                        {{I(-1), I(-1), I(-1), I(-1)}, 1}});
  EXPECT_EQ(Group(op, {S("k")}, vals),
            (DataRow{S("k"), I(3), I(5), I(-1), I(3)}));
  // Only NULLs: count 0, the others NULL; the group still exists.
  EXPECT_EQ(Group(op, {}, Vals({{{N, N, N, N}, 3}})), (DataRow{I(0), N, N, N}));
  // No rows: no group (global aggregates get their default row from the plan).
  EXPECT_EQ(Group(op, {}, {}), std::nullopt);
}

TEST(Reduce, CountStarReadsTrue) {
  ReduceOp op;
  op.kind = ReduceKind::kAccumulable;
  op.simple_aggrs = {{0, Agg("count")}};
  op.val_plan = Mfp({"true"}, {}, std::vector<int>{1});
  absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>> kv =
      ReduceKeyVal(op, {I(9)});
  ASSERT_TRUE(kv.ok() && kv->has_value());
  EXPECT_EQ((*kv)->first, (DataRow{I(9)}));  // key_plan = id
  EXPECT_EQ((*kv)->second, (DataRow{B(true)}));
  EXPECT_EQ(Group(op, {I(9)}, Vals({{{B(true)}, 4}})), (DataRow{I(9), I(4)}));
}

TEST(Reduce, SumFloatsAndOverflow) {
  ReduceOp op = Basic({Agg("sum")});
  EXPECT_EQ(Group(op, {}, Vals({{{F(1.5)}, 2}, {{I(1)}, 1}})),
            (DataRow{F(4.0)}));
  absl::StatusOr<Multiset> out = ReduceGroup(
      op, {}, Vals({{{I(std::numeric_limits<int64_t>::max() / 2 + 1)}, 2}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange) << out.status();
  out = ReduceGroup(
      op, {},
      Vals({{{I(std::numeric_limits<int64_t>::max())}, 1}, {{I(1)}, 1}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(ReduceGroup(op, {}, Vals({{{S("x")}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Reduce, DistinctAggregates) {
  ReduceOp op;
  op.kind = ReduceKind::kAccumulable;
  // SELECT sum(b), count(DISTINCT b): distinct at position 1.
  op.simple_aggrs = {{0, Agg("sum")}};
  op.distinct_aggrs = {{1, Agg("count", true)}};
  Multiset vals = Vals({{{I(2), I(2)}, 3}, {{I(5), I(5)}, 1}, {{N, N}, 2}});
  EXPECT_EQ(Group(op, {}, vals), (DataRow{I(11), I(2)}));
  ReduceOp sums =
      Basic({Agg("sum", true), Agg("count", true), Agg("max", true)});
  // Distinct values may arrive in different val rows.
  Multiset spread = Vals(
      {{{I(2), I(7), I(1)}, 3}, {{I(2), I(7), I(4)}, 1}, {{I(3), N, N}, 1}});
  EXPECT_EQ(Group(sums, {}, spread), (DataRow{I(5), I(1), I(4)}));
}

TEST(Reduce, AnyAll) {
  ReduceOp op = Basic({Agg("any"), Agg("all")});
  EXPECT_EQ(
      Group(op, {}, Vals({{{B(true), B(true)}, 1}, {{B(false), B(false)}, 1}})),
      (DataRow{B(true), B(false)}));
  EXPECT_EQ(Group(op, {}, Vals({{{B(false), B(true)}, 2}, {{N, N}, 1}})),
            (DataRow{B(false), B(true)}));
  EXPECT_EQ(Group(op, {}, Vals({{{N, N}, 1}})), (DataRow{N, N}));
  EXPECT_EQ(ReduceGroup(op, {}, Vals({{{I(1), I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Reduce, MinMaxOfStringsAndMixedNumbers) {
  ReduceOp op = Basic({Agg("min"), Agg("max")});
  EXPECT_EQ(Group(op, {},
                  Vals({{{S("b"), S("b")}, 1},
                        {{S("a"), S("a")}, 1},
                        {{S("c"), S("c")}, 1}})),
            (DataRow{S("a"), S("c")}));
  EXPECT_EQ(Group(op, {},
                  Vals({{{I(2), I(2)}, 1},
                        {{F(1.5), F(1.5)}, 1},
                        {{F(2.5), F(2.5)}, 1}})),
            (DataRow{F(1.5), F(2.5)}));
}

TEST(Reduce, HierarchicalReadsOneColumnPerFunction) {
  ReduceOp op;
  op.kind = ReduceKind::kHierarchicalMonotonic;
  op.aggr_funcs = {"min", "max"};
  op.key_plan = Mfp({}, {}, std::vector<int>{0});
  op.val_plan = Mfp({}, {}, std::vector<int>{1, 1});
  auto kv = ReduceKeyVal(op, {S("g"), I(4)});
  ASSERT_TRUE(kv.ok() && kv->has_value());
  EXPECT_EQ((*kv)->first, (DataRow{S("g")}));
  EXPECT_EQ((*kv)->second, (DataRow{I(4), I(4)}));
  EXPECT_EQ(Group(op, {S("g")}, Vals({{{I(4), I(4)}, 1}, {{I(9), I(9)}, 1}})),
            (DataRow{S("g"), I(4), I(9)}));
}

TEST(Reduce, DistinctKind) {
  ReduceOp op;
  op.kind = ReduceKind::kDistinct;
  op.val_plan = Mfp({}, {}, std::vector<int>{});
  EXPECT_EQ(Group(op, {I(1), I(2)}, Vals({{{}, 3}})), (DataRow{I(1), I(2)}));
  EXPECT_EQ(Group(op, {I(1)}, {}), std::nullopt);
  absl::StatusOr<Multiset> neg = ReduceGroup(op, {I(1)}, Vals({{{}, -1}}));
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(
      absl::StrContains(neg.status().message(), "negative multiplicity"));
}

TEST(Reduce, NegativeMultiplicityIsAnError) {
  ReduceOp op = Basic({Agg("count")});
  // Even when the group's total is positive.
  absl::StatusOr<Multiset> out =
      ReduceGroup(op, {}, Vals({{{I(1)}, 3}, {{I(2)}, -1}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(
      absl::StrContains(out.status().message(), "negative multiplicity"));
}

TEST(Reduce, FiltersOfPlansAndMfpAfter) {
  ReduceOp op = Basic({Agg("sum")});
  op.key_plan = Mfp({}, {"(#0 > 0)"}, std::vector<int>{0});
  op.val_plan = Mfp({}, {}, std::vector<int>{1});
  op.mfp_after = Mfp({}, {"(#1 > 10)"}, std::vector<int>{1});
  auto kv = ReduceKeyVal(op, {I(0), I(5)});
  ASSERT_TRUE(kv.ok());
  EXPECT_FALSE(kv->has_value());
  EXPECT_EQ(Group(op, {I(1)}, Vals({{{I(5)}, 3}})), (DataRow{I(15)}));
  EXPECT_EQ(Group(op, {I(1)}, Vals({{{I(5)}, 1}})), std::nullopt);
}

// ---- TopK ------------------------------------------------------------------

Multiset TopK(const TopKOp& op, std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> out = TopKGroup(op, Vals(std::move(rows)));
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : Multiset{};
}

TEST(TopK, OffsetLimitAndMultiplicities) {
  TopKOp op;
  op.order_by = {{0, false, true}};
  op.limit = E("3");
  op.offset = 1;
  // Sorted: 1 x2, 2 x1, 3 x3. Skip one 1, keep one 1, the 2 and one 3.
  Multiset out = TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}});
  EXPECT_EQ(out, (Multiset{{{I(1)}, 1}, {{I(2)}, 1}, {{I(3)}, 1}}));
  op.offset = 0;
  op.limit = E("4");
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}}),
            (Multiset{{{I(1)}, 2}, {{I(2)}, 1}, {{I(3)}, 1}}));
  op.limit = E("0");
  EXPECT_TRUE(TopK(op, {{{I(3)}, 3}}).empty());
  op.limit = E("null");  // unlimited
  op.offset = 4;
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}}),
            (Multiset{{{I(3)}, 2}}));
  op.limit.reset();
  op.offset = 0;
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}}).size(), 2u);
}

TEST(TopK, OrderNullsAndDirection) {
  const std::vector<RowDiff> rows = {
      {{N, I(1)}, 1}, {{I(1), I(2)}, 1}, {{I(5), I(3)}, 1}};
  TopKOp op;
  op.limit = E("1");
  op.order_by = {{0, false, true}};  // asc nulls_last
  EXPECT_EQ(TopK(op, rows), (Multiset{{{I(1), I(2)}, 1}}));
  op.order_by = {{0, false, false}};  // asc nulls_first
  EXPECT_EQ(TopK(op, rows), (Multiset{{{N, I(1)}, 1}}));
  op.order_by = {{0, true, true}};  // desc nulls_last
  EXPECT_EQ(TopK(op, rows), (Multiset{{{I(5), I(3)}, 1}}));
  op.order_by = {{0, true, false}};  // desc nulls_first
  EXPECT_EQ(TopK(op, rows), (Multiset{{{N, I(1)}, 1}}));
  // Second key after a tie on the first.
  op.order_by = {{0, false, true}, {1, true, true}};
  EXPECT_EQ(TopK(op, {{{I(1), I(2)}, 1}, {{I(1), I(7)}, 1}}),
            (Multiset{{{I(1), I(7)}, 1}}));
  // Full ties broken by the whole row (ascending).
  op.order_by = {{0, false, true}};
  EXPECT_EQ(TopK(op, {{{I(1), S("b")}, 1}, {{I(1), S("a")}, 1}}),
            (Multiset{{{I(1), S("a")}, 1}}));
}

TEST(TopK, MonotonicTop1AndGroupKey) {
  TopKOp op;
  op.kind = TopKKind::kMonotonicTop1;
  op.group_by = {1};
  op.order_by = {{0, true, false}};
  EXPECT_EQ(TopKGroupKey(op, {I(3), S("g")}), (DataRow{S("g")}));
  EXPECT_EQ(TopK(op, {{{I(3), S("g")}, 2}, {{I(9), S("g")}, 4}}),
            (Multiset{{{I(9), S("g")}, 1}}));
}

TEST(TopK, Errors) {
  TopKOp op;
  op.order_by = {{0, false, true}};
  op.limit = E("-1");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  op.limit = E("1.5");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  op.limit = E("2");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 2}, {{I(2)}, -1}})).status().code(),
            absl::StatusCode::kOutOfRange);
}

// ---- FlatMap
// -----------------------------------------------------------------

std::vector<DataRow> FlatMap(const FlatMapOp& op, const DataRow& row) {
  absl::StatusOr<std::vector<DataRow>> out = FlatMapRow(op, row);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<DataRow>{};
}

TEST(FlatMap, GenerateSeries) {
  FlatMapOp op;
  op.func = "generate_series";
  op.exprs = {E("#0"), E("#1")};
  EXPECT_EQ(FlatMap(op, {I(1), I(3)}),
            (std::vector<DataRow>{
                {I(1), I(3), I(1)}, {I(1), I(3), I(2)}, {I(1), I(3), I(3)}}));
  EXPECT_TRUE(FlatMap(op, {I(3), I(1)}).empty());
  EXPECT_TRUE(FlatMap(op, {N, I(1)}).empty());
  op.exprs = {E("#0"), E("#1"), E("-2")};
  op.mfp_after = Mfp({}, {"(#2 != 3)"}, std::vector<int>{2});
  EXPECT_EQ(FlatMap(op, {I(5), I(0)}), (std::vector<DataRow>{{I(5)}, {I(1)}}));
  op.exprs = {E("#0"), E("#1"), E("0")};
  EXPECT_EQ(FlatMapRow(op, {I(1), I(2)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Stops at the end of the integer range instead of wrapping around.
  op.exprs = {E("#0"), E("#1"), E("2")};
  op.mfp_after = MapFilterProject{};
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(FlatMap(op, {I(max - 2), I(max)}).size(), 2u);
}

TEST(FlatMap, RowsAreCountedAgainstTheBudgetBeforeTheyAreMade) {
  FlatMapOp op;
  op.func = "generate_series";
  op.exprs = {E("#0"), E("#1")};
  // 10 + 10 rows fit a budget of 20; 10 more do not.
  RowCounter rows(20, 3);
  ASSERT_TRUE(FlatMapRow(op, {I(1), I(10)}, &rows).ok());
  ASSERT_TRUE(FlatMapRow(op, {I(11), I(20)}, &rows).ok());
  absl::Status more = FlatMapRow(op, {I(1), I(10)}, &rows).status();
  EXPECT_EQ(more.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(more.message(),
                                "produced more than 20 rows in round 3"))
      << more;
  // The whole int64 range (2^64 values) is refused, not allocated; so is
  // a series past the default budget without a counter.
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  RowCounter all(kUnlimited - 1, 0);
  EXPECT_EQ(FlatMapRow(op, {I(min), I(max)}, &all).status().code(),
            absl::StatusCode::kResourceExhausted);
  // Without a budget, more rows than a vector can hold are out of memory
  // (not std::length_error).
  RowCounter unlimited(kUnlimited, 0);
  absl::Status too_many = FlatMapRow(op, {I(min), I(max)}, &unlimited).status();
  EXPECT_TRUE(absl::StrContains(too_many.message(), "out of memory"))
      << too_many;
  EXPECT_EQ(
      FlatMapRow(op, {I(1), I(kDefaultMaxRowsPerRound + 1)}).status().code(),
      absl::StatusCode::kResourceExhausted);
  // Steps of any sign count exactly: 5, 3, 1.
  op.exprs = {E("#0"), E("#1"), E("-2")};
  RowCounter three(3, 0);
  EXPECT_EQ(FlatMap(op, {I(5), I(0)}).size(), 3u);
  EXPECT_TRUE(FlatMapRow(op, {I(5), I(0)}, &three).ok());
}

TEST(FlatMap, WrapAndUnsupported) {
  FlatMapOp op;
  op.func = "wrap2";
  op.exprs = {E("1"), E("#0"), E("3"), E("4")};
  EXPECT_EQ(FlatMap(op, {I(7)}),
            (std::vector<DataRow>{{I(7), I(1), I(7)}, {I(7), I(3), I(4)}}));
  op.func = "unnest_list";
  op.exprs = {E("#0")};
  Node node{op};
  EXPECT_EQ(CheckNode(node).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CheckNode(node).message(),
            "unsupported table function unnest_list");
  EXPECT_EQ(FlatMapRow(op, {I(1)}).status().code(),
            absl::StatusCode::kUnimplemented);
}

// ---- Joins
// -------------------------------------------------------------------

TEST(Join, JoinedRowLayout) {
  // Stream (a, b, c) keyed by #2, thinning (#0, #1); lookup (x, y, z) keyed
  // by [#1]: value columns x, z.
  DataRow joined = JoinedRow({I(30)}, {I(10), I(20), I(30)}, {0, 1},
                             {S("x"), I(30), S("z")}, {E("#1")});
  EXPECT_EQ(joined, (DataRow{I(30), I(10), I(20), S("x"), S("z")}));
  // An expression key removes no column from the lookup value.
  joined = JoinedRow({I(31)}, {I(1)}, {}, {I(30), I(1)}, {E("(#0 + #1)")});
  EXPECT_EQ(joined, (DataRow{I(31), I(30), I(1)}));
  // A two-column key.
  joined = JoinedRow({I(1), I(2)}, {I(1), I(2), I(3)}, {2},
                     {I(2), S("v"), I(1)}, {E("#2"), E("#0")});
  EXPECT_EQ(joined, (DataRow{I(1), I(2), I(3), S("v")}));
}

TEST(Join, ApplyClosureWithReadyEquivalences) {
  JoinClosure closure;
  closure.ready_equivalences = {{E("#0"), E("#1")}, {E("#2"), E("(#0 + 1)")}};
  closure.mfp = Mfp({"(#0 * 10)"}, {}, std::vector<int>{3});
  auto run = [&](DataRow row) {
    absl::StatusOr<std::optional<DataRow>> out =
        ApplyClosure(closure, std::move(row));
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? *out : std::nullopt;
  };
  EXPECT_EQ(run({I(1), I(1), I(2)}), (DataRow{I(10)}));
  EXPECT_EQ(run({I(1), F(1.0), F(2.0)}), (DataRow{I(10)}));  // numeric equality
  EXPECT_EQ(run({I(1), I(2), I(2)}), std::nullopt);
  EXPECT_EQ(run({I(1), I(1), I(3)}), std::nullopt);
  EXPECT_EQ(run({N, N, I(2)}), std::nullopt);  // NULL = NULL is not true
  absl::StatusOr<std::optional<DataRow>> none =
      ApplyClosure(std::nullopt, {I(4)});
  ASSERT_TRUE(none.ok() && none->has_value());
  EXPECT_EQ(**none, (DataRow{I(4)}));
}

// ---- Constant, CheckNode
// -------------------------------------------------------

// A Constant of one row holding one literal of `kind` written `text`.
ConstantOp OneLiteralRow(LiteralKind kind, const std::string& text) {
  Literal literal;
  literal.kind = kind;
  literal.text = text;
  ConstantOp op;
  op.rows = {{{literal}, 1}};
  return op;
}

TEST(Constant, RowsAndErrors) {
  NodePtr root = Plan(
      "  Constant\n    - ((1, \"a\") x 2)\n    - (1, \"a\")\n    - ((2, null) "
      "x -1)");
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(CheckNode(*root).ok()) << CheckNode(*root);
  absl::StatusOr<Multiset> rows = ConstantRows(root->As<ConstantOp>());
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Multiset{{{I(1), S("a")}, 3}, {{I(2), N}, -1}}));
  ConstantOp error;
  error.error = "division by zero";
  EXPECT_EQ(ConstantRows(error).status(),
            absl::InvalidArgumentError("division by zero"));
  ConstantOp elided;
  elided.rows = {{{Literal::Int(1)}, 1}};
  elided.elided_total_rows = 40;
  EXPECT_EQ(CheckNode(Node{elided}).code(), absl::StatusCode::kInvalidArgument);
  // A literal kind without a datum (a time of day) is unsupported; a date
  // is a datum.
  const ConstantOp time = OneLiteralRow(LiteralKind::kTime, "12:00:00");
  EXPECT_EQ(CheckNode(Node{time}).code(), absl::StatusCode::kUnimplemented);
  const ConstantOp date = OneLiteralRow(LiteralKind::kDate, "1997-07-06");
  EXPECT_TRUE(CheckNode(Node{date}).ok()) << CheckNode(Node{date});
  absl::StatusOr<Multiset> dates = ConstantRows(date);
  ASSERT_TRUE(dates.ok()) << dates.status();
  EXPECT_EQ(FormatRow(dates->at(0).first), "(1997-07-06)");
}

TEST(CheckNode, Payloads) {
  NodePtr reduce = Plan(
      "  Reduce::Basic\n"
      "    aggr=(jsonb_object_agg[order_by=[]](row(row(#1{b}, #1{b}))))\n"
      "    key_plan\n      project=(#0)\n"
      "    val_plan\n      project=(#2)\n      map=(row(row(#1{b}, #1{b})))\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(CheckNode(*reduce).message(),
            "unsupported aggregate jsonb_object_agg");
  NodePtr accumulable = Plan(
      "  Reduce::Accumulable\n"
      "    simple_aggrs[0]=(1, sum(#1{b}))\n"
      "    distinct_aggrs[0]=(0, count(distinct #1{b}))\n"
      "    key_plan\n      project=(#0)\n"
      "    val_plan\n      project=(#1, #1)\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(accumulable, nullptr);
  EXPECT_TRUE(CheckNode(*accumulable).ok()) << CheckNode(*accumulable);
  // Output positions: count distinct first, then sum.
  EXPECT_EQ(Group(accumulable->As<ReduceOp>(), {I(1)},
                  Vals({{{I(4), I(4)}, 2}, {{I(5), I(5)}, 1}})),
            (DataRow{I(1), I(2), I(13)}));
  NodePtr mfp = Plan(
      "  Mfp\n    project=(#2)\n    map=(md5(#0))\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(mfp, nullptr);
  EXPECT_EQ(CheckNode(*mfp).message(), "unsupported function md5");
  NodePtr topk = Plan(
      "  TopK::Basic order_by=[#1 asc nulls_last] limit=5\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(topk, nullptr);
  EXPECT_TRUE(CheckNode(*topk).ok()) << CheckNode(*topk);
  NodePtr flat = Plan(
      "  FlatMap generate_series(#0{a}, #1{b}, 1)\n    mfp_after\n      "
      "project=(#2)\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(flat, nullptr);
  EXPECT_TRUE(CheckNode(*flat).ok()) << CheckNode(*flat);
  ReduceOp hierarchical;
  hierarchical.kind = ReduceKind::kHierarchicalBucketed;
  hierarchical.aggr_funcs = {"min", "sum"};
  EXPECT_EQ(CheckNode(Node{hierarchical}).code(),
            absl::StatusCode::kUnimplemented);
  ReduceOp repeated;
  repeated.kind = ReduceKind::kAccumulable;
  repeated.simple_aggrs = {{0, Agg("sum")}, {0, Agg("count")}};
  EXPECT_EQ(CheckNode(Node{repeated}).code(),
            absl::StatusCode::kInvalidArgument);
  GetOp get;
  get.kind = GetKind::kCollection;
  get.mfp.temporal = TemporalFilter{{}, {E("#0")}};
  EXPECT_TRUE(CheckNode(Node{get}).ok()) << CheckNode(Node{get});
  get.mfp.map = {E("mz_now()")};
  EXPECT_EQ(CheckNode(Node{get}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(CheckNode(Node{get}).message(),
                               "mz_now() in a map expression"))
      << CheckNode(Node{get});
  JoinOp join;
  join.paths.resize(1);
  join.paths[0].stages.resize(1);
  join.paths[0].stages[0].lookup_relation = 1;
  join.paths[0].stages[0].lookup_key = {E("#0")};
  join.paths[0].stages[0].stream_key = {E("#0")};
  join.paths[0].final_closure =
      JoinClosure{Mfp({"record_get[x](#0)"}, {}, std::nullopt), {}};
  NodePtr join_node = MakeNode(join);
  join_node->inputs.push_back(MakeNode(NegateOp{}));
  join_node->inputs.push_back(MakeNode(NegateOp{}));
  EXPECT_EQ(CheckNode(*join_node).code(), absl::StatusCode::kUnimplemented);
  join_node->As<JoinOp>().paths[0].final_closure.reset();
  EXPECT_TRUE(CheckNode(*join_node).ok()) << CheckNode(*join_node);
}

// ---- The corpus
// --------------------------------------------------------------

using CorpusPlan = test::ParsedPlan;

const std::vector<CorpusPlan>& Corpus() { return test::ParsedPlans(); }

#define SKIP_WITHOUT_CORPUS() LIR_SKIP_WITHOUT_CORPUS(Corpus().empty())

TEST(EvalCorpus, CheckNodeSweep) {
  SKIP_WITHOUT_CORPUS();
  size_t supported = 0, nodes = 0;
  std::map<std::string, int> blockers;  // first failure per plan
  std::map<std::string, int> node_failures;
  std::map<std::string, bool> by_name;
  for (const CorpusPlan& plan : Corpus()) {
    std::optional<std::string> first;
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        ++nodes;
        absl::Status s = CheckNode(node);
        if (s.ok()) return;
        // Only gaps (Unimplemented) and unrunnable payloads (InvalidArgument).
        EXPECT_TRUE(s.code() == absl::StatusCode::kUnimplemented ||
                    s.code() == absl::StatusCode::kInvalidArgument)
            << plan.name << ": " << s;
        ++node_failures[std::string(s.message())];
        if (!first.has_value()) first = std::string(s.message());
      });
    }
    by_name[plan.name] = !first.has_value();
    if (first.has_value()) {
      ++blockers[*first];
    } else {
      ++supported;
    }
  }
  std::cout << "[ corpus ] " << supported << " of " << Corpus().size()
            << " plans fully supported (" << nodes << " nodes)\n";
  for (const auto& [why, count] : blockers) {
    std::cout << "[ blocks ] " << count << " plans: " << why << "\n";
  }
  for (const auto& [why, count] : node_failures) {
    std::cout << "[ nodes  ] " << count << " nodes: " << why << "\n";
  }
  EXPECT_GT(supported, Corpus().size() / 2);
  // Plans whose every construct is in the supported set.
  for (const char* name :
       {"physical_plan_as_text-L434.plan",     // sum, count distinct
        "physical_plan_as_text-L391.plan",     // generate_series
        "physical_plan_as_text-L247.plan",     // TopK
        "physical_plan_as_text-L1253.plan",    // delta join
        "physical_plan_as_text-L515.plan"}) {  // min/max
    EXPECT_TRUE(by_name[name]) << name;
  }
  EXPECT_TRUE(by_name["physical_plan_aggregates-L22.plan"]);  // array_agg
  EXPECT_TRUE(by_name["window_funcs-L7822.plan"]);  // fused lag, record_get
  // Redacted literals stay unsupported.
  EXPECT_FALSE(by_name["physical_plan_as_text_redacted-L648.plan"]);
}

/// Every expression that CheckScalar accepts evaluates without
/// Unimplemented on arbitrary rows (data errors are fine).
TEST(EvalCorpus, CheckedExpressionsNeverHitUnimplemented) {
  SKIP_WITHOUT_CORPUS();
  std::vector<DataRow> rows;
  for (const Datum& d : {N, I(0), I(7), F(2.5), B(true), S("x")}) {
    rows.push_back(DataRow(64, d));
  }
  size_t checked = 0;
  auto visit = [&](const ScalarExpr& e) {
    if (!CheckScalar(e).ok()) return;
    ++checked;
    for (const DataRow& row : rows) {
      absl::Status s = EvalScalar(e, row).status();
      EXPECT_NE(s.code(), absl::StatusCode::kUnimplemented)
          << explain::PrintExpr(e) << ": " << s;
      EXPECT_NE(s.code(), absl::StatusCode::kInternal) << explain::PrintExpr(e);
    }
  };
  auto visit_mfp = [&](const MapFilterProject& mfp) {
    for (const ScalarExpr& e : mfp.map) visit(e);
    for (const ScalarExpr& e : mfp.filter) visit(e);
  };
  for (const CorpusPlan& plan : Corpus()) {
    for (const SourceBlock& source : plan.doc.sources) visit_mfp(source.mfp);
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        if (node.Is<MfpOp>()) visit_mfp(node.As<MfpOp>().mfp);
        if (node.Is<GetOp>()) visit_mfp(node.As<GetOp>().mfp);
        if (node.Is<ReduceOp>()) {
          visit_mfp(node.As<ReduceOp>().key_plan);
          visit_mfp(node.As<ReduceOp>().val_plan);
        }
        if (node.Is<JoinOp>()) {
          for (const JoinPath& path : node.As<JoinOp>().paths) {
            for (const JoinStage& stage : path.stages) {
              if (stage.closure.has_value()) visit_mfp(stage.closure->mfp);
            }
            if (path.final_closure.has_value())
              visit_mfp(path.final_closure->mfp);
          }
        }
      });
    }
  }
  EXPECT_GT(checked, 50u);
}

}  // namespace
}  // namespace lir::eval
