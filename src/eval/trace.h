// The arrangement trace of the incremental engine: an index of updates
// (key, value, round, diff) by key, with a compaction policy and the size
// statistics of docs/evaluator.md ("Arrangement layout model").
#ifndef LIR_EVAL_TRACE_H_
#define LIR_EVAL_TRACE_H_

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/eval/spine.h"
#include "lir/node.h"
#include "src/eval/big_alloc.h"

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

/// A key's first datum summarized in two words whose order agrees with
/// the rows' (a smaller prefix, a smaller row), so that most comparisons
/// of keys read neither row: a batch keeps one per key beside the keys.
/// Equal prefixes decide equality only when `exact` (a one-datum row of
/// a kind whose payload the prefix holds whole: integers, timestamps,
/// dates, booleans, NULL).
struct KeyPrefix {
  /// 0 for the empty row, else the datum's kind (variant index) + 1.
  uint32_t kind = 0;
  bool exact = false;
  /// An order-preserving image of the payload (a string's first 8
  /// bytes, a float's ordered bits).
  uint64_t payload = 0;

  static KeyPrefix Of(const DataRow& row);
};
/// Rows `a` and `b` in Datum order, reading them only when their
/// prefixes do not decide.
inline std::strong_ordering CompareKeys(const KeyPrefix& pa, const DataRow& a,
                                        const KeyPrefix& pb, const DataRow& b) {
  if (pa.kind != pb.kind) return pa.kind <=> pb.kind;
  if (pa.payload != pb.payload) return pa.payload <=> pb.payload;
  if (pa.exact && pb.exact) return std::strong_ordering::equal;
  return a <=> b;
}

/// std::stable_sort, by insertion for the few elements a key usually has
/// (std::stable_sort allocates a buffer even for two).
template <typename It, typename Less>
void StableSortFew(It first, It last, Less less) {
  if (last - first > 16) {
    std::stable_sort(first, last, less);
    return;
  }
  for (It i = first + (first == last ? 0 : 1); i < last; ++i) {
    for (It j = i; j > first && less(*j, *(j - 1)); --j) {
      std::iter_swap(j, j - 1);
    }
  }
}

/// A key to look up, from a trace or elsewhere. A key read from a trace
/// (TouchedKeyRefs) also names its position there, which that trace then
/// uses without a search while it is unchanged.
struct KeyRef {
  const DataRow* row = nullptr;
  /// KeyPrefix::Of(*row), computed once for every trace it is looked up in.
  KeyPrefix prefix;
  /// The trace the key was read from and its position there (null: none).
  const class Trace* owner = nullptr;
  size_t position = 0;
  /// The owner's generation when the key was read: the position holds
  /// only while the owner's round batch is the same.
  uint64_t generation = 0;

  explicit KeyRef(const DataRow& r) : row(&r), prefix(KeyPrefix::Of(r)) {}
  KeyRef(const DataRow& r, const KeyPrefix& k, const class Trace* t, size_t p,
         uint64_t g)
      : row(&r), prefix(k), owner(t), position(p), generation(g) {}
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
/// Laid out as differential dataflow lays out an arrangement: a list of
/// immutable batches, each sorted by key (Datum order), merged as they
/// come when a new batch is at least half the size of the one before (so
/// a record is merged O(log n) times, and a small round is not merged into
/// a large arrangement). A round's updates are appended unsorted and sorted
/// into the round's batch when first read. Operators visit keys in
/// ascending order, so a lookup gallops forward from where the last one
/// ended in each batch: a round's lookups walk each batch once, in memory
/// order, instead of missing the cache at random per key as a hash index
/// does (issue 30's retraction profile, docs/evaluator.md).
///
/// Inserting only appends: a multiplicity overflow among a round's
/// updates is reported by the next read or EndRound.
///
/// Reads see the logical contents: the sum over batches. Eager compaction
/// is logical too (docs/evaluator.md): records, batches and bytes are
/// those of the consolidated trace, whatever merges are pending.
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
  // KeyRefs refer to this trace's storage.
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  /// Adds `diff` copies of (key, val) at `round` (rounds never decrease).
  /// Updates to the same (key, val) in the same round merge into one record.
  absl::Status Insert(const DataRow& key, const DataRow& val, uint64_t round,
                      int64_t diff);
  /// As above; `key` is moved into the trace.
  absl::Status Insert(DataRow&& key, const DataRow& val, uint64_t round,
                      int64_t diff);
  /// As above, for a key read elsewhere.
  absl::Status Insert(const KeyRef& key, const DataRow& val, uint64_t round,
                      int64_t diff);

