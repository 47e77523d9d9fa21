// `lir-opt explain`: parse a plan, check it, optimize it, print it again.
#include <fstream>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/json.h"
#include "lir/interp/annotations.h"
#include "lir/recognizer/pass.h"
#include "lir/validate.h"
#include "tools/lir-opt/annotate_flags.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/feature_flags.h"
#include "tools/lir-opt/flags.h"
#include "tools/lir-opt/plan_io.h"

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

namespace lir::cli {

int RunExplain(const CommandArgs& args) {
  if (int exit_code = CheckOneFileOperand(args); exit_code != kExitOk) {
    return exit_code;
  }
  const bool explain_declines = absl::GetFlag(FLAGS_explain_declines);
  const std::string report_path = absl::GetFlag(FLAGS_report);
  RenderOptions render;
  render.format = absl::GetFlag(FLAGS_format);
  render.node_identifiers = absl::GetFlag(FLAGS_node_identifiers);
  if (explain_declines && render.format == OutputFormat::kJson) {
    return UsageError(
        "--explain_declines applies to text output; with --format=json use "
        "--report");
  }
  OptimizerFeatures features;
  interp::AnalysisInputs analysis_inputs;
  if (int exit_code =
          ResolveOptimizerInputsOrReport(&features, &analysis_inputs);
      exit_code != kExitOk) {
    return exit_code;
  }
  const interp::AnnotationFields annotate =
      absl::GetFlag(FLAGS_annotate).fields;

  InputText input;
  Document doc;
  if (int exit_code = LoadInputDocumentOrReport(args.operands[0], &input, &doc);
      exit_code != kExitOk) {
    return exit_code;
  }
  const bool validate = absl::GetFlag(FLAGS_validate);

  absl::StatusOr<OptimizeResult> optimized =
      Optimize(std::move(doc), features, analysis_inputs);
  if (!optimized.ok()) {
    return InputError(
        absl::StrCat(input.name, ": ", optimized.status().message()));
  }
  if (validate) {
    absl::Status valid = Validate(optimized->document);
    if (!valid.ok()) {
      return InputError(absl::StrCat(input.name,
                                     ": internal error: the optimized plan is "
                                     "invalid: ",
                                     valid.message()));
    }
  }
  // The analyses describe the plan as printed, after the passes.
  absl::StatusOr<interp::DocumentAnalysis> analysis;
  if (annotate.AnyComputed()) {
    analysis =
        interp::DocumentAnalysis::Run(optimized->document, analysis_inputs);
    if (!analysis.ok()) {
      return InputError(
          absl::StrCat(input.name, ": ", analysis.status().message()));
    }
    render.annotate = [&](const Node& node) {
      return analysis->CommentFields(node, annotate);
    };
    render.json_annotations = [&](const Node& node) {
      return analysis->JsonFields(node, annotate);
    };
  }
  render.node_identifiers = render.node_identifiers || annotate.node_id;
  std::string report_json;
  if (!report_path.empty()) {
    report_json = explain::DumpJson(ReportToJson(optimized->report), 2) + "\n";
    if (report_path != "-") {
      std::ofstream out(report_path, std::ios::binary);
      out << report_json;
      if (!out) {
        return InputError(
            absl::StrCat(report_path, ": cannot write the report"));
      }
    }
  }
  std::cout << RenderDocument(optimized->document, render);
  if (explain_declines) {
    std::cout << "\n"
              << PrintCandidates(optimized->report) << "\n"
              << PrintArrangementTotals(optimized->report);
  }
  if (report_path == "-") std::cout << report_json;
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace lir::cli
