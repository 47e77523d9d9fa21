// Parses Materialize's verbose EXPLAIN text into a Document.
//
// The document frame (objects, Source blocks, Used Indexes, ...) is the one
// both syntaxes share (text_document.cc); this file reads verbose plan
// bodies, and the node annotations and `cte` lines of both syntaxes. Plans
// are built with an explicit stack of open nodes, so nesting depth is
// bounded only by memory: a line at level L closes every open node at level
// >= L, then becomes an attribute, a child, or part of a `With` block of the
// node left on top.
#include <cctype>
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lir/explain/text.h"
#include "lir/status_macros.h"
#include "src/explain/plan_frames.h"
#include "src/explain/text_fast_path.h"
#include "src/explain/text_lines.h"
#include "src/explain/text_syntax.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain {
namespace {

using internal::ErrorSink;
using internal::LineCursor;
using internal::StripAnnotation;
using internal::TextLine;

// One `key: value` field of a ` // { ... }` comment.
struct CommentField {
  absl::string_view key;
  absl::string_view value;
  size_t value_offset = 0;  // in the text given to ParseCommentFields
};

// The fields of a ` // { ... }` comment: `key: value` pairs joined by `, `,
// each key `[a-z_]+`, each value a double-quoted string (backslash escapes)
// or a run without spaces, commas, quotes and braces (`LirId(7)`, `2`,
// `true`, `?`). `fields` is the text between ` // { ` and the final ` }`;
// nullopt when it is not of this form.
std::optional<std::vector<CommentField>> ParseCommentFields(
    absl::string_view fields) {
  auto is_value_char = [](char c) {
    return c != ' ' && c != ',' && c != '"' && c != '{' && c != '}';
  };
  std::vector<CommentField> out;
  size_t i = 0;
  const size_t n = fields.size();
  while (true) {
    const size_t key_start = i;
    while (i < n &&
           ((fields[i] >= 'a' && fields[i] <= 'z') || fields[i] == '_'))
      ++i;
    if (i == key_start || fields.substr(i, 2) != ": ") return std::nullopt;
    CommentField field;
    field.key = fields.substr(key_start, i - key_start);
    i += 2;
    field.value_offset = i;
    if (i < n && fields[i] == '"') {
      for (++i; i < n && fields[i] != '"'; ++i) {
        if (fields[i] == '\\') ++i;
      }
      if (i >= n) return std::nullopt;
      ++i;  // the closing quote
    } else {
      while (i < n && is_value_char(fields[i])) ++i;
      if (i == field.value_offset) return std::nullopt;
    }
    field.value = fields.substr(field.value_offset, i - field.value_offset);
    out.push_back(field);
    if (i == n) return out;
    if (fields.substr(i, 2) != ", ") return std::nullopt;
    i += 2;
  }
}

constexpr absl::string_view kCommentOpen = " // { ";
constexpr absl::string_view kCommentClose = " }";

// Where the ` // { ... }` comment ending a node header starts, or npos. The
// header before it may hold the same text in names and literals, with
// quotes that do not balance (`Error "a\"` is the message `a\`), so the
// comment is found from the end: the last ` // { ` whose remainder is a
// well-formed comment. The comment's own strings escape their quotes, so
// a ` // { ` inside them never leaves a well-formed remainder.
size_t FindCommentStart(absl::string_view content) {
  if (!absl::EndsWith(content, kCommentClose)) return absl::string_view::npos;
  size_t pos = content.size();
  while (pos > 0) {
    pos = content.rfind(kCommentOpen, pos - 1);
    if (pos == absl::string_view::npos) break;
    const size_t fields_start = pos + kCommentOpen.size();
    if (fields_start + kCommentClose.size() <= content.size() &&
        ParseCommentFields(
            content.substr(fields_start, content.size() - kCommentClose.size() -
                                             fields_start))
            .has_value()) {
      return pos;
    }
  }
  return absl::string_view::npos;
}

// Reads `LirId(<n>)` at `offset` of `line`; n must lie in
// [kMinLirId, kMaxLirId] (../shared/reference/TEXT-FORMAT.md section 2).
absl::StatusOr<LirId> ParseLirId(const ErrorSink& errors, const TextLine& line,
                                 size_t offset, absl::string_view value) {
  const std::string what = absl::StrCat("a node id LirId(<n>) with n from ",
                                        kMinLirId, " to ", kMaxLirId);
  absl::string_view digits = value;
  if (!absl::ConsumePrefix(&digits, "LirId(") ||
      !absl::ConsumeSuffix(&digits, ")") || digits.empty()) {
    return errors.Expected(line, offset, what);
  }
  LirId id = 0;
  for (char c : digits) {
    const bool digit = c >= '0' && c <= '9';
    if (!digit || id > (kMaxLirId - (c - '0')) / 10) {
      return errors.Expected(line, offset + 6,
                             absl::StrCat(what, ", found '", value, "'"));
    }
    id = id * 10 + static_cast<LirId>(c - '0');
  }
  if (id < kMinLirId) {
    return errors.Expected(line, offset + 6,
                           absl::StrCat(what, ", found '", value, "'"));
  }
  return id;
}

}  // namespace

