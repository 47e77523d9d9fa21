// Tests of the incremental engine's storage: the block cache of huge
// allocations, and Trace on arrangements large enough to span huge-page
// mappings and several batches, with keys cancelled by compaction.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/datum.h"
#include "src/eval/big_alloc.h"
#include "src/eval/trace.h"

namespace lir::eval {
namespace {

TEST(BigAllocator, AFreedHugeBlockIsReusedAtItsSize) {
  namespace internal = big_alloc_internal;
  if (!internal::HugeMappingAvailable()) {
    GTEST_SKIP() << "no huge-page mappings on this platform";
  }
  // An odd size no trace uses (3 MiB + 8 bytes, mapped as 4 MiB), so blocks
  // other tests freed do not answer.
  constexpr size_t kCount = (size_t{3} << 20) / 8 + 1;
  BigAllocator<int64_t, /*kReuse=*/true> alloc;
  int64_t* block = alloc.allocate(kCount);
  block[kCount - 1] = 42;
  const internal::BlockCacheStats before = internal::GetBlockCacheStats();
  alloc.deallocate(block, kCount);
  int64_t* again = alloc.allocate(kCount);
  const internal::BlockCacheStats after = internal::GetBlockCacheStats();
  EXPECT_EQ(after.reused, before.reused + 1) << "the freed block was unmapped";
  EXPECT_EQ(after.mapped, before.mapped) << "a new block was mapped";
  EXPECT_EQ(again, block);
  alloc.deallocate(again, kCount);
  EXPECT_LE(internal::GetBlockCacheStats().cached_bytes,
            internal::kCachedBytesLimit);
  // Without reuse (a growing hash table's), a freed block is unmapped.
  BigAllocator<int64_t> plain;
  int64_t* once = plain.allocate(kCount);
  const size_t cached = internal::GetBlockCacheStats().cached_bytes;
  plain.deallocate(once, kCount);
  EXPECT_EQ(internal::GetBlockCacheStats().cached_bytes, cached)
      << "a block freed without reuse was cached";
}

DataRow Key(int64_t k) { return DataRow{Datum::Int(k)}; }

// Inserts keys 0 .. keys - 1 (each its own value) at round 0 and ends the
// round with eager compaction.
void InsertKeysAtRoundZero(Trace& trace, int64_t keys) {
  for (int64_t k = 0; k < keys; ++k) {
    ASSERT_TRUE(trace.Insert(Key(k), Key(k), 0, 1).ok());
  }
  ASSERT_TRUE(trace.EndRound(0, Compaction::kEager).ok());
}

TEST(TraceAtScale, CountsSurviveFreedAndReusedSlots) {
  constexpr int64_t kKeys = 100'000;
  Trace trace(Trace::Info{.operator_name = "test"});
  // Round 0: every key once.
  InsertKeysAtRoundZero(trace, kKeys);
  // Round 1: the even keys cancel (their slots are freed), and new keys
  // arrive (reusing those slots).
  for (int64_t k = 0; k < kKeys; k += 2) {
    ASSERT_TRUE(trace.Insert(Key(k), Key(k), 1, -1).ok());
    ASSERT_TRUE(trace.Insert(Key(kKeys + k), Key(kKeys + k), 1, 2).ok());
  }
  ASSERT_TRUE(trace.EndRound(1, Compaction::kEager).ok());
  EXPECT_EQ(trace.records(), static_cast<uint64_t>(kKeys));
  for (int64_t k = 0; k < kKeys; k += 997) {
    absl::StatusOr<int64_t> old_count = trace.Count(Key(k), 2);
    absl::StatusOr<int64_t> new_count = trace.Count(Key(kKeys + k), 2);
    ASSERT_TRUE(old_count.ok() && new_count.ok());
    EXPECT_EQ(*old_count, k % 2 == 0 ? 0 : 1) << "key " << k;
    EXPECT_EQ(*new_count, k % 2 == 0 ? 2 : 0) << "key " << kKeys + k;
  }
  absl::StatusOr<Multiset> all = trace.ReadAll(2);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), static_cast<size_t>(kKeys));
  EXPECT_EQ(all->front(), RowDiff(Key(1), 1));
  EXPECT_EQ(all->back(), RowDiff(Key(2 * kKeys - 2), 2));
  // The layout model: a one-integer key, no value columns beyond it, one
  // batch after eager compaction.
  ArrangementStats stats = trace.Stats("object");
  EXPECT_EQ(stats.records, static_cast<uint64_t>(kKeys));
  EXPECT_EQ(stats.batches, 1u);
}

