// Non-template helpers of the interpretation driver.
#include "src/interp/driver.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace lir::interp::driver_internal {

absl::Status NodeError(const Node& node, std::string message) {
  return absl::InvalidArgumentError(
      absl::StrCat("LirId(", node.id, ") ", HeaderName(node), ": ", message));
}

absl::Status CheckInputs(const Node& node) {
  const size_t count = node.inputs.size();
  const InputCountRange range = RequiredInputs(node.op);
  if (!range.Allows(count)) {
    return NodeError(node, absl::StrCat("has ", count, " inputs, expected ",
                                        range.Exact() ? "" : "at least ",
                                        range.min));
  }
  for (size_t i = 0; i < count; ++i) {
    if (node.inputs[i] == nullptr) {
      return NodeError(node, absl::StrCat("input ", i, " is null"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> LetRecRoundLimit(const Node& node) {
  const LetRecOp& op = node.As<LetRecOp>();
  if (std::set<uint64_t>(op.ids.begin(), op.ids.end()).size() != op.ids.size()) {
    return NodeError(node, "binds the same id twice");
  }
  uint64_t limit = kMaxLetRecRounds;
  for (const std::optional<LetRecLimit>& l : op.limits) {
    if (l.has_value()) limit = std::min(limit, l->max_iters);
  }
  return limit;
}

}  // namespace lir::interp::driver_internal
