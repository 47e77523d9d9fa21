#include "src/explain/text_names.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {
namespace {

bool IsControl(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b < 0x20 || b == 0x7F;
}

// A part that prints without quotes inside a quoted name.
bool IsPlainPart(absl::string_view part) {
  return !part.empty() && !absl::StrContains(part, ' ') &&
         !absl::StrContains(part, '"') && !absl::StrContains(part, '.');
}

void AppendQuotedPart(std::string& out, absl::string_view part) {
  out += '"';
  for (char c : part) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

// True if `name`, printed as it is in `context`, reads back as `name`.
bool ReadsBackAsIs(absl::string_view name, NameContext context) {
  if (absl::StrContains(name, '"') || name.front() == ' ' ||
      name.back() == ' ') {
    return false;
  }
  switch (context) {
    case NameContext::kObject: {
      const std::string line = absl::StrCat(name, ":");  // the header
      // A byte-order mark opening the first header would be skipped as the
      // document's own (fuzz regression json_roundtrip/object-name-bom).
      return !IsSectionLine(line) && !absl::EndsWith(name, "(fast path)") &&
             !absl::StartsWith(name, "\xEF\xBB\xBF");
    }
    case NameContext::kCollection:
      // ` // ` could start what reads as a node annotation.
      return !LooksLikeLocalId(name) && !absl::StrContains(name, " //");
    case NameContext::kSource: return true;
    case NameContext::kIndex: return !absl::StrContains(name, " (");
  }
  return false;
}

absl::Status ExpectedAt(size_t* error_pos, size_t pos, absl::string_view what) {
  if (error_pos != nullptr) *error_pos = pos;
  return absl::InvalidArgumentError(absl::StrCat("expected ", what));
}

}  // namespace

std::optional<std::string> NameProblem(std::string_view name) {
  if (name.empty()) return "a name must not be empty";
  for (size_t i = 0; i < name.size(); ++i) {
    if (IsControl(name[i])) {
      return absl::StrCat(
          "a name must not contain control characters (byte ", i, " is 0x",
          absl::Hex(static_cast<unsigned char>(name[i]), absl::kZeroPad2), ")");
    }
  }
  return std::nullopt;
}

bool LooksLikeLocalId(absl::string_view text) {
  uint64_t value = 0;
  if (text.size() < 2 || text[0] != 'l') return false;
  for (size_t i = 1; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return absl::SimpleAtoi(text.substr(1), &value);
}

std::string PrintName(std::string_view name, NameContext context) {
  const absl::string_view view = ToAbsl(name);
  if (!view.empty() && ReadsBackAsIs(view, context)) return std::string(name);
  std::vector<absl::string_view> parts = absl::StrSplit(view, '.');
  bool any_quoted = false;
  for (absl::string_view part : parts) any_quoted |= !IsPlainPart(part);
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += '.';
    if (!any_quoted || !IsPlainPart(parts[i])) {
      AppendQuotedPart(out, parts[i]);
    } else {
      out.append(parts[i].data(), parts[i].size());
    }
  }
  return out;
}

absl::StatusOr<ParsedName> ParseName(std::string_view text, size_t* error_pos) {
  if (text.empty()) return ExpectedAt(error_pos, 0, "a name");
  for (size_t i = 0; i < text.size(); ++i) {
    if (IsControl(text[i])) {
      return ExpectedAt(error_pos, i, "a name without control characters");
    }
  }
  ParsedName out;
  if (text.find('"') == std::string_view::npos) {
    out.name = std::string(text);
    return out;
  }
  out.quoted = true;
  const size_t n = text.size();
  size_t i = 0;
  while (true) {
    if (text[i] == '"') {
      const size_t open = i++;
      while (true) {
        if (i >= n) {
          return ExpectedAt(error_pos, open,
                            "a quoted name part closed by '\"' (write '\"\"' "
                            "for a quote inside it)");
        }
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            out.name += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        out.name += text[i++];
      }
    } else {
      const size_t start = i;
      while (i < n && text[i] != '.' && text[i] != '"' && text[i] != ' ') ++i;
      if (i == start) {
        return ExpectedAt(error_pos, i,
                          "a name part: plain (no space, '.' or '\"') or "
                          "double-quoted");
      }
      out.name.append(text.substr(start, i - start));
    }
    if (i == n) return out;
    if (text[i] != '.') {
      return ExpectedAt(error_pos, i,
                        "'.' or the end of the name (quote a part that "
                        "holds spaces or '\"')");
    }
    out.name += '.';
    if (++i == n) return ExpectedAt(error_pos, i, "a name part after '.'");
  }
}

size_t IndexNameEnd(absl::string_view text) {
  if (text.substr(0, 17) == "[DELETED INDEX] (") return 15;
  bool quoted = false;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '"') {
      quoted = !quoted;
    } else if (!quoted && text[i] == ' ' && text[i + 1] == '(') {
      return i;
    }
  }
  return absl::string_view::npos;
}

bool IsFastPathObjectName(absl::string_view view) {
  return !NameProblem(ToStd(view)).has_value() &&
         absl::EndsWith(view, "(fast path)") && !absl::StrContains(view, '"') &&
         view.front() != ' ' && !IsSectionLine(absl::StrCat(view, ":"));
}

bool IsSectionLine(absl::string_view c) {
  return absl::StartsWith(c, "Source ") || c == "Used Indexes:" ||
         absl::StartsWith(c, "Target cluster: ") || c == "Notices:" ||
         absl::StartsWith(c, "Optimization time: ");
}

}  // namespace lir::explain::internal
