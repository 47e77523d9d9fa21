#include "src/explain/json_unique_keys.h"

#include <algorithm>
#include <cstddef>
#include <exception>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain {
namespace {

using nlohmann::json;

// 1-based line and byte column of `offset`.
std::pair<size_t, size_t> LineColumnOf(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, offset - line_start + 1};
}

// nlohmann's message without its `[json.exception...] parse error at line
// L, column C: ` prefix (the position is reported our way instead).
std::string ParseErrorDetail(absl::string_view what) {
  if (absl::StartsWith(what, "[json.exception.")) {
    size_t end = what.find("] ");
    if (end != absl::string_view::npos) what.remove_prefix(end + 2);
  }
  if (absl::StartsWith(what, "parse error")) {
    size_t colon = what.find(": ");
    if (colon != absl::string_view::npos) what.remove_prefix(colon + 2);
  }
  return std::string(what);
}

std::string Located(std::string_view filename, std::string_view text,
                    size_t offset, std::string_view context,
                    std::string_view what) {
  auto [line, column] = LineColumnOf(text, offset);
  return absl::StrCat(ToAbsl(filename), ":", line, ":", column, ": ",
                      ToAbsl(context), ParseErrorDetail(ToAbsl(what)));
}

}  // namespace

namespace json_sax_internal {

size_t StringStartBefore(std::string_view text, size_t end) {
  if (end < 2 || end > text.size()) return 0;
  for (size_t i = end - 2; i > 0; --i) {
    if (text[i] != '"') continue;
    size_t backslashes = 0;
    while (backslashes < i && text[i - 1 - backslashes] == '\\') {
      ++backslashes;
    }
    if (backslashes % 2 == 0) return i;
  }
  return 0;
}

std::string StringAt(std::string_view text, size_t start) {
  size_t end = start + 1;
  bool escaped = false;
  while (end < text.size() && text[end] != '"') {
    if (text[end] == '\\') {
      escaped = true;
      ++end;
    }
    ++end;
  }
  if (!escaped) return std::string(text.substr(start + 1, end - start - 1));
  // The lexer accepted this string already, so decoding it cannot fail.
  return json::parse(text.substr(start, end + 1 - start)).get<std::string>();
}

void ThrowTooDeep(std::string_view text, size_t read) {
  size_t bracket = std::min(read, text.size());
  while (bracket > 0 && text[bracket - 1] != '[' && text[bracket - 1] != '{') {
    --bracket;
  }
  throw json::parse_error::create(
      101, bracket,
      absl::StrCat("nesting deeper than ", kMaxJsonNesting,
                   " levels (lir's limit for JSON input)"),
      nullptr);
}

void ThrowDuplicate(std::string_view text, const std::string& pointer,
                    size_t first, size_t second) {
  auto [line, column] = LineColumnOf(text, first);
  throw json::parse_error::create(
      101, second + 1,
      absl::StrCat("duplicate key at ", pointer, " (first at line ", line,
                   ", column ", column, ")"),
      nullptr);
}

}  // namespace json_sax_internal

absl::Status CatchJsonErrors(std::string_view text, std::string_view filename,
                             std::string_view context,
                             const size_t& error_start,
                             absl::FunctionRef<void()> parse) {
  try {
    parse();
  } catch (const json::parse_error& e) {
    // e.byte counts the bytes read, including the offending one.
    return absl::InvalidArgumentError(Located(
        filename, text, e.byte == 0 ? 0 : e.byte - 1, context, e.what()));
  } catch (const json::out_of_range& e) {
    return absl::InvalidArgumentError(
        Located(filename, text, error_start, context, e.what()));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(filename), ": ", ToAbsl(context), e.what()));
  }
  return absl::OkStatus();
}

json ParseJsonWithUniqueKeys(std::string_view text, size_t* error_start) {
  json result;
  nlohmann::detail::json_sax_dom_parser<json> dom(result,
                                                  /*allow_exceptions_=*/true);
  JsonReadPosition position{text, text.data()};
  CheckedJsonSax<nlohmann::detail::json_sax_dom_parser<json>> checked(
      dom, &position, error_start);
  json::sax_parse(
      json_sax_internal::TrackingIterator(text.data(), &position),
      json_sax_internal::TrackingIterator(text.data() + text.size(), &position),
      &checked);
  return result;
}

}  // namespace lir::explain
