// The incremental engine's reducing operators: Threshold, the fused
// SetDifference (co_reduce2 over its arms' arrangements), Reduce and TopK.
// Each keeps an output arrangement and, per round, recomputes only the keys
// whose input changed, emitting the difference to its previous output. Also
// which arrangement an arm of a fused two-input operator reads (ResolveArm,
// ArmRows), shared with AntiJoin (incremental_antijoin.cc).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/layout.h"
#include "lir/status_macros.h"
#include "src/eval/incremental_internal.h"
#include "src/eval/layout_read.h"
#include "src/eval/operators.h"
#include "src/explain/text_primitives.h"

namespace lir::eval::incremental_internal {
namespace {

// Inserts `changes` into `trace` keyed by `key` evaluated on each row.
// The key is compiled once per call (a round), not per row.
absl::Status InsertRows(Trace& trace, const std::vector<ScalarExpr>& key,
                        const Multiset& changes, uint64_t round) {
  const absl::StatusOr<CompiledKey> compiled = CompiledKey::Compile(key);
  Trace::BatchInserter batch(trace, round, changes.size());
  for (const auto& [row, diff] : changes) {
    absl::StatusOr<DataRow> k =
        compiled.ok() ? compiled->Eval(row)
                      : absl::StatusOr<DataRow>(compiled.status());
    if (!k.ok()) return batch.FinishWith(k.status());
    LIR_RETURN_IF_ERROR(batch.Add(*std::move(k), row, diff));
  }
  return batch.Finish();
}

// Calls `per_key(key, absent)` for every key `input` received updates for
// this round, in key order (so each lookup in `output` gallops forward from
// the last, Trace), with room for them reserved in `output`. `absent`:
// `output` held no key when the round began, so none of these keys is found
// there (the keys are distinct).
template <typename PerKey>
absl::Status ForEachDirtyKey(const Trace& input, Trace& output,
                             PerKey per_key) {
  const std::vector<KeyRef> touched = input.TouchedKeyRefs();
  output.Reserve(touched.size());
  const bool absent = output.empty();
  for (const KeyRef& key : touched) {
    LIR_RETURN_IF_ERROR(per_key(key, absent));
  }
  return absl::OkStatus();
}

Trace* OutputTrace(Graph& graph, const Node& node, std::string name,
                   const ArrangementForm& form) {
  Trace::Info info;
  info.operator_name = std::move(name);
  info.lir_id = node.id;
  info.value_columns = form.thinning;
  return graph.NewTrace(std::move(info));
}

// Threshold::Basic: reads trace T (its input's arrangement on the threshold
// key; built here only when the input does not offer one) and keeps the
// `Threshold local` output arrangement.
class ThresholdOperator : public Operator {
 public:
  using Operator::Operator;
  bool AlwaysRun() const override { return true; }
  absl::StatusOr<Multiset> Run(Round& r) override {
    const ThresholdOp& op = node().As<ThresholdOp>();
    if (own_input_) {
      LIR_RETURN_IF_ERROR(InsertRows(*input_, op.ensure_arrangement.key,
                                     r.delta(inputs[0]), r.round));
    }
    std::vector<RowDiff> emitted;
    emitted.reserve(input_->touched_count());  // as in Reduce
    RefMultiset rows, positive;
    LIR_RETURN_IF_ERROR(
        ForEachDirtyKey(*input_, *output_, [&](const KeyRef& key, bool absent) {
          LIR_RETURN_IF_ERROR(input_->ReadRefs(key, r.round + 1, rows));
          positive.clear();
          for (const auto& [row, count] : rows) {
            if (count > 0) positive.emplace_back(row, count);
          }
          return output_->Set(key, positive, r.round, emitted, absent);
        }));
    return Consolidate(std::move(emitted));
  }

