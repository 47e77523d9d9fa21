// What an evaluation engine is: a dataflow for one object's plan, stepped
// round by round with the changes of its global inputs, producing the
// changes of its output; plus the arrangements it maintains.
//
// Two engines implement it (../shared/reference/SEMANTICS.md section 6): the
// snapshot engine (snapshot.h) recomputes the whole plan from the accumulated
// inputs each round and diffs against its previous output; the incremental
// engine (incremental.h) pushes each round's changes through operators that
// keep arrangements.
#ifndef LIR_EVAL_DATAFLOW_H_
#define LIR_EVAL_DATAFLOW_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/budget.h"
#include "lir/eval/datum.h"
#include "lir/eval/spine.h"
#include "lir/interp/arity.h"
#include "lir/node.h"

namespace lir::eval {

/// What happens to an arrangement's history after each round.
enum class Compaction {
  /// Consolidate every arrangement to the current round after each round:
  /// updates to the same (key, value) merge into one record, and records
  /// whose diffs cancel disappear (one batch).
  kEager,
  /// Keep every update as delivered, one batch per round that changed it.
  kNone,
};

/// The fueled spine every arrangement of the incremental engine also keeps
/// (`lir-opt run --spine`; ../shared/reference/SPINE.md, spine.h): what
/// differential's merging would cost, measured beside the trace, which it
/// never changes. Each round's updates of an arrangement are one batch.
struct SpineOptions {
  /// The exertion policy; Materialize's compute default.
  spine::Policy policy{spine::Policy::Kind::kProportional, 16};
  spine::Exertion exertion = spine::Exertion::kStock;
  /// Idle turns after each round's activation (and after the close), taken
  /// while the spine requests them.
  uint64_t idle_turns = 0;
  /// At the close, check that the spine's batches hold exactly the trace's
  /// updates (summed over time): a self-check for tests, costing a pass
  /// over both.
  bool verify = false;
};

/// What an arrangement's spine holds and did (SpineOptions).
struct SpineStats {
  /// Non-empty batches held (each input of a merge in progress counts).
  uint64_t batches = 0;
  /// Updates held in those batches, consolidated within each batch but not
  /// across them.
  uint64_t records = 0;
  /// Records written by merges, fueled or not (SPINE.md section 2).
  uint64_t merge_work = 0;
  /// Idle turns taken (each only when the spine requested one).
  uint64_t idle_turns = 0;
  /// With SpineOptions::verify, after the close: whether the check ran, and
  /// what differed when the spine did not hold the trace's updates.
  bool verified = false;
  std::optional<std::string> mismatch;
};

/// How a dataflow is built.
struct DataflowOptions {
  /// The object's name, reported with its arrangements.
  std::string object;
  /// The global collections the plan may read, with their arities; a Get of
  /// any other global id is an error when the dataflow is built.
  absl::flat_hash_map<std::string, int> globals;
  /// The plan's arity analysis (interp::AnalyzeArity with `globals`), when
  /// the caller has it: the runner analyses each object once, for the
  /// engine and for the arity of the object's output that later objects
  /// read. Null: an engine that needs it analyses the plan itself.
  std::shared_ptr<const interp::Analysis<interp::Arity>> arities;
  Compaction compaction = Compaction::kEager;
  /// Keys a fused SetDifference processes per activation; 0 is unlimited.
  /// Changes only the number of activations, never the results.
  uint64_t fuel = 0;
  /// Rows one operator may produce in one round (budget.h): the changes it
  /// emits (incremental engine) or its whole output (snapshot engine, which
  /// recomputes every round), and the rows a FlatMap or a join stage
  /// produces before consolidating them. More is a round error naming the
  /// operator.
  uint64_t max_rows_per_round = kDefaultMaxRowsPerRound;
  /// Iterations of one LetRec in one round (budget.h).
  uint64_t max_iterations = kDefaultMaxIterations;
  /// Bytes of rows (RowBytes) one operator may produce in one round, checked
  /// where the row budget is.
  uint64_t max_bytes_per_round = kDefaultMaxBytesPerRound;
  /// The run's work meter (budget.h), counting every operator's output
  /// rows; nullptr counts nothing. Not owned; outlives the dataflow.
  WorkMeter* work = nullptr;
  /// When set, every arrangement the incremental engine keeps is also a
  /// spine (the snapshot engine keeps none and ignores it).
  std::optional<SpineOptions> spine;
  /// When set, the incremental engine measures the wall time of each LIR
  /// node's own work (Dataflow::Elapsed; `lir-opt run --analyze=cpu`): two
  /// clock reads per operator run and per arrangement per round. The
  /// snapshot engine, which recomputes whole subtrees, measures nothing.
  bool measure_elapsed = false;
};

/// The wall time one LIR node's own work took, summed over the rounds
/// stepped (DataflowOptions::measure_elapsed): its operators' runs, the
/// end-of-round maintenance (merges, compaction) of the arrangements it
/// keeps, and for an index read from outside the dataflow, adding each
/// round's changes to it. Its inputs' work is theirs. A LetRec runs whole
/// in the recompute adapter, so its body's time is the LetRec's.
struct OperatorElapsed {
  std::string object;
  LirId lir_id = 0;
  uint64_t nanos = 0;
};

/// Size of one maintained arrangement (../shared/reference/SEMANTICS.md section
/// 1: records are stored updates before cancellation that has not happened
/// yet).
struct ArrangementStats {
  std::string object;
  LirId lir_id = 0;
  /// Materialize's introspection name: `ArrangeBy[[Column(0)]]`,
  /// `Threshold local`, `Arranged DistinctBy`, `DistinctBy`, `SetDifference`,
  /// ...
  std::string operator_name;
  uint64_t records = 0;
  uint64_t batches = 0;
  /// Updates inserted since the arrangement was made, each counted as it
  /// arrives (before it merges with another or compaction cancels it): the
  /// work of maintaining it. Not printed; benchmarks compare plans by it.
  uint64_t updates_inserted = 0;
  /// Estimated bytes from the layout model in docs/evaluator.md.
  uint64_t bytes = 0;
  /// Kept by the recompute-and-diff adapter (a node kind the incremental
  /// engine does not run natively), not by a native operator.
  bool adapter = false;
  /// The arrangement's spine, when DataflowOptions::spine is set.
  std::optional<SpineStats> spine;
};

/// Changes of a set of global collections at one round; a collection absent
/// from the map did not change.
using GlobalChanges = absl::flat_hash_map<std::string, Multiset>;

/// One object's running dataflow.
class Dataflow {
 public:
  virtual ~Dataflow() = default;

