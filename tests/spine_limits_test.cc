// The bounds on a spine workload's run (include/lir/eval/spine_workload.h):
// the turn limit (`max_turns`, `lir-opt spine --max_spine_turns`) checked
// before running for the activations a workload certainly takes and counted
// while it runs; a `close` that cannot settle within it refused up front
// (MinDrainTurns, which must be a true lower bound); and a trace callback's
// error stopping the run (how `--max_trace_bytes` is enforced).
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/eval/spine_workload.h"

namespace lir::eval::spine {
namespace {

// SPINE.md section 7's first example: the snapshot's activation, the
// batch's, and 9 idle turns: 11 turns.
Workload WorkedExample() {
  Workload w;
  w.policy = {Policy::Kind::kIdleMerge, 1000};
  w.snapshot = 3000;
  w.batch_size = 1000;
  w.idle_turns = 100;
  return w;
}

TEST(SpineLimitsTest, TurnsCountEveryActivationAndIdleTurn) {
  absl::StatusOr<WorkloadResult> r = RunWorkload(WorkedExample());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->turns, 11u);
  EXPECT_EQ(r->counters.idle_turns_used, 9u);
}

TEST(SpineLimitsTest, RunStopsAtTheTurnLimitNamingItAndTheTurn) {
  Workload w = WorkedExample();
  w.max_turns = 11;
  ASSERT_TRUE(RunWorkload(w).ok()) << "exactly the limit is accepted";
  w.max_turns = 10;
  std::vector<std::string> traced;
  absl::StatusOr<WorkloadResult> r =
      RunWorkload(w, [&traced](std::string_view label, const Spine&) {
        traced.emplace_back(label);
        return absl::OkStatus();
      });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(
      absl::StrContains(r.status().message(), "stopped before batch 1 idle 9"))
      << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "--max_spine_turns=N"))
      << r.status();
  // Ten turns were taken and traced, the eleventh was not.
  ASSERT_EQ(traced.size(), 10u);
  EXPECT_EQ(traced.back(), "batch 1 idle 8");
}

TEST(SpineLimitsTest, TheSnapshotSettleAndTheDrainCount) {
  // The snapshot alone is quiet, so its settle takes no idle turn; the
  // drain after close does.
  Workload w;
  w.policy = {Policy::Kind::kIdleMerge, 1000};
  w.snapshot = 3000;
  w.batch_size = 1000;
  w.close = true;
  absl::StatusOr<WorkloadResult> full = RunWorkload(w);
  ASSERT_TRUE(full.ok()) << full.status();
  ASSERT_GT(full->drain_turns, 0u);
  EXPECT_EQ(full->turns, 3 + full->drain_turns);
  w.max_turns = full->turns - 1;
  absl::StatusOr<WorkloadResult> cut = RunWorkload(w);
  ASSERT_FALSE(cut.ok());
  EXPECT_TRUE(
      absl::StrContains(cut.status().message(), "stopped before close idle"))
      << cut.status();
}

TEST(SpineLimitsTest, TooManyActivationsAreRefusedBeforeRunning) {
  Workload w;
  w.policy = {Policy::Kind::kNone, 0};
  w.snapshot = 5;
  w.batches = 100;
  w.empty_batches = 1;
  w.close = true;
  EXPECT_EQ(CertainActivations(w), 202u);
  w.max_turns = 202;
  EXPECT_TRUE(CheckWorkload(w).ok());
  w.max_turns = 201;
  const absl::Status s = CheckWorkload(w);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "at least 202 activations")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "--max_spine_turns=N")) << s;
  bool traced = false;
  absl::StatusOr<WorkloadResult> r =
      RunWorkload(w, [&traced](std::string_view, const Spine&) {
        traced = true;
        return absl::OkStatus();
      });
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(traced) << "refused before the first turn";
}

TEST(SpineLimitsTest, ZeroTurnsIsAUsageError) {
  Workload w;
  w.max_turns = 0;
  const absl::Status s = CheckWorkload(w);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "--max_spine_turns")) << s;
}

