// The incremental engine's stateless (linear) operators, ArrangeBy, and the
// graph plumbing they share.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/interp/arrangements_built.h"
#include "lir/status_macros.h"
#include "src/eval/incremental_internal.h"
#include "src/eval/layout_read.h"
#include "src/eval/operators.h"
#include "src/eval/values/temporal.h"
#include "src/explain/text_primitives.h"

namespace lir::eval::incremental_internal {

Trace* FindOffered(const std::vector<Offered>& offered,
                   const std::vector<ScalarExpr>& key) {
  for (const Offered& o : offered) {
    if (SameIgnoringNames(o.key, key)) return o.trace;
  }
  return nullptr;
}

std::string KeyListText(const std::vector<ScalarExpr>& key) {
  // The accounting (include/lir/interp/arrangements_built.h) names arrangements
  // the same way; one spelling, so the two listings compare.
  return interp::ArrangementKeyText(key);
}

absl::StatusOr<DataRow> SeekRow(const Row& row) {
  DataRow out;
  out.reserve(row.size());
  for (const Literal& lit : row) {
    LIR_ASSIGN_OR_RETURN(Datum d, FromLiteral(lit));
    out.push_back(std::move(d));
  }
  return out;
}

Trace* Graph::NewTrace(Trace::Info info) {
  traces_.push_back(std::make_unique<Trace>(std::move(info)));
  // Every trace is created here, so every arrangement gets its spine.
  if (options_.spine.has_value()) traces_.back()->EnableSpine(*options_.spine);
  return traces_.back().get();
}

Trace* Graph::Import(const std::string& name, const ArrangementForm& form,
                     LirId lir_id) {
  for (const ImportEntry& e : imports_) {
    if (e.global == name && SameIgnoringNames(e.key, form.key)) return e.trace;
  }
  Trace::Info info;
  info.operator_name = absl::StrCat("Index ", name, KeyListText(form.key));
  info.lir_id = lir_id;
  info.value_columns = form.thinning;
  Trace* trace = NewTrace(std::move(info));
  imports_.push_back(
      ImportEntry{name, form.key, trace, CompiledKey::Compile(form.key)});
  return trace;
}

size_t Graph::Add(std::unique_ptr<Operator> op) {
  const size_t index = ops_.size();
  op_of_[&op->node()] = index;
  ops_.push_back(std::move(op));
  return index;
}

namespace {

// Whether `mfp` leaves `row` as it is: no map or filter, and a projection
// (if any) of exactly its columns in order.
bool KeepsRow(const MapFilterProject& mfp, const DataRow& row) {
  if (!mfp.IsProjectionOnly()) return false;
  if (!mfp.project.has_value()) return true;
  const std::vector<int>& project = *mfp.project;
  if (project.size() != row.size()) return false;
  for (size_t c = 0; c < project.size(); ++c) {
    if (project[c] != static_cast<int>(c)) return false;
  }
  return true;
}

// One MFP of an operator, compiled when the operator is built: an ordinary
// MFP as a CompiledMfp; a temporal one as its plan (temporal.h) and the
// future updates it makes: each change is moved to the rounds its bounds
// give; those after the current round wait here until it comes. Holds at
// most two entries per change received.
class TemporalQueue {
 public:
  explicit TemporalQueue(const MapFilterProject& mfp) {
    if (!HasTemporal(mfp)) {
      // CheckNode compiled the same MFP: this cannot fail on a checked
      // plan; if it does, the first row reports it.
      absl::StatusOr<CompiledMfp> compiled = CompiledMfp::Compile(mfp);
      if (compiled.ok()) {
        compiled_ = *std::move(compiled);
      } else {
        compile_error_ = compiled.status();
      }
      return;
    }
    // CheckNode accepted the MFP before the dataflow was built.
    absl::StatusOr<TemporalMfp> plan = PlanTemporal(mfp);
    if (plan.ok()) {
      plan_ = *std::move(plan);
    } else {
      error_ = plan.status();
    }
  }
  bool active() const { return plan_.has_value() || !error_.ok(); }
  /// The ordinary MFP, compiled (when not active()).
  absl::StatusOr<const CompiledMfp*> compiled() const {
    LIR_RETURN_IF_ERROR(compile_error_);
    return &compiled_;
  }
  std::optional<uint64_t> Next() const {
    if (pending_.empty()) return std::nullopt;
    return pending_.begin()->first;
  }
  /// Schedules the changes `in` of round `round` and returns the updates
  /// due at `round`, consolidated.
  absl::StatusOr<Multiset> Apply(std::vector<RowDiff> in, uint64_t round) {
    LIR_RETURN_IF_ERROR(error_);
    for (auto& [row, diff] : in) {
      LIR_RETURN_IF_ERROR(
          ScheduleTemporal(*plan_, std::move(row), round, diff, &pending_));
    }
    std::vector<RowDiff> due;
    while (!pending_.empty() && pending_.begin()->first <= round) {
      std::vector<RowDiff>& batch = pending_.begin()->second;
      due.insert(due.end(), std::make_move_iterator(batch.begin()),
                 std::make_move_iterator(batch.end()));
      pending_.erase(pending_.begin());
    }
    return Consolidate(std::move(due));
  }

