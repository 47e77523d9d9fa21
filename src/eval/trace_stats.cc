// What a trace reports: the walk over its consolidated contents (every
// batch summed, eager compaction applied), its records and the modelled
// bytes of docs/evaluator.md ("Arrangement layout model").
#include <algorithm>
#include <compare>
#include <string>
#include <vector>

#include "lir/status_macros.h"
#include "src/eval/trace.h"

namespace lir::eval {
namespace {

uint64_t VarintBytes(uint64_t n) {
  uint64_t bytes = 1;
  while (n >= 0x80) {
    n >>= 7;
    ++bytes;
  }
  return bytes;
}

}  // namespace

uint64_t EncodedDatumBytes(const Datum& datum) {
  if (datum.is_int() || datum.is_float() || datum.is_timestamp()) return 1 + 8;
  if (datum.is_interval()) return 1 + 16;
  if (datum.is_date()) return 1 + 4;  // days, as Materialize's i32
  if (datum.is_string()) {
    const uint64_t n = datum.as_string().size();
    return 1 + VarintBytes(n) + n;
  }
  if (datum.is_nested()) {
    uint64_t bytes = 0;
    for (const Datum& element : datum.elements()) {
      bytes += EncodedDatumBytes(element);
    }
    return 1 + VarintBytes(bytes) + bytes;
  }
  return 1;  // NULL, booleans: the tag says it all
}

uint64_t EncodedRowBytes(const DataRow& row) {
  uint64_t bytes = 0;
  for (const Datum& d : row) bytes += EncodedDatumBytes(d);
  return bytes;
}

template <typename F>
absl::Status Trace::ForEachLogicalKey(F f) const {
  LIR_RETURN_IF_ERROR(Seal());
  std::vector<const Batch*> sources;
  for (const Batch& b : history_) sources.push_back(&b);
  sources.push_back(&round_batch_);
  std::vector<size_t> at(sources.size(), 0);
  std::vector<LogicalRecord> records;
  while (true) {
    // The smallest key not yet visited; the oldest batch's representation.
    const DataRow* key = nullptr;
    const KeyPrefix* prefix = nullptr;
    for (size_t s = 0; s < sources.size(); ++s) {
      const Batch& b = *sources[s];
      if (at[s] < b.keys.size() &&
          (key == nullptr ||
           CompareKeys(b.prefixes[at[s]], b.keys[at[s]], *prefix, *key) < 0)) {
        key = &b.keys[at[s]];
        prefix = &b.prefixes[at[s]];
      }
    }
    if (key == nullptr) return absl::OkStatus();
    records.clear();
    uint64_t latest = 0;
    size_t ended = 0;  // records of ended rounds (the history's)
    for (size_t s = 0; s < sources.size(); ++s) {
      const Batch& b = *sources[s];
      if (at[s] == b.keys.size() ||
          CompareKeys(b.prefixes[at[s]], b.keys[at[s]], *prefix, *key) != 0) {
        continue;
      }
      const size_t k = at[s]++;
      for (size_t u = b.Begin(k); u < b.ends[k]; ++u) {
        const Update& up = b.updates[u];
        records.push_back({&b.ValOf(k, up), up.round, up.diff});
        if (s + 1 < sources.size()) {
          latest = std::max(latest, up.round);
          ended = records.size();
        }
      }
    }
    // Eager compaction moved every update of a key to its latest round
    // when the round ended; the current round's stay apart until it does.
    if (eager_) {
      for (size_t r = 0; r < ended; ++r) records[r].round = latest;
    }
    StableSortFew(records.begin(), records.end(),
                  [](const LogicalRecord& a, const LogicalRecord& b) {
                    if (const auto c = *a.val <=> *b.val; c != 0) {
                      return c < 0;
                    }
                    return a.round < b.round;
                  });
    size_t n = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      if (n > 0 && records[n - 1].round == records[i].round &&
          *records[n - 1].val == *records[i].val) {
        if (__builtin_add_overflow(records[n - 1].diff, records[i].diff,
                                   &records[n - 1].diff)) {
          return absl::OutOfRangeError(
              "multiplicity overflow in an arrangement");
        }
      } else {
        if (n > 0 && records[n - 1].diff == 0) --n;
        records[n++] = records[i];
      }
    }
    if (n > 0 && records[n - 1].diff == 0) --n;
    records.resize(n);
    if (!records.empty()) LIR_RETURN_IF_ERROR(f(*key, records));
  }
}

