// Arrangement traces: storage, reads, compaction and the size model.
#include "src/eval/trace.h"

#include <algorithm>
#include <bit>
#include <compare>
#include <utility>

#include "lir/status_macros.h"

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

bool IdenticalRows(const DataRow& a, const DataRow& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].value.index() != b[i].value.index()) return false;
    if (a[i].is_float()) {
      if (std::bit_cast<uint64_t>(a[i].as_float()) !=
          std::bit_cast<uint64_t>(b[i].as_float())) {
        return false;
      }
    } else if (a[i].is_nested()) {
      // Floats inside lists and arrays are told apart the same way.
      if (a[i].as_nested().kind != b[i].as_nested().kind ||
          !IdenticalRows(a[i].elements(), b[i].elements())) {
        return false;
      }
    } else if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

Trace::Trace(Info info)
    : info_(std::move(info)), index_(0, SlotHash{}, SlotEq{&slots_}) {}

uint32_t Trace::FindSlot(const KeyRef& key) const {
  if (key.owner == this) return key.slot;
  auto it = index_.find(key);
  return it == index_.end() ? kNoSlot : EntrySlot(*it);
}

uint32_t Trace::SlotFor(const KeyRef& key, DataRow* owned) {
  if (key.owner == this) return key.slot;
  // One probe: the slot is made only when the key is absent.
  uint32_t slot = 0;
  auto it = index_.lazy_emplace(key, [&](const auto& construct) {
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    } else {
      slot = static_cast<uint32_t>(slots_.EmplaceBack());
    }
    Slot& s = slots_[slot];
    s.key = owned != nullptr ? std::move(*owned) : *key.row;
    s.hash = IndexHash(key.hash);
    construct(Entry(s.hash, slot));
  });
  return EntrySlot(*it);  // found, or just made
}

// GCC 12's dead-code elimination deletes the __builtin_prefetch calls of
// absl's raw_hash_set::prefetch when NDEBUG is defined (checked with objdump:
// this function was a bare `ret` in the release build, so no lookup of any
// trace was ever prefetched). Turning that pass off for the two functions
// that prefetch keeps them; Clang has no such attribute (nor the problem).
#if defined(__GNUC__) && !defined(__clang__)
#define LIR_KEEPS_PREFETCHES __attribute__((noinline, optimize("no-tree-dce")))
#else
#define LIR_KEEPS_PREFETCHES __attribute__((noinline))
#endif

LIR_KEEPS_PREFETCHES void Trace::PrefetchIndex(const KeyRef& key) const {
  index_.prefetch(key);
}

LIR_KEEPS_PREFETCHES void Trace::PrefetchEntry(uint64_t entry) const {
  index_.prefetch(entry);
}

uint32_t Trace::FindSlotByHash(const KeyRef& key) const {
  auto it = index_.find(HashProbe{IndexHash(key.hash)});
  return it == index_.end() ? kNoSlot : EntrySlot(*it);
}

LIR_KEEPS_PREFETCHES void Trace::Prefetch(const KeyRef& key,
                                          PrefetchStage stage) const {
  if (key.owner == this) return;
  switch (stage) {
    case PrefetchStage::kIndex: PrefetchIndex(key); return;
    case PrefetchStage::kSlot: {
      const uint32_t slot = FindSlotByHash(key);
      if (slot == kNoSlot) return;
      // The lines of the slot's first and last bytes: all of it, unless the
      // 88 bytes straddle three lines (then the middle one is left out).
      const char* at = reinterpret_cast<const char*>(&slots_[slot]);
      __builtin_prefetch(at);
      __builtin_prefetch(at + sizeof(Slot) - 1);
      return;
    }
    case PrefetchStage::kKeyRow: {
      const uint32_t slot = FindSlotByHash(key);
      if (slot == kNoSlot) return;
      const Slot& s = slots_[slot];
      if (!s.key.empty()) __builtin_prefetch(s.key.data());
      if (!s.updates.empty() && s.updates[0].val != nullptr) {
        __builtin_prefetch(s.updates[0].val.get());
      }
      return;
    }
  }
}

void Trace::Reserve(size_t keys) {
  const size_t live = index_.size();
  // A batch smaller than the trace mostly updates keys it holds: growing
  // for all of them would rehash the index for nothing.
  if (keys <= live) return;
  const size_t want = live + keys;
  // The hash set grows when it is 7/8 full.
  if (want > index_.capacity() - index_.capacity() / 8) {
    index_.reserve(std::max(want, 2 * live));
  }
}

