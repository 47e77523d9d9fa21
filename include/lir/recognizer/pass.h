// What a rewrite pass is and what it reports: the types every pass and
// the pass driver (pass_driver.h) use. The registry of passes and Optimize,
// which sit above the passes, are in optimize.h; the report's rendering
// (`--explain_declines`, `--report`) in report.h.
//
// A pass has one row in the registry (ClickHouse-style `{name, enabling
// feature, function}`); its function is the pass driver instantiated for the
// pass.
#ifndef LIR_RECOGNIZER_PASS_H_
#define LIR_RECOGNIZER_PASS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/interp/arrangements_built.h"
#include "lir/interp/inputs.h"
#include "lir/recognizer/features.h"
#include "nlohmann/json.hpp"

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
  /// Pass-specific fields of a candidate that fires / would fire (for the
  /// fused set-difference pass `{"base_key": [..], "subtract_key": [..]}`),
  /// or that a decline reports beside its code, merged into its `--report`
  /// record; null when the pass has none. A JSON
  /// object rather than typed fields, so a new pass adds details without
  /// touching this struct or the report writer.
  nlohmann::json details;
};

/// The report field of a firing candidate: how many arrangements its
/// rewrite saves (the accounting of include/lir/interp/arrangements_built.h,
/// before minus after; negative if it builds more).
inline constexpr char kSavesField[] = "saves";

/// What the driver did for one pass: counters a test can check without
/// timing (e.g. that a skipped pass ran no analysis).
struct PassWork {
  /// Objects whose plan was walked looking for candidates.
  size_t objects_walked = 0;
  /// Candidates whose decision was computed.
  size_t candidates_decided = 0;
  /// Analyses run on demand for those decisions (e.g. monotonicity).
  size_t analyses_run = 0;
  /// Candidates rewritten.
  size_t rewrites = 0;
};

/// One registered pass in a run: whether it ran enabled, and the work done.
/// Optimize lists every registered pass, so a report always shows what
/// could have run and whether it did.
struct PassRun {
  std::string name;
  std::string feature;
  bool enabled = false;
  /// Not part of the printed report.
  PassWork work;
};

/// The arrangements one object's dataflow builds before and after the
/// pipeline (the accounting of include/lir/interp/arrangements_built.h); unset
/// when the plan cannot be analyzed.
struct ObjectArrangements {
  std::string object;
  std::optional<interp::ArrangementCount> before;
  std::optional<interp::ArrangementCount> after;
};

/// Everything the pipeline did, pass by pass and candidate by candidate.
struct RewriteReport {
  std::vector<PassRun> passes;
  std::vector<Candidate> candidates;
  /// Every object with a plan, in document order (with the report on).
  std::vector<ObjectArrangements> objects;
};

/// What a pass function receives besides the document.
struct PassContext {
  /// False when the pass's feature is off: find and report candidates, but
  /// leave the document untouched.
  bool apply = false;
  std::string pass_name;
  /// Where candidates are recorded; null records none (OptimizeOptions
  /// with the report off), which also skips building their details.
  RewriteReport* report = nullptr;
  /// Counters of the work done; may be null.
  PassWork* work = nullptr;
  /// What the caller knows about the dataflow (single-time, monotonic and
  /// arities of global collections), for passes driven by analyses.
  interp::AnalysisInputs inputs;
};

/// A pass: rewrites `doc` in place (when ctx.apply) and appends its
/// candidates to ctx.report. Errors are real failures, never declines.
/// Every registered pass is `RunPass<P>` (pass_driver.h) for its P.
using PassFunction = absl::Status (*)(Document& doc, PassContext& ctx);

/// One row of the pass registry.
struct PassEntry {
  std::string_view name;
  /// The feature that enables the pass (see LIR_OPTIMIZER_FEATURES).
  std::string_view feature;
  bool OptimizerFeatures::*enabled;
  PassFunction function;
};

}  // namespace lir

#endif  // LIR_RECOGNIZER_PASS_H_
