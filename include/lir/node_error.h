// Errors about one plan node: the text every layer prints
// (`LirId(7) Get::Arrangement: <message>`) plus a machine-readable payload
// naming the node, so that a caller can tell which node failed (and whether
// an error already names one) without parsing the message.
#ifndef LIR_LIR_NODE_ERROR_H_
#define LIR_LIR_NODE_ERROR_H_

#include <cstddef>
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

/// The absl::Status payload type URL under which an error about one object
/// of a document carries the object's index in Document::objects (payload
/// text: the decimal index), so that a caller can find the node a node error
/// names in the right plan.
inline constexpr std::string_view kObjectErrorTypeUrl = "lir.dev/object";

/// `status` about object `index` of a document, whose name is `name`:
/// `<name>: ` put before its message, the index attached as the
/// kObjectErrorTypeUrl payload, code and other payloads kept. OK stays OK.
absl::Status ObjectError(size_t index, std::string_view name,
                         const absl::Status& status);

/// The index of the object `status` names, if made by ObjectError.
std::optional<size_t> ObjectErrorOf(const absl::Status& status);

/// `status` with `prefix` put before its message, code and payloads kept
/// (for callers that add context such as the object name).
absl::Status PrefixStatus(std::string_view prefix, const absl::Status& status);

}  // namespace lir

#endif  // LIR_LIR_NODE_ERROR_H_
