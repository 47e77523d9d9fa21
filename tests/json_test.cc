// Tests of the JSON form: lossless round trips of hand-built documents that
// use every node kind and optional field, strict rejection of bad input,
// 100,000-deep plans, and the corpus through text -> JSON -> text.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/explain/json.h"
#include "src/explain/text.h"
#include "src/explain/text_primitives.h"
#include "src/lir/document.h"
#include "src/lir/node.h"

namespace lir::explain {
namespace {

using nlohmann::json;

// ---- Structural equality (the op structs have no operator==) ---------------

bool SameOp(const ConstantOp& a, const ConstantOp& b) {
  return std::tie(a.rows, a.error, a.error_redacted, a.elided_total_rows) ==
         std::tie(b.rows, b.error, b.error_redacted, b.elided_total_rows);
}
bool SameOp(const GetOp& a, const GetOp& b) {
  return std::tie(a.id, a.keys, a.kind, a.key, a.seek, a.mfp) ==
         std::tie(b.id, b.keys, b.kind, b.key, b.seek, b.mfp);
}
bool SameOp(const LetOp& a, const LetOp& b) { return a.id == b.id; }
bool SameOp(const LetRecOp& a, const LetRecOp& b) {
  return std::tie(a.ids, a.limits) == std::tie(b.ids, b.limits);
}
bool SameOp(const MfpOp& a, const MfpOp& b) {
  return std::tie(a.mfp, a.input_key, a.input_val) ==
         std::tie(b.mfp, b.input_key, b.input_val);
}
bool SameOp(const FlatMapOp& a, const FlatMapOp& b) {
  return std::tie(a.func, a.exprs, a.input_key, a.mfp_after) ==
         std::tie(b.func, b.exprs, b.input_key, b.mfp_after);
}
bool SameOp(const JoinOp& a, const JoinOp& b) {
  return std::tie(a.delta, a.paths) == std::tie(b.delta, b.paths);
}
bool SameOp(const ReduceOp& a, const ReduceOp& b) {
  return std::tie(a.kind, a.simple_aggrs, a.distinct_aggrs, a.aggr_funcs,
                  a.must_consolidate, a.buckets, a.aggrs, a.fused_unnest_list,
                  a.input_key, a.temporal_bucketing, a.key_plan, a.val_plan,
                  a.mfp_after) ==
         std::tie(b.kind, b.simple_aggrs, b.distinct_aggrs, b.aggr_funcs,
                  b.must_consolidate, b.buckets, b.aggrs, b.fused_unnest_list,
                  b.input_key, b.temporal_bucketing, b.key_plan, b.val_plan,
                  b.mfp_after);
}
bool SameOp(const TopKOp& a, const TopKOp& b) {
  return std::tie(a.kind, a.group_by, a.order_by, a.limit, a.offset,
                  a.must_consolidate, a.temporal_bucketing) ==
         std::tie(b.kind, b.group_by, b.order_by, b.limit, b.offset,
                  b.must_consolidate, b.temporal_bucketing);
}
bool SameOp(const NegateOp&, const NegateOp&) { return true; }
bool SameOp(const ThresholdOp& a, const ThresholdOp& b) {
  return a.ensure_arrangement == b.ensure_arrangement;
}
bool SameOp(const UnionOp& a, const UnionOp& b) {
  return std::tie(a.consolidate_output, a.strategies) ==
         std::tie(b.consolidate_output, b.strategies);
}
bool SameOp(const ArrangeByOp& a, const ArrangeByOp& b) {
  return std::tie(a.input_key, a.temporal_bucketing, a.input_mfp, a.forms) ==
         std::tie(b.input_key, b.temporal_bucketing, b.input_mfp, b.forms);
}
bool SameOp(const SetDifferenceOp& a, const SetDifferenceOp& b) {
  return std::tie(a.ensure_arrangement, a.base_key, a.subtract_key) ==
         std::tie(b.ensure_arrangement, b.base_key, b.subtract_key);
}

// Compares two plans node by node (iteratively); reports the first
// difference as a test failure.
void ExpectSamePlan(const Node& a, const Node& b) {
  std::vector<std::pair<const Node*, const Node*>> stack = {{&a, &b}};
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    ASSERT_EQ(x->id, y->id);
    ASSERT_EQ(x->kind(), y->kind()) << "LirId " << x->id;
    bool same = std::visit(
        [&](const auto& op) {
          using Op = std::decay_t<decltype(op)>;
          return SameOp(op, std::get<Op>(y->op));
        },
        x->op);
    ASSERT_TRUE(same) << "payload of LirId " << x->id << " ("
                      << KindName(x->kind()) << ") differs";
    ASSERT_EQ(x->inputs.size(), y->inputs.size()) << "LirId " << x->id;
    for (size_t i = 0; i < x->inputs.size(); ++i) {
      stack.push_back({x->inputs[i].get(), y->inputs[i].get()});
    }
  }
}

void ExpectSameDocument(const Document& a, const Document& b) {
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

// ToJson -> FromJson must give back the same document (structurally, as
// JSON, and as printed text), and so must WriteJson -> ReadJson.
void ExpectRoundTrip(const Document& doc) {
  json first = ToJson(doc);
  absl::StatusOr<Document> back = FromJson(first);
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameDocument(doc, *back);
  EXPECT_EQ(ToJson(*back).dump(), first.dump());
  EXPECT_EQ(PrintText(*back), PrintText(doc));

  absl::StatusOr<Document> reread = ReadJson(WriteJson(doc), "doc.json");
  ASSERT_TRUE(reread.ok()) << reread.status();
  ExpectSameDocument(doc, *reread);
}

// ---- Builders ----------------------------------------------------------------

ScalarExpr Col(int c) { return ScalarExpr::Column(c); }
ScalarExpr Named(int c, std::string name) {
  return ScalarExpr::Column(c, std::move(name));
}
ScalarExpr Int(int64_t v) { return ScalarExpr::Lit(Literal::Int(v)); }
ScalarExpr Lit(LiteralKind kind, std::string text) {
  return ScalarExpr::Lit(Literal{kind, std::move(text)});
}
ScalarExpr Infix(std::string op, ScalarExpr a, ScalarExpr b) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return ScalarExpr::Call(CallStyle::kInfix, std::move(op), std::move(args));
}
ScalarExpr IsNull(ScalarExpr a) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  return ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", std::move(args));
}
ScalarExpr Not(ScalarExpr a) {
  std::vector<ScalarExpr> args;
  args.push_back(std::move(a));
  return ScalarExpr::Call(CallStyle::kNot, "NOT", std::move(args));
}

