// The arrangement trace of the incremental engine: an index of updates
// (key, value, round, diff) by key, with a compaction policy and the size
// statistics of docs/evaluator.md ("Arrangement layout model").
#ifndef LIR_EVAL_TRACE_H_
#define LIR_EVAL_TRACE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/eval/spine.h"
#include "lir/node.h"
#include "src/eval/big_alloc.h"
#include "src/eval/stable_vector.h"

namespace lir::eval {

/// Bytes one datum takes in the layout model: a tag byte plus its payload
/// (8 for integers and floats, 0 for NULL and booleans, a varint length and
/// the bytes for strings, a varint length and the encoded elements for
/// lists and arrays).
uint64_t EncodedDatumBytes(const Datum& datum);

/// Bytes of a row in the layout model: the sum of its datums.
uint64_t EncodedRowBytes(const DataRow& row);

/// Whether `a` and `b` hold the same datums with the same representation
/// (unlike `==`, tells -0.0 from 0.0 and NaN payloads apart).
bool IdenticalRows(const DataRow& a, const DataRow& b);

/// The hash every trace indexes keys by (absl::Hash of the row).
inline size_t HashRow(const DataRow& row) { return absl::Hash<DataRow>{}(row); }

/// A key row with its HashRow, so that a key read from one trace is looked
/// up in another without hashing it again. Traces index by the hash's low 32
/// bits, and the refs they hand out carry only those.
struct KeyRef {
  const DataRow* row = nullptr;
  size_t hash = 0;
  /// The trace the key was read from and its slot there, which that trace
  /// then finds without a lookup (null: none).
  const class Trace* owner = nullptr;
  uint32_t slot = 0;

  explicit KeyRef(const DataRow& r) : row(&r), hash(HashRow(r)) {}
  KeyRef(const DataRow& r, size_t h, const class Trace* t, uint32_t s)
      : row(&r), hash(h), owner(t), slot(s) {}
};

/// The 128-bit fingerprint (high, low) of an update's (key, stored value)
/// that a trace's spine records carry (spine::Record): two absl hashes of
/// the pair with different salts. Consistent with `==` on rows (-0.0 and
/// 0.0 alike), as the trace's own consolidation is.
std::pair<uint64_t, uint64_t> UpdateFingerprint(const DataRow& key,
                                                const DataRow& val);

/// Values with diffs that point into a trace (or elsewhere): a multiset
/// read without copying rows.
using RefMultiset = std::vector<std::pair<const DataRow*, int64_t>>;

/// One arrangement: updates indexed by key. Values are stored as full rows
/// (every trace of this engine can rebuild its consumer's row from them);
/// `value_columns`, when set, names the row columns the real arrangement
/// keeps as its value (its thinning), and only those count in `bytes`.
///
/// Keys live in slots (one per distinct key, with its hash and updates)
/// indexed by a hash set of slot numbers (each with its key's hash), so a
/// key is stored once, the touched keys of a round are slot numbers, and a
/// value identical to its key is not stored a second time. Slots and index
/// live in BigAllocator memory.
class Trace {
 public:
  /// Identity reported with the statistics.
  struct Info {
    std::string operator_name;
    LirId lir_id = 0;
    bool adapter = false;
    /// Columns of the stored value that the modelled layout keeps;
    /// nullopt: all of them.
    std::optional<std::vector<int>> value_columns;
    /// When value_columns is nullopt: leading columns of the stored value
    /// that the layout keeps in the key instead (a Reduce output's group
    /// key).
    size_t value_skip = 0;
  };

  explicit Trace(Info info);
  // The slot index refers to this trace's storage.
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  /// Adds `diff` copies of (key, val) at `round` (rounds never decrease).
  /// Updates to the same (key, val) in the same round merge into one record.
  absl::Status Insert(const DataRow& key, const DataRow& val, uint64_t round,
                      int64_t diff);
  /// As above; `key` is moved into the trace when it is new.
  absl::Status Insert(DataRow&& key, const DataRow& val, uint64_t round,
                      int64_t diff);
  /// As above, with the key's hash known.
  absl::Status Insert(const KeyRef& key, const DataRow& val, uint64_t round,
                      int64_t diff);

