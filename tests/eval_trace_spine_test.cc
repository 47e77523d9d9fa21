// Tests of the spine a trace keeps beside itself (Trace::EnableSpine,
// src/eval/trace_spine.cc): each round's updates are exactly one batch, the
// spine then behaves as ../shared/reference/SPINE.md predicts for those
// batches, the compaction frontier follows the trace's compaction, and the
// spine never changes what the trace holds.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/eval/spine.h"
#include "src/eval/trace.h"

namespace lir::eval {
namespace {

DataRow Key(int64_t k) { return DataRow{Datum::Int(k)}; }

// Inserts keys [first, first + count) once each at `round` and ends it.
void Round(Trace& trace, uint64_t round, int64_t first, int64_t count,
           Compaction compaction, int64_t diff = 1) {
  for (int64_t k = first; k < first + count; ++k) {
    ASSERT_TRUE(trace.Insert(Key(k), Key(k), round, diff).ok());
  }
  ASSERT_TRUE(trace.EndRound(round, compaction).ok());
}

SpineOptions NoPolicy() {
  SpineOptions options;
  options.policy = spine::Policy{spine::Policy::Kind::kNone, 0};
  options.verify = true;
  return options;
}

TEST(TraceSpine, EachRoundIsOneBatchAsSpineMdPredicts) {
  // SPINE.md section 7, second example: with no policy, inserts of 1000.
  for (const Compaction compaction : {Compaction::kEager, Compaction::kNone}) {
    Trace trace(Trace::Info{.operator_name = "test"});
    trace.EnableSpine(NoPolicy());
    ASSERT_NE(trace.spine(), nullptr);
    Round(trace, 0, 0, 1000, compaction);
    EXPECT_EQ(trace.spine()->Describe(), "10:S(1000)");
    Round(trace, 1, 1000, 1000, compaction);
    EXPECT_EQ(trace.spine()->Describe(), "10:P(1000+1000,done=0)");
    EXPECT_EQ(trace.spine()->NonEmptyBatches(), 2u);
    EXPECT_EQ(trace.spine()->counters().merge_work, 0u);
    // The third batch brings 8192 fuel and finishes the merge.
    Round(trace, 2, 2000, 1000, compaction);
    EXPECT_EQ(trace.spine()->Describe(), "10:S(1000) 11:S(2000)");
    EXPECT_EQ(trace.spine()->counters().merge_work, 2000u);

    const ArrangementStats stats = trace.Stats("object");
    ASSERT_TRUE(stats.spine.has_value());
    EXPECT_EQ(stats.spine->batches, 2u);
    EXPECT_EQ(stats.spine->records, 3000u);
    EXPECT_EQ(stats.spine->merge_work, 2000u);
    EXPECT_EQ(stats.spine->idle_turns, 0u);
    // The trace is what it is without a spine.
    EXPECT_EQ(stats.records, 3000u);
    EXPECT_EQ(stats.batches, compaction == Compaction::kEager ? 1u : 3u);

    // A round with no update for the trace is an empty batch: introduced at
    // level 0 once, fused into it after that; no non-empty batch is added.
    Round(trace, 3, 0, 0, compaction);
    EXPECT_EQ(trace.spine()->Describe(), "0:S(0) 10:S(1000) 11:S(2000)");
    Round(trace, 4, 0, 0, compaction);
    EXPECT_EQ(trace.spine()->Describe(), "0:S(0) 10:S(1000) 11:S(2000)");
    EXPECT_EQ(trace.Stats("object").spine->batches, 2u);

    trace.CloseSpine();
    const ArrangementStats closed = trace.Stats("object");
    EXPECT_TRUE(closed.spine->verified);
    EXPECT_FALSE(closed.spine->mismatch.has_value()) << *closed.spine->mismatch;
  }
}

TEST(TraceSpine, ABatchHoldsTheRoundsUpdatesConsolidated) {
  Trace trace(Trace::Info{.operator_name = "test"});
  trace.EnableSpine(NoPolicy());
  // Two deliveries of one update in a round merge; a cancelled one is gone.
  ASSERT_TRUE(trace.Insert(Key(1), Key(1), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(1), Key(1), 0, 2).ok());
  ASSERT_TRUE(trace.Insert(Key(2), Key(2), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(2), Key(2), 0, -1).ok());
  ASSERT_TRUE(
      trace.Insert(Key(3), DataRow{Datum::Int(3), Datum::Int(4)}, 0, 5).ok());
  ASSERT_TRUE(trace.EndRound(0, Compaction::kNone).ok());
  const std::vector<spine::Record> held = trace.spine()->Contents();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_EQ(trace.spine()->Describe(), "1:S(2)");
  const auto [high, low] = UpdateFingerprint(Key(1), Key(1));
  bool found = false;
  for (const spine::Record& r : held) {
    if (r.fp_hi == high && r.fp_lo == low) {
      found = true;
      EXPECT_EQ(r.time, 0u);
      EXPECT_EQ(r.diff, 3);
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(trace.SpineRecords(0), held);
  // -0.0 and 0.0 are one value to the trace, so one update to the spine.
  EXPECT_EQ(UpdateFingerprint(DataRow{Datum::Float(-0.0)}, Key(0)),
            UpdateFingerprint(DataRow{Datum::Float(0.0)}, Key(0)));
  EXPECT_NE(UpdateFingerprint(Key(1), Key(2)),
            UpdateFingerprint(Key(2), Key(1)));
}

TEST(TraceSpine, EagerCompactionLetsMergesConsolidateAcrossRounds) {
  // +x at round 0, -x at round 1: merged with the frontier at round 1 the
  // two cancel (kEager, the trace's logical frontier); with kNone the
  // frontier stays at 0 and the merge keeps both times.
  for (const Compaction compaction : {Compaction::kEager, Compaction::kNone}) {
    Trace trace(Trace::Info{.operator_name = "test"});
    trace.EnableSpine(NoPolicy());
    Round(trace, 0, 7, 1, compaction);
    Round(trace, 1, 7, 1, compaction, -1);
    EXPECT_EQ(trace.spine()->Describe(), "0:P(1+1,done=0)");
    trace.CloseSpine();  // the close's fuel finishes the merge
    const bool eager = compaction == Compaction::kEager;
    EXPECT_EQ(trace.spine()->counters().merge_work, eager ? 0u : 2u);
    EXPECT_EQ(trace.spine()->RecordsHeld(), eager ? 0u : 2u);
    EXPECT_EQ(trace.spine()->Contents().size(), eager ? 0u : 2u);
    const ArrangementStats stats = trace.Stats("object");
    EXPECT_TRUE(stats.spine->verified);
    EXPECT_FALSE(stats.spine->mismatch.has_value()) << *stats.spine->mismatch;
  }
}

TEST(TraceSpine, IdleTurnsAreTakenOnlyWhileRequestedAndCloseDrains) {
  // SPINE.md section 7, first example, as two rounds of a trace: 3000 then
  // 1000 updates under idle_merge:1000, stock, with at most 100 idle turns:
  // quiet after 9, merge work 4000.
  SpineOptions options;
  options.policy = spine::Policy{spine::Policy::Kind::kIdleMerge, 1000};
  options.idle_turns = 100;
  options.verify = true;
  Trace trace(Trace::Info{.operator_name = "test"});
  trace.EnableSpine(options);
  Round(trace, 0, 0, 3000, Compaction::kNone);
  EXPECT_EQ(trace.spine()->Describe(), "12:S(3000)");
  EXPECT_EQ(trace.spine()->counters().idle_turns_used, 0u);
  Round(trace, 1, 3000, 1000, Compaction::kNone);
  EXPECT_EQ(trace.spine()->Describe(), "12:S(4000)");
  EXPECT_EQ(trace.spine()->counters().idle_turns_used, 9u);
  EXPECT_EQ(trace.spine()->counters().merge_work, 4000u);
  EXPECT_EQ(trace.spine()->counters().virtual_batches, 3u);
  trace.CloseSpine();
  EXPECT_TRUE(trace.spine()->closed());
  const ArrangementStats stats = trace.Stats("object");
  EXPECT_EQ(stats.spine->batches, 1u);
  EXPECT_EQ(stats.spine->records, 4000u);
  EXPECT_FALSE(stats.spine->mismatch.has_value()) << *stats.spine->mismatch;
  // Closing twice changes nothing.
  trace.CloseSpine();
  EXPECT_EQ(trace.Stats("object").spine->merge_work, stats.spine->merge_work);
}

TEST(TraceSpine, ATraceWithoutASpineReportsNone) {
  Trace trace(Trace::Info{.operator_name = "test"});
  Round(trace, 0, 0, 10, Compaction::kEager);
  trace.CloseSpine();  // no-op
  EXPECT_EQ(trace.spine(), nullptr);
  EXPECT_FALSE(trace.Stats("object").spine.has_value());
}

}  // namespace
}  // namespace lir::eval