void Trace::FreeSlot(uint32_t slot) {
  Slot& s = slots_[slot];
  index_.erase(Entry(s.hash, slot));
  s.key = DataRow();
  s.updates.clear();
  s.updates.shrink_to_fit();
  s.tombstone = false;
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

Trace::BatchInserter::BatchInserter(Trace& trace, uint64_t round,
                                    size_t expected)
    : trace_(trace), round_(round) {
  trace_.Reserve(expected);
}

absl::Status Trace::BatchInserter::Push(DataRow key, DataRow val,
                                        const DataRow* val_ref, int64_t diff) {
  if (diff == 0) return absl::OkStatus();
  if (size_ == kAhead) {
    LIR_RETURN_IF_ERROR(InsertPending(ring_[head_]));
    head_ = (head_ + 1) % kAhead;
    --size_;
  }
  Pending& p = ring_[(head_ + size_) % kAhead];
  p.key = std::move(key);
  p.val = std::move(val);
  p.val_ref = val_ref;
  p.diff = diff;
  p.hash = HashRow(p.key);
  ++size_;
  // The queued updates are the next ones inserted, oldest first: the
  // newest is kAhead (16) inserts ahead, so its index is fetched now, and
  // the ones 8 and 4 inserts ahead get the later stages (PrefetchAhead).
  auto stage = [&](size_t from_newest, PrefetchStage s) {
    if (from_newest >= size_) return;
    const Pending& q = ring_[(head_ + size_ - 1 - from_newest) % kAhead];
    trace_.Prefetch(KeyRef(q.key, q.hash, nullptr, 0), s);
  };
  stage(0, PrefetchStage::kIndex);
  stage(kAhead - 8, PrefetchStage::kSlot);
  stage(kAhead - 4, PrefetchStage::kKeyRow);
  return absl::OkStatus();
}

absl::Status Trace::BatchInserter::InsertPending(Pending& p) {
  const KeyRef ref(p.key, p.hash, nullptr, 0);
  const uint32_t slot = trace_.SlotFor(ref, &p.key);
  // `p.key` may have moved into the slot, which then holds it unchanged.
  return trace_.InsertAt(slot, p.key, p.val_ref != nullptr ? *p.val_ref : p.val,
                         round_, p.diff);
}

absl::Status Trace::BatchInserter::FinishWith(absl::Status error) {
  LIR_RETURN_IF_ERROR(Finish());
  return error;
}

absl::Status Trace::BatchInserter::Finish() {
  for (; size_ > 0; --size_) {
    LIR_RETURN_IF_ERROR(InsertPending(ring_[head_]));
    head_ = (head_ + 1) % kAhead;
  }
  return absl::OkStatus();
}

// `key` is the key as the caller gave it (it may be moved-from when the
// slot took it: then the slot holds it unchanged).
absl::Status Trace::InsertAt(uint32_t slot, const DataRow& key,
                             const DataRow& val, uint64_t round, int64_t diff) {
  Slot& s = slots_[slot];
  if (!s.touched) {
    s.touched = true;
    touched_.push_back(slot);
    if (s.tombstone) {
      // A key that held nothing comes back as it is inserted now, as a new
      // slot would (-0.0 where the tombstone kept 0.0).
      s.tombstone = false;
      --tombstones_;
      if (&key != &s.key && !IdenticalRows(key, s.key)) s.key = key;
    } else if (!s.key.empty() && &key != &s.key && !key.empty() &&
               !IdenticalRows(key, s.key)) {
      // The round's key is the first one inserted: remember it when the
      // slot keeps another representation of it.
      touched_as_.emplace(slot, key);
    }
  }
  inserted_this_round_ = true;
  ++updates_inserted_;
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
  if (&val != &s.key && !IdenticalRows(val, s.key)) {
    u.val.reset(val.empty() ? &EmptyRow() : new DataRow(val));
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

absl::Status Trace::SetOwned(const KeyRef& key, Multiset& desired,
                             uint64_t round, std::vector<RowDiff>& emitted,
                             bool absent) {
  owned_refs_.clear();
  for (const auto& [row, diff] : desired) owned_refs_.emplace_back(&row, diff);
  return SetRows(key, owned_refs_, &desired, round, emitted, absent);
}

absl::Status Trace::SetRows(const KeyRef& key, const RefMultiset& desired,
                            Multiset* owned, uint64_t round,
                            std::vector<RowDiff>& emitted, bool absent) {
  // Desired row `i`, moved out when owned (each is emitted at most once,
  // after its last comparison).
  auto take = [&](size_t i, int64_t diff) {
    if (owned != nullptr) {
      emitted.emplace_back(std::move((*owned)[i].first), diff);
    } else {
      emitted.emplace_back(*desired[i].first, diff);
    }
  };
  const size_t first = emitted.size();
  const uint32_t found_slot = absent ? kNoSlot : FindSlot(key);
  const Slot* found = found_slot == kNoSlot ? nullptr : &slots_[found_slot];
  if (found == nullptr) {
    for (size_t i = 0; i < desired.size(); ++i) take(i, desired[i].second);
  } else {
    LIR_RETURN_IF_ERROR(ReadSlot(*found, round + 1, previous_));
    // desired - previous, merged in row order. The changed rows are copied
    // out before any is inserted: `previous_` points into this trace.
    const RefMultiset& previous = previous_;
    size_t i = 0, j = 0;
    while (i < desired.size() || j < previous.size()) {
      if (j == previous.size() ||
          (i < desired.size() && *desired[i].first < *previous[j].first)) {
        take(i, desired[i].second);
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
        if (change != 0) take(i, change);
        ++i;
        ++j;
      }
    }
  }
  if (emitted.size() == first) return absl::OkStatus();
  const uint32_t slot = found != nullptr ? found_slot : SlotFor(key, nullptr);
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

absl::StatusOr<int64_t> Trace::Count(const KeyRef& key, uint64_t before) const {
  int64_t total = 0;
  const Slot* s = Find(key);
  if (s == nullptr) return total;
  for (const Update& u : s->updates) {
    if (u.round < before) LIR_RETURN_IF_ERROR(AddDiff(total, u.diff));
  }
  return total;
}

absl::StatusOr<Trace::Counts> Trace::CountsAt(const KeyRef& key,
                                              uint64_t round) const {
  Counts counts;
  const Slot* s = Find(key);
  if (s == nullptr) return counts;
  // Summed in storage order, as Count sums them.
  for (const Update& u : s->updates) {
    if (u.round < round) LIR_RETURN_IF_ERROR(AddDiff(counts.before, u.diff));
    if (u.round <= round) LIR_RETURN_IF_ERROR(AddDiff(counts.through, u.diff));
  }
  return counts;
}

absl::StatusOr<Multiset> Trace::ReadAll(uint64_t before) const {
  std::vector<RowDiff> rows;
  rows.reserve(records_);
  // In slot order: sequential, unlike the index's hash order; free slots
  // hold no updates.
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
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
  if (spine_ == nullptr) return Compact(round, compaction);
  // The round's batch is read before compaction rewrites rounds.
  std::vector<spine::Record> batch = RoundRecords(round);
  LIR_RETURN_IF_ERROR(Compact(round, compaction));
  FeedSpine(round, compaction, std::move(batch));
  return absl::OkStatus();
}

absl::Status Trace::CompactSlot(Slot& s, uint64_t round) {
  auto& updates = s.updates;
  const bool all_key = std::all_of(updates.begin(), updates.end(),
                                   [](const Update& u) { return !u.val; });
  if (all_key) {
    // One value (the key): only the diffs add up.
    for (size_t i = 1; i < updates.size(); ++i) {
      LIR_RETURN_IF_ERROR(AddDiff(updates[0].diff, updates[i].diff));
    }
    records_ -= updates.size() - 1;
    updates.erase(updates.begin() + 1, updates.end());
    updates[0].round = round;
    if (updates[0].diff == 0) {
      updates.clear();
      --records_;
    }
    return absl::OkStatus();
  }
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
  updates.erase(updates.begin() + static_cast<ptrdiff_t>(n), updates.end());
  return absl::OkStatus();
}

void Trace::SweepTombstones() {
  // Their index entries are scattered: fetched a few slots ahead.
  std::vector<uint32_t> swept;
  swept.reserve(tombstones_);
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    if (slots_[slot].tombstone) swept.push_back(static_cast<uint32_t>(slot));
  }
  constexpr size_t kAhead = 16;
  for (size_t i = 0; i < swept.size(); ++i) {
    if (i + kAhead < swept.size()) {
      const uint32_t next = swept[i + kAhead];
      PrefetchEntry(Entry(slots_[next].hash, next));
    }
    FreeSlot(swept[i]);
  }
  tombstones_ = 0;
}

absl::Status Trace::Compact(uint64_t round, Compaction compaction) {
  bool stored = false;  // whether any update of this round remains
  for (uint32_t slot : touched_) {
    Slot& s = slots_[slot];
    s.touched = false;
    auto& updates = s.updates;
    if (compaction == Compaction::kEager && !updates.empty()) {
      if (updates.size() == 1) {
        updates[0].round = round;
      } else {
        LIR_RETURN_IF_ERROR(CompactSlot(s, round));
      }
    } else if (!stored) {
      for (const Update& u : updates) stored = stored || u.round == round;
    }
    if (updates.empty()) {
      // Kept as a tombstone: a key retracted now often comes back, and
      // freeing it would cost an index erasure now and a new slot then.
      s.tombstone = true;
      updates.shrink_to_fit();
      ++tombstones_;
    }
  }
  if (tombstones_ > kMinTombstonesSwept &&
      tombstones_ > index_.size() - tombstones_) {
    SweepTombstones();
  }
  eager_ = compaction == Compaction::kEager;
  if (eager_) {
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
uint64_t Trace::ModelledBytes() const {
  struct Stored {
    uint64_t batch;
    const Slot* slot;
    const Update* update;
  };
  // The keys in order: sorted once (not every record), by the integer
  // itself when every key is one integer, the common case.
  std::vector<const Slot*> keys;
  bool single_ints = true;
  for (size_t slot = 0; slot < slots_.size(); ++slot) {
    const Slot& s = slots_[slot];
    if (s.updates.empty()) continue;
    keys.push_back(&s);
    single_ints = single_ints && s.key.size() == 1 && s.key[0].is_int();
  }
  if (single_ints) {
    std::sort(keys.begin(), keys.end(), [](const Slot* a, const Slot* b) {
      return a->key[0].as_int() < b->key[0].as_int();
    });
  } else {
    std::sort(keys.begin(), keys.end(),
              [](const Slot* a, const Slot* b) { return a->key < b->key; });
  }
  auto val_of = [&](const Stored& e) -> const DataRow& {
    return ValOf(*e.slot, *e.update);
  };
  std::vector<Stored> stored;
  stored.reserve(records_);
  bool key_only = true;
  for (const Slot* s : keys) {
    const size_t first = stored.size();
    for (const Update& u : s->updates) {
      // Eagerly compacted traces are one batch; otherwise a batch per round.
      stored.push_back({eager_ ? 0 : u.round, s, &u});
      key_only = key_only && KeptValueBytes(ValOf(*s, u)) == 0;
    }
    if (stored.size() - first > 1) {
      std::sort(stored.begin() + static_cast<ptrdiff_t>(first), stored.end(),
                [&](const Stored& a, const Stored& b) {
                  if (const auto c = val_of(a) <=> val_of(b); c != 0) {
                    return c < 0;
                  }
                  return a.update->round < b.update->round;
                });
    }
  }
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
    const bool new_key = i == 0 || stored[i - 1].batch != first.batch ||
                         stored[i - 1].slot != first.slot;
    if (i == 0 || stored[i - 1].batch != first.batch) have_last = false;
    if (new_key) bytes += EncodedRowBytes(first.slot->key) + kOffsetBytes;
    if (!key_only) bytes += KeptValueBytes(val_of(first)) + kOffsetBytes;
    // The updates of this (batch, key, value).
    size_t j = i + 1;
    while (j < stored.size() && stored[j].batch == first.batch &&
           stored[j].slot == first.slot && val_of(stored[j]) == val_of(first)) {
      ++j;
    }
    const bool singleton = j - i == 1 && have_last &&
                           first.update->round == last_round &&
                           first.update->diff == last_diff;
    if (!singleton) {
      bytes += kTimeDiffBytes * (j - i);
      have_last = true;
      last_round = stored[j - 1].update->round;
      last_diff = stored[j - 1].update->diff;
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
  stats.records = records_;
  stats.batches = batches_;
  stats.updates_inserted = updates_inserted_;
  stats.bytes = ModelledBytes();
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
