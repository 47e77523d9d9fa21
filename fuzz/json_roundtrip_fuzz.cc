// Fuzz target (b): JSON read -> write -> read.
//
// Properties: reading never crashes and fails only with a located
// InvalidArgument error; whatever was read writes JSON that reads back to
// the same document (the same JSON and the same text); and a document that
// validates prints as text that parses back to the same text, so the JSON
// reader accepts nothing the text form cannot carry (opaque expressions
// aside: they print verbatim by design).
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

namespace lir::fuzz {
namespace {

// How WriteJson spells an opaque expression's kind.
constexpr std::string_view kOpaqueKind = "\"kind\": \"opaque\"";

void FuzzOne(std::string_view text) {
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
