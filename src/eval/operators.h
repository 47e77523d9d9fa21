// The per-row and per-group meaning of LIR operators, shared by both
// engines: the engines differ in how they keep state and find what changed,
// not in what a group, a join step or a table function computes.
#ifndef LIR_EVAL_OPERATORS_H_
#define LIR_EVAL_OPERATORS_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/budget.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/node.h"

namespace lir::eval {

/// OK when every expression, aggregate and table function of `node`'s own
/// payload (not its inputs) is supported; otherwise Unimplemented naming it
/// (`unsupported function NAME`, `unsupported aggregate NAME`,
/// `unsupported table function NAME`), or InvalidArgument for a payload the
/// evaluator cannot run (an elided Constant, ...).
absl::Status CheckNode(const Node& node);

/// A Reduce's expressions compiled once (compiled_scalar.h): what the
/// engines evaluate per row and per group. ReduceKeyVal and ReduceGroup
/// below are the same, compiling on every call (for tests).
class CompiledReduce {
 public:
  /// Compiles the key, val and after plans; CheckNode's errors.
  static absl::StatusOr<CompiledReduce> Compile(const ReduceOp& op);
  /// As ReduceKeyVal.
  absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>> KeyVal(
      const DataRow& row) const;
  /// As ReduceGroup.
  absl::StatusOr<Multiset> Group(const DataRow& key,
                                 const Multiset& vals) const;

 private:
  const ReduceOp* op_ = nullptr;
  CompiledMfp key_plan_;
  CompiledMfp val_plan_;
  CompiledMfp mfp_after_;
};

/// A TopK's limit compiled once; TopKGroup below compiles per call.
class CompiledTopK {
 public:
  /// Compiles the limit (when the kind reads it).
  static absl::StatusOr<CompiledTopK> Compile(const TopKOp& op);
  /// As TopKGroup.
  absl::StatusOr<Multiset> Group(const Multiset& rows) const;

 private:
  const TopKOp* op_ = nullptr;
  std::optional<CompiledScalar> limit_;
};

/// A FlatMap's table function arguments and (non-temporal) mfp_after
/// compiled once; FlatMapRow and FlatMapJoinedRows below compile per call.
class CompiledFlatMap {
 public:
  /// Checks the table function, then compiles its arguments and, unless it
  /// is temporal (applied by the engine), mfp_after.
  static absl::StatusOr<CompiledFlatMap> Compile(const FlatMapOp& op);
  /// As FlatMapRow (Internal for a temporal mfp_after).
  absl::StatusOr<std::vector<DataRow>> Rows(const DataRow& row,
                                            RowCounter* rows = nullptr) const;
  /// As FlatMapJoinedRows.
  absl::StatusOr<std::vector<DataRow>> JoinedRows(
      const DataRow& row, RowCounter* rows = nullptr) const;

 private:
  const FlatMapOp* op_ = nullptr;
  CompiledKey exprs_;
  std::optional<CompiledMfp> mfp_after_;
};

/// An optional join closure compiled once; ApplyClosure below compiles per
/// call.
class CompiledClosure {
 public:
  /// No closure: rows pass unchanged.
  CompiledClosure() = default;
  /// Compiles the ready equivalences and the MFP (CheckNode's errors).
  static absl::StatusOr<CompiledClosure> Compile(
      const std::optional<JoinClosure>& closure);
  /// As ApplyClosure.
  absl::StatusOr<std::optional<DataRow>> Apply(DataRow row) const;
  /// Whether there is a closure at all.
  bool present() const { return present_; }

