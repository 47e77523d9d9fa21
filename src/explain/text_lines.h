// Line-level helpers shared by the text parser's files (internal).
#ifndef LIR_EXPLAIN_TEXT_LINES_H_
#define LIR_EXPLAIN_TEXT_LINES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {

/// One input line split into indentation level and content.
struct TextLine {
  absl::string_view content;  ///< without indentation and newline
  int level = 0;              ///< indentation / 2
  int number = 0;             ///< 1-based line number
  bool blank = false;
};

/// Produces located `file:line:column: expected ...` errors.
class ErrorSink {
 public:
  /// `line_offset` is added to every line number reported (the text's
  /// first line is line 1 + line_offset of its file).
  explicit ErrorSink(std::string filename, int line_offset = 0)
      : filename_(std::move(filename)), line_offset_(line_offset) {}

  /// An error at byte `offset` of `line`'s content.
  absl::Status At(const TextLine& line, size_t offset,
                  absl::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(filename_, ":", FileLine(line.number), ":",
                     2 * line.level + offset + 1, ": ", message));
  }
  /// `expected <what>` at byte `offset` of `line`'s content.
  absl::Status Expected(const TextLine& line, size_t offset,
                        absl::string_view what) const {
    return At(line, offset, absl::StrCat("expected ", what));
  }
  /// An error at the very end of the input.
  absl::Status AtEnd(int line_number, absl::string_view message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(filename_, ":", FileLine(line_number), ":1: ", message));
  }
  const std::string& filename() const { return filename_; }
  /// Line `number` of the text as a line of its file.
  int FileLine(int number) const { return number + line_offset_; }

 private:
  std::string filename_;
  int line_offset_ = 0;
};

/// Runs a primitive parser `fn(text, &pos)` on `text`, which starts at byte
/// `base` of `line`'s content, and locates its error.
template <typename Fn>
auto ParseAt(const ErrorSink& errors, const TextLine& line, size_t base,
             absl::string_view text, Fn&& fn)
    -> decltype(fn(std::string_view(), static_cast<size_t*>(nullptr))) {
  size_t pos = 0;
  auto result = fn(ToStd(text), &pos);
  if (!result.ok()) {
    return errors.At(line, base + pos, result.status().message());
  }
  return result;
}

/// A cursor over the attribute lines of one node.
class LineCursor {
 public:
  LineCursor(const std::vector<TextLine>& lines, size_t begin, size_t end)
      : lines_(lines), pos_(begin), end_(end) {}

  bool Done() const { return pos_ >= end_; }
  const TextLine& Peek() const { return lines_[pos_]; }
  const TextLine& Next() { return lines_[pos_++]; }
  /// The next line exists, is at `level` and starts with `prefix`.
  bool At(int level, absl::string_view prefix) const {
    return !Done() && lines_[pos_].level == level &&
           absl::StartsWith(lines_[pos_].content, prefix);
  }
  /// The next line exists, is at `level` and is exactly `text`.
  bool AtExactly(int level, absl::string_view text) const {
    return !Done() && lines_[pos_].level == level &&
           lines_[pos_].content == text;
  }
  /// The last line number consumed or about to be, for end-of-block errors.
  int LineNumberHint() const {
    if (pos_ < end_) return lines_[pos_].number;
    return pos_ > 0 ? lines_[pos_ - 1].number : 1;
  }

 private:
  const std::vector<TextLine>& lines_;
  size_t pos_;
  size_t end_;
};

/// Reads the MFP-lines group (`project=`, `filter=`, `map=`, and when
/// `allow_temporal` `TemporalFilter:`) at `level` into `mfp`.
absl::Status ParseMfpLines(const ErrorSink& errors, LineCursor& cursor,
                           int level, bool allow_temporal,
                           MapFilterProject* mfp);

/// Strips `prefix` and `suffix` around a line's content or fails, naming
/// the expected form `what`.
absl::StatusOr<absl::string_view> Between(const ErrorSink& errors,
                                          const TextLine& line,
                                          absl::string_view prefix,
                                          absl::string_view suffix,
                                          absl::string_view what);

/// The offset of the `"` that closes the string literal opened by the `"`
/// at `text[open]` (a backslash escapes the byte after it), or
/// `text.size()` when the literal is not closed. Scanners step over a
/// literal with this, so that brackets, separators and masks inside it are
/// not taken for syntax.
size_t StringLiteralEnd(absl::string_view text, size_t open);

