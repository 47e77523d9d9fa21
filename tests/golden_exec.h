// The `exec` command of the golden tests: runs the built lir-opt as a
// program (CockroachDB's `exec`, MLIR's `RUN:`) on files written from the
// case, and prints its exit code, standard output and standard error.
//
//   exec
//   explain --annotate=arity plan.txt          <- lir-opt's arguments
//   file plan.txt                              <- a file in the scratch dir
//   Explained Query:
//   ...
//   end
//   stdin escaped                              <- standard input
//   \xff\x00not UTF-8\r
//   end
//   ----
//   exit 0
//   -- stdout
//   ...
//   -- stderr
//   ...
//
// The argument line is split as /bin/sh would split words quoted with '...'
// or "..." (backslash escapes the next character outside single quotes); no
// variables or globs, except that `$TMP` stands for the scratch directory,
// the command's working directory, and `$SRC` for the source tree. The line
// `(no arguments)` runs lir-opt without any. Blocks: `file NAME` and `stdin`,
// each up to a line `end`. A block's lines are taken verbatim, each ending in a
// line feed; with `escaped` after the block's name, `\r`, `\n`, `\t`, `\0`,
// `\\` and `\xHH` stand for those bytes and a line ending in `\` has no line
// feed of its own (so a file can hold CRLF, NUL, invalid UTF-8, or end
// without a line feed). Blank lines inside blocks are kept. `file NAME
// from=PATH` and `stdin from=PATH` (no body, no `end`) take the source
// tree's file PATH instead (the named plans of testdata/plans/*.plan, the
// examples).
//
// The output is `exit N` (or `signal N`), then `-- stdout` and `-- stderr`
// with their text when not empty, then `-- file NAME (made)` or `(changed)`
// with the text of each file in the scratch directory the command made or
// changed (a report, a rewritten .slt file), and `-- file NAME (removed)`. In
// the output, the scratch directory's path is `$TMP` and the source tree's
// `$SRC`; bytes that are not printable (controls other than line feed and tab,
// and bytes outside valid UTF-8) are written as `\xHH` (`\r` for a carriage
// return), and text that does not end in a line feed gets a line `\ no line
// feed at end`.
#ifndef LIR_TESTS_GOLDEN_EXEC_H_
#define LIR_TESTS_GOLDEN_EXEC_H_

#include <string>
#include <vector>

namespace lir::test {

/// Runs the case `input` (the argument line and blocks above) and returns
/// the output above, or a line starting `error:` when the case is malformed.
/// `lir_opt` is the program's path; when empty, returns the empty string
/// (the caller skips the case).
std::string RunExecGolden(const std::string& input, const std::string& lir_opt);

/// The argument line split into words (see the file comment); an error
/// string in `error` when a quote is not closed.
std::vector<std::string> SplitShellWords(const std::string& line,
                                         std::string* error);

/// `text` with the escapes of an `escaped` block decoded; an error string in
/// `error` for an unknown escape.
std::string DecodeEscapes(const std::string& text, std::string* error);

/// `bytes` for a golden: unprintable bytes escaped (see the file comment).
std::string PrintableBytes(const std::string& bytes);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_EXEC_H_
