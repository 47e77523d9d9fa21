// Checked arithmetic on doubles (float_ops.h).
#include "src/eval/values/float_ops.h"

#include <cmath>

#include "absl/status/status.h"

namespace lir::eval {
namespace {

// Materialize's EvalError::FloatOverflow and FloatUnderflow messages (also
// PostgreSQL's).
absl::Status FloatOverflow() {
  return absl::OutOfRangeError("value out of range: overflow");
}

absl::Status FloatUnderflow() {
  return absl::OutOfRangeError("value out of range: underflow");
}

}  // namespace

absl::StatusOr<Datum> FloatArithmetic(char op, double x, double y) {
  double r = 0;
  switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*':
      r = x * y;
      if (r == 0 && x != 0 && y != 0) return FloatUnderflow();
      break;
    case '/':
      // SQL rejects a zero divisor for floats too, instead of giving inf.
      if (y == 0 && !std::isnan(x)) {
        return absl::OutOfRangeError("division by zero");
      }
      r = x / y;
      // An infinite divisor is not an underflow: 1 / inf is exactly 0.
      if (std::isinf(r) && !std::isinf(x)) return FloatOverflow();
      if (r == 0 && x != 0 && !std::isinf(y)) return FloatUnderflow();
      return Datum::Float(r);
    case '%':
      if (y == 0) return absl::OutOfRangeError("division by zero");
      return Datum::Float(std::fmod(x, y));
    default: return absl::InternalError("not an arithmetic operator");
  }
  if (std::isinf(r) && !std::isinf(x) && !std::isinf(y)) {
    return FloatOverflow();
  }
  return Datum::Float(r);
}

absl::StatusOr<Datum> ToReal(double d) {
  const float f = static_cast<float>(d);
  if (std::isinf(f) && !std::isinf(d)) return FloatOverflow();
  if (f == 0 && d != 0) return FloatUnderflow();
  return Datum::Float(static_cast<double>(f));
}

}  // namespace lir::eval