/// Splits `text` at occurrences of `sep` outside brackets and string
/// literals; returns (offset, piece) pairs.
std::vector<std::pair<size_t, absl::string_view>> SplitTopLevel(
    absl::string_view text, absl::string_view sep);

/// Reads the attribute lines of a Join::Linear (`join->delta` false) or
/// Join::Delta node at `level` into `join`.
absl::Status ParseJoin(const ErrorSink& errors, LineCursor& cursor, int level,
                       JoinOp* join);

/// Reads the `TemporalFilter: ` line `line` (either syntax) into `temporal`.
absl::Status ParseTemporalFilterLine(const ErrorSink& errors,
                                     const TextLine& line,
                                     TemporalFilter* temporal);

/// Reads a collection id as a Get header prints it (`text` starts at byte
/// `base` of `line`): `l<n>` is local, anything else a global name
/// (text_names.h).
absl::StatusOr<CollectionId> ParseCollectionId(const ErrorSink& errors,
                                               const TextLine& line,
                                               size_t base,
                                               absl::string_view text);

/// Splits a table function call `<func>(<args>)` (`text` starts at byte
/// `base` of `line`) into `f->func` and `f->exprs`: the arguments are the
/// last top-level parenthesized group.
absl::Status ParseFlatMapHeader(const ErrorSink& errors, const TextLine& line,
                                absl::string_view text, size_t base,
                                FlatMapOp* f);

/// Removes a trailing ` // { node_id: LirId(n), ... }` comment from `line`'s
/// content and returns the rest; sets `*id` when the comment names a
/// node_id (other fields are ignored: they are recomputed, never trusted).
absl::StatusOr<absl::string_view> StripAnnotation(const ErrorSink& errors,
                                                  const TextLine& line,
                                                  std::optional<LirId>* id);

/// Reads a binding line of a With block (either syntax): `cte l<n> =`, or
/// in a recursive block `cte [recursion_limit=<n>[, return_at_limit]] l<n>
/// =`.
absl::Status ParseCteLine(const ErrorSink& errors, const TextLine& line,
                          bool recursive, uint64_t* id,
                          std::optional<LetRecLimit>* limit);

/// The header line of each node a plan reader built (ParseOptions::
/// positions), in the order the nodes were made. Lines are copied: a
/// builder's frames hold copies that do not outlive it.
using NodeHeaders = std::vector<std::pair<const Node*, TextLine>>;

/// Reads the plan of one object, lines [begin, end) of `lines` with its root
/// at `base_level`; sets `*saw_node_ids` when a node_id annotation was read,
/// and appends every node's header line to `*headers` when it is not null.
/// Ids left 0 are filled in by the document frame.
using PlanBodyReader = absl::StatusOr<NodePtr> (*)(
    const ErrorSink& errors, const std::vector<TextLine>& lines, size_t begin,
    size_t end, int base_level, bool* saw_node_ids, NodeHeaders* headers);

/// Reads the body of a fast-path object (`Explained Query (fast path):`),
/// lines [begin, end) with its first line at `level`.
using FastPathBodyReader = absl::StatusOr<FastPath> (*)(
    const ErrorSink& errors, const std::vector<TextLine>& lines, size_t begin,
    size_t end, int level);

/// Parses a whole EXPLAIN document: the frame both syntaxes share (objects,
/// Finish, Source blocks in the verbose MFP syntax, Used Indexes, Target
/// cluster, Notices, Optimization time; UTF-8 and line checks), reading each
/// object's body with `plan` or `fast_path`, then numbering nodes without
/// an annotated id (post-order). ParseText's error contract.
absl::StatusOr<Document> ParseDocumentFrame(std::string_view text,
                                            const ParseOptions& options,
                                            PlanBodyReader plan,
                                            FastPathBodyReader fast_path);

/// Parses a node header (annotation already removed: `header_text`) and the
/// node's attribute lines (`attrs`, all at levels deeper than the header)
/// into a node without inputs. Not for `With` blocks.
absl::StatusOr<NodePtr> ParseNodeHeader(const ErrorSink& errors,
                                        const TextLine& header,
                                        absl::string_view header_text,
                                        LineCursor& attrs);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_TEXT_LINES_H_
