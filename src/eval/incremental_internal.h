// Internals of the incremental engine: the operator interface, the graph
// the factory builds (operators in plan post-order, which is also their
// execution order) and the per-kind operator constructors.
#ifndef LIR_EVAL_INCREMENTAL_INTERNAL_H_
#define LIR_EVAL_INCREMENTAL_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/eval/budget.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/interp/arity.h"
#include "lir/node.h"
#include "src/eval/trace.h"

namespace lir::eval::incremental_internal {

/// What an operator sees while it runs one round.
struct Round {
  uint64_t round = 0;
  const GlobalChanges* globals = nullptr;
  /// This round's output changes of every operator that ran before, by
  /// operator index.
  std::vector<Multiset>* deltas = nullptr;
  /// By operator index: the operator that reads its changes last in a round
  /// (SIZE_MAX: none, or one reading them twice), which may take them.
  const std::vector<size_t>* last_reader = nullptr;
  /// The operator running now.
  size_t current = 0;
  /// Keys per fused SetDifference activation (0: unlimited).
  uint64_t fuel = 0;
  /// Rows one operator may produce this round (DataflowOptions, budget.h):
  /// FlatMap and Join count what they make as they go; the engine checks
  /// every operator's output.
  uint64_t max_rows = kUnlimited;
  /// Bytes of rows one operator may produce this round (RowBytes).
  uint64_t max_bytes = kUnlimited;
  /// The run's work meter (DataflowOptions::work); may be null.
  WorkMeter* work = nullptr;
  /// Activations reported by operators that count their own.
  uint64_t activations = 0;

  const Multiset& delta(size_t op) const { return (*deltas)[op]; }
  /// Operator `op`'s changes for the running operator to keep: moved out
  /// when no later operator reads them, else copied.
  Multiset TakeDelta(size_t op) {
    if ((*last_reader)[op] == current) return std::move((*deltas)[op]);
    return (*deltas)[op];
  }
};

/// An arrangement of an operator's output that consumers may read: `key`
/// evaluated on the output rows, stored in `trace` (values are the rows).
struct Offered {
  std::vector<ScalarExpr> key;
  Trace* trace = nullptr;
};

/// One operator of the dataflow.
class Operator {
 public:
  explicit Operator(const Node& node) : node_(&node) {}
  virtual ~Operator() = default;

  /// This round's output changes, consolidated. Errors are not yet
  /// prefixed with the node.
  virtual absl::StatusOr<Multiset> Run(Round& round) = 0;
  /// Whether the operator must run even when every input delta is empty
  /// (sources, operators reading traces that change elsewhere).
  virtual bool AlwaysRun() const { return false; }
  /// The earliest round after the current one at which the operator has a
  /// temporal update due (temporal.h), if any; it then runs every round.
  virtual std::optional<uint64_t> PendingRound() const { return std::nullopt; }
  /// Whether Run adds its own activations to Round::activations (else the
  /// engine counts one per run).
  virtual bool CountsOwnActivations() const { return false; }

  const Node& node() const { return *node_; }

  /// Operator indices whose deltas this one reads.
  std::vector<size_t> inputs;
  /// Arrangements of this operator's output.
  std::vector<Offered> offered;

 private:
  const Node* node_;
};

/// The trace offered under `key` (names ignored), or null.
Trace* FindOffered(const std::vector<Offered>& offered,
                   const std::vector<ScalarExpr>& key);

/// `ArrangeBy[[Column(0), (#0 + #1)]]`-style key text.
std::string KeyListText(const std::vector<ScalarExpr>& key);

/// The datums of a seek value (`val=`).
absl::StatusOr<DataRow> SeekRow(const Row& row);

/// The operators being built, the traces they own (in registration order,
/// which is plan post-order) and the bindings in scope.
class Graph {
 public:
  explicit Graph(const DataflowOptions& options) : options_(options) {}

  /// Registers a new trace (with its spine when DataflowOptions::spine is
  /// set); the graph owns it.
  Trace* NewTrace(Trace::Info info);
  /// The import of global `name`'s arrangement `form` (one per name and
  /// key, shared by every Get), created on first use.
  Trace* Import(const std::string& name, const ArrangementForm& form,
                LirId lir_id);
  /// Adds an operator for `node`; returns its index.
  size_t Add(std::unique_ptr<Operator> op);

