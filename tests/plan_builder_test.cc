// PlanBuilder (include/lir/plan_builder.h): EXCEPT plans built in code print
// byte for byte as the files Materialize produced, ids are post-order, and
// mistakes come back from Build() located by LirId.
#include "lir/plan_builder.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "tests/support/corpus_util.h"

namespace lir {
namespace {

CollectionId Global(std::string name) {
  return CollectionId::Global(std::move(name));
}

// The index `t_a_idx` on column a of a two-column table, as Materialize
// prints it: `{ key=[#0{a}], permutation=id, thinning=(#1) }`.
AvailableCollections IndexOnA() {
  return PlanBuilder::Arranged(
      {MakeArrangement({ScalarExpr::Column(0, "a")}, 2)});
}

// `Get::Arrangement t project=(#0) key=#0{a}`: a full scan of that index.
PlanBuilder ScanIndexOnA(std::string table) {
  return PlanBuilder::GetArrangement(Global(std::move(table)), IndexOnA(),
                                     {ScalarExpr::Column(0, "a")},
                                     PlanBuilder::Project({0}));
}

// Threshold::Basic(ArrangeBy(Union(base, Negate(subtract)))), the lowering
// of EXCEPT ALL over one column.
PlanBuilder ExceptAll(PlanBuilder base, PlanBuilder subtract) {
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  std::vector<PlanBuilder> arms;
  arms.push_back(std::move(base));
  arms.push_back(std::move(subtract).Negate());
  return PlanBuilder::Union(std::move(arms), {.consolidate_output = true})
      .ArrangeBy(PlanBuilder::Arranged({by_0}))
      .Threshold(by_0);
}

// EXCEPT's arms: SELECT DISTINCT, then arranged by the row (`input_key`).
PlanBuilder DistinctArranged(PlanBuilder input) {
  ArrangeByOp arrange;
  arrange.input_key = ColumnKey({0});
  arrange.forms = PlanBuilder::Raw();
  return std::move(input).Distinct().ArrangeBy(std::move(arrange));
}

Document Wrap(NodePtr plan, std::string source, int source_column,
              std::string index) {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = std::move(plan);
  SourceBlock& block = doc.sources.emplace_back();
  block.name = std::move(source);
  block.mfp.project = std::vector<int>{source_column};
  doc.used_indexes =
      std::vector<UsedIndex>{{std::move(index), {"*** full scan ***"}}};
  doc.target_cluster = "quickstart";
  return doc;
}

std::string ReadOrEmpty(const std::filesystem::path& path) {
  return corpus::ReadFile(path);
}

TEST(PlanBuilder, BuildsExamplesExceptPlanByteForByte) {
  // SELECT a FROM t1 EXCEPT SELECT a FROM t2 (examples/except.plan).
  absl::StatusOr<NodePtr> plan =
      ExceptAll(DistinctArranged(ScanIndexOnA("materialize.public.t1")),
                DistinctArranged(PlanBuilder::GetCollection(
                    Global("materialize.public.t2"), PlanBuilder::Raw())))
          .Build({.global_arity = {{"materialize.public.t1", 2}}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*plan)->id, 10u);  // ten nodes, the root last in post-order
  const std::string expected = ReadOrEmpty(
      std::filesystem::path(LIR_SOURCE_DIR) / "examples" / "except.plan");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(explain::PrintText(Wrap(*std::move(plan), "materialize.public.t2",
                                    0, "materialize.public.t1_a_idx")),
            expected);
}

TEST(PlanBuilder, BuildsCorpusExceptAllPlanByteForByte) {
  const std::filesystem::path path =
      corpus::CorpusDir() / "physical_plan_as_text-L268.plan";
  const std::string expected = ReadOrEmpty(path);
  LIR_SKIP_WITHOUT_CORPUS(expected.empty());
  // SELECT a FROM t EXCEPT ALL SELECT b FROM mv.
  absl::StatusOr<NodePtr> plan =
      ExceptAll(ScanIndexOnA("materialize.public.t"),
                PlanBuilder::GetCollection(Global("materialize.public.mv"),
                                           PlanBuilder::Raw()))
          .Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(explain::PrintText(Wrap(*std::move(plan), "materialize.public.mv",
                                    1, "materialize.public.t_a_idx")),
            expected);
}

TEST(PlanBuilder, AssignsPostOrderIds) {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(PlanBuilder::Constant({Row{Literal::Int(1)}}));
  inputs.push_back(PlanBuilder::Constant({Row{Literal::Int(2)}}).Negate());
  absl::StatusOr<NodePtr> plan = PlanBuilder::Union(std::move(inputs)).Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Node& root = **plan;
  EXPECT_EQ(root.inputs[0]->id, 1u);
  EXPECT_EQ(root.inputs[1]->inputs[0]->id, 2u);
  EXPECT_EQ(root.inputs[1]->id, 3u);
  EXPECT_EQ(root.id, 4u);
}

TEST(PlanBuilder, BuildsEveryNodeKind) {
  // A Let and a LetRec around every other kind; validation passes.
  const CollectionId t = Global("materialize.public.t");
  const AvailableCollections indexed =
      PlanBuilder::Arranged({MakeColumnArrangement({0}, 2)}, /*raw=*/true);
  JoinPath linear;
  linear.source_relation = 0;
  JoinStage& stage = linear.stages.emplace_back();
  stage.lookup_relation = 1;
  stage.lookup_key = ColumnKey({0});
  stage.stream_key = ColumnKey({0});
  stage.stream_thinning = {1};
  std::vector<PlanBuilder> join_inputs;
  join_inputs.push_back(PlanBuilder::GetCollection(t, indexed));
  join_inputs.push_back(PlanBuilder::Get(t, indexed));
  ReduceOp count;
  count.kind = ReduceKind::kAccumulable;
  count.key_plan.project = std::vector<int>{0};
  count.val_plan.project = std::vector<int>{1};
  count.simple_aggrs.push_back(
      {0, AggregateExpr{"count", std::nullopt, false, ScalarExpr::Column(1)}});
  TopKOp top;
  top.group_by = {0};
  top.limit = ScalarExpr::Lit(Literal::Int(3));
  std::vector<PlanBuilder> union_inputs;
  union_inputs.push_back(
      PlanBuilder::LinearJoin(std::move(join_inputs), std::move(linear))
          .Mfp(PlanBuilder::Project({0, 1})));
  union_inputs.push_back(
      PlanBuilder::Get(CollectionId::Local(0), PlanBuilder::Raw()));
  union_inputs.push_back(
      PlanBuilder::GetCollection(CollectionId::Local(1), PlanBuilder::Raw())
          .FlatMap("generate_series", {ScalarExpr::Column(0)},
                   PlanBuilder::Project({0, 1})));
  PlanBuilder body =
      PlanBuilder::Union(std::move(union_inputs))
          .Reduce(std::move(count))
          .TopK(std::move(top))
          .ArrangeBy(PlanBuilder::Arranged({MakeColumnArrangement({0, 1}, 2)}))
          .Threshold(MakeColumnArrangement({0, 1}, 2));
  std::vector<LetRecBinding> bindings;
  bindings.push_back({1,
                      PlanBuilder::GetArrangement(t, indexed, ColumnKey({0}),
                                                  {}, Row{Literal::Int(5)}),
                      LetRecLimit{10, false}});
  absl::StatusOr<NodePtr> plan =
      PlanBuilder::Let(
          0, PlanBuilder::Get(t, indexed),
          PlanBuilder::LetRec(std::move(bindings), std::move(body)))
          .Build({.global_arity = {{"materialize.public.t", 2}}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CountNodes(**plan), 16u);
  EXPECT_EQ((*plan)->kind(), NodeKind::kLet);
}

TEST(PlanBuilder, ValidationErrorsNameTheLirId) {
  // Projecting column #3 of a two-column input: the Mfp (LirId 2) is wrong.
  absl::StatusOr<NodePtr> plan =
      PlanBuilder::Get(Global("materialize.public.t"), PlanBuilder::Raw())
          .Mfp(PlanBuilder::Project({3}))
          .Negate()
          .Build({.global_arity = {{"materialize.public.t", 2}}});
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(absl::StrContains(plan.status().message(), "LirId(2)"))
      << plan.status();
}

TEST(PlanBuilder, MisuseIsReportedByBuild) {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(PlanBuilder::Constant(std::vector<Row>{}));
  inputs.emplace_back();  // an input never started
  PlanBuilder plan = PlanBuilder::Union(std::move(inputs)).Negate();
  EXPECT_FALSE(plan.status().ok());
  absl::StatusOr<NodePtr> built = std::move(plan).Build();
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().message(), "PlanBuilder: input 1 of Union is empty");
  EXPECT_FALSE(PlanBuilder().Build().ok());
}

TEST(PlanBuilder, SetDifferenceAndDeltaJoin) {
  const CollectionId t = Global("materialize.public.t");
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  absl::StatusOr<NodePtr> difference =
      PlanBuilder::SetDifference(
          PlanBuilder::Get(t, PlanBuilder::Arranged({by_0})),
          PlanBuilder::Get(t, PlanBuilder::Arranged({by_0})),
          SetDifferenceOp{by_0, {0}, {0}})
          .Build({.global_arity = {{"materialize.public.t", 1}}});
  ASSERT_TRUE(difference.ok()) << difference.status();
  EXPECT_EQ((*difference)->kind(), NodeKind::kSetDifference);

  std::vector<JoinPath> paths(2);
  for (int source = 0; source < 2; ++source) {
    paths[source].source_relation = source;
    paths[source].source_key = ColumnKey({0});
    JoinStage& stage = paths[source].stages.emplace_back();
    stage.lookup_relation = 1 - source;
    stage.lookup_key = ColumnKey({0});
    stage.stream_key = ColumnKey({0});
  }
  std::vector<PlanBuilder> inputs;
  inputs.push_back(PlanBuilder::Get(t, PlanBuilder::Arranged({by_0})));
  inputs.push_back(PlanBuilder::Get(t, PlanBuilder::Arranged({by_0})));
  absl::StatusOr<NodePtr> join =
      PlanBuilder::DeltaJoin(std::move(inputs), std::move(paths))
          .Build({.global_arity = {{"materialize.public.t", 1}}});
  ASSERT_TRUE(join.ok()) << join.status();
  EXPECT_EQ(HeaderName(**join), "Join::Delta");
}

}  // namespace
}  // namespace lir