// An expression using every expression kind, call style and literal kind.
ScalarExpr KitchenSinkExpr() {
  ScalarExpr record_get = ScalarExpr::Call(CallStyle::kFunction, "record_get",
                                           {Named(3, "My col")});
  record_get.params = "0";
  ScalarExpr empty_params =
      ScalarExpr::Call(CallStyle::kFunction, "mz_now", {});
  empty_params.params = "";  // present but empty: `mz_now[]()`
  ScalarExpr array = ScalarExpr::Call(
      CallStyle::kBracketList, "array",
      {Lit(LiteralKind::kDate, "1997-07-06"), Lit(LiteralKind::kTime, "12:00:00"),
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
  ScalarExpr and3 = ScalarExpr::Call(
      CallStyle::kInfix, "AND",
      {Not(IsNull(Col(1))), Infix("=", record_get, Int(-5)),
       Infix("||", array, empty_params)});
  return ScalarExpr::If(std::move(and3), std::move(lookup), Col(2));
}

MapFilterProject FullMfp() {
  MapFilterProject mfp;
  mfp.project = std::vector<int>{0, 1, 2, 2, 5};
  mfp.filter = {Infix(">", Named(0, "a"), Int(42)), IsNull(Col(1))};
  mfp.map = {Infix("+", Col(0), Int(1)), KitchenSinkExpr()};
  mfp.temporal = TemporalFilter{{Col(1)}, {Infix("+", Col(1), Int(7))}};
  return mfp;
}

MapFilterProject ProjectOnly(std::vector<int> project) {
  MapFilterProject mfp;
  mfp.project = std::move(project);
  return mfp;
}

ArrangementForm Arrangement() { return MakeColumnArrangement({1}, 3); }

AvailableCollections Arranged(bool raw) {
  AvailableCollections keys;
  keys.raw = raw;
  keys.arranged.push_back(Arrangement());
  keys.arranged.push_back(MakeArrangement({Infix("+", Col(0), Int(1))}, 2));
  return keys;
}

NodePtr GetGlobal(std::string name) {
  GetOp get;
  get.id = CollectionId::Global(std::move(name));
  get.keys = Arranged(false);
  return MakeNode(std::move(get));
}

NodePtr GetLocal(uint64_t n, GetKind kind) {
  GetOp get;
  get.id = CollectionId::Local(n);
  get.kind = kind;
  get.keys.raw = true;
  return MakeNode(std::move(get));
}

std::vector<NodePtr> Inputs(NodePtr a) {
  std::vector<NodePtr> v;
  v.push_back(std::move(a));
  return v;
}
std::vector<NodePtr> Inputs(NodePtr a, NodePtr b) {
  std::vector<NodePtr> v = Inputs(std::move(a));
  v.push_back(std::move(b));
  return v;
}
std::vector<NodePtr> Inputs(NodePtr a, NodePtr b, NodePtr c) {
  std::vector<NodePtr> v = Inputs(std::move(a), std::move(b));
  v.push_back(std::move(c));
  return v;
}

AggregateExpr Agg(std::string func, ScalarExpr expr, bool distinct = false) {
  AggregateExpr agg;
  agg.func = std::move(func);
  agg.expr = std::move(expr);
  agg.distinct = distinct;
  return agg;
}

NodePtr Reduce(ReduceKind kind, NodePtr input) {
  ReduceOp r;
  r.kind = kind;
  switch (kind) {
    case ReduceKind::kDistinct:
      r.key_plan = ProjectOnly({0});
      break;
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

JoinClosure Closure(bool with_equivalences) {
  JoinClosure closure;
  closure.mfp.project = std::vector<int>{0, 2};
  closure.mfp.filter = {Infix("<", Col(0), Int(10))};
  if (with_equivalences) {
    closure.ready_equivalences = {{Col(0), Col(3), Int(5)}, {Col(1), Col(4)}};
  }
  return closure;
}

JoinStage Stage(int relation, bool with_closure) {
  JoinStage stage;
  if (with_closure) stage.closure = Closure(false);
  stage.lookup_relation = relation;
  stage.lookup_key = {Named(0, "a")};
  stage.stream_key = {Col(0)};
  stage.stream_thinning = {1, 2};
  return stage;
}

// Plans that together use every node kind and every optional field.
NodePtr JoinsPlan() {
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
  return MakeNode(std::move(delta),
                  Inputs(std::move(linear_node), GetLocal(7, GetKind::kPassArrangements)));
}

NodePtr ReducesPlan() {
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

NodePtr MiscPlan() {
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

  // Two nested Lets (printed as one `With`) inside a LetRec.
  NodePtr inner_let =
      MakeNode(LetOp{3}, Inputs(GetLocal(9, GetKind::kCollection),
                                std::move(diff_node)));
  NodePtr outer_let = MakeNode(
      LetOp{2}, Inputs(GetLocal(1, GetKind::kCollection), std::move(inner_let)));
  LetRecOp rec;
  rec.ids = {1, 9};
  rec.limits = {std::nullopt, LetRecLimit{100, true}};
  NodePtr value1 = MakeNode(
      UnionOp{}, Inputs(GetLocal(1, GetKind::kCollection), GetLocal(9, GetKind::kCollection)));
  NodePtr value9 = GetGlobal("materialize.public.seed");
  return MakeNode(std::move(rec), Inputs(std::move(value1), std::move(value9),
                                         std::move(outer_let)));
}

Document FullDocument() {
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
  fast.fast_path = FastPath{{"Project (#0, #1)",
                             "  ReadIndex on=materialize.public.t t_a_idx=[*** full scan ***]"}};
  for (Object& object : doc.objects) {
    if (object.plan != nullptr) AssignPostOrderIds(*object.plan);
  }
  SourceBlock bare;
  bare.name = "materialize.public.t";
  SourceBlock full;
  full.name = "materialize.public.u";
  full.mfp.project = std::vector<int>{0, 1, 2};
  full.mfp.filter = {Infix("<=", Col(0), ScalarExpr::Call(CallStyle::kFunction,
                                                          "mz_now", {}))};
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
  doc.notices = std::vector<std::string>{"  - Notice: something", "    Hint: x"};
  doc.optimization_time = "12.3ms";
  doc.node_identifiers = true;
  return doc;
}

// ---- Round trips ------------------------------------------------------------

TEST(JsonRoundTrip, EveryNodeKindAndOptionalField) {
  Document doc = FullDocument();
  // The fixture must really cover every kind.
  std::vector<bool> seen(14, false);
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      seen[static_cast<size_t>(node.kind())] = true;
    });
  }
  for (size_t k = 0; k < seen.size(); ++k) {
    EXPECT_TRUE(seen[k]) << KindName(static_cast<NodeKind>(k));
  }
  ExpectRoundTrip(doc);
}

TEST(JsonRoundTrip, EmptyDocumentAndAbsentSections) {
  Document doc;
  ExpectRoundTrip(doc);
  json j = ToJson(doc);
  EXPECT_FALSE(j.contains("used_indexes"));
  EXPECT_FALSE(j.contains("target_cluster"));
  doc.used_indexes = std::vector<UsedIndex>{};  // `Used Indexes:` with no lines
  doc.notices = std::vector<std::string>{};
  ExpectRoundTrip(doc);
  j = ToJson(doc);
  ASSERT_TRUE(j.contains("used_indexes"));
  EXPECT_TRUE(j["used_indexes"].empty());
}

TEST(JsonRoundTrip, ProjectAbsentAndEmptyStayDistinct) {
  MfpOp identity;
  MfpOp empty_project;
  empty_project.mfp.project = std::vector<int>{};
  Document doc;
  for (MfpOp* op : {&identity, &empty_project}) {
    Object& object = doc.objects.emplace_back();
    object.name = "o";
    object.plan = MakeNode(std::move(*op), Inputs(GetGlobal("t")));
    AssignPostOrderIds(*object.plan);
  }
  json j = ToJson(doc);
  const json& absent = j["objects"][0]["plan"][1];
  const json& empty = j["objects"][1]["plan"][1];
  EXPECT_FALSE(absent.contains("mfp"));
  ASSERT_TRUE(empty.contains("mfp"));
  EXPECT_EQ(empty["mfp"]["project"], json::array());
  absl::StatusOr<Document> back = FromJson(j);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->objects[0].plan->As<MfpOp>().mfp.project.has_value());
  ASSERT_TRUE(back->objects[1].plan->As<MfpOp>().mfp.project.has_value());
  EXPECT_TRUE(back->objects[1].plan->As<MfpOp>().mfp.project->empty());
}

TEST(JsonRoundTrip, PlanIsFlatPostOrderWithRootLast) {
  Document doc = FullDocument();
  json j = ToJson(doc);
  const json& plan = j["objects"][0]["plan"];
  EXPECT_EQ(plan.size(), CountNodes(*doc.objects[0].plan));
  EXPECT_EQ(plan.back()["kind"], "LetRec");
  EXPECT_EQ(plan.back()["id"], doc.objects[0].plan->id);
  for (size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i]["id"], i + 1);  // post-order ids match positions
    for (const json& input : plan[i]["inputs"]) EXPECT_LT(input.get<size_t>(), i);
  }
}

