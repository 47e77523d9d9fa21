// Fuzz target (a): text parse -> validate -> print -> reparse.
//
// Properties: parsing never crashes and fails only with a located
// InvalidArgument error; whatever parsed prints as text that parses again
// and prints the same (print(parse(print(x))) == print(x)), with and without
// node identifiers; a plan that validated still validates after the round
// trip; and a validated plan's JSON form reads back to the same text
// (the JSON form is lossless: include/lir/explain/json.h).
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

// Prints `doc`, then checks that the printed text is a fixed point of
// parse+print under `options`.
std::string CheckStablePrint(const Document& doc,
                             const explain::PrintOptions& options,
                             absl::string_view what) {
  const std::string printed = explain::PrintText(doc, options);
  absl::StatusOr<Document> reparsed = explain::ParseText(printed);
  if (!reparsed.ok()) {
    Fail(std::string(what) + ": printed text does not parse again", printed,
         reparsed.status().ToString());
  }
  CheckEqual(printed, explain::PrintText(*reparsed, options),
             std::string(what) + ": print(parse(print(x))) != print(x)");
  return printed;
}

void FuzzOne(std::string_view text) {
  const std::optional<Document> doc =
      ReadOrRefuse(explain::ParseText(text), "ParseText");
  if (!doc.has_value()) return;
  // A mutation can turn the input into concise text, a partial plan that
  // the verbose printer must not print (placeholders would read as facts);
  // concise_roundtrip_fuzz covers that syntax.
  if (doc->syntax == TextSyntax::kConcise) return;
  const bool valid = Validate(*doc).ok();
  const std::string printed = CheckStablePrint(*doc, {}, "plain");
  CheckStablePrint(*doc, WithNodeIds(), "node identifiers");
  if (!valid) return;

  // CheckStablePrint read `printed` back already.
  CheckStillValid(*explain::ParseText(printed), printed);
  const std::string json = explain::WriteJson(*doc);
  absl::StatusOr<Document> from_json = explain::ReadJson(json);
  if (!from_json.ok()) {
    Fail("the JSON form of a valid plan does not read back", json,
         from_json.status().ToString());
  }
  CheckEqual(printed, explain::PrintText(*from_json),
             "text -> JSON -> text changed the plan");
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
