// The document frame both text syntaxes share (TEXT-FORMAT.md section 1,
// CONCISE-FORMAT.md section 3): objects and their Finish lines, Source
// blocks (in the verbose MFP syntax in both), Used Indexes, Target cluster,
// Notices and Optimization time, the UTF-8 and line checks, and numbering
// nodes without an annotated id. Each object's body is read by the reader
// of the document's syntax (ParseDocumentFrame's PlanBodyReader and
// FastPathBodyReader: text_parser.cc and text_fast_path.cc for the verbose
// syntax, concise_parser.cc and concise_parse_fast_path.cc for the concise
// one).
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "lir/explain/text.h"
#include "lir/status_macros.h"
#include "src/explain/text_lines.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"
#include "src/explain/utf8.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain {
namespace {

using internal::ErrorSink;
using internal::LineCursor;
using internal::ParseAt;
using internal::TextLine;

absl::StatusOr<std::vector<TextLine>> SplitLines(absl::string_view text,
                                                 const ErrorSink& errors) {
  std::vector<TextLine> lines;
  lines.reserve(std::count(text.begin(), text.end(), '\n') + 1);
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view raw = text.substr(start, end - start);
    start = end + 1;
    TextLine line;
    line.number = ++number;
    size_t spaces = 0;
    while (spaces < raw.size() && raw[spaces] == ' ') ++spaces;
    line.content = raw.substr(spaces);
    if (line.content.empty()) {
      line.blank = true;
      lines.push_back(line);
      continue;
    }
    line.level = static_cast<int>(spaces / 2);
    if (spaces % 2 != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          errors.filename(), ":", errors.FileLine(number), ":", spaces + 1,
          ": expected indentation by two spaces per level, found ", spaces,
          " spaces"));
    }
    if (line.content[0] == '\t') {
      return errors.Expected(line, 0, "spaces for indentation, found a tab");
    }
    if (const size_t cr = line.content.find('\r');
        cr != absl::string_view::npos) {
      return errors.At(line, cr,
                       "unexpected carriage return (lines must end with \\n "
                       "only, and names and messages cannot hold one)");
    }
    lines.push_back(line);
  }
  return lines;
}

// Gives nodes without an annotated id fresh ids: post-order from 1 when
// none was annotated, else after the largest annotated id. Fails (naming
// `header`, the object's line) when those would pass kMaxLirId.
absl::Status FillMissingIds(const ErrorSink& errors, const TextLine& header,
                            Node& root, bool annotated) {
  if (!annotated) {
    AssignPostOrderIds(root);
    return absl::OkStatus();
  }
  LirId max_id = 0;
  uint64_t missing = 0;
  ForEachPostOrder(root, [&](Node& n) {
    max_id = std::max(max_id, n.id);
    missing += n.id == 0 ? 1 : 0;
  });
  if (missing > kMaxLirId - max_id) {
    return errors.At(header, 0,
                     absl::StrCat("cannot number the ", missing,
                                  " node(s) without a node_id after LirId(",
                                  max_id, "): ids end at LirId(", kMaxLirId,
                                  "); annotate every node or use smaller ids"));
  }
  ForEachPostOrder(root, [&](Node& n) {
    if (n.id == 0) n.id = ++max_id;
  });
  return absl::OkStatus();
}

absl::StatusOr<Finish> ParseFinish(const ErrorSink& errors,
                                   const TextLine& line) {
  Finish finish;
  absl::string_view rest = line.content.substr(6);  // after "Finish"
  auto offset = [&] { return line.content.size() - rest.size(); };
  if (absl::ConsumePrefix(&rest, " order_by=[")) {
    size_t close = rest.find(']');
    if (close == absl::string_view::npos)
      return errors.Expected(line, offset(), "']'");
    LIR_ASSIGN_OR_RETURN(
        finish.order_by,
        ParseAt(errors, line, offset(), rest.substr(0, close), ParseOrderKeys));
    rest.remove_prefix(close + 1);
  }
  for (auto [key, field] : {std::pair{" limit=", &finish.limit}}) {
    if (!absl::ConsumePrefix(&rest, key)) continue;
    size_t space = rest.find(' ');
    int64_t value = 0;
    if (!absl::SimpleAtoi(rest.substr(0, space), &value)) {
      return errors.Expected(line, offset(), "a limit number");
    }
    *field = value;
    rest.remove_prefix(space == absl::string_view::npos ? rest.size() : space);
  }
  if (absl::ConsumePrefix(&rest, " offset=")) {
    size_t space = rest.find(' ');
    if (!absl::SimpleAtoi(rest.substr(0, space), &finish.offset)) {
      return errors.Expected(line, offset(), "an offset number");
    }
    rest.remove_prefix(space == absl::string_view::npos ? rest.size() : space);
  }
  if (!absl::ConsumePrefix(&rest, " output=[") ||
      !absl::ConsumeSuffix(&rest, "]")) {
    return errors.Expected(line, offset(),
                           "' output=[...]' ending the Finish line");
  }
  LIR_ASSIGN_OR_RETURN(finish.output,
                       ParseAt(errors, line, offset(), rest, ParseIndices));
  return finish;
}

