// The non-template parts of the pass driver: the walk (on the scoped
// walker), the lazily-run analyses and the report records.
#include "lir/recognizer/pass_driver.h"

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "lir/interp/driver.h"
#include "lir/walk.h"

namespace lir {

const absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>&
ObjectAnalyses::Monotonicity() {
  if (monotonicity_ == nullptr) {
    if (work_ != nullptr) ++work_->analyses_run;
    const interp::MonotonicityInterpreter interpreter(inputs_.monotonic_ids);
    // Built in place from the prvalue: moving the StatusOr and destroying
    // the moved-from one trips GCC 12's -Wfree-nonheap-object on absl's
    // empty hash-map sentinel.
    monotonicity_.reset(
        new absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>(
            interp::Analyze(interpreter, plan_)));
  }
  return *monotonicity_;
}

const absl::StatusOr<interp::Analysis<interp::Arity>>& ObjectAnalyses::Arity() {
  if (arity_ == nullptr) {
    if (work_ != nullptr) ++work_->analyses_run;
    arity_.reset(new absl::StatusOr<interp::Analysis<interp::Arity>>(
        interp::AnalyzeArity(plan_, interp::GlobalAritiesSeenByGets(
                                        doc_, inputs_.global_arity))));
  }
  return *arity_;
}

const absl::StatusOr<interp::Analysis<interp::UniqueKeys>>&
ObjectAnalyses::UniqueKeys() {
  if (unique_keys_ == nullptr) {
    const absl::StatusOr<interp::Analysis<interp::Arity>>& arity = Arity();
    if (work_ != nullptr) ++work_->analyses_run;
    // Without arities the analysis still runs: it only loses the keys of
    // Reduces whose key width it cannot tell.
    unique_keys_.reset(new absl::StatusOr<interp::Analysis<interp::UniqueKeys>>(
        interp::AnalyzeUniqueKeys(
            plan_,
            interp::GlobalKeysSeenByGets(doc_, inputs_.global_unique_keys),
            arity.ok() ? &*arity : nullptr)));
  }
  return *unique_keys_;
}

const absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>&
ObjectAnalyses::ArrangementsBuilt() {
  if (built_ == nullptr) {
    const absl::StatusOr<interp::Analysis<interp::Arity>>& arity = Arity();
    if (work_ != nullptr) ++work_->analyses_run;
    if (!arity.ok()) {
      built_.reset(
          new absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>(
              arity.status()));
      return *built_;
    }
    forms_.reset(new absl::StatusOr<interp::Analysis<interp::AvailableForms>>(
        interp::AnalyzeArrangements(plan_, &*arity)));
    if (!forms_->ok()) {
      built_.reset(
          new absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>(
              forms_->status()));
      return *built_;
    }
    built_.reset(
        new absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>(
            interp::AnalyzeArrangementsBuilt(plan_, **forms_)));
  }
  return *built_;
}

void CandidateReporter::Record(const Object& object, LirId lir_id, bool fires,
                               std::string_view code, std::string arm,
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

std::unique_ptr<SavingsCounter> SavingsCounter::Before(
    const Document& doc, const Node& plan, const interp::AnalysisInputs& inputs,
    const std::vector<const Node*>& firing) {
  ObjectAnalyses analyses(doc, plan, inputs, nullptr);
  const auto& built = analyses.ArrangementsBuilt();
  if (!built.ok()) return nullptr;
  absl::flat_hash_map<const Node*, int> firing_index;
  for (size_t i = 0; i < firing.size(); ++i) {
    firing_index[firing[i]] = static_cast<int>(i);
  }
  auto counter = std::make_unique<SavingsCounter>();
  counter->firing_ = firing.size();
  // Pre-order with each node's owner: the innermost firing candidate at or
  // above it (-1: none). Iterative, for deep plans.
  std::vector<std::pair<const Node*, int>> stack = {{&plan, -1}};
  while (!stack.empty()) {
    auto [node, owner] = stack.back();
    stack.pop_back();
    auto it = firing_index.find(node);
    if (it != firing_index.end()) owner = it->second;
    counter->before_[node] = {
        static_cast<int64_t>(interp::BuiltBy(*built, *node).built.size()),
        owner};
    for (const NodePtr& input : node->inputs) {
      stack.emplace_back(input.get(), owner);
    }
  }
  return counter;
}

std::vector<int64_t> SavingsCounter::After(
    const Document& doc, const Node& after,
    const interp::AnalysisInputs& inputs,
    absl::FunctionRef<const Node*(const Node*)> same) {
  ObjectAnalyses analyses(doc, after, inputs, nullptr);
  const auto& built = analyses.ArrangementsBuilt();
  if (!built.ok()) return {};
  // Nodes of the plan after, so that a removed node (whose address a copy's
  // map may still name) counts as building nothing.
  absl::flat_hash_map<const Node*, int64_t> after_counts;
  ForEachPreOrder(after, [&](const Node& node, int) {
    after_counts[&node] =
        static_cast<int64_t>(interp::BuiltBy(*built, node).built.size());
  });
  std::vector<int64_t> saved(firing_, 0);
  for (const auto& [node, entry] : before_) {
    const int owner = entry.second;
    if (owner < 0) continue;
    int64_t now = 0;
    const Node* there = same(node);
    auto it = there == nullptr ? after_counts.end() : after_counts.find(there);
    if (it != after_counts.end()) now = it->second;
    saved[owner] += entry.first - now;
  }
  return saved;
}

absl::flat_hash_map<const Node*, const Node*> CloneCorrespondence(
    const Node& original, const Node& copy) {
  absl::flat_hash_map<const Node*, const Node*> same;
  std::vector<std::pair<const Node*, const Node*>> stack = {{&original, &copy}};
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    same[a] = b;
    for (size_t i = 0; i < a->inputs.size() && i < b->inputs.size(); ++i) {
      stack.emplace_back(a->inputs[i].get(), b->inputs[i].get());
    }
  }
  return same;
}

namespace {

/// What the walk computes per node: nothing (candidates are collected in
/// Enter).
struct NoResult {};

/// Hands every node, pre-order, to the driver with its ancestors and its
/// recursive context.
class CandidateVisitor : public ScopedVisitorBase<NoResult, Node> {
 public:
  explicit CandidateVisitor(
      absl::FunctionRef<void(Node&, std::span<Node* const>, bool)> fn)
      : fn_(fn) {}

