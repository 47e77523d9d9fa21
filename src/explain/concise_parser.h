// The reader of Materialize's concise physical-plan EXPLAIN syntax
// (../shared/reference/CONCISE-FORMAT.md), internal to src/explain.
//
// The document frame is the verbose reader's (text_parser.cc
// ParseDocumentFrame); this reader supplies the two object bodies:
// concise_parser.cc builds the plan tree with an explicit stack,
// concise_parse_node.cc reads one node's "head block" (its wrapper lines,
// operator line and attribute lines, without its inputs),
// concise_parse_reduce.cc the GroupAggregate and TopK heads,
// concise_parse_join.cc the join chains and closure blocks,
// concise_parse_fast_path.cc fast-path bodies, and concise_parse_lines.cc
// the pieces they share (MFP lines, errors).
//
// The result is a partial plan: every fact the concise syntax drops is
// marked on its node (Node::unknown) and its field holds a placeholder.
#ifndef LIR_EXPLAIN_CONCISE_PARSER_H_
#define LIR_EXPLAIN_CONCISE_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "src/explain/text_lines.h"

namespace lir::explain::internal {

/// `→` (U+2192), which starts every concise operator line.
inline constexpr absl::string_view kArrow = "\xE2\x86\x92";

/// Bytes of `→` before an operator's name.
inline constexpr size_t kOp = kArrow.size();

/// What an unknown operator line is told it should have been.
inline constexpr absl::string_view kConciseOperators =
    "a concise operator line (\xE2\x86\x92"
    "Constant, \xE2\x86\x92Stream, \xE2\x86\x92"
    "Arranged, \xE2\x86\x92Index Lookup on, \xE2\x86\x92Read, "
    "\xE2\x86\x92With, \xE2\x86\x92Map/Filter/Project, \xE2\x86\x92Table "
    "Function, \xE2\x86\x92"
    "Differential Join, \xE2\x86\x92"
    "Delta Join, \xE2\x86\x92... GroupAggregate, \xE2\x86\x92... TopK, "
    "\xE2\x86\x92Monotonic Top1, \xE2\x86\x92Negate Diffs, \xE2\x86\x92"
    "Threshold Diffs, \xE2\x86\x92Union, \xE2\x86\x92"
    "Arrange, \xE2\x86\x92Unarranged Raw Stream, \xE2\x86\x92Set "
    "Difference, \xE2\x86\x92"
    "Anti Join, \xE2\x86\x92"
    "Fused with Child Map/Filter/Project)";

/// A cursor over the lines of one plan body, [pos, end).
class ConciseCursor {
 public:
  ConciseCursor(const std::vector<TextLine>& lines, size_t pos, size_t end)
      : lines_(lines), pos_(pos), end_(end) {}

  bool Done() const { return pos_ >= end_; }
  size_t pos() const { return pos_; }
  const TextLine& Peek() const { return lines_[pos_]; }
  const TextLine& Next() { return lines_[pos_++]; }
  /// The line before the cursor (there must be one).
  const TextLine& Previous() const { return lines_[pos_ - 1]; }
  /// The next line exists, is at `level` and starts with `prefix`.
  bool At(int level, absl::string_view prefix) const;
  /// The next line exists, is at `level` and is exactly `text`.
  bool AtExactly(int level, absl::string_view text) const;
  /// The next line exists, is at `level` and is an operator line (`→...`).
  bool AtOperator(int level) const { return At(level, kArrow); }

