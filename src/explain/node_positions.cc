// Finding the node an error names among the positions a text read recorded
// (NodePositions in lir/explain/text.h).
#include <optional>

#include "lir/explain/text.h"
#include "lir/node_error.h"

namespace lir::explain {

std::optional<SourcePosition> NodePositions::Of(
    const absl::Status& error) const {
  const std::optional<NodeErrorInfo> node = NodeErrorOf(error);
  if (!node.has_value()) return std::nullopt;
  std::optional<size_t> object = ObjectErrorOf(error);
  if (!object.has_value()) {
    // An error about a plan that does not say which (a per-plan analysis):
    // unambiguous only when the document has one plan.
    for (size_t i = 0; i < objects.size(); ++i) {
      if (objects[i].empty()) continue;
      if (object.has_value()) return std::nullopt;
      object = i;
    }
    if (!object.has_value()) return std::nullopt;
  }
  if (*object >= objects.size()) return std::nullopt;
  const auto it = objects[*object].find(node->id);
  if (it == objects[*object].end()) return std::nullopt;
  return it->second;
}

}  // namespace lir::explain
