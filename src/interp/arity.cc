// The arity interpreter's transfer functions.
#include "src/interp/arity.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "src/interp/driver.h"
#include "src/lir/layout.h"
#include "src/lir/validate_internal.h"

namespace lir::interp {
namespace {

/// The number of distinct plain column references in `key`, or -1 when one
/// is negative. Keys are short, so the quadratic scan beats a set.
int DistinctKeyColumns(const std::vector<ScalarExpr>& key) {
  int distinct = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    if (!key[i].IsColumn()) continue;
    if (key[i].column < 0) return -1;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      seen = key[j].IsColumn() && key[j].column == key[i].column;
    }
    if (!seen) ++distinct;
  }
  return distinct;
}

/// The arity of the row an arranged read by `input_key` of an `input`-column
/// collection sees: its layout row (SEMANTICS 8.2); `input` for a raw read.
Arity ReadArity(const std::optional<std::vector<ScalarExpr>>& input_key,
                Arity input) {
  if (!input_key.has_value() || !input.known()) return input;
  return Arity::Known(LayoutArity(*input_key, input.value));
}

/// The arity of one join path: the stream starts as the source relation;
/// after each lookup it is `stream key ++ stream thinning ++ lookup values`;
/// closures map it.
Arity PathArity(const JoinPath& path, bool delta,
                std::span<const Arity> inputs) {
  const int n = static_cast<int>(inputs.size());
  if (path.source_relation < 0 || path.source_relation >= n) {
    return Arity::Conflict();
  }
  Arity stream = inputs[path.source_relation];
  // A delta path starts from its source's layout row (SEMANTICS 8.4).
  if (delta) stream = ReadArity(path.source_key, stream);
  if (path.initial_closure.has_value()) {
    stream = MfpOutputArity(path.initial_closure->mfp, stream);
  }
  for (const JoinStage& stage : path.stages) {
    if (stage.lookup_relation < 0 || stage.lookup_relation >= n) {
      return Arity::Conflict();
    }
    const Arity lookup = inputs[stage.lookup_relation];
    if (lookup.state == Arity::State::kConflict) {
      stream = Arity::Conflict();
    } else if (lookup.known()) {
      // The lookup's value columns: those its key does not name plainly.
      int key_columns = 0;
      for (size_t i = 0; i < stage.lookup_key.size(); ++i) {
        const ScalarExpr& e = stage.lookup_key[i];
        if (!e.IsColumn() || e.column < 0 || e.column >= lookup.value) continue;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; ++j) {
          seen = stage.lookup_key[j].IsColumn() &&
                 stage.lookup_key[j].column == e.column;
        }
        if (!seen) ++key_columns;
      }
      stream = Arity::Known(static_cast<int>(stage.stream_key.size() +
                                             stage.stream_thinning.size()) +
                            lookup.value - key_columns);
    } else {
      stream = Arity::Unknown();
    }
    if (stage.closure.has_value()) {
      stream = MfpOutputArity(stage.closure->mfp, stream);
    }
  }
  if (path.final_closure.has_value()) {
    stream = MfpOutputArity(path.final_closure->mfp, stream);
  }
  return stream;
}

size_t AggregateCount(const ReduceOp& op) {
  switch (op.kind) {
    case ReduceKind::kDistinct:
      return 0;
    case ReduceKind::kAccumulable:
      return op.simple_aggrs.size() + op.distinct_aggrs.size();
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed:
      return op.aggr_funcs.size();
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple:
      return op.aggrs.size();
  }
  return 0;
}

}  // namespace

Arity JoinArity(Arity a, Arity b) {
  if (a.state == Arity::State::kUnknown) return b;
  if (b.state == Arity::State::kUnknown) return a;
  if (a == b) return a;
  return Arity::Conflict();
}

std::string FormatArity(Arity arity) {
  switch (arity.state) {
    case Arity::State::kUnknown:
      return "?";
    case Arity::State::kKnown:
      return absl::StrCat(arity.value);
    case Arity::State::kConflict:
      return "conflict";
  }
  return "?";
}

// The row's columns are the key's plain columns plus the thinning: they must
// be 0..n-1, each exactly once (Validate also checks the permutation).
Arity DescribedArity(const ArrangementForm& form) {
  const int key_columns = DistinctKeyColumns(form.key);
  if (key_columns < 0) return Arity::Conflict();
  const int n = key_columns + static_cast<int>(form.thinning.size());
  for (const ScalarExpr& e : form.key) {
    if (e.IsColumn() && e.column >= n) return Arity::Conflict();
  }
  for (size_t i = 0; i < form.thinning.size(); ++i) {
    const int c = form.thinning[i];
    if (c < 0 || c >= n || (i > 0 && c <= form.thinning[i - 1])) {
      return Arity::Conflict();
    }
    for (const ScalarExpr& e : form.key) {
      if (e.IsColumn() && e.column == c) return Arity::Conflict();
    }
  }
  return Arity::Known(n);
}

Arity MfpOutputArity(const MapFilterProject& mfp, Arity input) {
  if (mfp.project.has_value()) {
    return Arity::Known(static_cast<int>(mfp.project->size()));
  }
  // SEMANTICS 8.1: map columns are output only through a projection.
  return input;
}

void CollectRevealedArities(const Node& plan, RevealedArities* revealed) {
  // Null inputs are skipped here; the driver reports them.
  std::vector<const Node*> pending = {&plan};
  while (!pending.empty()) {
    const Node& node = *pending.back();
    pending.pop_back();
    for (const NodePtr& input : node.inputs) {
      if (input != nullptr) pending.push_back(input.get());
    }
    if (!node.Is<GetOp>()) continue;
    const GetOp& get = node.As<GetOp>();
    if (get.keys.arranged.empty()) continue;
    Arity described = Arity::Unknown();
    for (const ArrangementForm& form : get.keys.arranged) {
      described = JoinArity(described, DescribedArity(form));
    }
    Arity& slot = get.id.is_local ? revealed->locals[get.id.local]
                                  : revealed->globals[get.id.global];
    slot = JoinArity(slot, described);
  }
}