  absl::Status Enter(Node& node, const WalkContext& ctx) {
    entering_get_ = node.Is<GetOp>();
    // Enter and Leave nest like the plan, so the open nodes are exactly the
    // ancestors of the node entered.
    fn_(node, path_, ctx.recursive());
    path_.push_back(&node);
    return absl::OkStatus();
  }

  // Optimize runs on plans that were not validated (lir-opt validates
  // after the passes): a local Get of an id bound nowhere is for a decision
  // to decline on (relax_must_consolidate says analysis_failed), not a
  // reason to stop the walk. Only a Get's check is relaxed; a binder that
  // shadows an enclosing binding is still an error. The walker asks right
  // after Enter, for the node just entered.
  bool BoundOutside(uint64_t) const { return entering_get_; }

  absl::StatusOr<NoResult> Leave(Node&, const WalkContext&,
                                 std::span<NoResult>) {
    path_.pop_back();
    return NoResult{};
  }

 private:
  absl::FunctionRef<void(Node&, std::span<Node* const>, bool)> fn_;
  std::vector<Node*> path_;
  bool entering_get_ = false;
};

}  // namespace

absl::Status ForEachWithRecursiveContext(
    Node& root,
    absl::FunctionRef<void(Node&, std::span<Node* const>, bool)> fn) {
  CandidateVisitor visitor(fn);
  return WalkScoped(root, visitor).status();
}

}  // namespace pass_driver_internal
}  // namespace lir
