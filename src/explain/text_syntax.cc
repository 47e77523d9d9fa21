// Which of Materialize's two physical-plan text syntaxes a document uses,
// and ParseText, which reads either.
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/concise.h"
#include "lir/explain/text.h"
#include "src/explain/text_syntax.h"

namespace lir::explain {

TextSyntax DetectTextSyntax(std::string_view text) {
  // The first indented line after the first object header is its plan
  // body (or its Finish line, which both syntaxes print the same).
  size_t start = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t indent = line.find_first_not_of(' ');
    if (indent == 0 || indent == std::string_view::npos) continue;
    std::string_view content = line.substr(indent);
    if (content == "Finish" || content.substr(0, 7) == "Finish ") continue;
    return content.substr(0, 3) == "\xE2\x86\x92" ? TextSyntax::kConcise
                                                  : TextSyntax::kVerbose;
  }
  return TextSyntax::kVerbose;
}

absl::StatusOr<Document> ParseText(std::string_view text,
                                   const ParseOptions& options) {
  // An empty document is no plan: refused rather than printed as nothing
  // (a truncated or mistyped file would otherwise pass every check).
  std::string_view rest = text;
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  if (rest.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.filename, ":", options.first_line,
        ":1: expected a plan (an object header '<name>:'), but the input is "
        "empty or blank"));
  }
  if (DetectTextSyntax(text) == TextSyntax::kConcise) {
    return ParseConciseText(text, options);
  }
  return internal::ParseVerboseText(text, options);
}

}  // namespace lir::explain
