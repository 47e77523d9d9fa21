// The scoped walker: one explicit-stack walk over a plan that owns the order
// in which Let and LetRec evaluate their parts and the scoping rules of
// local ids (../shared/reference/SEMANTICS.md section 5), so that a
// validator, an abstract interpreter, an evaluator or a pass only supplies
// what it does at each node.
//
// Order (inputs before their parent, inputs in order):
//   Let {value, body}:  value; Bind(id, value); body; Unbind(id); Leave.
//   LetRec {values..., body}: Bind(id, null) for every id, then rounds:
//       BeginLetRecRound; each value, each followed by UpdateLetRec;
//       EndLetRecRound says whether to run another round (a fixpoint
//       iteration re-enters the values) or go on to the body; then the
//       body; Unbind every id; Leave.
//   Other kinds: inputs; Leave.
//
// Scoping rules checked by the walker (errors worded by the visitor's
// ScopeError): a local Get reads an id bound by an enclosing Let body or
// LetRec (or one the visitor says is bound outside the plan); a Let or LetRec
// never binds an id already bound (no shadowing); a LetRec binds distinct
// ids. The walker also checks each node's input count, so hooks may index
// inputs. Nodes inside a LetRec's values (at any depth) see
// WalkContext::recursive(); a LetRec's body has its enclosing context's flag.
//
// Plan depth is bounded only by memory: no hook is called recursively.
#ifndef LIR_LIR_WALK_H_
#define LIR_LIR_WALK_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/node.h"
#include "lir/node_error.h"

namespace lir {

/// The number of inputs `node`'s kind requires, checked: InvalidArgument
/// node errors `has 2 inputs, expected 1`, `has no inputs` (Join, Union)
/// and `input 1 is null`.
absl::Status CheckNodeInputs(const Node& node);

/// A breach of the scoping rules, for ScopeError.
enum class ScopeViolation {
  kUnbound,            ///< a local Get of an id not bound here
  kShadowing,          ///< a Let or LetRec binds an id already bound
  kDuplicateLetRecId,  ///< a LetRec binds the same id twice
};

/// The default wording of a scope violation at `node` (`id` is the local
/// concerned): `l4 is not bound here`, `l0 is already bound by an enclosing
/// binding`, `binds the same id twice`, as InvalidArgument node errors.
absl::Status DefaultScopeError(const Node& node, ScopeViolation violation,
                               uint64_t id);

/// What EndLetRecRound decides.
enum class LetRecNext {
  kRepeat,  ///< evaluate the values once more
  kBody,    ///< the values are final: go on to the body
};

/// Where the node a hook is called for sits.
class WalkContext {
 public:
  /// True inside the values of a LetRec (at any depth): the node's output is
  /// an iterate, changing from round to round. A LetRec body is outside
  /// (unless the LetRec itself is inside another LetRec's values).
  bool recursive() const { return recursive_; }

  /// Whether local `l<id>` is bound by an enclosing Let or LetRec of the
  /// walked plan (ids the visitor binds outside the plan are not counted).
  bool IsBound(uint64_t id) const { return bound_.contains(id); }

 private:
  template <typename N, typename V>
  friend class ScopedWalk;

  absl::flat_hash_set<uint64_t> bound_;
  bool recursive_ = false;
};

/// A LetRec state for visitors that keep none.
struct NoLetRecState {};

/// Default hooks for a visitor producing `R` per node over nodes of type `N`
/// (`const Node` to read a plan, `Node` to change payloads in place).
/// Derive from it and define Leave plus the hooks you need; the defaults do
/// nothing and run LetRec values once.
template <typename R, typename N = const Node>
struct ScopedVisitorBase {
  /// What the visitor computes per node.
  using Result = R;
  /// Per-LetRec state kept by the walker while that LetRec is walked.
  using LetRecState = NoLetRecState;

