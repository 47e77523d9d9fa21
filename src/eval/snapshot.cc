// The snapshot engine: an explicit-stack walk over the plan that computes
// every node's whole output (snapshot_ops.cc), binds Let and LetRec locals,
// and iterates LetRec to a fixed point; plus the Dataflow that re-runs it
// every round.
#include "src/eval/snapshot.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "src/interp/driver.h"
#include "src/eval/operators.h"
#include "src/eval/snapshot_internal.h"
#include "src/lir/status_macros.h"

namespace lir::eval {
namespace {

using snapshot_internal::AtNode;

std::string LocalName(uint64_t id) { return absl::StrCat("l", id); }

absl::Status ShadowingError(const Node& node, uint64_t id) {
  return AtNode(node, absl::InvalidArgumentError(absl::StrCat(
                          LocalName(id), " is already bound (shadowing)")));
}

/// The iteration bound of a LetRec: the smallest max_iters among its
/// bindings (the first such binding's return_at_limit decides), if any.
struct IterationBound {
  std::optional<uint64_t> limit;
  bool return_at_limit = false;
};

IterationBound BoundOf(const LetRecOp& op) {
  IterationBound bound;
  for (const std::optional<LetRecLimit>& limit : op.limits) {
    if (!limit.has_value()) continue;
    if (!bound.limit.has_value() || limit->max_iters < *bound.limit) {
      bound.limit = limit->max_iters;
      bound.return_at_limit = limit->return_at_limit;
    }
  }
  return bound;
}

/// Evaluates one plan over one environment.
class Walker {
 public:
  explicit Walker(const SnapshotEnv& env) : env_(env) {}

