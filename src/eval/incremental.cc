// The incremental engine's dataflow: builds one operator per plan node in
// post-order (with the scoped walker, so iteratively), then runs them in that
// order every round, each reading its inputs' changes of the round and the
// arrangements it shares.
#include "lir/eval/incremental.h"

#include <chrono>
#include <map>
#include <new>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/budget.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/snapshot.h"
#include "lir/interp/arity.h"
#include "lir/node_error.h"
#include "lir/status_macros.h"
#include "lir/walk.h"
#include "src/eval/incremental_internal.h"

namespace lir::eval {
namespace {

using incremental_internal::Graph;
using incremental_internal::Operator;
using incremental_internal::Round;

absl::StatusOr<size_t> BuildOne(const Node& node, Graph& graph) {
  using namespace incremental_internal;  // NOLINT: the Build* family
  switch (node.kind()) {
    case NodeKind::kConstant:
    case NodeKind::kGet:
    case NodeKind::kLet:
    case NodeKind::kMfp:
    case NodeKind::kFlatMap:
    case NodeKind::kNegate:
    case NodeKind::kUnion: return BuildLinearOp(node, graph);
    case NodeKind::kArrangeBy: return BuildArrangeBy(node, graph);
    case NodeKind::kThreshold: return BuildThreshold(node, graph);
    case NodeKind::kSetDifference: return BuildSetDifference(node, graph);
    case NodeKind::kAntiJoin: return BuildAntiJoin(node, graph);
    case NodeKind::kReduce: return BuildReduce(node, graph);
    case NodeKind::kTopK: return BuildTopK(node, graph);
    case NodeKind::kJoin: return BuildJoin(node, graph);
    case NodeKind::kLetRec: return BuildLetRecAdapter(node, graph);
  }
  return absl::InternalError("unknown node kind");
}

/// Builds one operator per node in post-order: a visitor of the scoped
/// walker (include/lir/walk.h). A Let's value is built before its body, which
/// may then read it.
class GraphBuilder : public ScopedVisitorBase<std::monostate> {
 public:
  explicit GraphBuilder(Graph& graph) : graph_(graph) {}

  /// A LetRec runs whole in the adapter: its subtree gets no operators.
  bool Descend(const Node& node) const { return !node.Is<LetRecOp>(); }

  /// The value is built: the body may read it.
  absl::Status Bind(const Node& binder, uint64_t id, std::monostate*) {
    graph_.locals[id] = graph_.OpOf(binder.inputs[0].get());
    return absl::OkStatus();
  }

  /// Builds `node`'s operator.
  absl::StatusOr<std::monostate> Leave(const Node& node, const WalkContext&,
                                       std::span<std::monostate>) {
    absl::StatusOr<size_t> built = BuildOne(node, graph_);
    if (!built.ok()) return AttachNode(node, built.status());
    return std::monostate();
  }

 private:
  Graph& graph_;
};

class IncrementalDataflow : public Dataflow {
 public:
  IncrementalDataflow(const Node& plan, DataflowOptions options)
      : plan_(plan), options_(std::move(options)), graph_(options_) {}