  Trace* input_ = nullptr;
  bool own_input_ = false;
  Trace* output_ = nullptr;
};

// SetDifference as co_reduce2: per dirty key (a key with updates in either
// arm arrangement this round), output max(0, count_base - count_subtract)
// copies of the key row. The key is the whole row
// (../shared/reference/SEMANTICS.md 3), so the arms' value columns are ignored
// and only their diffs are summed.
class SetDifferenceOperator : public Operator {
 public:
  using Operator::Operator;
  bool AlwaysRun() const override { return true; }
  bool CountsOwnActivations() const override { return true; }
  absl::StatusOr<Multiset> Run(Round& r) override {
    const std::vector<KeyRef> dirty = base_->TouchedKeyRefs();
    const std::vector<KeyRef> more = subtract_->TouchedKeyRefs();
    // The output holds max(0, base - subtract) of every key as of the last
    // round that touched it, and the arms did not change it since: its
    // previous value is the arms' counts over earlier rounds, so the output
    // is probed only for keys whose output changes.
    // An arm whose keys were all touched this round holds nothing at a key
    // it did not touch: such keys need no lookup there.
    base_all_touched_ = base_->AllTouched();
    subtract_all_touched_ = subtract_->AllTouched();
    // At most this many keys are new (keys in both arms count twice).
    output_->Reserve(dirty.size() + more.size());
    std::vector<RowDiff> emitted;
    // At most one row per dirty key: no regrowth in a large round.
    emitted.reserve(dirty.size() + more.size());
    // The dirty keys, in key order: each arm and the output are looked up
    // in ascending order, which their batches serve by galloping forward.
    // One activation per `fuel` keys (0: all of them); the changes are held
    // back until every dirty key is done, so no partial round is ever
    // visible.
    size_t in_activation = 0;
    for (DirtyKeys walk(dirty, more); !walk.Done();) {
      if (in_activation == 0) ++r.activations;
      if (++in_activation == r.fuel) in_activation = 0;
      const DirtyKeys::Refs key = walk.Next();
      Trace::Counts base, sub;
      if (!SkipBase(key)) {
        LIR_ASSIGN_OR_RETURN(base, base_->CountsAt(*key.base, r.round));
      }
      if (!SkipSubtract(key)) {
        LIR_ASSIGN_OR_RETURN(sub, subtract_->CountsAt(*key.subtract, r.round));
      }
      int64_t before = 0, now = 0;
      if (__builtin_sub_overflow(base.before, sub.before, &before) ||
          __builtin_sub_overflow(base.through, sub.through, &now)) {
        return absl::OutOfRangeError("multiplicity overflow");
      }
      before = std::max<int64_t>(before, 0);
      now = std::max<int64_t>(now, 0);
      // Both are in [0, INT64_MAX]: the difference cannot overflow.
      if (now == before) continue;
      emitted.emplace_back(*key.base->row, now - before);
      LIR_RETURN_IF_ERROR(output_->Insert(*key.base, emitted.back().first,
                                          r.round, now - before));
    }
    return Consolidate(std::move(emitted));
  }

 private:
  // The dirty keys of a round (keys with updates in either arm this round)
  // in key order, each once: a merge of the arms' ascending touched keys.
  class DirtyKeys {
   public:
    /// A dirty key: the ref each arm looks it up by (the arm's own where it
    /// touched the key; `base` is the base arm's key when both have it).
    struct Refs {
      const KeyRef* base;
      const KeyRef* subtract;
    };
    DirtyKeys(const std::vector<KeyRef>& base,
              const std::vector<KeyRef>& subtract)
        : base_(base), subtract_(subtract) {}
    bool Done() const { return i_ == base_.size() && j_ == subtract_.size(); }
    /// The next key (not Done).
    Refs Next() {
      // By the keys' prefixes, which order them as their rows do.
      std::strong_ordering c = std::strong_ordering::less;
      if (i_ == base_.size()) {
        c = std::strong_ordering::greater;
      } else if (j_ < subtract_.size()) {
        const KeyRef& b = base_[i_];
        const KeyRef& s = subtract_[j_];
        c = CompareKeys(b.prefix, *b.row, s.prefix, *s.row);
      }
      if (c < 0) {
        const KeyRef* k = &base_[i_++];
        return {k, k};
      }
      if (c > 0) {
        const KeyRef* k = &subtract_[j_++];
        return {k, k};
      }
      return {&base_[i_++], &subtract_[j_++]};
    }

