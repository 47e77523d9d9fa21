// The driver of abstract interpretation: walks a plan bottom-up with the
// scoped walker (include/lir/walk.h; plan depth is bounded only by memory),
// calls the interpreter's transfer functions, and implements Let and LetRec.
//
//   Let:    evaluate the value, bind it, evaluate the body, unbind.
//   LetRec: bind every id to bottom, mark the context recursive, evaluate the
//           values in order, joining each new value into its binding, and
//           repeat until a round changes nothing; a round that would start
//           when min(100, smallest recursion_limit) rounds have run instead
//           sets every binding to top (Materialize's `Fold`;
//           ../shared/reference/SEMANTICS.md section 5). The body is
//           evaluated with the final bindings and the recursive flag of the
//           enclosing context.
//
// After a give-up the values are evaluated once more with the top bindings,
// so that the results recorded for their nodes are sound. (Materialize's
// Fold records no per-node results; this extra pass is this project's
// choice, so that a node's annotation never claims more than holds.)
#ifndef LIR_INTERP_DRIVER_H_
#define LIR_INTERP_DRIVER_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lir/interp/interpreter.h"
#include "lir/node.h"
#include "lir/node_error.h"
#include "lir/walk.h"

namespace lir::interp {

namespace driver_internal {

/// A LetRec's round limit, min(kMaxLetRecRounds, smallest recursion_limit).
uint64_t LetRecRoundLimit(const LetRecOp& op);

}  // namespace driver_internal

/// Runs one interpreter over one plan, as a visitor of the scoped walker
/// (include/lir/walk.h), which owns the order and the scoping rules. Use
/// Analyze() / Transform().
template <typename I>
class Driver : public ScopedVisitorBase<typename I::Domain> {
 public:
  using D = typename I::Domain;

  /// The fixpoint of the LetRec being walked.
  struct LetRecState {
    uint64_t round = 0;  ///< rounds that changed a binding
    uint64_t limit = 0;
    bool final_pass = false;  ///< re-evaluating values after a give-up
    bool hit_limit = false;
  };

  /// Borrows `interp` (see interp_). A temporary interpreter would dangle,
  /// so it is rejected: construct the interpreter first, or call Analyze().
  explicit Driver(const I& interp) : interp_(interp) {}
  explicit Driver(const I&& interp) = delete;

  /// Interprets the plan rooted at `root`.
  absl::StatusOr<Analysis<D>> Run(const Node& root) {
    Analysis<D> analysis;
    analysis_ = &analysis;
    absl::StatusOr<D> result = WalkScoped(root, *this);
    analysis_ = nullptr;
    if (!result.ok()) return result.status();
    analysis.root = std::move(*result);
    return analysis;
  }

  /// Shadowing is worded `... (shadowing)` here (testdata/analysis/let.txt).
  absl::Status ScopeError(const Node& node, ScopeViolation violation,
                          uint64_t id) const {
    if (violation == ScopeViolation::kShadowing) {
      return NodeError(node, absl::StatusCode::kInvalidArgument,
                       absl::StrCat("l", id,
                                    " is already bound by an enclosing "
                                    "binding (shadowing)"));
    }
    return DefaultScopeError(node, violation, id);
  }

  /// A Let binds its value; a LetRec binding starts at bottom.
  absl::Status Bind(const Node& binder, uint64_t id, D* value) {
    const bool recursive = value == nullptr;
    ctx_.bindings_.insert_or_assign(
        id, Binding<D>{recursive ? interp_.Bottom() : std::move(*value),
                       recursive});
    return absl::OkStatus();
  }

  /// Drops the binding of `id`.
  void Unbind(const Node& binder, uint64_t id) { ctx_.bindings_.erase(id); }

  /// A round that would start when `limit` rounds have run instead sets
  /// every binding to top, for one final pass (see the file comment).
  void BeginLetRecRound(const Node& let_rec, LetRecState& state,
                        uint64_t round) {
    const LetRecOp& op = let_rec.As<LetRecOp>();
    if (round == 0) state.limit = driver_internal::LetRecRoundLimit(op);
    if (!state.final_pass && state.round >= state.limit) {
      for (uint64_t id : op.ids) ctx_.bindings_[id].value = interp_.Top();
      state.final_pass = true;
      state.hit_limit = true;
    }
  }

  /// Joins a value's new result into its binding (not in the final pass).
  absl::StatusOr<bool> UpdateLetRec(const Node& let_rec, size_t index, D& value,
                                    LetRecState& state) {
    if (state.final_pass) return false;
    Binding<D>& binding = ctx_.bindings_[let_rec.As<LetRecOp>().ids[index]];
    D joined = interp_.Join(value, binding.value);
    if (interp_.Equal(joined, binding.value)) return false;
    binding.value = std::move(joined);
    return true;
  }