  /// Inserts a stream of updates at one round, as Insert would one by one
  /// and in the same order, but a few updates behind: each key is hashed
  /// and its index entries fetched when it is added, so they are cached by
  /// the time it is inserted. Finish inserts the rest (nothing is inserted
  /// on destruction).
  class BatchInserter {
   public:
    /// Reserves room for `expected` new keys.
    BatchInserter(Trace& trace, uint64_t round, size_t expected);
    BatchInserter(const BatchInserter&) = delete;
    BatchInserter& operator=(const BatchInserter&) = delete;

    /// Queues `diff` copies of (`key`, `val`); `val` must stay valid until
    /// Finish. `key` is moved into the trace when new.
    absl::Status Add(DataRow key, const DataRow& val, int64_t diff) {
      return Push(std::move(key), DataRow(), &val, diff);
    }
    /// As Add, the batch keeping `val` itself.
    absl::Status AddOwned(DataRow key, DataRow val, int64_t diff) {
      return Push(std::move(key), std::move(val), nullptr, diff);
    }
    /// Inserts every queued update.
    absl::Status Finish();
    /// Finish for a caller that failed with `error` after its last Add:
    /// the queued updates precede the failure, so they are inserted, and
    /// the first error is returned (theirs, else `error`).
    absl::Status FinishWith(absl::Status error);

   private:
    // How many updates are held back: enough to hide a cache miss, few
    // enough that the fetched lines are still cached when used.
    static constexpr size_t kAhead = 16;
    struct Pending {
      DataRow key;
      DataRow val;
      /// The value when not owned (`val` is then empty).
      const DataRow* val_ref = nullptr;
      int64_t diff = 0;
      size_t hash = 0;
    };
    absl::Status Push(DataRow key, DataRow val, const DataRow* val_ref,
                      int64_t diff);
    absl::Status InsertPending(Pending& p);

    Trace& trace_;
    uint64_t round_;
    Pending ring_[kAhead];
    /// Queued updates are ring_[(head_ + i) % kAhead] for i < size_.
    size_t head_ = 0;
    size_t size_ = 0;
  };

  /// A cold lookup misses the cache three times, each on an address the
  /// previous miss supplies: the index entry, then the key's slot, then the
  /// key row the slot points to (compared to tell the key from another of
  /// the same hash). A loop over keys prefetches them in stages, each at a
  /// shorter distance ahead of the lookup (PrefetchAhead), so each stage
  /// reads only what the one before fetched. (On the EXCEPT A/B the slot and
  /// key-row stages took 13% off the retraction round; the index stage's
  /// own loads still stall, docs/evaluator.md.)
  enum class PrefetchStage {
    kIndex,   ///< the index entries
    kSlot,    ///< the slot, found in the (fetched) index by hash alone
    kKeyRow,  ///< the (fetched) slot's key row and first stored value
  };
  /// One stage of prefetching a lookup of `key` (a hint; no effect on
  /// results). Nothing for a key this trace handed out (its slot is known).
  void Prefetch(const KeyRef& key, PrefetchStage stage) const;

  /// Makes room for `keys` more keys before a batch of inserts (growing at
  /// least geometrically), so the index is not rebuilt during it; a batch
  /// smaller than the trace is left to grow it as needed.
  void Reserve(size_t keys);

  /// Makes the trace hold `desired` (consolidated; rows are the stored
  /// values) at `key` from round `round` on: inserts the difference to what
  /// it holds over rounds `<= round` and appends it to `emitted`.
  /// `absent`: the caller knows the trace holds nothing at `key` (it was
  /// empty when the caller began setting distinct keys), which spares the
  /// lookup.
  absl::Status Set(const KeyRef& key, const RefMultiset& desired,
                   uint64_t round, std::vector<RowDiff>& emitted,
                   bool absent = false) {
    return SetRows(key, desired, nullptr, round, emitted, absent);
  }
  /// As Set, with `desired` owned by the caller and consumed: rows that are
  /// emitted move into `emitted` instead of being copied.
  absl::Status SetOwned(const KeyRef& key, Multiset& desired, uint64_t round,
                        std::vector<RowDiff>& emitted, bool absent = false);

