// The must_consolidate relaxation pass.
#include "lir/recognizer/relax_must_consolidate.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lir/interp/interpreter.h"
#include "lir/interp/monotonicity.h"

namespace lir {
namespace {

bool* MustConsolidateFlag(Node& node) {
  if (node.Is<ReduceOp>()) return &node.As<ReduceOp>().must_consolidate;
  return &node.As<TopKOp>().must_consolidate;
}

bool MustConsolidate(const Node& node) {
  if (node.Is<ReduceOp>()) return node.As<ReduceOp>().must_consolidate;
  return node.As<TopKOp>().must_consolidate;
}

// `Get::Collection materialize.public.t`, `Negate`.
std::string Describe(const Node& node) {
  if (node.Is<GetOp>()) {
    return absl::StrCat(HeaderName(node), " ", node.As<GetOp>().id.ToString());
  }
  return HeaderName(node);
}

using RelaxDecision =
    Decision<RelaxMustConsolidateDecline, RelaxMustConsolidate::Fire>;
using enum RelaxMustConsolidateDecline;

}  // namespace

bool IsRelaxCandidate(const Node& node) {
  if (node.Is<ReduceOp>()) {
    return node.As<ReduceOp>().kind == ReduceKind::kHierarchicalMonotonic;
  }
  if (node.Is<TopKOp>()) {
    const TopKKind kind = node.As<TopKOp>().kind;
    return kind == TopKKind::kMonotonicTop1 || kind == TopKKind::kMonotonicTopK;
  }
  return false;
}

RelaxDecision RelaxMustConsolidate::Decide(const Node& node,
                                           CandidateContext& ctx) const {
  if (!MustConsolidate(node)) {
    return RelaxDecision::Declines(kAlreadyRelaxed,
                                   "must_consolidate is already off");
  }
  if (!ctx.inputs.single_time) {
    return RelaxDecision::Declines(kNotSingleTime,
                                   "the dataflow is not known to be "
                                   "single-time (--single_time)");
  }
  // Values of the plan before this pass, which clearing must_consolidate
  // does not change.
  const absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>&
      analysis = ctx.analyses.Monotonicity();
  if (!analysis.ok()) {
    return RelaxDecision::Declines(kAnalysisFailed,
                                   std::string(analysis.status().message()));
  }
  if (!analysis->nodes.at(node.inputs[0].get()).monotonic) {
    return RelaxDecision::Declines(
        kInputNotMonotonic, absl::StrCat("input ", Describe(*node.inputs[0]),
                                         " is not physically monotonic"));
  }
  return RelaxDecision::Fires({});
}

void RelaxMustConsolidate::Rewrite(Node& node, const Fire&) const {
  *MustConsolidateFlag(node) = false;
}

absl::Status RelaxMustConsolidatePass(Document& doc, PassContext& ctx) {
  return RunPass(RelaxMustConsolidate(), doc, ctx);
}

}  // namespace lir
