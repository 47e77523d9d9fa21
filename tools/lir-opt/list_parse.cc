// Parsing of analysis inputs given as text (CLI flags, golden arguments).
#include "tools/lir-opt/list_parse.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace lir::cli {

void ParseIdList(absl::string_view list, std::set<std::string>* ids) {
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    item = absl::StripAsciiWhitespace(item);
    if (!item.empty()) ids->insert(std::string(item));
  }
}

absl::Status ParseArityList(absl::string_view list,
                            std::map<std::string, int>* arities) {
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    item = absl::StripAsciiWhitespace(item);
    const size_t eq = item.rfind('=');
    if (eq == absl::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected name=ARITY, got '", item, "'"));
    }
    std::string name(absl::StripAsciiWhitespace(item.substr(0, eq)));
    int arity = 0;
    if (!absl::SimpleAtoi(item.substr(eq + 1), &arity) || arity < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected a non-negative arity in '", item, "'"));
    }
    auto [it, inserted] = arities->emplace(name, arity);
    if (!inserted && it->second != arity) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " is given arities ", it->second, " and ", arity));
    }
  }
  return absl::OkStatus();
}

}  // namespace lir::cli
