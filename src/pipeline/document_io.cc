#include "lir/pipeline/document_io.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/explain/concise.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/interp/global_facts.h"
#include "lir/interp/partial_inference.h"
#include "lir/node_error.h"
#include "lir/partial.h"
#include "lir/status_macros.h"
#include "lir/validate.h"
#include "src/explain/json_locate.h"
#include "src/explain/utf8.h"
#include "src/pipeline/name_input.h"

namespace lir {

absl::Status NameInput(const absl::Status& status, std::string_view name) {
  const absl::string_view prefix(name.data(), name.size());
  if (status.ok() || absl::StartsWith(status.message(), prefix)) return status;
  return PrefixStatus(absl::StrCat(prefix, ": "), status);
}

namespace {

// The post-order index of node `id` in `plan`: where the JSON form lists it
// (json-format.md: a plan is its post-order node array).
std::optional<size_t> PostOrderIndex(const Node& plan, LirId id) {
  std::optional<size_t> found;
  size_t index = 0;
  ForEachPostOrder(plan, [&](const Node& node) {
    if (!found.has_value() && node.id == id) found = index;
    ++index;
  });
  return found;
}

// `file:line:column: ` of the node a node error of a document read from
// `text` names, or nullopt. Positions are found only now, on an error: a
// text is read again recording them (a read that succeeds never pays for
// them), a JSON text walked to the node's entry (`/objects/o/plan/i`, also
// named).
std::optional<std::string> NodeErrorPlace(const absl::Status& status,
                                          std::string_view text,
                                          DocumentFormat format,
                                          const ReadOptions& options,
                                          const Document& doc) {
  const std::optional<NodeErrorInfo> node = NodeErrorOf(status);
  if (!node.has_value()) return std::nullopt;
  if (format == DocumentFormat::kJson) {
    const std::optional<size_t> object = ObjectErrorOf(status);
    if (!object.has_value() || *object >= doc.objects.size() ||
        doc.objects[*object].plan == nullptr) {
      return std::nullopt;
    }
    const std::optional<size_t> index =
        PostOrderIndex(*doc.objects[*object].plan, node->id);
    if (!index.has_value()) return std::nullopt;
    const explain::JsonLocator locator(text);
    return absl::StrCat(
        locator.Where(options.file_name,
                      locator.Find({"objects", *object, "plan", *index})),
        ": /objects/", *object, "/plan/", *index, ": ");
  }
  explain::NodePositions positions;
  explain::ParseOptions parse_options;
  parse_options.filename = options.file_name;
  parse_options.positions = &positions;
  if (!explain::ParseText(text, parse_options).ok()) return std::nullopt;
  const std::optional<explain::SourcePosition> at = positions.Of(status);
  if (!at.has_value()) return std::nullopt;
  return absl::StrCat(options.file_name, ":", at->line, ":", at->column, ": ");
}

// NameInput for an error found after reading (validation, inference): the
// failing node's place when it has one, else the input's name.
absl::Status NameNodeError(const absl::Status& status, std::string_view text,
                           DocumentFormat format, const ReadOptions& options,
                           const Document& doc) {
  if (status.ok()) return status;
  if (std::optional<std::string> place =
          NodeErrorPlace(status, text, format, options, doc)) {
    return PrefixStatus(*place, status);
  }
  return NameInput(status, options.file_name);
}

}  // namespace

DocumentFormat DetectDocumentFormat(std::string_view text) {
  if (text.starts_with(explain::kUtf8Bom)) {
    text.remove_prefix(explain::kUtf8Bom.size());
  }
  const size_t first = text.find_first_not_of(" \t\r\n\f\v");
  return first != std::string_view::npos && text[first] == '{'
             ? DocumentFormat::kJson
             : DocumentFormat::kText;
}

absl::StatusOr<Document> ReadDocument(std::string_view text,
                                      const ReadOptions& options) {
  const DocumentFormat format = options.format == DocumentFormat::kAuto
                                    ? DetectDocumentFormat(text)
                                    : options.format;
  absl::StatusOr<Document> doc;
  if (format == DocumentFormat::kJson) {
    doc = explain::ReadJson(text, options.file_name);
  } else {
    explain::ParseOptions parse_options;
    parse_options.filename = options.file_name;
    doc = explain::ParseText(text, parse_options);
  }
  if (!doc.ok()) return NameInput(doc.status(), options.file_name);
  if (options.validate) {
    LIR_RETURN_IF_ERROR(
        NameNodeError(Validate(*doc), text, format, options, *doc));
  }
  if (options.given_facts.has_value()) {
    LIR_RETURN_IF_ERROR(interp::CheckGlobalFacts(*doc, *options.given_facts,
                                                 options.file_name));
  }
  if (options.infer_partial_facts && IsPartial(*doc)) {
    LIR_RETURN_IF_ERROR(
        NameNodeError(interp::InferPartialFacts(*doc, options.global_arity),
                      text, format, options, *doc));
    // What the inference revealed (an arity, a layout) can contradict the
    // plan: a fault of the input, found here rather than after the passes.
    if (options.validate) {
      LIR_RETURN_IF_ERROR(
          NameNodeError(Validate(*doc), text, format, options, *doc));
    }
  }
  return doc;
}

namespace {

// The bytes of indentation the document's text holds at least (two spaces
// per level on every node's header line), with the deepest level, by an
// explicit stack: the plans may be 10^5 deep.
std::pair<uint64_t, uint64_t> IndentationBytes(const Document& doc) {
  uint64_t total = 0;
  uint64_t deepest = 0;
  std::vector<std::pair<const Node*, uint64_t>> stack;
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr) stack.emplace_back(object.plan.get(), 1);
  }
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    total += 2 * depth;  // at most 2 * 10^5 per node: no overflow in practice
    for (const NodePtr& input : node->inputs) {
      if (input != nullptr) stack.emplace_back(input.get(), depth + 1);
    }
  }
  return {total, deepest};
}

}  // namespace

