// Fast-path object bodies (../shared/reference/TEXT-FORMAT.md 1.2), as
// Materialize's `FastPathPlan` printer writes them (adapter/src/coord/peek.rs):
// a constant, or `Project`/`Filter`/`Map` lines, each one level deeper than the
// previous, over `ReadIndex ...` or `PeekPersist ...`.
#include "src/explain/text_fast_path.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/status_macros.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain::internal {

namespace {

constexpr absl::string_view kFullScan = "*** full scan ***";

// The fast-path error message is printed with Rust's `quoted()`, which
// escapes `"`, newline, CR and tab (../shared/reference/TEXT-FORMAT.md 1.2),
// unlike the LIR `Error` node which escapes only `"`.
std::string QuoteMessage(absl::string_view message) {
  std::string out = "\"";
  for (char c : message) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c; break;
    }
  }
  out += '"';
  return out;
}

std::string UnquoteTextMessage(absl::string_view body) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size()) {
      const char next = body[i + 1];
      const char plain = next == '"'   ? '"'
                         : next == 'n' ? '\n'
                         : next == 'r' ? '\r'
                         : next == 't' ? '\t'
                                       : '\0';
      if (plain != '\0') {
        out += plain;
        ++i;
        continue;
      }
    }
    out += body[i];
  }
  return out;
}

absl::StatusOr<FastPath> ParseConstantBody(const ErrorSink& errors,
                                           const std::vector<TextLine>& lines,
                                           size_t begin, size_t end) {
  const TextLine& header = lines[begin];
  FastPath out;
  out.kind = FastPath::Kind::kConstant;
  if (absl::StartsWith(header.content, "Error \"")) {
    absl::string_view text = header.content;
    if (text.size() < 8 || text.back() != '"') {
      return errors.Expected(header, text.size(),
                             "'\"' closing the error message");
    }
    out.constant.error = UnquoteTextMessage(text.substr(7, text.size() - 8));
    if (begin + 1 < end) {
      return errors.Expected(lines[begin + 1], 0,
                             "the end of the fast-path body after 'Error'");
    }
    return out;
  }
  LineCursor cursor(lines, begin + 1, end);
  LIR_ASSIGN_OR_RETURN(NodePtr node,
                       ParseNodeHeader(errors, header, header.content, cursor));
  if (!node->Is<ConstantOp>()) {
    return errors.Expected(header, 0,
                           "'Constant', 'Constant <empty>' or 'Error'");
  }
  if (!cursor.Done()) {
    return errors.Expected(cursor.Peek(), 0,
                           "a constant row '- (...)' or the end of the "
                           "fast-path body");
  }
  out.constant = node->As<ConstantOp>();
  return out;
}

// `lookup value=(..)`, `lookup values=[(..); (..)]` or `*** full scan ***`
// (the text between `=[` and the final `]`), starting at byte `base`.
absl::Status ParseIndexBody(const ErrorSink& errors, const TextLine& line,
                            size_t base, absl::string_view body,
                            FastPath& out) {
  if (body == kFullScan) return absl::OkStatus();
  if (absl::StartsWith(body, "lookup value=")) {
    LIR_ASSIGN_OR_RETURN(
        Row row, ParseAt(errors, line, base + 13, body.substr(13), ParseRow));
    out.lookup = std::vector<Row>{std::move(row)};
    return absl::OkStatus();
  }
  if (absl::StartsWith(body, "lookup values=[")) {
    if (!absl::EndsWith(body, "]")) {
      return errors.Expected(line, base + body.size(),
                             "']' closing the lookup values");
    }
    absl::string_view list = body.substr(15, body.size() - 16);
    std::vector<Row> rows;
    if (!list.empty()) {
      for (const auto& [offset, piece] : SplitTopLevel(list, "; ")) {
        LIR_ASSIGN_OR_RETURN(Row row, ParseAt(errors, line, base + 15 + offset,
                                              piece, ParseRow));
        rows.push_back(std::move(row));
      }
    }
    if (rows.size() == 1) {
      // Materialize prints a single value as `lookup value=`; accepting the
      // other spelling would make printing lossy.
      return errors.Expected(line, base,
                             "'lookup value=' for a single lookup row");
    }
    out.lookup = std::move(rows);
    return absl::OkStatus();
  }
  return errors.Expected(line, base,
                         "'lookup value=', 'lookup values=[' or "
                         "'*** full scan ***'");
}

