// The snapshot engine's joins (include/lir/eval/snapshot.h): a linear join
// following its stages, and a delta join whose paths must agree, over
// several rounds with retractions and negative counts. Every expected
// collection below was computed by hand from the plan and data.
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
#include "tests/support/eval_snapshot_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using namespace test::snapshot;  // NOLINT: the shared test helpers

// ----------------------------------------------------------------- Joins

// t(a, b) JOIN u(c, d) ON b = c JOIN v(e, f) ON d = e, WHERE a IS NOT NULL
// AND d > 0, output (a, d, a + f).
std::string LinearJoinPlan() { return test::FixtureText("join_linear.plan"); }

TEST(SnapshotTest, LinearJoinFollowsItsStages) {
  Runner run(LinearJoinPlan(), {{"materialize.public.t", 2},
                                {"materialize.public.u", 2},
                                {"materialize.public.v", 2}});
  ASSERT_TRUE(run.ok());
  const Node& join = run.plan();
  ASSERT_EQ(join.As<JoinOp>().paths[0].stages[0].lookup_relation, 1)
      << "stages run in execution order";
  run.Step(
      {{"materialize.public.t", M({{{I(1), I(10)}, 1},
                                   {{I(2), I(10)}, 1},
                                   {{Null(), I(10)}, 1},
                                   {{I(3), I(20)}, 1}})},
       {"materialize.public.u",
        M({{{I(10), I(100)}, 1}, {{I(10), I(-5)}, 1}, {{I(20), I(200)}, 2}})},
       {"materialize.public.v",
        M({{{I(100), I(7)}, 1}, {{I(200), I(8)}, 1}, {{I(-5), I(9)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(100), I(8)}, 1},
                               {{I(2), I(100), I(9)}, 1},
                               {{I(3), I(200), I(11)}, 2}}));
  // v's (100, 7) becomes (100, 1); t gets a negative count for (4, 20),
  // which meets u's (20, 200) x2.
  run.Step({{"materialize.public.t", M({{{I(4), I(20)}, -1}})},
            {"materialize.public.v",
             M({{{I(100), I(7)}, -1}, {{I(100), I(1)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(100), I(2)}, 1},
                               {{I(2), I(100), I(3)}, 1},
                               {{I(3), I(200), I(11)}, 2},
                               {{I(4), I(200), I(12)}, -2}}));
}

// The 3-way star join t.a = u.c = v.e as Materialize plans it (one path per
// input, every path producing (a, b, c, d, e, f)).
std::string DeltaJoinPlan() { return test::FixtureText("join_delta.plan"); }

GlobalChanges DeltaRound0() {
  return {
      {"materialize.public.t",
       M({{{I(1), S("x")}, 1}, {{I(2), S("y")}, 1}, {{Null(), S("z")}, 1}})},
      {"materialize.public.u", M({{{I(1), I(10)}, 1},
                                  {{I(1), I(11)}, 1},
                                  {{I(2), I(20)}, 1},
                                  {{Null(), I(99)}, 1}})},
      {"materialize.public.v",
       M({{{I(1), Datum::Bool(true)}, 1}, {{I(2), Datum::Bool(false)}, 3}})}};
}

TEST(SnapshotTest, DeltaJoinPathsAgree) {
  Runner run(DeltaJoinPlan(), {{"materialize.public.t", 2},
                               {"materialize.public.u", 2},
                               {"materialize.public.v", 2}});
  ASSERT_TRUE(run.ok());
  // The snapshot Dataflow runs every path and checks that they agree.
  run.Step(DeltaRound0());
  const Datum t = Datum::Bool(true);
  const Datum f = Datum::Bool(false);
  EXPECT_MS(run.contents(), M({{{I(1), S("x"), I(1), I(10), I(1), t}, 1},
                               {{I(1), S("x"), I(1), I(11), I(1), t}, 1},
                               {{I(2), S("y"), I(2), I(20), I(2), f}, 3}}));
  // Retract t's (1, "x"); u gets (2, 21) x -1.
  Multiset diff =
      run.Step({{"materialize.public.t", M({{{I(1), S("x")}, -1}})},
                {"materialize.public.u", M({{{I(2), I(21)}, -1}})}});
  EXPECT_MS(diff, M({{{I(1), S("x"), I(1), I(10), I(1), t}, -1},
                     {{I(1), S("x"), I(1), I(11), I(1), t}, -1},
                     {{I(2), S("y"), I(2), I(21), I(2), f}, -3}}));
}

TEST(SnapshotTest, DeltaPathCheckCatchesInconsistentPaths) {
  Document doc = ParseOrDie(DeltaJoinPlan());
  ASSERT_FALSE(doc.objects.empty());
  Node& join = *doc.objects[0].plan;
  // Path 1 now outputs its columns in another order than path 0.
  join.As<JoinOp>().paths[1].stages[1].closure->mfp.project =
      std::vector<int>{0, 3, 0, 1, 0, 2};
  GlobalChanges data = DeltaRound0();
  SnapshotEnv env;
  for (const auto& [name, contents] : data) env.globals[name] = &contents;
  // Path 0 alone gives the right answer ...
  absl::StatusOr<Multiset> one = EvaluateSnapshot(join, env);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->size(), 3u);
  // ... and checking every path finds the difference.
  env.check_delta_paths = true;
  absl::StatusOr<Multiset> all = EvaluateSnapshot(join, env);
  EXPECT_EQ(all.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(all.status().message().find("delta join paths disagree"),
            std::string::npos)
      << all.status();
}

// One-shot plans print only plan_path[0] of a delta join.
TEST(SnapshotTest, DeltaJoinWithOnlyItsFirstPath) {
  Document doc = ParseOrDie(DeltaJoinPlan());
  ASSERT_FALSE(doc.objects.empty());
  Node& join = *doc.objects[0].plan;
  join.As<JoinOp>().paths.resize(1);
  DataflowOptions options;
  for (const char* name : {"materialize.public.t", "materialize.public.u",
                           "materialize.public.v"}) {
    options.globals[name] = 2;
  }
  absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
      MakeSnapshotDataflow(join, options);
  ASSERT_TRUE(dataflow.ok()) << dataflow.status();
  absl::StatusOr<Multiset> round0 = (*dataflow)->Step(0, DeltaRound0());
  ASSERT_TRUE(round0.ok()) << round0.status();
  EXPECT_EQ(round0->size(), 3u) << Show(*round0);
}

}  // namespace
}  // namespace lir::eval
