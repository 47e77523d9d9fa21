// Arrangement traces: inserting, sealing a round's updates into its sorted
// batch, reads, Set, and merging batches at the end of a round. The size
// model and the walk over the consolidated trace are trace_stats.cc.
#include "src/eval/trace.h"

#include <algorithm>
#include <bit>
#include <compare>
#include <numeric>
#include <span>
#include <string>
#include <utility>

#include "lir/status_macros.h"

namespace lir::eval {
namespace {

absl::Status AddDiff(int64_t& into, int64_t diff) {
  if (__builtin_add_overflow(into, diff, &into)) {
    return absl::OutOfRangeError("multiplicity overflow in an arrangement");
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// IdenticalRows over datum sequences (rows, and the elements of lists and
// arrays).
bool IdenticalDatums(std::span<const Datum> a, std::span<const Datum> b) {
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
          !IdenticalDatums(a[i].elements(), b[i].elements())) {
        return false;
      }
    } else if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool IdenticalRows(const DataRow& a, const DataRow& b) {
  return IdenticalDatums(a, b);
}

Trace::Trace(Info info) : info_(std::move(info)) {}

KeyPrefix KeyPrefix::Of(const DataRow& row) {
  KeyPrefix p;
  if (row.empty()) return p;
  const Datum& d = row[0];
  p.kind = static_cast<uint32_t>(d.value.index()) + 1;
  bool whole = false;  // whether the payload holds the datum whole
  constexpr uint64_t kSign = uint64_t{1} << 63;
  switch (d.value.index()) {
    case 0: whole = true; break;  // NULL
    case 1:
      p.payload = d.as_bool() ? 1 : 0;
      whole = true;
      break;
    case 2:
      p.payload = static_cast<uint64_t>(d.as_int()) ^ kSign;
      whole = true;
      break;
    case 3: {
      // Datum order: -0.0 equals 0.0, every NaN equals every other and
      // sorts last.
      const double f = d.as_float();
      if (f != f) {
        p.payload = UINT64_MAX;
      } else {
        const uint64_t bits = std::bit_cast<uint64_t>(f == 0 ? 0.0 : f);
        p.payload = (bits & kSign) != 0 ? ~bits : bits | kSign;
      }
      break;
    }
    case 4: {
      // The first 8 bytes, big-endian: strings compare as unsigned bytes.
      const std::string& str = d.as_string();
      for (size_t i = 0; i < 8; ++i) {
        p.payload <<= 8;
        if (i < str.size()) p.payload |= static_cast<unsigned char>(str[i]);
      }
      break;
    }
    case 6:
      p.payload = static_cast<uint64_t>(d.as_timestamp().micros) ^ kSign;
      whole = true;
      break;
    case 9:
      p.payload = static_cast<uint64_t>(int64_t{d.as_date().days}) ^ kSign;
      whole = true;
      break;
    default: break;  // the kind alone orders them
  }
  p.exact = whole && row.size() == 1;
  return p;
}

size_t Trace::Batch::Find(const DataRow& key, const KeyPrefix& prefix) const {
  const size_t n = keys.size();
  auto below = [&](size_t i) {
    return CompareKeys(prefixes[i], keys[i], prefix, key) < 0;
  };
  if (n == 0) return kAbsent;
  // The answer (the first position not below `key`) lies in [lo, hi].
  size_t lo = 0, hi = n;
  if (cursor < n) {
    if (below(cursor)) {
      // Gallop forward: lookups come in ascending order, usually near.
      size_t prev = cursor, step = 1, probe = cursor + 1;
      while (probe < n && below(probe)) {
        prev = probe;
        step *= 2;
        probe = prev + step;
      }
      lo = prev + 1;
      hi = std::min(probe, n);
    } else {
      hi = cursor;
    }
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (below(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  cursor = lo;
  return lo < n && CompareKeys(prefixes[lo], keys[lo], prefix, key) == 0
             ? lo
             : kAbsent;
}

void Trace::Batch::AppendKey(DataRow key, const KeyPrefix& prefix,
                             std::vector<Update>& from, bool keep_empty) {
  if (from.empty() && !keep_empty) return;
  keys.push_back(std::move(key));
  prefixes.push_back(prefix);
  for (Update& u : from) updates.push_back(std::move(u));
  ends.push_back(updates.size());
  from.clear();
}

absl::Status Trace::ConsolidateKey(const DataRow& key,
                                   std::vector<Update>& updates, bool eager) {
  if (eager && updates.size() > 1) {
    // Every round is at or before the frontier: the key's updates move to
    // its latest round, as a slot compacted when last touched would hold.
    uint64_t latest = 0;
    for (const Update& u : updates) latest = std::max(latest, u.round);
    for (Update& u : updates) u.round = latest;
  }
  auto val_of = [&](const Update& u) -> const DataRow& {
    return u.val == nullptr ? key : *u.val;
  };
  if (updates.size() > 1) {
    // Stable: of equal values, the oldest representation is kept.
    StableSortFew(updates.begin(), updates.end(),
                  [&](const Update& a, const Update& b) {
                    if (a.round != b.round) return a.round < b.round;
                    return val_of(a) < val_of(b);
                  });
  }
  size_t n = 0;
  for (size_t i = 0; i < updates.size(); ++i) {
    if (n > 0 && updates[n - 1].round == updates[i].round &&
        val_of(updates[n - 1]) == val_of(updates[i])) {
      LIR_RETURN_IF_ERROR(AddDiff(updates[n - 1].diff, updates[i].diff));
    } else {
      if (n > 0 && updates[n - 1].diff == 0) --n;
      if (n != i) updates[n] = std::move(updates[i]);
      ++n;
    }
  }
  if (n > 0 && updates[n - 1].diff == 0) --n;
  updates.erase(updates.begin() + static_cast<ptrdiff_t>(n), updates.end());
  return absl::OkStatus();
}

absl::Status Trace::Merge(Batch& older, Batch newer, bool eager,
                          bool keep_empty, CancelledKeys* cancelled) {
  Batch out;
  out.keys.reserve(older.keys.size() + newer.keys.size());
  out.ends.reserve(older.keys.size() + newer.keys.size());
  out.prefixes.reserve(older.keys.size() + newer.keys.size());
  out.updates.reserve(older.updates.size() + newer.updates.size());
  std::vector<Update> group;
  auto take = [&](Batch& from, size_t k) {
    for (size_t u = from.Begin(k); u < from.ends[k]; ++u) {
      group.push_back(std::move(from.updates[u]));
    }
  };
  size_t i = 0, j = 0;
  while (i < older.keys.size() || j < newer.keys.size()) {
    std::strong_ordering c = std::strong_ordering::less;
    if (i == older.keys.size()) {
      c = std::strong_ordering::greater;
    } else if (j < newer.keys.size()) {
      c = CompareKeys(older.prefixes[i], older.keys[i], newer.prefixes[j],
                      newer.keys[j]);
    }
    if (c < 0) {
      take(older, i);
      out.AppendKey(std::move(older.keys[i]), older.prefixes[i], group,
                    keep_empty);
      ++i;
    } else if (c > 0) {
      take(newer, j);
      out.AppendKey(std::move(newer.keys[j]), newer.prefixes[j], group,
                    keep_empty);
      ++j;
    } else {
      take(older, i);
      const size_t from_newer = group.size();
      take(newer, j);
      // The newer batch's values that are its key keep that key's
      // representation (-0.0 where the older batch holds 0.0).
      if (!IdenticalRows(older.keys[i], newer.keys[j])) {
        for (size_t u = from_newer; u < group.size(); ++u) {
          if (group[u].val == nullptr) {
            group[u].val.reset(new DataRow(newer.keys[j]));
          }
        }
      }
      uint64_t latest = 0;
      for (const Update& u : group) latest = std::max(latest, u.round);
      LIR_RETURN_IF_ERROR(ConsolidateKey(older.keys[i], group, eager));
      if (group.empty() && eager && cancelled != nullptr) {
        cancelled->emplace_back(std::move(older.keys[i++]), latest);
      } else {
        out.AppendKey(std::move(older.keys[i]), older.prefixes[i], group,
                      keep_empty);
        ++i;
      }
      ++j;
    }
  }
  older = std::move(out);
  return absl::OkStatus();
}

void Trace::Append(DataRow key, const KeyPrefix* known, const DataRow* val_ref,
                   DataRow* val_owned, uint64_t round, int64_t diff) {
  ++updates_inserted_;
  inserted_this_round_ = true;
  Update u;
  u.round = round;
  u.diff = diff;
  const DataRow* val = val_owned != nullptr ? val_owned : val_ref;
  if (val != nullptr && !IdenticalRows(*val, key)) {
    if (val->empty()) {
      u.val.reset(&EmptyRow());
    } else if (val_owned != nullptr) {
      u.val.reset(new DataRow(std::move(*val_owned)));
    } else {
      u.val.reset(new DataRow(*val_ref));
    }
  }
  const KeyPrefix prefix = known != nullptr ? *known : KeyPrefix::Of(key);
  if (open_sorted_ && !open_.empty() &&
      CompareKeys(prefix, key, open_.back().prefix, open_.back().key) < 0) {
    open_sorted_ = false;
  }
  open_.push_back({std::move(key), prefix, std::move(u)});
}

absl::Status Trace::Insert(const DataRow& key, const DataRow& val,
                           uint64_t round, int64_t diff) {
  if (diff != 0) Append(key, nullptr, &val, nullptr, round, diff);
  return absl::OkStatus();
}

absl::Status Trace::Insert(DataRow&& key, const DataRow& val, uint64_t round,
                           int64_t diff) {
  if (diff == 0) return absl::OkStatus();
  // `val` may be `key` itself, which is about to move.
  if (&val == &key) {
    Append(std::move(key), nullptr, nullptr, nullptr, round, diff);
  } else {
    Append(std::move(key), nullptr, &val, nullptr, round, diff);
  }
  return absl::OkStatus();
}

absl::Status Trace::Insert(const KeyRef& key, const DataRow& val,
                           uint64_t round, int64_t diff) {
  if (diff != 0) Append(*key.row, &key.prefix, &val, nullptr, round, diff);
  return absl::OkStatus();
}

Trace::BatchInserter::BatchInserter(Trace& trace, uint64_t round,
                                    size_t expected)
    : trace_(trace), round_(round) {
  trace_.Reserve(expected);
}

absl::Status Trace::BatchInserter::Add(DataRow key, const DataRow& val,
                                       int64_t diff) {
  if (diff != 0)
    trace_.Append(std::move(key), nullptr, &val, nullptr, round_, diff);
  return absl::OkStatus();
}

absl::Status Trace::BatchInserter::AddOwned(DataRow key, DataRow val,
                                            int64_t diff) {
  if (diff != 0)
    trace_.Append(std::move(key), nullptr, nullptr, &val, round_, diff);
  return absl::OkStatus();
}

void Trace::Reserve(size_t updates) { open_.reserve(open_.size() + updates); }

absl::Status Trace::Seal() const {
  if (open_.empty()) return sticky_;
  BigVector<OpenUpdate> open = std::move(open_);
  open_.clear();
  if (!open_sorted_) {
    // Stable: of equal keys, the first inserted is the round's key.
    std::vector<uint32_t> order(open.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return CompareKeys(open[a].prefix, open[a].key, open[b].prefix,
                         open[b].key) < 0;
    });
    BigVector<OpenUpdate> sorted;
    sorted.reserve(open.size());
    for (uint32_t i : order) sorted.push_back(std::move(open[i]));
    open = std::move(sorted);
  }
  open_sorted_ = true;
  ++generation_;
  Batch fresh;
  fresh.keys.reserve(open.size());
  fresh.ends.reserve(open.size());
  fresh.updates.reserve(open.size());
  fresh.prefixes.reserve(open.size());
  std::vector<Update> group;
  for (size_t i = 0; i < open.size();) {
    size_t j = i + 1;
    while (j < open.size() && CompareKeys(open[j].prefix, open[j].key,
                                          open[i].prefix, open[i].key) == 0) {
      ++j;
    }
    group.push_back(std::move(open[i].update));
    for (size_t k = i + 1; k < j; ++k) {
      Update u = std::move(open[k].update);
      // A value that is its key keeps that insertion's representation.
      if (u.val == nullptr && !IdenticalRows(open[k].key, open[i].key)) {
        u.val.reset(new DataRow(std::move(open[k].key)));
      }
      group.push_back(std::move(u));
    }
    if (group.size() > 1 || group[0].diff == 0) {
      absl::Status s = ConsolidateKey(open[i].key, group, /*eager=*/false);
      if (!s.ok() && sticky_.ok()) sticky_ = s;
    }
    fresh.AppendKey(std::move(open[i].key), open[i].prefix, group,
                    /*keep_empty=*/true);
    i = j;
  }
  if (round_batch_.keys.empty()) {
    round_batch_ = std::move(fresh);
  } else {
    absl::Status s = Merge(round_batch_, std::move(fresh), /*eager=*/false,
                           /*keep_empty=*/true);
    if (!s.ok() && sticky_.ok()) sticky_ = s;
  }
  return sticky_;
}

template <typename F>
absl::Status Trace::ForEachUpdate(const KeyRef& key, F f) const {
  if (!open_sorted_) LIR_RETURN_IF_ERROR(Seal());
  LIR_RETURN_IF_ERROR(sticky_);
  const DataRow& row = *key.row;
  const KeyPrefix& prefix = key.prefix;
  auto visit = [&](const Batch& b, size_t at) -> absl::Status {
    for (size_t u = b.Begin(at); u < b.ends[at]; ++u) {
      const Update& up = b.updates[u];
      LIR_RETURN_IF_ERROR(f(b.ValOf(at, up), up.round, up.diff));
    }
    return absl::OkStatus();
  };
  for (const Batch& b : history_) {
    const size_t at = b.Find(row, prefix);
    if (at != kAbsent) LIR_RETURN_IF_ERROR(visit(b, at));
  }
  const size_t at = key.owner == this && key.generation == generation_
                        ? key.position
                        : round_batch_.Find(row, prefix);
  if (at != kAbsent) LIR_RETURN_IF_ERROR(visit(round_batch_, at));
  // The open updates are in key order: only a key not above the last can
  // be among them.
  auto before = [&](const OpenUpdate& o) {
    return CompareKeys(o.prefix, o.key, prefix, row) < 0;
  };
  if (!open_.empty() && !before(open_.back())) {
    auto it = std::partition_point(open_.begin(), open_.end(), before);
    for (; it != open_.end() &&
           CompareKeys(it->prefix, it->key, prefix, row) == 0;
         ++it) {
      const Update& up = it->update;
      LIR_RETURN_IF_ERROR(
          f(up.val == nullptr ? it->key : *up.val, up.round, up.diff));
    }
  }
  return absl::OkStatus();
}

absl::Status Trace::CollectRefs(const KeyRef& key, uint64_t before,
                                RefMultiset& out) const {
  LIR_RETURN_IF_ERROR(
      ForEachUpdate(key, [&](const DataRow& val, uint64_t round, int64_t diff) {
        if (round < before) out.emplace_back(&val, diff);
        return absl::OkStatus();
      }));
  if (out.size() > 1) {
    // Stable: of equal values, the oldest representation is kept.
    StableSortFew(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return *a.first < *b.first;
    });
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

absl::Status Trace::ReadRefs(const KeyRef& key, uint64_t before,
                             RefMultiset& out) const {
  out.clear();
  return CollectRefs(key, before, out);
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
  previous_.clear();
  if (!absent) LIR_RETURN_IF_ERROR(CollectRefs(key, round + 1, previous_));
  // desired - previous, merged in row order. The changed rows are copied
  // out before any is inserted: `previous_` points into this trace.
  const RefMultiset& previous = previous_;
  size_t i = 0, j = 0;
  while (i < desired.size() || j < previous.size()) {
    if (j == previous.size() ||
        (i < desired.size() && *desired[i].first < *previous[j].first)) {
      take(i, desired[i].second);
      ++i;
    } else if (i == desired.size() || *previous[j].first < *desired[i].first) {
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
  for (size_t e = first; e < emitted.size(); ++e) {
    Append(*key.row, &key.prefix, &emitted[e].first, nullptr, round,
           emitted[e].second);
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
  LIR_RETURN_IF_ERROR(
      ForEachUpdate(key, [&](const DataRow&, uint64_t round, int64_t diff) {
        return round < before ? AddDiff(total, diff) : absl::OkStatus();
      }));
  return total;
}

absl::StatusOr<Trace::Counts> Trace::CountsAt(const KeyRef& key,
                                              uint64_t round) const {
  Counts counts;
  LIR_RETURN_IF_ERROR(
      ForEachUpdate(key, [&](const DataRow&, uint64_t at, int64_t diff) {
        if (at < round) LIR_RETURN_IF_ERROR(AddDiff(counts.before, diff));
        if (at <= round) LIR_RETURN_IF_ERROR(AddDiff(counts.through, diff));
        return absl::OkStatus();
      }));
  return counts;
}

absl::StatusOr<Multiset> Trace::ReadAll(uint64_t before) const {
  LIR_RETURN_IF_ERROR(Seal());
  std::vector<RowDiff> rows;
  auto add = [&](const Batch& b) {
    for (size_t k = 0; k < b.keys.size(); ++k) {
      for (size_t u = b.Begin(k); u < b.ends[k]; ++u) {
        const Update& up = b.updates[u];
        if (up.round < before) rows.emplace_back(b.ValOf(k, up), up.diff);
      }
    }
  };
  for (const Batch& b : history_) add(b);
  add(round_batch_);
  return Consolidate(std::move(rows));
}

std::vector<KeyRef> Trace::TouchedKeyRefs() const {
  // An overflow is reported by the next read or EndRound.
  (void)Seal();
  std::vector<KeyRef> keys;
  keys.reserve(round_batch_.keys.size());
  for (size_t i = 0; i < round_batch_.keys.size(); ++i) {
    keys.emplace_back(round_batch_.keys[i], round_batch_.prefixes[i], this, i,
                      generation_);
  }
  return keys;
}

std::vector<DataRow> Trace::TouchedKeys() const {
  std::vector<DataRow> keys;
  for (const KeyRef& k : TouchedKeyRefs()) keys.push_back(*k.row);
  return keys;
}

size_t Trace::touched_count() const {
  (void)Seal();
  return round_batch_.keys.size();
}

bool Trace::empty() const {
  (void)Seal();
  if (!round_batch_.updates.empty()) return false;
  for (const Batch& b : history_) {
    if (!b.updates.empty()) return false;
  }
  return true;
}

bool Trace::AllTouched() const {
  (void)Seal();
  size_t held = 0;
  for (const Batch& b : history_) held += b.keys.size();
  if (held > round_batch_.keys.size()) return false;
  // Every key of every ended round's batch is among the round's keys.
  for (const Batch& b : history_) {
    size_t t = 0;
    const Batch& rb = round_batch_;
    for (size_t k = 0; k < b.keys.size(); ++k) {
      auto order = [&] {
        return CompareKeys(rb.prefixes[t], rb.keys[t], b.prefixes[k],
                           b.keys[k]);
      };
      while (t < rb.keys.size() && order() < 0) ++t;
      if (t == rb.keys.size() || order() != 0) return false;
    }
  }
  return true;
}

void Trace::MoveToRound(const DataRow& key, uint64_t round, size_t batches) {
  for (size_t b = 0; b < batches; ++b) {
    Batch& batch = history_[b];
    const size_t at = batch.Find(key);
    if (at == kAbsent) continue;
    for (size_t u = batch.Begin(at); u < batch.ends[at]; ++u) {
      batch.updates[u].round = round;
    }
  }
}

absl::Status Trace::MergeHistory(bool eager) {
  CancelledKeys cancelled;
  while (history_.size() >= 2) {
    Batch& newest = history_.back();
    const size_t into = history_.size() - 2;
    if (2 * newest.updates.size() < history_[into].updates.size()) break;
    // A key that cancels in the merge is dropped; the batches before the
    // merged pair may hold it, and eager compaction moves their updates
    // of it to its latest round (as a slot compacted then would hold).
    cancelled.clear();
    LIR_RETURN_IF_ERROR(Merge(history_[into], std::move(newest), eager,
                              /*keep_empty=*/false,
                              into > 0 ? &cancelled : nullptr));
    history_.pop_back();
    for (const auto& [key, round] : cancelled) MoveToRound(key, round, into);
    if (history_.back().keys.empty()) history_.pop_back();
  }
  return absl::OkStatus();
}

absl::Status Trace::EndRound(uint64_t round, Compaction compaction) {
  LIR_RETURN_IF_ERROR(Seal());
  std::vector<spine::Record> spine_batch;
  // The round's batch is read before compaction rewrites rounds.
  if (spine_ != nullptr) spine_batch = RoundRecords(round);
  const bool eager = compaction == Compaction::kEager;
  Batch& rb = round_batch_;
  if (eager) {
    // A touched key's updates all move to this round; a key whose round
    // updates cancelled has none here, so its older ones move now.
    for (size_t k = 0; k < rb.keys.size(); ++k) {
      if (rb.Begin(k) == rb.ends[k]) {
        MoveToRound(rb.keys[k], round, history_.size());
      }
    }
    for (Update& u : rb.updates) u.round = round;
  } else if (inserted_this_round_ &&
             std::any_of(rb.updates.begin(), rb.updates.end(),
                         [&](const Update& u) { return u.round == round; })) {
    // A round whose updates all cancelled within it leaves no batch.
    ++rounds_stored_;
  }
  if (!rb.updates.empty()) {
    bool cancelled = false;  // a key whose round updates cancelled
    for (size_t k = 0; k < rb.keys.size() && !cancelled; ++k) {
      cancelled = rb.Begin(k) == rb.ends[k];
    }
    if (cancelled) {
      // Such keys are not kept past the round.
      Batch kept;
      LIR_RETURN_IF_ERROR(Merge(kept, std::move(rb), /*eager=*/false,
                                /*keep_empty=*/false));
      history_.push_back(std::move(kept));
    } else {
      history_.push_back(std::move(rb));
    }
  }
  round_batch_ = Batch();
  ++generation_;
  LIR_RETURN_IF_ERROR(MergeHistory(eager));
  eager_ = eager;
  ended_holding_ = !history_.empty();
  inserted_this_round_ = false;
  if (spine_ != nullptr) FeedSpine(round, compaction, std::move(spine_batch));
  return absl::OkStatus();
}

}  // namespace lir::eval