  /// Runs round `round` (called with increasing rounds: 0, 1, 2, ... up to
  /// the data's last round, then possibly with gaps, the rounds temporal
  /// filters have updates due, NextTemporalRound): `changes` are
  /// the updates of the global inputs at exactly this round, consolidated.
  /// Returns the consolidated changes of the output at this round. An error
  /// (division by zero, overflow, a recursion limit) is an error of this
  /// round; the dataflow must not be stepped again after one.
  virtual absl::StatusOr<Multiset> Step(uint64_t round,
                                        const GlobalChanges& changes) = 0;

  /// The arrangements the dataflow maintains now, in plan post-order.
  virtual std::vector<ArrangementStats> Arrangements() const = 0;

  /// The earliest round after the last stepped one at which a temporal
  /// filter of the dataflow has an update due (incremental engine: its
  /// pending queues) or may change its output (snapshot engine: the bounds
  /// of the rows it read); nullopt when none. Stepping that round may
  /// change nothing (the updates may cancel); never stepping it may miss a
  /// change.
  virtual std::optional<uint64_t> NextTemporalRound() const {
    return std::nullopt;
  }

  /// Operator activations so far (a fused SetDifference with fuel F and D
  /// dirty keys in a round takes ceil(D / F) activations).
  virtual uint64_t Activations() const { return 0; }

  /// Each LIR node's measured time so far, ascending by LirId: every node
  /// with an operator or an arrangement (zero until it first works); empty
  /// unless DataflowOptions::measure_elapsed.
  virtual std::vector<OperatorElapsed> Elapsed() const { return {}; }

  /// The inputs' last frontier: no round follows. Closes every
  /// arrangement's spine (DataflowOptions::spine), which then merges as
  /// its policy asks; a no-op without spines. Called once, after the last
  /// Step (also after a failed one).
  virtual void CloseInput() {}
};

/// Checks, before any data, that `plan` can be run by either engine with
/// the globals of `options`: input counts, every node's payload (CheckNode:
/// Unimplemented for unsupported functions, aggregates, table functions),
/// join relation indices, local scoping (bound, no shadowing, distinct
/// LetRec ids) and that every global read is in options.globals
/// (InvalidArgument `no data for collection NAME`). Errors name the node.
/// Both engines call it when they are built (plan_check.cc).
absl::Status CheckDataflowPlan(const Node& plan,
                               const DataflowOptions& options);

}  // namespace lir::eval

#endif  // LIR_EVAL_DATAFLOW_H_