  /// Repeats while a round changes a binding; records the outcome.
  absl::StatusOr<LetRecNext> EndLetRecRound(const Node& let_rec,
                                            LetRecState& state, bool changed) {
    if (!state.final_pass && changed) {
      ++state.round;
      return LetRecNext::kRepeat;
    }
    analysis_->let_recs[&let_rec] =
        LetRecOutcome{state.hit_limit ? state.round : state.round + 1,
                      state.hit_limit, state.limit};
    return LetRecNext::kBody;
  }

  /// Calls the transfer function of `node` (Let and LetRec pass on their
  /// body's value) and records the result. Each LetRec round re-evaluates
  /// every node of the values, so the results recorded for them are those
  /// of the last round.
  absl::StatusOr<D> Leave(const Node& node, const WalkContext& walk,
                          std::span<D> in) {
    ctx_.recursive_ = walk.recursive();
    D result = Visit(node, in);
    analysis_->nodes.insert_or_assign(&node, result);
    return result;
  }

 private:
  D Visit(const Node& node, std::span<D> in) {
    if (node.Is<LetOp>() || node.Is<LetRecOp>()) return std::move(in.back());
    ++analysis_->evaluations;
    const std::span<const D> inputs(in.data(), in.size());
    // One case per kind, derived from include/lir/node_kinds.def: the arguments
    // follow the kind's input shape, as the Interpreter concept requires.
#define LIR_DRIVER_CALL_kLeaf(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>());
#define LIR_DRIVER_CALL_kUnary(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), in[0]);
#define LIR_DRIVER_CALL_kBinary(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), in[0], in[1]);
#define LIR_DRIVER_CALL_kVariadic(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), inputs);
// Let and LetRec pass on their body's value (above).
#define LIR_DRIVER_CALL_kLet(Kind, Payload) break;
#define LIR_DRIVER_CALL_kLetRec(Kind, Payload) break;
    switch (node.kind()) {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  case NodeKind::k##Kind:                             \
    LIR_DRIVER_CALL_##Shape(Kind, Payload)
#include "lir/node_kinds.def"
    }
#undef LIR_DRIVER_CALL_kLeaf
#undef LIR_DRIVER_CALL_kUnary
#undef LIR_DRIVER_CALL_kBinary
#undef LIR_DRIVER_CALL_kVariadic
#undef LIR_DRIVER_CALL_kLet
#undef LIR_DRIVER_CALL_kLetRec
    return interp_.Top();
  }

  // Borrowed, not copied: a Driver is the visitor of one walk (Analyze and
  // Transform construct it, Run it and drop it within the call whose `interp`
  // argument outlives it), and an interpreter may be costly to copy. The
  // interpreters themselves own what they read, so a temporary passed to
  // Analyze() lives until the end of that call.
  const I& interp_;
  Context<D> ctx_;
  Analysis<D>* analysis_ = nullptr;
};

/// Interprets the plan rooted at `root` with `interp`. Errors (InvalidArgument
/// naming the node) for a wrong number of inputs, a local id read where it is
/// not bound, a binding that shadows another, or a LetRec binding an id
/// twice. Iterative.
template <Interpreter I>
absl::StatusOr<Analysis<typename I::Domain>> Analyze(const I& interp,
                                                     const Node& root) {
  return Driver<I>(interp).Run(root);
}

/// The mutable variant, for transforms: interprets the plan, then calls
/// `action(node, own_value, input_values)` for every node bottom-up (inputs
/// before the node), with `input_values` a std::span<const Domain> of its
/// inputs' values (for Let {value, body}, for LetRec {values..., body}).
/// The action may change the node's payload and inputs but not replace the
/// node itself; the values are those of the plan before any action ran, as
/// in Materialize's FoldMut. Returns the analysis. Iterative.
template <Interpreter I, typename Action>
absl::StatusOr<Analysis<typename I::Domain>> Transform(const I& interp,
                                                       Node& root,
                                                       Action&& action) {
  using D = typename I::Domain;
  absl::StatusOr<Analysis<D>> analysis = Driver<I>(interp).Run(root);
  if (!analysis.ok()) return analysis;
  std::vector<D> inputs;
  ForEachPostOrder(root, [&](Node& node) {
    inputs.clear();
    for (const NodePtr& input : node.inputs) {
      inputs.push_back(analysis->nodes.at(input.get()));
    }
    action(node, analysis->nodes.at(&node), std::span<const D>(inputs));
  });
  return analysis;
}

}  // namespace lir::interp

#endif  // LIR_INTERP_DRIVER_H_