  /// Inserts a stream of updates at one round, as Insert would one by one.
  class BatchInserter {
   public:
    /// Reserves room for `expected` updates.
    BatchInserter(Trace& trace, uint64_t round, size_t expected);
    BatchInserter(const BatchInserter&) = delete;
    BatchInserter& operator=(const BatchInserter&) = delete;

    /// Inserts `diff` copies of (`key`, `val`), moving `key` in.
    absl::Status Add(DataRow key, const DataRow& val, int64_t diff);
    /// As Add, moving `val` in too.
    absl::Status AddOwned(DataRow key, DataRow val, int64_t diff);
    /// Kept for callers written against a deferred inserter: every Add
    /// has already inserted.
    absl::Status Finish() { return absl::OkStatus(); }
    /// Returns `error` (what the caller failed with after its last Add).
    absl::Status FinishWith(absl::Status error) { return error; }

   private:
    Trace& trace_;
    uint64_t round_;
  };

  /// Makes room for `updates` more updates this round.
  void Reserve(size_t updates);

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

  /// Records of the consolidated trace (a walk over every batch).
  uint64_t records() const;
  /// How many keys received updates since the last EndRound.
  size_t touched_count() const;
  /// Whether every key the trace holds received updates since the last
  /// EndRound: a key not among TouchedKeyRefs is then absent. (False may
  /// also mean that a key it does not count as held, its updates
  /// cancelling across batches not yet merged, was not touched.)
  bool AllTouched() const;
  /// Whether the trace holds no update at all (false may also mean that
  /// every update it holds cancels with one in a batch not yet merged).
  bool empty() const;
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
    /// The value; null when it is identical to the key, which is then not
    /// stored a second time (every value of a set-like trace).
    std::unique_ptr<const DataRow, ValDeleter> val;
  };
  // Batches are mostly updates: keep them this size.
  static_assert(sizeof(Update) == 24);
  template <typename T>
  using BigVector = std::vector<T, BigAllocator<T, true>>;
  /// Updates sorted by key: each key once, ascending, with its updates.
  struct Batch {
    BigVector<DataRow> keys;
    /// KeyPrefix::Of of each key.
    BigVector<KeyPrefix> prefixes;
    /// ends[i]: one past key i's last update in `updates` (key i's start
    /// is ends[i - 1], or 0).
    BigVector<size_t> ends;
    BigVector<Update> updates;
    /// Where the last lookup ended: lookups in ascending key order gallop
    /// forward from it.
    mutable size_t cursor = 0;

    size_t Begin(size_t i) const { return i == 0 ? 0 : ends[i - 1]; }
    /// The position of `key`, or kAbsent.
    size_t Find(const DataRow& key) const {
      return Find(key, KeyPrefix::Of(key));
    }
    size_t Find(const DataRow& key, const KeyPrefix& prefix) const;
    const DataRow& ValOf(size_t key, const Update& u) const {
      return u.val == nullptr ? keys[key] : *u.val;
    }
    /// Appends `key` (with its prefix) with `updates` (moved out); a key
    /// with none is kept only when `keep_empty`.
    void AppendKey(DataRow key, const KeyPrefix& prefix,
                   std::vector<Update>& updates, bool keep_empty);
  };
  static constexpr size_t kAbsent = SIZE_MAX;
  /// An update inserted this round, not yet sorted into the round's batch.
  struct OpenUpdate {
    DataRow key;
    KeyPrefix prefix;
    Update update;
  };

  /// Appends an update (diff nonzero) to the open updates: the value is
  /// `*val_owned` (moved in), else `*val_ref`, else the key. `known`: the
  /// key's prefix when the caller has it.
  void Append(DataRow key, const KeyPrefix* known, const DataRow* val_ref,
              DataRow* val_owned, uint64_t round, int64_t diff);
  /// Sorts the open updates into the round's batch (a representation
  /// change only: const readers call it).
  absl::Status Seal() const;
  /// Calls `f(val, round, diff)` for every update at `key`, oldest batch
  /// first. Seals first unless the open updates are in key order (they
  /// are then searched as they are).
  template <typename F>
  absl::Status ForEachUpdate(const KeyRef& key, F f) const;
  /// ReadRefs without clearing `out` first.
  absl::Status CollectRefs(const KeyRef& key, uint64_t before,
                           RefMultiset& out) const;
  /// Set; when `owned` is given, `desired` points into it (in the same
  /// order) and emitted rows are moved out of it.
  absl::Status SetRows(const KeyRef& key, const RefMultiset& desired,
                       Multiset* owned, uint64_t round,
                       std::vector<RowDiff>& emitted, bool absent);
  /// Merges `newer` into `older` (every key of both, updates of a key
  /// older's first). `eager`: every round is at or before the compaction
  /// frontier, so a key's updates move to its latest round and consolidate
  /// by value, and keys left with none are dropped; otherwise updates
  /// consolidate only within a round.
  /// `keep_empty`: keys left with no update stay (the round batch's
  /// touched keys). Otherwise, when `eager` and `cancelled` is given, the
  /// keys of both batches that cancelled go there with their latest round.
  using CancelledKeys = std::vector<std::pair<DataRow, uint64_t>>;
  static absl::Status Merge(Batch& older, Batch newer, bool eager,
                            bool keep_empty,
                            CancelledKeys* cancelled = nullptr);
  /// Moves every update of `key` in the oldest `batches` batches of the
  /// history to `round` (eager compaction of a key touched then).
  void MoveToRound(const DataRow& key, uint64_t round, size_t batches);
  /// Consolidates one key's `updates` (values resolved against `key`):
  /// per value and round, or per value alone (at the latest round) when
  /// `eager`; zeros dropped.
  static absl::Status ConsolidateKey(const DataRow& key,
                                     std::vector<Update>& updates, bool eager);
  /// Merges the newest batches while the newest is at least half the size
  /// of the one before it.
  absl::Status MergeHistory(bool eager);

  /// A record of the consolidated trace at one key: a value (pointing
  /// into the trace), a round and the summed diff.
  struct LogicalRecord {
    const DataRow* val;
    uint64_t round;
    int64_t diff;
  };
  /// Calls `f(key, records)` for every key of the consolidated trace in
  /// key order, `records` sorted by value then round (trace_stats.cc).
  template <typename F>
  absl::Status ForEachLogicalKey(F f) const;
  /// Encoded bytes of the columns of `val` the modelled layout keeps
  /// (Info::value_columns, Info::value_skip).
  uint64_t KeptValueBytes(const DataRow& val) const;
  /// Stats' bytes: the updates held, laid out as differential's ordered
  /// batches (docs/evaluator.md, "Arrangement layout model").
  /// Sets `records` to the consolidated trace's records (the same walk).
  uint64_t ModelledBytes(uint64_t& records) const;

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
  /// The updates of round `round` (touched keys only), consolidated.
  std::vector<spine::Record> RoundRecords(uint64_t round) const;
  /// Activates the spine with the round's batch, then idle turns.
  void FeedSpine(uint64_t round, Compaction compaction,
                 std::vector<spine::Record> batch);

  Info info_;
  /// Batches of ended rounds, oldest (and largest) first.
  std::vector<Batch> history_;
  /// The updates since the last EndRound that are sorted by key: its keys
  /// are the touched keys. Mutable with `open_`: Seal moves updates from
  /// one to the other without changing what the trace holds.
  mutable Batch round_batch_;
  /// Updates since the last EndRound not yet in round_batch_, as inserted.
  mutable BigVector<OpenUpdate> open_;
  /// Whether open_'s keys are ascending (non-strictly).
  mutable bool open_sorted_ = true;
  /// The first error a Seal met (a multiplicity overflow), returned by
  /// the next read or EndRound.
  mutable absl::Status sticky_;
  /// Scratch space of Set and SetOwned.
  RefMultiset previous_;
  RefMultiset owned_refs_;
  /// Bumped whenever round_batch_ changes: KeyRef positions into it hold
  /// while it is the same.
  mutable uint64_t generation_ = 0;
  /// ArrangementStats::updates_inserted.
  uint64_t updates_inserted_ = 0;
  /// kNone: the number of rounds that left updates; kEager: unused.
  uint64_t rounds_stored_ = 0;
  /// kEager: whether the trace held updates when the last round ended
  /// (its one batch; a failed round does not end).
  bool ended_holding_ = false;
  bool inserted_this_round_ = false;
  /// Whether the last EndRound compacted eagerly (the trace is then one
  /// batch; otherwise one per round).
  bool eager_ = false;
  std::unique_ptr<SpineState> spine_;
};

}  // namespace lir::eval

#endif  // LIR_EVAL_TRACE_H_