absl::StatusOr<absl::string_view> internal::StripAnnotation(
    const ErrorSink& errors, const TextLine& line, std::optional<LirId>* id) {
  absl::string_view content = line.content;
  if (content.back() != '}') return content;  // the common case: no comment
  const size_t pos = FindCommentStart(content);
  if (pos == absl::string_view::npos) return content;
  // Only `node_id` is read; Materialize and PrintText write it first.
  const size_t fields_start = pos + kCommentOpen.size();
  const absl::string_view fields = content.substr(
      fields_start, content.size() - kCommentClose.size() - fields_start);
  const std::optional<std::vector<CommentField>> parsed =
      ParseCommentFields(fields);
  for (const CommentField& field : *parsed) {
    if (field.key != "node_id") continue;
    LIR_ASSIGN_OR_RETURN(
        *id, ParseLirId(errors, line, fields_start + field.value_offset,
                        field.value));
  }
  return content.substr(0, pos);
}

absl::Status internal::ParseCteLine(const ErrorSink& errors,
                                    const TextLine& line, bool recursive,
                                    uint64_t* id,
                                    std::optional<LetRecLimit>* limit) {
  absl::string_view text = line.content;
  if (!absl::ConsumePrefix(&text, "cte ") ||
      !absl::ConsumeSuffix(&text, " =")) {
    return errors.Expected(line, 0, "'cte l<n> =' or 'Return'");
  }
  if (absl::ConsumePrefix(&text, "[recursion_limit=")) {
    if (!recursive) {
      return errors.Expected(
          line, 4, "a local id (limits need With Mutually Recursive)");
    }
    size_t close = text.find("] ");
    if (close == absl::string_view::npos) {
      return errors.Expected(line, 4, "'] ' closing the recursion limit");
    }
    absl::string_view inner = text.substr(0, close);
    LetRecLimit value;
    value.return_at_limit = absl::ConsumeSuffix(&inner, ", return_at_limit");
    if (!absl::SimpleAtoi(inner, &value.max_iters)) {
      return errors.Expected(line, 21, "a recursion limit number");
    }
    *limit = value;
    text = text.substr(close + 2);
  }
  if (!absl::ConsumePrefix(&text, "l") || text.empty() ||
      !std::isdigit(static_cast<unsigned char>(text[0])) ||
      !absl::SimpleAtoi(text, id)) {
    return errors.Expected(line, line.content.size() - text.size() - 2,
                           "a local id 'l<n>'");
  }
  return absl::OkStatus();
}

namespace {

// True for lines that belong to the node above rather than starting a child.
bool IsAttributeLine(absl::string_view content) {
  char first = content[0];
  return (first >= 'a' && first <= 'z') || absl::StartsWith(content, "- ") ||
         absl::StartsWith(content, "TemporalFilter:");
}

// An open node, or an open `With` / `With Mutually Recursive` block.
struct TextFrame {
  int level = 0;
  TextLine header;
  NodePtr node;  // null for With blocks
  internal::WithBlock with;
};

class PlanBuilder {
 public:
  PlanBuilder(const ErrorSink& errors, const std::vector<TextLine>& lines,
              internal::NodeHeaders* headers)
      : errors_(errors), lines_(lines), headers_(headers) {}

