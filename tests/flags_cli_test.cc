// Which flags each lir-opt command reads, checked against what other files
// say, which a golden cannot: every flag --help lists belongs to some command
// and is refused by the others naming it (the flag lists beside
// kSubcommands, tools/lir-opt/lir-opt.cc), and every command the README
// shows still runs. The refusals themselves are goldens in
// testdata/cli/flags.txt.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/support/cli_test_util.h"

namespace {

namespace fs = std::filesystem;

using lir::test::ReadFile;
using lir::test::RunResult;
using lir::test::ShellQuote;

constexpr absl::string_view kRefusal = " does not apply to ";

std::string SourcePath(const std::string& relative) {
  return (fs::path(LIR_SOURCE_DIR) / relative).string();
}

class FlagsCliTest : public lir::test::LirOptTest {};

// What --help says about the flags: each one's name and default, and the
// commands.
struct HelpText {
  std::vector<std::string> commands;
  std::map<std::string, std::string> defaults;  // flag -> default ("" for none)
};

HelpText ParseHelp(const std::string& help) {
  HelpText parsed;
  enum { kOther, kCommands, kFlags } section = kOther;
  std::string flag;  // the flag whose default may be on the next line
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    if (absl::StartsWith(line, "Commands:")) {
      section = kCommands;
    } else if (absl::StartsWith(line, "Flags")) {
      section = kFlags;
    } else if (line == "Exit codes:" || line == "Examples:") {
      section = kOther;
    }
    if (section == kCommands && absl::StartsWith(line, "  ") &&
        !absl::StartsWith(line, "   ")) {
      const absl::string_view rest = line.substr(2);
      parsed.commands.emplace_back(rest.substr(0, rest.find(' ')));
    }
    if (section != kFlags) continue;
    if (absl::ConsumePrefix(&line, "  --")) {
      absl::ConsumePrefix(&line, "[no]");
      flag = std::string(line.substr(0, line.find_first_of("=[ ")));
      parsed.defaults[flag] = "";
    }
    const size_t at = line.find("(default: ");
    if (at != absl::string_view::npos && !flag.empty()) {
      absl::string_view value = line.substr(at + 10);
      value = value.substr(0, value.rfind(')'));
      parsed.defaults[flag] = value == "none" ? "" : std::string(value);
      flag.clear();
    }
  }
  return parsed;
}

// Catches: a flag left out of every command's list (then no command could
// take it: the table forgot it), and a refusal naming other commands than
// the ones that accept the flag. Each flag is given at its default, which
// parses, to every command the usage text lists.
TEST_F(FlagsCliTest, EveryFlagIsReadByACommandAndTheRefusalsNameThem) {
  const HelpText help = ParseHelp(Run({"--help"}).out);
  EXPECT_EQ(help.commands, (std::vector<std::string>{"explain", "run", "slt",
                                                     "spine", "help"}));
  // Not vacuous: the flags listed at the time of writing, feature flags
  // among them.
  ASSERT_GE(help.defaults.size(), 40u);
  ASSERT_TRUE(help.defaults.contains("enable_fused_set_difference"));
  for (const auto& [flag, value] : help.defaults) {
    const std::string arg = absl::StrCat("--", flag, "=", value);
    std::vector<std::string> readers;
    std::vector<std::string> refusals;
    for (const std::string& command : help.commands) {
      RunResult r = Run({command, arg});
      ASSERT_FALSE(absl::StartsWith(r.err, "ERROR:"))
          << command << " " << arg << ": the default does not parse\n"
          << r.err;
      if (absl::StrContains(r.err, kRefusal)) {
        EXPECT_EQ(r.exit_code, 2) << command << " " << arg;
        refusals.push_back(r.err);
      } else {
        readers.push_back(command);
      }
    }
    ASSERT_FALSE(readers.empty()) << "no command reads --" << flag;
    // help reads no flag.
    EXPECT_FALSE(refusals.empty()) << "every command takes --" << flag;
    std::string owners = readers.back();
    if (readers.size() > 1) {
      owners =
          absl::StrCat(absl::StrJoin(readers.begin(), readers.end() - 1, ", "),
                       " and ", owners);
    }
    for (const std::string& err : refusals) {
      EXPECT_TRUE(absl::StrContains(err, absl::StrCat("--", flag, kRefusal)))
          << err;
      EXPECT_TRUE(absl::StrContains(
          err, absl::StrCat("(it is a flag of ", owners, ")\n")))
          << err;
    }
  }
}