   private:
    const std::vector<KeyRef>& base_;
    const std::vector<KeyRef>& subtract_;
    size_t i_ = 0;
    size_t j_ = 0;
  };

  // Whether an arm is known to hold nothing at `key` (see Run).
  bool SkipBase(const DirtyKeys::Refs& key) const {
    return base_all_touched_ && key.base->owner != base_;
  }
  bool SkipSubtract(const DirtyKeys::Refs& key) const {
    return subtract_all_touched_ && key.subtract->owner != subtract_;
  }

  bool base_all_touched_ = false;
  bool subtract_all_touched_ = false;

 public:
  Trace* base_ = nullptr;
  Trace* subtract_ = nullptr;
  Trace* output_ = nullptr;
};

}  // namespace

absl::StatusOr<ArmTrace> ResolveArm(const Node& arm,
                                    const std::vector<int>& key,
                                    const std::vector<int>& arm_key,
                                    Graph& graph, absl::string_view which) {
  const Node* node = &arm;
  ArmTrace out;
  // The key in the wrapped node's output columns (before an ArrangeBy's
  // input_mfp), as the recognizer computes it: `key` through the wrapper's
  // projection, which selects layout positions when it reads an
  // arrangement (../shared/reference/SEMANTICS.md 4.3).
  std::vector<int> wrapper_key = key;
  std::vector<const Node*> outer;
  if (node->Is<MfpOp>() && !node->inputs.empty()) {
    const MfpOp& wrapper = node->As<MfpOp>();
    for (int& c : wrapper_key) c = wrapper.mfp.ProjectedColumn(c);
    if (wrapper.input_key.has_value()) {
      const std::optional<ArrangementForm> form =
          OfferedForm(*node->inputs[0], *wrapper.input_key, std::nullopt);
      for (int& c : wrapper_key) {
        c = ColumnAtLayoutPosition(*wrapper.input_key,
                                   form.has_value() ? &*form : nullptr, c);
      }
    }
    outer.push_back(node);
    node = node->inputs[0].get();
  }
  const std::vector<ScalarExpr> trace_key = ColumnKey(arm_key);
  if (node->Is<GetOp>()) {
    const GetOp& get = node->As<GetOp>();
    if (get.id.is_local) {
      auto it = graph.locals.find(get.id.local);
      if (it != graph.locals.end()) {
        out.trace = FindOffered(graph.op(it->second).offered, trace_key);
      }
    } else if (const ArrangementForm* form = get.keys.FindByKey(trace_key)) {
      out.trace = graph.Import(get.id.global, *form, node->id);
    }
    // The trace holds the bound collection's rows; the Get reads them
    // through its plan unless it passes them on.
    if (get.kind != GetKind::kPassArrangements) out.reads.push_back(node);
  } else if (node->Is<ArrangeByOp>()) {
    const ArrangeByOp& arrange = node->As<ArrangeByOp>();
    const std::vector<Offered>& input_offered =
        graph.op(graph.OpOf(node->inputs[0].get())).offered;
    // A form (output columns) when the recognizer matched one; else the
    // input arrangement the ArrangeBy reads (input columns).
    if (wrapper_key == arm_key) {
      out.trace = FindOffered(graph.op(graph.OpOf(node)).offered, trace_key);
    }
    bool from_input = out.trace != nullptr &&
                      out.trace == FindOffered(input_offered, trace_key);
    if (out.trace == nullptr && arrange.input_key.has_value() &&
        SameIgnoringNames(*arrange.input_key, trace_key)) {
      out.trace = FindOffered(input_offered, trace_key);
      from_input = true;
    }
    // A trace of the input (read through input_key, or passed on by an
    // ArrangeBy whose input_mfp is the identity) holds the input's rows,
    // which the ArrangeBy reads through its input_mfp.
    if (from_input) out.reads.push_back(node);
  }
  if (out.trace == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(which, " arm offers no arrangement on [",
                     explain::PrintIndices(arm_key), "] to read"));
  }
  out.reads.insert(out.reads.end(), outer.begin(), outer.end());
  return out;
}

