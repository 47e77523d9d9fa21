#include "lir/explain/line_diff.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace lir::explain {

std::vector<std::string> DiffSplitLines(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (lines.back().empty()) {
    lines.pop_back();
  } else {
    lines.push_back("\\ No newline at end of text");
  }
  return lines;
}

std::vector<DiffLine> DiffLines(const std::vector<std::string>& a,
                                const std::vector<std::string>& b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) {
    ++prefix;
  }
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t n = a.size() - prefix - suffix;
  const size_t m = b.size() - prefix - suffix;
  std::vector<DiffLine> script;
  for (size_t i = 0; i < prefix; ++i) script.push_back({' ', a[i]});
  if (n * m <= 4'000'000) {
    // lcs[i][j]: LCS length of a[prefix+i..] and b[prefix+j..].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        lcs[i][j] = a[prefix + i] == b[prefix + j]
                        ? lcs[i + 1][j + 1] + 1
                        : std::max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        script.push_back({' ', a[prefix + i]});
        ++i;
        ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        script.push_back({'-', a[prefix + i++]});
      } else {
        script.push_back({'+', b[prefix + j++]});
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) script.push_back({'-', a[prefix + i]});
    for (size_t j = 0; j < m; ++j) script.push_back({'+', b[prefix + j]});
  }
  for (size_t i = a.size() - suffix; i < a.size(); ++i) {
    script.push_back({' ', a[i]});
  }
  return script;
}

std::string UnifiedDiff(const std::string& expected, const std::string& actual,
                        size_t context) {
  if (expected == actual) return "";
  std::vector<DiffLine> script =
      DiffLines(DiffSplitLines(expected), DiffSplitLines(actual));
  std::string out;
  size_t k = 0;
  // Line numbers (1-based) in expected/actual of script[k].
  size_t a_line = 1, b_line = 1;
  while (k < script.size()) {
    // Find the next change.
    size_t change = k;
    size_t a_at = a_line, b_at = b_line;
    while (change < script.size() && script[change].op == ' ') {
      ++change;
      ++a_at;
      ++b_at;
    }
    if (change == script.size()) break;
    // The hunk starts `context` lines before it and extends while changes
    // are at most 2*context kept lines apart.
    size_t start = change - std::min(context, change - k);
    size_t a_start = a_at - (change - start), b_start = b_at - (change - start);
    size_t end = change;
    size_t kept_run = 0;
    for (size_t e = change; e < script.size(); ++e) {
      if (script[e].op == ' ') {
        if (++kept_run > 2 * context) break;
      } else {
        kept_run = 0;
        end = e + 1;
      }
    }
    end = std::min(script.size(), end + context);
    size_t a_count = 0, b_count = 0;
    std::string body;
    for (size_t e = start; e < end; ++e) {
      if (script[e].op != '+') ++a_count;
      if (script[e].op != '-') ++b_count;
      absl::StrAppend(&body, std::string(1, script[e].op), script[e].text,
                      "\n");
    }
    absl::StrAppend(&out, "@@ -", a_count == 0 ? a_start - 1 : a_start, ",",
                    a_count, " +", b_count == 0 ? b_start - 1 : b_start, ",",
                    b_count, " @@\n", body);
    // Advance the line counters past the hunk.
    a_line = a_start + a_count;
    b_line = b_start + b_count;
    k = end;
  }
  return out;
}

}  // namespace lir::explain