  absl::Status Build() {
    // The caller's analysis when it has one (the runner's), else our own.
    arities_ = options_.arities;
    if (arities_ == nullptr) {
      std::map<std::string, int> given(options_.globals.begin(),
                                       options_.globals.end());
      absl::StatusOr<interp::Analysis<interp::Arity>> arities =
          interp::AnalyzeArity(plan_, given);
      if (arities.ok()) {
        arities_ = std::make_shared<const interp::Analysis<interp::Arity>>(
            *std::move(arities));
      }
    }
    graph_.arities = arities_.get();
    GraphBuilder builder(graph_);
    LIR_RETURN_IF_ERROR(WalkScoped(plan_, builder).status());
    // Operators run in index order, so the reader with the highest index
    // reads a delta last and may take it (unless it lists it twice).
    constexpr size_t kNone = static_cast<size_t>(-1);
    const auto& ops = graph_.ops();
    last_reader_.assign(ops.size(), kNone);
    std::vector<size_t> reads(ops.size(), 0);
    for (size_t i = 0; i < ops.size(); ++i) {
      for (size_t input : ops[i]->inputs) {
        reads[input] = last_reader_[input] == i ? reads[input] + 1 : 1;
        last_reader_[input] = i;
      }
    }
    for (size_t i = 0; i < ops.size(); ++i) {
      if (reads[i] > 1) last_reader_[i] = kNone;
    }
    if (options_.measure_elapsed) {
      // Every node with an operator or an arrangement is measured, at zero
      // until it first works; a node without either (inside a LetRec's
      // adapter) has no time of its own.
      for (const auto& op : ops) elapsed_[op->node().id];
      for (const auto& trace : graph_.traces()) {
        elapsed_[trace->info().lir_id];
      }
      for (const Graph::ImportEntry& import : graph_.imports()) {
        elapsed_[import.trace->info().lir_id];
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Multiset> Step(uint64_t round,
                                const GlobalChanges& changes) override {
    if (failed_) {
      return absl::FailedPreconditionError(
          "the dataflow failed in an earlier round");
    }
    if (stepped_ && round <= last_round_) {
      return absl::InvalidArgumentError(
          absl::StrCat("round ", round, " after round ", last_round_));
    }
    absl::StatusOr<Multiset> out;
    try {
      out = RunRound(round, changes);
    } catch (const std::bad_alloc&) {
      out = OutOfMemoryError(round);
    }
    if (!out.ok()) failed_ = true;
    stepped_ = true;
    last_round_ = round;
    return out;
  }

  std::vector<ArrangementStats> Arrangements() const override {
    std::vector<ArrangementStats> stats;
    for (const auto& trace : graph_.traces()) {
      stats.push_back(trace->Stats(options_.object));
    }
    return stats;
  }

  uint64_t Activations() const override { return activations_; }

  std::vector<OperatorElapsed> Elapsed() const override {
    std::vector<OperatorElapsed> out;
    out.reserve(elapsed_.size());
    for (const auto& [id, nanos] : elapsed_) {
      out.push_back({options_.object, id, nanos});
    }
    return out;
  }

  void CloseInput() override {
    for (const auto& trace : graph_.traces()) trace->CloseSpine();
  }

  std::optional<uint64_t> NextTemporalRound() const override {
    std::optional<uint64_t> next;
    for (const auto& op : graph_.ops()) {
      std::optional<uint64_t> due = op->PendingRound();
      if (due.has_value() && (!next.has_value() || *due < *next)) next = due;
    }
    return next;
  }

 private:
  // Adds the wall time of its scope to a node's elapsed time, when the
  // dataflow measures it.
  class Stopwatch {
   public:
    Stopwatch(IncrementalDataflow& dataflow, LirId id)
        : dataflow_(dataflow.options_.measure_elapsed ? &dataflow : nullptr),
          id_(id) {
      if (dataflow_ != nullptr) start_ = std::chrono::steady_clock::now();
    }
    ~Stopwatch() {
      if (dataflow_ == nullptr) return;
      const auto spent = std::chrono::steady_clock::now() - start_;
      dataflow_->elapsed_[id_] += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(spent).count());
    }
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;

   private:
    IncrementalDataflow* dataflow_;
    LirId id_;
    std::chrono::steady_clock::time_point start_;
  };

  absl::StatusOr<Multiset> RunRound(uint64_t round,
                                    const GlobalChanges& changes) {
    // Indexes kept outside the dataflow see their collection's changes
    // before any operator runs.
    for (const Graph::ImportEntry& import : graph_.imports()) {
      auto it = changes.find(import.global);
      if (it == changes.end()) continue;
      Stopwatch watch(*this, import.trace->info().lir_id);
      Trace::BatchInserter batch(*import.trace, round, it->second.size());
      for (const auto& [row, diff] : it->second) {
        absl::StatusOr<DataRow> key =
            import.compiled_key.ok()
                ? import.compiled_key->Eval(row)
                : absl::StatusOr<DataRow>(import.compiled_key.status());
        if (!key.ok()) {
          return batch.FinishWith(absl::InvalidArgumentError(absl::StrCat(
              "index of ", import.global, ": ", key.status().message())));
        }
        LIR_RETURN_IF_ERROR(batch.Add(std::move(*key), row, diff));
      }
      LIR_RETURN_IF_ERROR(batch.Finish());
    }
    std::vector<std::unique_ptr<Operator>>& ops = graph_.ops();
    std::vector<Multiset> deltas(ops.size());
    Round r;
    r.round = round;
    r.globals = &changes;
    r.deltas = &deltas;
    r.last_reader = &last_reader_;
    r.fuel = options_.fuel;
    r.max_rows = options_.max_rows_per_round;
    r.max_bytes = options_.max_bytes_per_round;
    r.work = options_.work;
    for (size_t i = 0; i < ops.size(); ++i) {
      Operator& op = *ops[i];
      r.current = i;
      if (!op.AlwaysRun()) {
        bool quiet = true;
        for (size_t input : op.inputs) quiet = quiet && deltas[input].empty();
        if (quiet) continue;
      }
      absl::StatusOr<Multiset> out;
      try {
        Stopwatch watch(*this, op.node().id);
        out = op.Run(r);
      } catch (const std::bad_alloc&) {
        out = OutOfMemoryError(round);
      }
      if (out.ok()) {
        absl::Status within =
            CheckOperatorOutput(*out, r.max_rows, r.max_bytes, r.work, round);
        if (!within.ok()) out = within;
      }
      if (!out.ok()) return AttachNode(op.node(), out.status());
      if (!op.CountsOwnActivations()) ++activations_;
      deltas[i] = std::move(*out);
    }
    activations_ += r.activations;
    for (const auto& trace : graph_.traces()) {
      Stopwatch watch(*this, trace->info().lir_id);
      LIR_RETURN_IF_ERROR(trace->EndRound(round, options_.compaction));
    }
    return ops.empty() ? Multiset{} : std::move(deltas.back());
  }

  const Node& plan_;
  DataflowOptions options_;
  Graph graph_;
  std::shared_ptr<const interp::Analysis<interp::Arity>> arities_;
  /// Round::last_reader.
  std::vector<size_t> last_reader_;
  uint64_t activations_ = 0;
  /// Nanoseconds per LirId (DataflowOptions::measure_elapsed).
  absl::btree_map<LirId, uint64_t> elapsed_;
  bool failed_ = false;
  bool stepped_ = false;
  uint64_t last_round_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Dataflow>> MakeIncrementalDataflow(
    const Node& plan, const DataflowOptions& options) {
  LIR_RETURN_IF_ERROR(CheckDataflowPlan(plan, options));
  auto dataflow = std::make_unique<IncrementalDataflow>(plan, options);
  LIR_RETURN_IF_ERROR(dataflow->Build());
  return std::unique_ptr<Dataflow>(std::move(dataflow));
}

}  // namespace lir::eval
