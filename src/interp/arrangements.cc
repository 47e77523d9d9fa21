// The arrangements interpreter's transfer functions.
#include "lir/interp/arrangements.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/interp/driver.h"
#include "lir/layout.h"
#include "src/explain/text_primitives.h"
#include "src/interp/borrow_internal.h"

namespace lir::interp {

SharedKey OwnedKey(std::vector<ScalarExpr> key) {
  return std::make_shared<const std::vector<ScalarExpr>>(std::move(key));
}

SharedKey PlanKey(const std::vector<ScalarExpr>& key) {
  // The aliasing constructor with an empty owner: a non-owning pointer.
  return SharedKey(std::shared_ptr<void>(), &key);
}

AvailableForms AvailableForms::Raw() {
  AvailableForms forms;
  forms.raw = true;
  return forms;
}

AvailableForms AvailableForms::ArrangedBy(SharedKey key) {
  AvailableForms forms;
  forms.arranged.push_back(std::move(key));
  return forms;
}

AvailableForms AvailableForms::Of(const AvailableCollections& collections) {
  AvailableForms forms;
  forms.raw = collections.raw;
  for (const ArrangementForm& form : collections.arranged) {
    forms.AddKey(PlanKey(form.key));
  }
  return forms;
}

bool AvailableForms::HasKey(const std::vector<ScalarExpr>& key) const {
  for (const SharedKey& present : arranged) {
    if (SameIgnoringNames(*present, key)) return true;
  }
  return false;
}

void AvailableForms::AddKey(SharedKey key) {
  if (!HasKey(*key)) arranged.push_back(std::move(key));
}

bool SameForms(const AvailableForms& a, const AvailableForms& b) {
  if (a.everything || b.everything) return a.everything == b.everything;
  if (a.raw != b.raw || a.unknown_key != b.unknown_key ||
      a.arranged.size() != b.arranged.size()) {
    return false;
  }
  for (const SharedKey& key : a.arranged) {
    if (!b.HasKey(*key)) return false;
  }
  return true;
}

AvailableForms JoinForms(const AvailableForms& a, const AvailableForms& b) {
  if (a.everything) return b;
  if (b.everything) return a;
  AvailableForms both;
  both.raw = a.raw && b.raw;
  both.unknown_key = a.unknown_key && b.unknown_key;
  for (const SharedKey& key : a.arranged) {
    if (b.HasKey(*key)) both.arranged.push_back(key);
  }
  return both;
}

std::string FormatForms(const AvailableForms& forms) {
  if (forms.everything) return "*";
  std::vector<std::string> parts;
  if (forms.raw) parts.push_back("raw");
  for (const SharedKey& key : forms.arranged) {
    parts.push_back(absl::StrCat("[", explain::PrintCompactScalars(*key), "]"));
  }
  if (forms.unknown_key) parts.push_back("[?]");
  if (parts.empty()) return "none";
  return absl::StrJoin(parts, ", ");
}

AvailableForms ArrangementsInterpreter::VisitConstant(
    const Context<AvailableForms>&, const Node&, const ConstantOp&) const {
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitGet(
    const Context<AvailableForms>& ctx, const Node& node,
    const GetOp& op) const {
  if (op.kind != GetKind::kPassArrangements) return AvailableForms::Raw();
  if (!op.id.is_local) {
    if (node.unknown.Has(UnknownFact::kAvailableForms)) {
      // `→Arranged X` (concise): arranged, by keys the text does not show.
      AvailableForms forms;
      forms.unknown_key = true;
      return forms;
    }
    return AvailableForms::Of(op.keys);
  }
  const Binding<AvailableForms>* binding = ctx.Find(op.id.local);
  // Materialize feeds recursive bindings back as plain collections; an
  // arrangement of a LetRec value is not visible through its id.
  if (binding == nullptr || binding->recursive) return AvailableForms::Raw();
  return binding->value;
}

namespace {

/// Whether `mfp` (projection-only) applied to the layout row of `input`'s
/// arrangement by `key` yields exactly the collection's `arity`-column row.
bool RestoresRow(const Node& input, const std::vector<ScalarExpr>& key,
                 const MapFilterProject& mfp, int arity) {
  std::optional<ArrangementForm> form = ReadForm(input, key, arity);
  if (!form.has_value()) return false;
  std::optional<Layout> layout = MakeLayout(*form);
  if (!layout.has_value() || layout->row_arity != arity) return false;
  for (int c = 0; c < arity; ++c) {
    const int read =
        mfp.project.has_value()
            ? (static_cast<size_t>(c) < mfp.project->size() ? (*mfp.project)[c]
                                                            : -1)
            : c;
    if (read != layout->position[c]) return false;
  }
  const int output = mfp.OutputArity(layout->arity);
  return output == arity;
}

}  // namespace

AvailableForms ArrangementsInterpreter::VisitMfp(const Context<AvailableForms>&,
                                                 const Node& node,
                                                 const MfpOp& op,
                                                 const AvailableForms&) const {
  // Reading an arrangement through an MFP that only turns the layout row
  // back into the collection's row (only useful with a seek, `input_val=`)
  // keeps the output in that arrangement (../shared/reference/SEMANTICS.md
  // section 2).
  if (node.unknown.Has(UnknownFact::kInputKey) && op.mfp.IsProjectionOnly()) {
    // It may pass its input's arrangement on (above); which one is unknown,
    // so nothing is guaranteed.
    return AvailableForms();
  }
  if (op.input_key.has_value() && op.mfp.IsProjectionOnly() &&
      arities_ != nullptr) {
    const Arity* input = arities_->Find(*node.inputs[0]);
    if (input != nullptr && input->known() &&
        RestoresRow(*node.inputs[0], *op.input_key, op.mfp, input->value)) {
      return AvailableForms::ArrangedBy(PlanKey(*op.input_key));
    }
  }
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitFlatMap(
    const Context<AvailableForms>&, const Node&, const FlatMapOp&,
    const AvailableForms&) const {
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitJoin(
    const Context<AvailableForms>&, const Node&, const JoinOp&,
    std::span<const AvailableForms>) const {
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitReduce(
    const Context<AvailableForms>&, const Node& node, const ReduceOp& op,
    const AvailableForms&) const {
  Arity input = Arity::Unknown();
  if (arities_ != nullptr) {
    if (const Arity* found = arities_->Find(*node.inputs[0])) input = *found;
  }
  // With an input key, key_plan reads the layout row
  // (../shared/reference/SEMANTICS.md 8.3); an unknown one (partial plan)
  // hides its width.
  if (node.unknown.Has(UnknownFact::kInputKey)) input = Arity::Unknown();
  if (op.input_key.has_value() && input.known()) {
    input = Arity::Known(LayoutArity(*op.input_key, input.value));
  }
  const Arity key = MfpOutputArity(op.key_plan, input);
  if (!key.known()) {
    AvailableForms forms;
    forms.unknown_key = true;
    return forms;
  }
  return AvailableForms::ArrangedBy(PrefixKey(key.value));
}

SharedKey ArrangementsInterpreter::PrefixKey(int width) const {
  if (prefix_keys_.size() <= static_cast<size_t>(width)) {
    prefix_keys_.resize(width + 1);
  }
  SharedKey& key = prefix_keys_[width];
  if (key == nullptr) {
    std::vector<int> columns(width);
    for (int i = 0; i < width; ++i) columns[i] = i;
    key = OwnedKey(ColumnKey(columns));
  }
  return key;
}

AvailableForms ArrangementsInterpreter::VisitTopK(
    const Context<AvailableForms>&, const Node&, const TopKOp& op,
    const AvailableForms&) const {
  if (op.kind == TopKKind::kMonotonicTop1) {
    return AvailableForms::ArrangedBy(OwnedKey(ColumnKey(op.group_by)));
  }
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitNegate(
    const Context<AvailableForms>&, const Node&, const NegateOp&,
    const AvailableForms&) const {
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitThreshold(
    const Context<AvailableForms>&, const Node&, const ThresholdOp& op,
    const AvailableForms&) const {
  return AvailableForms::ArrangedBy(PlanKey(op.ensure_arrangement.key));
}

AvailableForms ArrangementsInterpreter::VisitUnion(
    const Context<AvailableForms>&, const Node&, const UnionOp&,
    std::span<const AvailableForms>) const {
  return AvailableForms::Raw();
}

AvailableForms ArrangementsInterpreter::VisitArrangeBy(
    const Context<AvailableForms>&, const Node&, const ArrangeByOp& op,
    const AvailableForms& input) const {
  AvailableForms forms;
  if (op.input_mfp.IsIdentity() && !input.everything) forms = input;
  forms.raw = forms.raw || op.forms.raw;
  for (const ArrangementForm& form : op.forms.arranged) {
    forms.AddKey(PlanKey(form.key));
  }
  return forms;
}

AvailableForms ArrangementsInterpreter::VisitSetDifference(
    const Context<AvailableForms>&, const Node&, const SetDifferenceOp& op,
    const AvailableForms&, const AvailableForms&) const {
  return AvailableForms::ArrangedBy(PlanKey(op.ensure_arrangement.key));
}

// It builds no arrangement (SEMANTICS 7.1).
AvailableForms ArrangementsInterpreter::VisitAntiJoin(
    const Context<AvailableForms>&, const Node&, const AntiJoinOp&,
    const AvailableForms&, const AvailableForms&) const {
  return AvailableForms::Raw();
}

absl::StatusOr<Analysis<AvailableForms>> AnalyzeArrangements(
    const Node& plan, const Analysis<Arity>* arities) {
  // The interpreter lives only for this call, so it may borrow `arities`.
  return Analyze(
      ArrangementsInterpreter(interp_internal::BorrowForThisCall(arities)),
      plan);
}

}  // namespace lir::interp