 private:
  bool present_ = false;
  std::vector<CompiledKey> equivalences_;
  CompiledMfp mfp_;
};

/// A Reduce input row split into its group key (`key_plan`) and its
/// aggregate inputs (`val_plan`: one column per aggregate, in output
/// order). nullopt when a plan's filter drops the row.
absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>> ReduceKeyVal(
    const ReduceOp& op, const DataRow& row);

/// The summed multiplicity of a Reduce group's values (a Multiset or a
/// RefMultiset), as ReduceGroup sums it: OutOfRange on a negative
/// multiplicity or an overflow.
template <typename Vals>
absl::StatusOr<int64_t> GroupTotal(const Vals& vals) {
  int64_t total = 0;
  for (const auto& [val, diff] : vals) {
    if (diff < 0) {
      return absl::OutOfRangeError("negative multiplicity in Reduce input");
    }
    if (__builtin_add_overflow(total, diff, &total)) {
      return absl::OutOfRangeError("multiplicity out of 64-bit range");
    }
  }
  return total;
}

/// The output rows of one Reduce group (consolidated): `key` followed by
/// the aggregates over `vals` (the group's accumulated val rows,
/// consolidated), then `mfp_after`. One row, or none when the group is empty
/// (all multiplicities zero) or `mfp_after` filters it; with
/// `fused_unnest_list`, one row per element of the window function's list
/// (`key ++ element`, each through `mfp_after`). Distinct outputs the key
/// once when its count is positive. Errors on a negative multiplicity.
absl::StatusOr<Multiset> ReduceGroup(const ReduceOp& op, const DataRow& key,
                                     const Multiset& vals);

/// The group key of a TopK input row (its `group_by` columns).
DataRow TopKGroupKey(const TopKOp& op, const DataRow& row);

/// The output of one TopK group: `rows` (the group's accumulated rows,
/// consolidated) sorted by `order_by` (ties broken by the whole row), then
/// `offset` rows skipped and at most `limit` kept, counting multiplicities.
/// Errors on a negative multiplicity or a limit that is not a non-negative
/// integer.
absl::StatusOr<Multiset> TopKGroup(const TopKOp& op, const Multiset& rows);

/// The rows FlatMap produces for one input row: for each row of the table
/// function's output, input ++ output, then `mfp_after` (rows it filters are
/// omitted). The table function's rows are counted against `rows` (the
/// operator's budget for the round) before they are made; with null, one
/// call may make kDefaultMaxRowsPerRound rows.
absl::StatusOr<std::vector<DataRow>> FlatMapRow(const FlatMapOp& op,
                                                const DataRow& row,
                                                RowCounter* rows = nullptr);

/// As FlatMapRow before `mfp_after`: input ++ output for each row of the
/// table function's output (a temporal mfp_after is applied by the engine,
/// which knows the round).
absl::StatusOr<std::vector<DataRow>> FlatMapJoinedRows(
    const FlatMapOp& op, const DataRow& row, RowCounter* rows = nullptr);

/// The row a join stage hands to its closure, in Materialize's arranged
/// layout (the closure's columns refer to it): the lookup key, then the
/// stream row's `stream_thinning` columns, then the lookup row's value
/// columns (those that are not plain column references of `lookup_key`, in
/// increasing order, as the lookup arrangement's thinning keeps them).
DataRow JoinedRow(const DataRow& key, const DataRow& stream,
                  const std::vector<int>& stream_thinning,
                  const DataRow& lookup,
                  const std::vector<ScalarExpr>& lookup_key);

/// Applies an optional join closure (its `ready_equivalences` as equality
/// filters, then its MFP) to a joined row; nullopt when filtered out.
absl::StatusOr<std::optional<DataRow>> ApplyClosure(
    const std::optional<JoinClosure>& closure, DataRow row);

/// AntiJoin over whole collections (../shared/reference/SEMANTICS.md 7.1):
/// each base row r keeps its multiplicity times 1 - keys(r[key]), where
/// `keys` is consolidated (sorted, so looked up by binary search). A key
/// whose count in `keys` is neither 0 nor 1 while `base` holds rows for it
/// is an InvalidArgument naming the key: the operator is only exact for a
/// keys collection that holds each key at most once, so a wrong rewrite
/// cannot pass silently.
absl::StatusOr<Multiset> AntiJoinRows(const AntiJoinOp& op,
                                      const Multiset& base,
                                      const Multiset& keys);

/// The error both engines give for an AntiJoin key that the keys input
/// holds `count` times (neither 0 nor 1) while the base holds rows for it.
absl::Status AntiJoinKeyCountError(const DataRow& key, int64_t count);

/// `row[op.key]` into `key` (cleared first), or an error naming a key
/// column outside the row (an unvalidated plan).
absl::Status AntiJoinKeyOf(const AntiJoinOp& op, const DataRow& row,
                           DataRow& key);

/// The Constant's rows as a consolidated multiset (an error constant is an
/// InvalidArgument carrying its message).
absl::StatusOr<Multiset> ConstantRows(const ConstantOp& op);

}  // namespace lir::eval

#endif  // LIR_EVAL_OPERATORS_H_
