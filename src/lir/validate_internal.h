// Building blocks of Validate shared by validate.cc and validate_checks.cc.
// Every check returns InvalidArgument with a message that does not yet name
// the node; the driver prefixes `LirId(n) Kind: `.
#ifndef LIR_LIR_VALIDATE_INTERNAL_H_
#define LIR_LIR_VALIDATE_INTERNAL_H_

#include <optional>
#include <string>
#include <string_view>
#include "absl/strings/string_view.h"
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/lir/arrangement.h"
#include "src/lir/mfp.h"
#include "src/lir/node.h"
#include "src/lir/scalar.h"

namespace lir::validate_internal {

/// A collection's arity as far as it is known.
using Arity = std::optional<int>;

/// An InvalidArgument status with `message`.
absl::Status Invalid(std::string message);

/// Checks that every column `expr` reads is non-negative and, when `arity`
/// is known, below it. `what` names the expression in the message.
absl::Status CheckColumns(const ScalarExpr& expr, Arity arity,
                          absl::string_view what);

/// CheckColumns for each expression of a list; `what` names the list.
absl::Status CheckColumnList(const std::vector<ScalarExpr>& exprs, Arity arity,
                             absl::string_view what);

/// CheckColumns for a list of plain positions.
absl::Status CheckPositions(const std::vector<int>& positions, Arity arity,
                            absl::string_view what);

/// Checks an MFP over an input of `input` columns and returns its output
/// arity. `label` (e.g. "key_plan: ") is put before every message.
absl::StatusOr<Arity> CheckMfp(const MapFilterProject& mfp, Arity input,
                               absl::string_view label);

/// Checks that `form` is laid out as MakeArrangement derives it and returns
/// the arity its key and thinning describe; when `arity` is known the two
/// must agree. `what` names the form (`arrangements[0]`).
absl::StatusOr<int> CheckArrangementForm(const ArrangementForm& form,
                                         Arity arity, absl::string_view what);

/// The arity of the row an expression reading `input`'s arrangement by
/// `input_key` is written over: the layout row (SEMANTICS 8.2), or `input`
/// itself when there is no input key.
Arity ReadArity(const std::optional<std::vector<ScalarExpr>>& input_key,
                Arity input);

/// A label naming the row a read's expressions are written over, for
/// messages: "" for a raw read, "over the layout of [#1]: " otherwise.
std::string ReadLabel(const std::optional<std::vector<ScalarExpr>>& input_key);

/// Checks a Join node given its inputs' arities; returns the output arity.
absl::StatusOr<Arity> CheckJoin(const JoinOp& join,
                                std::span<const Arity> inputs);

/// Checks a Reduce node given its input's arity; returns the output arity.
absl::StatusOr<Arity> CheckReduce(const ReduceOp& reduce, Arity input);

/// Output columns of table function `func` (as printed, parameters
/// included) when its result shape is fixed; other functions (e.g.
/// `regexp_extract`, one column per capture group) are not guessed.
Arity TableFunctionArity(std::string_view func);

/// `(#1, #2)`: positions as the messages show them.
std::string PositionsText(const std::vector<int>& positions);

}  // namespace lir::validate_internal

#endif  // LIR_LIR_VALIDATE_INTERNAL_H_
