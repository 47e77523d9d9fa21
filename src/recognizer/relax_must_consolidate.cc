// The must_consolidate relaxation pass.
#include "src/recognizer/relax_must_consolidate.h"

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "src/interp/driver.h"
#include "src/interp/monotonicity.h"

namespace lir {
namespace {

bool* MustConsolidate(Node& node) {
  if (node.Is<ReduceOp>()) return &node.As<ReduceOp>().must_consolidate;
  return &node.As<TopKOp>().must_consolidate;
}

// `Get::Collection materialize.public.t`, `Negate`.
std::string Describe(const Node& node) {
  if (node.Is<GetOp>()) {
    return absl::StrCat(HeaderName(node), " ", node.As<GetOp>().id.ToString());
  }
  return HeaderName(node);
}

/// The verdict on one candidate.
struct Verdict {
  bool fires = false;
  std::string code;
  std::string message;
};

Verdict Decline(std::string code, std::string message) {
  return Verdict{false, std::move(code), std::move(message)};
}

/// The candidates of one plan in pre-order (as EXPLAIN prints them).
std::vector<Node*> Candidates(Node& plan) {
  std::vector<Node*> found;
  ForEachPreOrder(plan, [&](Node& node, int) {
    if (IsRelaxCandidate(node)) found.push_back(&node);
  });
  return found;
}

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

absl::Status RelaxMustConsolidatePass(Document& doc, PassContext& ctx) {
  const interp::MonotonicityInterpreter monotonicity(ctx.inputs.monotonic_ids);
  for (Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    const std::vector<Node*> candidates = Candidates(*object.plan);
    if (candidates.empty()) continue;
    absl::flat_hash_map<const Node*, Verdict> verdicts;
    for (Node* node : candidates) {
      if (!*MustConsolidate(*node)) {
        verdicts[node] = Decline(kDeclineAlreadyRelaxed,
                                 "must_consolidate is already off");
      } else if (!ctx.inputs.single_time) {
        verdicts[node] = Decline(kDeclineNotSingleTime,
                                 "the dataflow is not known to be single-time "
                                 "(--single_time)");
      }
    }
    if (verdicts.size() < candidates.size()) {
      // The analysis decides the rest. Its values are those of the plan
      // before this pass, which clearing must_consolidate does not change.
      absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>> analysis =
          interp::Transform(
              monotonicity, *object.plan,
              [&](Node& node, const interp::PhysicallyMonotonic&,
                  std::span<const interp::PhysicallyMonotonic> inputs) {
                if (!IsRelaxCandidate(node) || verdicts.contains(&node)) return;
                if (!inputs[0].monotonic) {
                  verdicts[&node] = Decline(
                      kDeclineInputNotMonotonic,
                      absl::StrCat("input ", Describe(*node.inputs[0]),
                                   " is not physically monotonic"));
                  return;
                }
                verdicts[&node] = Verdict{true, "", ""};
                if (ctx.apply) *MustConsolidate(node) = false;
              });
      if (!analysis.ok()) {
        for (Node* node : candidates) {
          if (!verdicts.contains(node)) {
            verdicts[node] = Decline(kDeclineAnalysisFailed,
                                     std::string(analysis.status().message()));
          }
        }
      }
    }
    for (Node* node : candidates) {
      const Verdict& verdict = verdicts.at(node);
      Candidate candidate;
      candidate.pass = ctx.pass_name;
      candidate.object = object.name;
      candidate.lir_id = node->id;
      candidate.reason = verdict.code;
      candidate.message = verdict.message;
      candidate.has_keys = false;
      if (!ctx.apply) {
        candidate.outcome = CandidateOutcome::kDisabled;
        candidate.would_fire = verdict.fires;
      } else {
        candidate.outcome = verdict.fires ? CandidateOutcome::kFired
                                          : CandidateOutcome::kDeclined;
      }
      ctx.report->candidates.push_back(std::move(candidate));
    }
  }
  return absl::OkStatus();
}

}  // namespace lir
