// The snapshot engine: the obvious oracle. Each round it recomputes the
// whole plan from the accumulated contents of its inputs (node by node, with
// the per-row and per-group meanings of operators.h) and reports the
// difference to its previous output. It keeps no arrangements.
//
// Evaluation uses an explicit stack, so plan depth is bounded only by
// memory. Let binds its value for the body (an id already bound is an
// error: no shadowing). LetRec starts every binding empty and iterates its
// values in order, each new value visible to later bindings at once, until
// an iteration changes nothing; the smallest `recursion_limit` bounds the
// iterations (reached while still changing: `return_at_limit` of the first
// binding with that limit returns the current values, otherwise error
// `recursion limit exceeded`); SnapshotEnv::max_iterations iterations
// (default 10,000) still changing give `did not converge`.
#ifndef LIR_EVAL_SNAPSHOT_H_
#define LIR_EVAL_SNAPSHOT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/budget.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/node.h"

namespace lir::eval {

/// Contents of the collections a (sub)plan may read.
struct SnapshotEnv {
  /// By global name (as Get prints it).
  absl::flat_hash_map<std::string, const Multiset*> globals;
  /// Free locals `l<N>` (bound outside the evaluated plan).
  absl::flat_hash_map<uint64_t, const Multiset*> locals;
  /// Evaluate every path of a Join::Delta (not only path 0) and fail with
  /// Internal `delta join paths disagree` when they differ: a consistency
  /// check of the plan and of the join-stage semantics, at n times the cost.
  bool check_delta_paths = false;
  /// The round evaluated: what temporal filters compare `mz_now()` with.
  uint64_t now = 0;
  /// Where temporal filters report the next round after `now` at which
  /// their output may change (lowered, never raised); a plan with a
  /// temporal filter needs it (else Internal).
  std::optional<uint64_t>* next = nullptr;
  /// Rows one node may produce (its whole output, and what a FlatMap or a
  /// join stage makes before consolidating): more is ResourceExhausted
  /// naming the node (budget.h, RowLimitError).
  uint64_t max_rows_per_round = kDefaultMaxRowsPerRound;
  /// Iterations a LetRec runs while still changing, when its own recursion
  /// limit (if any) is larger: then ResourceExhausted `did not converge`
  /// naming the LetRec (budget.h, IterationLimitError).
  uint64_t max_iterations = kDefaultMaxIterations;
  /// Bytes of rows one node may produce (budget.h, ByteLimitError).
  uint64_t max_bytes_per_round = kDefaultMaxBytesPerRound;
  /// Counts every node's output rows, each LetRec iteration again
  /// (budget.h, WorkLimitError); nullptr counts nothing. Not owned.
  WorkMeter* work = nullptr;
};

/// The consolidated contents of `plan`'s output given the contents of what
/// it reads. Errors name the node: `LirId(7) Mfp: division by zero` (the
/// code of the underlying error is kept). Iterative. Running out of memory
/// (std::bad_alloc) in a node is ResourceExhausted naming it.
absl::StatusOr<Multiset> EvaluateSnapshot(const Node& plan,
                                          const SnapshotEnv& env);

/// A Dataflow that accumulates its inputs and re-evaluates `plan` (which
/// must outlive it) every round, returning the difference to its previous
/// output. Fails to build when CheckDataflowPlan (dataflow.h) fails. Its
/// Arrangements() are empty; Activations() counts Step calls. Changes of
/// collections not in options.globals are ignored; rows whose width differs
/// from the declared arity are InvalidArgument. Delta joins are checked path
/// against path (SnapshotEnv::check_delta_paths). The budgets of `options`
/// apply (SnapshotEnv::max_rows_per_round, max_iterations).
absl::StatusOr<std::unique_ptr<Dataflow>> MakeSnapshotDataflow(
    const Node& plan, const DataflowOptions& options);

}  // namespace lir::eval

#endif  // LIR_EVAL_SNAPSHOT_H_