DataRow FloatKey(double d) { return DataRow{Datum::Float(d)}; }

TEST(TraceTombstones, ARetractedKeyReadsAsAbsentAndComesBackAsInserted) {
  Trace trace(Trace::Info{.operator_name = "test"});
  ASSERT_TRUE(trace.Insert(FloatKey(0.0), FloatKey(0.0), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(7), Key(7), 0, 1).ok());
  ASSERT_TRUE(trace.EndRound(0, Compaction::kEager).ok());
  // Round 1 retracts both keys: they hold nothing, and the trace is empty.
  ASSERT_TRUE(trace.Insert(FloatKey(0.0), FloatKey(0.0), 1, -1).ok());
  ASSERT_TRUE(trace.Insert(Key(7), Key(7), 1, -1).ok());
  ASSERT_TRUE(trace.EndRound(1, Compaction::kEager).ok());
  EXPECT_TRUE(trace.empty()) << "a retracted key still counted as held";
  EXPECT_EQ(trace.records(), 0u);
  EXPECT_EQ(*trace.Count(Key(7), 2), 0);
  EXPECT_TRUE(trace.ReadAll(2)->empty());
  EXPECT_EQ(trace.Stats("o").bytes, 0u);
  // Round 2: -0.0 comes back. The round's key is the one inserted now, as
  // for a key never seen (the index treats -0.0 and 0.0 as one key).
  ASSERT_TRUE(trace.Insert(FloatKey(-0.0), FloatKey(-0.0), 2, 1).ok());
  EXPECT_TRUE(trace.AllTouched()) << "the untouched tombstone counted";
  std::vector<KeyRef> touched = trace.TouchedKeyRefs();
  ASSERT_EQ(touched.size(), 1u);
  EXPECT_TRUE(IdenticalRows(*touched[0].row, FloatKey(-0.0)))
      << "the revived key kept the retracted representation";
  ASSERT_TRUE(trace.EndRound(2, Compaction::kEager).ok());
  absl::StatusOr<Multiset> all = trace.ReadAll(3);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_TRUE(IdenticalRows(all->front().first, FloatKey(-0.0)));
  EXPECT_FALSE(trace.empty());
}

TEST(TraceTombstones, ManyRetractionsAreSweptAndTheirSlotsReused) {
  constexpr int64_t kKeys = 10'000;
  Trace trace(Trace::Info{.operator_name = "test"});
  InsertKeysAtRoundZero(trace, kKeys);
  // Retract all but one key: more tombstones than live keys, so the round
  // ends with a sweep, after which the trace is a one-key trace again.
  for (int64_t k = 1; k < kKeys; ++k) {
    ASSERT_TRUE(trace.Insert(Key(k), Key(k), 1, -1).ok());
  }
  ASSERT_TRUE(trace.EndRound(1, Compaction::kEager).ok());
  ASSERT_TRUE(trace.Insert(Key(0), Key(0), 2, 1).ok());
  EXPECT_TRUE(trace.AllTouched())
      << "swept keys (or uncounted tombstones) are still in the index";
  ASSERT_TRUE(trace.EndRound(2, Compaction::kEager).ok());
  // New keys and old ones come back into the freed slots.
  for (int64_t k = 0; k < kKeys; k += 3) {
    ASSERT_TRUE(
        trace.Insert(Key(2 * kKeys + k), Key(2 * kKeys + k), 3, 1).ok());
    ASSERT_TRUE(trace.Insert(Key(k + 1), Key(k + 1), 3, 5).ok());
  }
  ASSERT_TRUE(trace.EndRound(3, Compaction::kEager).ok());
  EXPECT_EQ(*trace.Count(Key(0), 4), 2);
  EXPECT_EQ(*trace.Count(Key(1), 4), 5);
  EXPECT_EQ(*trace.Count(Key(2), 4), 0);
  EXPECT_EQ(*trace.Count(Key(2 * kKeys + 3), 4), 1);
  absl::StatusOr<Multiset> all = trace.ReadAll(4);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 1 + 2 * static_cast<size_t>((kKeys + 2) / 3));
}

