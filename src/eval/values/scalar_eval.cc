// The checks of scalar expressions and MFPs, and the one-shot convenience
// evaluators (EvalScalar, EvalMfp, EvalKey).
//
// The checks are compiles (compiled_scalar.h): one code path decides what
// is supported, so a plan that passes them never meets an unsupported
// operation while rows are evaluated. The convenience evaluators compile on
// every call; the engines compile once per plan node instead.
#include "lir/eval/scalar_eval.h"

#include <optional>
#include <utility>
#include <vector>

#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"
#include "src/eval/values/eval_internal.h"
#include "src/eval/values/scalar_ops.h"
#include "src/eval/values/scalar_program.h"
#include "src/eval/values/temporal.h"

namespace lir::eval {

absl::Status CheckScalar(const ScalarExpr& expr) {
  return CompiledScalar::Compile(expr).status();
}

absl::Status CheckMfp(const MapFilterProject& mfp) {
  LIR_RETURN_IF_ERROR(RejectTemporal(mfp));
  return CompiledMfp::Compile(mfp).status();
}

absl::Status CheckTemporalMfp(const MapFilterProject& mfp) {
  return PlanTemporal(mfp).status();
}

absl::StatusOr<Datum> EvalScalar(const ScalarExpr& expr, const DataRow& row) {
  return scalar_program::Access::CompileUnchecked(expr).Eval(row);
}

absl::StatusOr<std::optional<DataRow>> EvalMfp(const MapFilterProject& mfp,
                                               DataRow row) {
  return scalar_program::Access::CompileMfpUnchecked(mfp).Eval(std::move(row));
}

absl::StatusOr<DataRow> EvalKey(const std::vector<ScalarExpr>& exprs,
                                const DataRow& row) {
  return scalar_program::Access::CompileKeyUnchecked(exprs).Eval(row);
}

namespace internal {

absl::StatusOr<int> SqlCompare(const Datum& a, const Datum& b) {
  return scalar_ops::CompareValues("comparison", a, b);
}

absl::StatusOr<bool> SqlEqual(const Datum& a, const Datum& b) {
  LIR_ASSIGN_OR_RETURN(int c, scalar_ops::CompareValues("=", a, b));
  return c == 0;
}

}  // namespace internal
}  // namespace lir::eval
