// The scoped walker's non-template parts: the input-count check (the rule
// is RequiredInputs, node.h) and the default wording of scope violations.
#include "lir/walk.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace lir {

absl::Status CheckNodeInputs(const Node& node) {
  const InputCountRange required = RequiredInputs(node.op);
  const size_t count = node.inputs.size();
  if (required.Exact() && count != required.min) {
    return NodeError(
        node, absl::StatusCode::kInvalidArgument,
        absl::StrCat("has ", count, " inputs, expected ", required.min));
  }
  if (!required.Allows(count)) {
    return NodeError(node, absl::StatusCode::kInvalidArgument, "has no inputs");
  }
  for (size_t i = 0; i < count; ++i) {
    if (node.inputs[i] == nullptr) {
      return NodeError(node, absl::StatusCode::kInvalidArgument,
                       absl::StrCat("input ", i, " is null"));
    }
  }
  return absl::OkStatus();
}

absl::Status DefaultScopeError(const Node& node, ScopeViolation violation,
                               uint64_t id) {
  std::string message;
  switch (violation) {
    case ScopeViolation::kUnbound:
      message = absl::StrCat("l", id, " is not bound here");
      break;
    case ScopeViolation::kShadowing:
      message =
          absl::StrCat("l", id, " is already bound by an enclosing binding");
      break;
    case ScopeViolation::kDuplicateLetRecId:
      message = "binds the same id twice";
      break;
  }
  return NodeError(node, absl::StatusCode::kInvalidArgument, message);
}

}  // namespace lir
