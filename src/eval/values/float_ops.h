// SQL arithmetic on doubles, with the range checks Materialize (and
// PostgreSQL) apply: kept out of scalar_eval.cc so the float rules sit in
// one place, as time_ops.h keeps the time kinds'.
#ifndef LIR_EVAL_VALUES_FLOAT_OPS_H_
#define LIR_EVAL_VALUES_FLOAT_OPS_H_

#include "absl/status/statusor.h"
#include "lir/eval/datum.h"

namespace lir::eval {

/// `x op y` for op one of `+ - * / %`, as Materialize's
/// add/sub/mul/div/mod_float64 compute it: an infinite result of finite
/// operands is OutOfRange `value out of range: overflow`, a zero product or
/// quotient of non-zero operands (a finite divisor) `value out of range:
/// underflow`, a zero divisor `division by zero` unless the dividend is NaN
/// (NaN / 0 is NaN). Infinities and NaN given as operands are values and
/// propagate (inf + 1 is inf).
absl::StatusOr<Datum> FloatArithmetic(char op, double x, double y);

/// `d` rounded to a real (float32), as Materialize's
/// cast_float64_to_float32: past a real's range is an overflow, a non-zero
/// value that rounds to 0 an underflow (the errors above).
absl::StatusOr<Datum> ToReal(double d);

}  // namespace lir::eval

#endif  // LIR_EVAL_VALUES_FLOAT_OPS_H_
