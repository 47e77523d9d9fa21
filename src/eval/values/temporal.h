// Temporal filters: MFPs whose predicates compare `mz_now()` with an
// expression of the row (Materialize's `MfpPlan`, expr/src/linear.rs).
//
// `mz_now()` is the round being computed. An update `(row, time, diff)` that
// passes the ordinary filters is moved to the rounds its bounds admit:
// `(out, max(time, lowers), diff)` and, with an upper bound, `(out,
// min(uppers), -diff)`, when the first is before the second
// (MfpPlan::evaluate). The incremental engine schedules those future
// updates; the snapshot engine, which sees the accumulated contents at round
// t, keeps a row when `max(lowers) <= t < min(uppers)` (the same contents).
#ifndef LIR_EVAL_VALUES_TEMPORAL_H_
#define LIR_EVAL_VALUES_TEMPORAL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/mfp.h"

namespace lir::eval {

/// The largest round (mz_timestamp) a temporal bound may move an update to:
/// 2^53 - 1, so that every round is exact in JSON readers that hold numbers
/// as doubles. A bound beyond it is an error naming the row and the limit.
inline constexpr int64_t kMaxTemporalRound = (int64_t{1} << 53) - 1;

/// After the data's last round, a run steps only rounds at which some
/// temporal update is due; more than this many such rounds is an error
/// (so a run always ends).
inline constexpr uint64_t kMaxTemporalRounds = 10000;

/// An MFP split as Materialize's `MfpPlan::create_from` splits it: the
/// ordinary part (no `mz_now()` left) and the bounds, expressions over the
/// row after the maps whose values are mz_timestamps (integers).
/// PlanTemporal compiles every part (compiled_scalar.h) before rows flow.
struct TemporalMfp {
  MapFilterProject mfp;
  std::vector<ScalarExpr> lower;
  std::vector<ScalarExpr> upper;
  /// `mfp`, `lower` and `upper` compiled, for the rows.
  CompiledMfp compiled_mfp;
  std::vector<CompiledScalar> compiled_lower;
  std::vector<CompiledScalar> compiled_upper;
  /// Whether there is any bound (else `mfp` is all there is).
  bool temporal() const { return !lower.empty() || !upper.empty(); }
};

/// Whether `mfp` has a `TemporalFilter:` or a filter that reads `mz_now()`.
bool HasTemporal(const MapFilterProject& mfp);

/// Splits `mfp`: the printed `TemporalFilter:` bounds, and every filter that
/// reads `mz_now()`, which must be `mz_now() op e` or `e op mz_now()` with
/// op one of `< <= > >= =` and `e` free of `mz_now()` (`mz_now() < e`:
/// upper e; `<=`: upper `step_mz_timestamp(e)`, i.e. e + 1; `>`: lower
/// e + 1; `>=`: lower e; `=`: lower e and upper e + 1).
/// Any other use of `mz_now()` (in a map, inside a larger predicate) is
/// InvalidArgument naming the expression. Also compiles (so checks) every
/// expression, in CheckScalar's order.
absl::StatusOr<TemporalMfp> PlanTemporal(const MapFilterProject& mfp);

/// InvalidArgument when `mfp` reads `mz_now()` anywhere: for MFPs that
/// Materialize evaluates without time (Reduce plans, join closures).
absl::Status RejectTemporal(const MapFilterProject& mfp);

/// One row through a temporal MFP: its output row and the rounds its bounds
/// give (before the update's own time is taken into account).
struct TemporalRow {
  DataRow row;
  int64_t lower = 0;
  std::optional<int64_t> upper;
};

/// Applies `plan` to `row`: the maps (all of them, as MfpPlan::evaluate
/// does before its bounds), the ordinary filters, then every bound.
/// nullopt when a filter drops the row or a bound is NULL. A bound that is
/// not an integer (an mz_timestamp) or is negative is InvalidArgument.
absl::StatusOr<std::optional<TemporalRow>> EvalTemporal(const TemporalMfp& plan,
                                                        DataRow row);

/// The updates `(row, time, diff)` becomes at or after round `time`:
/// appended to `out` by round. Errors: those of EvalTemporal, and a round
/// beyond kMaxTemporalRound (naming the row and the limit).
absl::Status ScheduleTemporal(const TemporalMfp& plan, DataRow row,
                              uint64_t time, int64_t diff,
                              std::map<uint64_t, std::vector<RowDiff>>* out);

/// The snapshot meaning at round `now`: whether `row` (accumulated at some
/// time <= now) is present at `now`, with its output row; `next` is lowered
/// to the next round after `now` at which the answer may change. Errors as
/// ScheduleTemporal reports them for the same row.
absl::StatusOr<std::optional<DataRow>> EvalTemporalAt(
    const TemporalMfp& plan, DataRow row, uint64_t now,
    std::optional<uint64_t>* next);

}  // namespace lir::eval

#endif  // LIR_EVAL_VALUES_TEMPORAL_H_
