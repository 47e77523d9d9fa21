// The recompute-and-diff adapter for LetRec: it keeps the accumulated
// contents of every collection the LetRec subtree reads from outside
// (globals and free locals), re-evaluates the subtree with the snapshot
// engine in rounds where any of them changed, and emits the difference to
// its previous output. Its state is reported with `adapter = true`.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/snapshot.h"
#include "lir/status_macros.h"
#include "src/eval/incremental_internal.h"
#include "src/eval/snapshot_internal.h"

namespace lir::eval::incremental_internal {
namespace {

constexpr char kAdapterName[] = "LetRec (recompute adapter)";

// Makes `output` (an adapter's record of its previous output, under an
// empty key) hold `now` from `round` on, and returns the change.
absl::StatusOr<Multiset> ReplaceContents(Trace& output, const Multiset& now,
                                         uint64_t round) {
  LIR_ASSIGN_OR_RETURN(Multiset before, output.ReadAll(round + 1));
  LIR_ASSIGN_OR_RETURN(Multiset change, DiffMultisets(now, before));
  for (const auto& [row, diff] : change) {
    LIR_RETURN_IF_ERROR(output.Insert({}, row, round, diff));
  }
  return change;
}

class LetRecAdapter : public Operator {
 public:
  using Operator::Operator;
  bool AlwaysRun() const override { return true; }

  absl::StatusOr<Multiset> Run(Round& r) override {
    bool changed = !ran_;
    ran_ = true;
    for (size_t i = 0; i < locals_.size(); ++i) {
      const Multiset& d = r.delta(inputs[i]);
      changed = changed || !d.empty();
      for (const auto& [row, diff] : d) {
        LIR_RETURN_IF_ERROR(locals_[i].trace->Insert({}, row, r.round, diff));
      }
    }
    for (Held& g : globals_) {
      auto it = r.globals->find(g.name);
      if (it == r.globals->end()) continue;
      changed = changed || !it->second.empty();
      for (const auto& [row, diff] : it->second) {
        LIR_RETURN_IF_ERROR(g.trace->Insert({}, row, r.round, diff));
      }
    }
    // A temporal filter inside may change the output without any input
    // changing: recompute at the round it reported.
    if (next_.has_value() && *next_ <= r.round) changed = true;
    if (!changed) return Multiset{};
    // Contents of everything read from outside, then the whole subtree.
    std::vector<Multiset> contents;
    contents.reserve(locals_.size() + globals_.size());
    SnapshotEnv env;
    next_.reset();
    env.now = r.round;
    env.next = &next_;
    env.max_rows_per_round = r.max_rows;
    env.max_bytes_per_round = r.max_bytes;
    env.work = r.work;
    env.max_iterations = max_iterations_;
    for (Held& l : locals_) {
      LIR_ASSIGN_OR_RETURN(Multiset m, l.trace->ReadAll(r.round + 1));
      contents.push_back(std::move(m));
    }
    for (Held& g : globals_) {
      LIR_ASSIGN_OR_RETURN(Multiset m, g.trace->ReadAll(r.round + 1));
      contents.push_back(std::move(m));
    }
    for (size_t i = 0; i < locals_.size(); ++i) {
      env.locals[locals_[i].id] = &contents[i];
    }
    for (size_t i = 0; i < globals_.size(); ++i) {
      env.globals[globals_[i].name] = &contents[locals_.size() + i];
    }
    LIR_ASSIGN_OR_RETURN(Multiset now, EvaluateSnapshot(node(), env));
    return ReplaceContents(*output_, now, r.round);
  }

  struct Held {
    uint64_t id = 0;   // locals
    std::string name;  // globals
    Trace* trace = nullptr;
  };
  std::optional<uint64_t> PendingRound() const override { return next_; }

  std::vector<Held> locals_;  // in the order of `inputs`
  std::vector<Held> globals_;
  Trace* output_ = nullptr;
  bool ran_ = false;
  uint64_t max_iterations_ = kDefaultMaxIterations;
  // The next round a temporal filter of the subtree may change its output.
  std::optional<uint64_t> next_;
};

// One node recomputed from its inputs' accumulated contents (the snapshot
// engine's meaning of the node) whenever an input changed.
class NodeAdapter : public Operator {
 public:
  using Operator::Operator;
  bool AlwaysRun() const override { return true; }

