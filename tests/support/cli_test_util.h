// A GoogleTest fixture that runs the built lir-opt binary in a scratch
// directory and captures its exit code, stdout and stderr. Shared by the
// end-to-end CLI tests.
#ifndef LIR_TESTS_SUPPORT_CLI_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_CLI_TEST_UTIL_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/parse_or_die.h"

namespace lir::test {

/// What one run of lir-opt produced.
struct RunResult {
  /// The exit status, or -1 when it did not exit (see `signal`).
  int exit_code = -1;
  /// The signal that ended it, or 0.
  int signal = 0;
  std::string out;
  std::string err;
};

inline void WriteFile(const std::filesystem::path& path,
                      const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// Single-quotes `arg` for /bin/sh.
inline std::string ShellQuote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

/// Runs `lir_opt args...` in `dir` (its working directory) with
/// `stdin_text` as standard input, through files `.stdin`, `.stdout` and
/// `.stderr` there. Shared by LirOptTest and the golden `exec` command.
inline RunResult RunLirOptIn(const std::filesystem::path& dir,
                             const std::string& lir_opt,
                             const std::vector<std::string>& args,
                             const std::string& stdin_text) {
  WriteFile(dir / ".stdin", stdin_text);
  std::string command = absl::StrCat("cd ", ShellQuote(dir.string()), " && ",
                                     ShellQuote(lir_opt));
  for (const std::string& arg : args) {
    absl::StrAppend(&command, " ", ShellQuote(arg));
  }
  absl::StrAppend(&command, " <", ShellQuote((dir / ".stdin").string()), " >",
                  ShellQuote((dir / ".stdout").string()), " 2>",
                  ShellQuote((dir / ".stderr").string()));
  const int status = std::system(command.c_str());
  RunResult result;
  if (status != -1 && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (status != -1 && WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  result.out = ReadFile(dir / ".stdout");
  result.err = ReadFile(dir / ".stderr");
  return result;
}

/// Runs lir-opt (LIR_OPT_PATH) in a fresh directory per test; skips when the
/// tool is not built.
class LirOptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(LIR_OPT_PATH).empty()) {
      GTEST_SKIP() << "lir-opt is not built (LIR_BUILD_TOOLS=OFF)";
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    // The process id keeps concurrent runs (two checkouts, ctest -j) apart.
    dir_ = std::filesystem::path(::testing::TempDir()) /
           absl::StrCat("lir_opt_test_", info->test_suite_name(), "_",
                        info->name(), "_", ::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  /// Runs `lir-opt <args...>` in the test's directory with `stdin_text` as
  /// standard input.
  RunResult Run(const std::vector<std::string>& args,
                const std::string& stdin_text = "") {
    return RunLirOptIn(dir_, LIR_OPT_PATH, args, stdin_text);
  }

  /// Writes `text` to a file in the test's directory; returns its path.
  std::string Temp(const std::string& name, const std::string& text) {
    WriteFile(dir_ / name, text);
    return (dir_ / name).string();
  }

  std::filesystem::path dir_;
};

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_CLI_TEST_UTIL_H_
