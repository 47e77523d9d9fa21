// Test helpers for json_test.cc (split out to keep files short): structural
// equality of documents (the op structs have no operator==) and hand-built
// documents that use every node kind and optional field.
#ifndef LIR_TESTS_SUPPORT_JSON_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_JSON_TEST_UTIL_H_

#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/node.h"

namespace lir::test::json_plan {

// ---- Structural equality
// ------------------------------------------------------

inline bool SameOp(const ConstantOp& a, const ConstantOp& b) {
  return std::tie(a.rows, a.error, a.error_redacted, a.elided_total_rows) ==
         std::tie(b.rows, b.error, b.error_redacted, b.elided_total_rows);
}
inline bool SameOp(const GetOp& a, const GetOp& b) {
  return std::tie(a.id, a.keys, a.kind, a.key, a.seek, a.mfp) ==
         std::tie(b.id, b.keys, b.kind, b.key, b.seek, b.mfp);
}
inline bool SameOp(const LetOp& a, const LetOp& b) { return a.id == b.id; }
inline bool SameOp(const LetRecOp& a, const LetRecOp& b) {
  return std::tie(a.ids, a.limits) == std::tie(b.ids, b.limits);
}
inline bool SameOp(const MfpOp& a, const MfpOp& b) {
  return std::tie(a.mfp, a.input_key, a.input_val) ==
         std::tie(b.mfp, b.input_key, b.input_val);
}
inline bool SameOp(const FlatMapOp& a, const FlatMapOp& b) {
  return std::tie(a.func, a.exprs, a.input_key, a.mfp_after) ==
         std::tie(b.func, b.exprs, b.input_key, b.mfp_after);
}
inline bool SameOp(const JoinOp& a, const JoinOp& b) {
  return std::tie(a.delta, a.paths) == std::tie(b.delta, b.paths);
}
inline bool SameOp(const ReduceOp& a, const ReduceOp& b) {
  return std::tie(a.kind, a.simple_aggrs, a.distinct_aggrs, a.aggr_funcs,
                  a.must_consolidate, a.buckets, a.aggrs, a.fused_unnest_list,
                  a.input_key, a.temporal_bucketing, a.key_plan, a.val_plan,
                  a.mfp_after) ==
         std::tie(b.kind, b.simple_aggrs, b.distinct_aggrs, b.aggr_funcs,
                  b.must_consolidate, b.buckets, b.aggrs, b.fused_unnest_list,
                  b.input_key, b.temporal_bucketing, b.key_plan, b.val_plan,
                  b.mfp_after);
}
inline bool SameOp(const TopKOp& a, const TopKOp& b) {
  return std::tie(a.kind, a.group_by, a.order_by, a.limit, a.offset,
                  a.must_consolidate, a.temporal_bucketing) ==
         std::tie(b.kind, b.group_by, b.order_by, b.limit, b.offset,
                  b.must_consolidate, b.temporal_bucketing);
}
inline bool SameOp(const NegateOp&, const NegateOp&) { return true; }
inline bool SameOp(const ThresholdOp& a, const ThresholdOp& b) {
  return a.ensure_arrangement == b.ensure_arrangement;
}
inline bool SameOp(const UnionOp& a, const UnionOp& b) {
  return std::tie(a.consolidate_output, a.strategies) ==
         std::tie(b.consolidate_output, b.strategies);
}
inline bool SameOp(const ArrangeByOp& a, const ArrangeByOp& b) {
  return std::tie(a.input_key, a.temporal_bucketing, a.input_mfp, a.forms) ==
         std::tie(b.input_key, b.temporal_bucketing, b.input_mfp, b.forms);
}
inline bool SameOp(const SetDifferenceOp& a, const SetDifferenceOp& b) {
  return std::tie(a.ensure_arrangement, a.base_key, a.subtract_key) ==
         std::tie(b.ensure_arrangement, b.base_key, b.subtract_key);
}
inline bool SameOp(const AntiJoinOp& a, const AntiJoinOp& b) {
  return std::tie(a.key, a.base_key, a.keys_key) ==
         std::tie(b.key, b.base_key, b.keys_key);
}

// Compares two plans node by node (iteratively); reports the first
// difference as a test failure.
inline void ExpectSamePlan(const Node& a, const Node& b) {
  std::vector<std::pair<const Node*, const Node*>> stack = {{&a, &b}};
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    ASSERT_EQ(x->id, y->id);
    ASSERT_EQ(x->kind(), y->kind()) << "LirId " << x->id;
    // y by name: clang 14 cannot capture a structured binding.
    bool same = VisitPayload(x->op, [&y = y](const auto& op) {
      using Op = std::decay_t<decltype(op)>;
      return SameOp(op, OpAs<Op>(y->op));
    });
    ASSERT_TRUE(same) << "payload of LirId " << x->id << " ("
                      << KindName(x->kind()) << ") differs";
    ASSERT_EQ(x->inputs.size(), y->inputs.size()) << "LirId " << x->id;
    for (size_t i = 0; i < x->inputs.size(); ++i) {
      stack.push_back({x->inputs[i].get(), y->inputs[i].get()});
    }
  }
}