TEST(JsonRead, DefaultsMayBeOmittedOrWritten) {
  // Minimal: every defaulted field left out.
  json minimal = json::parse(R"({
    "format": "lir-plan/1",
    "objects": [{"name": "Explained Query", "plan": [
      {"id": 1, "kind": "Get", "inputs": [],
       "collection": {"global": "t"}, "get_kind": "PassArrangements"},
      {"id": 2, "kind": "TopK", "inputs": [0], "topk_kind": "Basic"}
    ]}]
  })");
  // The same document with the defaults spelled out.
  json explicit_defaults = json::parse(R"({
    "format": "lir-plan/1",
    "objects": [{"name": "Explained Query", "plan": [
      {"id": 1, "kind": "Get", "inputs": [],
       "collection": {"global": "t"}, "get_kind": "PassArrangements",
       "keys": {"raw": false, "arranged": []}, "key": [], "seek": null,
       "mfp": {"filter": [], "map": []}},
      {"id": 2, "kind": "TopK", "inputs": [0], "topk_kind": "Basic",
       "group_by": [], "order_by": [], "offset": 0, "must_consolidate": false,
       "temporal_bucketing": false}
    ]}],
    "sources": [], "node_identifiers": false
  })");
  absl::StatusOr<Document> a = FromJson(minimal);
  absl::StatusOr<Document> b = FromJson(explicit_defaults);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectSameDocument(*a, *b);
  EXPECT_EQ(PrintText(*a),
            "Explained Query:\n  TopK::Basic\n    Get::PassArrangements t\n"
            "      raw=false\n");
  // The writer leaves the defaults out (but always writes the top level).
  json expected = minimal;
  expected["sources"] = json::array();
  expected["node_identifiers"] = false;
  EXPECT_EQ(ToJson(*b), expected) << ToJson(*b).dump();
}

