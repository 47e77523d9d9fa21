// The registry of rewrite passes and Optimize, which runs them: above the
// passes it lists (pass.h has the types the passes share).
//
// Optimize runs every enabled pass. With the report on, a disabled pass
// still looks for its candidates (a dry run), so the report can tell what
// turning it on would do, and the arrangements each object builds are
// counted before and after; with the report off neither happens, so an
// optimizer with every feature off costs a walk of nothing.
#ifndef LIR_RECOGNIZER_OPTIMIZE_H_
#define LIR_RECOGNIZER_OPTIMIZE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/interp/inputs.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/pass.h"

namespace lir {

/// The registry, in pipeline order.
const std::vector<PassEntry>& AllPasses();

/// How Optimize runs, beyond which features are on.
struct OptimizeOptions {
  /// Build the rewrite report. On (the default), a disabled pass dry-runs:
  /// it walks, runs the analyses its decisions need and reports what it
  /// would do. Off, for a compiler that only wants the rewritten plan,
  /// disabled passes are skipped entirely and no candidate is recorded
  /// (the report then lists only the passes, with their enabled flags).
  bool report = true;
};

/// The result of Optimize.
struct OptimizeResult {
  Document document;
  RewriteReport report;
};

/// Runs every registered pass over `doc` in order; passes whose feature is
/// off only report (or, with options.report off, do not run). `inputs` is
/// what the caller knows about the dataflow. The returned document is `doc`
/// rewritten.
absl::StatusOr<OptimizeResult> Optimize(
    Document doc, const OptimizerFeatures& features,
    const interp::AnalysisInputs& inputs = interp::AnalysisInputs(),
    const OptimizeOptions& options = OptimizeOptions());

}  // namespace lir

#endif  // LIR_RECOGNIZER_OPTIMIZE_H_