  /// The values at `key` with their summed diffs over updates at rounds
  /// `< before`, consolidated (sorted, no zeros).
  absl::StatusOr<Multiset> Read(const DataRow& key, uint64_t before) const;

  /// As Read, into `out` (cleared first), pointing into the trace: valid
  /// until the trace is next modified.
  absl::Status ReadRefs(const KeyRef& key, uint64_t before,
                        RefMultiset& out) const;

  /// The summed diffs of every value at a key over rounds before a round
  /// and through it.
  struct Counts {
    int64_t before = 0;
    int64_t through = 0;
  };
  /// Counts of `key` before and through `round`, in one pass.
  absl::StatusOr<Counts> CountsAt(const KeyRef& key, uint64_t round) const;

  /// The summed diff of every value at `key` over rounds `< before`.
  absl::StatusOr<int64_t> Count(const DataRow& key, uint64_t before) const;
  absl::StatusOr<int64_t> Count(const KeyRef& key, uint64_t before) const;

  /// Every (key, val) accumulated over rounds `< before`, as rows
  /// `val` (the key is a function of the value in every trace of this
  /// engine), consolidated.
  absl::StatusOr<Multiset> ReadAll(uint64_t before) const;

  /// Keys that received updates since the last EndRound, ascending.
  std::vector<DataRow> TouchedKeys() const;

  /// As TouchedKeys, pointing into the trace: valid until the trace is next
  /// modified. Each key is as first inserted this round.
  std::vector<KeyRef> TouchedKeyRefs() const;

  /// Ends round `round`: applies `compaction` (kEager consolidates every
  /// touched key to this round and drops cancelled records) and forgets the
  /// touched keys.
  absl::Status EndRound(uint64_t round, Compaction compaction);

  /// Records, batches and modelled bytes now (and the spine's figures when
  /// it keeps one).
  ArrangementStats Stats(const std::string& object) const;

  /// Keeps a spine beside the trace (SpineOptions, dataflow.h): every
  /// EndRound then feeds it the round's updates, fingerprinted
  /// (UpdateFingerprint) and consolidated, as one batch (an empty one when
  /// the round brought none), with the compaction frontier at the round
  /// under kEager, then takes up to `idle_turns` idle turns. Call before
  /// the first EndRound. The trace itself is unchanged by it.
  void EnableSpine(const SpineOptions& options);
  /// Closes the spine's input (its last frontier: ActivateClose, then up to
  /// `idle_turns` idle turns) and, with SpineOptions::verify, checks that
  /// it holds the trace's updates through the last ended round. No-op
  /// without a spine or once closed.
  void CloseSpine();
  /// The spine, or null when the trace keeps none.
  const spine::Spine* spine() const {
    return spine_ == nullptr ? nullptr : &spine_->spine;
  }
  /// Every update the trace holds at rounds through `through` as a spine
  /// record (UpdateFingerprint, round, diff), consolidated: what the
  /// spine's batches must add up to, summed over time.
  std::vector<spine::Record> SpineRecords(uint64_t through) const;

  uint64_t records() const { return records_; }
  /// How many keys received updates since the last EndRound.
  size_t touched_count() const { return touched_.size(); }
  /// Whether every key the trace holds received updates since the last
  /// EndRound: a key not among TouchedKeyRefs is then absent.
  bool AllTouched() const {
    return index_.size() - tombstones_ == touched_.size();
  }
  /// Whether the trace holds no key at all.
  bool empty() const { return index_.size() == tombstones_; }
  const Info& info() const { return info_; }

