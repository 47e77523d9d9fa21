// Fuzz target: concise text parse -> print -> reparse
// (../shared/reference/CONCISE-FORMAT.md).
//
// Properties: reading any bytes as concise text never crashes and fails
// only with a located InvalidArgument error; whatever parsed prints as
// concise text (a plan read from the concise form holds every fact the
// form prints, so the printer never refuses it), that text parses again and
// prints the same (print(parse(print(x))) == print(x)), with and without
// node identifiers, and the second reading marks the same facts unknown; a
// plan that validated still validates after the round trip.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "lir/document.h"
#include "lir/explain/concise.h"
#include "lir/explain/text.h"
#include "lir/validate.h"

namespace lir::fuzz {
namespace {

// Every node's unknown facts, in pre-order, as text (to compare readings).
std::string UnknownMarks(const Document& doc) {
  std::string out;
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr) {
      ForEachPreOrder(*object.plan, [&](const Node& node, int) {
        node.unknown.ForEach([&](UnknownFact fact) {
          out += std::to_string(static_cast<int>(fact));
        });
        out += ';';
      });
    }
    if (object.fast_path.has_value()) {
      out +=
          object.fast_path->unknown.Has(UnknownFact::kConstantRows) ? "c" : "-";
    }
    out += '|';
  }
  return out;
}

// Prints `doc` as concise text under `options` and checks that the text is
// a fixed point of parse+print; returns the printed text.
std::string CheckStablePrint(const Document& doc,
                             const explain::PrintOptions& options,
                             absl::string_view what) {
  absl::StatusOr<std::string> printed = explain::PrintConciseText(doc, options);
  if (!printed.ok()) {
    Fail(std::string(what) +
             ": the concise printer refused a plan read from concise text",
         printed.status().ToString());
  }
  absl::StatusOr<Document> reparsed = explain::ParseConciseText(*printed);
  if (!reparsed.ok()) {
    Fail(std::string(what) + ": printed text does not parse again", *printed,
         reparsed.status().ToString());
  }
  absl::StatusOr<std::string> again =
      explain::PrintConciseText(*reparsed, options);
  if (!again.ok()) {
    Fail(std::string(what) + ": the reparsed plan does not print", *printed,
         again.status().ToString());
  }
  CheckEqual(*printed, *again,
             std::string(what) + ": print(parse(print(x))) != print(x)");
  CheckEqual(UnknownMarks(doc), UnknownMarks(*reparsed),
             std::string(what) + ": the reparsed plan lacks other facts");
  return *printed;
}

void FuzzOne(std::string_view text) {
  const std::optional<Document> doc =
      ReadOrRefuse(explain::ParseConciseText(text), "ParseConciseText");
  if (!doc.has_value()) return;
  if (doc->syntax != TextSyntax::kConcise) {
    Fail("ParseConciseText returned a document not marked concise");
  }
  const bool valid = Validate(*doc).ok();
  const std::string printed = CheckStablePrint(*doc, {}, "plain");
  CheckStablePrint(*doc, WithNodeIds(), "node identifiers");
  if (!valid) return;
  // CheckStablePrint read `printed` back already.
  CheckStillValid(*explain::ParseConciseText(printed), printed);
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
