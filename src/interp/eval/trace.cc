// Arrangement traces: storage, reads, compaction and the size model.
#include "src/interp/eval/trace.h"

#include <algorithm>
#include <bit>
#include <type_traits>
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

bool IdenticalRows(const DataRow& a, const DataRow& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].value.index() != b[i].value.index()) return false;
    if (a[i].is_float()) {
      if (std::bit_cast<uint64_t>(a[i].as_float()) !=
          std::bit_cast<uint64_t>(b[i].as_float())) {
        return false;
      }
    } else if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

Trace::Trace(Info info)
    : info_(std::move(info)),
      index_(0, SlotHash{&slots_}, SlotEq{&slots_}) {}

const Trace::Slot* Trace::Find(const KeyRef& key) const {
  if (key.owner == this) return &slots_[key.slot];
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &slots_[*it];
}

uint32_t Trace::SlotFor(const KeyRef& key, DataRow* owned) {
  static_assert(std::is_nothrow_move_constructible_v<Slot>,
                "slots move when the storage grows");
  if (key.owner == this) return key.slot;
  // One probe: the slot is made only when the key is absent.
  uint32_t slot = 0;
  auto it = index_.lazy_emplace(key, [&](const auto& construct) {
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    } else {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[slot];
    s.key = owned != nullptr ? std::move(*owned) : *key.row;
    s.hash = key.hash;
    construct(slot);
  });
  return *it;  // found, or just made
}

void Trace::Reserve(size_t keys) {
  const size_t live = index_.size();
  // A batch smaller than the trace mostly updates keys it holds: growing
  // for all of them would move every slot for nothing.
  if (keys <= live) return;
  const size_t want = live + keys;
  // The hash set grows when it is 7/8 full.
  if (want > index_.capacity() - index_.capacity() / 8) {
    index_.reserve(std::max(want, 2 * live));
  }
  const size_t stored = slots_.size() - free_slots_.size();
  if (stored + keys > slots_.capacity()) {
    slots_.reserve(std::max(stored + keys, 2 * slots_.size()));
  }
}

void Trace::FreeSlot(uint32_t slot) {
  index_.erase(slot);
  Slot& s = slots_[slot];
  s.key = DataRow();
  s.updates = {};
  free_slots_.push_back(slot);
}

absl::Status Trace::Insert(const DataRow& key, const DataRow& val,
                           uint64_t round, int64_t diff) {
  return Insert(KeyRef(key), val, round, diff);
}

absl::Status Trace::Insert(DataRow&& key, const DataRow& val, uint64_t round,
                           int64_t diff) {
  if (diff == 0) return absl::OkStatus();
  const KeyRef ref(key);
  // `val` may be `key` itself: compare before the key moves.
  const bool val_is_key = &val == &key;
  const uint32_t slot = SlotFor(ref, &key);
  return InsertAt(slot, key, val_is_key ? slots_[slot].key : val, round, diff);
}

absl::Status Trace::Insert(const KeyRef& key, const DataRow& val,
                           uint64_t round, int64_t diff) {
  if (diff == 0) return absl::OkStatus();
  return InsertAt(SlotFor(key, nullptr), *key.row, val, round, diff);
}

// `key` is the key as the caller gave it (it may be moved-from when the
// slot took it: then the slot holds it unchanged).
absl::Status Trace::InsertAt(uint32_t slot, const DataRow& key,
                             const DataRow& val, uint64_t round,
                             int64_t diff) {
  Slot& s = slots_[slot];
  if (!s.touched) {
    s.touched = true;
    touched_.push_back(slot);
    // The round's key is the first one inserted: remember it when the slot
    // keeps another representation of it.
    if (!s.key.empty() && &key != &s.key && !key.empty() &&
        !IdenticalRows(key, s.key)) {
      touched_as_.emplace(slot, key);
    }
  }
  inserted_this_round_ = true;
  // Merge with an update of this round to the same value: an operator may
  // deliver the same record twice within a round (e.g. a fueled chunk).
  auto& updates = s.updates;
  for (size_t i = updates.size(); i-- > 0 && updates[i].round == round;) {
    if (ValOf(s, updates[i]) == val) {
      LIR_RETURN_IF_ERROR(AddDiff(updates[i].diff, diff));
      if (updates[i].diff == 0) {
        updates.erase(updates.begin() + static_cast<ptrdiff_t>(i));
        --records_;
      }
      return absl::OkStatus();
    }
  }
  Update u;
  u.round = round;
  u.diff = diff;
  if (&val == &s.key || IdenticalRows(val, s.key)) {
    u.val_is_key = true;
  } else {
    u.val = val;
  }
  updates.push_back(std::move(u));
  ++records_;
  return absl::OkStatus();
}

