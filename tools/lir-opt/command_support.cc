// Steps that several lir-opt subcommands share: checking the FILE operand,
// turning the flags into the library's pipeline and read options, loading
// the document.
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "tools/lir-opt/annotate_flags.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/feature_flags.h"
#include "tools/lir-opt/flags.h"

namespace lir::cli {

int CheckOneFileOperand(const CommandArgs& args) {
  if (args.operands.size() == 1) return kExitOk;
  return UsageError(absl::StrCat(
      args.command, ": expected exactly one FILE (or - for stdin), got ",
      args.operands.size()));
}

int ResolveOptimizerInputsOrReport(OptimizerFeatures* features,
                                   interp::AnalysisInputs* inputs,
                                   interp::Catalog* catalog) {
  if (int exit_code = ResolveFeaturesOrReport(features); exit_code != kExitOk) {
    return exit_code;
  }
  return ResolveAnalysisInputsOrReport(inputs, catalog);
}

int ResolvePipelineOptionsOrReport(PipelineOptions* options,
                                   interp::Catalog* catalog) {
  *options = PipelineOptions();
  if (int exit_code = ResolveOptimizerInputsOrReport(&options->features,
                                                     &options->inputs, catalog);
      exit_code != kExitOk) {
    return exit_code;
  }
  options->annotate = absl::GetFlag(FLAGS_annotate).fields;
  options->validate = absl::GetFlag(FLAGS_validate);
  switch (absl::GetFlag(FLAGS_format)) {
    case OutputFormat::kText: options->format = WriteFormat::kText; break;
    case OutputFormat::kJson: options->format = WriteFormat::kJson; break;
    case OutputFormat::kVerbose: options->format = WriteFormat::kVerbose; break;
    case OutputFormat::kConcise: options->format = WriteFormat::kConcise; break;
    case OutputFormat::kDot: options->format = WriteFormat::kDot; break;
  }
  options->node_identifiers = absl::GetFlag(FLAGS_node_identifiers);
  return kExitOk;
}

ReadOptions DocumentReadOptions(const InputText& input) {
  ReadOptions read;
  switch (absl::GetFlag(FLAGS_input_format)) {
    case InputFormat::kAuto: read.format = DocumentFormat::kAuto; break;
    case InputFormat::kText: read.format = DocumentFormat::kText; break;
    case InputFormat::kJson: read.format = DocumentFormat::kJson; break;
  }
  read.file_name = input.name;
  read.validate = absl::GetFlag(FLAGS_validate);
  return read;
}

int LoadInputDocumentOrReport(absl::string_view path, InputText* input,
                              Document* doc) {
  absl::StatusOr<InputText> read =
      ReadInput(path, absl::GetFlag(FLAGS_max_input_bytes));
  if (!read.ok()) return InputError(read.status().message());
  *input = *std::move(read);
  absl::StatusOr<Document> loaded =
      ReadDocument(input->text, DocumentReadOptions(*input));
  if (!loaded.ok()) return InputError(loaded.status().message());
  *doc = *std::move(loaded);
  return kExitOk;
}

int RequireReportFormat(absl::string_view command) {
  const OutputFormat format = absl::GetFlag(FLAGS_format);
  if (format == OutputFormat::kText || format == OutputFormat::kJson) {
    return kExitOk;
  }
  return UsageError(
      absl::StrCat(command, ": --format=", AbslUnparseFlag(format),
                   " picks a plan syntax for explain; ", command,
                   " prints a report: use --format=text or --format=json"));
}

}  // namespace lir::cli