 private:
  std::optional<TemporalMfp> plan_;
  absl::Status error_;
  CompiledMfp compiled_;
  absl::Status compile_error_;
  std::map<uint64_t, std::vector<RowDiff>> pending_;
};

// Reads a collection as Get::Arrangement / Mfp with input_val do: rows whose
// `key` equals `seek` when one is given, then `mfp` (linear, so it applies
// to changes as to contents; a temporal one through `temporal`, at round
// `round`). Takes `in` to return it unchanged when no row changes.
absl::StatusOr<Multiset> SeekThenMfp(Multiset in,
                                     const std::optional<DataRow>& seek,
                                     const MapFilterProject& mfp,
                                     TemporalQueue& temporal, uint64_t round) {
  if (temporal.active()) {
    std::vector<RowDiff> read;
    read.reserve(in.size());
    for (auto& [row, diff] : in) {
      if (seek.has_value() && !HasKeyPrefix(row, *seek)) {
        continue;
      }
      read.emplace_back(std::move(row), diff);
    }
    return temporal.Apply(std::move(read), round);
  }
  if (in.empty()) return Multiset{};
  if (!seek.has_value()) {
    bool unchanged = true;
    for (const auto& [row, diff] : in) {
      if (!KeepsRow(mfp, row)) {
        unchanged = false;
        break;
      }
    }
    if (unchanged) return in;
  }
  LIR_ASSIGN_OR_RETURN(const CompiledMfp* compiled, temporal.compiled());
  std::vector<RowDiff> out;
  out.reserve(in.size());
  for (auto& [row, diff] : in) {
    // An arranged read's rows are layout rows: the key is their prefix.
    if (seek.has_value() && !HasKeyPrefix(row, *seek)) {
      continue;
    }
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> mapped,
                         compiled->Eval(std::move(row)));
    if (mapped.has_value()) out.emplace_back(std::move(*mapped), diff);
  }
  return Consolidate(std::move(out));
}

class ConstantOperator : public Operator {
 public:
  using Operator::Operator;
  bool AlwaysRun() const override { return true; }
  absl::StatusOr<Multiset> Run(Round& r) override {
    if (r.round != 0) return Multiset{};
    return ConstantRows(node().As<ConstantOp>());
  }
};

class GetOperator : public Operator {
 public:
  GetOperator(const Node& node, std::optional<DataRow> seek)
      : Operator(node),
        seek_(std::move(seek)),
        temporal_(node.As<GetOp>().mfp) {}
  bool AlwaysRun() const override {
    return global_ || temporal_.Next().has_value();
  }
  std::optional<uint64_t> PendingRound() const override {
    return temporal_.Next();
  }
  absl::StatusOr<Multiset> Run(Round& r) override {
    const GetOp& get = node().As<GetOp>();
    // A global's changes are the caller's: copy them; a binding's may be
    // taken.
    Multiset source;
    if (global_) {
      auto it = r.globals->find(get.id.global);
      if (it != r.globals->end()) source = it->second;
    } else {
      source = r.TakeDelta(inputs[0]);
    }
    switch (get.kind) {
      case GetKind::kPassArrangements: return source;
      case GetKind::kArrangement: {
        LIR_ASSIGN_OR_RETURN(Multiset layout,
                             ReadAsLayout(node(), std::move(source)));
        return SeekThenMfp(std::move(layout), seek_, get.mfp, temporal_,
                           r.round);
      }
      case GetKind::kCollection:
        return SeekThenMfp(std::move(source), std::nullopt, get.mfp, temporal_,
                           r.round);
    }
    return source;
  }
  bool global_ = false;