TEST(SpineLimitsTest, ACloseThatCannotSettleIsRefusedUpFront) {
  // idle_merge:1 fuels a merge 8 records a turn; merging 2^40 updates into
  // one batch takes about 2^37 turns, far past the default limit.
  Workload w;
  w.policy = {Policy::Kind::kIdleMerge, 1};
  w.snapshot = uint64_t{1} << 40;
  w.batch_size = uint64_t{1} << 20;
  w.close = true;
  EXPECT_GT(MinDrainTurns(w), uint64_t{1} << 36);
  const absl::Status s = CheckWorkload(w);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "--close cannot settle")) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "idle_merge:1")) << s;
  // Without --close nothing has to settle.
  w.close = false;
  EXPECT_TRUE(CheckWorkload(w).ok());
  // Nor with an effort whose virtual batches complete every merge below
  // the data's level unfueled.
  w.close = true;
  w.policy.parameter = uint64_t{1} << 40;
  EXPECT_EQ(MinDrainTurns(w), 0u);
  // No policy asks for nothing, so the drain takes no turn.
  w.policy = {Policy::Kind::kNone, 0};
  EXPECT_EQ(MinDrainTurns(w), 0u);
}

TEST(SpineLimitsTest, ACloseRefusalDependsOnTheLimit) {
  Workload w;
  w.policy = {Policy::Kind::kIdleMerge, 1};
  w.snapshot = 1 << 20;
  w.batch_size = 1000;
  w.close = true;
  const uint64_t drain = MinDrainTurns(w);
  ASSERT_GT(drain, 0u);
  w.max_turns = CertainActivations(w) + drain;
  EXPECT_TRUE(CheckWorkload(w).ok());
  w.max_turns -= 1;
  EXPECT_EQ(CheckWorkload(w).code(), absl::StatusCode::kInvalidArgument);
}

// The refusal must never reject a close that would settle: on every
// idle_merge workload of a grid (small efforts, so the bound is often
// positive), the drain takes at least MinDrainTurns idle turns.
TEST(SpineLimitsTest, MinDrainTurnsIsALowerBound) {
  int positive = 0;
  for (const uint64_t effort : {1, 2, 3, 8, 100}) {
    for (const uint64_t snapshot : {0, 1, 700, 5000}) {
      for (const uint64_t batches : {1, 2, 4}) {
        for (const uint64_t batch_size : {1, 3, 64, 1000}) {
          for (const uint64_t idle : {0, 1, 7}) {
            for (const uint64_t empty : {0, 2}) {
              for (const Exertion exertion :
                   {Exertion::kStock, Exertion::kFunded}) {
                Workload w;
                w.policy = {Policy::Kind::kIdleMerge, effort};
                w.exertion = exertion;
                w.snapshot = snapshot;
                w.batches = batches;
                w.batch_size = batch_size;
                w.idle_turns = idle;
                w.empty_batches = empty;
                w.close = true;
                w.max_turns = uint64_t{1} << 40;
                const uint64_t bound = MinDrainTurns(w);
                if (bound > 0) ++positive;
                absl::StatusOr<WorkloadResult> r = RunWorkload(w);
                ASSERT_TRUE(r.ok()) << r.status();
                ASSERT_GE(r->drain_turns, bound)
                    << "effort " << effort << " snapshot " << snapshot
                    << " batches " << batches << " batch_size " << batch_size
                    << " idle " << idle << " empty " << empty;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(positive, 50) << "the bound must not be vacuous";
}

TEST(SpineLimitsTest, ATraceErrorStopsTheRunAndIsReturned) {
  int calls = 0;
  absl::StatusOr<WorkloadResult> r =
      RunWorkload(WorkedExample(), [&calls](std::string_view, const Spine&) {
        return ++calls == 3 ? absl::ResourceExhaustedError("enough")
                            : absl::OkStatus();
      });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "enough");
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace lir::eval::spine
