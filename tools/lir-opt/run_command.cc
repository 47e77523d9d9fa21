// `lir-opt run`: execute a plan document on input data, round by round.
#include <iostream>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/budget.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/partial.h"
#include "lir/pipeline/pipeline.h"
#include "lir/recognizer/optimize.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"
#include "tools/lir-opt/read_input.h"
#include "tools/lir-opt/run_analyze.h"

ABSL_FLAG(std::string, data, "",
          "run: the input data, a JSON file {\"collections\": {NAME: "
          "{\"arity\": N, \"updates\": [[row, round, diff], ...]}}} "
          "(docs/evaluator.md).");
ABSL_FLAG(lir::cli::EngineChoice, engine, lir::cli::EngineChoice::kIncremental,
          "run: incremental (operators consume each round's changes and keep "
          "arrangements) or snapshot (recompute every round: the oracle).");
ABSL_FLAG(lir::cli::CompactionChoice, compaction,
          lir::cli::CompactionChoice::kEager,
          "run: eager (consolidate every arrangement after each round) or "
          "none (keep every update).");
ABSL_FLAG(uint64_t, fuel, 0,
          "run: keys a fused SetDifference processes per activation (0: "
          "unlimited). Changes only the number of activations.");
ABSL_FLAG(uint64_t, max_rows_per_round, lir::eval::kDefaultMaxRowsPerRound,
          "run: the most rows one operator may produce in one round (its "
          "changes; with --engine=snapshot, which recomputes, its whole "
          "output; and what a FlatMap or a join stage makes before "
          "consolidating). More ends the run with an error naming the "
          "operator. At least 1.");
ABSL_FLAG(uint64_t, max_iterations, lir::eval::kDefaultMaxIterations,
          "run: the most iterations of one LetRec (WITH MUTUALLY RECURSIVE) "
          "in one round; a LetRec still changing after them ends the run "
          "with an error naming it. At least 1.");
ABSL_FLAG(uint64_t, max_bytes_per_round, lir::eval::kDefaultMaxBytesPerRound,
          "run: the most bytes of rows one operator may produce in one round "
          "(the evaluator's row form, strings and nested values included; "
          "join and generate_series rows are counted before they are made). "
          "More ends the run with an error naming the operator. At least 1.");
ABSL_FLAG(uint64_t, max_value_bytes, lir::eval::kDefaultMaxValueBytes,
          "run: the most bytes of one value the evaluator builds (||, "
          "row/list/array constructors, string_agg, list_agg, array_agg), "
          "checked before it is built. At least 1.");
ABSL_FLAG(uint64_t, max_work, lir::eval::kDefaultMaxWork,
          "run: the most rows all operators may produce over the whole run, "
          "every round and every LetRec iteration counted (the default is "
          "about half a minute of the evaluator's work). More ends the run "
          "with an error naming the operator where it ran out. At least 1.");
ABSL_FLAG(bool, arrangement_sizes, false,
          "run: also report every maintained arrangement: object, LirId, "
          "operator, records, batches, estimated bytes (and its spine's, "
          "with --spine).");
ABSL_FLAG(lir::cli::SpineChoice, spine, lir::cli::SpineChoice::kOff,
          "run: also keep every arrangement of the incremental engine as "
          "differential's fueled spine (SPINE.md), fed each round's updates "
          "as one batch, then up to --idle_turns idle turns; the input "
          "closes after the last round. stock: every exertion request is "
          "granted; funded: requests are paid from the input. "
          "--arrangement_sizes then reports each spine's non-empty batches, "
          "records, merge work and idle turns. Changes no result.");

// The default is SpineOptions', Materialize's compute setting.
ABSL_FLAG(lir::cli::SpinePolicyFlag, spine_policy,
          lir::cli::SpinePolicyFlag{lir::eval::SpineOptions().policy},
          "run (with --spine): the spines' exertion policy, as spine's "
          "--policy.");

