// Reading and writing the golden file format (golden_file.h).
#include "tests/golden_file.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace lir::test {
namespace {

bool IsBlank(const std::string& line) {
  return line.find_first_not_of(' ') == std::string::npos;
}

}  // namespace

std::string JoinLines(const std::vector<std::string>& lines, size_t begin,
                      size_t end) {
  std::string out;
  for (size_t i = begin; i < end; ++i) absl::StrAppend(&out, lines[i], "\n");
  return out;
}

absl::StatusOr<GoldenFile> ParseGoldenFile(const std::string& content,
                                           const std::string& name) {
  GoldenFile file;
  file.lines = absl::StrSplit(content, '\n');
  if (!file.lines.empty() && file.lines.back().empty()) file.lines.pop_back();
  const std::vector<std::string>& lines = file.lines;
  size_t i = 0;
  while (i < lines.size()) {
    if (IsBlank(lines[i]) || lines[i][0] == '#') {
      ++i;
      continue;
    }
    TestCase test;
    test.directive_line = static_cast<int>(i) + 1;
    std::vector<std::string> words =
        absl::StrSplit(lines[i], ' ', absl::SkipEmpty());
    test.command = words[0];
    for (size_t w = 1; w < words.size(); ++w) {
      std::pair<std::string, std::string> kv =
          absl::StrSplit(words[w], absl::MaxSplits('=', 1));
      if (words[w].find('=') == std::string::npos) kv.second = "true";
      test.args.Set(kv.first, kv.second);
    }
    size_t input_begin = ++i;
    while (i < lines.size() && lines[i] != kSeparator) ++i;
    if (i == lines.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ":", test.directive_line,
                       ": case has no '----' line after its input"));
    }
    test.input = JoinLines(lines, input_begin, i);
    ++i;
    test.output_begin = i;
    if (i < lines.size() && lines[i] == kSeparator) {
      size_t body_begin = ++i;
      while (i + 1 < lines.size() &&
             !(lines[i] == kSeparator && lines[i + 1] == kSeparator)) {
        ++i;
      }
      if (i + 1 >= lines.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat(name, ":", test.directive_line,
                         ": expected output opened with '----' '----' is "
                         "never closed by '----' '----'"));
      }
      test.expected = JoinLines(lines, body_begin, i);
      i += 2;
    } else {
      size_t body_begin = i;
      while (i < lines.size() && !IsBlank(lines[i])) ++i;
      test.expected = JoinLines(lines, body_begin, i);
    }
    test.output_end = i;
    file.cases.push_back(std::move(test));
  }
  return file;
}

std::vector<std::string> FormatExpected(const std::string& output) {
  std::vector<std::string> out_lines;
  if (output.empty()) return out_lines;
  std::vector<std::string> body = absl::StrSplit(output, '\n');
  body.pop_back();  // output ends in '\n'
  bool needs_double =
      std::any_of(body.begin(), body.end(),
                  [](const std::string& l) { return IsBlank(l); }) ||
      body.front() == kSeparator;
  if (needs_double) out_lines = {kSeparator};
  out_lines.insert(out_lines.end(), body.begin(), body.end());
  if (needs_double) {
    out_lines.push_back(kSeparator);
    out_lines.push_back(kSeparator);
  }
  return out_lines;
}

}  // namespace lir::test
