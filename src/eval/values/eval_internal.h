// Helpers shared by scalar_eval.cc, operators.cc and operators_reduce.cc;
// not part of the evaluator's interface.
#ifndef LIR_EVAL_VALUES_EVAL_INTERNAL_H_
#define LIR_EVAL_VALUES_EVAL_INTERNAL_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/node.h"

namespace lir::eval::internal {

/// CheckNode for a Reduce payload (operators_reduce.cc).
absl::Status CheckReduce(const ReduceOp& op);

/// SQL ordering (-1, 0, 1) of two non-NULL datums, as the comparison
/// operators use it: integers and floats numerically and exactly (NaN equal
/// to itself and above every number), strings bytewise, false < true.
/// InvalidArgument for kinds SQL cannot compare (a string and a number).
/// In scalar_eval.cc.
absl::StatusOr<int> SqlCompare(const Datum& a, const Datum& b);

/// Whether SQL `a = b` is true for two non-NULL datums.
absl::StatusOr<bool> SqlEqual(const Datum& a, const Datum& b);

}  // namespace lir::eval::internal

#endif  // LIR_EVAL_VALUES_EVAL_INTERNAL_H_