  absl::StatusOr<Multiset> Run(const Node& root) {
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
            LIR_ASSIGN_OR_RETURN(Multiset result, Visit(node, f.base));
            values_.resize(f.base);
            LIR_RETURN_IF_ERROR(Complete(std::move(result)));
          }
          break;
      }
    }
    return std::move(result_);
  }

 private:
  /// One node being evaluated: `next` counts the inputs started; finished
  /// inputs wait on values_ from `base` on.
  struct Frame {
    const Node* node;
    uint32_t next = 0;
    size_t base = 0;
    // LetRec only: completed iterations, and whether the running one
    // changed a binding.
    uint64_t iterations = 0;
    bool changed = false;
  };

  absl::Status Enter(const Node& node) {
    LIR_RETURN_IF_ERROR(interp::driver_internal::CheckInputs(node));
    Frame frame{&node, 0, values_.size()};
    if (node.Is<LetRecOp>()) {
      for (uint64_t id : node.As<LetRecOp>().ids) {
        LIR_RETURN_IF_ERROR(Bind(node, id, Multiset()));
      }
    }
    frames_.push_back(frame);
    return absl::OkStatus();
  }

  bool IsBound(uint64_t id) const {
    return bindings_.contains(id) || env_.locals.contains(id);
  }

  absl::Status Bind(const Node& node, uint64_t id, Multiset value) {
    if (IsBound(id)) {
      return ShadowingError(node, id);
    }
    bindings_.emplace(id, std::move(value));
    return absl::OkStatus();
  }

  /// Let {value, body}: the value's result is bound when it is delivered
  /// (Complete), the binding dropped when the body's is.
  absl::Status StepLet(Frame& f) {
    const Node& node = *f.node;
    if (f.next < 2) {
      ++f.next;
      return Enter(*node.inputs[f.next - 1]);
    }
    Multiset result = std::move(values_.back());
    values_.pop_back();
    bindings_.erase(node.As<LetOp>().id);
    return Complete(std::move(result));
  }

  /// LetRec {values..., body}: iterations over the values, then the body.
  absl::Status StepLetRec(Frame& f) {
    const Node& node = *f.node;
    const LetRecOp& op = node.As<LetRecOp>();
    const size_t count = op.ids.size();
    if (f.next < count) {
      ++f.next;
      return Enter(*node.inputs[f.next - 1]);
    }
    if (f.next == count) {
      ++f.iterations;
      if (f.changed) {
        const IterationBound bound = BoundOf(op);
        if (bound.limit.has_value() && f.iterations >= *bound.limit) {
          if (!bound.return_at_limit) {
            return AtNode(node, absl::OutOfRangeError(absl::StrCat(
                                    "recursion limit exceeded (", *bound.limit,
                                    " iterations)")));
          }
        } else if (f.iterations >= kSnapshotLetRecCap) {
          return AtNode(node, absl::OutOfRangeError(absl::StrCat(
                                  "did not converge in ", kSnapshotLetRecCap,
                                  " iterations")));
        } else {
          f.changed = false;
          f.next = 0;
          return absl::OkStatus();
        }
      }
      ++f.next;
      return Enter(*node.inputs[count]);
    }
    Multiset result = std::move(values_.back());
    values_.pop_back();
    for (uint64_t id : op.ids) bindings_.erase(id);
    return Complete(std::move(result));
  }

  /// Hands the finished top frame's result to its parent.
  absl::Status Complete(Multiset result) {
    frames_.pop_back();
    if (frames_.empty()) {
      result_ = std::move(result);
      return absl::OkStatus();
    }
    Frame& parent = frames_.back();
    const Node& pnode = *parent.node;
    if (pnode.Is<LetOp>() && parent.next == 1) {
      return Bind(pnode, pnode.As<LetOp>().id, std::move(result));
    }
    if (pnode.Is<LetRecOp>()) {
      const LetRecOp& op = pnode.As<LetRecOp>();
      const size_t index = parent.next - 1;
      if (index < op.ids.size()) {
        // Rebinding at once makes the new value visible to later bindings
        // of this iteration.
        Multiset& binding = bindings_[op.ids[index]];
        if (binding != result) {
          binding = std::move(result);
          parent.changed = true;
        }
        return absl::OkStatus();
      }
    }
    values_.push_back(std::move(result));
    return absl::OkStatus();
  }

  absl::StatusOr<const Multiset*> Lookup(const Node& node,
                                         const CollectionId& id) const {
    if (id.is_local) {
      if (auto it = bindings_.find(id.local); it != bindings_.end()) {
        return &it->second;
      }
      if (auto it = env_.locals.find(id.local);
          it != env_.locals.end() && it->second != nullptr) {
        return it->second;
      }
      return AtNode(node, absl::InvalidArgumentError(absl::StrCat(
                              LocalName(id.local), " is not bound here")));
    }
    if (auto it = env_.globals.find(id.global);
        it != env_.globals.end() && it->second != nullptr) {
      return it->second;
    }
    return AtNode(node, absl::InvalidArgumentError(absl::StrCat(
                            "no data for collection ", id.global)));
  }

  absl::StatusOr<Multiset> Visit(const Node& node, size_t base) {
    absl::StatusOr<Multiset> result;
    if (node.Is<GetOp>()) {
      const GetOp& op = node.As<GetOp>();
      LIR_ASSIGN_OR_RETURN(const Multiset* source, Lookup(node, op.id));
      result = snapshot_internal::ComputeGet(node, *source, Clock());
    } else {
      std::span<Multiset> inputs(values_.data() + base, values_.size() - base);
      result = snapshot_internal::ComputeNode(
          node, inputs, env_.check_delta_paths, Clock());
    }
    if (!result.ok()) return AtNode(node, result.status());
    return result;
  }

  snapshot_internal::Clock Clock() const {
    return snapshot_internal::Clock{env_.now, env_.next};
  }

  const SnapshotEnv& env_;
  absl::flat_hash_map<uint64_t, Multiset> bindings_;
  std::vector<Frame> frames_;
  std::vector<Multiset> values_;
  Multiset result_;
};

/// The snapshot engine as a Dataflow: accumulated inputs, previous output.
class SnapshotDataflow : public Dataflow {
 public:
  SnapshotDataflow(const Node& plan, DataflowOptions options)
      : plan_(plan), options_(std::move(options)) {
    for (const auto& [name, arity] : options_.globals) contents_[name];
    env_.check_delta_paths = true;
    for (const auto& [name, contents] : contents_) {
      env_.globals[name] = &contents;
    }
  }