absl::StatusOr<Multiset> ArmRows(const ArmTrace& arm, Multiset rows) {
  for (const Node* read : arm.reads) {
    // Each read decodes its input's rows into the layout it reads (an
    // identity for a raw read) and applies its MFP, as the operator built
    // for it does.
    LIR_ASSIGN_OR_RETURN(rows, ReadAsLayout(*read, std::move(rows)));
    const MapFilterProject* mfp = nullptr;
    if (read->Is<GetOp>()) {
      mfp = &read->As<GetOp>().mfp;
    } else if (read->Is<ArrangeByOp>()) {
      mfp = &read->As<ArrangeByOp>().input_mfp;
    } else if (read->Is<MfpOp>()) {
      mfp = &read->As<MfpOp>().mfp;
    } else {
      return absl::InternalError(
          "an arm read that is not a Get, ArrangeBy or Mfp");
    }
    std::vector<RowDiff> mapped;
    mapped.reserve(rows.size());
    // Compiled once per read and call, not per row.
    std::optional<CompiledMfp> compiled;
    if (!rows.empty()) {
      LIR_ASSIGN_OR_RETURN(compiled, CompiledMfp::Compile(*mfp));
    }
    for (auto& [row, diff] : rows) {
      LIR_ASSIGN_OR_RETURN(std::optional<DataRow> kept,
                           compiled->Eval(std::move(row)));
      if (kept.has_value()) mapped.emplace_back(std::move(*kept), diff);
    }
    rows = std::move(mapped);
  }
  // A projection may map distinct stored rows to one output row.
  return Consolidate(std::move(rows));
}

