// `lir-opt explain`: parse a plan, check it, optimize it, print it again.
// A thin client of lir::Pipeline (lir/pipeline/pipeline.h), as mlir-opt is of
// MlirOptMain: the flags become the pipeline's options, and the report
// becomes --explain_declines and --report.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/json.h"
#include "lir/pipeline/pipeline.h"
#include "lir/recognizer/report.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"
#include "tools/lir-opt/read_input.h"

ABSL_FLAG(bool, explain_declines, false,
          "After the document (text output), list every rewrite candidate "
          "and what happened to it: 'fused_set_difference LirId(9): fired', "
          "'... declined <code> (<why>)', or, when the pass's feature is off, "
          "what it would do.");
ABSL_FLAG(std::string, report, "",
          "Write the rewrite report as JSON to this file ('-': standard "
          "output, after the document): every pass with whether it ran "
          "enabled, and every candidate with its outcome, decline code, arm "
          "and message, or fused keys.");

ABSL_FLAG(uint64_t, max_text_bytes, lir::kDefaultMaxTextBytes,
          "The most bytes of EXPLAIN text printed. Text indents two spaces "
          "per level, so a plan D levels deep prints about D^2 bytes (a JSON "
          "plan 10^5 deep would print 10 GB); such a plan is refused before "
          "anything is printed. --format=json is linear and not limited. At "
          "least 1.");

namespace lir::cli {

int RunExplain(const CommandArgs& args) {
  const std::string report_path = absl::GetFlag(FLAGS_report);
  // `--report plan.txt` takes plan.txt as the report's file: say so rather
  // than only that FILE is missing.
  if (args.operands.empty() && !report_path.empty() && report_path != "-") {
    return UsageError(absl::StrCat(
        args.command, ": expected exactly one FILE (or - for stdin), got 0 (",
        "--report took '", report_path,
        "' as the file to write the report to; write --report=- for the "
        "report on standard output, or --report=REPORT.json FILE)"));
  }
  if (int exit_code = CheckOneFileOperand(args); exit_code != kExitOk) {
    return exit_code;
  }
  // The report never overwrites the plan being read.
  if (std::error_code ec;
      !report_path.empty() && report_path != "-" && args.operands[0] != "-" &&
      std::filesystem::equivalent(report_path, args.operands[0], ec)) {
    return UsageError(absl::StrCat(args.command, ": --report=", report_path,
                                   " is the plan being read; the report "
                                   "would overwrite it"));
  }
  const bool explain_declines = absl::GetFlag(FLAGS_explain_declines);
  if (explain_declines && absl::GetFlag(FLAGS_format) == OutputFormat::kJson) {
    return UsageError(
        "--explain_declines applies to text output; with --format=json use "
        "--report");
  }
  PipelineOptions options;
  if (int exit_code = ResolvePipelineOptionsOrReport(&options);
      exit_code != kExitOk) {
    return exit_code;
  }
  // The dry runs of disabled passes and the arrangement accounting serve
  // only the report: a plain explain runs neither.
  options.report = explain_declines || !report_path.empty();
  options.max_text_bytes = absl::GetFlag(FLAGS_max_text_bytes);
  if (options.max_text_bytes == 0) {
    return UsageError(
        absl::StrCat(args.command, ": --max_text_bytes must be at least 1"));
  }
  absl::StatusOr<InputText> input =
      ReadInput(args.operands[0], absl::GetFlag(FLAGS_max_input_bytes));
  if (!input.ok()) return InputError(input.status().message());
  // Read, validate, optimize, validate, annotate, print: all the library's.
  absl::StatusOr<PipelineResult> result =
      Pipeline(std::move(options))
          .Run(input->text, DocumentReadOptions(*input));
  if (!result.ok()) return InputError(result.status().message());

  std::string report_json;
  if (!report_path.empty()) {
    report_json = explain::DumpJson(ReportToJson(result->report), 2) + "\n";
    if (report_path != "-") {
      std::ofstream out(report_path, std::ios::binary);
      out << report_json;
      if (!out) {
        return InputError(
            absl::StrCat(report_path, ": cannot write the report"));
      }
    }
  }
  std::cout << result->output;
  if (explain_declines) {
    std::cout << "\n"
              << PrintCandidates(result->report) << "\n"
              << PrintArrangementTotals(result->report);
  }
  if (report_path == "-") std::cout << report_json;
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace lir::cli