TEST(JsonWrite, TwoSpaceIndentFinalNewlineAndInvalidUtf8) {
  Document doc;
  doc.target_cluster = std::string("bad \xff byte");
  std::string text;
  ASSERT_NO_THROW(text = WriteJson(doc));
  EXPECT_TRUE(absl::StartsWith(text, "{\n  \"format\": \"lir-plan/1\",\n"))
      << text;
  EXPECT_TRUE(absl::EndsWith(text, "}\n")) << text;
  absl::StatusOr<Document> back = ReadJson(text);
  ASSERT_TRUE(back.ok()) << back.status();
  // JSON cannot carry the invalid byte; it becomes U+FFFD.
  EXPECT_EQ(back->target_cluster, "bad \xEF\xBF\xBD byte");
}

// ---- Errors -----------------------------------------------------------------

// A small valid document to break in the error tests.
json SmallDocument() {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = MakeNode(NegateOp{}, Inputs(GetGlobal("t")));
  AssignPostOrderIds(*object.plan);
  return ToJson(doc);
}

// FromJson(j) fails with a message containing every piece of `expected`.
void ExpectError(const json& j, std::vector<std::string> expected) {
  absl::StatusOr<Document> doc = FromJson(j);
  ASSERT_FALSE(doc.ok()) << "accepted: " << j.dump();
  EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
  for (const std::string& piece : expected) {
    EXPECT_NE(doc.status().message().find(piece), std::string::npos)
        << "message: " << doc.status().message() << "\nmissing: " << piece;
  }
}