absl::StatusOr<UsedIndex> ParseUsedIndex(const ErrorSink& errors,
                                         const TextLine& line) {
  absl::string_view text = line.content;
  if (!absl::ConsumePrefix(&text, "- ")) {
    return errors.Expected(line, 0, "'- <index name> (<usage>, ...)'");
  }
  UsedIndex index;
  // The name ends at the first ` (` outside quotes (text_names.h).
  const size_t name_end = internal::IndexNameEnd(text);
  if (name_end == absl::string_view::npos || !absl::EndsWith(text, ")")) {
    return errors.Expected(line, 2, "'<index name> (<usage>, ...)'");
  }
  LIR_ASSIGN_OR_RETURN(
      internal::ParsedName name,
      ParseAt(errors, line, 2, text.substr(0, name_end), internal::ParseName));
  index.name = std::move(name.name);
  // Usages may contain parentheses: `delta join 1st input (full scan)`.
  const absl::string_view usages =
      text.substr(name_end + 2, text.size() - name_end - 3);
  if (usages.empty()) return index;  // `()`: no usage
  for (auto [offset, usage] : internal::SplitTopLevel(usages, ", ")) {
    index.usages.emplace_back(usage);
  }
  return index;
}

// Reads the document frame, handing each object's body to the reader of
// the document's syntax.
class DocumentParser {
 public:
  DocumentParser(const ErrorSink& errors, const std::vector<TextLine>& lines,
                 internal::PlanBodyReader plan,
                 internal::FastPathBodyReader fast_path,
                 NodePositions* positions)
      : errors_(errors),
        lines_(lines),
        read_plan_(plan),
        read_fast_path_(fast_path),
        positions_(positions) {}

  absl::StatusOr<Document> Parse() {
    Document doc;
    bool objects_done = false;
    size_t i = 0;
    while (i < lines_.size()) {
      const TextLine& line = lines_[i];
      if (line.blank) {
        ++i;
        continue;
      }
      if (line.level != 0) {
        return errors_.Expected(line, 0, "a section at indentation level 0");
      }
      absl::string_view c = line.content;
      size_t end = SectionEnd(i + 1);
      if (absl::StartsWith(c, "Source ")) {
        objects_done = true;
        LIR_RETURN_IF_ERROR(ParseSource(i, end, &doc));
      } else if (c == "Used Indexes:") {
        objects_done = true;
        std::vector<UsedIndex> indexes;
        for (size_t k = i + 1; k < end; ++k) {
          if (lines_[k].level != 1)
            return errors_.Expected(lines_[k], 0, "a used index at level 1");
          LIR_ASSIGN_OR_RETURN(UsedIndex index,
                               ParseUsedIndex(errors_, lines_[k]));
          indexes.push_back(std::move(index));
        }
        doc.used_indexes = std::move(indexes);
      } else if (absl::StartsWith(c, "Target cluster: ")) {
        objects_done = true;
        LIR_RETURN_IF_ERROR(NoBody(i, end));
        doc.target_cluster = std::string(c.substr(16));
      } else if (c == "Notices:") {
        objects_done = true;
        std::vector<std::string> notices;
        for (size_t k = i + 1; k < end; ++k) {
          notices.push_back(absl::StrCat(std::string(2 * lines_[k].level, ' '),
                                         lines_[k].content));
        }
        doc.notices = std::move(notices);
      } else if (absl::StartsWith(c, "Optimization time: ")) {
        objects_done = true;
        LIR_RETURN_IF_ERROR(NoBody(i, end));
        doc.optimization_time = std::string(c.substr(19));
      } else if (!objects_done && absl::EndsWith(c, ":")) {
        std::unordered_map<LirId, SourcePosition> where;
        LIR_ASSIGN_OR_RETURN(
            Object object,
            ParseObject(i, end, doc.objects.empty(),
                        positions_ != nullptr ? &where : nullptr));
        doc.objects.push_back(std::move(object));
        if (positions_ != nullptr) {
          positions_->objects.push_back(std::move(where));
        }
      } else {
        return errors_.Expected(
            line, 0,
            objects_done ? "'Source', 'Used Indexes:', 'Target cluster:', "
                           "'Notices:' or 'Optimization time:'"
                         : "an object header '<name>:' or a document section");
      }
      i = end;
    }
    doc.node_identifiers = saw_node_ids_;
    return doc;
  }

 private:
  // The end of the indented block following line `i - 1`.
  size_t SectionEnd(size_t i) const {
    while (i < lines_.size() && !lines_[i].blank && lines_[i].level >= 1) ++i;
    return i;
  }

  absl::Status NoBody(size_t i, size_t end) const {
    if (end > i + 1)
      return errors_.Expected(lines_[i + 1], 0, "a level-0 line");
    return absl::OkStatus();
  }