absl::Status Trace::ReadRefs(const KeyRef& key, uint64_t before,
                             RefMultiset& out) const {
  out.clear();
  const Slot* s = Find(key);
  if (s == nullptr) return absl::OkStatus();
  return ReadSlot(*s, before, out);
}

absl::Status Trace::ReadSlot(const Slot& s, uint64_t before,
                             RefMultiset& out) const {
  out.clear();
  for (const Update& u : s.updates) {
    if (u.round < before) out.emplace_back(&ValOf(s, u), u.diff);
  }
  if (out.size() > 1) {
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return *a.first < *b.first; });
    size_t n = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (n > 0 && *out[n - 1].first == *out[i].first) {
        LIR_RETURN_IF_ERROR(AddDiff(out[n - 1].second, out[i].second));
      } else {
        if (n > 0 && out[n - 1].second == 0) --n;
        out[n++] = out[i];
      }
    }
    out.resize(n);
  }
  if (!out.empty() && out.back().second == 0) out.pop_back();
  return absl::OkStatus();
}

absl::Status Trace::Set(const KeyRef& key, const RefMultiset& desired,
                        uint64_t round, std::vector<RowDiff>& emitted,
                        bool absent) {
  const size_t first = emitted.size();
  const Slot* found = absent ? nullptr : Find(key);
  if (found == nullptr) {
    for (const auto& [row, diff] : desired) emitted.emplace_back(*row, diff);
  } else {
    LIR_RETURN_IF_ERROR(ReadSlot(*found, round + 1, previous_));
    // desired - previous, merged in row order. The changed rows are copied
    // out before any is inserted: `previous_` points into this trace.
    const RefMultiset& previous = previous_;
    size_t i = 0, j = 0;
    while (i < desired.size() || j < previous.size()) {
      if (j == previous.size() ||
          (i < desired.size() && *desired[i].first < *previous[j].first)) {
        emitted.emplace_back(*desired[i].first, desired[i].second);
        ++i;
      } else if (i == desired.size() ||
                 *previous[j].first < *desired[i].first) {
        if (previous[j].second == INT64_MIN) {
          return absl::OutOfRangeError("multiplicity out of 64-bit range");
        }
        emitted.emplace_back(*previous[j].first, -previous[j].second);
        ++j;
      } else {
        int64_t change;
        if (previous[j].second == INT64_MIN ||
            __builtin_sub_overflow(desired[i].second, previous[j].second,
                                   &change)) {
          return absl::OutOfRangeError("multiplicity out of 64-bit range");
        }
        if (change != 0) emitted.emplace_back(*desired[i].first, change);
        ++i;
        ++j;
      }
    }
  }
  if (emitted.size() == first) return absl::OkStatus();
  const uint32_t slot = found != nullptr
                            ? static_cast<uint32_t>(found - slots_.data())
                            : SlotFor(key, nullptr);
  for (size_t e = first; e < emitted.size(); ++e) {
    LIR_RETURN_IF_ERROR(
        InsertAt(slot, *key.row, emitted[e].first, round, emitted[e].second));
  }
  return absl::OkStatus();
}

absl::StatusOr<Multiset> Trace::Read(const DataRow& key,
                                     uint64_t before) const {
  RefMultiset refs;
  LIR_RETURN_IF_ERROR(ReadRefs(KeyRef(key), before, refs));
  Multiset rows;
  rows.reserve(refs.size());
  for (const auto& [val, diff] : refs) rows.emplace_back(*val, diff);
  return rows;
}

absl::StatusOr<int64_t> Trace::Count(const DataRow& key,
                                     uint64_t before) const {
  return Count(KeyRef(key), before);
}

