// What `lir-opt slt` decides for each EXPLAIN PHYSICAL PLAN block of a
// sqllogictest file: the plan round-trips and no pass fires (unchanged), a
// pass fires (would change, with the diff and the report), the plan does
// not parse, validate or print back (error), or the block is not a verbose
// plan (skipped); and the per-file and per-run summaries.
#ifndef LIR_TOOLS_LIR_OPT_SLT_CHECK_H_
#define LIR_TOOLS_LIR_OPT_SLT_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lir/interp/inputs.h"
#include "lir/recognizer/features.h"
#include "nlohmann/json.hpp"
#include "tools/lir-opt/slt_file.h"

namespace lir::cli::slt {

/// The outcome of one block.
enum class Outcome { kUnchanged, kWouldChange, kError, kSkipped };

/// `unchanged`, `would change`, `error`, `skipped`.
absl::string_view OutcomeText(Outcome outcome);

/// What happened to one block.
struct BlockResult {
  std::string file;
  /// 1-based line of the block's `query` directive.
  size_t line = 0;
  Outcome outcome = Outcome::kUnchanged;
  /// kError: the located message; kSkipped: the reason.
  std::string message;
  /// kWouldChange: a unified diff of the plan, expected vs rewritten.
  std::string diff;
  /// The candidates that fired (`fused_set_difference LirId(9)`), and the
  /// whole rewrite report as `--report` writes it (null unless parsed).
  std::vector<std::string> fired;
  nlohmann::json report;
  /// kWouldChange: the rewritten plan text.
  std::string rewritten;
};

/// Checks one block with `features` and `inputs` (the explain command's).
BlockResult CheckBlock(const SltFile& file, const ExplainBlock& block,
                       const OptimizerFeatures& features,
                       const interp::AnalysisInputs& inputs);

/// Counts per outcome.
struct Summary {
  uint64_t blocks = 0;
  uint64_t unchanged = 0;
  uint64_t would_change = 0;
  uint64_t errors = 0;
  uint64_t skipped = 0;

  void Add(Outcome outcome);
  /// `slt: B blocks, U unchanged, C would change, E errors, S skipped`,
  /// where B counts every EXPLAIN PHYSICAL PLAN block found.
  std::string Line() const;
};

/// One block's result as the text output prints it: `file:line: outcome`
/// and, for a change, the fired candidates and the diff.
std::string FormatBlockText(const BlockResult& result);

/// One block's result as a member of `--format=json`'s `blocks` array:
/// file, line, outcome, diff, report (and message when set).
nlohmann::json BlockToJson(const BlockResult& result);

}  // namespace lir::cli::slt

#endif  // LIR_TOOLS_LIR_OPT_SLT_CHECK_H_