 private:
  /// An empty value (the value of a Distinct's input arrangement, with no
  /// columns beyond its key) shared by every update that has one.
  static const DataRow& EmptyRow() {
    static const DataRow* const empty = new DataRow();
    return *empty;
  }
  /// Deletes a stored value unless it is the shared EmptyRow.
  struct ValDeleter {
    void operator()(const DataRow* row) const {
      if (row != &EmptyRow()) delete row;
    }
  };
  struct Update {
    uint64_t round = 0;
    int64_t diff = 0;
    /// The value; null when it is identical to the slot's key, which is
    /// then not stored a second time (every value of a set-like trace).
    std::unique_ptr<const DataRow, ValDeleter> val;
  };
  struct Slot {
    DataRow key;
    /// IndexHash of the key.
    uint32_t hash = 0;
    bool touched = false;
    /// Holds no update and is not touched, but keeps its key and index
    /// entry until a sweep (Compact).
    bool tombstone = false;
    /// Room for two updates in the slot: a key's compacted update and the
    /// round's change to it (a retraction) then need no heap block, which
    /// made a retraction cost 2-3x a loaded update (a heap block per key).
    absl::InlinedVector<Update, 2> updates;
  };
  // The slot array is most of a large trace's memory: keep it this size.
  static_assert(sizeof(Update) == 24);
  // The index holds entries (IndexHash << 32 | slot number): probes, rehashes
  // and erasures read the hash from the entry, and only a candidate whose
  // hash matches has its slot's key compared.
  static uint32_t IndexHash(size_t hash) { return static_cast<uint32_t>(hash); }
  static uint64_t Entry(uint32_t hash, uint32_t slot) {
    return (static_cast<uint64_t>(hash) << 32) | slot;
  }
  static uint32_t EntrySlot(uint64_t entry) {
    return static_cast<uint32_t>(entry);
  }
  /// A probe that matches any entry with this IndexHash, without reading
  /// slots (FindSlotByHash).
  struct HashProbe {
    uint32_t hash;
  };
  struct SlotHash {
    using is_transparent = void;
    size_t operator()(uint64_t entry) const { return entry >> 32; }
    size_t operator()(const KeyRef& k) const { return IndexHash(k.hash); }
    size_t operator()(HashProbe p) const { return p.hash; }
  };
  struct SlotEq {
    using is_transparent = void;
    const StableVector<Slot>* slots;
    bool operator()(uint64_t a, uint64_t b) const { return a == b; }
    bool operator()(uint64_t a, const KeyRef& k) const {
      return (a >> 32) == IndexHash(k.hash) &&
             (*slots)[EntrySlot(a)].key == *k.row;
    }
    bool operator()(const KeyRef& k, uint64_t a) const { return (*this)(a, k); }
    bool operator()(uint64_t a, HashProbe p) const {
      return (a >> 32) == p.hash;
    }
    bool operator()(HashProbe p, uint64_t a) const { return (*this)(a, p); }
  };