  /// Pre-order, after the input count was checked and before the scoping
  /// rules are: may reject the node.
  absl::Status Enter(N& node, const WalkContext& ctx) {
    return absl::OkStatus();
  }
  /// False: skip `node`'s inputs (and its bindings); Leave gets no inputs.
  bool Descend(const Node& node) const { return true; }
  /// Whether local `l<id>` is bound outside the walked plan (a free local
  /// the caller supplies); such ids can be read but not rebound.
  bool BoundOutside(uint64_t id) const { return false; }
  /// The error for a scope violation (override to word it differently).
  absl::Status ScopeError(const Node& node, ScopeViolation violation,
                          uint64_t id) const {
    return DefaultScopeError(node, violation, id);
  }
  /// `binder` binds `id`: for a Let, `value` is the value's result (the
  /// visitor may move from it); for a LetRec it is null (the binding starts
  /// empty and UpdateLetRec refines it).
  absl::Status Bind(N& binder, uint64_t id, R* value) {
    return absl::OkStatus();
  }
  /// The scope of `id`, bound by `binder`, ends.
  void Unbind(N& binder, uint64_t id) {}
  /// A round over `let_rec`'s values starts (`round` counts from 0).
  template <typename S>
  void BeginLetRecRound(N& let_rec, S& state, uint64_t round) {}
  /// Value `index` of `let_rec` was evaluated to `value` in this round:
  /// returns whether its binding changed (the visitor may move from it).
  template <typename S>
  absl::StatusOr<bool> UpdateLetRec(N& let_rec, size_t index, R& value,
                                    S& state) {
    return false;
  }
  /// A round ended; `changed` when some UpdateLetRec of it returned true.
  template <typename S>
  absl::StatusOr<LetRecNext> EndLetRecRound(N& let_rec, S& state,
                                            bool changed) {
    return LetRecNext::kBody;
  }
};

/// What the walker requires of a visitor (ScopedVisitorBase supplies every
/// hook but Leave): `Leave(node, ctx, inputs)` is called post-order with the
/// inputs' results (for Let {value, body}, for LetRec {values of the last
/// round..., body}; results a hook moved from are left moved-from) and
/// produces the node's result.
template <typename V, typename N>
concept ScopedVisitor = requires(V& v, const V& cv, N& node,
                                 const WalkContext& ctx, uint64_t id,
                                 typename V::Result* value,
                                 typename V::Result& result,
                                 std::span<typename V::Result> inputs,
                                 typename V::LetRecState& state, bool changed) {
  typename V::Result;
  typename V::LetRecState;
  requires std::is_move_constructible_v<typename V::Result>;
  requires std::default_initializable<typename V::LetRecState>;
  { v.Enter(node, ctx) } -> std::same_as<absl::Status>;
  { cv.Descend(node) } -> std::convertible_to<bool>;
  { cv.BoundOutside(id) } -> std::convertible_to<bool>;
  {
    cv.ScopeError(node, ScopeViolation::kUnbound, id)
    } -> std::same_as<absl::Status>;
  { v.Bind(node, id, value) } -> std::same_as<absl::Status>;
  v.Unbind(node, id);
  v.BeginLetRecRound(node, state, id);
  {
    v.UpdateLetRec(node, size_t{0}, result, state)
    } -> std::same_as<absl::StatusOr<bool>>;
  {
    v.EndLetRecRound(node, state, changed)
    } -> std::same_as<absl::StatusOr<LetRecNext>>;
  {
    v.Leave(node, ctx, inputs)
    } -> std::same_as<absl::StatusOr<typename V::Result>>;
};

/// One walk of one plan with one visitor; use WalkScoped().
template <typename N, typename V>
class ScopedWalk {
 public:
  using R = typename V::Result;

  explicit ScopedWalk(V& visitor) : visitor_(visitor) {}

