// Evaluation of scalar expressions and map-filter-projects on rows, with
// SQL's three-valued logic and NULL semantics.
//
// Supported: column references, literals (see FromLiteral), arithmetic
// (+ - * / % and unary -), comparisons (= != < <= > >=), AND/OR/NOT, IS NULL /
// IS NOT NULL / IS TRUE / IS FALSE, `case when` (kIf), coalesce, integer
// widening casts, the record and list constructors and accessors
// (`row(...)`, `list[...]`, `array[...]`, `record_get[i]`), and the bytea
// functions `text_to_bytea`, `bytea_to_text` and `digest` (docs/evaluator.md
// lists them all). Any other function is Unimplemented `unsupported function
// NAME`; CheckScalar reports it before any row is evaluated. The compiled
// forms rows are evaluated with are in compiled_scalar.h.
#ifndef LIR_EVAL_SCALAR_EVAL_H_
#define LIR_EVAL_SCALAR_EVAL_H_

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/mfp.h"
#include "lir/scalar.h"

namespace lir::eval {

/// OK when every function, operator and literal in `expr` is supported;
/// otherwise Unimplemented naming the first unsupported one.
absl::Status CheckScalar(const ScalarExpr& expr);

/// As CheckScalar, for every expression of `mfp`, which Materialize
/// evaluates without time: a temporal bound or `mz_now()` anywhere is
/// InvalidArgument (temporal.h, RejectTemporal).
absl::Status CheckMfp(const MapFilterProject& mfp);

/// As CheckMfp for an MFP where Materialize allows temporal filters (Get,
/// Mfp, FlatMap's mfp_after, ArrangeBy's input_mfp, Source blocks):
/// `mz_now()` comparisons in filters become bounds (temporal.h,
/// PlanTemporal); any other use of `mz_now()` is InvalidArgument.
absl::Status CheckTemporalMfp(const MapFilterProject& mfp);

/// The value of `expr` on `row`. Data errors (division by zero, integer
/// overflow, a column out of range) are OutOfRange / InvalidArgument; an
/// unsupported part is Unimplemented when (and only if) it is evaluated.
///
/// A convenience for tests and one-off values: it compiles `expr` on every
/// call. Nothing in src/ that runs per row calls it (nor EvalMfp or EvalKey
/// below); the engines compile once (compiled_scalar.h) and evaluate that.
absl::StatusOr<Datum> EvalScalar(const ScalarExpr& expr, const DataRow& row);

/// Applies `mfp` to `row`: appends the map columns (each may read earlier
/// ones), keeps the row only if every filter is true (false and NULL drop
/// it), then projects. nullopt when filtered out. A temporal MFP needs the
/// round (temporal.h): here it is Internal. Compiles on every call, as
/// EvalScalar does (CompiledMfp is the per-row form).
absl::StatusOr<std::optional<DataRow>> EvalMfp(const MapFilterProject& mfp,
                                               DataRow row);

/// The values of `exprs` on `row` (an arrangement key, a stream key).
/// Compiles on every call, as EvalScalar does (CompiledKey is the per-row
/// form).
absl::StatusOr<DataRow> EvalKey(const std::vector<ScalarExpr>& exprs,
                                const DataRow& row);

}  // namespace lir::eval

#endif  // LIR_EVAL_SCALAR_EVAL_H_