  // Reads the object whose header is line `i`; with `where`, records where
  // each of its nodes is (by the ids they have once numbered).
  absl::StatusOr<Object> ParseObject(
      size_t i, size_t end, bool first,
      std::unordered_map<LirId, SourcePosition>* where) {
    Object object;
    absl::string_view name = lines_[i].content;
    name.remove_suffix(1);
    LIR_ASSIGN_OR_RETURN(
        internal::ParsedName parsed,
        ParseAt(errors_, lines_[i], 0, name, internal::ParseName));
    object.name = std::move(parsed.name);
    // Only an unquoted `... (fast path)` header announces a fast-path body;
    // a plan object of that name is printed quoted.
    const bool fast_path =
        !parsed.quoted && absl::EndsWith(object.name, "(fast path)");
    size_t body = i + 1;
    if (body >= end)
      return errors_.AtEnd(lines_[i].number + 1,
                           "expected a plan under the object header");
    int base_level = 1;
    if (first && lines_[body].level == 1 &&
        (lines_[body].content == "Finish" ||
         absl::StartsWith(lines_[body].content, "Finish "))) {
      LIR_ASSIGN_OR_RETURN(object.finish, ParseFinish(errors_, lines_[body]));
      ++body;
      base_level = 2;
    }
    if (fast_path) {
      LIR_ASSIGN_OR_RETURN(
          object.fast_path,
          read_fast_path_(errors_, lines_, body, end, base_level));
      return object;
    }
    bool saw_node_ids = false;
    internal::NodeHeaders headers;
    LIR_ASSIGN_OR_RETURN(
        object.plan,
        read_plan_(errors_, lines_, body, end, base_level, &saw_node_ids,
                   where != nullptr ? &headers : nullptr));
    saw_node_ids_ |= saw_node_ids;
    LIR_RETURN_IF_ERROR(
        FillMissingIds(errors_, lines_[i], *object.plan, saw_node_ids));
    // Only now are the ids final; the nodes are still the ones the reader
    // made (the plan owns them).
    for (const auto& [node, line] : headers) {
      where->try_emplace(node->id, SourcePosition{errors_.FileLine(line.number),
                                                  2 * line.level + 1});
    }
    return object;
  }

  absl::Status ParseSource(size_t i, size_t end, Document* doc) {
    SourceBlock source;
    LIR_ASSIGN_OR_RETURN(
        internal::ParsedName name,
        ParseAt(errors_, lines_[i], 7, lines_[i].content.substr(7),
                internal::ParseName));
    source.name = std::move(name.name);
    LineCursor cursor(lines_, i + 1, end);
    LIR_RETURN_IF_ERROR(internal::ParseMfpLines(errors_, cursor, 1,
                                                /*allow_temporal=*/false,
                                                &source.mfp));
    if (cursor.At(1, "pushdown=(")) {
      const TextLine& line = cursor.Next();
      absl::string_view text = line.content.substr(10);
      if (!absl::ConsumeSuffix(&text, ")")) {
        return errors_.Expected(line, line.content.size(), "')'");
      }
      LIR_ASSIGN_OR_RETURN(source.pushdown,
                           ParseAt(errors_, line, 10, text, ParsePredicates));
    }
    if (!cursor.Done()) {
      return errors_.Expected(
          cursor.Peek(), 0,
          "'project=', 'filter=', 'map=' or 'pushdown=' in that order");
    }
    doc->sources.push_back(std::move(source));
    return absl::OkStatus();
  }

  const ErrorSink& errors_;
  const std::vector<TextLine>& lines_;
  internal::PlanBodyReader read_plan_;
  internal::FastPathBodyReader read_fast_path_;
  NodePositions* positions_;  // null: not asked for
  bool saw_node_ids_ = false;
};

}  // namespace

absl::StatusOr<Document> internal::ParseDocumentFrame(
    std::string_view text, const ParseOptions& options, PlanBodyReader plan,
    FastPathBodyReader fast_path) {
  ErrorSink errors(options.filename, options.first_line - 1);
  // A byte-order mark is not part of the first object's name.
  const size_t bom = text.size() - SkipUtf8Bom(text).size();
  text.remove_prefix(bom);
  // Names and string literals are copied into the document as they are, and
  // JSON (the lossless form) can only carry UTF-8: reject other bytes here,
  // where they can still be located.
  if (size_t bad = FindInvalidUtf8(text); bad != std::string_view::npos) {
    const size_t line_start = text.rfind('\n', bad);
    const size_t column =
        line_start == std::string_view::npos ? bad : bad - line_start - 1;
    const int line = 1 + static_cast<int>(std::count(text.begin(),
                                                     text.begin() + bad, '\n'));
    return absl::InvalidArgumentError(absl::StrCat(
        errors.filename(), ":", errors.FileLine(line), ":", column + 1,
        ": expected UTF-8 text, found the byte 0x",
        absl::Hex(static_cast<unsigned char>(text[bad]), absl::kZeroPad2),
        " (at byte offset ", bad + bom, ")"));
  }
  LIR_ASSIGN_OR_RETURN(std::vector<TextLine> lines,
                       SplitLines(ToAbsl(text), errors));
  if (options.positions != nullptr) options.positions->objects.clear();
  DocumentParser parser(errors, lines, plan, fast_path, options.positions);
  return parser.Parse();
}

}  // namespace lir::explain
