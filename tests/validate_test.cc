// Tests of Validate / InferArities: a valid hand-built plan for every node
// kind, deep plans, and every corpus plan. One failing plan per class of
// error is in validate_errors_test.cc.
#include "lir/validate.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "tests/support/corpus_util.h"
#include "tests/support/ir_helpers.h"
#include "tests/support/validate_plans.h"

namespace lir {
namespace {

using test::Col;
using test::validate_plans::ArrangeBy;
using test::validate_plans::Build;
using test::validate_plans::Constant;
using test::validate_plans::Global;
using test::validate_plans::In;
using test::validate_plans::LinearPath;
using test::validate_plans::Local;
using test::validate_plans::Mfp;
using test::validate_plans::Negate;
using test::validate_plans::Project;
using test::validate_plans::RootArity;

// ---------------------------------------------------------------------------
// Valid plans, one or more per node kind.

TEST(ValidateTest, ConstantArityIsRowWidth) {
  NodePtr plan = Constant(3, 2);
  EXPECT_EQ(RootArity(plan), 3);
  NodePtr empty = Build(ConstantOp{});
  EXPECT_EQ(RootArity(empty), std::nullopt);
  ConstantOp error;
  error.error = "division by zero";
  NodePtr error_plan = Build(std::move(error));
  EXPECT_EQ(RootArity(error_plan), std::nullopt);
}

TEST(ValidateTest, GlobalArityFromOptionsOrArrangements) {
  NodePtr unknown = Global("t", 2);
  EXPECT_EQ(RootArity(unknown), std::nullopt);
  ValidateOptions options;
  options.global_arity["t"] = 2;
  EXPECT_EQ(RootArity(unknown, options), 2);
  NodePtr arranged = Global("t", 3, {{1}});
  EXPECT_EQ(RootArity(arranged), 3);
}

TEST(ValidateTest, GetArrangementAndCollectionApplyTheirMfp) {
  GetOp get;
  get.id = CollectionId::Global("t");
  get.kind = GetKind::kArrangement;
  get.keys.arranged.push_back(MakeColumnArrangement({0}, 2));
  get.key = {ScalarExpr::Column(0, "a")};
  get.seek = Row{Literal::Int(5)};
  get.mfp.map = {ScalarExpr::Call(CallStyle::kInfix, "+", {Col(0), Col(1)})};
  get.mfp.project = std::vector<int>{2, 2, 1};
  NodePtr plan = Build(std::move(get));
  EXPECT_EQ(RootArity(plan), 3);

  GetOp collection;
  collection.id = CollectionId::Global("t");
  collection.kind = GetKind::kCollection;
  collection.keys.raw = true;
  collection.mfp.filter = {
      ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {Col(1)})};
  NodePtr scan = Build(std::move(collection));
  ValidateOptions options;
  options.global_arity["t"] = 4;
  EXPECT_EQ(RootArity(scan, options), 4);
}

TEST(ValidateTest, LetBindsItsValueArity) {
  NodePtr plan =
      Build(LetOp{0}, In(Constant(2), Mfp(Local(0), Project({1, 0, 1}))));
  EXPECT_EQ(RootArity(plan), 3);
  auto arities = InferArities(*plan);
  ASSERT_TRUE(arities.ok());
  EXPECT_EQ(arities->at(1), 2);  // the Constant
  EXPECT_EQ(arities->at(2), 2);  // Get l0
}

TEST(ValidateTest, NestedLetsMayReuseIdsOfSiblingScopes) {
  NodePtr left = Build(LetOp{0}, In(Constant(1), Local(0)));
  NodePtr right = Build(LetOp{0}, In(Constant(1), Local(0)));
  NodePtr plan = Build(UnionOp{}, In(std::move(left), std::move(right)));
  EXPECT_EQ(RootArity(plan), 1);
}

TEST(ValidateTest, LetRecLearnsArityFromItsValues) {
  LetRecOp op;
  op.ids = {0, 1};
  op.limits = {std::nullopt, LetRecLimit{10, true}};
  // l0 = Union(Constant(2), Get l1); l1 = Get l0; body Get l1.
  NodePtr l0 = Build(UnionOp{}, In(Constant(2), Local(1)));
  NodePtr plan = Build(std::move(op), In(std::move(l0), Local(0), Local(1)));
  EXPECT_EQ(RootArity(plan), 2);
}

TEST(ValidateTest, MfpMapsMayReadEarlierMappedColumns) {
  MapFilterProject mfp;
  mfp.map = {ScalarExpr::Lit(Literal::Int(1)),
             ScalarExpr::Call(CallStyle::kInfix, "+", {Col(2), Col(1)})};
  mfp.filter = {ScalarExpr::Call(CallStyle::kInfix, ">", {Col(3), Col(0)})};
  mfp.project = std::vector<int>{3, 0};
  NodePtr plan = Mfp(Constant(2), mfp);
  EXPECT_EQ(RootArity(plan), 2);
  // Without a projection the map column only feeds filters
  // (../shared/reference/SEMANTICS.md 8.1).
  NodePtr no_project =
      Mfp(Constant(2), MapFilterProject{std::nullopt, {}, {Col(0)}, {}});
  EXPECT_EQ(RootArity(no_project), 2);
}

TEST(ValidateTest, FlatMapAddsTheFunctionColumns) {
  FlatMapOp op;
  op.func = "generate_series";
  op.exprs = {Col(0), Col(1), ScalarExpr::Lit(Literal::Int(1))};
  op.input_key = std::vector<ScalarExpr>{Col(0)};
  op.mfp_after.filter = {
      ScalarExpr::Call(CallStyle::kInfix, ">", {Col(2), Col(0)})};
  NodePtr plan = Build(op, In(Global("t", 2, {{0}})));
  EXPECT_EQ(RootArity(plan), 3);
  // Unknown function: only a projection reveals the arity.
  op.func = "regexp_extract(\"(a)(b)\", _)";
  op.mfp_after.filter.clear();
  op.mfp_after.project = std::vector<int>{3};
  NodePtr regexp = Build(op, In(Global("t", 2, {{0}})));
  EXPECT_EQ(RootArity(regexp), 1);
}

TEST(ValidateTest, LinearJoinTracksStreamArity) {
  JoinOp join;
  join.paths.push_back(LinearPath());
  NodePtr plan =
      Build(std::move(join), In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(RootArity(plan), 4);
}

TEST(ValidateTest, DeltaJoinPathsAgree) {
  JoinOp join;
  join.delta = true;
  join.paths.push_back(LinearPath());
  JoinPath second = LinearPath();
  second.source_relation = 1;
  second.stages[0].lookup_relation = 0;
  // Stream (c, d) then lookup value b: (c, d, b) -> (a, b, c, d).
  second.final_closure = JoinClosure{Project({0, 2, 0, 1}), {}};
  join.paths.push_back(second);
  NodePtr plan =
      Build(std::move(join), In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(RootArity(plan), 4);
}

TEST(ValidateTest, ReduceKinds) {
  ReduceOp distinct;
  distinct.kind = ReduceKind::kDistinct;
  distinct.val_plan = Project({});
  NodePtr d = Build(distinct, In(Constant(3)));
  EXPECT_EQ(RootArity(d), 3);

  ReduceOp accumulable;
  accumulable.kind = ReduceKind::kAccumulable;
  accumulable.simple_aggrs = {
      {1, AggregateExpr{"sum", std::nullopt, false, Col(1)}}};
  accumulable.distinct_aggrs = {
      {0, AggregateExpr{"count", std::nullopt, true, Col(1)}}};
  accumulable.key_plan = Project({0});
  accumulable.val_plan = Project({1, 1});
  NodePtr a = Build(accumulable, In(Global("t", 2, {{0}})));
  EXPECT_EQ(RootArity(a), 3);

  ReduceOp hierarchical;
  hierarchical.kind = ReduceKind::kHierarchicalBucketed;
  hierarchical.aggr_funcs = {"min", "max"};
  hierarchical.buckets = {16};
  hierarchical.key_plan = Project({});
  hierarchical.val_plan = Project({1, 1});
  hierarchical.mfp_after.map = {Col(0)};
  NodePtr h = Build(hierarchical, In(Constant(2)));
  // key () ++ (min, max); the unprojected map column is not output.
  EXPECT_EQ(RootArity(h), 2);

  ReduceOp basic;
  basic.kind = ReduceKind::kBasicSingle;
  basic.aggrs = {AggregateExpr{"string_agg", "order_by=[]", false, Col(1)}};
  basic.key_plan = Project({0});
  basic.val_plan = Project({1});
  NodePtr b = Build(basic, In(Constant(2)));
  EXPECT_EQ(RootArity(b), 2);
}

TEST(ValidateTest, TopKNegateUnionKeepArity) {
  TopKOp topk;
  topk.kind = TopKKind::kBasic;
  topk.group_by = {0};
  topk.order_by = {OrderKey{1, true, false}};
  topk.limit = ScalarExpr::Lit(Literal::Int(3));
  topk.offset = 2;
  NodePtr plan = Build(
      UnionOp{false,
              {UnionStrategy::kDirect, UnionStrategy::kTemporalBucketing}},
      In(Build(topk, In(Constant(2))), Negate(Global("t", 2))));
  EXPECT_EQ(RootArity(plan), 2);
}

TEST(ValidateTest, ThresholdAndArrangeBy) {
  ThresholdOp threshold{MakeColumnArrangement({0, 1}, 2)};
  NodePtr plan = Build(threshold, In(ArrangeBy(Constant(2), 2, {{0, 1}, {1}})));
  EXPECT_EQ(RootArity(plan), 2);

  ArrangeByOp arrange;
  arrange.input_key = std::vector<ScalarExpr>{Col(0)};
  arrange.input_mfp = Project({1});
  arrange.forms.arranged.push_back(MakeArrangement({}, 1));
  NodePtr projected = Build(arrange, In(Global("t", 2, {{0}})));
  EXPECT_EQ(RootArity(projected), 1);
}

TEST(ValidateTest, SetDifference) {
  SetDifferenceOp op;
  op.ensure_arrangement = MakeColumnArrangement({0}, 1);
  op.base_key = {0};
  op.subtract_key = {1};
  NodePtr plan = Build(op, In(Constant(1), Global("t", 1, {{0}})));
  EXPECT_EQ(RootArity(plan), 1);
}

TEST(ValidateTest, DeepPlansValidateIteratively) {
  constexpr int kDepth = 100000;
  NodePtr plan = Constant(2);
  for (int i = 0; i < kDepth; ++i) {
    plan = (i % 2 == 0) ? Negate(std::move(plan))
                        : Mfp(std::move(plan), Project({1, 0}));
  }
  EXPECT_EQ(RootArity(plan), 2);

  // Deeply nested Lets, each body reading every binding so far.
  NodePtr lets = Local(0);
  for (int i = kDepth - 1; i >= 0; --i) {
    lets = Build(LetOp{static_cast<uint64_t>(i)},
                 In(i == 0 ? Constant(1) : Local(i - 1), std::move(lets)));
  }
  EXPECT_EQ(RootArity(lets), 1);
}

// ---------------------------------------------------------------------------
// Every corpus plan validates.

TEST(ValidateCorpusTest, EveryCorpusPlanValidates) {
  const std::vector<std::filesystem::path> paths = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(paths.empty());
  int files = 0;
  int plans = 0;
  int known_root = 0;
  for (const std::filesystem::path& path : paths) {
    ++files;
    explain::ParseOptions options;
    options.filename = path.filename().string();
    absl::StatusOr<Document> doc =
        explain::ParseText(test::ReadFile(path), options);
    if (!doc.ok()) {
      ADD_FAILURE() << doc.status();
      continue;
    }
    absl::Status status = Validate(*doc);
    EXPECT_TRUE(status.ok()) << options.filename << ": " << status;
    for (const Object& object : doc->objects) {
      if (object.plan == nullptr) continue;
      ++plans;
      auto arities = InferArities(*object.plan);
      ASSERT_TRUE(arities.ok()) << options.filename << ": " << arities.status();
      if (arities->at(object.plan->id).has_value()) ++known_root;
    }
  }
  EXPECT_EQ(files, 134);
  EXPECT_GT(known_root, plans / 2);
  std::cout << "[ corpus   ] " << plans << " plans in " << files
            << " files; root arity known for " << known_root << "\n";
}

}  // namespace
}  // namespace lir
