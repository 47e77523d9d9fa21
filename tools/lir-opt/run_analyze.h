// `lir-opt run --analyze=memory[,cpu]` and `--analyze_compare=FEATURE,...`
// (docs/analyze.md): the run's measures as Materialize's EXPLAIN ANALYZE
// table, or two runs (features off, on) side by side.
#ifndef LIR_TOOLS_LIR_OPT_RUN_ANALYZE_H_
#define LIR_TOOLS_LIR_OPT_RUN_ANALYZE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/analyze.h"
#include "lir/pipeline/pipeline.h"
#include "tools/lir-opt/commands.h"

namespace lir::cli {

/// What --analyze, --analyze_round, --analyze_compare and --format ask.
struct AnalyzeRequest {
  std::vector<explain::AnalyzeColumn> columns;
  /// Features to compare off and on; empty: one run.
  std::vector<std::string> compare;
  std::optional<uint64_t> last_round;
  bool json = false;
  /// --analyze_format=dot: the plan as a graph with the measures.
  bool dot = false;
};

/// The request the flags make, nullopt when none of them is given, or
/// InvalidArgument naming the flag and what it accepts (a bad --analyze
/// item, an unknown feature, --analyze_round alone, the snapshot engine,
/// --arrangement_sizes, cpu with a comparison).
absl::StatusOr<std::optional<AnalyzeRequest>> ParseAnalyzeRequest(
    const eval::RunOptions& options, bool arrangement_sizes);

/// Optimizes `doc` (twice, features off and on, for a comparison), runs it
/// on `data` with `options` and prints the tables; the exit status.
int RunAnalyze(const AnalyzeRequest& request,
               const PipelineOptions& pipeline_options, Document doc,
               const eval::InputData& data, eval::RunOptions options,
               const std::string& input_name);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_RUN_ANALYZE_H_