namespace {

// The Reduce's two arrangements, named as Materialize names them.
std::pair<std::string, std::string> ReduceNames(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::kDistinct: return {"Arranged DistinctBy", "DistinctBy"};
    case ReduceKind::kAccumulable:
      return {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"};
    case ReduceKind::kHierarchicalMonotonic:
      return {"ArrangeMonotonic [val: empty]", "ReduceMonotonic"};
    case ReduceKind::kHierarchicalBucketed:
      return {"Arrange ReduceMinsMaxes", "ReduceMinsMaxes"};
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple:
      return {"Arranged ReduceInaccumulable", "ReduceInaccumulable"};
  }
  return {"Arranged Reduce", "Reduce"};
}

// Reduce: the input arrangement holds (group key, val row); the output
// arrangement holds each group's output row under its key.
class ReduceOperator : public Operator {
 public:
  explicit ReduceOperator(const Node& node)
      : Operator(node),
        projects_only_(node.As<ReduceOp>().key_plan.IsProjectionOnly() &&
                       node.As<ReduceOp>().val_plan.IsProjectionOnly()),
        plain_distinct_(node.As<ReduceOp>().kind == ReduceKind::kDistinct &&
                        node.As<ReduceOp>().mfp_after.IsIdentity()) {}
  absl::StatusOr<Multiset> Run(Round& r) override {
    const ReduceOp& op = node().As<ReduceOp>();
    // With `input_key`, key_plan and val_plan read the input arrangement's
    // layout rows (../shared/reference/SEMANTICS.md 8.3).
    LIR_ASSIGN_OR_RETURN(Multiset in,
                         ReadAsLayout(node(), r.TakeDelta(inputs[0])));
    Trace::BatchInserter batch(*input_, r.round, in.size());
    for (auto& [row, diff] : in) {
      DataRow key, val;
      if (!SplitByProjection(op, row, key, val)) {
        auto evaluated = compiled_->KeyVal(row);
        if (!evaluated.ok()) return batch.FinishWith(evaluated.status());
        auto& key_val = *evaluated;
        if (!key_val.has_value()) continue;
        key = std::move(key_val->first);
        val = std::move(key_val->second);
      }
      LIR_RETURN_IF_ERROR(batch.AddOwned(std::move(key), std::move(val), diff));
    }
    LIR_RETURN_IF_ERROR(batch.Finish());
    std::vector<RowDiff> emitted;
    // Most keys emit one row or two (the old output and the new): reserved
    // so that a large round does not regrow the vector (each regrowth a
    // large allocation and copy).
    emitted.reserve(input_->touched_count());
    Multiset vals, desired;
    RefMultiset refs;
    LIR_RETURN_IF_ERROR(ForEachDirtyKey(
        *input_, *output_, [&](const KeyRef& key, bool absent) -> absl::Status {
          LIR_RETURN_IF_ERROR(input_->ReadRefs(key, r.round + 1, refs));
          desired.clear();
          if (plain_distinct_) {
            // ReduceGroup of a Distinct with nothing after it: the key once
            // when the group's count is positive, without copying values.
            LIR_ASSIGN_OR_RETURN(int64_t count, GroupTotal(refs));
            if (count > 0) desired.emplace_back(*key.row, 1);
            return output_->SetOwned(key, desired, r.round, emitted, absent);
          }
          vals.clear();
          for (const auto& [val, diff] : refs) vals.emplace_back(*val, diff);
          if (!vals.empty()) {
            LIR_ASSIGN_OR_RETURN(desired, compiled_->Group(*key.row, vals));
          }
          return output_->SetOwned(key, desired, r.round, emitted, absent);
        }));
    return Consolidate(std::move(emitted));
  }

 private:
  // ReduceKeyVal for the common plans whose key and val plans only project
  // (columns in range): `row` splits without evaluating, its key moved out
  // when the key plan is the identity. False: evaluate with ReduceKeyVal.
  bool SplitByProjection(const ReduceOp& op, DataRow& row, DataRow& key,
                         DataRow& val) const {
    if (!projects_only_) return false;
    auto in_range = [&](const MapFilterProject& mfp) {
      if (!mfp.project.has_value()) return true;
      for (int c : *mfp.project) {
        if (c < 0 || static_cast<size_t>(c) >= row.size()) return false;
      }
      return true;
    };
    if (!in_range(op.key_plan) || !in_range(op.val_plan)) return false;
    auto project = [&](const MapFilterProject& mfp, DataRow& out) {
      out.reserve(mfp.project->size());
      for (int c : *mfp.project) out.push_back(row[c]);
    };
    if (op.val_plan.project.has_value()) {
      project(op.val_plan, val);
    } else {
      val = row;
    }
    if (op.key_plan.project.has_value()) {
      project(op.key_plan, key);
    } else {
      key = std::move(row);
    }
    return true;
  }

  // Whether key_plan and val_plan only project (checked once).
  const bool projects_only_;
  // A Distinct with an identity mfp_after (the group's output is its key).
  const bool plain_distinct_;