absl::StatusOr<int64_t> Trace::Count(const KeyRef& key,
                                     uint64_t before) const {
  int64_t total = 0;
  const Slot* s = Find(key);
  if (s == nullptr) return total;
  for (const Update& u : s->updates) {
    if (u.round < before) LIR_RETURN_IF_ERROR(AddDiff(total, u.diff));
  }
  return total;
}

absl::StatusOr<Multiset> Trace::ReadAll(uint64_t before) const {
  std::vector<RowDiff> rows;
  rows.reserve(records_);
  for (uint32_t slot : index_) {
    const Slot& s = slots_[slot];
    for (const Update& u : s.updates) {
      if (u.round < before) rows.emplace_back(ValOf(s, u), u.diff);
    }
  }
  return Consolidate(std::move(rows));
}

std::vector<KeyRef> Trace::TouchedKeyRefs() const {
  std::vector<KeyRef> keys;
  keys.reserve(touched_.size());
  for (uint32_t slot : touched_) {
    const Slot& s = slots_[slot];
    const DataRow* key = &s.key;
    if (!touched_as_.empty()) {
      auto it = touched_as_.find(slot);
      if (it != touched_as_.end()) key = &it->second;
    }
    keys.emplace_back(*key, s.hash, this, slot);
  }
  // Operators usually insert in key order: check before sorting.
  auto less = [](const KeyRef& a, const KeyRef& b) { return *a.row < *b.row; };
  if (!std::is_sorted(keys.begin(), keys.end(), less)) {
    std::sort(keys.begin(), keys.end(), less);
  }
  return keys;
}

std::vector<DataRow> Trace::TouchedKeys() const {
  std::vector<DataRow> keys;
  for (const KeyRef& k : TouchedKeyRefs()) keys.push_back(*k.row);
  return keys;
}

absl::Status Trace::EndRound(uint64_t round, Compaction compaction) {
  bool stored = false;  // whether any update of this round remains
  for (uint32_t slot : touched_) {
    Slot& s = slots_[slot];
    s.touched = false;
    auto& updates = s.updates;
    if (compaction == Compaction::kEager && !updates.empty()) {
      if (updates.size() == 1) {
        updates[0].round = round;
      } else {
        std::sort(updates.begin(), updates.end(),
                  [&](const Update& a, const Update& b) {
                    return ValOf(s, a) < ValOf(s, b);
                  });
        size_t n = 0;
        for (size_t i = 0; i < updates.size(); ++i) {
          if (n > 0 && ValOf(s, updates[n - 1]) == ValOf(s, updates[i])) {
            LIR_RETURN_IF_ERROR(AddDiff(updates[n - 1].diff, updates[i].diff));
          } else {
            if (n > 0 && updates[n - 1].diff == 0) --n;
            if (n != i) updates[n] = std::move(updates[i]);
            updates[n++].round = round;
          }
        }
        if (n > 0 && updates[n - 1].diff == 0) --n;
        records_ -= updates.size() - n;
        updates.erase(updates.begin() + static_cast<ptrdiff_t>(n),
                      updates.end());
      }
    } else if (!stored) {
      for (const Update& u : updates) stored = stored || u.round == round;
    }
    if (updates.empty()) FreeSlot(slot);
  }
  if (compaction == Compaction::kEager) {
    batches_ = records_ > 0 ? 1 : 0;
  } else if (inserted_this_round_ && stored) {
    // A round whose updates all cancelled within it leaves no batch.
    ++batches_;
  }
  touched_.clear();
  touched_as_.clear();
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
  for (uint32_t slot : index_) {
    const Slot& s = slots_[slot];
    const uint64_t key_bytes = EncodedRowBytes(s.key);
    for (const Update& update : s.updates) {
      const DataRow& val = ValOf(s, update);
      uint64_t val_bytes = 0;
      if (info_.value_columns.has_value()) {
        for (int c : *info_.value_columns) {
          if (c >= 0 && static_cast<size_t>(c) < val.size()) {
            val_bytes += EncodedDatumBytes(val[c]);
          }
        }
      } else {
        for (size_t c = info_.value_skip; c < val.size(); ++c) {
          val_bytes += EncodedDatumBytes(val[c]);
        }
      }
      bytes += key_bytes + val_bytes + kRecordOverheadBytes;
    }
  }
  stats.bytes = bytes;
  return stats;
}

}  // namespace lir::eval
