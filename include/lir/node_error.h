// Errors about one plan node: the text every layer prints
// (`LirId(7) Get::Arrangement: <message>`) plus a machine-readable payload
// naming the node, so that a caller can tell which node failed (and whether
// an error already names one) without parsing the message.
#ifndef LIR_LIR_NODE_ERROR_H_
#define LIR_LIR_NODE_ERROR_H_

#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "lir/node.h"

namespace lir {

/// The absl::Status payload type URL under which a node error carries its
/// node (payload text: `<LirId> <KindName>`, e.g. `7 Get`).
inline constexpr std::string_view kNodeErrorTypeUrl = "lir.dev/node";

/// The node a node error names.
struct NodeErrorInfo {
  LirId id = 0;
  NodeKind kind = NodeKind::kConstant;
  friend bool operator==(const NodeErrorInfo&, const NodeErrorInfo&) = default;
};

/// A `code` status with message `LirId(<id>) <HeaderName>: <message>` and
/// the node's LirId and kind attached as the kNodeErrorTypeUrl payload.
absl::Status NodeError(const Node& node, absl::StatusCode code,
                       std::string_view message);

/// `status` attributed to `node`: unchanged when it is OK or already names a
/// node (so an error raised deep inside keeps the innermost node), otherwise
/// NodeError(node, status.code(), status.message()) keeping its other
/// payloads.
absl::Status AttachNode(const Node& node, const absl::Status& status);

/// The node `status` names, if it was made by NodeError / AttachNode.
std::optional<NodeErrorInfo> NodeErrorOf(const absl::Status& status);

/// `status` with `prefix` put before its message, code and payloads kept
/// (for callers that add context such as the object name).
absl::Status PrefixStatus(std::string_view prefix, const absl::Status& status);

}  // namespace lir

#endif  // LIR_LIR_NODE_ERROR_H_