  /// Walks the plan rooted at `root`; returns the root's result or the
  /// first error.
  absl::StatusOr<R> Run(N& root) {
    absl::Status entered = Enter(root, /*recursive=*/false);
    if (!entered.ok()) return entered;
    while (true) {
      absl::StatusOr<bool> ready = Step(frames_.back());
      if (!ready.ok()) return ready.status();
      if (!*ready) continue;
      absl::StatusOr<R> result = Leave(frames_.back());
      if (!result.ok() || frames_.empty()) return result;
      absl::Status delivered = Deliver(std::move(*result));
      if (!delivered.ok()) return delivered;
    }
  }

 private:
  /// One node being walked. `next` counts the inputs entered so far; the
  /// finished inputs' results wait on results_ from `base` on.
  struct Frame {
    N* node;
    uint32_t next = 0;
    size_t base = 0;
    bool recursive = false;    ///< the node's own context
    bool skip_inputs = false;  ///< Descend() said no
    // LetRec only.
    bool round_begun = false;
    bool changed = false;
    uint64_t round = 0;
  };

  /// Checks `node`, applies the scoping rules, binds LetRec ids and pushes
  /// its frame. `recursive`: the context the node sits in.
  absl::Status Enter(N& node, bool recursive) {
    absl::Status inputs = CheckNodeInputs(node);
    if (!inputs.ok()) return inputs;
    ctx_.recursive_ = recursive;
    absl::Status entered = visitor_.Enter(node, ctx_);
    if (!entered.ok()) return entered;
    Frame frame;
    frame.node = &node;
    frame.base = results_.size();
    frame.recursive = recursive;
    frame.skip_inputs = !visitor_.Descend(node);
    const NodeKind kind = node.kind();
    if (kind == NodeKind::kGet) {
      const CollectionId& id = node.template As<GetOp>().id;
      if (id.is_local && !IsBound(id.local)) {
        return visitor_.ScopeError(node, ScopeViolation::kUnbound, id.local);
      }
    } else if (kind == NodeKind::kLet && !frame.skip_inputs) {
      const uint64_t id = node.template As<LetOp>().id;
      if (IsBound(id)) {
        return visitor_.ScopeError(node, ScopeViolation::kShadowing, id);
      }
    } else if (kind == NodeKind::kLetRec && !frame.skip_inputs) {
      absl::Status bound = BindLetRec(node);
      if (!bound.ok()) return bound;
    }
    frames_.push_back(frame);
    return absl::OkStatus();
  }

  /// Advances the top frame: enters its next part (true: none is left, the
  /// node is ready to leave). Entering pushes a frame, invalidating `frame`.
  absl::StatusOr<bool> Step(Frame& frame) {
    if (frame.skip_inputs) return true;
    N& node = *frame.node;
    const NodeKind kind = node.kind();
    if (kind == NodeKind::kLet) return StepLet(frame);
    if (kind == NodeKind::kLetRec) return StepLetRec(frame);
    if (frame.next == node.inputs.size()) return true;
    const uint32_t index = frame.next++;
    return EnterPart(*node.inputs[index], frame.recursive);
  }

  /// Enters `input`; false (the parent is not ready) unless that fails.
  absl::StatusOr<bool> EnterPart(N& input, bool recursive) {
    absl::Status entered = Enter(input, recursive);
    if (!entered.ok()) return entered;
    return false;
  }

  bool IsBound(uint64_t id) const {
    return ctx_.bound_.contains(id) || visitor_.BoundOutside(id);
  }

  absl::Status BindLetRec(N& node) {
    const std::vector<uint64_t>& ids = node.template As<LetRecOp>().ids;
    for (size_t i = 0; i < ids.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (ids[j] == ids[i]) {
          return visitor_.ScopeError(node, ScopeViolation::kDuplicateLetRecId,
                                     ids[i]);
        }
      }
    }
    for (uint64_t id : ids) {
      if (IsBound(id)) {
        return visitor_.ScopeError(node, ScopeViolation::kShadowing, id);
      }
    }
    for (uint64_t id : ids) {
      ctx_.bound_.insert(id);
      absl::Status bound = visitor_.Bind(node, id, nullptr);
      if (!bound.ok()) return bound;
    }
    let_rec_states_.emplace_back();
    return absl::OkStatus();
  }

