// Spellings of the enumerations in the JSON form (docs/json-format.md),
// shared by the JSON writer and reader (internal).
#ifndef LIR_EXPLAIN_JSON_NAMES_H_
#define LIR_EXPLAIN_JSON_NAMES_H_

#include <array>
#include <string_view>

#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::explain::internal {

// Each table is indexed by the enumerator's value, so the order must follow
// the enum declarations. Values that also appear in the text form keep their
// text spelling (CamelCase); the others are snake_case.

/// NodeKind -> `"kind"` of a plan node.
/// From include/lir/node_kinds.def, so it has one entry per kind in order.
inline constexpr std::array<std::string_view, kNodeKindCount> kNodeKindNames = {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) JsonName,
#include "lir/node_kinds.def"
};

/// ScalarKind -> `"kind"` of an expression.
inline constexpr std::array<std::string_view, 6> kScalarKindNames = {
    "column", "literal", "call", "if", "case_lookup", "opaque"};

/// LiteralKind -> `"type"` of a datum.
inline constexpr std::array<std::string_view, 11> kLiteralKindNames = {
    "null",      "bool",        "number",   "string",   "date", "time",
    "timestamp", "timestamptz", "interval", "redacted", "other"};

/// CallStyle -> `"style"` of a call.
inline constexpr std::array<std::string_view, 5> kCallStyleNames = {
    "function", "infix", "postfix_is", "not", "bracket_list"};

/// GetKind -> `"get_kind"`.
inline constexpr std::array<std::string_view, 3> kGetKindNames = {
    "PassArrangements", "Arrangement", "Collection"};

/// ReduceKind -> `"reduce_kind"`.
inline constexpr std::array<std::string_view, 6> kReduceKindNames = {
    "Distinct",
    "Accumulable",
    "HierarchicalMonotonic",
    "HierarchicalBucketed",
    "BasicSingle",
    "BasicMultiple"};

/// TopKKind -> `"topk_kind"`.
inline constexpr std::array<std::string_view, 3> kTopKKindNames = {
    "MonotonicTop1", "MonotonicTopK", "Basic"};

/// UnionStrategy -> an entry of `"strategies"`.
inline constexpr std::array<std::string_view, 2> kUnionStrategyNames = {
    "Direct", "TemporalBucketing"};

/// The spelling of enumerator `value` in `names`.
template <typename Enum, size_t N>
std::string_view EnumName(const std::array<std::string_view, N>& names,
                          Enum value) {
  size_t index = static_cast<size_t>(value);
  return index < N ? names[index] : std::string_view("?");
}

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_JSON_NAMES_H_