 public:
  Trace* input_ = nullptr;
  Trace* output_ = nullptr;
  /// The plans compiled when the operator is built.
  std::optional<CompiledReduce> compiled_;
};

// TopK per dirty group: the input arrangement by group key, the output
// arrangement of each group's selected rows.
class TopKOperator : public Operator {
 public:
  using Operator::Operator;
  absl::StatusOr<Multiset> Run(Round& r) override {
    const TopKOp& op = node().As<TopKOp>();
    for (const auto& [row, diff] : r.delta(inputs[0])) {
      LIR_RETURN_IF_ERROR(
          input_->Insert(TopKGroupKey(op, row), row, r.round, diff));
    }
    std::vector<RowDiff> emitted;
    RefMultiset desired;
    LIR_RETURN_IF_ERROR(ForEachDirtyKey(
        *input_, *output_, [&](const KeyRef& key, bool absent) -> absl::Status {
          LIR_ASSIGN_OR_RETURN(Multiset rows,
                               input_->Read(*key.row, r.round + 1));
          Multiset selected;
          if (!rows.empty()) {
            LIR_ASSIGN_OR_RETURN(selected, compiled_->Group(rows));
          }
          desired.clear();
          for (const auto& [row, d] : selected) desired.emplace_back(&row, d);
          return output_->Set(key, desired, r.round, emitted, absent);
        }));
    return Consolidate(std::move(emitted));
  }

  Trace* input_ = nullptr;
  Trace* output_ = nullptr;
  /// The limit compiled when the operator is built.
  std::optional<CompiledTopK> compiled_;
};

}  // namespace

absl::StatusOr<size_t> BuildThreshold(const Node& node, Graph& graph) {
  const ThresholdOp& threshold = node.As<ThresholdOp>();
  auto op = std::make_unique<ThresholdOperator>(node);
  const size_t input = graph.OpOf(node.inputs[0].get());
  op->inputs = {input};
  op->input_ =
      FindOffered(graph.op(input).offered, threshold.ensure_arrangement.key);
  if (op->input_ == nullptr) {
    // Materialize always gives Threshold an arranged input (trace T); a
    // plan without one gets a private trace T here.
    Trace::Info info;
    info.operator_name = "Arranged Threshold input";
    info.lir_id = node.id;
    info.value_columns = threshold.ensure_arrangement.thinning;
    op->input_ = graph.NewTrace(std::move(info));
    op->own_input_ = true;
  }
  op->output_ =
      OutputTrace(graph, node, "Threshold local", threshold.ensure_arrangement);
  op->offered.push_back({threshold.ensure_arrangement.key, op->output_});
  return graph.Add(std::move(op));
}

absl::StatusOr<size_t> BuildSetDifference(const Node& node, Graph& graph) {
  const SetDifferenceOp& sd = node.As<SetDifferenceOp>();
  if (node.inputs.size() != 2) {
    return absl::InvalidArgumentError("SetDifference needs two inputs");
  }
  std::optional<std::vector<int>> ensure_columns =
      KeyColumns(sd.ensure_arrangement.key);
  bool whole_row = ensure_columns.has_value() &&
                   ensure_columns->size() == sd.base_key.size() &&
                   ensure_columns->size() == sd.subtract_key.size();
  for (size_t i = 0; whole_row && i < ensure_columns->size(); ++i) {
    whole_row = (*ensure_columns)[i] == static_cast<int>(i);
  }
  if (!whole_row) {
    return absl::InvalidArgumentError(
        "SetDifference keys must be the whole row #0..#n-1");
  }
  auto op = std::make_unique<SetDifferenceOperator>(node);
  op->inputs = {graph.OpOf(node.inputs[0].get()),
                graph.OpOf(node.inputs[1].get())};
  // The key is the whole row of each arm, so the arms' rows are never
  // read, only their counts.
  std::vector<int> whole(ensure_columns->size());
  for (size_t c = 0; c < whole.size(); ++c) whole[c] = static_cast<int>(c);
  LIR_ASSIGN_OR_RETURN(ArmTrace base, ResolveArm(*node.inputs[0], whole,
                                                 sd.base_key, graph, "base"));
  LIR_ASSIGN_OR_RETURN(
      ArmTrace subtract,
      ResolveArm(*node.inputs[1], whole, sd.subtract_key, graph, "subtract"));
  op->base_ = base.trace;
  op->subtract_ = subtract.trace;
  op->output_ =
      OutputTrace(graph, node, "SetDifference", sd.ensure_arrangement);
  op->offered.push_back({sd.ensure_arrangement.key, op->output_});
  return graph.Add(std::move(op));
}

