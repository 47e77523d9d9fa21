// Rewrite passes over LIR documents, their registry and their report.
//
// A pass is a stateless function with one row in the registry
// (ClickHouse-style `{name, enabling feature, function}`). The pipeline runs
// every pass: an enabled pass rewrites; a disabled pass still looks for its
// candidates, so the report can tell what turning it on would do.
#ifndef LIR_RECOGNIZER_PASS_H_
#define LIR_RECOGNIZER_PASS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "src/interp/inputs.h"
#include "src/lir/document.h"
#include "src/recognizer/features.h"

namespace lir {

/// What happened to one rewrite candidate.
enum class CandidateOutcome {
  kFired,     ///< rewritten
  kDeclined,  ///< not rewritten; `reason` says why
  kDisabled,  ///< the pass is off; `would_fire`/`reason` say what it would do
};

/// One candidate of one pass, as reported to users.
struct Candidate {
  std::string pass;
  std::string object;  ///< the document object holding the candidate
  LirId lir_id = 0;
  CandidateOutcome outcome = CandidateOutcome::kDeclined;
  /// For kDisabled: whether the rewrite would fire if enabled.
  bool would_fire = false;
  /// Stable decline code (`not_co_arranged`), empty when firing.
  std::string reason;
  /// For per-arm codes: "base" or "subtract".
  std::string arm;
  /// Human-readable detail of the decline.
  std::string message;
  /// Keys of the fused node (column indexes) when it fires / would fire.
  std::vector<int> base_key;
  std::vector<int> subtract_key;
  /// Whether base_key/subtract_key describe this candidate (true for the
  /// fused set-difference pass); reports omit them otherwise.
  bool has_keys = true;
};

/// Whether a pass ran enabled. The report lists every pass that ran
/// enabled or, disabled, found candidates; a disabled pass with nothing to
/// say is left out.
struct PassRun {
  std::string name;
  std::string feature;
  bool enabled = false;
};

/// Everything the pipeline did, pass by pass and candidate by candidate.
struct RewriteReport {
  std::vector<PassRun> passes;
  std::vector<Candidate> candidates;
};

/// What a pass function receives besides the document.
struct PassContext {
  /// False when the pass's feature is off: find and report candidates, but
  /// leave the document untouched.
  bool apply = false;
  std::string pass_name;
  RewriteReport* report = nullptr;
  /// What the caller knows about the dataflow (single-time, monotonic and
  /// arities of global collections), for passes driven by analyses.
  interp::AnalysisInputs inputs;
};

/// A pass: rewrites `doc` in place (when ctx.apply) and appends its
/// candidates to ctx.report. Errors are real failures, never declines.
using PassFunction = absl::Status (*)(Document& doc, PassContext& ctx);

/// One row of the pass registry.
struct PassEntry {
  absl::string_view name;
  /// The feature that enables the pass (see LIR_OPTIMIZER_FEATURES).
  absl::string_view feature;
  bool OptimizerFeatures::*enabled;
  PassFunction function;
};

/// The registry, in pipeline order.
const std::vector<PassEntry>& AllPasses();

/// The result of Optimize.
struct OptimizeResult {
  Document document;
  RewriteReport report;
};

/// Runs every registered pass over `doc` in order; passes whose feature is
/// off only report. `inputs` is what the caller knows about the dataflow.
/// The returned document is `doc` rewritten.
absl::StatusOr<OptimizeResult> Optimize(
    Document doc, const OptimizerFeatures& features,
    const interp::AnalysisInputs& inputs = interp::AnalysisInputs());

/// The `--explain_declines` section printed after a document.
std::string PrintCandidates(const RewriteReport& report);

/// The `--report` JSON form.
nlohmann::json ReportToJson(const RewriteReport& report);

/// The outcome's name in reports: "fired", "declined", "disabled".
absl::string_view OutcomeName(CandidateOutcome outcome);

}  // namespace lir

#endif  // LIR_RECOGNIZER_PASS_H_