inline void ExpectSameDocument(const Document& a, const Document& b) {
  ASSERT_EQ(a.objects.size(), b.objects.size());
  for (size_t i = 0; i < a.objects.size(); ++i) {
    const Object& x = a.objects[i];
    const Object& y = b.objects[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.finish, y.finish) << x.name;
    EXPECT_EQ(x.fast_path, y.fast_path) << x.name;
    ASSERT_EQ(x.plan == nullptr, y.plan == nullptr) << x.name;
    if (x.plan != nullptr) ExpectSamePlan(*x.plan, *y.plan);
  }
  ASSERT_EQ(a.sources.size(), b.sources.size());
  for (size_t i = 0; i < a.sources.size(); ++i) {
    EXPECT_EQ(a.sources[i].name, b.sources[i].name);
    EXPECT_EQ(a.sources[i].mfp, b.sources[i].mfp);
    EXPECT_EQ(a.sources[i].pushdown, b.sources[i].pushdown);
  }
  EXPECT_EQ(a.used_indexes, b.used_indexes);
  EXPECT_EQ(a.target_cluster, b.target_cluster);
  EXPECT_EQ(a.notices, b.notices);
  EXPECT_EQ(a.optimization_time, b.optimization_time);
  EXPECT_EQ(a.node_identifiers, b.node_identifiers);
}

// ---- Builders
// ----------------------------------------------------------------

inline ScalarExpr Col(int c) { return ScalarExpr::Column(c); }
inline ScalarExpr Named(int c, std::string name) {
  return ScalarExpr::Column(c, std::move(name));
}
inline ScalarExpr Int(int64_t v) { return ScalarExpr::Lit(Literal::Int(v)); }
inline ScalarExpr Lit(LiteralKind kind, std::string text) {
  return ScalarExpr::Lit(Literal{kind, std::move(text)});
}
inline ScalarExpr Infix(std::string op, ScalarExpr a, ScalarExpr b) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return ScalarExpr::Call(CallStyle::kInfix, std::move(op), std::move(args));
}
inline ScalarExpr IsNull(ScalarExpr a) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  return ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", std::move(args));
}
inline ScalarExpr Not(ScalarExpr a) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  return ScalarExpr::Call(CallStyle::kNot, "NOT", std::move(args));
}

