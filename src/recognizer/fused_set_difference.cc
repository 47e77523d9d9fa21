// The fused set-difference recognizer and rewrite.
#include "src/recognizer/fused_set_difference.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/explain/text_primitives.h"
#include "src/lir/layout.h"
#include "src/recognizer/pass_driver.h"

namespace lir {
namespace {

using enum FusedSetDifferenceDecline;

FusionDecision Decline(FusedSetDifferenceDecline code, std::string message,
                       absl::string_view arm = "") {
  return FusionDecision::Declines(code, std::move(message), arm);
}

std::string KeyText(const std::vector<int>& key) {
  return absl::StrCat("[", explain::PrintIndices(key), "]");
}

// `Get::Collection materialize.public.t`, `ArrangeBy`, `Reduce::Distinct`.
std::string Describe(const Node& node) {
  if (node.Is<GetOp>()) {
    return absl::StrCat(HeaderName(node), " ", node.As<GetOp>().id.ToString());
  }
  return HeaderName(node);
}

// `key` mapped through a projection-only MFP; nullopt when the projection
// does not reach a key column.
std::optional<std::vector<int>> Through(const MapFilterProject& mfp,
                                        const std::vector<int>& key) {
  std::vector<int> out;
  out.reserve(key.size());
  for (int c : key) {
    int projected = mfp.ProjectedColumn(c);
    if (projected < 0) return std::nullopt;
    out.push_back(projected);
  }
  return out;
}

// `positions` of an arrangement's layout row mapped back to the columns of
// the collection (../shared/reference/SEMANTICS.md 4.3 and 8.2); nullopt when
// one holds only a key expression's value.
std::optional<std::vector<int>> LayoutToColumns(
    const std::vector<ScalarExpr>& arranged_key, const ArrangementForm* form,
    const std::vector<int>& positions) {
  std::vector<int> columns;
  columns.reserve(positions.size());
  for (int p : positions) {
    const int c = ColumnAtLayoutPosition(arranged_key, form, p);
    if (c < 0) return std::nullopt;
    columns.push_back(c);
  }
  return columns;
}

// Whether `forms` has an arrangement keyed by exactly the plain columns
// `key` (compared in place: this runs for every arrangement of every arm).
bool HasKey(const AvailableCollections& forms, const std::vector<int>& key) {
  for (const ArrangementForm& form : forms.arranged) {
    if (form.key.size() != key.size()) continue;
    bool same = true;
    for (size_t i = 0; same && i < key.size(); ++i) {
      same = form.key[i].IsColumn() && form.key[i].column == key[i];
    }
    if (same) return true;
  }
  return false;
}

// The verdict on one Union arm: either a decline or the key the fused
// operator reads, in the arm's underlying columns.
struct ArmVerdict {
  std::optional<FusionDecision> decline;
  std::vector<int> key;
};

ArmVerdict CheckGetArm(const GetOp& get, const Node& node,
                       const std::vector<int>& key,
                       const std::vector<int>& wrapper_key,
                       const std::string& arm) {
  const std::string what = Describe(node);
  std::vector<int> arm_key = wrapper_key;
  if (get.kind != GetKind::kPassArrangements) {
    if (get.seek.has_value()) {
      return {Decline(kNonProjectionMfp,
                      absl::StrCat(what,
                                   " reads a single value (val=) of its "
                                   "arrangement"),
                      arm),
              /*key=*/{}};
    }
    if (!get.mfp.IsProjectionOnly()) {
      return {Decline(kNonProjectionMfp,
                      absl::StrCat(what,
                                   " applies a map, filter or temporal "
                                   "filter, not only a projection"),
                      arm),
              /*key=*/{}};
    }
    std::optional<std::vector<int>> through = Through(get.mfp, wrapper_key);
    if (!through.has_value()) {
      return {Decline(kNotCoArranged,
                      absl::StrCat(what, " projects away a key column of ",
                                   KeyText(wrapper_key)),
                      arm),
              /*key=*/{}};
    }
    // A Get::Arrangement's projection selects positions of the layout row.
    if (get.kind == GetKind::kArrangement) {
      through = LayoutToColumns(get.key, get.keys.FindByKey(get.key), *through);
      if (!through.has_value()) {
        return {Decline(kNotCoArranged,
                        absl::StrCat(what, " reads a key column of ",
                                     KeyText(wrapper_key),
                                     " from a key expression of its "
                                     "arrangement"),
                        arm),
                /*key=*/{}};
      }
    }
    arm_key = *through;
  }
  if (HasKey(get.keys, arm_key)) return {std::nullopt, arm_key};
  if (arm_key != key && HasKey(get.keys, key)) {
    return {Decline(kKeyRemappedByProjection,
                    absl::StrCat(what, " is arranged on ", KeyText(key),
                                 " but the arm's projection reads the key as ",
                                 KeyText(arm_key)),
                    arm),
            /*key=*/{}};
  }
  return {
      Decline(kNotCoArranged,
              absl::StrCat(what, " has no arrangement on ", KeyText(arm_key)),
              arm),
      /*key=*/{}};
}

ArmVerdict CheckArrangeByArm(const Node& node, const ArrangeByOp& arrange,
                             const std::vector<int>& key,
                             const std::vector<int>& wrapper_key,
                             const std::string& arm) {
  if (!arrange.input_mfp.IsProjectionOnly()) {
    return {Decline(kNonProjectionMfp,
                    "ArrangeBy applies a map, filter or temporal filter before "
                    "arranging, not only a projection",
                    arm),
            /*key=*/{}};
  }
  // Forms are keyed by the ArrangeBy's output columns, input_key by its
  // input columns (before input_mfp).
  std::optional<std::vector<int>> input_key;
  if (arrange.input_key.has_value()) input_key = KeyColumns(*arrange.input_key);
  // With input_key, input_mfp reads the layout row of the input's form:
  // its projection selects layout positions, mapped back to input columns.
  std::optional<ArrangementForm> input_form;
  if (arrange.input_key.has_value() && !node.inputs.empty() &&
      node.inputs[0] != nullptr) {
    input_form = OfferedForm(*node.inputs[0], *arrange.input_key, std::nullopt);
  }
  auto input_columns = [&](const std::vector<int>& output_key)
      -> std::optional<std::vector<int>> {
    std::optional<std::vector<int>> through =
        Through(arrange.input_mfp, output_key);
    if (!through.has_value() || !arrange.input_key.has_value()) return through;
    return LayoutToColumns(*arrange.input_key,
                           input_form.has_value() ? &*input_form : nullptr,
                           *through);
  };
  auto reads = [&](const std::vector<int>& output_key)
      -> std::optional<std::vector<int>> {
    if (HasKey(arrange.forms, output_key)) return output_key;
    std::optional<std::vector<int>> input_side = input_columns(output_key);
    if (input_key.has_value() && input_side.has_value() &&
        *input_key == *input_side) {
      return input_side;
    }
    return std::nullopt;
  };
  if (std::optional<std::vector<int>> found = reads(wrapper_key)) {
    return {std::nullopt, *found};
  }
  // A projection (the wrapper's for the forms, then input_mfp's for
  // input_key) that moves the key away from an arrangement on the threshold
  // key itself: a textual match would fire, wrongly.
  std::optional<std::vector<int>> input_side = input_columns(wrapper_key);
  const bool forms_remapped = wrapper_key != key && HasKey(arrange.forms, key);
  const bool input_remapped = input_key.has_value() && input_side.has_value() &&
                              *input_side != key && *input_key == key;
  if (forms_remapped || input_remapped) {
    return {Decline(kKeyRemappedByProjection,
                    absl::StrCat(
                        "ArrangeBy is arranged on ", KeyText(key),
                        " but the arm's projection reads the key as ",
                        KeyText(forms_remapped ? wrapper_key : *input_side)),
                    arm),
            /*key=*/{}};
  }
  std::string input_note;
  if (input_key.has_value() && input_side.has_value()) {
    input_note = absl::StrCat(" (its input_key ", KeyText(*input_key),
                              " is not the arm's key ", KeyText(*input_side),
                              " in its input columns)");
  }
  return {Decline(kNotCoArranged,
                  absl::StrCat("ArrangeBy has no arrangement on ",
                               KeyText(wrapper_key), input_note),
                  arm),
          /*key=*/{}};
}

// Checks 6-10 of ../shared/reference/SEMANTICS.md 4.2 for one arm.
ArmVerdict CheckArm(const Node& arm_root, const std::vector<int>& key,
                    const std::string& arm) {
  const Node* node = &arm_root;
  std::vector<int> wrapper_key = key;
  if (node->Is<MfpOp>()) {
    const MfpOp& mfp = node->As<MfpOp>();
    if (!mfp.mfp.IsProjectionOnly()) {
      return {Decline(kNonProjectionMfp,
                      "Mfp applies a map, filter or temporal filter, not only "
                      "a projection",
                      arm),
              /*key=*/{}};
    }
    if (mfp.input_val.has_value()) {
      return {Decline(kNonProjectionMfp,
                      "Mfp reads a single value (input_val=) of its input "
                      "arrangement",
                      arm),
              /*key=*/{}};
    }
    std::optional<std::vector<int>> through = Through(mfp.mfp, key);
    if (!through.has_value()) {
      return {Decline(kNotCoArranged,
                      absl::StrCat("Mfp projects away a key column of ",
                                   KeyText(key)),
                      arm),
              /*key=*/{}};
    }
    // With input_key the wrapper reads its input's layout row.
    if (mfp.input_key.has_value()) {
      std::optional<ArrangementForm> form =
          OfferedForm(*node->inputs[0], *mfp.input_key, std::nullopt);
      through = LayoutToColumns(*mfp.input_key,
                                form.has_value() ? &*form : nullptr, *through);
      if (!through.has_value()) {
        return {Decline(kNotCoArranged,
                        absl::StrCat("Mfp reads a key column of ", KeyText(key),
                                     " from a key expression of its input "
                                     "arrangement"),
                        arm),
                /*key=*/{}};
      }
    }
    wrapper_key = *through;
    node = node->inputs[0].get();
  }
  if (node->Is<GetOp>()) {
    return CheckGetArm(node->As<GetOp>(), *node, key, wrapper_key, arm);
  }
  if (node->Is<ArrangeByOp>()) {
    return CheckArrangeByArm(*node, node->As<ArrangeByOp>(), key, wrapper_key,
                             arm);
  }
  return {
      Decline(kArmNotGetOrArrangeBy,
              absl::StrCat(Describe(*node), " is not a Get or an ArrangeBy"),
              arm),
      /*key=*/{}};
}

}  // namespace

FusionDecision CanFuseSetDifference(const Node& threshold,
                                    bool inside_let_rec) {
  const ArrangementForm& ensure =
      threshold.As<ThresholdOp>().ensure_arrangement;
  if (inside_let_rec) {
    return Decline(
        kInsideLetRec,
        "Threshold is inside the values of a With Mutually Recursive "
        "block");
  }
  if (threshold.inputs.size() != 1) {
    return Decline(kInputNotArranged, "Threshold does not have one input");
  }
  const Node& input = *threshold.inputs[0];
  if (!input.Is<ArrangeByOp>()) {
    return Decline(kInputNotArranged, absl::StrCat("input is ", Describe(input),
                                                   ", not an ArrangeBy"));
  }
  const ArrangeByOp& arrange = input.As<ArrangeByOp>();
  std::optional<std::vector<int>> key = KeyColumns(ensure.key);
  // Fusing sums diffs per key, so the key must be the whole row, in order
  // (`#0..#n-1`, as Materialize builds it and Validate requires).
  bool whole_row = key.has_value() && ensure.thinning.empty();
  for (size_t i = 0; whole_row && i < key->size(); ++i) {
    whole_row = (*key)[i] == static_cast<int>(i);
  }
  if (!whole_row) {
    return Decline(kInputNotArranged,
                   "the threshold key is not the whole row #0..#n-1");
  }
  if (arrange.forms.raw) {
    return Decline(kInputNotArranged,
                   "input ArrangeBy also keeps the raw form (raw=true)");
  }
  if (!HasKey(arrange.forms, *key)) {
    return Decline(kInputNotArranged,
                   absl::StrCat("input ArrangeBy has no arrangement on the "
                                "threshold key ",
                                KeyText(*key)));
  }
  if (!arrange.input_mfp.IsIdentity()) {
    return Decline(kInputNotArranged,
                   "input ArrangeBy transforms its input (input_mfp)");
  }
  const Node& union_node = *input.inputs[0];
  if (!union_node.Is<UnionOp>()) {
    return Decline(kNotTwoArmUnion,
                   absl::StrCat("ArrangeBy input is ", Describe(union_node),
                                ", not a Union"));
  }
  if (union_node.inputs.size() != 2) {
    return Decline(
        kNotTwoArmUnion,
        absl::StrCat("Union has ", union_node.inputs.size(), " arms"));
  }
  const bool negated0 = union_node.inputs[0]->Is<NegateOp>();
  const bool negated1 = union_node.inputs[1]->Is<NegateOp>();
  if (negated0 == negated1) {
    return Decline(kNotOneNegatedArm, negated0 ? "both Union arms are Negate"
                                               : "no Union arm is a Negate");
  }
  const UnionOp& union_op = union_node.As<UnionOp>();
  for (size_t i = 0; i < union_op.strategies.size(); ++i) {
    if (union_op.strategies[i] == UnionStrategy::kTemporalBucketing) {
      return Decline(kTemporalBucketing,
                     absl::StrCat("Union arm ", i, " uses TemporalBucketing"));
    }
  }
  if (arrange.temporal_bucketing) {
    return Decline(kTemporalBucketing,
                   "ArrangeBy uses strategy=TemporalBucketing");
  }
  const size_t negated = negated0 ? 0 : 1;
  const Node& base = *union_node.inputs[1 - negated];
  const Node& subtract = *union_node.inputs[negated]->inputs[0];
  ArmVerdict base_verdict = CheckArm(base, *key, "base");
  if (base_verdict.decline.has_value()) return *base_verdict.decline;
  ArmVerdict subtract_verdict = CheckArm(subtract, *key, "subtract");
  if (subtract_verdict.decline.has_value()) return *subtract_verdict.decline;

  return FusionDecision::Fires(
      SetDifferenceFusion{.negated_arm = negated,
                          .base_key = std::move(base_verdict.key),
                          .subtract_key = std::move(subtract_verdict.key)});
}

void FuseSetDifference(Node& threshold, const SetDifferenceFusion& fusion) {
  NodePtr arrange = std::move(threshold.inputs[0]);
  NodePtr union_node = std::move(arrange->inputs[0]);
  NodePtr negate = std::move(union_node->inputs[fusion.negated_arm]);
  NodePtr base = std::move(union_node->inputs[1 - fusion.negated_arm]);
  NodePtr subtract = std::move(negate->inputs[0]);
  SetDifferenceOp fused;
  fused.ensure_arrangement = threshold.As<ThresholdOp>().ensure_arrangement;
  fused.base_key = fusion.base_key;
  fused.subtract_key = fusion.subtract_key;
  threshold.op = std::move(fused);
  threshold.inputs.clear();
  threshold.inputs.push_back(std::move(base));
  threshold.inputs.push_back(std::move(subtract));
}

nlohmann::json FusedSetDifference::Details(
    const SetDifferenceFusion& fusion) const {
  return {{kBaseKeyField, fusion.base_key},
          {kSubtractKeyField, fusion.subtract_key}};
}

FusedKeys FusedKeysOf(const Candidate& candidate) {
  FusedKeys keys;
  const nlohmann::json& details = candidate.details;
  if (!details.is_object()) return keys;
  if (details.contains(kBaseKeyField)) {
    keys.base_key = details[kBaseKeyField].get<std::vector<int>>();
  }
  if (details.contains(kSubtractKeyField)) {
    keys.subtract_key = details[kSubtractKeyField].get<std::vector<int>>();
  }
  return keys;
}

absl::Status FusedSetDifferencePass(Document& doc, PassContext& ctx) {
  return RunPass(FusedSetDifference(), doc, ctx);
}

}  // namespace lir