absl::StatusOr<std::string> WriteDocument(const Document& doc,
                                          const WriteOptions& options) {
  explain::PrintOptions print_options;
  print_options.node_identifiers = options.node_identifiers;
  print_options.annotate = options.annotate;
  WriteFormat format = options.format;
  if (format == WriteFormat::kText) {
    format = doc.syntax == TextSyntax::kConcise ? WriteFormat::kConcise
                                                : WriteFormat::kVerbose;
  }
  if (format == WriteFormat::kDot) return explain::PrintDot(doc, options.dot);
  if (format != WriteFormat::kJson) {
    const auto [indentation, depth] = IndentationBytes(doc);
    if (indentation > options.max_text_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the EXPLAIN text of this document would hold at least ", indentation,
          " bytes of indentation (its plans nest ", depth,
          " levels deep, and text indents two spaces per level), more than "
          "the limit of ",
          options.max_text_bytes,
          " bytes (raise it with --max_text_bytes=N, "
          "WriteOptions::max_text_bytes, or write --format=json, whose size "
          "is linear in the plan)"));
    }
  }
  switch (format) {
    case WriteFormat::kJson: {
      LIR_RETURN_IF_ERROR(RequireKnownFacts(doc, "lir's JSON form"));
      explain::JsonWriteOptions json_options;
      json_options.annotations = options.json_annotations;
      return explain::WriteJson(doc, json_options);
    }
    case WriteFormat::kConcise:
      return explain::PrintConciseText(doc, print_options);
    case WriteFormat::kText:
    case WriteFormat::kVerbose:
    case WriteFormat::kDot: break;
  }
  LIR_RETURN_IF_ERROR(RequireKnownFacts(doc, "the verbose syntax"));
  return explain::PrintText(doc, print_options);
}

}  // namespace lir
