// The scoped walker's non-template parts: the input-count rule and the
// default wording of scope violations.
#include "src/lir/walk.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace lir {
namespace {

/// The exact input count `node`'s kind requires, or -1 for "at least one"
/// (Join and Union).
int RequiredInputs(const Node& node) {
  switch (node.kind()) {
    case NodeKind::kConstant:
    case NodeKind::kGet:
      return 0;
    case NodeKind::kLet:
    case NodeKind::kSetDifference:
      return 2;
    case NodeKind::kLetRec:
      return static_cast<int>(node.As<LetRecOp>().ids.size()) + 1;
    case NodeKind::kJoin:
    case NodeKind::kUnion:
      return -1;
    case NodeKind::kMfp:
    case NodeKind::kFlatMap:
    case NodeKind::kReduce:
    case NodeKind::kTopK:
    case NodeKind::kNegate:
    case NodeKind::kThreshold:
    case NodeKind::kArrangeBy:
      return 1;
  }
  return 1;
}

}  // namespace

absl::Status CheckNodeInputs(const Node& node) {
  const int required = RequiredInputs(node);
  const size_t count = node.inputs.size();
  if (required >= 0 && count != static_cast<size_t>(required)) {
    return NodeError(node, absl::StatusCode::kInvalidArgument,
                     absl::StrCat("has ", count, " inputs, expected ", required));
  }
  if (required < 0 && count == 0) {
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
      message = absl::StrCat("l", id, " is already bound by an enclosing binding");
      break;
    case ScopeViolation::kDuplicateLetRecId:
      message = "binds the same id twice";
      break;
  }
  return NodeError(node, absl::StatusCode::kInvalidArgument, message);
}

}  // namespace lir