  /// Let {value, body}: next is 1 while the value runs, 2 while the body
  /// runs; Deliver binds the value.
  absl::StatusOr<bool> StepLet(Frame& frame) {
    N& node = *frame.node;
    if (frame.next < 2) {
      const uint32_t index = frame.next++;
      return EnterPart(*node.inputs[index], frame.recursive);
    }
    const uint64_t id = node.template As<LetOp>().id;
    ctx_.bound_.erase(id);
    visitor_.Unbind(node, id);
    return true;
  }

  /// LetRec {values..., body}: rounds over the values, then the body.
  absl::StatusOr<bool> StepLetRec(Frame& frame) {
    N& node = *frame.node;
    const std::vector<uint64_t>& ids = node.template As<LetRecOp>().ids;
    const size_t count = ids.size();
    typename V::LetRecState& state = let_rec_states_.back();
    if (frame.next <= count && !frame.round_begun) {
      frame.round_begun = true;
      visitor_.BeginLetRecRound(node, state, frame.round);
    }
    if (frame.next < count) {
      const uint32_t index = frame.next++;
      return EnterPart(*node.inputs[index], /*recursive=*/true);
    }
    if (frame.next == count) {
      absl::StatusOr<LetRecNext> next =
          visitor_.EndLetRecRound(node, state, frame.changed);
      if (!next.ok()) return next.status();
      if (*next == LetRecNext::kRepeat) {
        // The values' results of this round are replaced by the next one's.
        results_.erase(results_.begin() + frame.base, results_.end());
        ++frame.round;
        frame.round_begun = false;
        frame.changed = false;
        frame.next = 0;
        return false;
      }
      ++frame.next;
      return EnterPart(*node.inputs[count], frame.recursive);
    }
    for (uint64_t id : ids) {
      ctx_.bound_.erase(id);
      visitor_.Unbind(node, id);
    }
    let_rec_states_.pop_back();
    return true;
  }

  /// Calls Leave for the finished top frame and pops it.
  absl::StatusOr<R> Leave(Frame& frame) {
    ctx_.recursive_ = frame.recursive;
    std::span<R> inputs(results_.data() + frame.base,
                        results_.size() - frame.base);
    absl::StatusOr<R> result = visitor_.Leave(*frame.node, ctx_, inputs);
    results_.erase(results_.begin() + frame.base, results_.end());
    frames_.pop_back();
    return result;
  }

  /// Hands a finished node's result to its parent (the top frame): binds a
  /// Let value, updates a LetRec binding.
  absl::Status Deliver(R result) {
    Frame& parent = frames_.back();
    N& node = *parent.node;
    results_.push_back(std::move(result));
    const NodeKind kind = node.kind();
    if (kind == NodeKind::kLet && parent.next == 1) {
      const uint64_t id = node.template As<LetOp>().id;
      ctx_.bound_.insert(id);
      return visitor_.Bind(node, id, &results_.back());
    }
    if (kind == NodeKind::kLetRec) {
      const size_t index = parent.next - 1;
      if (index < node.template As<LetRecOp>().ids.size()) {
        absl::StatusOr<bool> changed = visitor_.UpdateLetRec(
            node, index, results_.back(), let_rec_states_.back());
        if (!changed.ok()) return changed.status();
        if (*changed) parent.changed = true;
      }
    }
    return absl::OkStatus();
  }

  V& visitor_;
  WalkContext ctx_;
  std::vector<Frame> frames_;
  std::vector<R> results_;
  std::vector<typename V::LetRecState> let_rec_states_;
};

/// Walks the plan rooted at `root` with `visitor` (see the file comment);
/// returns the root's result or the first error. Iterative.
template <typename N, typename V>
requires ScopedVisitor<V, N> absl::StatusOr<typename V::Result> WalkScoped(
    N& root, V& visitor) {
  return ScopedWalk<N, V>(visitor).Run(root);
}

}  // namespace lir

#endif  // LIR_LIR_WALK_H_