  std::vector<std::unique_ptr<Operator>>& ops() { return ops_; }
  const std::vector<std::unique_ptr<Operator>>& ops() const { return ops_; }
  Operator& op(size_t i) { return *ops_[i]; }
  /// The operator built for `node` (which must have been built).
  size_t OpOf(const Node* node) const { return op_of_.at(node); }
  bool Built(const Node* node) const { return op_of_.contains(node); }

  /// Local bindings in scope: id -> operator index of the value.
  absl::flat_hash_map<uint64_t, size_t> locals;

  const DataflowOptions& options() const { return options_; }
  /// The output arity of `node` when the arity analysis knows it.
  std::optional<int> ArityOf(const Node& node) const {
    if (arities == nullptr) return std::nullopt;
    const interp::Arity* a = arities->Find(node);
    return a == nullptr ? std::nullopt : a->ToOptional();
  }
  /// The arity analysis of the plan (may be null).
  const interp::Analysis<interp::Arity>* arities = nullptr;
  std::vector<std::unique_ptr<Trace>>& traces() { return traces_; }
  const std::vector<std::unique_ptr<Trace>>& traces() const { return traces_; }

  /// Imports: (global name, trace) in creation order.
  struct ImportEntry {
    std::string global;
    std::vector<ScalarExpr> key;
    Trace* trace;
    /// `key` compiled when the import is made; an error is reported by the
    /// first row it would key.
    absl::StatusOr<CompiledKey> compiled_key;
  };
  const std::vector<ImportEntry>& imports() const { return imports_; }

 private:
  const DataflowOptions& options_;
  std::vector<std::unique_ptr<Operator>> ops_;
  absl::flat_hash_map<const Node*, size_t> op_of_;
  std::vector<std::unique_ptr<Trace>> traces_;
  std::vector<ImportEntry> imports_;
};

/// The arrangement an arm of a fused two-input operator (SetDifference,
/// AntiJoin) reads, and how a row stored in it becomes a row of the arm.
struct ArmTrace {
  Trace* trace = nullptr;
  /// The reads between the trace's rows and the arm's output rows,
  /// innermost first: a Get reading its binding through its plan, an
  /// ArrangeBy reading its input (the trace is the input's) through its
  /// input_mfp, the projecting Mfp wrapper. Empty: the stored rows are the
  /// arm's rows.
  std::vector<const Node*> reads;
};

/// The arrangement `arm` offers on `arm_key` (columns of the arm's
/// underlying collection, ../shared/reference/SEMANTICS.md 4.3) through a
/// projection-only Mfp wrapper to a Get (the binding's arrangement) or an
/// ArrangeBy (one of its forms, or the input arrangement it reads). `key`:
/// the arm's output columns the operator matches on, which decide whether
/// an ArrangeBy's form or its input's arrangement is meant. `which` names
/// the arm in the error when there is none.
absl::StatusOr<ArmTrace> ResolveArm(const Node& arm,
                                    const std::vector<int>& key,
                                    const std::vector<int>& arm_key,
                                    Graph& graph, absl::string_view which);

/// `rows` stored in `arm.trace` as rows of the arm's output (through each
/// of `arm.reads`), consolidated.
absl::StatusOr<Multiset> ArmRows(const ArmTrace& arm, Multiset rows);

// Operator constructors, one per node kind (or family). Each builds the
// operator for `node`, whose inputs are already built, and adds it to the
// graph; they return the operator's index.
absl::StatusOr<size_t> BuildLinearOp(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildArrangeBy(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildThreshold(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildSetDifference(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildAntiJoin(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildReduce(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildTopK(const Node& node, Graph& graph);
absl::StatusOr<size_t> BuildJoin(const Node& node, Graph& graph);
/// Any node with its inputs built: a recompute-and-diff adapter over the
/// snapshot engine's meaning of the node (used for a Join::Delta whose paths
/// do not start from every input).
absl::StatusOr<size_t> BuildNodeAdapter(const Node& node, Graph& graph);
/// LetRec: the whole subtree runs in one recompute-and-diff adapter.
absl::StatusOr<size_t> BuildLetRecAdapter(const Node& node, Graph& graph);

}  // namespace lir::eval::incremental_internal

#endif  // LIR_EVAL_INCREMENTAL_INTERNAL_H_
