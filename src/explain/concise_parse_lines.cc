// Pieces the concise reader's files share: MFP lines, key lists, constant
// summaries, and the errors that name verbose syntax and masked literals
// (../shared/reference/CONCISE-FORMAT.md sections 5 and 12).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/text_cursor.h"
#include "src/explain/text_primitives.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {
namespace {

// Verbose node headers: a whole line, or its start up to a space.
constexpr absl::string_view kVerboseHeaders[] = {
    "Constant", "Error",     "Get::",         "With",
    "Return",   "Mfp",       "FlatMap",       "Join::",
    "Reduce::", "TopK::",    "Negate",        "Threshold::",
    "Union",    "ArrangeBy", "SetDifference", "AntiJoin",
};

// Verbose attribute lines (and verbose fast-path lines), by prefix. None is
// the start of a concise line: concise attributes are capitalized words
// followed by `:` or a space (`Filter:`, `Key: (`, `Group By `), and its
// lower-case ones are `after %`, `cte ` and `path %`.
constexpr absl::string_view kVerboseAttributes[] = {
    "raw=",
    "project=(",
    "filter=(",
    "map=(",
    "key=",
    "val=",
    "arrangements[",
    "input_key=",
    "input_val=",
    "aggr=(",
    "aggrs[",
    "simple_aggrs[",
    "distinct_aggrs[",
    "aggr_funcs=[",
    "monotonic",
    "must_consolidate",
    "buckets=[",
    "key_plan",
    "val_plan",
    "mfp_after",
    "temporal_bucketing_strateg",
    "strategy=",
    "lookup={",
    "stream={",
    "source={",
    "closure",
    "final_closure",
    "initial_closure",
    "linear_stage[",
    "delta_stage[",
    "plan_path[",
    "ready_equivalences=",
    "total_rows (diffs absed)",
    "first_rows:",
    "- (",
    "Project (",
    "Filter ",
    "Map (",
    "ReadIndex on=",
    "PeekPersist ",
};

// Whether `content` is a line of the verbose syntax.
bool IsVerboseLine(absl::string_view content) {
  for (absl::string_view header : kVerboseHeaders) {
    if (absl::StartsWith(content, header) &&
        (content.size() == header.size() || content[header.size()] == ' ' ||
         absl::EndsWith(header, "::"))) {
      return true;
    }
  }
  for (absl::string_view prefix : kVerboseAttributes) {
    if (absl::StartsWith(content, prefix)) return true;
  }
  return false;
}

// `text` cut to at most `max` bytes at a UTF-8 character boundary, with
// `...` when cut.
std::string Excerpt(absl::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  return absl::StrCat(text.substr(0, cut), "...");
}

// Where a masked literal `<UPPER_CASE>` starts in `text` outside string
// literals, or npos. A plan never prints `<` followed by a capital letter
// outside a string: comparison operators are followed by a space, `=`, `@`
// or `<`.
size_t FindMaskedLiteral(absl::string_view text, size_t* length) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = StringLiteralEnd(text, i);
      continue;
    }
    if (c != '<' || i + 1 >= text.size() ||
        !std::isupper(static_cast<unsigned char>(text[i + 1]))) {
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() &&
           (std::isupper(static_cast<unsigned char>(text[j])) ||
            std::isdigit(static_cast<unsigned char>(text[j])) ||
            text[j] == '_')) {
      ++j;
    }
    if (j < text.size() && text[j] == '>') {
      *length = j + 1 - i;
      return i;
    }
  }
  return absl::string_view::npos;
}

// The message of a concise error constant: `quoted()` escapes only `"`
// (src/ore/src/str.rs), so `\"` is the only escape to undo.
std::string UnquoteConciseMessage(absl::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size() && body[i + 1] == '"') ++i;
    out += body[i];
  }
  return out;
}

}  // namespace

bool ConciseCursor::At(int level, absl::string_view prefix) const {
  return !Done() && lines_[pos_].level == level &&
         absl::StartsWith(lines_[pos_].content, prefix);
}

bool ConciseCursor::AtExactly(int level, absl::string_view text) const {
  return !Done() && lines_[pos_].level == level && lines_[pos_].content == text;
}

absl::Status UnexpectedLine(const ErrorSink& errors, const TextLine& line,
                            absl::string_view what) {
  if (IsVerboseLine(line.content)) {
    return errors.Expected(
        line, 0,
        absl::StrCat(what, ", found '", Excerpt(line.content, 40),
                     "', which is the verbose syntax (EXPLAIN ... AS VERBOSE "
                     "TEXT), but this document is concise (its plans are "
                     "lines starting with '\xE2\x86\x92'); a document uses "
                     "one syntax"));
  }
  return MaskAware(errors, line, errors.Expected(line, 0, what));
}

absl::Status UnexpectedAt(const ErrorSink& errors, const ConciseCursor& cursor,
                          absl::string_view what) {
  if (!cursor.Done()) return UnexpectedLine(errors, cursor.Peek(), what);
  return errors.AtEnd(cursor.Previous().number + 1,
                      absl::StrCat("expected ", what));
}

absl::Status MaskAware(const ErrorSink& errors, const TextLine& line,
                       absl::Status status) {
  if (status.ok()) return status;
  size_t length = 0;
  const size_t at = FindMaskedLiteral(line.content, &length);
  if (at == absl::string_view::npos) return status;
  return errors.Expected(
      line, at,
      absl::StrCat("a literal, found the masked value '",
                   line.content.substr(at, length),
                   "': a sqllogictest 'replace' directive rewrote this "
                   "EXPLAIN output, and the value it hides cannot be read "
                   "back"));
}

