// The driver of abstract interpretation: walks a plan bottom-up with an
// explicit stack (plan depth is bounded only by memory), calls the
// interpreter's transfer functions, and implements Let and LetRec.
//
//   Let:    evaluate the value, bind it, evaluate the body, unbind.
//   LetRec: bind every id to bottom, mark the context recursive, evaluate the
//           values in order, joining each new value into its binding, and
//           repeat until a round changes nothing; a round that would start
//           when min(100, smallest recursion_limit) rounds have run instead
//           sets every binding to top (SEMANTICS.md section 5, Materialize's
//           `Fold`). The body is evaluated with the final bindings and the
//           recursive flag of the enclosing context.
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
#include "src/interp/interpreter.h"
#include "src/lir/status_macros.h"
#include "src/lir/node.h"

namespace lir::interp {

namespace driver_internal {

/// InvalidArgument `LirId(7) Get::PassArrangements: <message>`.
absl::Status NodeError(const Node& node, std::string message);

/// Checks the number (and presence) of `node`'s inputs for its kind, so
/// that transfer functions may index them.
absl::Status CheckInputs(const Node& node);

/// Checks that a LetRec binds distinct ids; returns its round limit,
/// min(kMaxLetRecRounds, smallest recursion_limit).
absl::StatusOr<uint64_t> LetRecRoundLimit(const Node& node);

}  // namespace driver_internal

/// Runs one interpreter over one plan. Use Analyze() / Transform().
template <typename I>
class Driver {
 public:
  using D = typename I::Domain;

  explicit Driver(const I& interp) : interp_(interp) {}

  /// Interprets the plan rooted at `root`.
  absl::StatusOr<Analysis<D>> Run(const Node& root) {
    Analysis<D> analysis;
    analysis_ = &analysis;
    absl::Status status = Walk(root);
    analysis_ = nullptr;
    if (!status.ok()) return status;
    return analysis;
  }

 private:
  /// One node being evaluated. `next` counts the inputs started so far;
  /// inputs' results wait on `values_` from `base` on.
  struct Frame {
    const Node* node;
    uint32_t next = 0;
    size_t base = 0;
    // LetRec only.
    uint64_t round = 0;
    uint64_t limit = 0;
    bool changed = false;
    bool final_pass = false;  ///< re-evaluating values after a give-up
    bool hit_limit = false;
    bool outer_recursive = false;
  };

  absl::Status Walk(const Node& root) {
    frames_.clear();
    values_.clear();
    LIR_RETURN_IF_ERROR(Enter(root));
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      const Node& node = *f.node;
      switch (node.kind()) {
        case NodeKind::kLet:
          LIR_RETURN_IF_ERROR(StepLet(f));
          break;
        case NodeKind::kLetRec:
          LIR_RETURN_IF_ERROR(StepLetRec(f));
          break;
        default:
          if (f.next < node.inputs.size()) {
            LIR_RETURN_IF_ERROR(Enter(*node.inputs[f.next++]));
          } else {
            D result = Visit(node, f.base);
            values_.resize(f.base);
            LIR_RETURN_IF_ERROR(Complete(std::move(result)));
          }
          break;
      }
    }
    return absl::OkStatus();
  }

  /// Checks `node` and pushes its frame; opens LetRec scopes.
  absl::Status Enter(const Node& node) {
    LIR_RETURN_IF_ERROR(driver_internal::CheckInputs(node));
    Frame frame;
    frame.node = &node;
    frame.base = values_.size();
    if (node.Is<GetOp>()) {
      const CollectionId& id = node.As<GetOp>().id;
      if (id.is_local && ctx_.Find(id.local) == nullptr) {
        return driver_internal::NodeError(
            node, "l" + std::to_string(id.local) + " is not bound here");
      }
    }
    if (node.Is<LetRecOp>()) {
      absl::StatusOr<uint64_t> limit = driver_internal::LetRecRoundLimit(node);
      if (!limit.ok()) return limit.status();
      for (uint64_t id : node.As<LetRecOp>().ids) {
        LIR_RETURN_IF_ERROR(Bind(node, id, interp_.Bottom(), true));
      }
      frame.limit = *limit;
      frame.outer_recursive = ctx_.recursive_;
      ctx_.recursive_ = true;
    }
    frames_.push_back(frame);
    return absl::OkStatus();
  }

  absl::Status Bind(const Node& node, uint64_t id, D value, bool recursive) {
    auto [it, inserted] =
        ctx_.bindings_.try_emplace(id, Binding<D>{std::move(value), recursive});
    if (!inserted) {
      return driver_internal::NodeError(
          node, "l" + std::to_string(id) +
                    " is already bound by an enclosing binding (shadowing)");
    }
    return absl::OkStatus();
  }

