// Fuzz target (b): JSON read -> write -> read.
//
// Properties: reading never crashes and fails only with a located
// InvalidArgument error; whatever was read writes JSON that reads back to
// the same document (the same JSON and the same text); and a document that
// validates prints as text that parses back to the same text, so the JSON
// reader accepts nothing the text form cannot carry (opaque expressions
// aside: they print verbatim by design).
//
// Inputs starting with the byte 0xFF test the nesting limit instead, past
// libFuzzer's input sizes: the next two bytes give a depth D up to 9,000,
// and the rest is wrapped in D levels of `[`...`]`. Reading must refuse
// nesting past kMaxJsonNesting (4,096) with its located message, without
// recursing, and never crash at any depth.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "fuzz/fuzz_util.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/validate.h"
#include "src/explain/json_unique_keys.h"

namespace lir::fuzz {
namespace {

constexpr size_t kMaxNesting = explain::kMaxJsonNesting;

// How WriteJson spells an opaque expression's kind.
constexpr std::string_view kOpaqueKind = "\"kind\": \"opaque\"";

void FuzzNesting(std::string_view rest) {
  const size_t depth =
      rest.size() < 2
          ? 0
          : (static_cast<size_t>(static_cast<uint8_t>(rest[0])) << 8 |
             static_cast<uint8_t>(rest[1])) %
                9001;
  rest.remove_prefix(std::min<size_t>(rest.size(), 2));
  std::string text(depth, '[');
  text.append(rest);
  text.append(depth, ']');
  absl::StatusOr<Document> read = explain::ReadJson(text);
  if (read.ok()) {
    if (depth > kMaxNesting) Fail("JSON nested past the limit was read", text);
    return;
  }
  CheckInputError(read.status(), "ReadJson (nested)");
  // The first 4,097 bytes are `[`: past the limit, the reader stops there.
  if (depth > kMaxNesting &&
      read.status().message().find("nesting deeper than") ==
          std::string_view::npos) {
    Fail("JSON nested past the limit is not refused as too deep",
         read.status().ToString());
  }
}

void FuzzOne(std::string_view text) {
  if (!text.empty() && static_cast<uint8_t>(text[0]) == 0xFF) {
    FuzzNesting(text.substr(1));
    return;
  }
  const std::optional<Document> doc =
      ReadOrRefuse(explain::ReadJson(text), "ReadJson");
  if (!doc.has_value()) return;
  const std::string json = explain::WriteJson(*doc);
  absl::StatusOr<Document> again = explain::ReadJson(json);
  if (!again.ok()) {
    Fail("written JSON does not read back", json, again.status().ToString());
  }
  CheckEqual(json, explain::WriteJson(*again),
             "JSON -> read -> write is not stable");
  const std::string printed = explain::PrintText(*doc);
  CheckEqual(printed, explain::PrintText(*again),
             "JSON -> read -> write -> read printed differently");

  if (!Validate(*doc).ok()) return;
  // Opaque expressions print verbatim and are never read back as opaque
  // (docs/json-format.md), so a document holding one has no text property.
  if (json.find(kOpaqueKind) != std::string::npos) return;
  absl::StatusOr<Document> parsed = explain::ParseText(printed);
  if (!parsed.ok()) {
    Fail("a valid JSON document prints text that does not parse", printed,
         parsed.status().ToString());
  }
  CheckEqual(printed, explain::PrintText(*parsed),
             "a valid JSON document's text parses to a different plan");
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