TEST(JsonErrors, SmallDocumentIsValid) {
  ASSERT_TRUE(FromJson(SmallDocument()).ok());
}

TEST(JsonErrors, WrongOrMissingVersion) {
  json j = SmallDocument();
  j["format"] = "lir-plan/2";
  ExpectError(j, {"/format: unsupported format \"lir-plan/2\"",
                  "supports \"lir-plan/1\""});
  j.erase("format");
  ExpectError(j, {"/format: missing required field"});
  ExpectError(json::array(), {"<root>: expected an object, got an array"});
}

TEST(JsonErrors, BadKind) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["kind"] = "Threshhold";
  ExpectError(j, {"/objects/0/plan/1/kind: expected one of Constant, Get, "
                  "Let, LetRec, Mfp, FlatMap, Join, Reduce, TopK, Negate, "
                  "Threshold, Union, ArrangeBy, SetDifference, got "
                  "\"Threshhold\""});
}

TEST(JsonErrors, BadEnumDeepInside) {
  json j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["arranged"][0]["key"][0]["kind"] = "col";
  ExpectError(j, {"/objects/0/plan/0/keys/arranged/0/key/0/kind: expected one "
                  "of column, literal, call, if, case_lookup, opaque"});
}

TEST(JsonErrors, DanglingInputIndex) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["inputs"][0] = 1;  // itself
  ExpectError(j, {"/objects/0/plan/1/inputs/0: expected the index of an "
                  "earlier node (0 to 0), got the integer 1"});
  j["objects"][0]["plan"][1]["inputs"][0] = 7;
  ExpectError(j, {"/objects/0/plan/1/inputs/0:"});
  j["objects"][0]["plan"][1]["inputs"][0] = -1;
  ExpectError(j, {"/objects/0/plan/1/inputs/0:"});
}