absl::Status ParseReadIndex(const ErrorSink& errors, const TextLine& line,
                            FastPath& out) {
  constexpr size_t kPrefix = 13;  // `ReadIndex on=`
  absl::string_view rest = line.content.substr(kPrefix);
  const size_t space = rest.find(' ');
  if (space == 0 || space == absl::string_view::npos) {
    return errors.Expected(line, kPrefix,
                           "'<collection> <index>=[...]' after 'on='");
  }
  out.kind = FastPath::Kind::kReadIndex;
  out.collection = std::string(rest.substr(0, space));
  absl::string_view index_part = rest.substr(space + 1);
  const size_t index_base = kPrefix + space + 1;
  const size_t open = index_part.find("=[");
  if (open == 0 || open == absl::string_view::npos) {
    return errors.Expected(line, index_base,
                           "'<index>=[' after the collection");
  }
  if (!absl::EndsWith(index_part, "]")) {
    return errors.Expected(line, line.content.size(),
                           "']' closing the index read");
  }
  out.index = std::string(index_part.substr(0, open));
  absl::string_view body =
      index_part.substr(open + 2, index_part.size() - open - 3);
  return ParseIndexBody(errors, line, index_base + open + 2, body, out);
}

absl::Status ParsePeekPersist(const ErrorSink& errors, const TextLine& line,
                              FastPath& out) {
  constexpr size_t kPrefix = 12;  // `PeekPersist `
  absl::string_view rest = line.content.substr(kPrefix);
  out.kind = FastPath::Kind::kPeekPersist;
  const size_t value = rest.find(" [value=");
  if (value == absl::string_view::npos) {
    if (rest.empty() || rest.find(' ') != absl::string_view::npos) {
      return errors.Expected(line, kPrefix,
                             "a collection name, optionally followed by "
                             "' [value=(...)]'");
    }
    out.collection = std::string(rest);
    return absl::OkStatus();
  }
  if (value == 0) return errors.Expected(line, kPrefix, "a collection name");
  out.collection = std::string(rest.substr(0, value));
  absl::string_view row = rest.substr(value + 8);
  if (!absl::EndsWith(row, "]")) {
    return errors.Expected(line, line.content.size(), "']' after the value");
  }
  row.remove_suffix(1);
  LIR_ASSIGN_OR_RETURN(
      out.persist_value,
      ParseAt(errors, line, kPrefix + value + 8, row, ParseRow));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FastPath> ParseFastPathBody(const ErrorSink& errors,
                                           const std::vector<TextLine>& lines,
                                           size_t begin, size_t end,
                                           int level) {
  if (begin >= end) {
    return errors.AtEnd(begin > 0 ? lines[begin - 1].number + 1 : 1,
                        "expected a fast-path body");
  }
  const TextLine& first = lines[begin];
  if (first.level != level) {
    return errors.Expected(first, 0,
                           absl::StrCat("the fast-path body at indentation "
                                        "level ",
                                        level));
  }
  absl::string_view head = first.content;
  if (head == "Constant" || head == "Constant <empty>" ||
      absl::StartsWith(head, "Error ")) {
    return ParseConstantBody(errors, lines, begin, end);
  }

  // The prefix lines in their fixed order, each one level deeper; a stage
  // that is absent leaves the next line at the same level.
  FastPath out;
  size_t k = begin;
  int depth = level;
  enum Stage { kProject, kFilter, kMap, kRead } stage = kProject;
  for (; k < end; ++k, ++depth) {
    const TextLine& line = lines[k];
    if (line.level != depth) {
      return errors.Expected(line, 0,
                             absl::StrCat("a line at indentation level ", depth,
                                          " (each fast-path line one level "
                                          "deeper than the previous)"));
    }
    absl::string_view text = line.content;
    if (stage <= kProject && absl::StartsWith(text, "Project (")) {
      LIR_ASSIGN_OR_RETURN(
          absl::string_view list,
          Between(errors, line, "Project (", ")", "'Project (...)'"));
      LIR_ASSIGN_OR_RETURN(std::vector<ScalarExpr> columns,
                           ParseAt(errors, line, 9, list, ParseCompactScalars));
      if (!std::all_of(columns.begin(), columns.end(),
                       [](const ScalarExpr& e) { return e.IsColumn(); })) {
        // Point at the first item that is not a column reference.
        size_t at = 0;
        for (const auto& [offset, piece] : SplitTopLevel(list, ", ")) {
          if (!absl::StartsWith(piece, "#") ||
              piece.find_first_of(" ()") != absl::string_view::npos) {
            at = offset;
            break;
          }
        }
        return errors.Expected(line, 9 + at,
                               "a column reference in 'Project (...)'");
      }
      out.project = std::move(columns);
      stage = kFilter;
    } else if (stage <= kFilter && absl::StartsWith(text, "Filter ")) {
      LIR_ASSIGN_OR_RETURN(out.filter, ParseAt(errors, line, 7, text.substr(7),
                                               ParsePredicates));
      stage = kMap;
    } else if (stage <= kMap && absl::StartsWith(text, "Map (")) {
      LIR_ASSIGN_OR_RETURN(absl::string_view list,
                           Between(errors, line, "Map (", ")", "'Map (...)'"));
      LIR_ASSIGN_OR_RETURN(out.map,
                           ParseAt(errors, line, 5, list, ParseCompactScalars));
      if (out.map.empty()) return errors.Expected(line, 5, "a map expression");
      stage = kRead;
    } else if (absl::StartsWith(text, "ReadIndex on=")) {
      LIR_RETURN_IF_ERROR(ParseReadIndex(errors, line, out));
      break;
    } else if (absl::StartsWith(text, "PeekPersist ")) {
      LIR_RETURN_IF_ERROR(ParsePeekPersist(errors, line, out));
      break;
    } else {
      static constexpr absl::string_view kExpected[] = {
          "'Project (', 'Filter ', 'Map (', 'ReadIndex on=' or 'PeekPersist '",
          "'Filter ', 'Map (', 'ReadIndex on=' or 'PeekPersist '",
          "'Map (', 'ReadIndex on=' or 'PeekPersist '",
          "'ReadIndex on=' or 'PeekPersist '"};
      return errors.Expected(line, 0, kExpected[stage]);
    }
  }
  if (k >= end) {
    return errors.AtEnd(lines[end - 1].number + 1,
                        "expected 'ReadIndex on=' or 'PeekPersist ' ending "
                        "the fast-path body");
  }
  if (k + 1 < end) {
    return errors.Expected(lines[k + 1], 0, "the end of the fast-path body");
  }
  return out;
}

void AppendFastPath(std::string& out, const FastPath& fast_path, int level) {
  auto line = [&](int at, absl::string_view text) {
    out.append(2 * static_cast<size_t>(at), ' ');
    out.append(text.data(), text.size());
    out.push_back('\n');
  };
  switch (fast_path.kind) {
    case FastPath::Kind::kConstant: {
      const ConstantOp& constant = fast_path.constant;
      if (constant.error.has_value() && !constant.error_redacted) {
        line(level, absl::StrCat("Error ", QuoteMessage(*constant.error)));
      } else {
        // `Constant`, `Constant <empty>` and `Error █` print as in LIR.
        out += PrintPlanAt(*MakeNode(constant), level);
      }
      return;
    }
    case FastPath::Kind::kReadIndex:
    case FastPath::Kind::kPeekPersist: break;
  }
  int depth = level;
  if (fast_path.project.has_value()) {
    line(depth++, absl::StrCat("Project (",
                               PrintCompactScalars(*fast_path.project), ")"));
  }
  if (!fast_path.filter.empty()) {
    line(depth++, absl::StrCat("Filter ", PrintPredicates(fast_path.filter)));
  }
  if (!fast_path.map.empty()) {
    line(depth++,
         absl::StrCat("Map (", PrintCompactScalars(fast_path.map), ")"));
  }
  if (fast_path.kind == FastPath::Kind::kPeekPersist) {
    std::string text = absl::StrCat("PeekPersist ", fast_path.collection);
    if (fast_path.persist_value.has_value()) {
      absl::StrAppend(&text, " [value=", PrintRow(*fast_path.persist_value),
                      "]");
    }
    line(depth, text);
    return;
  }
  std::string body;
  if (!fast_path.lookup.has_value()) {
    body = std::string(kFullScan);
  } else if (fast_path.lookup->size() == 1) {
    body = absl::StrCat("lookup value=", PrintRow(fast_path.lookup->front()));
  } else {
    std::vector<std::string> rows;
    for (const Row& row : *fast_path.lookup) rows.push_back(PrintRow(row));
    body = absl::StrCat("lookup values=[", absl::StrJoin(rows, "; "), "]");
  }
  line(depth, absl::StrCat("ReadIndex on=", fast_path.collection, " ",
                           fast_path.index, "=[", body, "]"));
}

}  // namespace lir::explain::internal