// Rows of every kind the prefix summarizes, with the cases its payloads
// must get right: signed integers at the extremes, -0.0 and 0.0, NaN,
// strings that share or differ past their first 8 bytes and bytes above
// 0x7f, multi-column rows that a one-column row is a prefix of.
std::vector<DataRow> PrefixCases() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Datum> firsts = {Datum::Null(),
                               Datum::Bool(false),
                               Datum::Bool(true),
                               Datum::Int(INT64_MIN),
                               Datum::Int(-1),
                               Datum::Int(0),
                               Datum::Int(1),
                               Datum::Int(INT64_MAX),
                               Datum::Float(-inf),
                               Datum::Float(-2.5),
                               Datum::Float(-0.0),
                               Datum::Float(0.0),
                               Datum::Float(1e-300),
                               Datum::Float(inf),
                               Datum::Float(nan),
                               Datum::String(""),
                               Datum::String("abc"),
                               Datum::String("abcdefgh"),
                               Datum::String("abcdefghA"),
                               Datum::String("abcdefghB"),
                               Datum::String("\xff\x01"),
                               Datum::String("z"),
                               Datum::Time(Timestamp{-5}),
                               Datum::Time(Timestamp{7}),
                               Datum::Span(Interval{}),
                               Datum::Bytea("\x01"),
                               Datum::Bytea("\x02"),
                               Datum::Day(Date{-3}),
                               Datum::Day(Date{4}),
                               Datum::List({Datum::Int(1)}),
                               Datum::Array({Datum::Int(1)})};
  std::vector<DataRow> rows = {DataRow{}};
  for (const Datum& d : firsts) {
    rows.push_back(DataRow{d});
    rows.push_back(DataRow{d, Datum::Int(0)});
    rows.push_back(DataRow{d, Datum::Null()});
  }
  return rows;
}

TEST(KeyPrefix, OrdersKeysAsTheirRowsOrder) {
  const std::vector<DataRow> rows = PrefixCases();
  for (const DataRow& a : rows) {
    for (const DataRow& b : rows) {
      EXPECT_EQ(CompareKeys(KeyPrefix::Of(a), a, KeyPrefix::Of(b), b), a <=> b)
          << FormatRow(a) << " vs " << FormatRow(b);
    }
  }
}

TEST(KeyPrefix, ATraceFindsEveryKindOfKeyAfterMerges) {
  // Each case in its own round, in an order unlike the rows' order, so the
  // trace sorts, merges and looks them up by prefix.
  std::vector<DataRow> rows = PrefixCases();
  std::reverse(rows.begin(), rows.end());
  Trace trace(Trace::Info{.operator_name = "test"});
  for (size_t i = 0; i < rows.size(); ++i) {
    ASSERT_TRUE(trace.Insert(rows[i], rows[i], i, 1).ok());
    ASSERT_TRUE(trace
                    .Insert(rows[(i * 7) % rows.size()],
                            rows[(i * 7) % rows.size()], i, 1)
                    .ok());
    ASSERT_TRUE(trace.EndRound(i, Compaction::kEager).ok());
  }
  const uint64_t end = rows.size();
  for (const DataRow& row : rows) {
    // Rows equal under Datum order (-0.0 and 0.0) share one key.
    int64_t expected = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      expected += (rows[i] == row) + (rows[(i * 7) % rows.size()] == row);
    }
    EXPECT_EQ(*trace.Count(row, end), expected) << FormatRow(row);
  }
}