using Domain = Arity;

Domain ArityInterpreter::VisitConstant(const Context<Domain>&, const Node&,
                                       const ConstantOp& op) const {
  if (op.rows.empty()) return Arity::Unknown();
  Arity arity = Arity::Unknown();
  for (const ConstantOp::Entry& entry : op.rows) {
    arity = JoinArity(arity, Arity::Known(static_cast<int>(entry.row.size())));
  }
  return arity;
}

Domain ArityInterpreter::VisitGet(const Context<Domain>& ctx, const Node&,
                                  const GetOp& op) const {
  Arity arity = Arity::Unknown();
  if (op.id.is_local) {
    if (const Binding<Domain>* binding = ctx.Find(op.id.local)) {
      arity = binding->value;
    }
    auto it = revealed_.locals.find(op.id.local);
    if (it != revealed_.locals.end()) arity = JoinArity(arity, it->second);
  } else {
    auto given = given_.find(op.id.global);
    if (given != given_.end()) arity = Arity::Known(given->second);
    auto it = revealed_.globals.find(op.id.global);
    if (it != revealed_.globals.end()) arity = JoinArity(arity, it->second);
  }
  for (const ArrangementForm& form : op.keys.arranged) {
    arity = JoinArity(arity, DescribedArity(form));
  }
  if (op.kind == GetKind::kPassArrangements) return arity;
  if (op.kind == GetKind::kArrangement) {
    // The MFP reads the form's layout row (SEMANTICS 8.3).
    if (const ArrangementForm* form = op.keys.FindByKey(op.key)) {
      return MfpOutputArity(
          op.mfp, Arity::Known(static_cast<int>(form->key.size() +
                                                form->thinning.size())));
    }
  }
  return MfpOutputArity(op.mfp, arity);
}

Domain ArityInterpreter::VisitMfp(const Context<Domain>&, const Node&,
                                  const MfpOp& op, const Domain& input) const {
  return MfpOutputArity(op.mfp, ReadArity(op.input_key, input));
}

Domain ArityInterpreter::VisitFlatMap(const Context<Domain>&, const Node&,
                                      const FlatMapOp& op,
                                      const Domain& input) const {
  Arity widened = Arity::Unknown();
  if (input.state == Arity::State::kConflict) {
    widened = input;
  } else if (std::optional<int> produced =
                 validate_internal::TableFunctionArity(op.func);
             produced.has_value() && input.known()) {
    widened = Arity::Known(ReadArity(op.input_key, input).value + *produced);
  }
  return MfpOutputArity(op.mfp_after, widened);
}

Domain ArityInterpreter::VisitJoin(const Context<Domain>&, const Node&,
                                   const JoinOp& op,
                                   std::span<const Domain> inputs) const {
  if (op.paths.empty()) return Arity::Conflict();
  Arity arity = Arity::Unknown();
  for (const JoinPath& path : op.paths) {
    arity = JoinArity(arity, PathArity(path, op.delta, inputs));
  }
  return arity;
}

Domain ArityInterpreter::VisitReduce(const Context<Domain>&, const Node&,
                                     const ReduceOp& op,
                                     const Domain& input) const {
  const Arity key = MfpOutputArity(op.key_plan, ReadArity(op.input_key, input));
  Arity reduced = key;
  if (key.known()) {
    reduced = Arity::Known(key.value + static_cast<int>(AggregateCount(op)));
  }
  return MfpOutputArity(op.mfp_after, reduced);
}

Domain ArityInterpreter::VisitTopK(const Context<Domain>&, const Node&,
                                   const TopKOp&, const Domain& input) const {
  return input;
}

Domain ArityInterpreter::VisitNegate(const Context<Domain>&, const Node&,
                                     const NegateOp&,
                                     const Domain& input) const {
  return input;
}

Domain ArityInterpreter::VisitThreshold(const Context<Domain>&, const Node&,
                                        const ThresholdOp& op,
                                        const Domain& input) const {
  return JoinArity(input, DescribedArity(op.ensure_arrangement));
}

Domain ArityInterpreter::VisitUnion(const Context<Domain>&, const Node&,
                                    const UnionOp&,
                                    std::span<const Domain> inputs) const {
  Arity arity = Arity::Unknown();
  for (const Arity& input : inputs) arity = JoinArity(arity, input);
  return arity;
}

Domain ArityInterpreter::VisitArrangeBy(const Context<Domain>&, const Node&,
                                        const ArrangeByOp& op,
                                        const Domain& input) const {
  Arity arity = MfpOutputArity(op.input_mfp, ReadArity(op.input_key, input));
  for (const ArrangementForm& form : op.forms.arranged) {
    arity = JoinArity(arity, DescribedArity(form));
  }
  return arity;
}

Domain ArityInterpreter::VisitSetDifference(const Context<Domain>&,
                                            const Node&,
                                            const SetDifferenceOp& op,
                                            const Domain& base,
                                            const Domain& subtract) const {
  return JoinArity(JoinArity(base, subtract),
                   DescribedArity(op.ensure_arrangement));
}

absl::StatusOr<Analysis<Arity>> AnalyzeArity(
    const Node& plan, const std::map<std::string, int>& given) {
  RevealedArities revealed;
  CollectRevealedArities(plan, &revealed);
  return Analyze(ArityInterpreter(given, revealed), plan);
}

}  // namespace lir::interp
