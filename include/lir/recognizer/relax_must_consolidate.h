// Relaxing forced consolidation in single-time dataflows (Materialize's
// `RelaxMustConsolidate`, the consumer of the monotonicity analysis).
//
// A monotonic operator (Reduce::Hierarchical with `monotonic`,
// TopK::MonotonicTop1 / MonotonicTopK) with `must_consolidate` first
// consolidates its input in case it holds retractions. In a dataflow that
// computes a single time, an input the monotonicity analysis proves
// insert-only holds none, so the consolidation can go.
#ifndef LIR_RECOGNIZER_RELAX_MUST_CONSOLIDATE_H_
#define LIR_RECOGNIZER_RELAX_MUST_CONSOLIDATE_H_

#include <string_view>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/node.h"
#include "lir/recognizer/decision.h"
#include "lir/recognizer/pass.h"
#include "lir/recognizer/pass_driver.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The stable decline codes, in the order the checks run:
/// `already_relaxed` (must_consolidate is already off), `not_single_time`
/// (inputs.single_time is false), `analysis_failed` (the plan cannot be
/// analyzed, e.g. an unbound local id when it was not validated),
/// `input_not_monotonic` (per the monotonicity analysis with
/// inputs.monotonic_ids).
#define LIR_RELAX_MUST_CONSOLIDATE_DECLINES(X) \
  X(kAlreadyRelaxed, "already_relaxed")        \
  X(kNotSingleTime, "not_single_time")         \
  X(kAnalysisFailed, "analysis_failed")        \
  X(kInputNotMonotonic, "input_not_monotonic")

/// `RelaxMustConsolidateDecline`, its name table
/// `kAllRelaxMustConsolidateDeclines` and `DeclineName(code)`.
LIR_DECLARE_DECLINES(RelaxMustConsolidateDecline,
                     LIR_RELAX_MUST_CONSOLIDATE_DECLINES)

/// Whether `node` is a candidate: a monotonic Reduce::Hierarchical or a
/// TopK::MonotonicTop1 / MonotonicTopK.
bool IsRelaxCandidate(const Node& node);

/// The pass, as the driver runs it (see RewritePass). Every candidate, in
/// every object, is reported with one outcome: fired, or declined with the
/// first failing check. The analysis runs only for an object with a
/// candidate that passes the cheap checks.
class RelaxMustConsolidate {
 public:
  using Code = RelaxMustConsolidateDecline;
  /// Clearing the flag needs nothing from the decision.
  struct Fire {};
  /// The registered name.
  static constexpr std::string_view kName = "relax_must_consolidate";

  /// IsRelaxCandidate.
  bool IsCandidate(const Node& node) const { return IsRelaxCandidate(node); }
  /// The checks above, in order.
  Decision<Code, Fire> Decide(const Node& node, CandidateContext& ctx) const;
  /// Clears must_consolidate.
  void Rewrite(Node& node, const Fire& fire) const;
  /// No pass-specific report fields.
  nlohmann::json Details(const Fire&) const { return nullptr; }
};

/// The registered pass: RunPass(RelaxMustConsolidate()) over every object.
absl::Status RelaxMustConsolidatePass(Document& doc, PassContext& ctx);

}  // namespace lir

#endif  // LIR_RECOGNIZER_RELAX_MUST_CONSOLIDATE_H_