  // Builds the plan in lines [begin, end) whose root is at `base_level`.
  absl::StatusOr<NodePtr> Build(size_t begin, size_t end, int base_level) {
    for (size_t i = begin; i < end;) {
      const TextLine& line = lines_[i];
      const bool is_return = absl::StartsWith(line.content, "Return");
      while (!stack_.empty() && stack_.back().level >= line.level) {
        TextFrame& top = stack_.back();
        if (is_return && top.node == nullptr && top.level == line.level &&
            !top.with.in_body) {
          break;
        }
        LIR_RETURN_IF_ERROR(Close());
      }
      if (stack_.empty()) {
        if (root_ != nullptr) {
          return errors_.Expected(line, 0,
                                  "end of plan (the plan has one root)");
        }
        if (line.level != base_level) {
          return errors_.Expected(
              line, 0,
              absl::StrCat("plan root at indentation level ", base_level));
        }
        LIR_ASSIGN_OR_RETURN(i, OpenNode(i, end));
        continue;
      }
      TextFrame& top = stack_.back();
      if (top.node == nullptr) {
        LIR_ASSIGN_OR_RETURN(i, WithLine(top, i, end, is_return));
        continue;
      }
      if (line.level != top.level + 1) {
        return errors_.Expected(
            line, 0,
            absl::StrCat("a child plan at indentation level ", top.level + 1));
      }
      LIR_ASSIGN_OR_RETURN(i, OpenNode(i, end));
    }
    while (!stack_.empty()) LIR_RETURN_IF_ERROR(Close());
    if (root_ == nullptr) return internal::NoPlanError(errors_, lines_, begin);
    return std::move(root_);
  }

  bool saw_node_ids() const { return saw_node_ids_; }

 private:
  // A line inside a With block at the top of the stack.
  absl::StatusOr<size_t> WithLine(TextFrame& top, size_t i, size_t end,
                                  bool is_return) {
    const TextLine& line = lines_[i];
    if (is_return && line.level == top.level) {
      LIR_RETURN_IF_ERROR(CheckBindingsComplete(top, line));
      std::optional<LirId> id;
      LIR_ASSIGN_OR_RETURN(absl::string_view text,
                           StripAnnotation(errors_, line, &id));
      if (text != "Return") return errors_.Expected(line, 0, "'Return'");
      if (id.has_value()) saw_node_ids_ = true;
      top.with.return_id = id;
      top.with.in_body = true;
      return i + 1;
    }
    if (!top.with.in_body && line.level == top.level + 1) {
      LIR_RETURN_IF_ERROR(CheckBindingsComplete(top, line));
      LIR_RETURN_IF_ERROR(internal::ReadCte(errors_, line, top.with));
      return i + 1;
    }
    if (!top.with.in_body && line.level == top.level + 2 &&
        top.with.values.size() < top.with.ids.size()) {
      return OpenNode(i, end);
    }
    if (top.with.in_body && line.level == top.level + 1 &&
        top.with.body == nullptr) {
      return OpenNode(i, end);
    }
    if (top.with.in_body) {
      return errors_.Expected(line, 0, "the end of the With block (one body)");
    }
    return errors_.Expected(line, 0,
                            absl::StrCat("'cte l<n> =' at indentation level ",
                                         top.level + 1, " or 'Return'"));
  }

  absl::Status CheckBindingsComplete(const TextFrame& top,
                                     const TextLine& line) {
    if (top.with.values.size() < top.with.ids.size()) {
      return errors_.Expected(
          line, 0, absl::StrCat("the plan bound to l", top.with.ids.back()));
    }
    return absl::OkStatus();
  }

