// lir-opt: the command-line front end of lir. `lir-opt <command> [flags]
// operands`; see Usage() for the commands, flags and exit codes.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/feature_flags.h"
#include "tools/lir-opt/flags.h"

#ifndef LIR_VERSION
#define LIR_VERSION "unknown"
#endif

namespace lir::cli {
namespace {

// The flags each command reads: the one place that says so. A flag given
// to a command that does not read it would be ignored in silence (`explain
// --rewrite` rewriting nothing), so CheckFlagsApply refuses it before the
// command runs, naming the commands that do read it.

// ResolveOptimizerInputsOrReport's: the optimizer's features and the
// analyses' inputs, read by every command that runs the passes, together
// with the per-feature flags (generated from LIR_OPTIMIZER_FEATURES, so
// matched by their type, FeatureSwitch, rather than listed).
constexpr absl::string_view kOptimizerFlags[] = {
    "config", "features", "single_time", "monotonic_ids", "arity", "catalog"};
// The other flags of each command. --max_input_bytes bounds FILE (and the
// --config and --catalog files), so every command that reads files reads it.
constexpr absl::string_view kExplainFlags[] = {
    "input_format",     "validate",         "max_input_bytes",
    "format",           "node_identifiers", "annotate",
    "explain_declines", "report",           "max_text_bytes"};
// run prints no plan: --annotate and --node_identifiers would do nothing.
constexpr absl::string_view kRunFlags[] = {"input_format",
                                           "validate",
                                           "max_input_bytes",
                                           "format",
                                           "data",
                                           "engine",
                                           "compaction",
                                           "fuel",
                                           "max_rows_per_round",
                                           "max_iterations",
                                           "max_bytes_per_round",
                                           "max_value_bytes",
                                           "max_work",
                                           "arrangement_sizes",
                                           "analyze",
                                           "analyze_round",
                                           "analyze_compare",
                                           "analyze_format",
                                           "spine",
                                           "spine_policy",
                                           "idle_turns"};
// slt finds the plans in the .slt file itself and always validates them:
// --input_format and --validate would do nothing.
constexpr absl::string_view kSltFlags[] = {"max_input_bytes", "format",
                                           "rewrite", "fail_on_change"};
// spine reads no file and runs no pass.
constexpr absl::string_view kSpineFlags[] = {
    "format",  "policy",     "exertion",        "snapshot",
    "batches", "batch_size", "idle_turns",      "empty_batches",
    "close",   "trace",      "max_spine_turns", "max_trace_bytes"};

/// A row of the command table.
struct Subcommand {
  absl::string_view name;
  absl::string_view synopsis;  ///< what follows the name in the usage text
  absl::string_view summary;
  CommandFn run;  ///< null for `help`, which main handles
  /// The lir-opt flags it reads (besides the optimizer's, below); any other
  /// given with it is a usage error.
  std::span<const absl::string_view> flags;
  /// Whether it also reads kOptimizerFlags and the per-feature flags.
  bool reads_optimizer_flags;
};

constexpr Subcommand kSubcommands[] = {
    {"explain", "[flags] FILE|-",
     "Parse the plan in FILE (- reads standard input) as EXPLAIN text, in "
     "either of Materialize's syntaxes (verbose, or the concise default "
     "one, told apart by the first plan line), or as JSON; validate it, run "
     "the optimizer passes whose features are on (see --config, --features "
     "and the per-feature flags), validate the result, and print it as text "
     "(in the input's syntax unless --format says which) or JSON. A plan "
     "read from concise text lacks facts that syntax drops: it prints as "
     "concise text only, and run refuses it.",
     &RunExplain, kExplainFlags, true},
    {"run", "--data=DATA [flags] FILE|-",
     "Execute the plan document in FILE on the updates in DATA (JSON), round "
     "by round, after the optimizer passes whose features are on, and print "
     "every object's contents after every round that has changes (text, or "
     "JSON with --format=json). --engine, --compaction, --fuel and "
     "--arrangement_sizes control the evaluator; --max_rows_per_round, "
     "--max_bytes_per_round, --max_value_bytes, --max_iterations and "
     "--max_work bound it. --spine=stock|funded also keeps every "
     "arrangement as differential's fueled spine (--spine_policy, "
     "--idle_turns per round), whose batches and merge work "
     "--arrangement_sizes then reports; the contents do not change. "
     "--analyze=memory[,cpu] prints Materialize's EXPLAIN ANALYZE table "
     "instead (memory, records and time per LIR node), "
     "--analyze_compare=FEATURE,... the features off and on side by side.",
     &RunRun, kRunFlags, true},
    {"slt", "[flags] FILE.slt...",
     "Check the physical-plan blocks of Materialize's sqllogictest files, "
     "verbose (EXPLAIN PHYSICAL PLAN [AS VERBOSE TEXT] FOR) and concise "
     "(EXPLAIN [WITH(...)] q, EXPLAIN INDEX|MATERIALIZED VIEW, ... AS TEXT "
     "FOR, fast paths of EXPLAIN OPTIMIZED PLAN FOR): for each plan, print "
     "file:line and 'unchanged' (it "
     "round-trips and no pass fires), 'would change' (with the fired "
     "candidates and a unified diff) or 'error' (located); other formats "
     "are 'skipped' with the reason. Ends with a summary line; exit 1 on an "
     "error (or, with --fail_on_change, a change). --rewrite writes the "
     "changed plans back. Features as for explain; --format=json prints one "
     "object.",
     &RunSlt, kSltFlags, true},
    {"spine", "[flags]",
     "Run the synthetic workload of SPINE.md section 6 on one model of "
     "differential's fueled spine: a --snapshot settled with unlimited idle "
     "turns, then --batches of --batch_size updates, each followed by up to "
     "--idle_turns idle turns (and --empty_batches), optionally --close; "
     "print merge work, work per inserted update, grants and declines, and "
     "the final layers (text, or JSON with --format=json; --trace prints "
     "the layers after every step). --policy and --exertion choose the "
     "spine; --max_spine_turns and --max_trace_bytes bound the run and its "
     "trace (exit 1), and a --close that cannot settle within them is a "
     "usage error.",
     &RunSpine, kSpineFlags, false},
    {"help", "", "Print this text.", nullptr, {}, false},
};

constexpr absl::string_view kExitCodes =
    "  0  success: the output is on stdout\n"
    "  1  invalid input: FILE (or the --config, --data or --catalog file)\n"
    "     cannot be read, parsed or validated, or the catalog disagrees\n"
    "     with --arity, --monotonic_ids or the data; stderr holds one\n"
    "     message naming it (FILE:LINE:COLUMN: expected ...) and stdout is\n"
    "     empty; for run, also a plan that cannot run, or a round that\n"
    "     failed, a budget passed (--max_rows_per_round,\n"
    "     --max_bytes_per_round, --max_value_bytes, --max_iterations,\n"
    "     --max_work) or memory ran out (stdout then holds the rounds up to\n"
    "     the failed one); for spine, a limit passed (--max_spine_turns,\n"
    "     --max_trace_bytes)\n"
    "  2  usage error: unknown command or flag, a flag the command does not\n"
    "     read, bad flag value, missing or extra FILE\n";

constexpr absl::string_view kExamples =
    "  lir-opt explain examples/except.plan\n"
    "  lir-opt explain --format=json examples/except.plan > except.json\n"
    "  lir-opt explain --node_identifiers - < except.json\n"
    "  lir-opt explain --format=concise examples/except.plan\n"
    "  lir-opt explain --enable_fused_set_difference --explain_declines \\\n"
    "      examples/except.concise.plan\n"
    "  lir-opt explain --enable_fused_set_difference --explain_declines \\\n"
    "      examples/except.plan\n"
    "  lir-opt explain --features=enable_fused_set_difference=on \\\n"
    "      --report=- examples/except.plan\n"
    "  lir-opt explain --annotate=node_id,arity,monotonic,arrangements \\\n"
    "      --monotonic_ids=materialize.public.a examples/except.plan\n"
    "  lir-opt explain --annotate=arity,monotonic,unique_keys \\\n"
    "      --catalog=examples/except.catalog.json examples/except.plan\n"
    "  lir-opt run --data=examples/except.data.json \\\n"
    "      --enable_fused_set_difference --arrangement_sizes \\\n"
    "      examples/except.plan\n"
    "  lir-opt run --data=examples/except.data.json --analyze=memory,cpu \\\n"
    "      examples/except.plan\n"
    "  lir-opt run --data=examples/except.data.json \\\n"
    "      --analyze_compare=enable_fused_set_difference examples/except.plan\n"
    "  lir-opt explain --single_time --enable_relax_must_consolidate \\\n"
    "      --explain_declines examples/except.plan\n"
    "  lir-opt run --data=examples/except.data.json --spine=funded \\\n"
    "      --spine_policy=idle_merge:1000 --idle_turns=64 \\\n"
    "      --arrangement_sizes examples/except.plan\n"
    "  lir-opt spine --policy=idle_merge:1000 --exertion=funded \\\n"
    "      --snapshot=1048576 --batches=64 --batch_size=1024 "
    "--idle_turns=256\n";

std::string Usage() {
  std::string out =
      "lir-opt: read, check and print Materialize LIR physical plans.\n"
      "\n"
      "Usage:\n"
      "  lir-opt <command> [flags] [operands]\n"
      "  lir-opt help | lir-opt --help\n"
      "\n"
      "Commands:\n";
  for (const Subcommand& command : kSubcommands) {
    absl::StrAppend(&out, "  ", command.name,
                    command.synopsis.empty() ? "" : " ", command.synopsis, "\n",
                    WrapText(command.summary, "      "));
  }
  absl::StrAppend(&out,
                  "\nFlags (accepted anywhere on the command line; -- ends "
                  "them; a flag the\ncommand does not read is a usage error, "
                  "which names the commands that do):\n",
                  FlagsUsage(), "\nExit codes:\n", kExitCodes, "\nExamples:\n",
                  kExamples);
  return out;
}

/// The flag name of `arg` (`--help=x` -> `help`), or empty if `arg` is not
/// a flag.
absl::string_view FlagName(absl::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-') return {};
  absl::ConsumePrefix(&arg, "-");
  absl::ConsumePrefix(&arg, "-");
  return arg.substr(0, arg.find('='));
}

/// absl handles its help flags by printing its own flag list and exiting
/// with status 1; lir-opt answers them (and --version) itself, before absl
/// sees them. absl's --only_check_args would exit during parsing, which
/// lir-opt reserves for errors, so it is refused.
enum class EarlyAction { kNone, kHelp, kVersion, kUnsupported };

EarlyAction FindEarlyAction(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    absl::string_view name = FlagName(arg);
    if (name == "h" || name == "help" || name == "helpfull" ||
        name == "helpshort" || name == "helppackage" || name == "helpon" ||
        name == "helpmatch") {
      return EarlyAction::kHelp;
    }
    if (name == "version") return EarlyAction::kVersion;
    if (name == "only_check_args") return EarlyAction::kUnsupported;
  }
  return EarlyAction::kNone;
}

// absl::ParseCommandLine reports a bad flag on stderr and calls exit(1);
// lir-opt promises status 2 for usage errors. While flags are being parsed
// (after the early actions, so no successful exit can happen there), an
// exit is turned into _Exit(kExitUsage).
bool parsing_flags = false;

void ExitAsUsageErrorWhileParsingFlags() {
  if (!parsing_flags) return;
  std::cerr << "Run 'lir-opt --help' for usage.\n" << std::flush;
  std::fflush(stdout);
  std::_Exit(kExitUsage);
}

const Subcommand* FindSubcommand(absl::string_view name) {
  for (const Subcommand& command : kSubcommands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

/// Whether `command` reads `flag`, by the flag lists above.
bool ReadsFlag(const Subcommand& command, const absl::CommandLineFlag& flag) {
  const absl::string_view name = flag.Name();
  if (absl::c_linear_search(command.flags, name)) return true;
  return command.reads_optimizer_flags &&
         (flag.IsOfType<FeatureSwitch>() ||
          absl::c_linear_search(kOptimizerFlags, name));
}

/// `explain`, `explain and run`, `explain, run and slt`: the commands that
/// read `flag`.
std::string CommandsReading(const absl::CommandLineFlag& flag) {
  std::vector<absl::string_view> names;
  for (const Subcommand& command : kSubcommands) {
    if (ReadsFlag(command, flag)) names.push_back(command.name);
  }
  if (names.empty()) return "";
  const absl::string_view last = names.back();
  names.pop_back();
  if (names.empty()) return std::string(last);
  return absl::StrCat(absl::StrJoin(names, ", "), " and ", last);
}

/// Whether `flag` was given: named on the command line (even at its default
/// value), or set some other way absl allows (--flagfile, --fromenv).
/// CommandLineFlag's own record of that is private in the absl lir builds
/// with.
bool Given(const absl::CommandLineFlag& flag) {
  return FlagGiven(flag.Name()) || flag.CurrentValue() != flag.DefaultValue();
}

/// kExitOk when every lir-opt flag given is one `command` reads; else a
/// usage error naming each other one and the commands it belongs to.
int CheckFlagsApply(const Subcommand& command) {
  std::vector<std::string> refused;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!IsLirOptFlag(*flag) || !Given(*flag) || ReadsFlag(command, *flag)) {
      continue;
    }
    const std::string owners = CommandsReading(*flag);
    refused.push_back(absl::StrCat(
        command.name, ": --", name, " does not apply to ", command.name,
        owners.empty() ? " (no command reads it)"
                       : absl::StrCat(" (it is a flag of ", owners, ")")));
  }
  if (refused.empty()) return kExitOk;
  // GetAllFlags is unordered; sorted, the message does not change from run
  // to run.
  std::sort(refused.begin(), refused.end());
  return UsageError(absl::StrJoin(refused, "\nlir-opt: "));
}

int Main(int argc, char** argv) {
  switch (FindEarlyAction(argc, argv)) {
    case EarlyAction::kHelp: std::cout << Usage(); return kExitOk;
    case EarlyAction::kVersion:
      std::cout << "lir-opt " << LIR_VERSION << "\n";
      return kExitOk;
    case EarlyAction::kUnsupported:
      return UsageError("--only_check_args is not supported");
    case EarlyAction::kNone: break;
  }
  absl::SetProgramUsageMessage(
      "lir-opt <command> [flags] [operands]; lir-opt --help explains them.");
  std::atexit(&ExitAsUsageErrorWhileParsingFlags);
  // Feature flags accept the valueless `--<feature>` form of booleans.
  std::vector<std::string> expanded = ExpandFeatureFlags(argc, argv);
  // The program name is no flag.
  if (!expanded.empty()) {
    RecordFlagsGiven(
        std::vector<std::string>(expanded.begin() + 1, expanded.end()));
  }
  std::vector<char*> expanded_argv;
  for (std::string& arg : expanded) expanded_argv.push_back(arg.data());
  parsing_flags = true;
  std::vector<char*> positional = absl::ParseCommandLine(
      static_cast<int>(expanded_argv.size()), expanded_argv.data());
  parsing_flags = false;

  if (positional.size() < 2) return UsageError("missing command");
  const Subcommand* command = FindSubcommand(positional[1]);
  if (command == nullptr) {
    return UsageError(absl::StrCat("unknown command '", positional[1], "'"));
  }
  if (int exit_code = CheckFlagsApply(*command); exit_code != kExitOk) {
    return exit_code;
  }
  if (command->run == nullptr) {
    std::cout << Usage();
    return kExitOk;
  }
  if (absl::GetFlag(FLAGS_max_input_bytes) == 0) {
    return UsageError("--max_input_bytes must be at least 1");
  }
  CommandArgs args;
  args.command = command->name;
  args.operands.assign(positional.begin() + 2, positional.end());
  return command->run(args);
}

}  // namespace

