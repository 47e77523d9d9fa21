// lir-opt's subcommands and the conventions they share.
//
// To add a subcommand: write `int RunXxx(const CommandArgs&)` (in its own
// file), declare it here, and add one row to kSubcommands in lir-opt.cc.
// Flags are global (see flags.h); a subcommand reads the ones it uses.
#ifndef LIR_TOOLS_LIR_OPT_COMMANDS_H_
#define LIR_TOOLS_LIR_OPT_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace lir::cli {

/// Process exit statuses; the usage text documents them.
enum ExitCode : int {
  kExitOk = 0,
  kExitInvalidInput = 1,  ///< unreadable, unparsable or invalid input
  kExitUsage = 2,         ///< bad command line
};

/// What a subcommand receives.
struct CommandArgs {
  absl::string_view command;          ///< its own name
  std::vector<std::string> operands;  ///< positional arguments after it
};

/// Runs a subcommand and returns the exit status. Output goes to stdout only
/// on success; messages go to stderr.
using CommandFn = int (*)(const CommandArgs& args);

/// Prints `lir-opt: <message>` and a pointer to --help on stderr; returns
/// kExitUsage.
int UsageError(absl::string_view message);

/// Prints an input error message (it names the file) on stderr; returns
/// kExitInvalidInput.
int InputError(absl::string_view message);

/// `lir-opt explain [flags] FILE|-`.
int RunExplain(const CommandArgs& args);

/// `lir-opt run --data=FILE [flags] FILE|-`.
int RunRun(const CommandArgs& args);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_COMMANDS_H_
