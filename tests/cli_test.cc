// End-to-end tests of the lir-opt binary that data cannot say: runs whose
// output feeds another run, checks against the README and the help text's
// shape, limits computed from a file. Single runs with their exit code,
// stdout and stderr are goldens in testdata/cli/ (the `exec` directive).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/explain/line_diff.h"
#include "tests/support/cli_test_util.h"
#include "tests/support/plan_text_gen.h"

namespace {

namespace fs = std::filesystem;

using lir::test::ReadFile;
using lir::test::RunResult;

class CliTest : public lir::test::LirOptTest {
 protected:
  static std::string Example() {
    return (fs::path(LIR_SOURCE_DIR) / "examples" / "except.plan").string();
  }
};

TEST_F(CliTest, JsonOutputReadsBackToTheSameText) {
  RunResult json = Run({"explain", "--format=json", Example()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_TRUE(absl::StartsWith(json.out, "{")) << json.out;
  EXPECT_TRUE(absl::StrContains(json.out, "\"lir-plan/2\"")) << json.out;

  // auto detects JSON from the leading '{' (after whitespace).
  RunResult back = Run({"explain", "-"}, "\n  " + json.out);
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, ReadFile(Example()));

  // Flags may also follow the operand, with a separate value.
  std::string path = Temp("plan.json", json.out);
  RunResult explicit_json = Run({"explain", path, "--input_format", "json"});
  EXPECT_EQ(explicit_json.exit_code, 0) << explicit_json.err;
  EXPECT_EQ(explicit_json.out, ReadFile(Example()));
}

TEST_F(CliTest, ForcedTextFormatRejectsJson) {
  RunResult json = Run({"explain", "--format=json", Example()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::string path = Temp("plan.json", json.out);
  RunResult r = Run({"explain", "--input_format=text", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StartsWith(r.err, path + ":1:")) << r.err;
}

// The help text itself is a golden (testdata/cli/help.txt); each way of
// asking for it prints the same.
TEST_F(CliTest, HelpIsTheSameWhereverItIsAsked) {
  RunResult help = Run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.err, "");
  EXPECT_EQ(Run({"help"}).out, help.out);
  EXPECT_EQ(Run({"-h"}).out, help.out);
  RunResult after_command = Run({"explain", "--help"});
  EXPECT_EQ(after_command.exit_code, 0);
  EXPECT_EQ(after_command.out, help.out);
}

TEST_F(CliTest, HelpTextStaysNarrow) {
  RunResult help = Run({"--help"});
  for (absl::string_view line : absl::StrSplit(help.out, '\n')) {
    EXPECT_LE(line.size(), 80u) << line;
  }
}

// The README quotes `lir-opt --help` in full; it must stay what the tool
// prints (regenerate the block from the tool's output).
TEST_F(CliTest, ReadmeQuotesTheCurrentHelpText) {
  const std::string readme =
      ReadFile(std::filesystem::path(LIR_SOURCE_DIR) / "README.md");
  const std::string marker = "$ build/tools/lir-opt/lir-opt --help\n";
  const size_t begin = readme.find(marker);
  ASSERT_NE(begin, std::string::npos) << "README.md does not quote --help";
  const size_t end = readme.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  const std::string quoted =
      readme.substr(begin + marker.size(), end - begin - marker.size());
  RunResult help = Run({"--help"});
  EXPECT_EQ(quoted, help.out) << "README.md's --help block is stale:\n"
                              << lir::explain::UnifiedDiff(quoted, help.out);
}

}  // namespace

TEST_F(CliTest, TextOfAPlanTooDeepForTheLimitIsRefusedBeforePrinting) {
  // 100 nested Negates: 2 + 4 + ... + 202 = 10,302 bytes of indentation.
  std::string plan(lir::test::kQueryHeader);
  for (int level = 1; level <= 100; ++level) {
    absl::StrAppend(&plan, std::string(2 * level, ' '), "Negate\n");
  }
  // (StrAppend, not operator+: g++ 12 warns falsely about that operator+,
  // -Wstringop-overflow.)
  absl::StrAppend(&plan, std::string(202, ' '), "Constant\n",
                  std::string(204, ' '),
                  "- (1)\n\nTarget cluster: quickstart\n");
  const std::string path = Temp("deep.txt", plan);
  RunResult refused = Run({"explain", "--max_text_bytes=10000", path});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_TRUE(absl::StrContains(
      refused.err,
      "would hold at least 10302 bytes of indentation (its plans nest 101 "
      "levels deep, and text indents two spaces per level), more than the "
      "limit of 10000 bytes (raise it with --max_text_bytes=N"))
      << refused.err;
  RunResult json =
      Run({"explain", "--max_text_bytes=10000", "--format=json", path});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  RunResult fits = Run({"explain", "--max_text_bytes=10302", path});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(fits.out, plan);
  EXPECT_EQ(Run({"explain", "--max_text_bytes=0", path}).exit_code, 2);
}

// ---- Concise plans
// ------------------------------------------------------------

namespace {

std::string ExamplePath(const char* name) {
  return (fs::path(LIR_SOURCE_DIR) / "examples" / name).string();
}

std::string ConciseExample() { return ExamplePath("except.concise.plan"); }

}  // namespace

// Catches: the concise printer drifting from what Materialize's default
// EXPLAIN prints for the example (the two files are the same plan).
TEST_F(CliTest, ExplainFormatConcisePrintsTheConciseExample) {
  RunResult r = Run({"explain", "--format=concise", Example()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ReadFile(ConciseExample()));
  EXPECT_EQ(r.err, "");
}

// Every `lir-opt run` the README shows with its output (a code block whose
// first line is `$ build/tools/lir-opt/lir-opt run ...`, continued by
// trailing backslashes) prints exactly that output now.
TEST_F(CliTest, ReadmeQuotesTheCurrentRunOutputs) {
  const std::filesystem::path root(LIR_SOURCE_DIR);
  const std::string readme = ReadFile(root / "README.md");
  const std::string marker = "```\n$ build/tools/lir-opt/lir-opt run ";
  int checked = 0;
  for (size_t at = readme.find(marker); at != std::string::npos;
       at = readme.find(marker, at + 1)) {
    size_t line_end = readme.find('\n', at + 4);
    std::string command = readme.substr(at + 4, line_end - at - 4);
    while (!command.empty() && command.back() == '\\') {
      command.pop_back();
      const size_t next = readme.find('\n', line_end + 1);
      command += readme.substr(line_end + 1, next - line_end - 1);
      line_end = next;
    }
    const size_t end = readme.find("```", line_end);
    ASSERT_NE(end, std::string::npos);
    const std::string quoted = readme.substr(line_end + 1, end - line_end - 1);
    std::vector<std::string> args;
    for (absl::string_view word :
         absl::StrSplit(command, ' ', absl::SkipEmpty())) {
      std::string arg(word);
      // Paths of the source tree, wherever the test runs.
      for (const std::string prefix : {"", "--data="}) {
        if (absl::StartsWith(arg, prefix + "examples/")) {
          arg = prefix + (root / arg.substr(prefix.size())).string();
        }
      }
      args.push_back(arg);
    }
    ASSERT_GE(args.size(), 2u);
    args.erase(args.begin(), args.begin() + 2);  // `$` and the program
    RunResult r = Run(args);
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    EXPECT_EQ(quoted, r.out)
        << "README.md quotes stale output of: " << command << "\n"
        << lir::explain::UnifiedDiff(quoted, r.out);
    ++checked;
  }
  EXPECT_GE(checked, 2);
}
