// Building blocks of Validate shared by validate.cc and validate_checks.cc.
// Every check returns InvalidArgument with a message that does not yet name
// the node; the walk attributes it to the node (NodeError). Checks only
// check: the arities they need along the way (MFP outputs, join streams,
// reduced rows) come from the rules of include/lir/arity.h, which define arity
// once for Validate and the arity analysis.
#ifndef LIR_LIR_VALIDATE_INTERNAL_H_
#define LIR_LIR_VALIDATE_INTERNAL_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/arity.h"
#include "lir/arrangement.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::validate_internal {

/// A collection's arity as far as the checks need it: known or not (the
/// rules never give a conflict for a plan whose checks pass).
using MaybeArity = std::optional<int>;

/// An InvalidArgument status with `message`.
absl::Status Invalid(std::string message);

/// Checks that every column `expr` reads is non-negative and, when `arity`
/// is known, below it. `what` names the expression in the message.
absl::Status CheckColumns(const ScalarExpr& expr, MaybeArity arity,
                          absl::string_view what);

/// CheckColumns for each expression of a list; `what` names the list.
absl::Status CheckColumnList(const std::vector<ScalarExpr>& exprs,
                             MaybeArity arity, absl::string_view what);

/// CheckColumns for a list of plain positions.
absl::Status CheckPositions(const std::vector<int>& positions, MaybeArity arity,
                            absl::string_view what);

/// Checks an MFP over an input of `input` columns (its output arity is
/// MfpOutputArity). `label` (e.g. "key_plan: ") is put before every message.
absl::Status CheckMfp(const MapFilterProject& mfp, MaybeArity input,
                      absl::string_view label);

/// Checks that `form` is laid out as MakeArrangement derives it and returns
/// the arity its key and thinning describe; when `arity` is known the two
/// must agree. `what` names the form (`arrangements[0]`).
absl::StatusOr<int> CheckArrangementForm(const ArrangementForm& form,
                                         MaybeArity arity,
                                         absl::string_view what);

/// lir::ReadArity for a MaybeArity: the row a read by `input_key` sees.
MaybeArity ReadMaybeArity(
    const std::optional<std::vector<ScalarExpr>>& input_key, MaybeArity input);

/// A label naming the row a read's expressions are written over, for
/// messages: "" for a raw read, "over the layout of [#1]: " otherwise.
std::string ReadLabel(const std::optional<std::vector<ScalarExpr>>& input_key);

/// Checks a Join node given its inputs' arities.
absl::Status CheckJoin(const JoinOp& join, std::span<const Arity> inputs);

/// Checks a Reduce node given its input's arity.
absl::Status CheckReduce(const ReduceOp& reduce, Arity input);

/// `(#1, #2)`: positions as the messages show them.
std::string PositionsText(const std::vector<int>& positions);

}  // namespace lir::validate_internal

#endif  // LIR_LIR_VALIDATE_INTERNAL_H_
