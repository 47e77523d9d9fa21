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
  slt::Summary summary;
  nlohmann::json blocks = nlohmann::json::array();
  nlohmann::json written = nlohmann::json::array();
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
    std::vector<slt::BlockResult> results;
    std::vector<slt::Replacement> replacements;
    for (const slt::ExplainBlock& block : file.blocks) {
      results.push_back(slt::CheckBlock(file, block, features, inputs));
      summary.Add(results.back().outcome);
      if (results.back().outcome == slt::Outcome::kWouldChange) {
        replacements.push_back({&block, results.back().rewritten});
      }
    }
    for (const slt::BlockResult& result : results) {
      if (json) {
        blocks.push_back(slt::BlockToJson(result));
      } else {
        std::cout << slt::FormatBlockText(result);
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
    nlohmann::json out = {{"blocks", std::move(blocks)},
                          {"summary",
                           {{"blocks", summary.blocks},
                            {"unchanged", summary.unchanged},
                            {"would_change", summary.would_change},
                            {"errors", summary.errors},
                            {"skipped", summary.skipped}}},
                          {"rewritten", std::move(written)}};
    std::cout << explain::DumpJson(out, 2) << "\n";
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