  // Opens the node whose header is lines[i]; returns the next line index.
  absl::StatusOr<size_t> OpenNode(size_t i, size_t end) {
    const TextLine& line = lines_[i];
    std::optional<LirId> id;
    LIR_ASSIGN_OR_RETURN(absl::string_view text,
                         StripAnnotation(errors_, line, &id));
    if (text == "With" || text == "With Mutually Recursive") {
      TextFrame frame;
      frame.level = line.level;
      frame.header = line;
      frame.with.recursive = text != "With";
      stack_.push_back(std::move(frame));
      return i + 1;
    }
    if (absl::StartsWith(text, "\xE2\x86\x92")) {
      return errors_.Expected(
          line, 0,
          "a verbose node header: a line starting with '\xE2\x86\x92' is "
          "the concise syntax, but this document's first plan is verbose (a "
          "document uses one syntax)");
    }
    if (IsAttributeLine(text) || text == "Return" ||
        absl::StartsWith(text, "cte ")) {
      return errors_.Expected(line, 0, "a child plan (a node header)");
    }
    size_t j = i + 1;
    while (j < end && (lines_[j].level >= line.level + 2 ||
                       (lines_[j].level == line.level + 1 &&
                        IsAttributeLine(lines_[j].content)))) {
      ++j;
    }
    LineCursor cursor(lines_, i + 1, j);
    LIR_ASSIGN_OR_RETURN(
        NodePtr node, internal::ParseNodeHeader(errors_, line, text, cursor));
    if (!cursor.Done()) {
      const TextLine& extra = cursor.Peek();
      return errors_.Expected(
          extra, 0,
          absl::StrCat(extra.level > line.level + 1 ? "less indentation: " : "",
                       "an attribute of ", HeaderName(*node),
                       " in the documented order, or a child plan"));
    }
    if (id.has_value()) {
      node->id = *id;
      saw_node_ids_ = true;
    }
    if (headers_ != nullptr) headers_->emplace_back(node.get(), line);
    TextFrame frame;
    frame.level = line.level;
    frame.header = line;
    frame.node = std::move(node);
    stack_.push_back(std::move(frame));
    return j;
  }

  // Completes the frame on top of the stack and hands it to its parent.
  absl::Status Close() {
    TextFrame frame = std::move(stack_.back());
    stack_.pop_back();
    NodePtr done;
    if (frame.node != nullptr) {
      const InputCountRange want = RequiredInputs(frame.node->op);
      const size_t have = frame.node->inputs.size();
      if (!want.Allows(have)) {
        return errors_.At(
            frame.header, 0,
            absl::StrCat("expected ", internal::ChildPlans(want), " under ",
                         HeaderName(*frame.node), ", found ", have));
      }
      // The JSON form checks the same (json_read.cc CheckInputCount), so
      // that whatever parses here can be written and read back as JSON.
      if (frame.node->Is<UnionOp>()) {
        const size_t strategies = frame.node->As<UnionOp>().strategies.size();
        if (strategies != 0 && strategies != have) {
          return errors_.At(
              frame.header, 0,
              absl::StrCat("expected one child plan per temporal bucketing "
                           "strategy under Union (",
                           strategies, "), found ", have));
        }
      }
      done = std::move(frame.node);
    } else {
      LIR_RETURN_IF_ERROR(internal::CheckWithComplete(
          errors_, frame.header, frame.with,
          "expected 'cte l<n> =' lines in With block", "Return"));
      done = internal::BuildWithPlan(std::move(frame.with), frame.header,
                                     headers_);
    }
    if (stack_.empty()) {
      root_ = std::move(done);
      return absl::OkStatus();
    }
    TextFrame& parent = stack_.back();
    if (parent.node != nullptr) {
      parent.node->inputs.push_back(std::move(done));
    } else {
      parent.with.Add(std::move(done));
    }
    return absl::OkStatus();
  }

  const ErrorSink& errors_;
  const std::vector<TextLine>& lines_;
  internal::NodeHeaders* headers_;  // null: positions not asked for
  std::vector<TextFrame> stack_;
  NodePtr root_;
  bool saw_node_ids_ = false;
};

}  // namespace

absl::StatusOr<Document> internal::ParseVerboseText(
    std::string_view text, const ParseOptions& options) {
  return ParseDocumentFrame(text, options, ReadPlanBody<PlanBuilder>,
                            internal::ParseFastPathBody);
}

}  // namespace lir::explain