// An expression using every expression kind, call style and literal kind.
inline ScalarExpr KitchenSinkExpr() {
  ScalarExpr record_get = ScalarExpr::Call(CallStyle::kFunction, "record_get",
                                           {Named(3, "My col")});
  record_get.params = "0";
  ScalarExpr empty_params =
      ScalarExpr::Call(CallStyle::kFunction, "mz_now", {});
  empty_params.params = "";  // present but empty: `mz_now[]()`
  ScalarExpr array = ScalarExpr::Call(
      CallStyle::kBracketList, "array",
      {Lit(LiteralKind::kDate, "1997-07-06"),
       Lit(LiteralKind::kTime, "12:00:00"),
       Lit(LiteralKind::kTimestamp, "2020-01-01 00:00:00.5"),
       Lit(LiteralKind::kTimestampTz, "2020-01-01 00:00:00 UTC"),
       Lit(LiteralKind::kInterval, "1 year 2 mons 3 days 04:05:06"),
       Lit(LiteralKind::kRedacted, "█"), Lit(LiteralKind::kOther, "0xdeadbeef"),
       ScalarExpr::Lit(Literal::String("a \"quoted\"\nline")),
       ScalarExpr::Lit(Literal::Null()), ScalarExpr::Lit(Literal::Bool(true)),
       Lit(LiteralKind::kNumber, "-1.5")});
  ScalarExpr lookup;
  lookup.kind = ScalarKind::kCaseLookup;
  lookup.args.push_back(Col(0));
  lookup.args.push_back(Int(1));
  lookup.args.push_back(Lit(LiteralKind::kString, "one"));
  lookup.args.push_back(Int(2));
  lookup.args.push_back(Lit(LiteralKind::kString, "two"));
  lookup.args.push_back(ScalarExpr::Opaque("some ~opaque/ text"));
  ScalarExpr and3 =
      ScalarExpr::Call(CallStyle::kInfix, "AND",
                       {Not(IsNull(Col(1))), Infix("=", record_get, Int(-5)),
                        Infix("||", array, empty_params)});
  return ScalarExpr::If(std::move(and3), std::move(lookup), Col(2));
}

inline MapFilterProject FullMfp() {
  MapFilterProject mfp;
  mfp.project = std::vector<int>{0, 1, 2, 2, 5};
  mfp.filter = {Infix(">", Named(0, "a"), Int(42)), IsNull(Col(1))};
  mfp.map = {Infix("+", Col(0), Int(1)), KitchenSinkExpr()};
  mfp.temporal = TemporalFilter{{Col(1)}, {Infix("+", Col(1), Int(7))}};
  return mfp;
}

inline MapFilterProject ProjectOnly(std::vector<int> project) {
  MapFilterProject mfp;
  mfp.project = std::move(project);
  return mfp;
}

inline ArrangementForm Arrangement() { return MakeColumnArrangement({1}, 3); }

inline AvailableCollections Arranged(bool raw) {
  AvailableCollections keys;
  keys.raw = raw;
  keys.arranged.push_back(Arrangement());
  keys.arranged.push_back(MakeArrangement({Infix("+", Col(0), Int(1))}, 2));
  return keys;
}

inline NodePtr GetGlobal(std::string name) {
  GetOp get;
  get.id = CollectionId::Global(std::move(name));
  get.keys = Arranged(false);
  return MakeNode(std::move(get));
}

inline NodePtr GetLocal(uint64_t n, GetKind kind) {
  GetOp get;
  get.id = CollectionId::Local(n);
  get.kind = kind;
  get.keys.raw = true;
  return MakeNode(std::move(get));
}

inline std::vector<NodePtr> Inputs(NodePtr a) {
  std::vector<NodePtr> v;
  v.push_back(std::move(a));
  return v;
}
inline std::vector<NodePtr> Inputs(NodePtr a, NodePtr b) {
  std::vector<NodePtr> v = Inputs(std::move(a));
  v.push_back(std::move(b));
  return v;
}
inline std::vector<NodePtr> Inputs(NodePtr a, NodePtr b, NodePtr c) {
  std::vector<NodePtr> v = Inputs(std::move(a), std::move(b));
  v.push_back(std::move(c));
  return v;
}

inline AggregateExpr Agg(std::string func, ScalarExpr expr,
                         bool distinct = false) {
  AggregateExpr agg;
  agg.func = std::move(func);
  agg.expr = std::move(expr);
  agg.distinct = distinct;
  return agg;
}

