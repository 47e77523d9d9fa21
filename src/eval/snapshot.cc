// The snapshot engine: a scoped walk over the plan (include/lir/walk.h) that
// computes every node's whole output (snapshot_ops.cc), binds Let and LetRec
// locals, and iterates LetRec to a fixed point; plus the Dataflow that
// re-runs it every round.
#include "lir/eval/snapshot.h"
#include "lir/partial.h"

#include <algorithm>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/budget.h"
#include "lir/node_error.h"
#include "lir/status_macros.h"
#include "lir/walk.h"
#include "src/eval/operators.h"
#include "src/eval/snapshot_internal.h"

namespace lir::eval {
namespace {

std::string LocalName(uint64_t id) { return absl::StrCat("l", id); }

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

/// Evaluates one plan over one environment: a visitor of the scoped walker
/// (include/lir/walk.h), which owns Let/LetRec order and scoping; LetRec values
/// are iterated until no binding changes.
class SnapshotVisitor : public ScopedVisitorBase<Multiset> {
 public:
  /// Completed iterations of the LetRec being walked.
  struct LetRecState {
    uint64_t iterations = 0;
  };

  explicit SnapshotVisitor(const SnapshotEnv& env) : env_(env) {}

  /// Free locals of the environment can be read (not rebound).
  bool BoundOutside(uint64_t id) const { return env_.locals.contains(id); }

  /// A Let binds its value; a LetRec binding starts empty.
  absl::Status Bind(const Node& binder, uint64_t id, Multiset* value) {
    bindings_.insert_or_assign(
        id, value == nullptr ? Multiset() : std::move(*value));
    return absl::OkStatus();
  }

  /// Drops the binding of `id`.
  void Unbind(const Node& binder, uint64_t id) { bindings_.erase(id); }

  /// Rebinding at once makes the new value visible to later bindings of
  /// this iteration.
  absl::StatusOr<bool> UpdateLetRec(const Node& let_rec, size_t index,
                                    Multiset& value, LetRecState& state) {
    Multiset& binding = bindings_[let_rec.As<LetRecOp>().ids[index]];
    if (binding == value) return false;
    binding = std::move(value);
    return true;
  }

  /// Iterates while an iteration changes a binding, up to the LetRec's
  /// recursion limit (an error, or the body over the last values when it
  /// says return_at_limit) or SnapshotEnv::max_iterations iterations (an
  /// error).
  absl::StatusOr<LetRecNext> EndLetRecRound(const Node& let_rec,
                                            LetRecState& state, bool changed) {
    ++state.iterations;
    if (!changed) return LetRecNext::kBody;
    const IterationBound bound = BoundOf(let_rec.As<LetRecOp>());
    if (bound.limit.has_value() && state.iterations >= *bound.limit) {
      if (!bound.return_at_limit) {
        return NodeError(let_rec, absl::StatusCode::kOutOfRange,
                         absl::StrCat("recursion limit exceeded (",
                                      *bound.limit, " iterations)"));
      }
      return LetRecNext::kBody;
    }
    if (state.iterations >= env_.max_iterations) {
      return AttachNode(let_rec, IterationLimitError(env_.max_iterations));
    }
    return LetRecNext::kRepeat;
  }

  /// The node's whole output; Let and LetRec pass on their body's. An
  /// output over the row budget, or memory running out, is an error of the
  /// node.
  absl::StatusOr<Multiset> Leave(const Node& node, const WalkContext& ctx,
                                 std::span<Multiset> inputs) {
    if (node.Is<LetOp>() || node.Is<LetRecOp>()) {
      return std::move(inputs.back());
    }
    absl::StatusOr<Multiset> result;
    try {
      result = Compute(node, inputs);
    } catch (const std::bad_alloc&) {
      result = OutOfMemoryError(env_.now);
    }
    if (result.ok()) {
      absl::Status within =
          CheckOperatorOutput(*result, env_.max_rows_per_round,
                              env_.max_bytes_per_round, env_.work, env_.now);
      if (!within.ok()) result = within;
    }
    if (!result.ok()) return AttachNode(node, result.status());
    return result;
  }

 private:
  absl::StatusOr<Multiset> Compute(const Node& node,
                                   std::span<Multiset> inputs) const {
    if (node.Is<GetOp>()) {
      const GetOp& op = node.As<GetOp>();
      LIR_ASSIGN_OR_RETURN(const Multiset* source, Lookup(node, op.id));
      return snapshot_internal::ComputeGet(node, *source, Clock());
    }
    return snapshot_internal::ComputeNode(node, inputs, env_.check_delta_paths,
                                          Clock());
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
      return NodeError(node, absl::StatusCode::kInvalidArgument,
                       absl::StrCat(LocalName(id.local), " is not bound here"));
    }
    if (auto it = env_.globals.find(id.global);
        it != env_.globals.end() && it->second != nullptr) {
      return it->second;
    }
    return NodeError(node, absl::StatusCode::kInvalidArgument,
                     absl::StrCat("no data for collection ", id.global));
  }

  snapshot_internal::Clock Clock() const {
    return snapshot_internal::Clock{
        env_.now, env_.next, env_.max_rows_per_round, env_.max_bytes_per_round};
  }

  const SnapshotEnv& env_;
  absl::flat_hash_map<uint64_t, Multiset> bindings_;
};

/// The snapshot engine as a Dataflow: accumulated inputs, previous output.
class SnapshotDataflow : public Dataflow {
 public:
  SnapshotDataflow(const Node& plan, DataflowOptions options)
      : plan_(plan), options_(std::move(options)) {
    for (const auto& [name, arity] : options_.globals) contents_[name];
    env_.check_delta_paths = true;
    env_.max_rows_per_round = options_.max_rows_per_round;
    env_.max_iterations = options_.max_iterations;
    env_.max_bytes_per_round = options_.max_bytes_per_round;
    env_.work = options_.work;
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
      return absl::InvalidArgumentError(
          absl::StrCat("round ", round, " stepped, expected round ",
                       next_round_, " or later"));
    }
    ++activations_;
    env_.now = round;
    temporal_next_.reset();
    env_.next = &temporal_next_;
    absl::StatusOr<Multiset> result;
    try {
      result = RunRound(changes);
    } catch (const std::bad_alloc&) {
      result = OutOfMemoryError(round);
    }
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
  LIR_RETURN_IF_ERROR(RequireKnownFacts(plan, "the evaluator"));
  SnapshotVisitor visitor(env);
  return WalkScoped(plan, visitor);
}

absl::StatusOr<std::unique_ptr<Dataflow>> MakeSnapshotDataflow(
    const Node& plan, const DataflowOptions& options) {
  LIR_RETURN_IF_ERROR(CheckDataflowPlan(plan, options));
  return std::unique_ptr<Dataflow>(new SnapshotDataflow(plan, options));
}

}  // namespace lir::eval