namespace lir::cli {
namespace {

// --spine, --spine_policy and --idle_turns into `options` (after the
// engine); kExitOk, or the usage error's status after reporting it.
int ResolveSpineOptions(const CommandArgs& args, eval::RunOptions& options) {
  const SpineChoice spine = absl::GetFlag(FLAGS_spine);
  if (spine == SpineChoice::kOff) {
    // Given without --spine they would do nothing: refused, not ignored.
    for (const char* flag : {"spine_policy", "idle_turns"}) {
      if (FlagGiven(flag)) {
        return UsageError(absl::StrCat(args.command, ": --", flag,
                                       " needs --spine=stock or "
                                       "--spine=funded"));
      }
    }
    return kExitOk;
  }
  if (options.engine == eval::Engine::kSnapshot) {
    return UsageError(
        absl::StrCat(args.command,
                     ": --spine models the incremental engine's arrangements; "
                     "--engine=snapshot keeps none"));
  }
  eval::SpineOptions spine_options;
  spine_options.policy = absl::GetFlag(FLAGS_spine_policy).policy;
  spine_options.exertion = spine == SpineChoice::kFunded
                               ? eval::spine::Exertion::kFunded
                               : eval::spine::Exertion::kStock;
  spine_options.idle_turns = absl::GetFlag(FLAGS_idle_turns);
  options.spine = spine_options;
  return kExitOk;
}

// The data file, read and parsed; its text is freed on return, before
// the run.
absl::StatusOr<eval::InputData> ReadDataFile(const std::string& path) {
  absl::StatusOr<InputText> text =
      ReadInput(path, absl::GetFlag(FLAGS_max_input_bytes));
  if (!text.ok()) return text.status();
  return eval::ParseInputData(text->text, text->name);
}

}  // namespace

int RunRun(const CommandArgs& args) {
  if (int exit_code = CheckOneFileOperand(args); exit_code != kExitOk) {
    return exit_code;
  }
  if (int exit_code = RequireReportFormat(args.command); exit_code != kExitOk) {
    return exit_code;
  }
  const std::string data_path = absl::GetFlag(FLAGS_data);
  if (data_path.empty()) {
    return UsageError(absl::StrCat(args.command, ": --data=FILE is required"));
  }
  eval::RunOptions options;
  options.engine = absl::GetFlag(FLAGS_engine) == EngineChoice::kSnapshot
                       ? eval::Engine::kSnapshot
                       : eval::Engine::kIncremental;
  options.compaction =
      absl::GetFlag(FLAGS_compaction) == CompactionChoice::kNone
          ? eval::Compaction::kNone
          : eval::Compaction::kEager;
  options.fuel = absl::GetFlag(FLAGS_fuel);
  options.max_rows_per_round = absl::GetFlag(FLAGS_max_rows_per_round);
  options.max_iterations = absl::GetFlag(FLAGS_max_iterations);
  options.max_bytes_per_round = absl::GetFlag(FLAGS_max_bytes_per_round);
  options.max_value_bytes = absl::GetFlag(FLAGS_max_value_bytes);
  options.max_work = absl::GetFlag(FLAGS_max_work);
  if (options.max_rows_per_round == 0 || options.max_iterations == 0 ||
      options.max_bytes_per_round == 0 || options.max_value_bytes == 0 ||
      options.max_work == 0) {
    return UsageError(absl::StrCat(
        args.command,
        ": --max_rows_per_round, --max_bytes_per_round, --max_value_bytes, "
        "--max_iterations and --max_work must be at least 1"));
  }
  const bool sizes = absl::GetFlag(FLAGS_arrangement_sizes);
  if (int exit_code = ResolveSpineOptions(args, options);
      exit_code != kExitOk) {
    return exit_code;
  }
  absl::StatusOr<std::optional<AnalyzeRequest>> analyze =
      ParseAnalyzeRequest(options, sizes);
  if (!analyze.ok()) {
    return UsageError(
        absl::StrCat(args.command, ": ", analyze.status().message()));
  }

  PipelineOptions pipeline_options;
  interp::Catalog catalog;
  if (int exit_code =
          ResolvePipelineOptionsOrReport(&pipeline_options, &catalog);
      exit_code != kExitOk) {
    return exit_code;
  }
  // A run prints no rewrite report: no dry runs, no accounting.
  pipeline_options.report = false;
  // --analyze_compare optimizes with these options twice, features changed.
  const PipelineOptions analyze_options = pipeline_options;
  const Pipeline pipeline(std::move(pipeline_options));
  InputText input;
  Document doc;
  if (int exit_code = LoadInputDocumentOrReport(args.operands[0], &input, &doc);
      exit_code != kExitOk) {
    return exit_code;
  }
  // Before the data is read: a plan from concise text cannot run at all.
  if (absl::Status complete = RequireKnownFacts(doc, "the evaluator");
      !complete.ok()) {
    return InputError(absl::StrCat(input.name, ": ", complete.message()));
  }
  absl::StatusOr<eval::InputData> data = ReadDataFile(data_path);
  if (!data.ok()) return InputError(data.status().message());
  if (absl::Status checked = eval::CheckCatalogAgainstData(catalog, &*data);
      !checked.ok()) {
    return InputError(checked.message());
  }
  if (analyze->has_value()) {
    return RunAnalyze(**analyze, analyze_options, std::move(doc), *data,
                      options, input.name);
  }

  // The pipeline's optimize step: the passes, then (unless --novalidate)
  // the check that they left a valid plan to run.
  absl::StatusOr<OptimizeResult> optimized =
      pipeline.Optimize(std::move(doc), input.name);
  if (!optimized.ok()) return InputError(optimized.status().message());
  // Data for an object the document computes is an error of the data file,
  // located there.
  if (absl::Status checked =
          eval::CheckDataForDocument(optimized->document, *data);
      !checked.ok()) {
    return InputError(checked.message());
  }
  absl::StatusOr<eval::RunResult> result =
      eval::RunDocument(optimized->document, *std::move(data), options);
  if (!result.ok()) {
    return InputError(
        absl::StrCat(input.name, ": ", result.status().message()));
  }
  // Written as produced: a long run's text is never held whole.
  if (absl::GetFlag(FLAGS_format) == OutputFormat::kJson) {
    eval::WriteRunJson(*result, sizes, std::cout);
    std::cout << "\n";
  } else {
    eval::WriteRunText(*result, sizes, std::cout);
  }
  std::cout << std::flush;
  if (result->error.has_value()) {
    std::cerr << "lir-opt: " << input.name << ": " << *result->error << "\n";
    return kExitInvalidInput;
  }
  return kExitOk;
}

}  // namespace lir::cli
