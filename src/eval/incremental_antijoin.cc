// The incremental engine's AntiJoin (../shared/reference/SEMANTICS.md 7.1):
// differential's antijoin, `base.concat(base.semijoin(keys).negate())`. Like
// the fused SetDifference it reads the arrangements its arms already keep
// (ResolveArm) and keeps none of its own. Per round:
//
//   Δout = Δbase - Δ(base ⋉ keys),   Δ(B ⋉ K) = ΔB ⋉ K_old + B_new ⋉ ΔK,
//
// where `⋉` multiplies a base row's diff by its key's count in keys. Δbase is
// the base arm's changes (rows of the arm); K_old, K_new and ΔK are counts
// in the keys arm's arrangement; B_new at the keys whose count changed is
// read from the base arm's arrangement, whose stored rows become the arm's
// rows through ArmRows.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/arm_key.h"
#include "lir/status_macros.h"
#include "src/eval/incremental_internal.h"
#include "src/eval/operators.h"

namespace lir::eval::incremental_internal {
namespace {

absl::Status Overflow() {
  return absl::OutOfRangeError("multiplicity overflow in AntiJoin");
}

// The only counts of a key in keys for which the antijoin is exact.
bool AtMostOnce(int64_t count) { return count == 0 || count == 1; }

class AntiJoinOperator : public Operator {
 public:
  using Operator::Operator;
  // The keys arrangement is read at the keys it touched this round, which
  // the operator looks for itself.
  bool AlwaysRun() const override { return true; }

  absl::StatusOr<Multiset> Run(Round& r) override {
    const AntiJoinOp& op = node().As<AntiJoinOp>();
    std::vector<RowDiff> out;
    // Keys counted neither 0 nor 1 times in keys now: an error when the
    // base holds rows for them now.
    std::vector<DataRow> suspects;

    // Δbase ⋉ (1 - K_old), which is Δbase - Δbase ⋉ K_old. The changes are
    // sorted by row, so rows of one key often follow each other: the last
    // key's counts are reused.
    Multiset base_changes = r.TakeDelta(inputs[0]);
    out.reserve(base_changes.size());
    DataRow key;
    std::optional<DataRow> last_key;
    Trace::Counts counts;
    for (auto& [row, diff] : base_changes) {
      LIR_RETURN_IF_ERROR(AntiJoinKeyOf(op, row, key));
      if (!last_key.has_value() || key != *last_key) {
        LIR_ASSIGN_OR_RETURN(counts,
                             keys_.trace->CountsAt(KeyRef(key), r.round));
        if (!AtMostOnce(counts.through)) suspects.push_back(key);
        last_key = key;
      }
      int64_t keep = 0, scaled = 0;
      if (__builtin_sub_overflow(int64_t{1}, counts.before, &keep) ||
          __builtin_mul_overflow(diff, keep, &scaled)) {
        return Overflow();
      }
      if (scaled != 0) out.emplace_back(std::move(row), scaled);
    }

    // - B_new ⋉ ΔK, over the keys whose count may have changed. The base
    // arrangement holds the base arm's underlying rows: collected with
    // their diffs, then mapped to the arm's rows together.
    std::vector<RowDiff> stored;
    RefMultiset refs;
    for (const KeyRef& k : keys_.trace->TouchedKeyRefs()) {
      LIR_ASSIGN_OR_RETURN(Trace::Counts c, keys_.trace->CountsAt(k, r.round));
      int64_t change = 0;
      if (__builtin_sub_overflow(c.through, c.before, &change)) {
        return Overflow();
      }
      // An unchanged count was checked against the base when it changed,
      // and above for the base's changes.
      if (change == 0) continue;
      LIR_RETURN_IF_ERROR(base_.trace->ReadRefs(k, r.round + 1, refs));
      if (refs.empty()) continue;
      if (!AtMostOnce(c.through)) suspects.push_back(*k.row);
      for (const auto& [row, count] : refs) {
        int64_t scaled = 0;
        if (__builtin_mul_overflow(count, change, &scaled) ||
            scaled == INT64_MIN) {
          return Overflow();
        }
        if (scaled != 0) stored.emplace_back(*row, -scaled);
      }
    }
    if (!suspects.empty()) {
      LIR_RETURN_IF_ERROR(CheckKeyCounts(op, std::move(suspects), r.round));
    }
    LIR_ASSIGN_OR_RETURN(Multiset semijoin, ArmRows(base_, std::move(stored)));
    out.insert(out.end(), std::make_move_iterator(semijoin.begin()),
               std::make_move_iterator(semijoin.end()));
    return Consolidate(std::move(out));
  }

