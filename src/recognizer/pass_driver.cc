// The non-template parts of the pass driver: the walk, the lazily-run
// analyses and the report records.
#include "src/recognizer/pass_driver.h"

#include "src/interp/driver.h"

namespace lir {

const absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>&
ObjectAnalyses::Monotonicity() {
  if (!monotonicity_.has_value()) {
    if (work_ != nullptr) ++work_->analyses_run;
    const interp::MonotonicityInterpreter interpreter(inputs_.monotonic_ids);
    monotonicity_ = interp::Analyze(interpreter, plan_);
  }
  return *monotonicity_;
}

void CandidateReporter::Record(const Object& object, LirId lir_id, bool fires,
                               absl::string_view code, std::string arm,
                               std::string message, nlohmann::json details) {
  if (ctx_.report == nullptr) return;
  Candidate candidate;
  candidate.pass = ctx_.pass_name;
  candidate.object = object.name;
  candidate.lir_id = lir_id;
  candidate.reason = std::string(code);
  candidate.arm = std::move(arm);
  candidate.message = std::move(message);
  candidate.details = std::move(details);
  if (!ctx_.apply) {
    candidate.outcome = CandidateOutcome::kDisabled;
    candidate.would_fire = fires;
  } else {
    candidate.outcome =
        fires ? CandidateOutcome::kFired : CandidateOutcome::kDeclined;
  }
  ctx_.report->candidates.push_back(std::move(candidate));
}

namespace pass_driver_internal {

void ForEachWithRecursiveContext(Node& root,
                                 absl::FunctionRef<void(Node&, bool)> fn) {
  // Each entry: a node still to visit and whether it is inside LetRec values.
  std::vector<std::pair<Node*, bool>> stack;
  stack.push_back({&root, false});
  while (!stack.empty()) {
    auto [node, inside_let_rec_values] = stack.back();
    stack.pop_back();
    fn(*node, inside_let_rec_values);
    // A LetRec's inputs are its values, then its body (last): only the
    // values are the recursive scope.
    const bool is_let_rec = node->Is<LetRecOp>();
    for (size_t i = node->inputs.size(); i-- > 0;) {
      const bool value_of_let_rec = is_let_rec && i + 1 < node->inputs.size();
      stack.push_back(
          {node->inputs[i].get(), inside_let_rec_values || value_of_let_rec});
    }
  }
}

}  // namespace pass_driver_internal
}  // namespace lir
