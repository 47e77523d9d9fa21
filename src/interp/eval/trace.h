// The arrangement trace of the incremental engine: an index of updates
// (key, value, round, diff) by key, with a compaction policy and the size
// statistics of docs/evaluator.md ("Arrangement layout model").
#ifndef LIR_INTERP_EVAL_TRACE_H_
#define LIR_INTERP_EVAL_TRACE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/interp/eval/dataflow.h"
#include "src/interp/eval/datum.h"
#include "src/lir/node.h"

namespace lir::eval {

/// Bytes one datum takes in the layout model: a tag byte plus its payload
/// (8 for integers and floats, 0 for NULL and booleans, a varint length and
/// the bytes for strings).
uint64_t EncodedDatumBytes(const Datum& datum);

/// Bytes of a row in the layout model: the sum of its datums.
uint64_t EncodedRowBytes(const DataRow& row);

/// Fixed bytes per record beyond its key and value: time and diff.
inline constexpr uint64_t kRecordOverheadBytes = 16;
/// Fixed bytes per batch (its bounds and description).
inline constexpr uint64_t kBatchOverheadBytes = 64;

/// Whether `a` and `b` hold the same datums with the same representation
/// (unlike `==`, tells -0.0 from 0.0 and NaN payloads apart).
bool IdenticalRows(const DataRow& a, const DataRow& b);

/// The hash every trace indexes keys by (absl::Hash of the row).
inline size_t HashRow(const DataRow& row) { return absl::Hash<DataRow>{}(row); }

/// A key row with its HashRow, so that a key read from one trace is looked
/// up in another without hashing it again.
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

/// Values with diffs that point into a trace (or elsewhere): a multiset
/// read without copying rows.
using RefMultiset = std::vector<std::pair<const DataRow*, int64_t>>;

/// One arrangement: updates indexed by key. Values are stored as full rows
/// (every trace of this engine can rebuild its consumer's row from them);
/// `value_columns`, when set, names the row columns the real arrangement
/// keeps as its value (its thinning), and only those count in `bytes`.
///
/// Keys live in slots (one per distinct key, with its hash and updates)
/// indexed by a hash set of slot numbers, so a key is stored once, the
/// touched keys of a round are slot numbers, and a value identical to its
/// key is not stored a second time.
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
                   bool absent = false);

  /// The values at `key` with their summed diffs over updates at rounds
  /// `< before`, consolidated (sorted, no zeros).
  absl::StatusOr<Multiset> Read(const DataRow& key, uint64_t before) const;

  /// As Read, into `out` (cleared first), pointing into the trace: valid
  /// until the trace is next modified.
  absl::Status ReadRefs(const KeyRef& key, uint64_t before,
                        RefMultiset& out) const;

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

  /// Records, batches and modelled bytes now.
  ArrangementStats Stats(const std::string& object) const;

  uint64_t records() const { return records_; }
  /// Whether the trace holds no key at all.
  bool empty() const { return index_.empty(); }
  const Info& info() const { return info_; }

 private:
  struct Update {
    /// Empty when `val_is_key`.
    DataRow val;
    uint64_t round = 0;
    int64_t diff = 0;
    /// The value is identical to the slot's key and not stored again.
    bool val_is_key = false;
  };
  struct Slot {
    DataRow key;
    size_t hash = 0;
    absl::InlinedVector<Update, 1> updates;
    bool touched = false;
  };
  // Hashes and compares slot numbers by their keys; KeyRef probes find them.
  struct SlotHash {
    using is_transparent = void;
    const std::vector<Slot>* slots;
    size_t operator()(uint32_t s) const { return (*slots)[s].hash; }
    size_t operator()(const KeyRef& k) const { return k.hash; }
  };
  struct SlotEq {
    using is_transparent = void;
    const std::vector<Slot>* slots;
    bool operator()(uint32_t a, uint32_t b) const { return a == b; }
    bool operator()(uint32_t a, const KeyRef& k) const {
      const Slot& s = (*slots)[a];
      return s.hash == k.hash && s.key == *k.row;
    }
    bool operator()(const KeyRef& k, uint32_t a) const { return (*this)(a, k); }
  };

  const DataRow& ValOf(const Slot& slot, const Update& u) const {
    return u.val_is_key ? slot.key : u.val;
  }
  const Slot* Find(const KeyRef& key) const;
  /// ReadRefs of one slot.
  absl::Status ReadSlot(const Slot& s, uint64_t before, RefMultiset& out) const;
  /// The slot of `key`, created when absent (moving `*owned` in when given).
  uint32_t SlotFor(const KeyRef& key, DataRow* owned);
  absl::Status InsertAt(uint32_t slot, const DataRow& key, const DataRow& val,
                        uint64_t round, int64_t diff);
  void FreeSlot(uint32_t slot);

  Info info_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  absl::flat_hash_set<uint32_t, SlotHash, SlotEq> index_;
  /// Slots that received updates since the last EndRound, in order of first
  /// update.
  std::vector<uint32_t> touched_;
  /// A touched key first inserted this round in a representation other than
  /// its slot's (-0.0 for 0.0): the round's key is that one.
  absl::flat_hash_map<uint32_t, DataRow> touched_as_;
  /// Scratch space of Set.
  RefMultiset previous_;
  uint64_t records_ = 0;
  /// kNone: the number of rounds that added updates; kEager: 0 or 1.
  uint64_t batches_ = 0;
  bool inserted_this_round_ = false;
};

}  // namespace lir::eval

#endif  // LIR_INTERP_EVAL_TRACE_H_