TEST(JsonErrors, NodeUsedTwiceOrNever) {
  json j = SmallDocument();
  json& plan = j["objects"][0]["plan"];
  plan.push_back(json{{"id", 3}, {"kind", "Negate"}, {"inputs", {0}}});
  ExpectError(j, {"/objects/0/plan/2/inputs/0: node 0 is already an input of "
                  "node 1"});
  // Node 1 (the old root) unused, node 2 a fresh leaf root.
  plan[2] = json{{"id", 3}, {"kind", "Get"}, {"inputs", json::array()},
                 {"collection", {{"local", 1}}}, {"get_kind", "Collection"}};
  ExpectError(j, {"/objects/0/plan/1: node is not the input of any later "
                  "node"});
  // Union of the same node twice.
  json u = SmallDocument();
  u["objects"][0]["plan"][1] =
      json{{"id", 2}, {"kind", "Union"}, {"inputs", {0, 0}}};
  ExpectError(u, {"/objects/0/plan/1/inputs/1: node 0 is already an input"});
}

TEST(JsonErrors, WrongInputCount) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["kind"] = "Let";
  j["objects"][0]["plan"][1]["local_id"] = 1;
  ExpectError(j, {"/objects/0/plan/1/inputs: expected exactly 2 input(s) for "
                  "a Let node, got 1"});
  json leaf = SmallDocument();
  leaf["objects"][0]["plan"][1] = json{{"id", 2}, {"kind", "Constant"},
                                       {"inputs", {0}}};
  ExpectError(leaf, {"/objects/0/plan/1/inputs: expected exactly 0 input(s) "
                     "for a Constant node, got 1"});
  json rec = SmallDocument();
  rec["objects"][0]["plan"][1] = json{
      {"id", 2}, {"kind", "LetRec"}, {"inputs", {0}}, {"local_ids", {1}}};
  ExpectError(rec, {"expected exactly 2 input(s) for a LetRec node"});
}