uint64_t Trace::records() const {
  uint64_t count = 0;
  // An overflow leaves the count of the keys before it.
  (void)ForEachLogicalKey(
      [&](const DataRow&, const std::vector<LogicalRecord>& records) {
        count += records.size();
        return absl::OkStatus();
      });
  return count;
}

uint64_t Trace::KeptValueBytes(const DataRow& val) const {
  uint64_t bytes = 0;
  if (info_.value_columns.has_value()) {
    for (int c : *info_.value_columns) {
      if (c >= 0 && static_cast<size_t>(c) < val.size()) {
        bytes += EncodedDatumBytes(val[c]);
      }
    }
  } else {
    for (size_t c = info_.value_skip; c < val.size(); ++c) {
      bytes += EncodedDatumBytes(val[c]);
    }
  }
  return bytes;
}

// The layout of differential dataflow's ordered batches (ord_neu.rs), which
// Materialize's arrangements use: per batch, the sorted keys; per key its
// values (a key-only arrangement has no value layer); per value its
// consolidated (time, diff) updates, 8 bytes each. Lists are delimited by
// 4-byte offsets. A value whose one update equals the last update stored
// stores none (differential's singleton optimization), which makes a
// bulk-loaded arrangement at one time nearly free of times and diffs.
// Modelled on the consolidated trace: eagerly compacted, one batch;
// otherwise a batch per round.
uint64_t Trace::ModelledBytes(uint64_t& records) const {
  struct Stored {
    uint64_t batch;
    const DataRow* key;
    LogicalRecord record;
  };
  std::vector<Stored> stored;
  bool key_only = true;
  (void)ForEachLogicalKey(
      [&](const DataRow& key, const std::vector<LogicalRecord>& at_key) {
        for (const LogicalRecord& r : at_key) {
          stored.push_back({eager_ ? 0 : r.round, &key, r});
          key_only = key_only && KeptValueBytes(*r.val) == 0;
        }
        return absl::OkStatus();
      });
  records = stored.size();
  // By batch, each batch's records staying in key order.
  if (!eager_) {
    std::stable_sort(
        stored.begin(), stored.end(),
        [](const Stored& a, const Stored& b) { return a.batch < b.batch; });
  }
  constexpr uint64_t kOffsetBytes = 4;
  constexpr uint64_t kTimeDiffBytes = 16;
  uint64_t bytes = 0;
  // The last (time, diff) stored in the batch; `have_last` false at a
  // batch's start.
  bool have_last = false;
  uint64_t last_round = 0;
  int64_t last_diff = 0;
  for (size_t i = 0; i < stored.size();) {
    const Stored& first = stored[i];
    const bool new_batch = i == 0 || stored[i - 1].batch != first.batch;
    const bool new_key = new_batch || stored[i - 1].key != first.key;
    if (new_batch) have_last = false;
    if (new_key) bytes += EncodedRowBytes(*first.key) + kOffsetBytes;
    if (!key_only) bytes += KeptValueBytes(*first.record.val) + kOffsetBytes;
    // The updates of this (batch, key, value).
    size_t j = i + 1;
    while (j < stored.size() && stored[j].batch == first.batch &&
           stored[j].key == first.key &&
           *stored[j].record.val == *first.record.val) {
      ++j;
    }
    const bool singleton = j - i == 1 && have_last &&
                           first.record.round == last_round &&
                           first.record.diff == last_diff;
    if (!singleton) {
      bytes += kTimeDiffBytes * (j - i);
      have_last = true;
      last_round = stored[j - 1].record.round;
      last_diff = stored[j - 1].record.diff;
    }
    i = j;
  }
  return bytes;
}

ArrangementStats Trace::Stats(const std::string& object) const {
  ArrangementStats stats;
  stats.object = object;
  stats.lir_id = info_.lir_id;
  stats.operator_name = info_.operator_name;
  stats.adapter = info_.adapter;
  stats.bytes = ModelledBytes(stats.records);
  stats.batches =
      eager_ ? (stats.records > 0 && ended_holding_ ? 1 : 0) : rounds_stored_;
  stats.updates_inserted = updates_inserted_;
  if (spine_ != nullptr) {
    const spine::Spine& sp = spine_->spine;
    SpineStats spine_stats;
    spine_stats.batches = sp.NonEmptyBatches();
    spine_stats.records = sp.RecordsHeld();
    spine_stats.merge_work = sp.counters().merge_work;
    spine_stats.idle_turns = sp.counters().idle_turns_used;
    spine_stats.verified = spine_->verified;
    spine_stats.mismatch = spine_->mismatch;
    stats.spine = std::move(spine_stats);
  }
  return stats;
}

}  // namespace lir::eval
