// Structural validation of LIR plans.
#ifndef LIR_LIR_VALIDATE_H_
#define LIR_LIR_VALIDATE_H_

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/node.h"

namespace lir {

/// What the caller knows about global collections.
struct ValidateOptions {
  /// Arity of global collections by printed name, when known.
  std::map<std::string, int> global_arity;
};

/// Checks one plan: arities consistent through every node (MFP input
/// arities, projections, keys and closures in range, arrangement
/// permutation/thinning consistent with key and arity), local ids bound and
/// never shadowed, LetRec well formed, inputs per kind. Unknown arities (a
/// global collection nothing reveals) are not guessed; checks that need them
/// are skipped. Errors are InvalidArgument: `LirId(7) Mfp: projection column
/// #5 out of range for arity 3`. Iterative.
absl::Status Validate(const Node& plan, const ValidateOptions& options = {});

/// Validates every plan of a document; errors are prefixed with the object
/// name. LirIds must be unique within each object.
absl::Status Validate(const Document& doc, const ValidateOptions& options = {});

/// The output arity of every node as Validate infers it (nullopt: unknown),
/// by LirId. Fails exactly when Validate fails.
absl::StatusOr<std::map<LirId, std::optional<int>>> InferArities(
    const Node& plan, const ValidateOptions& options = {});

}  // namespace lir

#endif  // LIR_LIR_VALIDATE_H_
