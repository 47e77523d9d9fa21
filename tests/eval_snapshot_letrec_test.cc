// The snapshot engine's bindings (include/lir/eval/snapshot.h) through its
// API: shadowing, free locals from the environment, and 100,000-deep plans
// (Negate, Mfp and Let chains). Let and LetRec runs (fixed points,
// recursion limits) are goldens in testdata/eval/letrec.txt. Every
// expected collection below was computed by hand from the plan and data.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/datum.h"
#include "lir/eval/snapshot.h"
#include "lir/plan_builder.h"
#include "tests/support/eval_snapshot_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using namespace test::snapshot;  // NOLINT: the shared test helpers

// --------------------------------------------------------------------- Let

TEST(SnapshotTest, ShadowingALocalIsAnError) {
  Document doc = test::FixtureOrDie("let_shadowed_in_union.plan");
  ASSERT_FALSE(doc.objects.empty());
  const Node& plan = *doc.objects[0].plan;
  absl::Status built = MakeSnapshotDataflow(plan, {}).status();
  EXPECT_EQ(built.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(built.message().find("l0 is already bound"), std::string::npos)
      << built;
  absl::StatusOr<Multiset> evaluated = EvaluateSnapshot(plan, {});
  EXPECT_NE(evaluated.status().message().find("l0 is already bound"),
            std::string::npos)
      << evaluated.status();
}

TEST(SnapshotTest, FreeLocalsComeFromTheEnvironment) {
  Document doc = test::FixtureOrDie("negate_filtered_l3.plan");
  ASSERT_FALSE(doc.objects.empty());
  const Node& plan = *doc.objects[0].plan;
  const Multiset l3 = M({{{I(1)}, 1}, {{I(2)}, 5}});
  SnapshotEnv env;
  env.locals[3] = &l3;
  absl::StatusOr<Multiset> result = EvaluateSnapshot(plan, env);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(2)}, -5}}));
  absl::StatusOr<Multiset> unbound = EvaluateSnapshot(plan, {});
  EXPECT_EQ(unbound.status().message(),
            "LirId(1) Get::Collection: l3 is not bound here");
}

// -------------------------------------------------------------- Deep plans

constexpr int kDepth = 100000;

TEST(SnapshotTest, DeepNegateChain) {
  ConstantOp constant;
  constant.rows.push_back({Row{Literal::Int(1)}, 3});
  PlanBuilder chain = PlanBuilder::Constant(std::move(constant));
  for (int i = 0; i < kDepth - 1; ++i) chain = std::move(chain).Negate();
  NodePtr plan = std::move(chain).Release();
  AssignPostOrderIds(*plan);
  // 99,999 negations: an odd number.
  absl::StatusOr<Multiset> result = EvaluateSnapshot(*plan, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(1)}, -3}}));
}

TEST(SnapshotTest, DeepMfpChainThroughTheDataflow) {
  PlanBuilder chain = PlanBuilder::GetCollection(
      CollectionId::Global("materialize.public.t"), {});
  for (int i = 0; i < kDepth - 1; ++i) {
    MapFilterProject mfp;
    mfp.map.push_back(ScalarExpr::Call(
        CallStyle::kInfix, "+",
        {ScalarExpr::Column(0), ScalarExpr::Lit(Literal::Int(1))}));
    mfp.project = std::vector<int>{1};
    chain = std::move(chain).Mfp(std::move(mfp));
  }
  NodePtr plan = std::move(chain).Release();
  AssignPostOrderIds(*plan);
  DataflowOptions options;
  options.globals["materialize.public.t"] = 1;
  absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
      MakeSnapshotDataflow(*plan, options);
  ASSERT_TRUE(dataflow.ok()) << dataflow.status();
  absl::StatusOr<Multiset> round0 = (*dataflow)->Step(
      0, {{"materialize.public.t", M({{{I(0)}, 1}, {{I(5)}, 2}})}});
  ASSERT_TRUE(round0.ok()) << round0.status();
  EXPECT_MS(*round0, M({{{I(kDepth - 1)}, 1}, {{I(kDepth + 4)}, 2}}));
  absl::StatusOr<Multiset> round1 =
      (*dataflow)->Step(1, {{"materialize.public.t", M({{{I(0)}, -1}})}});
  ASSERT_TRUE(round1.ok()) << round1.status();
  EXPECT_MS(*round1, M({{{I(kDepth - 1)}, -1}}));
}

TEST(SnapshotTest, DeepLetNesting) {
  // With l0 = const in With l1 = Get l0 in ... Return Get l<n-1>, built as
  // a right-leaning chain of Lets 100,000 deep.
  PlanBuilder nest = PlanBuilder::Get(CollectionId::Local(kDepth - 1), {});
  for (int i = kDepth - 1; i >= 0; --i) {
    PlanBuilder value;
    if (i == 0) {
      ConstantOp constant;
      constant.rows.push_back({Row{Literal::Int(7)}, 2});
      value = PlanBuilder::Constant(std::move(constant));
    } else {
      value = PlanBuilder::Get(CollectionId::Local(i - 1), {});
    }
    nest = PlanBuilder::Let(static_cast<uint64_t>(i), std::move(value),
                            std::move(nest));
  }
  NodePtr plan = std::move(nest).Release();
  AssignPostOrderIds(*plan);
  ASSERT_TRUE(CheckDataflowPlan(*plan, {}).ok());
  absl::StatusOr<Multiset> result = EvaluateSnapshot(*plan, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(7)}, 2}}));
}

}  // namespace
}  // namespace lir::eval