 private:
  std::optional<DataRow> seek_;
  TemporalQueue temporal_;
};

class MfpOperator : public Operator {
 public:
  MfpOperator(const Node& node, std::optional<DataRow> seek)
      : Operator(node),
        seek_(std::move(seek)),
        temporal_(node.As<MfpOp>().mfp) {}
  bool AlwaysRun() const override { return temporal_.Next().has_value(); }
  std::optional<uint64_t> PendingRound() const override {
    return temporal_.Next();
  }
  absl::StatusOr<Multiset> Run(Round& r) override {
    const MfpOp& op = node().As<MfpOp>();
    LIR_ASSIGN_OR_RETURN(Multiset read,
                         ReadAsLayout(node(), r.TakeDelta(inputs[0])));
    return SeekThenMfp(std::move(read), seek_, op.mfp, temporal_, r.round);
  }

 private:
  std::optional<DataRow> seek_;
  TemporalQueue temporal_;
};

class FlatMapOperator : public Operator {
 public:
  explicit FlatMapOperator(const Node& node)
      : Operator(node),
        compiled_(CompiledFlatMap::Compile(node.As<FlatMapOp>())),
        temporal_(node.As<FlatMapOp>().mfp_after) {}
  bool AlwaysRun() const override { return temporal_.Next().has_value(); }
  std::optional<uint64_t> PendingRound() const override {
    return temporal_.Next();
  }
  absl::StatusOr<Multiset> Run(Round& r) override {
    RowCounter produced(r.max_rows, r.round, r.max_bytes);
    std::vector<RowDiff> out;
    LIR_ASSIGN_OR_RETURN(Multiset read,
                         ReadAsLayout(node(), r.TakeDelta(inputs[0])));
    // A FlatMap the plan check accepted compiles; otherwise the first row
    // reports why.
    if (!read.empty()) LIR_RETURN_IF_ERROR(compiled_.status());
    const CompiledFlatMap* compiled = compiled_.ok() ? &*compiled_ : nullptr;
    if (temporal_.active()) {
      // The table function's rows, then the temporal mfp_after.
      for (const auto& [row, diff] : read) {
        LIR_ASSIGN_OR_RETURN(std::vector<DataRow> rows,
                             compiled->JoinedRows(row, &produced));
        for (DataRow& joined : rows) out.emplace_back(std::move(joined), diff);
      }
      return temporal_.Apply(std::move(out), r.round);
    }
    for (const auto& [row, diff] : read) {
      LIR_ASSIGN_OR_RETURN(std::vector<DataRow> rows,
                           compiled->Rows(row, &produced));
      for (DataRow& produced : rows)
        out.emplace_back(std::move(produced), diff);
    }
    return Consolidate(std::move(out));
  }