 private:
  const std::vector<TextLine>& lines_;
  size_t pos_;
  size_t end_;
};

/// One input of a join chain as printed: `%2:t[#0{a}]`.
struct ChainItem {
  int position = 0;
  /// The text after `:`, when printed (the input's Get, unqualified).
  std::optional<std::string> name;
  /// Byte offset of the `%` in the header line's content.
  size_t offset = 0;
};

/// A node as its head block reads: the node without its inputs, and where
/// and how many inputs follow.
struct ConciseHead {
  NodePtr node;
  /// The operator line that names the node (and carries its annotation).
  const TextLine* header = nullptr;
  /// The operator as messages name it: `→Negate Diffs`.
  std::string label;
  /// The level of the head block's first line (a wrapper line, if any).
  int start_level = 0;
  /// The level its inputs are at.
  int child_level = 0;
  size_t min_inputs = 0;
  size_t max_inputs = 0;
  /// Union: `Temporally-Bucketed` was printed (every input is marked once
  /// the inputs are known).
  bool temporally_bucketed_union = false;
  /// Join: every item of every chain, checked against the inputs when they
  /// are read (CheckJoinChain).
  std::vector<ChainItem> chain;
};

/// An MFP printed by a `→Fused with Child Map/Filter/Project` wrapper above
/// the node it belongs to.
struct FusedMfp {
  const TextLine* wrapper = nullptr;
  MapFilterProject mfp;
  /// The `TemporalFilter:` line, if one was printed (not every node takes
  /// temporal bounds).
  const TextLine* temporal_line = nullptr;
};

// ---- concise_parse_node.cc -------------------------------------------------

/// An operator line as read: the line, its text after the arrow with the
/// annotation removed, and the annotated id.
struct OperatorLine {
  const TextLine* line = nullptr;
  absl::string_view text;
  std::optional<LirId> id;
};

/// Reads the operator line at the cursor (which must be one).
absl::StatusOr<OperatorLine> ReadOperatorLine(const ErrorSink& errors,
                                              ConciseCursor& cursor);

/// OK unless the wrapper line `op` carries a node_id: the annotation belongs
/// to the node below it.
absl::Status NoAnnotation(const ErrorSink& errors, const OperatorLine& op);

/// The head of `node`, named by `op` (whose annotated id it takes), with
/// `min_inputs`..`max_inputs` inputs at `child_level`.
ConciseHead MakeHead(const OperatorLine& op, NodePtr node, std::string label,
                     int child_level, size_t min_inputs, size_t max_inputs);

/// Reads the head block of the node whose first line (an operator line or
/// a `→Fused with Child Map/Filter/Project` wrapper) is at the cursor, and
/// consumes exactly its lines. Not for `→With` blocks (the tree builder's).
absl::StatusOr<ConciseHead> ReadConciseHead(const ErrorSink& errors,
                                            ConciseCursor& cursor);

// ---- concise_parse_reduce.cc -----------------------------------------------

/// The `Temporally-Bucketed ` and `Consolidating ` words a GroupAggregate,
/// a TopK or a Union may start with, and the operator after them.
struct OperatorPrefixes {
  bool temporally_bucketed = false;
  bool consolidating = false;
  size_t consolidating_offset = 0;  ///< in the operator text
  absl::string_view rest;
  size_t rest_offset = 0;
};

/// Splits those words off an operator line's text.
OperatorPrefixes SplitPrefixes(absl::string_view text);

/// Whether an operator line's text (after the arrow) names a Reduce: a
/// GroupAggregate, or the unnest wrapper above one.
bool IsReduceOperator(absl::string_view text);

/// Reads a Reduce whose operator line (or unnest wrapper line) `op` was
/// just read; `fused` is the MFP fused from above, if any.
absl::StatusOr<ConciseHead> ReadReduce(const ErrorSink& errors,
                                       ConciseCursor& cursor, OperatorLine op,
                                       const FusedMfp* fused);

/// Reads a TopK whose operator line `op` (split into `prefixes`) was just
/// read.
absl::StatusOr<ConciseHead> ReadTopK(const ErrorSink& errors,
                                     ConciseCursor& cursor,
                                     const OperatorLine& op,
                                     const OperatorPrefixes& prefixes);

// ---- concise_parse_join.cc -------------------------------------------------

/// Reads a join's operator line (`text` is its content after the arrow,
/// annotation removed) and its closure blocks into `head`.
absl::Status ParseConciseJoin(const ErrorSink& errors, ConciseCursor& cursor,
                              const TextLine& header, absl::string_view text,
                              ConciseHead* head);

/// Checks the chain of a join whose inputs are read: each `%i:name` names
/// what digging through input i (past ArrangeBy and Map/Filter/Project)
/// finds, a Get's unqualified item name or local id, and a `%i` without a
/// name has no Get there (CONCISE-FORMAT 6, Join).
absl::Status CheckJoinChain(const ErrorSink& errors, const ConciseHead& head,
                            const Node& join);

// ---- concise_parse_fast_path.cc --------------------------------------------

/// Reads a concise fast-path body (CONCISE-FORMAT section 7): lines
/// [begin, end) with its first line at `level`. A FastPathBodyReader.
absl::StatusOr<FastPath> ParseConciseFastPathBody(
    const ErrorSink& errors, const std::vector<TextLine>& lines, size_t begin,
    size_t end, int level);

// ---- concise_parse_lines.cc ------------------------------------------------

/// An error for `line` where `what` was expected. When the line is verbose
/// syntax (`raw=true`, `Reduce::Accumulable`, `project=(...)`) the message
/// says so: the document is concise.
absl::Status UnexpectedLine(const ErrorSink& errors, const TextLine& line,
                            absl::string_view what);

/// The same where the cursor may be at the end of the block: then the
/// error points just past the previous line.
absl::Status UnexpectedAt(const ErrorSink& errors, const ConciseCursor& cursor,
                          absl::string_view what);

/// `status` unless it is an error and `line` holds a masked literal such as
/// `<TIMESTAMP>` (a sqllogictest `replace` directive's work, not EXPLAIN
/// output); then a located error naming the mask.
absl::Status MaskAware(const ErrorSink& errors, const TextLine& line,
                       absl::Status status);

/// ParseAt (text_lines.h) whose failure is reported by MaskAware.
template <typename Fn>
auto ParseConciseAt(const ErrorSink& errors, const TextLine& line, size_t base,
                    absl::string_view text, Fn&& fn)
    -> decltype(ParseAt(errors, line, base, text, fn)) {
  auto result = ParseAt(errors, line, base, text, fn);
  if (!result.ok()) return MaskAware(errors, line, result.status());
  return result;
}

/// Where the bracket opened by `text[open]` (`(` or `[`) is closed: the
/// offset of its closer, skipping string literals and nested groups; npos
/// when it is not closed.
size_t MatchingClose(absl::string_view text, size_t open);

/// Reads the concise MFP lines at `level` in their order (`Project:`,
/// `Filter:`, `Map:`, then `TemporalFilter:` when `allow_temporal`) into
/// `mfp`; returns how many lines were read. `*temporal_line` (if given) is
/// set to the `TemporalFilter:` line.
absl::StatusOr<int> ParseConciseMfpLines(
    const ErrorSink& errors, ConciseCursor& cursor, int level,
    bool allow_temporal, MapFilterProject* mfp,
    const TextLine** temporal_line = nullptr);

/// Reads a key group's content (`#0{a}, #1` or `empty key`) starting at
/// byte `base` of `line`: a non-empty CompactScalars list, or the empty key.
absl::StatusOr<std::vector<ScalarExpr>> ParseKeyList(const ErrorSink& errors,
                                                     const TextLine& line,
                                                     size_t base,
                                                     absl::string_view text);

/// Reads the part of a `→Constant ` line after `→Constant ` (`text`, at
/// byte `base` of `line`): `(N row[s])`, `(error: "...")` or `(error: █)`.
/// `fast_path` bodies always say `rows`. Sets `*count` for a row count
/// (the rows themselves are not printed).
absl::StatusOr<ConstantOp> ParseConstantSummary(
    const ErrorSink& errors, const TextLine& line, size_t base,
    absl::string_view text, bool fast_path, std::optional<uint64_t>* count);

/// Whether `text` is a number as Materialize prints one: decimal digits
/// without a sign (a `-` first when `signed_ok`) or leading zeros. Anything
/// else would print back differently.
bool IsCanonicalNumber(absl::string_view text, bool signed_ok = false);

/// The unqualified item name of a printed global name: the text after its
/// last `.` (Materialize's `humanize_id_unqualified`); the whole name when
/// it has no dot.
absl::string_view UnqualifiedName(absl::string_view name);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_CONCISE_PARSER_H_
