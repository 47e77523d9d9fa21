// The snapshot engine's API (include/lir/eval/snapshot.h): build errors and
// their codes, what Step accepts and refuses, and a failed dataflow. What
// every node kind computes over rounds with retractions and negative counts
// is a golden (testdata/eval/snapshot_nodes.txt, both engines); joins are in
// eval_snapshot_join_test.cc; Let, LetRec and 100,000-deep plans in
// eval_snapshot_letrec_test.cc.
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

// The round's error itself is a golden (testdata/eval/snapshot_nodes.txt);
// here, what the API does after it.
TEST(SnapshotTest, AFailedDataflowIsNotSteppedAgain) {
  Runner run(test::FixtureText("mfp_divide.plan"),
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  absl::Status error =
      run.StepError({{"materialize.public.t", M({{{I(1), I(0)}, 1}})}});
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange) << error;
  EXPECT_EQ(run.StepError({}).code(), absl::StatusCode::kFailedPrecondition);
}

std::string DistinctPlan() { return test::FixtureText("distinct_t.plan"); }

// ------------------------------------------------------------ Build errors

absl::Status BuildError(const std::string& text,
                        absl::flat_hash_map<std::string, int> globals) {
  Document doc = ParseOrDie(text);
  if (doc.objects.empty()) return absl::InternalError("no plan");
  DataflowOptions options;
  options.globals = std::move(globals);
  return MakeSnapshotDataflow(*doc.objects[0].plan, options).status();
}

TEST(SnapshotTest, UnsupportedFunctionFailsAtBuild) {
  absl::Status status =
      BuildError(test::FixtureText("mfp_unsupported_function.plan"),
                 {{"materialize.public.t", 1}});
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(status.message().find("unsupported function frobnicate"),
            std::string::npos)
      << status;
}

TEST(SnapshotTest, MzNowOutsideATemporalFilterFailsAtBuild) {
  // A temporal bound is fine on a Get (temporal.h); mz_now() inside a
  // Reduce's key plan, which Materialize evaluates without time, is not.
  absl::Status status = BuildError(test::FixtureText("reduce_mz_now_key.plan"),
                                   {{"materialize.public.events", 2}});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(
      status.message().find("LirId(2) Reduce::Distinct: mz_now() in a filter"),
      std::string::npos)
      << status;
}

TEST(SnapshotTest, MissingGlobalAndUnboundLocalFailAtBuild) {
  absl::Status missing = BuildError(DistinctPlan(), {});
  EXPECT_EQ(missing.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(
      missing.message().find("no data for collection materialize.public.t"),
      std::string::npos)
      << missing;
  absl::Status unbound =
      BuildError(test::FixtureText("get_unbound_l4.plan"), {});
  EXPECT_NE(unbound.message().find("l4 is not bound here"), std::string::npos)
      << unbound;
}

TEST(SnapshotTest, UnconsolidatedChangesAreAccepted) {
  Runner run(test::FixtureText("get_t.plan"), {{"materialize.public.t", 1}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             Multiset{{{I(2)}, 1}, {{I(1)}, 1}, {{I(2)}, 1}, {{I(1)}, -1}}}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}}));
}

TEST(SnapshotTest, RoundsMustIncrease) {
  // Rounds may be skipped (after the data's last round a run steps only
  // the rounds temporal filters have updates due), never repeated.
  Runner run(DistinctPlan(), {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(run.dataflow().Step(2, {}).ok());
  EXPECT_EQ(run.dataflow().Step(2, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(run.dataflow().Step(1, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SnapshotTest, ChangesOfTheWrongWidthAreRejected) {
  Runner run(DistinctPlan(), {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  absl::Status error =
      run.StepError({{"materialize.public.t", M({{{I(1)}, 1}})}});
  EXPECT_EQ(error.code(), absl::StatusCode::kInvalidArgument) << error;
}

}  // namespace
}  // namespace lir::eval