  absl::StatusOr<Multiset> Step(uint64_t round,
                                const GlobalChanges& changes) override {
    if (failed_) {
      return absl::FailedPreconditionError(
          "the dataflow failed at an earlier round");
    }
    if (round < next_round_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "round ", round, " stepped, expected round ", next_round_,
          " or later"));
    }
    ++activations_;
    env_.now = round;
    temporal_next_.reset();
    env_.next = &temporal_next_;
    absl::StatusOr<Multiset> result = RunRound(changes);
    if (!result.ok()) failed_ = true;
    next_round_ = round + 1;
    return result;
  }

  std::optional<uint64_t> NextTemporalRound() const override {
    return temporal_next_;
  }

  std::vector<ArrangementStats> Arrangements() const override { return {}; }

  uint64_t Activations() const override { return activations_; }

 private:
  absl::StatusOr<Multiset> RunRound(const GlobalChanges& changes) {
    for (const auto& [name, delta] : changes) {
      auto it = contents_.find(name);
      if (it == contents_.end()) continue;  // not in options.globals
      const int arity = options_.globals.at(name);
      for (const RowDiff& entry : delta) {
        if (arity >= 0 && entry.first.size() != static_cast<size_t>(arity)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "change ", FormatRow(entry.first), " of ", name, " has ",
              entry.first.size(), " columns, expected ", arity));
        }
      }
      // Consolidating the concatenation (rather than AddMultisets) also
      // accepts changes that are not consolidated.
      std::vector<RowDiff> all = std::move(it->second);
      all.insert(all.end(), delta.begin(), delta.end());
      LIR_ASSIGN_OR_RETURN(it->second, Consolidate(std::move(all)));
    }
    LIR_ASSIGN_OR_RETURN(Multiset output, EvaluateSnapshot(plan_, env_));
    LIR_ASSIGN_OR_RETURN(Multiset diff, DiffMultisets(output, output_));
    output_ = std::move(output);
    return diff;
  }

  const Node& plan_;
  DataflowOptions options_;
  // node_hash_map would also do; flat_hash_map values move on rehash, but
  // no key is added after construction, so env_'s pointers stay valid.
  absl::flat_hash_map<std::string, Multiset> contents_;
  SnapshotEnv env_;
  Multiset output_;
  uint64_t next_round_ = 0;
  // The next round at which a temporal filter's output may change, as the
  // last round's evaluation found it.
  std::optional<uint64_t> temporal_next_;
  uint64_t activations_ = 0;
  bool failed_ = false;
};

}  // namespace

absl::StatusOr<Multiset> EvaluateSnapshot(const Node& plan,
                                          const SnapshotEnv& env) {
  return Walker(env).Run(plan);
}

absl::Status CheckSnapshotPlan(const Node& plan,
                               const DataflowOptions& options) {
  // Walks with enter/exit events so that Let and LetRec scopes are known.
  struct Frame {
    const Node* node;
    size_t next;
  };
  absl::flat_hash_set<uint64_t> scope;
  std::vector<Frame> stack;
  auto enter = [&](const Node& node) -> absl::Status {
    LIR_RETURN_IF_ERROR(interp::driver_internal::CheckInputs(node));
    absl::Status payload = CheckNode(node);
    if (!payload.ok()) return AtNode(node, payload);
    switch (node.kind()) {
      case NodeKind::kGet: {
        const CollectionId& id = node.As<GetOp>().id;
        if (id.is_local && !scope.contains(id.local)) {
          return AtNode(node, absl::InvalidArgumentError(absl::StrCat(
                                  LocalName(id.local), " is not bound here")));
        }
        if (!id.is_local && !options.globals.contains(id.global)) {
          return AtNode(node, absl::InvalidArgumentError(absl::StrCat(
                                  "no data for collection ", id.global)));
        }
        break;
      }
      case NodeKind::kJoin: {
        absl::Status shape = snapshot_internal::CheckJoinShape(
            node.As<JoinOp>(), node.inputs.size());
        if (!shape.ok()) return AtNode(node, shape);
        break;
      }
      case NodeKind::kLetRec:
        for (uint64_t id : node.As<LetRecOp>().ids) {
          if (!scope.insert(id).second) {
            return ShadowingError(node, id);
          }
        }
        break;
      default:
        break;
    }
    stack.push_back({&node, 0});
    return absl::OkStatus();
  };
  LIR_RETURN_IF_ERROR(enter(plan));
  while (!stack.empty()) {
    Frame& top = stack.back();
    const Node& node = *top.node;
    if (top.next < node.inputs.size()) {
      const size_t index = top.next++;
      // A Let's id is in scope for its body only.
      if (node.Is<LetOp>() && index == 1) {
        const uint64_t id = node.As<LetOp>().id;
        if (!scope.insert(id).second) {
          return ShadowingError(node, id);
        }
      }
      LIR_RETURN_IF_ERROR(enter(*node.inputs[index]));
      continue;
    }
    if (node.Is<LetOp>()) scope.erase(node.As<LetOp>().id);
    if (node.Is<LetRecOp>()) {
      for (uint64_t id : node.As<LetRecOp>().ids) scope.erase(id);
    }
    stack.pop_back();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Dataflow>> MakeSnapshotDataflow(
    const Node& plan, const DataflowOptions& options) {
  LIR_RETURN_IF_ERROR(CheckSnapshotPlan(plan, options));
  return std::unique_ptr<Dataflow>(new SnapshotDataflow(plan, options));
}

}  // namespace lir::eval
