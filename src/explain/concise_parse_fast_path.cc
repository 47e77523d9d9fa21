// Concise fast-path bodies (`Explained Query (fast path):`,
// ../shared/reference/CONCISE-FORMAT.md section 7), as Materialize's
// `FastPathPlan::fmt_default_text` (adapter/src/coord/peek.rs) writes them:
// a constant summary, or `→Map/Filter/Project` with its MFP lines over the
// read of an index or of persist.
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/arrangement.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// `<collection> (using <index>)` at byte `base` of `line`.
absl::Status ParseUsing(const ErrorSink& errors, const TextLine& line,
                        size_t base, absl::string_view text, FastPath& out) {
  const size_t using_at = text.rfind(" (using ");
  if (using_at == absl::string_view::npos || using_at == 0 ||
      !absl::EndsWith(text, ")") || using_at + 9 >= text.size()) {
    return errors.Expected(line, base, "'<collection> (using <index>)'");
  }
  out.kind = FastPath::Kind::kReadIndex;
  out.collection = std::string(text.substr(0, using_at));
  const absl::string_view index =
      text.substr(using_at + 8, text.size() - using_at - 9);
  // The concise form names the index qualified, the verbose one by its
  // item name (FastPath::qualified_index).
  out.qualified_index = std::string(index);
  out.index = std::string(UnqualifiedName(index));
  return absl::OkStatus();
}

// The line below a lookup: `<prefix><row>{<sep><row>}*`, at `level`.
absl::StatusOr<std::vector<Row>> ParseLookupLine(const ErrorSink& errors,
                                                 ConciseCursor& c, int level,
                                                 absl::string_view prefix,
                                                 bool many) {
  if (!c.At(level, prefix)) {
    return UnexpectedAt(
        errors, c,
        absl::StrCat("'", prefix, "(...)' at indentation level ", level));
  }
  const TextLine& line = c.Next();
  const absl::string_view list = line.content.substr(prefix.size());
  std::vector<Row> rows;
  std::vector<std::pair<size_t, absl::string_view>> pieces;
  if (many) {
    pieces = SplitTopLevel(list, "; ");
  } else {
    pieces.emplace_back(0, list);
  }
  for (const auto& [offset, piece] : pieces) {
    LIR_ASSIGN_OR_RETURN(
        Row row,
        ParseConciseAt(errors, line, prefix.size() + offset, piece, ParseRow));
    rows.push_back(std::move(row));
  }
  return rows;
}

// `→Map/Filter/Project`, its MFP lines and the read below them; the cursor
// is just past the operator line.
absl::Status ParsePeek(const ErrorSink& errors, ConciseCursor& c, int level,
                       FastPath& out) {
  MapFilterProject mfp;
  LIR_RETURN_IF_ERROR(
      ParseConciseMfpLines(errors, c, level + 1, false, &mfp).status());
  // `Project:` is printed iff the projection is not the identity over the
  // index's or shard's columns; without it the projection is that identity
  // over an arity the text does not show.
  out.project_is_input_identity = !mfp.project.has_value();
  if (mfp.project.has_value()) out.project = ColumnKey(*mfp.project);
  out.filter = std::move(mfp.filter);
  out.map = std::move(mfp.map);
  // peek.rs deepens the read only when a Filter or Map line was printed,
  // not for a Project line alone (pitfall 1).
  const int target = level + (out.filter.empty() && out.map.empty() ? 1 : 2);
  constexpr absl::string_view kReads =
      "'\xE2\x86\x92Indexed', '\xE2\x86\x92Index Lookup on', "
      "'\xE2\x86\x92ReadStorage' or '\xE2\x86\x92ReadStorage Lookup on'";
  if (!c.AtOperator(target)) {
    return UnexpectedAt(errors, c,
                        absl::StrCat(kReads, " at indentation level ", target,
                                     " (one level deeper than the MFP lines "
                                     "when they hold a Filter or a Map)"));
  }
  const TextLine& line = c.Next();
  const absl::string_view text = line.content.substr(kOp);
  if (absl::StartsWith(text, "Indexed ")) {
    return ParseUsing(errors, line, kOp + 8, text.substr(8), out);
  }
  if (absl::StartsWith(text, "Index Lookup on ")) {
    LIR_RETURN_IF_ERROR(
        ParseUsing(errors, line, kOp + 16, text.substr(16), out));
    LIR_ASSIGN_OR_RETURN(out.lookup, ParseLookupLine(errors, c, target + 1,
                                                     "Lookup values: ", true));
    return absl::OkStatus();
  }
  out.kind = FastPath::Kind::kPeekPersist;
  if (absl::StartsWith(text, "ReadStorage Lookup on ")) {
    out.collection = std::string(text.substr(22));
    LIR_ASSIGN_OR_RETURN(
        std::vector<Row> rows,
        ParseLookupLine(errors, c, target + 1, "Lookup value: ", false));
    out.persist_value = std::move(rows.front());
  } else if (absl::StartsWith(text, "ReadStorage ")) {
    out.collection = std::string(text.substr(12));
  } else {
    return errors.Expected(line, 0, kReads);
  }
  if (out.collection.empty()) {
    return errors.Expected(line, line.content.size(), "a collection name");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FastPath> ParseConciseFastPathBody(
    const ErrorSink& errors, const std::vector<TextLine>& lines, size_t begin,
    size_t end, int level) {
  if (begin >= end) {
    return errors.AtEnd(begin > 0 ? lines[begin - 1].number + 1 : 1,
                        "expected a fast-path body");
  }
  ConciseCursor c(lines, begin, end);
  const TextLine& first = c.Peek();
  constexpr absl::string_view kBodies =
      "'\xE2\x86\x92"
      "Constant (...)' or '\xE2\x86\x92Map/Filter/Project' (a concise "
      "fast-path body)";
  if (first.level != level) {
    return errors.Expected(first, 0,
                           absl::StrCat("the fast-path body at indentation "
                                        "level ",
                                        level));
  }
  if (!absl::StartsWith(first.content, kArrow)) {
    return UnexpectedLine(errors, first, kBodies);
  }
  const absl::string_view text = first.content.substr(kOp);
  FastPath out;
  c.Next();
  if (absl::StartsWith(text, "Constant ")) {
    out.kind = FastPath::Kind::kConstant;
    std::optional<uint64_t> count;
    LIR_ASSIGN_OR_RETURN(out.constant,
                         ParseConstantSummary(errors, first, kOp + 9,
                                              text.substr(9), true, &count));
    if (count.has_value()) {
      out.constant.entry_count = count;
      out.unknown.Add(UnknownFact::kConstantRows);
    }
  } else if (text == "Map/Filter/Project") {
    LIR_RETURN_IF_ERROR(ParsePeek(errors, c, level, out));
  } else {
    return errors.Expected(first, 0, kBodies);
  }
  if (!c.Done()) {
    return UnexpectedLine(errors, c.Peek(), "the end of the fast-path body");
  }
  return out;
}

}  // namespace lir::explain::internal