TEST(TraceReads, AKeyRefOutlivingItsRoundBatchIsLookedUpAgain) {
  Trace trace(Trace::Info{.operator_name = "test"});
  ASSERT_TRUE(trace.Insert(Key(5), Key(5), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(9), Key(9), 0, 2).ok());
  const std::vector<KeyRef> touched = trace.TouchedKeyRefs();
  ASSERT_EQ(touched.size(), 2u);
  ASSERT_EQ(touched[0].position, 0u);
  // Refs to 5 and 9 as the trace handed them out (positions 0 and 1), on
  // rows of our own: the trace's rows move when the batch changes.
  const DataRow five = Key(5), nine = Key(9);
  const KeyRef old_five(five, KeyPrefix::Of(five), &trace, 0,
                        touched[0].generation);
  const KeyRef old_nine(nine, KeyPrefix::Of(nine), &trace, 1,
                        touched[1].generation);
  EXPECT_EQ(*trace.Count(old_five, 1), 1);
  // Smaller keys inserted now move 5 and 9 two positions on once they are
  // sorted into the round's batch: the old positions name 1 and 3.
  ASSERT_TRUE(trace.Insert(Key(1), Key(1), 0, 7).ok());
  ASSERT_TRUE(trace.Insert(Key(3), Key(3), 0, 3).ok());
  ASSERT_EQ(trace.touched_count(), 4u);
  EXPECT_EQ(*trace.Count(old_five, 1), 1) << "a stale position was used";
  EXPECT_EQ(*trace.Count(old_nine, 1), 2) << "a stale position was used";
  const std::vector<KeyRef> again = trace.TouchedKeyRefs();
  ASSERT_EQ(again.size(), 4u);
  EXPECT_EQ(*trace.Count(again[0], 1), 7);
  EXPECT_EQ(*trace.Count(again[3], 1), 2);
}

TEST(TraceReads, AnOverflowInARoundIsReportedByTheNextRead) {
  Trace trace(Trace::Info{.operator_name = "test"});
  ASSERT_TRUE(trace.Insert(Key(1), Key(1), 0, INT64_MAX).ok());
  ASSERT_TRUE(trace.Insert(Key(1), Key(1), 0, 1).ok());
  absl::StatusOr<int64_t> count = trace.Count(Key(1), 1);
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(trace.EndRound(0, Compaction::kEager).ok());
}

TEST(TraceLayoutModel, KeysValuesAndTheSingletonOptimization) {
  // Key #0, value column #1 kept (a thinning): values "ab" and "cd" are
  // 1 tag + 1 length + 2 bytes each.
  Trace::Info info{.operator_name = "test"};
  info.value_columns = std::vector<int>{1};
  Trace trace(std::move(info));
  auto row = [](int64_t k, const char* v) {
    return DataRow{Datum::Int(k), Datum::String(v)};
  };
  ASSERT_TRUE(trace.Insert(Key(1), row(1, "ab"), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(1), row(1, "cd"), 0, 1).ok());
  ASSERT_TRUE(trace.Insert(Key(2), row(2, "ab"), 0, 2).ok());
  ASSERT_TRUE(trace.EndRound(0, Compaction::kEager).ok());
  // Keys: 2 * (9 + 4). Values: 3 * (4 + 4). Updates: (0, +1) stored, then
  // (0, +1) again repeats it and is not stored, then (0, +2) is: 2 * 16.
  EXPECT_EQ(trace.Stats("o").bytes, 26u + 24u + 32u);
  // Round 1 retracts (1, "ab"); compaction moves (1, "cd") to round 1.
  ASSERT_TRUE(trace.Insert(Key(1), row(1, "ab"), 1, -1).ok());
  ASSERT_TRUE(trace.EndRound(1, Compaction::kEager).ok());
  // Key 1: 13, "cd": 8, (1, +1): 16; key 2: 13, "ab": 8, (0, +2): 16.
  EXPECT_EQ(trace.Stats("o").bytes, 74u);
  EXPECT_EQ(trace.Stats("o").records, 2u);
}

}  // namespace
}  // namespace lir::eval