absl::StatusOr<size_t> BuildReduce(const Node& node, Graph& graph) {
  const ReduceOp& reduce = node.As<ReduceOp>();
  auto op = std::make_unique<ReduceOperator>(node);
  LIR_ASSIGN_OR_RETURN(op->compiled_,
                       CompiledReduce::Compile(node.As<ReduceOp>()));
  op->inputs = {graph.OpOf(node.inputs[0].get())};
  auto [input_name, output_name] = ReduceNames(reduce.kind);
  Trace::Info in;
  in.operator_name = input_name;
  in.lir_id = node.id;
  op->input_ = graph.NewTrace(std::move(in));
  Trace::Info out;
  out.operator_name = output_name;
  out.lir_id = node.id;
  // The output arrangement is keyed by the group key: its width is the
  // key_plan's output arity over the input's.
  std::optional<int> key_arity;
  if (std::optional<int> input_arity = graph.ArityOf(*node.inputs[0])) {
    // With an input key, key_plan reads the layout row
    // (../shared/reference/SEMANTICS.md 8.3).
    const int read = reduce.input_key.has_value()
                         ? LayoutArity(*reduce.input_key, *input_arity)
                         : *input_arity;
    key_arity =
        interp::MfpOutputArity(reduce.key_plan, interp::Arity::Known(read))
            .ToOptional();
  } else if (reduce.key_plan.project.has_value()) {
    key_arity = static_cast<int>(reduce.key_plan.project->size());
  }
  out.value_skip = static_cast<size_t>(key_arity.value_or(0));
  op->output_ = graph.NewTrace(std::move(out));
  // The trace holds output rows (after mfp_after) by group key; it serves
  // as an arrangement on output columns #0..#k-1 only while mfp_after keeps
  // the key in front (a projection that moves or drops it would make
  // lookups by those columns find the wrong groups).
  bool key_in_front = key_arity.has_value();
  if (key_in_front && reduce.mfp_after.project.has_value()) {
    const std::vector<int>& project = *reduce.mfp_after.project;
    key_in_front = project.size() >= static_cast<size_t>(*key_arity);
    for (int c = 0; key_in_front && c < *key_arity; ++c) {
      key_in_front = project[c] == c;
    }
  }
  if (key_in_front) {
    std::vector<int> key_columns;
    for (int c = 0; c < *key_arity; ++c) key_columns.push_back(c);
    op->offered.push_back({ColumnKey(key_columns), op->output_});
  }
  return graph.Add(std::move(op));
}

absl::StatusOr<size_t> BuildTopK(const Node& node, Graph& graph) {
  const TopKOp& topk = node.As<TopKOp>();
  const bool top1 = topk.kind == TopKKind::kMonotonicTop1;
  auto op = std::make_unique<TopKOperator>(node);
  LIR_ASSIGN_OR_RETURN(op->compiled_, CompiledTopK::Compile(node.As<TopKOp>()));
  op->inputs = {graph.OpOf(node.inputs[0].get())};
  Trace::Info in;
  in.operator_name = top1 ? "Arranged MonotonicTop1 partial [val: empty]"
                          : "Arranged TopK input";
  in.lir_id = node.id;
  op->input_ = graph.NewTrace(std::move(in));
  Trace::Info out;
  out.operator_name = top1 ? "MonotonicTop1" : "Reduced TopK input";
  out.lir_id = node.id;
  op->output_ = graph.NewTrace(std::move(out));
  // MonotonicTop1's output is arranged by the group key
  // (../shared/reference/SEMANTICS.md 2): its output trace holds exactly that.
  if (top1) op->offered.push_back({ColumnKey(topk.group_by), op->output_});
  return graph.Add(std::move(op));
}

}  // namespace lir::eval::incremental_internal
