// Steps that several lir-opt subcommands share: checking the FILE operand,
// resolving the optimizer's inputs from the flags, loading the document.
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
                                   eval::Catalog* catalog) {
  if (int exit_code = ResolveFeaturesOrReport(features); exit_code != kExitOk) {
    return exit_code;
  }
  return ResolveAnalysisInputsOrReport(inputs, catalog);
}

int LoadInputDocumentOrReport(absl::string_view path, InputText* input,
                              Document* doc) {
  absl::StatusOr<InputText> read =
      ReadInput(path, absl::GetFlag(FLAGS_max_input_bytes));
  if (!read.ok()) return InputError(read.status().message());
  *input = *std::move(read);
  LoadOptions load;
  load.format = absl::GetFlag(FLAGS_input_format);
  load.validate = absl::GetFlag(FLAGS_validate);
  absl::StatusOr<Document> loaded = LoadDocument(*input, load);
  if (!loaded.ok()) return InputError(loaded.status().message());
  *doc = *std::move(loaded);
  return kExitOk;
}

}  // namespace lir::cli
