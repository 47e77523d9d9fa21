// Tests of the core IR helpers: literals, expressions, MFPs, arrangement
// layouts, node construction, ids, copies and deep-tree handling.
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"
#include "tests/support/ir_helpers.h"

namespace lir {
namespace {

using Pairs = std::vector<std::pair<int, int>>;

using test::Col;

NodePtr GetGlobal(const std::string& name) {
  GetOp get;
  get.id = CollectionId::Global(name);
  get.keys.raw = true;
  return MakeNode(std::move(get));
}

TEST(LiteralTest, IsIntegerAcceptsOnlyPlainInt64) {
  EXPECT_TRUE(Literal::Int(-5).IsInteger());
  EXPECT_EQ(Literal::Int(-5).AsInteger(), -5);
  EXPECT_EQ(Literal::Int(-5).text, "-5");
  EXPECT_TRUE(
      (Literal{LiteralKind::kNumber, "9223372036854775807"}).IsInteger());
  EXPECT_FALSE(
      (Literal{LiteralKind::kNumber, "9223372036854775808"}).IsInteger());
  EXPECT_FALSE((Literal{LiteralKind::kNumber, "1.5"}).IsInteger());
  EXPECT_FALSE((Literal{LiteralKind::kNumber, "+5"}).IsInteger());
  EXPECT_FALSE((Literal{LiteralKind::kNumber, "-"}).IsInteger());
  EXPECT_FALSE((Literal{LiteralKind::kNumber, "NaN"}).IsInteger());
  EXPECT_FALSE(Literal::String("5").IsInteger());
  EXPECT_FALSE(Literal::Null().IsInteger());
}

TEST(LiteralTest, Constructors) {
  EXPECT_EQ(Literal::Bool(true).text, "true");
  EXPECT_EQ(Literal::Bool(false).kind, LiteralKind::kBool);
  EXPECT_EQ(Literal::Null().text, "null");
  EXPECT_EQ(Literal::String("a b").text, "a b");
  EXPECT_EQ(Literal::Redacted().kind, LiteralKind::kRedacted);
  EXPECT_EQ(Literal::Redacted().text, "█");
}

TEST(ScalarTest, SameIgnoringNamesIgnoresOnlyNames) {
  ScalarExpr named = ScalarExpr::Call(CallStyle::kInfix, "+",
                                      {ScalarExpr::Column(0, "a"), Col(1)});
  ScalarExpr bare = ScalarExpr::Call(CallStyle::kInfix, "+", {Col(0), Col(1)});
  ScalarExpr other = ScalarExpr::Call(CallStyle::kInfix, "-", {Col(0), Col(1)});
  EXPECT_FALSE(named == bare);
  EXPECT_TRUE(SameIgnoringNames(named, bare));
  EXPECT_FALSE(SameIgnoringNames(named, other));
  EXPECT_FALSE(SameIgnoringNames(Col(0), Col(1)));
  EXPECT_FALSE(SameIgnoringNames(std::vector<ScalarExpr>{Col(0)},
                                 std::vector<ScalarExpr>{Col(0), Col(1)}));
}

TEST(ScalarTest, MaxColumnAndDepth) {
  ScalarExpr e = ScalarExpr::If(
      ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {Col(4)}), Col(2),
      ScalarExpr::Lit(Literal::Int(1)));
  EXPECT_EQ(MaxColumn(e), 4);
  EXPECT_EQ(Depth(e), 3);
  EXPECT_EQ(MaxColumn(ScalarExpr::Lit(Literal::Int(1))), -1);
  EXPECT_EQ(Depth(Col(0)), 1);
  std::vector<int> seen;
  ForEachColumn(e, [&](int c) { seen.push_back(c); });
  EXPECT_EQ(seen, (std::vector<int>{4, 2}));
}

TEST(MfpTest, ArityAndShape) {
  MapFilterProject identity;
  EXPECT_TRUE(identity.IsIdentity());
  EXPECT_TRUE(identity.IsProjectionOnly());
  EXPECT_EQ(identity.OutputArity(3), 3);
  EXPECT_EQ(identity.ProjectedColumn(2), 2);

  MapFilterProject mapped;
  mapped.map = {ScalarExpr::Lit(Literal::Int(1)), Col(0)};
  EXPECT_FALSE(mapped.IsIdentity());
  EXPECT_FALSE(mapped.IsProjectionOnly());
  // ../shared/reference/SEMANTICS.md 8.1: without a projection the map columns
  // are not output.
  EXPECT_EQ(mapped.OutputArity(3), 3);
  mapped.project = std::vector<int>{0, 3, 4};
  EXPECT_EQ(mapped.OutputArity(3), 3);
  mapped.project = std::vector<int>{4};
  EXPECT_EQ(mapped.OutputArity(3), 1);
  mapped.project.reset();
  EXPECT_EQ(mapped.ProjectedColumn(0), -1);

  MapFilterProject projected;
  projected.project = std::vector<int>{2, 0, 2};
  EXPECT_FALSE(projected.IsIdentity());
  EXPECT_TRUE(projected.IsProjectionOnly());
  EXPECT_EQ(projected.OutputArity(7), 3);
  EXPECT_EQ(projected.ProjectedColumn(0), 2);
  EXPECT_EQ(projected.ProjectedColumn(1), 0);
  EXPECT_EQ(projected.ProjectedColumn(3), -1);

  MapFilterProject empty_projection;
  empty_projection.project = std::vector<int>{};
  EXPECT_FALSE(empty_projection.IsIdentity());
  EXPECT_EQ(empty_projection.OutputArity(4), 0);

  MapFilterProject temporal;
  temporal.temporal = TemporalFilter{};
  EXPECT_FALSE(temporal.IsIdentity());
  EXPECT_FALSE(temporal.IsProjectionOnly());
}

// Corpus `github-16036-L34.plan`:
// `{ key=[#1{b}], permutation={#0: #1, #1: #0}, thinning=(#0) }`.
TEST(ArrangementTest, SwappedKeyFromCorpus) {
  ArrangementForm form = MakeArrangement({ScalarExpr::Column(1, "b")}, 2);
  EXPECT_EQ(form.permutation, (Pairs{{0, 1}, {1, 0}}));
  EXPECT_EQ(form.thinning, (std::vector<int>{0}));
  EXPECT_EQ(form.key, (std::vector<ScalarExpr>{ScalarExpr::Column(1, "b")}));
}

// Corpus: `{ key=[#0{a}], permutation=id, thinning=(#1) }`, `key=[]`.
TEST(ArrangementTest, IdentityLayouts) {
  ArrangementForm leading = MakeArrangement({Col(0)}, 2);
  EXPECT_TRUE(leading.permutation.empty());
  EXPECT_EQ(leading.thinning, (std::vector<int>{1}));

  ArrangementForm empty_key = MakeArrangement({}, 1);
  EXPECT_TRUE(empty_key.permutation.empty());
  EXPECT_EQ(empty_key.thinning, (std::vector<int>{0}));

  ArrangementForm full_row = MakeColumnArrangement({0, 1}, 2);
  EXPECT_TRUE(full_row.permutation.empty());
  EXPECT_TRUE(full_row.thinning.empty());
}

// Corpus `physical_plan_as_text-L771.plan`: stream key [#3] over 7 columns
// has thinning (#0..=#2, #4..=#6).
TEST(ArrangementTest, MiddleKeyColumn) {
  ArrangementForm form = MakeArrangement({Col(3)}, 7);
  EXPECT_EQ(form.thinning, (std::vector<int>{0, 1, 2, 4, 5, 6}));
  EXPECT_EQ(form.permutation, (Pairs{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
}

TEST(ArrangementTest, ExpressionKeyKeepsAllColumnsInTheValue) {
  ScalarExpr sum = ScalarExpr::Call(CallStyle::kInfix, "+", {Col(0), Col(1)});
  ArrangementForm form = MakeArrangement({sum}, 2);
  EXPECT_EQ(form.thinning, (std::vector<int>{0, 1}));
  EXPECT_EQ(form.permutation, (Pairs{{0, 1}, {1, 2}}));
}

TEST(ArrangementTest, ReversedColumns) {
  ArrangementForm form = MakeColumnArrangement({1, 0}, 3);
  EXPECT_EQ(form.permutation, (Pairs{{0, 1}, {1, 0}}));
  EXPECT_EQ(form.thinning, (std::vector<int>{2}));
}

// Materialize collects (column, key position) pairs into a map, so the
// last occurrence of a repeated key column wins.
TEST(ArrangementTest, RepeatedKeyColumnUsesLastOccurrence) {
  ArrangementForm form = MakeColumnArrangement({0, 0}, 2);
  EXPECT_EQ(form.permutation, (Pairs{{0, 1}, {1, 2}}));
  EXPECT_EQ(form.thinning, (std::vector<int>{1}));
}

TEST(ArrangementTest, KeyHelpersAndLookup) {
  EXPECT_EQ(KeyColumns({Col(2), Col(0)}), (std::vector<int>{2, 0}));
  EXPECT_FALSE(KeyColumns({ScalarExpr::Lit(Literal::Int(1))}).has_value());
  EXPECT_EQ(ColumnKey({1, 3}), (std::vector<ScalarExpr>{Col(1), Col(3)}));

  AvailableCollections available;
  available.arranged.push_back(
      MakeArrangement({ScalarExpr::Column(0, "a")}, 2));
  available.arranged.push_back(MakeArrangement({Col(1)}, 2));
  const ArrangementForm* found = available.FindByKey({Col(0)});
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found, &available.arranged[0]);
  EXPECT_EQ(available.FindByKey({Col(1)}), &available.arranged[1]);
  EXPECT_EQ(available.FindByKey({Col(0), Col(1)}), nullptr);
}

TEST(NodeTest, CollectionIdToString) {
  EXPECT_EQ(CollectionId::Local(3).ToString(), "l3");
  EXPECT_EQ(CollectionId::Global("materialize.public.t").ToString(),
            "materialize.public.t");
  EXPECT_TRUE(CollectionId::Local(3).is_local);
  EXPECT_FALSE(CollectionId::Global("u5").is_local);
}

TEST(NodeTest, PostOrderIds) {
  // Union(Negate(Get a), Get b): Get a, Negate, Get b, Union.
  std::vector<NodePtr> arms;
  arms.push_back(MakeNode(NegateOp{}, [] {
    std::vector<NodePtr> v;
    v.push_back(GetGlobal("a"));
    return v;
  }()));
  arms.push_back(GetGlobal("b"));
  NodePtr root = MakeNode(UnionOp{}, std::move(arms));
  AssignPostOrderIds(*root);
  EXPECT_EQ(root->id, 4u);
  EXPECT_EQ(root->inputs[0]->id, 2u);
  EXPECT_EQ(root->inputs[0]->inputs[0]->id, 1u);
  EXPECT_EQ(root->inputs[1]->id, 3u);
  EXPECT_EQ(CountNodes(*root), 4u);

  std::vector<std::string> pre;
  ForEachPreOrder(*root, [&](const Node& n, int depth) {
    pre.push_back(std::string(KindName(n.kind())) + std::to_string(depth));
  });
  EXPECT_EQ(pre,
            (std::vector<std::string>{"Union0", "Negate1", "Get2", "Get1"}));
}

TEST(NodeTest, CloneIsDeepAndEqual) {
  MfpOp mfp;
  mfp.mfp.project = std::vector<int>{1};
  std::vector<NodePtr> inputs;
  inputs.push_back(GetGlobal("t"));
  NodePtr root = MakeNode(std::move(mfp), std::move(inputs));
  AssignPostOrderIds(*root);

  NodePtr copy = Clone(*root);
  ASSERT_NE(copy.get(), root.get());
  ASSERT_EQ(copy->inputs.size(), 1u);
  EXPECT_NE(copy->inputs[0].get(), root->inputs[0].get());
  EXPECT_EQ(copy->id, 2u);
  EXPECT_EQ(copy->inputs[0]->id, 1u);
  EXPECT_EQ(copy->As<MfpOp>().mfp, root->As<MfpOp>().mfp);
  EXPECT_EQ(copy->inputs[0]->As<GetOp>().id, CollectionId::Global("t"));

  // Changing the copy leaves the original alone.
  copy->inputs[0]->As<GetOp>().id = CollectionId::Global("u");
  EXPECT_EQ(root->inputs[0]->As<GetOp>().id, CollectionId::Global("t"));
}

TEST(NodeTest, DeepChainIsBuiltCopiedAndDestroyed) {
  constexpr size_t kDepth = 1000000;
  NodePtr root = GetGlobal("t");
  for (size_t i = 0; i < kDepth; ++i) {
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(root));
    root = MakeNode(NegateOp{}, std::move(inputs));
  }
  EXPECT_EQ(CountNodes(*root), kDepth + 1);
  AssignPostOrderIds(*root);
  EXPECT_EQ(root->id, kDepth + 1);
  NodePtr copy = Clone(*root);
  EXPECT_EQ(CountNodes(*copy), kDepth + 1);
  EXPECT_EQ(copy->id, kDepth + 1);
  root.reset();
  copy.reset();
  SUCCEED();
}

// Expects the header name of an `Op` whose `field` is each kind of `table`.
template <typename Op, typename Kind>
void ExpectHeaders(Kind Op::*field,
                   std::initializer_list<std::pair<Kind, const char*>> table) {
  for (const auto& [kind, name] : table) {
    Op op;
    op.*field = kind;
    EXPECT_EQ(HeaderName(Node(std::move(op))), name);
  }
}

TEST(NodeTest, HeaderNames) {
  // Kinds whose header does not depend on a field.
  const std::pair<NodeOp, const char*> plain[] = {
      {ConstantOp{}, "Constant"},
      {GetOp{}, "Get::PassArrangements"},
      {LetOp{}, "With"},
      {LetRecOp{}, "With Mutually Recursive"},
      {MfpOp{}, "Mfp"},
      {FlatMapOp{}, "FlatMap"},
      {NegateOp{}, "Negate"},
      {ThresholdOp{}, "Threshold::Basic"},
      {UnionOp{}, "Union"},
      {ArrangeByOp{}, "ArrangeBy"},
      {SetDifferenceOp{}, "SetDifference"},
  };
  for (const auto& [op, name] : plain) EXPECT_EQ(HeaderName(Node(op)), name);
  ExpectHeaders(&GetOp::kind,
                {{GetKind::kPassArrangements, "Get::PassArrangements"},
                 {GetKind::kArrangement, "Get::Arrangement"},
                 {GetKind::kCollection, "Get::Collection"}});
  ExpectHeaders(&JoinOp::delta,
                {{false, "Join::Linear"}, {true, "Join::Delta"}});
  ExpectHeaders(&ReduceOp::kind,
                {{ReduceKind::kDistinct, "Reduce::Distinct"},
                 {ReduceKind::kAccumulable, "Reduce::Accumulable"},
                 {ReduceKind::kHierarchicalMonotonic, "Reduce::Hierarchical"},
                 {ReduceKind::kHierarchicalBucketed, "Reduce::Hierarchical"},
                 {ReduceKind::kBasicSingle, "Reduce::Basic"},
                 {ReduceKind::kBasicMultiple, "Reduce::Basic"}});
  ExpectHeaders(&TopKOp::kind,
                {{TopKKind::kMonotonicTop1, "TopK::MonotonicTop1"},
                 {TopKKind::kMonotonicTopK, "TopK::MonotonicTopK"},
                 {TopKKind::kBasic, "TopK::Basic"}});
  EXPECT_EQ(KindName(NodeKind::kThreshold), "Threshold");
  EXPECT_EQ(KindName(NodeKind::kLetRec), "LetRec");
}

TEST(DocumentTest, CloneCopiesPlansAndFrame) {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.finish = Finish{{OrderKey{1, true, false}}, 5, 0, {0, 1}};
  object.plan = GetGlobal("t");
  Object& fast = doc.objects.emplace_back();
  fast.name = "Explained Query (fast path)";
  FastPath read;
  read.kind = FastPath::Kind::kReadIndex;
  read.collection = "materialize.public.t";
  read.index = "t_a_idx";
  read.lookup = std::vector<Row>{{Literal::Int(5)}};
  fast.fast_path = read;
  doc.target_cluster = "quickstart";
  doc.used_indexes = std::vector<UsedIndex>{{"idx", {"lookup"}}};
  doc.node_identifiers = true;

  Document copy = Clone(doc);
  ASSERT_EQ(copy.objects.size(), 2u);
  EXPECT_EQ(copy.objects[0].name, "Explained Query");
  EXPECT_EQ(copy.objects[0].finish, doc.objects[0].finish);
  ASSERT_NE(copy.objects[0].plan, nullptr);
  EXPECT_NE(copy.objects[0].plan.get(), doc.objects[0].plan.get());
  EXPECT_EQ(copy.objects[0].plan->As<GetOp>().id, CollectionId::Global("t"));
  EXPECT_EQ(copy.objects[1].plan, nullptr);
  EXPECT_EQ(copy.objects[1].fast_path, doc.objects[1].fast_path);
  ASSERT_TRUE(copy.objects[1].fast_path.has_value());
  EXPECT_EQ(copy.objects[1].fast_path->index, "t_a_idx");
  EXPECT_EQ(copy.target_cluster, "quickstart");
  EXPECT_EQ(copy.used_indexes, doc.used_indexes);
  EXPECT_TRUE(copy.node_identifiers);
}

// The one input-count rule (node_kinds.def's shapes), for every kind.
TEST(NodeKindsTest, RequiredInputsFollowEachKindsShape) {
  auto range = [](NodeOp op) { return RequiredInputs(op); };
  EXPECT_TRUE(range(ConstantOp{}).Exact());
  EXPECT_EQ(range(ConstantOp{}).max, 0u);
  EXPECT_EQ(range(GetOp{}).max, 0u);
  EXPECT_EQ(range(MfpOp{}).min, 1u);
  EXPECT_FALSE(range(MfpOp{}).Allows(2));
  EXPECT_EQ(range(LetOp{}).min, 2u);
  LetRecOp three;
  three.ids = {0, 1, 2};
  three.limits.resize(3);
  EXPECT_TRUE(range(three).Exact());
  EXPECT_EQ(range(three).min, 4u);
  EXPECT_EQ(range(SetDifferenceOp{}).min, 2u);
  EXPECT_TRUE(range(SetDifferenceOp{}).Exact());
  EXPECT_EQ(range(AntiJoinOp{}).min, 2u);
  EXPECT_TRUE(range(AntiJoinOp{}).Exact());
  for (NodeOp variadic : {NodeOp(UnionOp{}), NodeOp(JoinOp{})}) {
    EXPECT_FALSE(range(variadic).Allows(0));
    EXPECT_TRUE(range(variadic).Allows(1));
    EXPECT_TRUE(range(variadic).Allows(17));
  }
}

// Names, kinds and payload types agree for every kind.
TEST(NodeKindsTest, KindsNamesAndPayloadsAgree) {
  EXPECT_EQ(kNodeKindCount, 15u);
  EXPECT_EQ(KindName(NodeKind::kAntiJoin), "AntiJoin");
  EXPECT_EQ(kKindOf<AntiJoinOp>, NodeKind::kAntiJoin);
  EXPECT_EQ(KindName(NodeKind::kSetDifference), "SetDifference");
  EXPECT_EQ(KindName(NodeKind::kLetRec), "LetRec");
  EXPECT_EQ(kKindOf<ReduceOp>, NodeKind::kReduce);
  static_assert(std::is_same_v<PayloadOf<NodeKind::kTopK>, TopKOp>);
  NodePtr reduce = MakeNode(ReduceOp{});
  EXPECT_EQ(reduce->kind(), NodeKind::kReduce);
  EXPECT_TRUE(reduce->Is<ReduceOp>());
  EXPECT_FALSE(reduce->Is<MfpOp>());
  EXPECT_EQ(reduce->If<MfpOp>(), nullptr);
  EXPECT_NE(reduce->If<ReduceOp>(), nullptr);
}

// Boxed payloads copy deeply: a clone's payload is its own.
TEST(NodeKindsTest, BoxedPayloadsCopyDeeply) {
  static_assert(sizeof(Node) <= 96);
  ReduceOp op;
  op.aggr_funcs = {"min"};
  std::vector<NodePtr> inputs;
  inputs.push_back(MakeNode(ConstantOp{}));
  NodePtr original = MakeNode(std::move(op), std::move(inputs));
  NodePtr copy = Clone(*original);
  copy->As<ReduceOp>().aggr_funcs.push_back("max");
  EXPECT_EQ(original->As<ReduceOp>().aggr_funcs.size(), 1u);
  EXPECT_EQ(copy->As<ReduceOp>().aggr_funcs.size(), 2u);
  EXPECT_NE(&original->As<ReduceOp>(), &copy->As<ReduceOp>());
  // Unboxed (small) payloads too.
  NodePtr let = MakeNode(LetOp{7});
  NodePtr let_copy = Clone(*let);
  let_copy->As<LetOp>().id = 8;
  EXPECT_EQ(let->As<LetOp>().id, 7u);
  // VisitPayload hands over the payload itself, boxed or not.
  std::string seen;
  VisitPayload(original->op, [&](const auto& payload) {
    if constexpr (std::is_same_v<std::decay_t<decltype(payload)>, ReduceOp>) {
      seen = payload.aggr_funcs.front();
    }
  });
  EXPECT_EQ(seen, "min");
}

}  // namespace
}  // namespace lir
