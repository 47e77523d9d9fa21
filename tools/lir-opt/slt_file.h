// Reading sqllogictest (.slt) files for `lir-opt slt`: the file as lines
// with their own line endings (`\n`, `\r\n` or a lone `\r`; a UTF-8
// byte-order mark before the first line is in none), and its
// `query T multiline` blocks whose
// statement is EXPLAIN PHYSICAL PLAN, each with where its expected output
// lies; and writing a file back with some blocks' plans replaced, every
// other byte as it was.
#ifndef LIR_TOOLS_LIR_OPT_SLT_FILE_H_
#define LIR_TOOLS_LIR_OPT_SLT_FILE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"
#include "lir/document.h"

#include "absl/status/status.h"

namespace lir::cli::slt {

/// One line: its text and its terminator (`\n`, `\r\n`, a lone `\r`, or
/// empty for a last line without one). Views into SltFile::content.
struct Line {
  absl::string_view text;
  absl::string_view eol;
};

/// What a block's statement prints (../shared/reference/CONCISE-FORMAT.md
/// section 1).
enum class StatementKind {
  kNotPlan,            ///< not a physical plan (MIR stages, TIMESTAMP, ...)
  kVerbose,            ///< `EXPLAIN PHYSICAL PLAN [AS VERBOSE TEXT] FOR`
  kConcise,            ///< `EXPLAIN [WITH(...)] q`, `... AS TEXT FOR`, ...
  kConciseIfFastPath,  ///< `EXPLAIN OPTIMIZED PLAN FOR`: MIR, or a concise
                       ///< fast-path plan when the query has one
  kSkipped,            ///< a physical plan in a format lir does not read
};

/// The kind of `statement` (its lines joined); for kSkipped,
/// `*skip_reason` says why.
StatementKind ClassifyStatement(const std::string& statement,
                                std::string* skip_reason);

/// One `query ... multiline` block whose statement prints a physical plan
/// (ClassifyStatement). Line indices are 0-based into SltFile::lines.
struct ExplainBlock {
  /// The `query` line.
  size_t query_line = 0;
  /// The statement, its lines joined with single spaces.
  std::string statement;
  /// Set when the block is a physical plan in a format lir does not read
  /// (AS JSON, AS DOT): why it is skipped.
  std::optional<std::string> skip_reason;
  /// The syntax the statement prints; the block's text must be in it.
  TextSyntax syntax = TextSyntax::kVerbose;
  /// Set when the block is malformed (no `----`, no `EOF`): the message.
  std::optional<std::string> error;
  /// The expected output: lines [output_begin, output_end); output_end is
  /// the `EOF` line (for an output without one, the blank line that ends
  /// it, or the line count).
  size_t output_begin = 0;
  size_t output_end = 0;
  /// The plan is lines [output_begin, plan_end): the output without the
  /// blank line Materialize's runner puts before `EOF`.
  size_t plan_end = 0;
};

/// A whole .slt file.
struct SltFile {
  std::string name;
  std::string content;
  /// Where each line begins in `content`, in order: a line runs to the
  /// next one's start (or the end of `content`), its terminator included.
  /// One offset a line, its text and terminator found when asked for: for
  /// files of short lines this index is most of what slt holds.
  std::vector<size_t> line_starts;
  std::vector<ExplainBlock> blocks;

  SltFile() = default;
  // A file can be large; it is never copied by accident.
  SltFile(const SltFile&) = delete;
  SltFile& operator=(const SltFile&) = delete;

  size_t line_count() const { return line_starts.size(); }
  /// Line `i` (< line_count()): its text and terminator.
  Line line(size_t i) const;
};

/// Splits `file->content` into lines and finds its physical-plan blocks,
/// verbose and concise. Never fails: a malformed block carries its error.
/// A multiline output ends at its `EOF` line, as Materialize's runner ends
/// it; one without `EOF` ends at a blank line followed by a new record (as
/// the runner ends every other record), so that the blocks after it are
/// still found: a plan block so ended is an error, any other is ignored.
void ParseSltFile(SltFile* file);

/// The plan text of a block (its lines, each ending in `\n`).
std::string PlanText(const SltFile& file, const ExplainBlock& block);

/// Replaces the plan of `block` with `plan` (lines ending in `\n`).
struct Replacement {
  const ExplainBlock* block = nullptr;
  std::string plan;
};

/// The file's content with every replacement made: each new plan line ends
/// like the block's first plan line did (`\r\n` stays `\r\n`), and every
/// other byte is unchanged.
std::string RenderWithReplacements(
    const SltFile& file, const std::vector<Replacement>& replacements);

/// Writes `content` to `path` atomically: a temporary file in the same
/// directory, flushed, given the original's permissions, then renamed over
/// it (a symbolic link is followed, so the link stays a link). An
/// interrupted run leaves the old file or the new one, never half of one.
absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view content);

}  // namespace lir::cli::slt

#endif  // LIR_TOOLS_LIR_OPT_SLT_FILE_H_