inline NodePtr Reduce(ReduceKind kind, NodePtr input) {
  ReduceOp r;
  r.kind = kind;
  switch (kind) {
    case ReduceKind::kDistinct: r.key_plan = ProjectOnly({0}); break;
    case ReduceKind::kAccumulable:
      r.simple_aggrs = {{0, Agg("count", ScalarExpr::Lit(Literal::Bool(true)))},
                        {2, Agg("sum", Named(1, "b"))}};
      r.distinct_aggrs = {{1, Agg("count", Col(1), /*distinct=*/true)}};
      r.input_key = std::vector<ScalarExpr>{};  // present but empty
      break;
    case ReduceKind::kHierarchicalMonotonic:
      r.aggr_funcs = {"min", "max"};
      r.must_consolidate = true;
      r.temporal_bucketing = true;
      break;
    case ReduceKind::kHierarchicalBucketed:
      r.aggr_funcs = {"max"};
      r.buckets = {268435456, 16777216, 4096, 16};
      r.input_key = std::vector<ScalarExpr>{Col(0), Col(1)};
      break;
    case ReduceKind::kBasicSingle: {
      AggregateExpr agg = Agg("array_agg", Col(1));
      agg.params = "order_by=[#0 desc nulls_first]";
      r.aggrs = {agg};
      r.fused_unnest_list = true;
      break;
    }
    case ReduceKind::kBasicMultiple:
      r.aggrs = {Agg("string_agg", Col(1)), Agg("list_agg", Col(2))};
      r.aggrs[0].params = "order_by=[]";
      break;
  }
  r.val_plan = ProjectOnly({1, 2});
  MapFilterProject after;
  after.filter = {Infix("!=", Col(0), Int(0))};
  after.map = {Lit(LiteralKind::kRedacted, "█")};
  after.project = std::vector<int>{1};
  if (kind != ReduceKind::kDistinct) r.mfp_after = after;
  return MakeNode(std::move(r), Inputs(std::move(input)));
}

inline JoinClosure Closure(bool with_equivalences) {
  JoinClosure closure;
  closure.mfp.project = std::vector<int>{0, 2};
  closure.mfp.filter = {Infix("<", Col(0), Int(10))};
  if (with_equivalences) {
    closure.ready_equivalences = {{Col(0), Col(3), Int(5)}, {Col(1), Col(4)}};
  }
  return closure;
}

inline JoinStage Stage(int relation, bool with_closure) {
  JoinStage stage;
  if (with_closure) stage.closure = Closure(false);
  stage.lookup_relation = relation;
  stage.lookup_key = {Named(0, "a")};
  stage.stream_key = {Col(0)};
  stage.stream_thinning = {1, 2};
  return stage;
}

// Plans that together use every node kind and every optional field.
inline NodePtr JoinsPlan() {
  JoinOp linear;
  JoinPath path;
  path.source_relation = 0;
  path.source_key = std::vector<ScalarExpr>{Named(0, "a")};
  path.initial_closure = Closure(false);
  path.stages = {Stage(1, true), Stage(2, false)};
  path.final_closure = Closure(true);
  linear.paths = {path};
  NodePtr linear_node =
      MakeNode(std::move(linear),
               Inputs(GetGlobal("materialize.public.t"), GetGlobal("u5"),
                      GetGlobal("materialize.public.v")));

  JoinOp delta;
  delta.delta = true;
  JoinPath raw_path;
  raw_path.source_relation = 1;  // source_key absent: `raw`
  raw_path.stages = {Stage(0, false)};
  JoinPath keyed_path;
  keyed_path.source_relation = 0;
  keyed_path.source_key = std::vector<ScalarExpr>{};  // present but empty
  keyed_path.stages = {Stage(1, true)};
  delta.paths = {keyed_path, raw_path};
  return MakeNode(
      std::move(delta),
      Inputs(std::move(linear_node), GetLocal(7, GetKind::kPassArrangements)));
}