 private:
  absl::StatusOr<CompiledFlatMap> compiled_;
  TemporalQueue temporal_;
};

class NegateOperator : public Operator {
 public:
  using Operator::Operator;
  absl::StatusOr<Multiset> Run(Round& r) override {
    Multiset out = r.TakeDelta(inputs[0]);
    for (auto& [row, diff] : out) {
      if (diff == INT64_MIN) {
        return absl::OutOfRangeError("multiplicity overflow in Negate");
      }
      diff = -diff;
    }
    return out;
  }
};

// `a + b` (both consolidated), moving their rows; as AddMultisets.
absl::StatusOr<Multiset> MergeAdd(Multiset a, Multiset b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  Multiset out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(std::move(a[i++]));
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(std::move(b[j++]));
    } else {
      int64_t sum;
      if (__builtin_add_overflow(a[i].second, b[j].second, &sum)) {
        return absl::OutOfRangeError("multiplicity out of 64-bit range");
      }
      if (sum != 0) out.emplace_back(std::move(a[i].first), sum);
      ++i;
      ++j;
    }
  }
  return out;
}

class UnionOperator : public Operator {
 public:
  using Operator::Operator;
  absl::StatusOr<Multiset> Run(Round& r) override {
    if (inputs.size() == 2) {
      return MergeAdd(r.TakeDelta(inputs[0]), r.TakeDelta(inputs[1]));
    }
    std::vector<RowDiff> all;
    for (size_t input : inputs) {
      Multiset d = r.TakeDelta(input);
      if (all.empty()) {
        all = std::move(d);
      } else {
        all.insert(all.end(), std::make_move_iterator(d.begin()),
                   std::make_move_iterator(d.end()));
      }
    }
    return Consolidate(std::move(all));
  }
};

// Let: the body's changes; the binding was made visible to the body while
// building.
class LetOperator : public Operator {
 public:
  using Operator::Operator;
  absl::StatusOr<Multiset> Run(Round& r) override {
    return r.TakeDelta(inputs[1]);
  }
};

class ArrangeByOperator : public Operator {
 public:
  explicit ArrangeByOperator(const Node& node)
      : Operator(node), temporal_(node.As<ArrangeByOp>().input_mfp) {}
  bool AlwaysRun() const override { return temporal_.Next().has_value(); }
  std::optional<uint64_t> PendingRound() const override {
    return temporal_.Next();
  }
  absl::StatusOr<Multiset> Run(Round& r) override {
    const ArrangeByOp& op = node().As<ArrangeByOp>();
    LIR_ASSIGN_OR_RETURN(Multiset read,
                         ReadAsLayout(node(), r.TakeDelta(inputs[0])));
    LIR_ASSIGN_OR_RETURN(
        Multiset out, SeekThenMfp(std::move(read), std::nullopt, op.input_mfp,
                                  temporal_, r.round));
    for (size_t f = 0; f < own_.size(); ++f) {
      const Offered& form = own_[f];
      const absl::StatusOr<CompiledKey>& compiled = own_keys_[f];
      Trace::BatchInserter batch(*form.trace, r.round, out.size());
      for (const auto& [row, diff] : out) {
        absl::StatusOr<DataRow> key =
            compiled.ok() ? compiled->Eval(row)
                          : absl::StatusOr<DataRow>(compiled.status());
        if (!key.ok()) return batch.FinishWith(key.status());
        LIR_RETURN_IF_ERROR(batch.Add(*std::move(key), row, diff));
      }
      LIR_RETURN_IF_ERROR(batch.Finish());
    }
    return out;
  }
  /// The forms this ArrangeBy builds itself, and their keys compiled.
  std::vector<Offered> own_;
  std::vector<absl::StatusOr<CompiledKey>> own_keys_;

 private:
  TemporalQueue temporal_;
};

}  // namespace