  const DataRow& ValOf(const Slot& slot, const Update& u) const {
    return u.val == nullptr ? slot.key : *u.val;
  }
  /// Fetch the index entries a lookup of `key` (of `entry`) reads.
  void PrefetchIndex(const KeyRef& key) const;
  void PrefetchEntry(uint64_t entry) const;
  /// The slot of the first index entry with `key`'s hash, or kNoSlot: the
  /// key's slot but for a hash collision (for prefetching only).
  uint32_t FindSlotByHash(const KeyRef& key) const;
  /// The slot number of `key`, or kNoSlot.
  uint32_t FindSlot(const KeyRef& key) const;
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  const Slot* Find(const KeyRef& key) const {
    const uint32_t slot = FindSlot(key);
    return slot == kNoSlot ? nullptr : &slots_[slot];
  }
  /// Set; when `owned` is given, `desired` points into it (in the same
  /// order) and emitted rows are moved out of it.
  absl::Status SetRows(const KeyRef& key, const RefMultiset& desired,
                       Multiset* owned, uint64_t round,
                       std::vector<RowDiff>& emitted, bool absent);
  /// ReadRefs of one slot.
  absl::Status ReadSlot(const Slot& s, uint64_t before, RefMultiset& out) const;
  /// The slot of `key`, created when absent (moving `*owned` in when given).
  uint32_t SlotFor(const KeyRef& key, DataRow* owned);
  absl::Status InsertAt(uint32_t slot, const DataRow& key, const DataRow& val,
                        uint64_t round, int64_t diff);
  void FreeSlot(uint32_t slot);
  /// Encoded bytes of the columns of `val` the modelled layout keeps
  /// (Info::value_columns, Info::value_skip).
  uint64_t KeptValueBytes(const DataRow& val) const;
  /// Stats' bytes: the updates held, laid out as differential's ordered
  /// batches (docs/evaluator.md, "Arrangement layout model").
  uint64_t ModelledBytes() const;
  /// EndRound's compaction and bookkeeping.
  absl::Status Compact(uint64_t round, Compaction compaction);
  /// Eager compaction of a slot's updates to `round`: one update per value,
  /// none with a zero diff.
  absl::Status CompactSlot(Slot& s, uint64_t round);
  /// Frees every tombstone's slot and index entry.
  void SweepTombstones();
  /// Tombstones are swept once there are more of them than live keys (and
  /// at least this many), so a sweep's cost is spread over their making.
  static constexpr size_t kMinTombstonesSwept = 1024;

  /// A spine kept beside the trace (trace_spine.cc).
  struct SpineState {
    SpineState(spine::Spine s, const SpineOptions& o)
        : spine(std::move(s)), options(o) {}
    spine::Spine spine;
    SpineOptions options;
    /// The last round EndRound fed (nullopt: none yet).
    std::optional<uint64_t> last_round;
    bool verified = false;
    std::optional<std::string> mismatch;
  };
  /// The updates of round `round` (touched slots only), consolidated.
  std::vector<spine::Record> RoundRecords(uint64_t round) const;
  /// Activates the spine with the round's batch, then idle turns.
  void FeedSpine(uint64_t round, Compaction compaction,
                 std::vector<spine::Record> batch);

  Info info_;
  StableVector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  absl::flat_hash_set<uint64_t, SlotHash, SlotEq, BigAllocator<uint64_t>>
      index_;
  /// Slots that received updates since the last EndRound, in order of first
  /// update.
  std::vector<uint32_t> touched_;
  /// A touched key first inserted this round in a representation other than
  /// its slot's (-0.0 for 0.0): the round's key is that one.
  absl::flat_hash_map<uint32_t, DataRow> touched_as_;
  /// Scratch space of Set and SetOwned.
  RefMultiset previous_;
  RefMultiset owned_refs_;
  /// Slots that are tombstones (Slot::tombstone).
  size_t tombstones_ = 0;
  uint64_t records_ = 0;
  /// ArrangementStats::updates_inserted.
  uint64_t updates_inserted_ = 0;
  /// kNone: the number of rounds that added updates; kEager: 0 or 1.
  uint64_t batches_ = 0;
  bool inserted_this_round_ = false;
  /// Whether the last EndRound compacted eagerly (the trace is then one
  /// batch; otherwise one per round).
  bool eager_ = false;
  std::unique_ptr<SpineState> spine_;
};

/// Prefetching for position `i` of a loop over `n` keys: runs every
/// Trace::PrefetchStage on the key it is due for: the index 16 keys ahead,
/// the slot 8 and the key row 4 (distances tried on the EXCEPT A/B; twice
/// these measured the same).
/// `stage(j, s)` prefetches the lookups of key `j` at stage `s`.
template <typename StageFn>
void PrefetchAhead(size_t i, size_t n, StageFn stage) {
  if (i + 16 < n) stage(i + 16, Trace::PrefetchStage::kIndex);
  if (i + 8 < n) stage(i + 8, Trace::PrefetchStage::kSlot);
  if (i + 4 < n) stage(i + 4, Trace::PrefetchStage::kKeyRow);
}

}  // namespace lir::eval

#endif  // LIR_EVAL_TRACE_H_
