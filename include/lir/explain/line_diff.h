// A line-based unified diff of two texts (absl has none): how lir-opt slt
// shows a golden plan's change, and what the tests print when an output
// differs from its golden.
#ifndef LIR_EXPLAIN_LINE_DIFF_H_
#define LIR_EXPLAIN_LINE_DIFF_H_

#include <cstddef>
#include <string>
#include <vector>

namespace lir::explain {

/// One line of an edit script: kept (' '), removed ('-') or added ('+').
struct DiffLine {
  char op;
  std::string text;
};

/// Splits text into lines; a final newline does not start an extra line.
/// A missing final newline is shown as its own marker line, so that it is
/// visible in a diff.
std::vector<std::string> DiffSplitLines(const std::string& text);

/// The edit script from `a` to `b`: a longest common subsequence of the
/// lines that differ after the common prefix and suffix are set aside. Very
/// large differing middles (over ~4M line pairs) are shown as removed, then
/// added, instead of being aligned.
std::vector<DiffLine> DiffLines(const std::vector<std::string>& a,
                                const std::vector<std::string>& b);

/// A unified diff (`@@ -l,n +l,n @@` hunks with `context` lines around each
/// change) turning `expected` into `actual`; empty when they are equal.
std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        size_t context = 3);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_LINE_DIFF_H_