  ArmTrace base_;
  ArmTrace keys_;

 private:
  // The key-count error (AntiJoinKeyCountError) when the base holds rows,
  // as of this round, for one of `suspects` (keys counted neither 0 nor 1
  // times in keys). With several, the one the snapshot engine names: the
  // key of the first such base row in row order.
  absl::Status CheckKeyCounts(const AntiJoinOp& op,
                              std::vector<DataRow> suspects,
                              uint64_t round) const {
    std::sort(suspects.begin(), suspects.end());
    suspects.erase(std::unique(suspects.begin(), suspects.end()),
                   suspects.end());
    std::optional<DataRow> first_row;
    int64_t first_count = 0;
    RefMultiset refs;
    for (const DataRow& suspect : suspects) {
      const KeyRef ref(suspect);
      LIR_ASSIGN_OR_RETURN(int64_t count, keys_.trace->Count(ref, round + 1));
      if (AtMostOnce(count)) continue;
      LIR_RETURN_IF_ERROR(base_.trace->ReadRefs(ref, round + 1, refs));
      std::vector<RowDiff> stored;
      for (const auto& [row, diff] : refs) stored.emplace_back(*row, diff);
      // Stored rows that cancel once projected are no base rows.
      LIR_ASSIGN_OR_RETURN(Multiset rows, ArmRows(base_, std::move(stored)));
      if (rows.empty()) continue;
      if (!first_row.has_value() || rows.front().first < *first_row) {
        first_row = rows.front().first;
        first_count = count;
      }
    }
    if (!first_row.has_value()) return absl::OkStatus();
    DataRow key;
    LIR_RETURN_IF_ERROR(AntiJoinKeyOf(op, *first_row, key));
    return AntiJoinKeyCountError(key, first_count);
  }
};

// The arm must offer the arrangement its recorded key names, as Validate
// checks: the operator looks rows up there by the key's values, so another
// arrangement would silently give wrong counts.
absl::Status CheckArm(const Node& arm, const std::vector<int>& key,
                      const std::vector<int>& recorded,
                      absl::string_view which) {
  const ArmRead read = ResolveArmKey(arm, key);
  if (read.problem != ArmProblem::kNone) {
    return absl::InvalidArgumentError(
        absl::StrCat("the ", which, " arm is not co-arranged: ", read.message));
  }
  if (read.key != recorded) {
    return absl::InvalidArgumentError(
        absl::StrCat(which, "_key is ", KeyText(recorded), ", but the ", which,
                     " arm offers ", KeyText(read.key)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<size_t> BuildAntiJoin(const Node& node, Graph& graph) {
  const AntiJoinOp& antijoin = node.As<AntiJoinOp>();
  if (node.inputs.size() != 2) {
    return absl::InvalidArgumentError("AntiJoin needs two inputs");
  }
  // The keys arm is matched on its whole row.
  std::vector<int> keys_columns(antijoin.key.size());
  for (size_t c = 0; c < keys_columns.size(); ++c) {
    keys_columns[c] = static_cast<int>(c);
  }
  LIR_RETURN_IF_ERROR(
      CheckArm(*node.inputs[0], antijoin.key, antijoin.base_key, "base"));
  LIR_RETURN_IF_ERROR(
      CheckArm(*node.inputs[1], keys_columns, antijoin.keys_key, "keys"));
  auto op = std::make_unique<AntiJoinOperator>(node);
  op->inputs = {graph.OpOf(node.inputs[0].get()),
                graph.OpOf(node.inputs[1].get())};
  LIR_ASSIGN_OR_RETURN(op->base_, ResolveArm(*node.inputs[0], antijoin.key,
                                             antijoin.base_key, graph, "base"));
  LIR_ASSIGN_OR_RETURN(op->keys_, ResolveArm(*node.inputs[1], keys_columns,
                                             antijoin.keys_key, graph, "keys"));
  return graph.Add(std::move(op));
}

}  // namespace lir::eval::incremental_internal