// The commands the README shows: `$ build/tools/lir-opt/lir-opt ...` in its
// examples and `lir-opt ...` in the --help block's Examples, continuation
// lines joined; each with the exit status the README shows after it
// (`exit N` for `; echo "exit $?"`, else 0).
struct ReadmeCommand {
  std::string line;  // with `lir-opt` as the program
  int exit_code = 0;
};

std::vector<ReadmeCommand> ReadmeCommands(const std::string& readme) {
  std::vector<ReadmeCommand> commands;
  std::vector<std::string> lines = absl::StrSplit(readme, '\n');
  bool in_examples = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    absl::string_view line = lines[i];
    if (line == "Examples:") in_examples = true;
    if (line == "```") in_examples = false;
    std::string command;
    if (absl::ConsumePrefix(&line, "$ ")) {
      if (!absl::StrContains(line, "build/tools/lir-opt/lir-opt ")) continue;
      command = std::string(line);
      absl::StrReplaceAll({{"../../build/tools/lir-opt/lir-opt", "lir-opt"},
                           {"build/tools/lir-opt/lir-opt", "lir-opt"}},
                          &command);
    } else if (in_examples && absl::StartsWith(line, "  lir-opt ")) {
      command = std::string(absl::StripLeadingAsciiWhitespace(line));
    } else {
      continue;
    }
    while (absl::EndsWith(command, "\\") && i + 1 < lines.size()) {
      command.pop_back();
      absl::StrAppend(&command, " ",
                      absl::StripLeadingAsciiWhitespace(lines[++i]));
    }
    ReadmeCommand found{command, 0};
    if (absl::EndsWith(command, "; echo \"exit $?\"")) {
      for (size_t j = i + 1; j < lines.size(); ++j) {
        if (absl::StartsWith(lines[j], "exit ")) {
          found.exit_code = std::stoi(lines[j].substr(5));
          break;
        }
      }
    }
    commands.push_back(std::move(found));
  }
  return commands;
}

// Catches: a flag the README's examples give to a command being refused
// once the flag lists exist (the table and the documentation disagreeing),
// or an example that no longer runs. Run in order in a scratch directory
// that sees the repository's examples/ and testdata/ (the --help examples
// write except.json there and read it back).
TEST_F(FlagsCliTest, TheReadmeExamplesStillRun) {
  const std::string readme = ReadFile(SourcePath("README.md"));
  const std::vector<ReadmeCommand> commands = ReadmeCommands(readme);
  // The --help block's fourteen examples and the README's own.
  ASSERT_GE(commands.size(), 25u);
  fs::create_directory_symlink(SourcePath("examples"), dir_ / "examples");
  fs::create_directory_symlink(SourcePath("testdata"), dir_ / "testdata");
  // The README's bad.plan: an unknown node at line 3, column 5.
  Temp("bad.plan", "Explained Query:\n  Negate\n    Frobnicate\n");
  const bool have_shared = fs::exists(fs::path(LIR_SHARED_DIR) / "corpus");
  for (const ReadmeCommand& c : commands) {
    std::string line = c.line;
    if (absl::StrContains(line, "../shared/")) {
      if (!have_shared) continue;
      absl::StrReplaceAll({{"../shared/", absl::StrCat(LIR_SHARED_DIR, "/")}},
                          &line);
    }
    absl::StrReplaceAll(
        {{"lir-opt ", absl::StrCat(ShellQuote(LIR_OPT_PATH), " ")}}, &line);
    const std::string shell =
        absl::StrCat("cd ", ShellQuote(dir_.string()), " && { ", line, " ; } >",
                     ShellQuote((dir_ / "stdout").string()), " 2>",
                     ShellQuote((dir_ / "stderr").string()));
    const int status = std::system(shell.c_str());
    const std::string out = ReadFile(dir_ / "stdout");
    const std::string err = ReadFile(dir_ / "stderr");
    EXPECT_FALSE(absl::StrContains(err, kRefusal)) << c.line << "\n" << err;
    if (absl::EndsWith(c.line, "; echo \"exit $?\"")) {
      // The command's status is the last line of stdout.
      const std::string last = absl::StrCat("exit ", c.exit_code, "\n");
      EXPECT_TRUE(out == last || absl::EndsWith(out, "\n" + last))
          << c.line << "\n"
          << err;
    } else {
      // With `| head`, head's status; the refusal check above still holds.
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
          << c.line << "\n"
          << err;
    }
  }
}

}  // namespace
