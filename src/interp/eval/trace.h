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

/// One arrangement: updates indexed by key. Values are stored as full rows
/// (every trace of this engine can rebuild its consumer's row from them);
/// `value_columns`, when set, names the row columns the real arrangement
/// keeps as its value (its thinning), and only those count in `bytes`.
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

  explicit Trace(Info info) : info_(std::move(info)) {}

  /// Adds `diff` copies of (key, val) at `round` (rounds never decrease).
  /// Updates to the same (key, val) in the same round merge into one record.
  absl::Status Insert(const DataRow& key, const DataRow& val, uint64_t round,
                      int64_t diff);

  /// The values at `key` with their summed diffs over updates at rounds
  /// `< before`, consolidated (sorted, no zeros).
  absl::StatusOr<Multiset> Read(const DataRow& key, uint64_t before) const;

  /// The summed diff of every value at `key` over rounds `< before`.
  absl::StatusOr<int64_t> Count(const DataRow& key, uint64_t before) const;

  /// Every (key, val) accumulated over rounds `< before`, as rows
  /// `val` (the key is a function of the value in every trace of this
  /// engine), consolidated.
  absl::StatusOr<Multiset> ReadAll(uint64_t before) const;

  /// Keys that received updates since the last EndRound, ascending.
  std::vector<DataRow> TouchedKeys() const;

  /// Ends round `round`: applies `compaction` (kEager consolidates every
  /// touched key to this round and drops cancelled records) and forgets the
  /// touched keys.
  absl::Status EndRound(uint64_t round, Compaction compaction);

  /// Records, batches and modelled bytes now.
  ArrangementStats Stats(const std::string& object) const;

  uint64_t records() const { return records_; }
  const Info& info() const { return info_; }

 private:
  struct Update {
    DataRow val;
    uint64_t round = 0;
    int64_t diff = 0;
  };

  Info info_;
  absl::flat_hash_map<DataRow, std::vector<Update>> index_;
  absl::flat_hash_set<DataRow> touched_;
  uint64_t records_ = 0;
  /// kNone: the number of rounds that added updates; kEager: 0 or 1.
  uint64_t batches_ = 0;
  bool inserted_this_round_ = false;
};

}  // namespace lir::eval

#endif  // LIR_INTERP_EVAL_TRACE_H_
