// The versioned JSON form of a plan document (docs/json-format.md).
#ifndef LIR_EXPLAIN_JSON_H_
#define LIR_EXPLAIN_JSON_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "nlohmann/json.hpp"

namespace lir::explain {

/// The JSON format version written in every document's `"format"` field.
/// Version 2 replaced the verbatim `fast_path` lines of version 1 with a
/// structured object; the reader accepts both (kJsonFormatV1 documents'
/// lines are parsed as text).
inline constexpr std::string_view kJsonFormat = "lir-plan/2";
/// The previous version, still read.
inline constexpr std::string_view kJsonFormatV1 = "lir-plan/1";

/// Options for writing JSON.
struct JsonWriteOptions {
  /// Extra per-node results (analysis annotations): when set and it returns
  /// a non-empty object for a node, that object is written as the node's
  /// `"annotations"` member. Readers ignore it.
  std::function<nlohmann::json(const Node&)> annotations;
};

/// Converts a document to JSON. Lossless: ReadJson(WriteJson(d)) prints the
/// same text as d. Plans are stored as flat node lists, so output nesting
/// does not grow with plan depth.
nlohmann::json ToJson(const Document& doc,
                      const JsonWriteOptions& options = {});

/// Reads a document from JSON, checking the format version and every field.
/// Errors are InvalidArgument naming the JSON path (`/objects/0/plan/12/kind`)
/// and what was expected there.
absl::StatusOr<Document> FromJson(const nlohmann::json& json);

/// Serializes any JSON value; never throws. `indent` < 0 writes one line.
/// nlohmann's dump() throws on strings that are not UTF-8; the readers
/// (ParseText, ReadJson) reject such bytes, so documents they produce always
/// dump exactly. Only strings made elsewhere (evaluator results) can still
/// hold invalid bytes: they are written with U+FFFD in their place rather
/// than aborting the program.
std::string DumpJson(const nlohmann::json& value, int indent = -1);

/// DumpJson(value, 2) for a value whose first line sits `depth` levels (of
/// two spaces) deep in an enclosing document: every later line is indented
/// by as much, so that a document written piece by piece (a run's rounds,
/// slt's blocks) reads exactly as DumpJson(whole, 2) would print it.
std::string DumpJsonAt(const nlohmann::json& value, int depth);

/// Serializes ToJson(doc) with two-space indentation and a final newline.
std::string WriteJson(const Document& doc,
                      const JsonWriteOptions& options = {});

/// Parses JSON text (any JSON, not only plans). A syntax error, or a key
/// repeated within one object (json_unique_keys.h), is InvalidArgument
/// `filename:line:column: <context><what is wrong>`.
absl::StatusOr<nlohmann::json> ParseJsonText(std::string_view text,
                                             std::string_view filename,
                                             std::string_view context = "");

/// Parses JSON text and then FromJson. Syntax errors are reported as
/// `file:line:column: ...`.
absl::StatusOr<Document> ReadJson(std::string_view text,
                                  std::string_view filename = "<input>");

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_JSON_H_
