// lir-opt's subcommands and the conventions they share.
//
// To add a subcommand: write `int RunXxx(const CommandArgs&)` (in its own
// file), declare it here, and add one row to kSubcommands in lir-opt.cc.
// Flags are global (see flags.h); a subcommand reads the ones it uses, and
// its row lists them: any other flag given with it is a usage error.
#ifndef LIR_TOOLS_LIR_OPT_COMMANDS_H_
#define LIR_TOOLS_LIR_OPT_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "lir/interp/catalog.h"
#include "lir/interp/inputs.h"
#include "lir/pipeline/document_io.h"
#include "lir/pipeline/pipeline.h"
#include "lir/recognizer/features.h"
#include "tools/lir-opt/read_input.h"

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

/// kExitOk when `args` holds exactly one FILE operand, else the usage error
/// status after reporting it.
int CheckOneFileOperand(const CommandArgs& args);

/// Resolves the optimizer features (--config, --features, per-feature
/// flags) and the analysis inputs (--single_time, --monotonic_ids, --arity,
/// --catalog; the catalog itself into `*catalog` when not null); kExitOk,
/// or the exit status after reporting a bad value.
int ResolveOptimizerInputsOrReport(OptimizerFeatures* features,
                                   interp::AnalysisInputs* inputs,
                                   interp::Catalog* catalog = nullptr);

/// The pipeline options the flags ask for: the optimizer's features and
/// analysis inputs (ResolveOptimizerInputsOrReport, which fills `*catalog`),
/// --annotate, --validate, --format and --node_identifiers; kExitOk, or the
/// exit status after reporting a bad value.
int ResolvePipelineOptionsOrReport(PipelineOptions* options,
                                   interp::Catalog* catalog = nullptr);

/// How the document in `input` is read: --input_format, --validate, and
/// the input's name in every message.
ReadOptions DocumentReadOptions(const InputText& input);

/// Reads and parses FILE (`-`: stdin) as --input_format says, validating it
/// unless --novalidate; kExitOk, or the exit status after reporting.
int LoadInputDocumentOrReport(absl::string_view path, InputText* input,
                              Document* doc);

/// kExitOk when --format is text or json, else a usage error: the two
/// EXPLAIN syntaxes (--format=verbose|concise) are for explain's output,
/// and `command`'s output is a report.
int RequireReportFormat(absl::string_view command);

/// `lir-opt explain [flags] FILE|-`.
int RunExplain(const CommandArgs& args);

/// `lir-opt run --data=FILE [flags] FILE|-`.
int RunRun(const CommandArgs& args);

/// `lir-opt slt [flags] FILE.slt...`.
int RunSlt(const CommandArgs& args);

/// `lir-opt spine [flags]`.
int RunSpine(const CommandArgs& args);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_COMMANDS_H_
