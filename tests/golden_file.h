// The golden file format (golden_test.cc describes it): cases, their
// directive arguments, and the lines REWRITE=1 writes for an output.
#ifndef LIR_TESTS_GOLDEN_FILE_H_
#define LIR_TESTS_GOLDEN_FILE_H_

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace lir::test {

/// The line between a case's input and its expected output.
inline constexpr char kSeparator[] = "----";

/// The `key=value` arguments of a directive. Handlers read them through
/// Get(), which records which keys were used, so that a misspelt argument
/// fails the case instead of being ignored.
class CaseArgs {
 public:
  void Set(std::string key, std::string value) {
    values_[std::move(key)] = std::move(value);
  }
  /// The value of `key`, or `fallback` when absent.
  std::string Get(const std::string& key, const std::string& fallback = "") {
    used_.insert(key);
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }
  bool Has(const std::string& key) const { return values_.count(key) > 0; }
  /// Keys given in the directive that no handler asked for.
  std::vector<std::string> Unused() const {
    std::vector<std::string> unused;
    for (const auto& [key, value] : values_) {
      if (!used_.count(key)) unused.push_back(key);
    }
    return unused;
  }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> used_;
};

/// One case of a golden file.
struct TestCase {
  int directive_line = 0;  ///< 1-based, for messages
  std::string command;
  CaseArgs args;
  std::string input;     ///< input lines, each ending in `\n`
  std::string expected;  ///< expected lines, each ending in `\n`
  /// Lines [output_begin, output_end) of the file hold the expected block
  /// (including doubled separators); REWRITE replaces exactly them.
  size_t output_begin = 0;
  size_t output_end = 0;
};

/// A golden file split into lines and cases.
struct GoldenFile {
  std::vector<std::string> lines;
  std::vector<TestCase> cases;
};

/// Lines [begin, end) of `lines`, each ending in `\n`.
std::string JoinLines(const std::vector<std::string>& lines, size_t begin,
                      size_t end);

/// Splits a golden file (`name` for messages) into lines and cases.
absl::StatusOr<GoldenFile> ParseGoldenFile(const std::string& content,
                                           const std::string& name);

/// The lines that represent `output` in a golden file (wrapped in doubled
/// separators when it holds a blank line or starts with one).
std::vector<std::string> FormatExpected(const std::string& output);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_FILE_H_