  absl::StatusOr<Multiset> Run(Round& r) override {
    bool changed = !ran_;
    ran_ = true;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Multiset& d = r.delta(inputs[i]);
      changed = changed || !d.empty();
      for (const auto& [row, diff] : d) {
        LIR_RETURN_IF_ERROR(held_[i]->Insert({}, row, r.round, diff));
      }
    }
    if (!changed) return Multiset{};
    std::vector<Multiset> contents;
    for (Trace* t : held_) {
      LIR_ASSIGN_OR_RETURN(Multiset m, t->ReadAll(r.round + 1));
      contents.push_back(std::move(m));
    }
    // Only joins run here, whose closures Materialize evaluates without
    // time (temporal filters are rejected when the dataflow is built).
    std::optional<uint64_t> unused;
    LIR_ASSIGN_OR_RETURN(
        Multiset now, snapshot_internal::ComputeNode(
                          node(), contents, false,
                          snapshot_internal::Clock{r.round, &unused, r.max_rows,
                                                   r.max_bytes}));
    return ReplaceContents(*output_, now, r.round);
  }

  std::vector<Trace*> held_;  // one per input
  Trace* output_ = nullptr;
  bool ran_ = false;
};

}  // namespace

absl::StatusOr<size_t> BuildNodeAdapter(const Node& node, Graph& graph) {
  auto op = std::make_unique<NodeAdapter>(node);
  auto held = [&](std::string what) {
    Trace::Info info;
    info.operator_name =
        absl::StrCat(HeaderName(node), " (recompute adapter) ", what);
    info.lir_id = node.id;
    info.adapter = true;
    return graph.NewTrace(std::move(info));
  };
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    op->inputs.push_back(graph.OpOf(node.inputs[i].get()));
    op->held_.push_back(held(absl::StrCat("input ", i)));
  }
  op->output_ = held("output");
  return graph.Add(std::move(op));
}

absl::StatusOr<size_t> BuildLetRecAdapter(const Node& node, Graph& graph) {
  auto op = std::make_unique<LetRecAdapter>(node);
  op->max_iterations_ = graph.options().max_iterations;
  // Every id bound inside the subtree (no shadowing: a bound id is never
  // free), then the Gets that read from outside, in first-read order.
  absl::flat_hash_set<uint64_t> bound;
  ForEachPreOrder(node, [&](const Node& n, int) {
    if (n.Is<LetOp>()) bound.insert(n.As<LetOp>().id);
    if (n.Is<LetRecOp>()) {
      for (uint64_t id : n.As<LetRecOp>().ids) bound.insert(id);
    }
  });
  absl::flat_hash_set<uint64_t> seen_locals;
  absl::flat_hash_set<std::string> seen_globals;
  std::vector<const GetOp*> reads;
  ForEachPreOrder(node, [&](const Node& n, int) {
    if (n.Is<GetOp>()) reads.push_back(&n.As<GetOp>());
  });
  auto held = [&](std::string what) {
    Trace::Info info;
    info.operator_name = absl::StrCat(kAdapterName, " ", what);
    info.lir_id = node.id;
    info.adapter = true;
    return graph.NewTrace(std::move(info));
  };
  for (const GetOp* get : reads) {
    if (get->id.is_local) {
      if (bound.contains(get->id.local) ||
          !seen_locals.insert(get->id.local).second) {
        continue;
      }
      auto it = graph.locals.find(get->id.local);
      if (it == graph.locals.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("unbound local ", get->id.ToString()));
      }
      op->inputs.push_back(it->second);
      op->locals_.push_back({get->id.local, "",
                             held(absl::StrCat("input ", get->id.ToString()))});
    } else if (seen_globals.insert(get->id.global).second) {
      if (!graph.options().globals.contains(get->id.global)) {
        return absl::InvalidArgumentError(
            absl::StrCat("no data for collection ", get->id.global));
      }
      op->globals_.push_back(
          {0, get->id.global, held(absl::StrCat("input ", get->id.global))});
    }
  }
  op->output_ = held("output");
  return graph.Add(std::move(op));
}

}  // namespace lir::eval::incremental_internal
