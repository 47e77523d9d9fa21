// `lir-opt slt`: check, and with --rewrite rewrite, the EXPLAIN PHYSICAL
// PLAN blocks of sqllogictest files (slt_file.h, slt_check.h).
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/json.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"
#include "tools/lir-opt/read_input.h"
#include "tools/lir-opt/slt_check.h"
#include "tools/lir-opt/slt_file.h"

ABSL_FLAG(bool, rewrite, false,
          "slt: write each file back with every changed block's plan "
          "replaced by the rewritten one, every other byte as it was; a file "
          "with no change is not written. Files are replaced atomically.");
ABSL_FLAG(bool, fail_on_change, false,
          "slt: exit 1 when a block would change (for CI), not only on an "
          "error.");

namespace lir::cli {

int RunSlt(const CommandArgs& args) {
  if (args.operands.empty()) {
    return UsageError(absl::StrCat(args.command, ": expected FILE.slt..."));
  }
  if (int exit_code = RequireReportFormat(args.command); exit_code != kExitOk) {
    return exit_code;
  }
  const bool json = absl::GetFlag(FLAGS_format) == OutputFormat::kJson;
  const bool rewrite = absl::GetFlag(FLAGS_rewrite);
  // `-` is standard input, which has no file to write back: refused before
  // anything is read, so that no file named `-` is ever created.
  if (rewrite) {
    for (const std::string& path : args.operands) {
      if (path == "-") {
        return UsageError(absl::StrCat(
            args.command,
            ": --rewrite writes files back; standard input ('-') has no file "
            "to write (check it without --rewrite)"));
      }
    }
  }
  OptimizerFeatures features;
  interp::AnalysisInputs inputs;
  if (int exit_code = ResolveOptimizerInputsOrReport(&features, &inputs);
      exit_code != kExitOk) {
    return exit_code;
  }
  // Each block's result is printed as soon as it is checked and then
  // dropped: what is held is the file being read and the plans a rewrite
  // will write back, not a report per block (a 90 MB file of small blocks
  // used to hold 2.5 KB for each).
  slt::Summary summary;
  std::vector<std::string> written;
  bool first_block = true;
  if (json) std::cout << "{\n  \"blocks\": [";
  bool failed = false;
  for (const std::string& path : args.operands) {
    absl::StatusOr<InputText> input =
        ReadInput(path, absl::GetFlag(FLAGS_max_input_bytes));
    if (!input.ok()) {
      std::cerr << input.status().message() << "\n";
      failed = true;
      continue;
    }
    slt::SltFile file;
    file.name = input->name;
    file.content = std::move(input->text);
    slt::ParseSltFile(&file);
    std::vector<slt::Replacement> replacements;
    for (const slt::ExplainBlock& block : file.blocks) {
      slt::BlockResult result = slt::CheckBlock(file, block, features, inputs);
      summary.Add(result.outcome);
      if (json) {
        std::cout << (first_block ? "\n    " : ",\n    ")
                  << explain::DumpJsonAt(slt::BlockToJson(result), 2);
        first_block = false;
      } else {
        std::cout << slt::FormatBlockText(result);
      }
      if (result.outcome == slt::Outcome::kWouldChange && rewrite) {
        replacements.push_back({&block, std::move(result.rewritten)});
      }
    }
    if (rewrite && !replacements.empty()) {
      if (absl::Status s = slt::WriteFileAtomically(
              path, slt::RenderWithReplacements(file, replacements));
          !s.ok()) {
        std::cerr << "lir-opt: " << s.message() << "\n";
        failed = true;
        continue;
      }
      written.push_back(file.name);
      if (!json) {
        std::cout << file.name << ": rewrote " << replacements.size()
                  << (replacements.size() == 1 ? " block\n" : " blocks\n");
      }
    }
  }
  if (json) {
    // The members after "blocks", in the order nlohmann prints them.
    const nlohmann::json summary_json = {{"blocks", summary.blocks},
                                         {"unchanged", summary.unchanged},
                                         {"would_change", summary.would_change},
                                         {"errors", summary.errors},
                                         {"skipped", summary.skipped}};
    std::cout << (first_block ? "],\n" : "\n  ],\n")
              << "  \"rewritten\": " << explain::DumpJsonAt(written, 1)
              << ",\n  \"summary\": " << explain::DumpJsonAt(summary_json, 1)
              << "\n}\n";
  } else {
    std::cout << summary.Line();
  }
  std::cout << std::flush;
  const bool change_fails =
      absl::GetFlag(FLAGS_fail_on_change) && summary.would_change > 0;
  return failed || summary.errors > 0 || change_fails ? kExitInvalidInput
                                                      : kExitOk;
}

}  // namespace lir::cli