int UsageError(absl::string_view message) {
  std::cerr << "lir-opt: " << message << "\nRun 'lir-opt --help' for usage.\n";
  return kExitUsage;
}

int InputError(absl::string_view message) {
  std::cerr << message << "\n";
  return kExitInvalidInput;
}

}  // namespace lir::cli

namespace {

// Output that did not reach standard output (a full disk, `> /dev/full`, a
// closed pipe) is a failure, never a silent success with truncated output.
int CheckStdout(int exit_code) {
  std::cout.flush();
  if (std::cout.fail() || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "lir-opt: cannot write to standard output"
              << (errno != 0 ? absl::StrCat(": ", std::strerror(errno)) : "")
              << " (the output is incomplete)\n";
    return lir::cli::kExitInvalidInput;
  }
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  // The last line of defence: memory running out anywhere is invalid input
  // of the size it came from, never an abort (`run` reports it per round
  // first, and its budgets stop the usual causes earlier).
  try {
    return CheckStdout(lir::cli::Main(argc, argv));
  } catch (const std::bad_alloc&) {
    std::cout << std::flush;
    std::cerr << "lir-opt: out of memory (std::bad_alloc; not an error in "
                 "the input's syntax: the input, or what it asked to "
                 "compute, did not fit in memory)\n";
    return lir::cli::kExitInvalidInput;
  }
}
