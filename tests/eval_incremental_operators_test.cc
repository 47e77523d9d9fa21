// Tests of the incremental engine (include/lir/eval/incremental.h): multi-round
// updates with retractions through the native operators other than
// SetDifference and Threshold: reductions, linear and delta joins against a
// nested-loops oracle, Let, TopK, the LetRec adapter, and a 100,000-deep
// chain. EXCEPT ALL and the agreement with the snapshot engine are in
// eval_incremental_test.cc.
#include "lir/eval/incremental.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/plan_builder.h"
#include "src/eval/trace.h"
#include "tests/support/eval_incremental_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using namespace test::incremental;  // NOLINT: the shared test helpers

// ---- Reduce
// ------------------------------------------------------------------

std::string DistinctPlan() { return test::FixtureText("distinct_t.plan"); }

TEST(IncrementalReduce, DistinctCountSumMinMax) {
  struct Case {
    std::string text;
    std::vector<Multiset> contents;
    std::vector<std::string> arrangements;
  };
  std::vector<Case> cases = {
      {DistinctPlan(),
       {M({{I({1}), 1}, {I({2}), 1}}), M({{I({1}), 1}, {I({2}), 1}}),
        M({{I({1}), 1}})},
       {"Arranged DistinctBy", "DistinctBy"}},
      {CountSumPlan(),
       {M({{I({1, 2, 30}), 1}, {I({2, 1, 5}), 1}}),
        M({{I({1, 1, 10}), 1}, {I({2, 3, 19}), 1}}), M({{I({1, 1, 10}), 1}})},
       {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"}},
      {MinMaxPlan(),
       {M({{I({1, 10, 20}), 1}, {I({2, 5, 5}), 1}}),
        M({{I({1, 10, 10}), 1}, {I({2, 5, 7}), 1}}), M({{I({1, 10, 10}), 1}})},
       {"Arrange ReduceMinsMaxes", "ReduceMinsMaxes"}},
  };
  for (const Case& c : cases) {
    Plan plan(c.text);
    auto df = Build(plan, Options({{kT, 2}}));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, ReduceRounds());
    EXPECT_EQ(Contents(changes), c.contents) << c.text;
    std::vector<ArrangementStats> stats = df->Arrangements();
    EXPECT_EQ(Names(stats), c.arrangements);
    // Eager compaction: one output record per live group.
    EXPECT_EQ(stats[1].records, 1u) << c.text;
  }
  // Distinct emits nothing in round 1: its keys did not change.
  Plan plan(DistinctPlan());
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  EXPECT_TRUE(Steps(*df, ReduceRounds())[1].empty());
}

TEST(IncrementalReduce, NegativeMultiplicityIsARoundErrorNamingTheNode) {
  Plan plan(DistinctPlan());
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  ASSERT_TRUE(df->Step(0, {{kT, M({{I({1, 10}), 1}})}}).ok());
  absl::StatusOr<Multiset> bad = df->Step(1, {{kT, M({{I({1, 10}), -2}})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().substr(0, 25), "LirId(2) Reduce::Distinct")
      << bad.status();
  EXPECT_NE(bad.status().message().find("negative multiplicity"),
            std::string::npos)
      << bad.status();
  // A failed dataflow is not stepped again.
  EXPECT_FALSE(df->Step(2, {}).ok());
}

// ---- Joins -----------------------------------------------------------------

// The join by nested loops over accumulated contents: an independent
// oracle for the 3-way join.
Multiset NestedLoops(const Multiset& r, const Multiset& s, const Multiset& u) {
  std::vector<RowDiff> out;
  for (const auto& [rr, dr] : r) {
    for (const auto& [sr, ds] : s) {
      if (rr[1] != sr[0]) continue;
      for (const auto& [ur, du] : u) {
        if (sr[1] != ur[0]) continue;
        out.emplace_back(DataRow{rr[0], rr[1], sr[1], ur[1]}, dr * ds * du);
      }
    }
  }
  return M(std::move(out));
}

TEST(IncrementalJoin, LinearAndDeltaThreeWayMatchNestedLoops) {
  std::vector<GlobalChanges> rounds = JoinRounds();
  std::vector<Multiset> expected;
  Multiset r, s, u;
  for (GlobalChanges& g : rounds) {
    r = *AddMultisets(r, g[kR]);
    s = *AddMultisets(s, g[kS]);
    u = *AddMultisets(u, g[kU]);
    expected.push_back(NestedLoops(r, s, u));
  }
  // Spot-check the oracle by hand at round 0: (1,10,100,7), (2,10,100,7),
  // (3,20,200,8).
  EXPECT_EQ(expected[0], M({{I({1, 10, 100, 7}), 1},
                            {I({2, 10, 100, 7}), 1},
                            {I({3, 20, 200, 8}), 1}}));
  EXPECT_TRUE(expected[3].empty());
  for (const std::string& text : {Linear3Plan(), Delta3Plan()}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
    ASSERT_NE(df, nullptr);
    EXPECT_EQ(Contents(Steps(*df, JoinRounds())), expected) << text;
  }
  Plan linear(Linear3Plan());
  auto df = Build(linear, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(df, nullptr);
  // Stage 0 streams r's ArrangeBy arrangement; stage 1's stream is arranged
  // by the join itself.
  EXPECT_EQ(Names(df->Arrangements()),
            (std::vector<std::string>{"ArrangeBy[[Column(1)]]",
                                      "Index materialize.public.s[[Column(0)]]",
                                      "Index materialize.public.u[[Column(0)]]",
                                      "JoinStage 1[[Column(2)]]"}));
}

TEST(IncrementalJoin, DeltaWithoutEveryPathRunsRecomputed) {
  Plan plan(DeltaOnePathPlan());
  auto df = Build(plan, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> contents = Contents(Steps(*df, JoinRounds()));
  Plan linear(Linear3Plan());
  auto reference = Build(linear, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(reference, nullptr);
  EXPECT_EQ(contents, Contents(Steps(*reference, JoinRounds())));
  // Arrangements() returns a vector: keep it alive while `out` points into
  // it (ASan found the temporary read after it was freed).
  const std::vector<ArrangementStats> arrangements = df->Arrangements();
  const ArrangementStats* out =
      Find(arrangements, "Join::Delta (recompute adapter) output");
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->adapter);
}

// ---- Let, TopK, LetRec
// --------------------------------------------------------

TEST(IncrementalLet, BindingReadTwice) {
  Plan plan(test::FixtureText("let_read_twice_t.plan"));
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes =
      Steps(*df, {{{kT, M({{I({1, 10}), 1}, {I({2, 20}), 2}})}},
                  {{kT, M({{I({2, 20}), -1}, {I({3, 30}), 1}})}}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{M({{I({20}), 2}}),
                                   M({{I({20}), 1}, {I({30}), 1}})}));
}

TEST(IncrementalTopK, PerGroupRecomputation) {
  Plan plan(test::FixtureText("topk_limit2_t.plan"));
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes = Steps(
      *df,
      {{{kT,
         M({{I({1, 1}), 1}, {I({1, 2}), 1}, {I({1, 3}), 1}, {I({2, 5}), 1}})}},
       {{kT, M({{I({1, 3}), -1}, {I({2, 6}), 2}})}}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{
                M({{I({1, 3}), 1}, {I({1, 2}), 1}, {I({2, 5}), 1}}),
                M({{I({1, 2}), 1}, {I({1, 1}), 1}, {I({2, 6}), 2}})}));
  // Round 1 touches both groups; the changes are exactly the differences.
  EXPECT_EQ(
      changes[1],
      M({{I({1, 3}), -1}, {I({1, 1}), 1}, {I({2, 5}), -1}, {I({2, 6}), 2}}));
  EXPECT_EQ(
      Names(df->Arrangements()),
      (std::vector<std::string>{"Arranged TopK input", "Reduced TopK input"}));
}

constexpr char kEdges[] = "materialize.public.edges";

// Transitive closure of `edges`, inside a Let whose binding the recursive
// part reads from outside.
std::string ClosurePlan() { return test::FixtureText("join_closure.plan"); }

TEST(IncrementalLetRec, AdapterRecomputesAndDiffs) {
  Plan plan(ClosurePlan());
  auto df = Build(plan, Options({{kEdges, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes =
      Steps(*df, {{{kEdges, M({{I({1, 2}), 1}, {I({2, 3}), 1}})}},
                  {{kEdges, M({{I({3, 4}), 1}})}},
                  {{kEdges, M({{I({2, 3}), -1}})}},
                  {}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{
                M({{I({1, 2}), 1}, {I({2, 3}), 1}, {I({1, 3}), 1}}),
                M({{I({1, 2}), 1},
                   {I({2, 3}), 1},
                   {I({1, 3}), 1},
                   {I({3, 4}), 1},
                   {I({2, 4}), 1},
                   {I({1, 4}), 1}}),
                M({{I({1, 2}), 1}, {I({3, 4}), 1}}),
                M({{I({1, 2}), 1}, {I({3, 4}), 1}})}));
  EXPECT_EQ(changes[1], M({{I({3, 4}), 1}, {I({2, 4}), 1}, {I({1, 4}), 1}}));
  EXPECT_TRUE(changes[3].empty());
  std::vector<ArrangementStats> stats = df->Arrangements();
  EXPECT_EQ(Names(stats),
            (std::vector<std::string>{
                "LetRec (recompute adapter) input l5",
                "LetRec (recompute adapter) input materialize.public.edges",
                "LetRec (recompute adapter) output"}));
  for (const ArrangementStats& s : stats) EXPECT_TRUE(s.adapter);
  // Eager compaction: the held contents, no history.
  EXPECT_EQ(stats[0].records, 2u);
  EXPECT_EQ(stats[2].records, 2u);
}

// ---- Depth
// -------------------------------------------------------------------

TEST(IncrementalDepth, HundredThousandDeepChain) {
  PlanBuilder chain =
      PlanBuilder::GetCollection(CollectionId::Global(kT), PlanBuilder::Raw());
  constexpr int kDepth = 100000;
  for (int i = 0; i < kDepth; ++i) {
    chain = i % 2 == 0 ? std::move(chain).Negate()
                       : std::move(chain).Mfp(PlanBuilder::Project({1, 0}));
  }
  NodePtr node = std::move(chain).Release();
  AssignPostOrderIds(*node);
  absl::StatusOr<std::unique_ptr<Dataflow>> df =
      MakeIncrementalDataflow(*node, Options({{kT, 2}}));
  ASSERT_TRUE(df.ok()) << df.status();
  // 50,000 Negates (even: no sign change) and 50,000 swaps (even: none).
  absl::StatusOr<Multiset> r0 =
      (*df)->Step(0, {{kT, M({{I({1, 2}), 1}, {I({3, 4}), 2}})}});
  ASSERT_TRUE(r0.ok()) << r0.status();
  EXPECT_EQ(*r0, M({{I({1, 2}), 1}, {I({3, 4}), 2}}));
  absl::StatusOr<Multiset> r1 = (*df)->Step(1, {{kT, M({{I({1, 2}), -1}})}});
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_EQ(*r1, M({{I({1, 2}), -1}}));
}

}  // namespace
}  // namespace lir::eval
