// Arrangement traces: storage, reads, compaction and the size model.
#include "src/interp/eval/trace.h"

#include <algorithm>
#include <utility>

#include "src/lir/status_macros.h"

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

absl::Status AddDiff(int64_t& into, int64_t diff) {
  if (__builtin_add_overflow(into, diff, &into)) {
    return absl::OutOfRangeError("multiplicity overflow in an arrangement");
  }
  return absl::OkStatus();
}

}  // namespace

uint64_t EncodedDatumBytes(const Datum& datum) {
  if (datum.is_int() || datum.is_float()) return 1 + 8;
  if (datum.is_string()) {
    const uint64_t n = datum.as_string().size();
    return 1 + VarintBytes(n) + n;
  }
  return 1;  // NULL, booleans: the tag says it all
}

uint64_t EncodedRowBytes(const DataRow& row) {
  uint64_t bytes = 0;
  for (const Datum& d : row) bytes += EncodedDatumBytes(d);
  return bytes;
}

absl::Status Trace::Insert(const DataRow& key, const DataRow& val,
                           uint64_t round, int64_t diff) {
  if (diff == 0) return absl::OkStatus();
  std::vector<Update>& updates = index_[key];
  touched_.insert(key);
  inserted_this_round_ = true;
  // Merge with an update of this round to the same value: an operator may
  // deliver the same record twice within a round (e.g. a fueled chunk).
  for (size_t i = updates.size(); i-- > 0 && updates[i].round == round;) {
    if (updates[i].val == val) {
      LIR_RETURN_IF_ERROR(AddDiff(updates[i].diff, diff));
      if (updates[i].diff == 0) {
        updates.erase(updates.begin() + static_cast<ptrdiff_t>(i));
        --records_;
        if (updates.empty()) index_.erase(key);
      }
      return absl::OkStatus();
    }
  }
  updates.push_back(Update{val, round, diff});
  ++records_;
  return absl::OkStatus();
}

absl::StatusOr<Multiset> Trace::Read(const DataRow& key,
                                     uint64_t before) const {
  auto it = index_.find(key);
  if (it == index_.end()) return Multiset{};
  std::vector<RowDiff> rows;
  rows.reserve(it->second.size());
  for (const Update& u : it->second) {
    if (u.round < before) rows.emplace_back(u.val, u.diff);
  }
  return Consolidate(std::move(rows));
}

absl::StatusOr<int64_t> Trace::Count(const DataRow& key,
                                     uint64_t before) const {
  int64_t total = 0;
  auto it = index_.find(key);
  if (it == index_.end()) return total;
  for (const Update& u : it->second) {
    if (u.round < before) LIR_RETURN_IF_ERROR(AddDiff(total, u.diff));
  }
  return total;
}

absl::StatusOr<Multiset> Trace::ReadAll(uint64_t before) const {
  std::vector<RowDiff> rows;
  rows.reserve(records_);
  for (const auto& [key, updates] : index_) {
    for (const Update& u : updates) {
      if (u.round < before) rows.emplace_back(u.val, u.diff);
    }
  }
  return Consolidate(std::move(rows));
}

std::vector<DataRow> Trace::TouchedKeys() const {
  std::vector<DataRow> keys(touched_.begin(), touched_.end());
  std::sort(keys.begin(), keys.end());
  return keys;
}

absl::Status Trace::EndRound(uint64_t round, Compaction compaction) {
  if (compaction == Compaction::kEager) {
    for (const DataRow& key : touched_) {
      auto it = index_.find(key);
      if (it == index_.end()) continue;
      std::vector<Update>& updates = it->second;
      std::sort(updates.begin(), updates.end(),
                [](const Update& a, const Update& b) { return a.val < b.val; });
      std::vector<Update> merged;
      for (Update& u : updates) {
        if (!merged.empty() && merged.back().val == u.val) {
          LIR_RETURN_IF_ERROR(AddDiff(merged.back().diff, u.diff));
        } else {
          if (!merged.empty() && merged.back().diff == 0) merged.pop_back();
          merged.push_back(Update{std::move(u.val), round, u.diff});
        }
      }
      if (!merged.empty() && merged.back().diff == 0) merged.pop_back();
      records_ -= updates.size();
      records_ += merged.size();
      if (merged.empty()) {
        index_.erase(it);
      } else {
        updates = std::move(merged);
      }
    }
    batches_ = records_ > 0 ? 1 : 0;
  } else {
    // A round whose updates all cancelled within it leaves no batch.
    bool stored = false;
    for (const DataRow& key : touched_) {
      auto it = index_.find(key);
      if (it == index_.end()) continue;
      for (const Update& u : it->second) stored = stored || u.round == round;
      if (stored) break;
    }
    if (inserted_this_round_ && stored) ++batches_;
  }
  touched_.clear();
  inserted_this_round_ = false;
  return absl::OkStatus();
}

ArrangementStats Trace::Stats(const std::string& object) const {
  ArrangementStats stats;
  stats.object = object;
  stats.lir_id = info_.lir_id;
  stats.operator_name = info_.operator_name;
  stats.adapter = info_.adapter;
  stats.records = records_;
  stats.batches = batches_;
  uint64_t bytes = batches_ * kBatchOverheadBytes;
  for (const auto& [key, updates] : index_) {
    const uint64_t key_bytes = EncodedRowBytes(key);
    for (const Update& u : updates) {
      uint64_t val_bytes = 0;
      if (info_.value_columns.has_value()) {
        for (int c : *info_.value_columns) {
          if (c >= 0 && static_cast<size_t>(c) < u.val.size()) {
            val_bytes += EncodedDatumBytes(u.val[c]);
          }
        }
      } else {
        for (size_t c = info_.value_skip; c < u.val.size(); ++c) {
          val_bytes += EncodedDatumBytes(u.val[c]);
        }
      }
      bytes += key_bytes + val_bytes + kRecordOverheadBytes;
    }
  }
  stats.bytes = bytes;
  return stats;
}

}  // namespace lir::eval
