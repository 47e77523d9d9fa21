// Node errors: one place builds the `LirId(n) Header: ` text and its payload.
#include "lir/node_error.h"

#include <cstddef>
#include <string>
#include <variant>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "src/lir/string_view_compat.h"

namespace lir {
namespace {

// kNodeErrorTypeUrl as absl::Status's payload API takes it.
constexpr absl::string_view kPayloadUrl = ToAbsl(kNodeErrorTypeUrl);
constexpr absl::string_view kObjectPayloadUrl = ToAbsl(kObjectErrorTypeUrl);

absl::Cord Payload(const Node& node) {
  return absl::Cord(
      absl::StrCat(node.id, " ", std::string(KindName(node.kind()))));
}

/// Copies every payload of `from` onto `to` (which has none of them yet).
void CopyPayloads(const absl::Status& from, absl::Status& to) {
  from.ForEachPayload([&](absl::string_view url, const absl::Cord& payload) {
    to.SetPayload(url, payload);
  });
}

}  // namespace

absl::Status NodeError(const Node& node, absl::StatusCode code,
                       std::string_view message) {
  absl::Status status(
      code, absl::StrCat("LirId(", node.id, ") ", HeaderName(node), ": ",
                         ToAbsl(message)));
  status.SetPayload(kPayloadUrl, Payload(node));
  return status;
}

absl::Status AttachNode(const Node& node, const absl::Status& status) {
  if (status.ok() || status.GetPayload(kPayloadUrl).has_value()) {
    return status;
  }
  absl::Status named = NodeError(node, status.code(), ToStd(status.message()));
  CopyPayloads(status, named);
  return named;
}

std::optional<NodeErrorInfo> NodeErrorOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kPayloadUrl);
  if (!payload.has_value()) return std::nullopt;
  const std::string text(*payload);
  const size_t space = text.find(' ');
  if (space == std::string::npos) return std::nullopt;
  NodeErrorInfo info;
  if (!absl::SimpleAtoi(absl::string_view(text).substr(0, space), &info.id)) {
    return std::nullopt;
  }
  const std::string name = text.substr(space + 1);
  // Every kind is tried, so a kind added to NodeOp is found without a change
  // here.
  for (size_t k = 0; k < std::variant_size_v<NodeOp>; ++k) {
    const NodeKind kind = static_cast<NodeKind>(k);
    if (std::string(KindName(kind)) == name) {
      info.kind = kind;
      return info;
    }
  }
  return std::nullopt;
}

absl::Status PrefixStatus(std::string_view prefix, const absl::Status& status) {
  if (status.ok()) return status;
  absl::Status prefixed(status.code(),
                        absl::StrCat(ToAbsl(prefix), status.message()));
  CopyPayloads(status, prefixed);
  return prefixed;
}

absl::Status ObjectError(size_t index, std::string_view name,
                         const absl::Status& status) {
  if (status.ok()) return status;
  absl::Status named = PrefixStatus(absl::StrCat(ToAbsl(name), ": "), status);
  named.SetPayload(kObjectPayloadUrl, absl::Cord(absl::StrCat(index)));
  return named;
}

std::optional<size_t> ObjectErrorOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kObjectPayloadUrl);
  size_t index = 0;
  if (!payload.has_value() ||
      !absl::SimpleAtoi(std::string(*payload), &index)) {
    return std::nullopt;
  }
  return index;
}

}  // namespace lir