size_t MatchingClose(absl::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = StringLiteralEnd(text, i);
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i;
    }
  }
  return absl::string_view::npos;
}

absl::StatusOr<int> ParseConciseMfpLines(const ErrorSink& errors,
                                         ConciseCursor& c, int level,
                                         bool allow_temporal,
                                         MapFilterProject* mfp,
                                         const TextLine** temporal_line) {
  int read = 0;
  if (c.At(level, "Project: ")) {
    const TextLine& line = c.Next();
    ++read;
    const absl::string_view list = line.content.substr(9);
    if (list == "()") {
      mfp->project = std::vector<int>{};
    } else if (list.empty()) {
      return errors.Expected(line, 9, "column positions, or '()'");
    } else {
      LIR_ASSIGN_OR_RETURN(mfp->project,
                           ParseConciseAt(errors, line, 9, list, ParseIndices));
    }
  }
  if (c.At(level, "Filter: ")) {
    const TextLine& line = c.Next();
    ++read;
    LIR_ASSIGN_OR_RETURN(mfp->filter,
                         ParseConciseAt(errors, line, 8, line.content.substr(8),
                                        ParsePredicates));
    if (mfp->filter.empty()) return errors.Expected(line, 8, "a predicate");
  }
  if (c.At(level, "Map: ")) {
    const TextLine& line = c.Next();
    ++read;
    LIR_ASSIGN_OR_RETURN(
        mfp->map,
        ParseConciseAt(errors, line, 5, line.content.substr(5), ParseExprList));
    if (mfp->map.empty()) return errors.Expected(line, 5, "an expression");
  }
  if (c.At(level, "TemporalFilter: ")) {
    const TextLine& line = c.Peek();
    if (!allow_temporal) {
      return errors.Expected(
          line, 0,
          "no 'TemporalFilter:' here: only the MFPs of a Get, a "
          "Map/Filter/Project, a Table Function and an Arrange carry "
          "temporal bounds");
    }
    c.Next();
    ++read;
    TemporalFilter temporal;
    LIR_RETURN_IF_ERROR(MaskAware(
        errors, line, ParseTemporalFilterLine(errors, line, &temporal)));
    mfp->temporal = std::move(temporal);
    if (temporal_line != nullptr) *temporal_line = &line;
  }
  return read;
}

absl::StatusOr<std::vector<ScalarExpr>> ParseKeyList(const ErrorSink& errors,
                                                     const TextLine& line,
                                                     size_t base,
                                                     absl::string_view text) {
  if (text == "(empty key)") return std::vector<ScalarExpr>{};
  if (text.empty()) {
    return errors.Expected(line, base, "a key, or '(empty key)'");
  }
  return ParseConciseAt(errors, line, base, text, ParseCompactScalars);
}

absl::StatusOr<ConstantOp> ParseConstantSummary(
    const ErrorSink& errors, const TextLine& line, size_t base,
    absl::string_view text, bool fast_path, std::optional<uint64_t>* count) {
  const absl::string_view what =
      fast_path ? "'(<n> rows)' or '(error: \"<message>\")'"
                : "'(<n> rows)', '(1 row)' or '(error: \"<message>\")'";
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    return errors.Expected(line, base, what);
  }
  const absl::string_view inner = text.substr(1, text.size() - 2);
  ConstantOp op;
  if (inner == absl::StrCat("error: ", ToAbsl(kRedactedMark))) {
    op.error = "";
    op.error_redacted = true;
    return op;
  }
  if (absl::StartsWith(inner, "error: ")) {
    const absl::string_view quoted = inner.substr(7);
    if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"') {
      return errors.Expected(line, base + 8,
                             "a double-quoted error message or '\xE2\x96\x88'");
    }
    op.error = UnquoteConciseMessage(quoted.substr(1, quoted.size() - 2));
    return op;
  }
  const size_t space = inner.find(' ');
  const absl::string_view digits = inner.substr(0, space);
  uint64_t n = 0;
  if (space == absl::string_view::npos || !IsCanonicalNumber(digits) ||
      !absl::SimpleAtoi(digits, &n)) {
    return MaskAware(errors, line, errors.Expected(line, base + 1, what));
  }
  // Materialize writes `row` for exactly one entry in a LIR Constant, and
  // always `rows` in a fast-path body (CONCISE-FORMAT 6 and 7): anything
  // else would not print back.
  const absl::string_view unit = inner.substr(space + 1);
  const absl::string_view want = !fast_path && n == 1 ? "row" : "rows";
  if (unit != want) {
    return errors.Expected(
        line, base + 1 + space + 1,
        absl::StrCat(
            "'", want, "' after ", n,
            fast_path ? " (a fast-path constant always says 'rows')" : ""));
  }
  *count = n;
  return op;
}

bool IsCanonicalNumber(absl::string_view text, bool signed_ok) {
  if (signed_ok && !text.empty() && text[0] == '-') text.remove_prefix(1);
  if (text.empty() || (text[0] == '0' && text.size() > 1)) return false;
  return std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch)) != 0;
  });
}

absl::string_view UnqualifiedName(absl::string_view name) {
  const size_t dot = name.rfind('.');
  return dot == absl::string_view::npos ? name : name.substr(dot + 1);
}

}  // namespace lir::explain::internal