inline NodePtr ReducesPlan() {
  NodePtr node = GetLocal(1, GetKind::kCollection);
  for (ReduceKind kind :
       {ReduceKind::kDistinct, ReduceKind::kAccumulable,
        ReduceKind::kHierarchicalMonotonic, ReduceKind::kHierarchicalBucketed,
        ReduceKind::kBasicSingle, ReduceKind::kBasicMultiple}) {
    node = Reduce(kind, std::move(node));
  }
  TopKOp top1;
  top1.kind = TopKKind::kMonotonicTop1;
  top1.group_by = {0, 1, 2, 4};
  top1.order_by = {{1, false, true}, {0, true, false}};
  top1.must_consolidate = true;
  node = MakeNode(std::move(top1), Inputs(std::move(node)));
  TopKOp topk;
  topk.kind = TopKKind::kMonotonicTopK;
  topk.limit = Int(5);
  topk.temporal_bucketing = true;
  node = MakeNode(std::move(topk), Inputs(std::move(node)));
  TopKOp basic;
  basic.kind = TopKKind::kBasic;
  basic.order_by = {{2, true, true}};
  basic.limit = Lit(LiteralKind::kRedacted, "█");
  basic.offset = 3;
  return MakeNode(std::move(basic), Inputs(std::move(node)));
}

inline NodePtr MiscPlan() {
  GetOp seek;
  seek.id = CollectionId::Global("materialize.public.t");
  seek.kind = GetKind::kArrangement;
  seek.key = {Named(0, "a"), Col(1)};
  seek.seek = Row{Literal::Int(5), Literal::String("x")};
  seek.mfp = ProjectOnly({});  // project to zero columns (not identity)
  seek.keys = Arranged(false);
  NodePtr get = MakeNode(std::move(seek));

  MfpOp mfp;
  mfp.mfp = FullMfp();
  mfp.input_key = std::vector<ScalarExpr>{Col(0)};
  mfp.input_val = Row{Literal::Null()};
  NodePtr mfp_node = MakeNode(std::move(mfp), Inputs(std::move(get)));

  FlatMapOp flat;
  flat.func = "regexp_extract(\"re\", _)";
  flat.exprs = {Col(0), Col(1), Col(2), Int(1)};
  flat.input_key = std::vector<ScalarExpr>{};
  flat.mfp_after = FullMfp();
  NodePtr flat_node = MakeNode(std::move(flat), Inputs(std::move(mfp_node)));

  ArrangeByOp arrange;
  arrange.input_key = std::vector<ScalarExpr>{Col(0)};
  arrange.temporal_bucketing = true;
  arrange.input_mfp = FullMfp();
  arrange.forms = Arranged(true);
  NodePtr arrange_node =
      MakeNode(std::move(arrange), Inputs(std::move(flat_node)));

  ThresholdOp threshold;
  threshold.ensure_arrangement = MakeColumnArrangement({2, 0}, 3);
  NodePtr threshold_node =
      MakeNode(std::move(threshold), Inputs(std::move(arrange_node)));
  NodePtr negate = MakeNode(NegateOp{}, Inputs(std::move(threshold_node)));

  ConstantOp rows;
  rows.rows = {{Row{Literal::Int(1), Literal::String("a")}, 1},
               {Row{}, -2},
               {Row{Literal::Redacted(), Literal::Redacted()}, 7}};
  ConstantOp error;
  error.error = "division by \"zero\"";
  ConstantOp redacted;
  redacted.error = "";
  redacted.error_redacted = true;
  ConstantOp elided;
  elided.rows = {{Row{Literal::Int(1)}, 3}};
  elided.elided_total_rows = 1234;
  ConstantOp empty;

  UnionOp u;
  u.consolidate_output = true;
  u.strategies = {UnionStrategy::kDirect, UnionStrategy::kTemporalBucketing,
                  UnionStrategy::kDirect, UnionStrategy::kDirect,
                  UnionStrategy::kDirect, UnionStrategy::kDirect};
  std::vector<NodePtr> union_inputs;
  union_inputs.push_back(std::move(negate));
  union_inputs.push_back(MakeNode(std::move(rows)));
  union_inputs.push_back(MakeNode(std::move(error)));
  union_inputs.push_back(MakeNode(std::move(redacted)));
  union_inputs.push_back(MakeNode(std::move(elided)));
  union_inputs.push_back(MakeNode(std::move(empty)));
  NodePtr union_node = MakeNode(std::move(u), std::move(union_inputs));

  SetDifferenceOp diff;
  diff.ensure_arrangement = Arrangement();
  diff.base_key = {0, 1};
  diff.subtract_key = {1, 0};
  NodePtr diff_node = MakeNode(
      std::move(diff),
      Inputs(std::move(union_node), GetLocal(2, GetKind::kPassArrangements)));
  AntiJoinOp anti;
  anti.key = {1, 0};
  anti.base_key = {1, 0};
  anti.keys_key = {0, 1};
  NodePtr anti_node = MakeNode(
      std::move(anti),
      Inputs(std::move(diff_node), GetGlobal("materialize.public.keys")));

  // Two nested Lets (printed as one `With`) inside a LetRec.
  NodePtr inner_let =
      MakeNode(LetOp{3},
               Inputs(GetLocal(9, GetKind::kCollection), std::move(anti_node)));
  NodePtr outer_let =
      MakeNode(LetOp{2},
               Inputs(GetLocal(1, GetKind::kCollection), std::move(inner_let)));
  LetRecOp rec;
  rec.ids = {1, 9};
  rec.limits = {std::nullopt, LetRecLimit{100, true}};
  NodePtr value1 =
      MakeNode(UnionOp{}, Inputs(GetLocal(1, GetKind::kCollection),
                                 GetLocal(9, GetKind::kCollection)));
  NodePtr value9 = GetGlobal("materialize.public.seed");
  return MakeNode(std::move(rec), Inputs(std::move(value1), std::move(value9),
                                         std::move(outer_let)));
}