TEST(JsonErrors, WrongTypes) {
  json j = SmallDocument();
  j["objects"][0]["name"] = 5;
  ExpectError(j, {"/objects/0/name: expected a string, got the integer 5"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["raw"] = "yes";
  ExpectError(j, {"/objects/0/plan/0/keys/raw: expected a boolean, got \"yes\""});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["id"] = 1.5;
  ExpectError(j, {"/objects/0/plan/0/id: expected a non-negative integer, "
                  "got a non-integer number"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["arranged"][0]["thinning"][0] = -3;
  ExpectError(j, {"/objects/0/plan/0/keys/arranged/0/thinning/0: expected an "
                  "integer in [0, 2147483647], got the integer -3"});
  j = SmallDocument();
  j["objects"] = json::object();
  ExpectError(j, {"/objects: expected an array, got an object"});
  j = SmallDocument();
  j["objects"][0]["plan"] = json::array();
  ExpectError(j, {"/objects/0/plan: expected at least one node"});
}

TEST(JsonErrors, UnknownAndMissingFields) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["ensure_arrangement"] = json::object();
  ExpectError(j, {"/objects/0/plan/1/ensure_arrangement: unexpected field in "
                  "a Negate node"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["collection"]["a/b~c"] = 1;
  ExpectError(j, {"/objects/0/plan/0/collection/a~1b~0c: unexpected field"});
  j = SmallDocument();
  j["objects"][0]["plan"][0].erase("collection");
  ExpectError(j, {"/objects/0/plan/0/collection: missing required field"});
  j = SmallDocument();
  j["objects"][0].erase("plan");
  ExpectError(j, {"/objects/0: expected exactly one of \"plan\" and "
                  "\"fast_path\""});
}

TEST(JsonErrors, ExpressionShapes) {
  auto with_key = [](json expr) {
    json j = SmallDocument();
    j["objects"][0]["plan"][0]["keys"]["arranged"][0]["key"][0] = expr;
    return j;
  };
  const std::string at = "/objects/0/plan/0/keys/arranged/0/key/0";
  ExpectError(with_key(json{{"kind", "if"}, {"args", json::array()}}),
              {at + "/args: expected exactly 3 arguments"});
  ExpectError(with_key(json{{"kind", "call"}, {"style", "not"}, {"func", "NOT"}}),
              {at + "/args: expected exactly 1 argument for a not call, got 0"});
  json col = json{{"kind", "column"}, {"column", 0}};
  ExpectError(with_key(json{{"kind", "case_lookup"},
                            {"args", {col, col, col, col}}}),
              {at + "/args/1: expected a literal expression"});
  ExpectError(with_key(json{{"kind", "column"}, {"column", 0}, {"text", "x"}}),
              {at + "/text: unexpected field in a column expression"});
  ExpectError(with_key(json{{"kind", "literal"}, {"type", "number"}}),
              {at + "/text: missing required field"});
}

// An expression `((... (#0 + 1) ...) + 1)` nested `depth` levels.
json NestedExprJson(int depth) {
  json expr = json{{"kind", "column"}, {"column", 0}};
  for (int i = 1; i < depth; ++i) {
    expr = json{{"kind", "call"},
                {"style", "infix"},
                {"func", "+"},
                {"args", {std::move(expr), json{{"kind", "literal"},
                                                {"type", "number"},
                                                {"text", "1"}}}}};
  }
  return expr;
}

TEST(JsonErrors, ExpressionDepthBound) {
  auto with_filter = [](json expr) {
    json j = SmallDocument();
    j["objects"][0]["plan"][1] = json{{"id", 2},
                                      {"kind", "Mfp"},
                                      {"inputs", {0}},
                                      {"mfp", {{"filter", {std::move(expr)}}}}};
    return j;
  };
  absl::StatusOr<Document> ok = FromJson(with_filter(NestedExprJson(kMaxExprDepth)));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(Depth(ok->objects[0].plan->As<MfpOp>().mfp.filter[0]), kMaxExprDepth);
  ExpectError(with_filter(NestedExprJson(kMaxExprDepth + 1)),
              {"expression nested deeper than 1000 levels"});
}

TEST(JsonErrors, DeeplyNestedJsonIsRejectedWithoutRecursing) {
  // 200,000 nested arrays where a string belongs: parsed by nlohmann's
  // iterative parser, then rejected by a type check that does not descend.
  std::string text = R"({"format": "lir-plan/1", "objects": [], "target_cluster": )";
  text += std::string(200000, '[') + std::string(200000, ']') + "}";
  absl::StatusOr<Document> doc = ReadJson(text, "deep.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "deep.json: /target_cluster: expected a string, got an array");
}

TEST(JsonErrors, SyntaxErrorHasLineAndColumn) {
  std::string text = "{\n  \"format\": \"lir-plan/1\",\n  \"objects\": [tru]\n}\n";
  absl::StatusOr<Document> doc = ReadJson(text, "plan.json");
  ASSERT_FALSE(doc.ok());
  // Line 3 is `  "objects": [tru]`; the `]` after `tru` (column 18) is where
  // the literal goes wrong.
  EXPECT_TRUE(absl::StartsWith(doc.status().message(), "plan.json:3:18: "))
      << doc.status().message();
  EXPECT_NE(doc.status().message().find("invalid literal"), std::string::npos)
      << doc.status().message();

  absl::StatusOr<Document> truncated = ReadJson("{\"format\": ", "t.json");
  ASSERT_FALSE(truncated.ok());
  EXPECT_TRUE(absl::StartsWith(truncated.status().message(), "t.json:1:"))
      << truncated.status().message();

  absl::StatusOr<Document> empty = ReadJson("", "e.json");
  ASSERT_FALSE(empty.ok());
  EXPECT_TRUE(absl::StartsWith(empty.status().message(), "e.json:1:1: "))
      << empty.status().message();
}

TEST(JsonErrors, SemanticErrorsNameTheFile) {
  absl::StatusOr<Document> doc =
      ReadJson(R"({"format": "lir-plan/0", "objects": []})", "old.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "old.json: /format: unsupported format \"lir-plan/0\"; this reader "
            "supports \"lir-plan/1\"");
}

// Every value of a rich document replaced by values of other types, and
// every member removed, one at a time: the reader must either reject the
// result with an InvalidArgument error or return a document that prints.
TEST(JsonErrors, SingleMutationsNeverCrash) {
  const json original = ToJson(FullDocument());
  const json flat = original.flatten();
  const std::vector<json> replacements = {
      nullptr, true, -1, 0, 1, 2, 1.5, 4294967296LL, "", "Delta",
      json::array(), json::object(), json::array({0})};
  int accepted = 0;
  int rejected = 0;
  auto check = [&](const json& mutated) {
    absl::StatusOr<Document> doc;
    ASSERT_NO_THROW(doc = FromJson(mutated));
    if (doc.ok()) {
      ++accepted;
      std::string text = PrintText(*doc);
      EXPECT_FALSE(text.empty());
    } else {
      ++rejected;
      EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_EQ(doc.status().message().substr(0, 1), "/")
          << doc.status().message();
    }
  };
  for (const auto& [pointer_text, value] : flat.items()) {
    const json::json_pointer pointer(pointer_text);
    for (const json& replacement : replacements) {
      json mutated = original;
      mutated[pointer] = replacement;
      check(mutated);
    }
    // Remove the member or element holding this value.
    json removed = original;
    json& parent = removed[pointer.parent_pointer()];
    if (parent.is_object()) {
      parent.erase(pointer.back());
    } else if (parent.is_array()) {
      parent.erase(std::stoul(pointer.back()));
    }
    check(removed);
  }
  // Both outcomes must occur, or the mutations did not reach the reader.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 1000);
  std::cout << accepted << " mutations accepted, " << rejected << " rejected"
            << std::endl;
}

// ---- Deep plans -----------------------------------------------------------

TEST(JsonDeep, HundredThousandNegatesRoundTrip) {
  constexpr int kDepth = 100000;
  ConstantOp leaf;
  leaf.rows = {{Row{Literal::Int(1)}, 1}};
  NodePtr node = MakeNode(std::move(leaf));
  for (int i = 0; i < kDepth; ++i) {
    node = MakeNode(NegateOp{}, Inputs(std::move(node)));
  }
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = std::move(node);
  AssignPostOrderIds(*object.plan);

  std::string text = WriteJson(doc);
  absl::StatusOr<Document> back = ReadJson(text, "deep.json");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_NE(back->objects[0].plan, nullptr);
  EXPECT_EQ(CountNodes(*back->objects[0].plan), size_t{kDepth + 1});
  EXPECT_EQ(back->objects[0].plan->id, LirId{kDepth + 1});
  ExpectSamePlan(*object.plan, *back->objects[0].plan);
  EXPECT_EQ(WriteJson(*back), text);
}

// The example in docs/json-format.md must be real: its JSON reads back and
// prints exactly the EXPLAIN text shown next to it.
TEST(JsonDocs, ExampleMatchesItsText) {
  const std::string doc_text = [] {
    std::ifstream in(std::filesystem::path(LIR_SOURCE_DIR) / "docs" /
                     "json-format.md");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }();
  auto block_after = [&](const std::string& opener) -> std::string {
    size_t begin = doc_text.find(opener);
    if (begin == std::string::npos) return "";
    begin += opener.size();
    size_t end = doc_text.find("\n```", begin);
    if (end == std::string::npos) return "";
    return doc_text.substr(begin, end + 1 - begin);
  };
  const std::string text = block_after("The EXPLAIN text\n\n```\n");
  const std::string example = block_after("```json\n");
  ASSERT_FALSE(text.empty());
  ASSERT_FALSE(example.empty());
  absl::StatusOr<Document> from_json = ReadJson(example, "json-format.md");
  ASSERT_TRUE(from_json.ok()) << from_json.status();
  EXPECT_EQ(PrintText(*from_json), text);
  absl::StatusOr<Document> from_text = ParseText(text);
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  EXPECT_EQ(ToJson(*from_text), json::parse(example));
}

// ---- Corpus -----------------------------------------------------------------

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(JsonCorpus, TextJsonTextIsByteIdentical) {
  const std::filesystem::path dir =
      std::filesystem::path(LIR_SHARED_DIR) / "corpus" / "materialize";
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "corpus not found at " << dir;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".plan") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 134u);
  int identical = 0;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const std::string text = ReadFile(file);
    ParseOptions options;
    options.filename = name;
    absl::StatusOr<Document> parsed = ParseText(text, options);
    if (!parsed.ok()) {
      ADD_FAILURE() << name << ": parse: " << parsed.status();
      continue;
    }
    std::string json_text = ToJson(*parsed).dump(2);
    absl::StatusOr<Document> back = ReadJson(json_text, name);
    if (!back.ok()) {
      ADD_FAILURE() << name << ": " << back.status();
      continue;
    }
    std::string printed = PrintText(*back);
    if (printed == text) {
      ++identical;
    } else {
      ADD_FAILURE() << name << ": differs after the JSON round trip";
    }
  }
  std::cout << identical << "/" << files.size()
            << " byte-identical through JSON" << std::endl;
  EXPECT_EQ(identical, static_cast<int>(files.size()));
}

}  // namespace
}  // namespace lir::explain