absl::StatusOr<size_t> BuildLinearOp(const Node& node, Graph& graph) {
  std::unique_ptr<Operator> op;
  std::vector<size_t> inputs;
  for (const NodePtr& input : node.inputs) {
    inputs.push_back(graph.OpOf(input.get()));
  }
  switch (node.kind()) {
    case NodeKind::kConstant:
      op = std::make_unique<ConstantOperator>(node);
      break;
    case NodeKind::kGet: {
      const GetOp& get = node.As<GetOp>();
      std::optional<DataRow> seek;
      if (get.kind == GetKind::kArrangement && get.seek.has_value()) {
        LIR_ASSIGN_OR_RETURN(seek, SeekRow(*get.seek));
      }
      auto get_op = std::make_unique<GetOperator>(node, std::move(seek));
      if (get.id.is_local) {
        auto it = graph.locals.find(get.id.local);
        if (it == graph.locals.end()) {
          return absl::InvalidArgumentError(
              absl::StrCat("unbound local ", get.id.ToString()));
        }
        inputs = {it->second};
        if (get.kind == GetKind::kPassArrangements) {
          get_op->offered = graph.op(it->second).offered;
        }
      } else {
        get_op->global_ = true;
        if (!graph.options().globals.contains(get.id.global)) {
          return absl::InvalidArgumentError(
              absl::StrCat("no data for collection ", get.id.global));
        }
        // A global read through its arrangements reads indexes maintained
        // outside the dataflow: import them.
        if (get.kind != GetKind::kCollection) {
          for (const ArrangementForm& form : get.keys.arranged) {
            Trace* trace = graph.Import(get.id.global, form, node.id);
            if (get.kind == GetKind::kPassArrangements) {
              get_op->offered.push_back(Offered{form.key, trace});
            }
          }
        }
      }
      op = std::move(get_op);
      break;
    }
    case NodeKind::kLet: {
      op = std::make_unique<LetOperator>(node);
      op->offered = graph.op(inputs[1]).offered;
      break;
    }
    case NodeKind::kMfp: {
      const MfpOp& mfp = node.As<MfpOp>();
      std::optional<DataRow> seek;
      if (mfp.input_val.has_value()) {
        if (!mfp.input_key.has_value()) {
          return absl::InvalidArgumentError("input_val without input_key");
        }
        LIR_ASSIGN_OR_RETURN(seek, SeekRow(*mfp.input_val));
      }
      op = std::make_unique<MfpOperator>(node, std::move(seek));
      break;
    }
    case NodeKind::kFlatMap:
      op = std::make_unique<FlatMapOperator>(node);
      break;
    case NodeKind::kNegate: op = std::make_unique<NegateOperator>(node); break;
    case NodeKind::kUnion: op = std::make_unique<UnionOperator>(node); break;
    // Built by their own functions (BuildArrangeBy, the join, reduce and
    // LetRec builders).
    case NodeKind::kLetRec:
    case NodeKind::kJoin:
    case NodeKind::kReduce:
    case NodeKind::kTopK:
    case NodeKind::kThreshold:
    case NodeKind::kArrangeBy:
    case NodeKind::kSetDifference:
    case NodeKind::kAntiJoin:
      return absl::InternalError("not a linear operator");
  }
  op->inputs = std::move(inputs);
  return graph.Add(std::move(op));
}

absl::StatusOr<size_t> BuildArrangeBy(const Node& node, Graph& graph) {
  const ArrangeByOp& arrange = node.As<ArrangeByOp>();
  auto op = std::make_unique<ArrangeByOperator>(node);
  const size_t input = graph.OpOf(node.inputs[0].get());
  op->inputs = {input};
  // The input's arrangements remain available when the rows pass unchanged;
  // a form the input already offers is read, not rebuilt.
  if (arrange.input_mfp.IsIdentity()) op->offered = graph.op(input).offered;
  for (const ArrangementForm& form : arrange.forms.arranged) {
    if (FindOffered(op->offered, form.key) != nullptr) continue;
    Trace::Info info;
    info.operator_name = absl::StrCat("ArrangeBy", KeyListText(form.key));
    info.lir_id = node.id;
    info.value_columns = form.thinning;
    Offered own{form.key, graph.NewTrace(std::move(info))};
    op->own_.push_back(own);
    op->own_keys_.push_back(CompiledKey::Compile(form.key));
    op->offered.push_back(own);
  }
  return graph.Add(std::move(op));
}

}  // namespace lir::eval::incremental_internal
