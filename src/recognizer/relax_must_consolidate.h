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

#include "absl/status/status.h"
#include "src/lir/document.h"
#include "src/lir/node.h"
#include "src/recognizer/pass.h"

namespace lir {

/// Stable decline codes, in the order the checks run.
inline constexpr char kDeclineAlreadyRelaxed[] = "already_relaxed";
inline constexpr char kDeclineNotSingleTime[] = "not_single_time";
inline constexpr char kDeclineAnalysisFailed[] = "analysis_failed";
inline constexpr char kDeclineInputNotMonotonic[] = "input_not_monotonic";

/// Whether `node` is a candidate: a monotonic Reduce::Hierarchical or a
/// TopK::MonotonicTop1 / MonotonicTopK.
bool IsRelaxCandidate(const Node& node);

/// The registered pass. Every candidate, in every object, is reported
/// (top-down) with one outcome: fired, or declined with the first failing
/// check: `already_relaxed` (must_consolidate is already off),
/// `not_single_time` (ctx.inputs.single_time is false), `analysis_failed`
/// (the plan cannot be analyzed, e.g. an unbound local id when it was not
/// validated), `input_not_monotonic` (per the monotonicity analysis with
/// ctx.inputs.monotonic_ids).
absl::Status RelaxMustConsolidatePass(Document& doc, PassContext& ctx);

}  // namespace lir

#endif  // LIR_RECOGNIZER_RELAX_MUST_CONSOLIDATE_H_