  /// Let {value, body}: frame.next is 1 while the value runs, 2 while the
  /// body runs; the value's result is bound when it is delivered.
  absl::Status StepLet(Frame& f) {
    const Node& node = *f.node;
    if (f.next < 2) {
      ++f.next;
      return Enter(*node.inputs[f.next - 1]);
    }
    D result = std::move(values_.back());
    values_.pop_back();
    ctx_.bindings_.erase(node.As<LetOp>().id);
    return Complete(std::move(result));
  }

  /// LetRec {values..., body}: rounds over the values, then the body.
  absl::Status StepLetRec(Frame& f) {
    const Node& node = *f.node;
    const LetRecOp& op = node.As<LetRecOp>();
    const size_t count = op.ids.size();
    if (f.next < count) {
      if (f.next == 0 && !f.final_pass && f.round >= f.limit) {
        for (uint64_t id : op.ids) ctx_.bindings_[id].value = interp_.Top();
        f.final_pass = true;
        f.hit_limit = true;
      }
      // Each round re-evaluates every node of the values, so the results
      // recorded for them are those of the last round.
      ++f.next;
      return Enter(*node.inputs[f.next - 1]);
    }
    if (f.next == count) {
      if (!f.final_pass && f.changed) {
        ++f.round;
        f.changed = false;
        f.next = 0;
        return absl::OkStatus();
      }
      analysis_->let_recs[&node] = LetRecOutcome{
          f.hit_limit ? f.round : f.round + 1, f.hit_limit, f.limit};
      ctx_.recursive_ = f.outer_recursive;
      ++f.next;
      return Enter(*node.inputs[count]);
    }
    D result = std::move(values_.back());
    values_.pop_back();
    for (uint64_t id : op.ids) ctx_.bindings_.erase(id);
    return Complete(std::move(result));
  }

  /// Records the finished top frame's result and hands it to its parent.
  absl::Status Complete(D result) {
    const Node& node = *frames_.back().node;
    frames_.pop_back();
    analysis_->nodes.insert_or_assign(&node, result);
    if (frames_.empty()) {
      analysis_->root = std::move(result);
      return absl::OkStatus();
    }
    Frame& parent = frames_.back();
    const Node& pnode = *parent.node;
    if (pnode.Is<LetOp>() && parent.next == 1) {
      return Bind(pnode, pnode.As<LetOp>().id, std::move(result), false);
    }
    if (pnode.Is<LetRecOp>()) {
      const LetRecOp& op = pnode.As<LetRecOp>();
      const size_t index = parent.next - 1;
      if (index < op.ids.size()) {
        if (!parent.final_pass) {
          Binding<D>& binding = ctx_.bindings_[op.ids[index]];
          D joined = interp_.Join(result, binding.value);
          if (!interp_.Equal(joined, binding.value)) {
            binding.value = std::move(joined);
            parent.changed = true;
          }
        }
        return absl::OkStatus();
      }
    }
    values_.push_back(std::move(result));
    return absl::OkStatus();
  }

  /// Calls the transfer function of `node`, whose inputs' results are
  /// values_[base...].
  D Visit(const Node& node, size_t base) {
    ++analysis_->evaluations;
    const std::span<const D> in(values_.data() + base, values_.size() - base);
    // One case per kind, derived from src/lir/node_kinds.def: the arguments
    // follow the kind's input shape, as the Interpreter concept requires.
#define LIR_DRIVER_CALL_kLeaf(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>());
#define LIR_DRIVER_CALL_kUnary(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), in[0]);
#define LIR_DRIVER_CALL_kBinary(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), in[0], in[1]);
#define LIR_DRIVER_CALL_kVariadic(Kind, Payload) \
  return interp_.Visit##Kind(ctx_, node, node.As<Payload>(), in);
// Let and LetRec never get here: StepLet / StepLetRec handle them.
#define LIR_DRIVER_CALL_kLet(Kind, Payload) break;
#define LIR_DRIVER_CALL_kLetRec(Kind, Payload) break;
    switch (node.kind()) {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  case NodeKind::k##Kind:                             \
    LIR_DRIVER_CALL_##Shape(Kind, Payload)
#include "src/lir/node_kinds.def"
    }
#undef LIR_DRIVER_CALL_kLeaf
#undef LIR_DRIVER_CALL_kUnary
#undef LIR_DRIVER_CALL_kBinary
#undef LIR_DRIVER_CALL_kVariadic
#undef LIR_DRIVER_CALL_kLet
#undef LIR_DRIVER_CALL_kLetRec
    return interp_.Top();
  }

  const I& interp_;
  Context<D> ctx_;
  std::vector<Frame> frames_;
  std::vector<D> values_;
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
