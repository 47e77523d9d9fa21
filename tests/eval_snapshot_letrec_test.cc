// The snapshot engine's bindings (include/lir/eval/snapshot.h): Let, free
// locals, LetRec fixed points and recursion limits, and 100,000-deep plans
// (Negate, Mfp and Let chains). Every expected collection below was
// computed by hand from the plan and data.
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

namespace lir::eval {
namespace {

using namespace snapshot_testing;  // NOLINT: the shared test helpers

// --------------------------------------------------------------------- Let

TEST(SnapshotTest, LetBindsItsValueForTheBody) {
  Runner run(R"(Explained Query:
  With
    cte l0 =
      Get::Collection materialize.public.t
        filter=((#0 > 1))
        raw=true
    cte l1 =
      Negate
        Get::PassArrangements l0
          raw=true
  Return
    Union
      Get::PassArrangements l0
        raw=true
      Get::PassArrangements l0
        raw=true
      Get::Collection l1
        filter=((#0 > 2))
        raw=true
)",
             {{"materialize.public.t", 1}});
  ASSERT_TRUE(run.ok());
  // l0 = {2, 3}; body = 2 x l0 - (l0 where > 2).
  run.Step(
      {{"materialize.public.t", M({{{I(1)}, 1}, {{I(2)}, 1}, {{I(3)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}, {{I(3)}, 1}}));
  run.Step({{"materialize.public.t", M({{{I(3)}, 2}})}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}, {{I(3)}, 3}}));
}

TEST(SnapshotTest, ShadowingALocalIsAnError) {
  Document doc = ParseOrDie(R"(Explained Query:
  With
    cte l0 =
      Constant
        - (1)
  Return
    Union
      With
        cte l0 =
          Constant
            - (2)
      Return
        Get::PassArrangements l0
          raw=true
      Get::PassArrangements l0
        raw=true
)");
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
  Document doc = ParseOrDie(R"(Explained Query:
  Negate
    Get::Collection l3
      filter=((#0 > 1))
      raw=true
)");
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

// ------------------------------------------------------------------ LetRec

// Transitive closure of e, with `LIMIT` replaced by a recursion limit.
std::string Closure(const std::string& limit) {
  return R"(Explained Query:
  With Mutually Recursive
    cte )" +
         limit + R"(l0 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Union
          Get::Collection materialize.public.e
            raw=true
          Join::Linear
            linear_stage[0]
              closure
                project=(#1, #2)
              lookup={ relation=1, key=[#0] }
              stream={ key=[#1], thinning=(#0) }
            source={ relation=0, raw }
            Get::PassArrangements l0
              raw=true
            ArrangeBy
              raw=true
              arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
              Get::PassArrangements materialize.public.e
                raw=true
  Return
    Get::PassArrangements l0
      raw=true
)";
}

Multiset Pairs(std::vector<std::pair<int, int>> pairs) {
  std::vector<RowDiff> rows;
  for (auto [a, b] : pairs) rows.push_back({{I(a), I(b)}, 1});
  return M(std::move(rows));
}

TEST(SnapshotTest, LetRecTransitiveClosureConvergesEveryRound) {
  Runner run(Closure(""), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.e", Pairs({{1, 2}, {2, 3}, {3, 4}})}});
  EXPECT_MS(run.contents(),
            Pairs({{1, 2}, {2, 3}, {3, 4}, {1, 3}, {2, 4}, {1, 4}}));
  // A cycle: every pair of {1, 2, 3, 4}.
  run.Step({{"materialize.public.e", Pairs({{4, 1}})}});
  std::vector<std::pair<int, int>> all;
  for (int a = 1; a <= 4; ++a) {
    for (int b = 1; b <= 4; ++b) all.push_back({a, b});
  }
  EXPECT_MS(run.contents(), Pairs(all));
  // Removing 2 -> 3 leaves 1 -> 2, 3 -> 4 -> 1: the fixed point is
  // recomputed from empty, so pairs through 2 -> 3 disappear.
  run.Step({{"materialize.public.e", M({{{I(2), I(3)}, -1}})}});
  EXPECT_MS(run.contents(),
            Pairs({{1, 2}, {3, 4}, {3, 1}, {3, 2}, {4, 1}, {4, 2}}));
}

// On the chain 1 -> 2 -> 3 -> 4 -> 5, iteration k finds the paths of
// length <= k; iteration 4 finds the last pair (1, 5), iteration 5 changes
// nothing.
GlobalChanges Chain() {
  return {{"materialize.public.e", Pairs({{1, 2}, {2, 3}, {3, 4}, {4, 5}})}};
}

TEST(SnapshotTest, LetRecConvergingWithinItsLimit) {
  Runner run(Closure("[recursion_limit=5] "), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(Chain());
  EXPECT_EQ(run.contents().size(), 10u) << Show(run.contents());
}

TEST(SnapshotTest, LetRecLimitExceeded) {
  Runner run(Closure("[recursion_limit=4] "), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  absl::Status error = run.StepError(Chain());
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(
      error.message().find("With Mutually Recursive: recursion limit exceeded"),
      std::string::npos)
      << error;
}

TEST(SnapshotTest, LetRecReturnAtLimitReturnsTheCurrentValues) {
  Runner run(Closure("[recursion_limit=3, return_at_limit] "),
             {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(Chain());
  // Paths of length <= 3: everything but (1, 5).
  EXPECT_MS(run.contents(), Pairs({{1, 2},
                                   {2, 3},
                                   {3, 4},
                                   {4, 5},
                                   {1, 3},
                                   {2, 4},
                                   {3, 5},
                                   {1, 4},
                                   {2, 5}}));
}

// l1 reads l0's value of the same iteration: with limit 1 and
// return_at_limit the body sees {1}, not the empty start value.
TEST(SnapshotTest, LetRecBindingsSeeEarlierBindingsOfTheSameIteration) {
  auto plan = [](const std::string& limit) {
    return R"(Explained Query:
  With Mutually Recursive
    cte )" +
           limit + R"(l0 =
      Constant
        - (1)
    cte )" +
           limit + R"(l1 =
      Get::PassArrangements l0
        raw=true
  Return
    Get::PassArrangements l1
      raw=true
)";
  };
  Runner at_limit(plan("[recursion_limit=1, return_at_limit] "), {});
  ASSERT_TRUE(at_limit.ok());
  at_limit.Step({});
  EXPECT_MS(at_limit.contents(), M({{{I(1)}, 1}}));
  // Without return_at_limit the first iteration's change is an error;
  // with two iterations the second confirms the fixed point.
  Runner erroring(plan("[recursion_limit=1] "), {});
  ASSERT_TRUE(erroring.ok());
  EXPECT_EQ(erroring.StepError({}).code(), absl::StatusCode::kOutOfRange);
  Runner two(plan("[recursion_limit=2] "), {});
  ASSERT_TRUE(two.ok());
  two.Step({});
  EXPECT_MS(two.contents(), M({{{I(1)}, 1}}));
}

TEST(SnapshotTest, LetRecWithoutLimitThatOscillatesDoesNotConverge) {
  Runner run(R"(Explained Query:
  With Mutually Recursive
    cte l0 =
      Negate
        Union
          Constant
            - (1)
          Get::PassArrangements l0
            raw=true
  Return
    Get::PassArrangements l0
      raw=true
)",
             {});
  ASSERT_TRUE(run.ok());
  // l0 alternates between {1 x-1} and {}: 10,000 iterations (the default
  // of DataflowOptions::max_iterations) end it.
  absl::Status error = run.StepError({});
  EXPECT_EQ(error.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(error.message().find("did not converge in 10000 iterations"),
            std::string::npos)
      << error;
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