inline Document FullDocument() {
  Document doc;
  Object& first = doc.objects.emplace_back();
  first.name = "materialize.public.mv";
  first.finish = Finish{{{3, false, true}, {0, true, false}}, 10, 2, {3, 6, 0}};
  first.plan = MiscPlan();
  Object& joins = doc.objects.emplace_back();
  joins.name = "materialize.public.joins";
  joins.plan = JoinsPlan();
  Object& reduces = doc.objects.emplace_back();
  reduces.name = "Explained Query";
  reduces.plan = ReducesPlan();
  Object& fast = doc.objects.emplace_back();
  fast.name = "Explained Query (fast path)";
  FastPath read;
  read.kind = FastPath::Kind::kReadIndex;
  read.project = std::vector<ScalarExpr>{Col(0), Col(1)};
  read.filter = {IsNull(Col(0))};
  read.map = {Int(1)};
  read.collection = "materialize.public.t";
  read.index = "t_a_idx";
  fast.fast_path = read;
  for (Object& object : doc.objects) {
    if (object.plan != nullptr) AssignPostOrderIds(*object.plan);
  }
  SourceBlock bare;
  bare.name = "materialize.public.t";
  SourceBlock full;
  full.name = "materialize.public.u";
  full.mfp.project = std::vector<int>{0, 1, 2};
  full.mfp.filter = {Infix(
      "<=", Col(0), ScalarExpr::Call(CallStyle::kFunction, "mz_now", {}))};
  full.mfp.map = {Int(1)};
  full.pushdown = std::vector<ScalarExpr>{IsNull(Col(0))};
  SourceBlock empty_pushdown;
  empty_pushdown.name = "u7";
  empty_pushdown.pushdown = std::vector<ScalarExpr>{};
  doc.sources = {bare, full, empty_pushdown};
  doc.used_indexes = std::vector<UsedIndex>{
      {"materialize.public.t_a_idx", {"*** full scan ***", "index export"}},
      {"[DELETED INDEX]", {"lookup"}}};
  doc.target_cluster = "quickstart";
  doc.notices =
      std::vector<std::string>{"  - Notice: something", "    Hint: x"};
  doc.optimization_time = "12.3ms";
  doc.node_identifiers = true;
  return doc;
}

}  // namespace lir::test::json_plan

#endif  // LIR_TESTS_SUPPORT_JSON_TEST_UTIL_H_
