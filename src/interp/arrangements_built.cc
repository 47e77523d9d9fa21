// The arrangements-built interpreter's transfer functions and the totals.
//
// Names and rules follow the incremental engine's operator builders
// (src/eval/incremental_ops.cc BuildArrangeBy and Graph::Import,
// incremental_reduce.cc, incremental_join.cc), which model Materialize's
// rendering; tests/arrangements_built_test.cc holds the two to each other
// on the corpus.
#include "lir/interp/arrangements_built.h"
#include "lir/partial.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/interp/driver.h"
#include "lir/status_macros.h"
#include "src/explain/text_primitives.h"
#include "src/interp/borrow_internal.h"

namespace lir::interp {

std::string ArrangementKeyText(const std::vector<ScalarExpr>& key) {
  std::vector<std::string> parts;
  parts.reserve(key.size());
  for (const ScalarExpr& e : key) {
    parts.push_back(e.IsColumn() ? absl::StrCat("Column(", e.column, ")")
                                 : explain::PrintExpr(e));
  }
  return absl::StrCat("[[", absl::StrJoin(parts, ", "), "]]");
}

ArrangementsBuilt ArrangementsBuiltInterpreter::Join(
    const ArrangementsBuilt& a, const ArrangementsBuilt& b) const {
  ArrangementsBuilt out = a.offered.everything ? b : a;
  out.offered = JoinForms(a.offered, b.offered);
  return out;
}

AvailableForms ArrangementsBuiltInterpreter::FormsOf(const Node& node) const {
  const AvailableForms* forms =
      forms_ == nullptr ? nullptr : forms_->Find(node);
  return forms == nullptr ? AvailableForms() : *forms;
}

namespace {

/// Raw output: consumers can read no arrangement of it.
ArrangementsBuilt RawOnly() {
  ArrangementsBuilt out;
  out.offered = AvailableForms::Raw();
  return out;
}

}  // namespace

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitConstant(
    const Context<ArrangementsBuilt>&, const Node&, const ConstantOp&) const {
  return RawOnly();
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitGet(
    const Context<ArrangementsBuilt>& ctx, const Node&, const GetOp& op) const {
  if (op.id.is_local) {
    // A local's arrangements were built (and counted) by its value. A
    // recursive binding circulates unarranged.
    if (op.kind != GetKind::kPassArrangements) return RawOnly();
    const Binding<ArrangementsBuilt>* binding = ctx.Find(op.id.local);
    if (binding == nullptr || binding->recursive) return RawOnly();
    ArrangementsBuilt out;
    out.offered = binding->value.offered;
    return out;
  }
  ArrangementsBuilt out;
  out.offered = op.kind == GetKind::kPassArrangements
                    ? AvailableForms::Of(op.keys)
                    : AvailableForms::Raw();
  // A global read through its arrangements reads indexes maintained
  // outside the dataflow; a Collection read scans the raw collection.
  if (op.kind == GetKind::kCollection) return out;
  std::vector<const std::vector<ScalarExpr>*> seen;
  for (const ArrangementForm& form : op.keys.arranged) {
    bool repeated = false;
    for (const std::vector<ScalarExpr>* key : seen) {
      repeated = repeated || SameIgnoringNames(*key, form.key);
    }
    if (repeated) continue;
    seen.push_back(&form.key);
    out.imported.push_back(
        absl::StrCat("Index ", op.id.global, ArrangementKeyText(form.key)));
  }
  return out;
}

// Raw only, even when its MFP turns an arranged read back into the rows
// (see the class comment).
ArrangementsBuilt ArrangementsBuiltInterpreter::VisitMfp(
    const Context<ArrangementsBuilt>&, const Node&, const MfpOp&,
    const ArrangementsBuilt&) const {
  return RawOnly();
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitFlatMap(
    const Context<ArrangementsBuilt>&, const Node&, const FlatMapOp&,
    const ArrangementsBuilt&) const {
  return RawOnly();
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitJoin(
    const Context<ArrangementsBuilt>&, const Node&, const JoinOp& op,
    std::span<const ArrangementsBuilt> inputs) const {
  ArrangementsBuilt out = RawOnly();
  const size_t n = inputs.size();
  auto valid = [n](int relation) {
    return relation >= 0 && static_cast<size_t>(relation) < n;
  };
  // Each (relation, key) a stage looks up is resolved once for the whole
  // join, in every path: the relation's own arrangement when it offers one,
  // else one the join keeps.
  std::vector<std::pair<int, const std::vector<ScalarExpr>*>> resolved;
  auto lookup = [&](int relation, const std::vector<ScalarExpr>& key) {
    for (const auto& entry : resolved) {
      if (entry.first == relation && SameIgnoringNames(*entry.second, key)) {
        return;
      }
    }
    resolved.emplace_back(relation, &key);
    if (!inputs[relation].offered.HasKey(key)) {
      out.built.push_back(absl::StrCat("JoinLookup", ArrangementKeyText(key)));
    }
  };
  for (const JoinPath& path : op.paths) {
    if (!valid(path.source_relation)) continue;
    for (const JoinStage& stage : path.stages) {
      if (valid(stage.lookup_relation)) {
        lookup(stage.lookup_relation, stage.lookup_key);
      }
    }
  }
  if (op.delta || op.paths.empty() || !valid(op.paths[0].source_relation)) {
    return out;
  }
  // A linear join arranges the stream of every stage, except that the first
  // stage streams the source relation itself, whose own arrangement on the
  // source key serves when the rows reach the stage unchanged.
  const JoinPath& path = op.paths[0];
  for (size_t i = 0; i < path.stages.size(); ++i) {
    const JoinStage& stage = path.stages[i];
    const bool source_arranged =
        i == 0 && path.source_key.has_value() &&
        !path.initial_closure.has_value() &&
        SameIgnoringNames(*path.source_key, stage.stream_key) &&
        inputs[path.source_relation].offered.HasKey(stage.stream_key);
    if (source_arranged) {
      lookup(path.source_relation, stage.stream_key);
      continue;
    }
    out.built.push_back(
        absl::StrCat("JoinStage ", i, ArrangementKeyText(stage.stream_key)));
  }
  return out;
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitReduce(
    const Context<ArrangementsBuilt>&, const Node& node, const ReduceOp& op,
    const ArrangementsBuilt&) const {
  ArrangementsBuilt out;
  out.offered = FormsOf(node);
  // The output arrangement holds rows after mfp_after by group key: it
  // serves as an arrangement on #0..#k-1 only while mfp_after keeps the key
  // in front.
  if (op.mfp_after.project.has_value() && out.offered.arranged.size() == 1) {
    const std::vector<int>& project = *op.mfp_after.project;
    const size_t width = out.offered.arranged[0]->size();
    bool in_front = project.size() >= width;
    for (size_t c = 0; in_front && c < width; ++c) {
      in_front = project[c] == static_cast<int>(c);
    }
    if (!in_front) out.offered = AvailableForms();
  }
  // Materialize's names for the input arrangement (by group key) and the
  // output arrangement of each strategy (compute/src/render/reduce.rs).
  // The bucketed hierarchical stages are not modelled: one pair.
  switch (op.kind) {
    case ReduceKind::kDistinct:
      out.built = {"Arranged DistinctBy", "DistinctBy"};
      break;
    case ReduceKind::kAccumulable:
      out.built = {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"};
      break;
    case ReduceKind::kHierarchicalMonotonic:
      out.built = {"ArrangeMonotonic [val: empty]", "ReduceMonotonic"};
      break;
    case ReduceKind::kHierarchicalBucketed:
      out.built = {"Arrange ReduceMinsMaxes", "ReduceMinsMaxes"};
      break;
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple:
      out.built = {"Arranged ReduceInaccumulable", "ReduceInaccumulable"};
      break;
  }
  return out;
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitTopK(
    const Context<ArrangementsBuilt>&, const Node& node, const TopKOp& op,
    const ArrangementsBuilt&) const {
  ArrangementsBuilt out;
  out.offered = FormsOf(node);
  switch (op.kind) {
    case TopKKind::kMonotonicTop1:
      out.built = {"Arranged MonotonicTop1 partial [val: empty]",
                   "MonotonicTop1"};
      break;
    case TopKKind::kMonotonicTopK:
    case TopKKind::kBasic:
      out.built = {"Arranged TopK input", "Reduced TopK input"};
      break;
  }
  return out;
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitNegate(
    const Context<ArrangementsBuilt>&, const Node&, const NegateOp&,
    const ArrangementsBuilt&) const {
  return RawOnly();
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitThreshold(
    const Context<ArrangementsBuilt>&, const Node& node, const ThresholdOp& op,
    const ArrangementsBuilt& input) const {
  ArrangementsBuilt out;
  out.offered = FormsOf(node);
  // Trace T is the input's arrangement on the threshold key (Materialize
  // always gives Threshold an arranged input); only without one is a
  // private copy needed.
  if (!input.offered.HasKey(op.ensure_arrangement.key)) {
    out.built.push_back("Arranged Threshold input");
  }
  out.built.push_back("Threshold local");
  return out;
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitUnion(
    const Context<ArrangementsBuilt>&, const Node&, const UnionOp&,
    std::span<const ArrangementsBuilt>) const {
  return RawOnly();
}

ArrangementsBuilt ArrangementsBuiltInterpreter::VisitArrangeBy(
    const Context<ArrangementsBuilt>&, const Node&, const ArrangeByOp& op,
    const ArrangementsBuilt& input) const {
  ArrangementsBuilt out;
  // A form the input already offers is read, not rebuilt; the input's forms
  // describe the output only when input_mfp leaves the rows unchanged.
  if (op.input_mfp.IsIdentity() && !input.offered.everything) {
    out.offered = input.offered;
  }
  out.offered.raw = out.offered.raw || op.forms.raw;
  for (const ArrangementForm& form : op.forms.arranged) {
    if (out.offered.HasKey(form.key)) continue;
    out.offered.AddKey(PlanKey(form.key));
    out.built.push_back(
        absl::StrCat("ArrangeBy", ArrangementKeyText(form.key)));
  }
  return out;
}

// The fused operator reads its arms' arrangements and keeps only its output
// (SEMANTICS 3: no trace T, no Union consolidation).
ArrangementsBuilt ArrangementsBuiltInterpreter::VisitSetDifference(
    const Context<ArrangementsBuilt>&, const Node& node, const SetDifferenceOp&,
    const ArrangementsBuilt&, const ArrangementsBuilt&) const {
  ArrangementsBuilt out;
  out.offered = FormsOf(node);
  out.built.push_back("SetDifference");
  return out;
}

// It reads its arms' arrangements and builds none (SEMANTICS 7.1).
ArrangementsBuilt ArrangementsBuiltInterpreter::VisitAntiJoin(
    const Context<ArrangementsBuilt>&, const Node&, const AntiJoinOp&,
    const ArrangementsBuilt&, const ArrangementsBuilt&) const {
  return RawOnly();
}

absl::StatusOr<Analysis<ArrangementsBuilt>> AnalyzeArrangementsBuilt(
    const Node& plan, const Analysis<AvailableForms>& forms) {
  LIR_RETURN_IF_ERROR(RequireKnownFacts(plan, "the arrangement accounting"));
  // The interpreter lives only for this call, so it may borrow `forms`.
  return Analyze(
      ArrangementsBuiltInterpreter(interp_internal::BorrowForThisCall(&forms)),
      plan);
}

const ArrangementsBuilt& BuiltBy(const Analysis<ArrangementsBuilt>& analysis,
                                 const Node& node) {
  static const ArrangementsBuilt* const kNothing = new ArrangementsBuilt();
  if (node.Is<LetOp>() || node.Is<LetRecOp>()) return *kNothing;
  const ArrangementsBuilt* found = analysis.Find(node);
  return found == nullptr ? *kNothing : *found;
}

ArrangementCount TotalArrangements(
    const Node& plan, const Analysis<ArrangementsBuilt>& analysis) {
  ArrangementCount count;
  std::set<std::string> imports;
  ForEachPreOrder(plan, [&](const Node& node, int) {
    const ArrangementsBuilt& own = BuiltBy(analysis, node);
    count.built += own.built.size();
    imports.insert(own.imported.begin(), own.imported.end());
  });
  count.imported = imports.size();
  return count;
}

absl::StatusOr<ArrangementCount> CountArrangementsBuilt(
    const Node& plan, const AnalysisInputs& inputs) {
  RevealedArities revealed;
  CollectRevealedArities(plan, &revealed);
  LIR_ASSIGN_OR_RETURN(
      Analysis<Arity> arities,
      Analyze(ArityInterpreter(inputs.global_arity, std::move(revealed)),
              plan));
  LIR_ASSIGN_OR_RETURN(Analysis<AvailableForms> forms,
                       AnalyzeArrangements(plan, &arities));
  LIR_ASSIGN_OR_RETURN(Analysis<ArrangementsBuilt> built,
                       AnalyzeArrangementsBuilt(plan, forms));
  return TotalArrangements(plan, built);
}

}  // namespace lir::interp
