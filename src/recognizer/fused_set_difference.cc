// The fused set-difference recognizer and rewrite.
#include "lir/recognizer/fused_set_difference.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lir/arm_key.h"
#include "lir/recognizer/pass_driver.h"

namespace lir {
namespace {

FusionDecision DeclineFusion(FusedSetDifferenceDecline code,
                             std::string message, std::string_view arm = "") {
  return FusionDecision::Declines(code, std::move(message), arm);
}

// The decline code of an arm problem (checks 6-10).
FusedSetDifferenceDecline CodeOf(ArmProblem problem) {
  // In the functions, not the file: a unity build puts this file beside
  // antijoin.cc, whose AntiJoinDecline has enumerators of the same names.
  using enum FusedSetDifferenceDecline;
  switch (problem) {
    case ArmProblem::kNonProjectionMfp: return kNonProjectionMfp;
    case ArmProblem::kNotGetOrArrangeBy: return kArmNotGetOrArrangeBy;
    case ArmProblem::kKeyRemappedByProjection: return kKeyRemappedByProjection;
    case ArmProblem::kNone:
    case ArmProblem::kNotCoArranged: break;
  }
  return kNotCoArranged;
}

// Checks 6-10 for one arm: the key the operator reads, or a decline.
std::optional<FusionDecision> CheckArm(const Node& arm_root,
                                       const std::vector<int>& key,
                                       std::string_view arm,
                                       std::vector<int>* arm_key) {
  ArmRead read = ResolveArmKey(arm_root, key);
  if (read.problem == ArmProblem::kNone) {
    *arm_key = std::move(read.key);
    return std::nullopt;
  }
  return DeclineFusion(CodeOf(read.problem), std::move(read.message), arm);
}

}  // namespace

FusionDecision CanFuseSetDifference(const Node& threshold,
                                    bool inside_let_rec) {
  return MatchCoArrangedAntiSide(threshold, inside_let_rec, "subtract");
}

FusionDecision MatchCoArrangedAntiSide(const Node& threshold,
                                       bool inside_let_rec,
                                       std::string_view subtract_arm) {
  using enum FusedSetDifferenceDecline;  // see CodeOf
  const ArrangementForm& ensure =
      threshold.As<ThresholdOp>().ensure_arrangement;
  if (inside_let_rec) {
    return DeclineFusion(
        kInsideLetRec,
        "Threshold is inside the values of a With Mutually Recursive "
        "block");
  }
  if (threshold.inputs.size() != 1) {
    return DeclineFusion(kInputNotArranged,
                         "Threshold does not have one input");
  }
  const Node& input = *threshold.inputs[0];
  if (!input.Is<ArrangeByOp>()) {
    return DeclineFusion(
        kInputNotArranged,
        absl::StrCat("input is ", DescribeNode(input), ", not an ArrangeBy"));
  }
  const ArrangeByOp& arrange = input.As<ArrangeByOp>();
  std::optional<std::vector<int>> key = KeyColumns(ensure.key);
  // Fusing sums diffs per key, so the key must be the whole row, in order
  // (`#0..#n-1`, as Materialize builds it and Validate requires).
  if (threshold.unknown.Has(UnknownFact::kArrangementLayouts)) {
    // A partial plan whose arity nothing reveals: the key may or may not
    // cover every column (InferPartialFacts fills the layout when it can).
    return DeclineFusion(
        kInputNotArranged,
        "the concise form does not show whether the threshold key "
        "is the whole row (the input's arity is unknown)");
  }
  bool whole_row = key.has_value() && ensure.thinning.empty();
  for (size_t i = 0; whole_row && i < key->size(); ++i) {
    whole_row = (*key)[i] == static_cast<int>(i);
  }
  if (!whole_row) {
    return DeclineFusion(kInputNotArranged,
                         "the threshold key is not the whole row #0..#n-1");
  }
  // A partial plan's ArrangeBy does not show its raw flag; Materialize's
  // lowering arranges a Threshold's input for it alone (only the
  // ensure_arrangement form, no raw collection), so an unknown flag is
  // taken as raw=false and the assumption is reported with the candidate.
  std::vector<std::string> assumptions;
  if (input.unknown.Has(UnknownFact::kRawFlag)) {
    assumptions.push_back("ArrangeBy raw=false (not shown)");
  }
  if (arrange.forms.raw) {
    return DeclineFusion(kInputNotArranged,
                         "input ArrangeBy also keeps the raw form (raw=true)");
  }
  if (!HasColumnKey(arrange.forms, *key)) {
    return DeclineFusion(
        kInputNotArranged,
        absl::StrCat("input ArrangeBy has no arrangement on the "
                     "threshold key ",
                     KeyText(*key)));
  }
  if (!arrange.input_mfp.IsIdentity()) {
    return DeclineFusion(kInputNotArranged,
                         "input ArrangeBy transforms its input (input_mfp)");
  }
  const Node& union_node = *input.inputs[0];
  if (!union_node.Is<UnionOp>()) {
    return DeclineFusion(kNotTwoArmUnion, absl::StrCat("ArrangeBy input is ",
                                                       DescribeNode(union_node),
                                                       ", not a Union"));
  }
  if (union_node.inputs.size() != 2) {
    return DeclineFusion(
        kNotTwoArmUnion,
        absl::StrCat("Union has ", union_node.inputs.size(), " arms"));
  }
  const bool negated0 = union_node.inputs[0]->Is<NegateOp>();
  const bool negated1 = union_node.inputs[1]->Is<NegateOp>();
  if (negated0 == negated1) {
    return DeclineFusion(kNotOneNegatedArm, negated0
                                                ? "both Union arms are Negate"
                                                : "no Union arm is a Negate");
  }
  const UnionOp& union_op = union_node.As<UnionOp>();
  for (size_t i = 0; i < union_op.strategies.size(); ++i) {
    if (union_op.strategies[i] == UnionStrategy::kTemporalBucketing) {
      return DeclineFusion(
          kTemporalBucketing,
          absl::StrCat("Union arm ", i, " uses TemporalBucketing"));
    }
  }
  if (arrange.temporal_bucketing) {
    return DeclineFusion(kTemporalBucketing,
                         "ArrangeBy uses strategy=TemporalBucketing");
  }
  // The concise form never shows an ArrangeBy's strategy; Materialize
  // buckets an ArrangeBy only under a temporal filter, which the plan would
  // show. Reported like the raw flag.
  if (input.unknown.Has(UnknownFact::kArrangeStrategy)) {
    assumptions.push_back("ArrangeBy strategy=Direct (not shown)");
  }
  const size_t negated = negated0 ? 0 : 1;
  const Node& base = *union_node.inputs[1 - negated];
  const Node& subtract = *union_node.inputs[negated]->inputs[0];
  std::vector<int> base_key, subtract_key;
  if (auto declined = CheckArm(base, *key, "base", &base_key)) {
    return *declined;
  }
  if (auto declined = CheckArm(subtract, *key, subtract_arm, &subtract_key)) {
    return *declined;
  }
  return FusionDecision::Fires(
      SetDifferenceFusion{.negated_arm = negated,
                          .base_key = std::move(base_key),
                          .subtract_key = std::move(subtract_key),
                          .assumptions = std::move(assumptions)});
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
  nlohmann::json details = {{kBaseKeyField, fusion.base_key},
                            {kSubtractKeyField, fusion.subtract_key}};
  if (!fusion.assumptions.empty()) details["assumes"] = fusion.assumptions;
  return details;
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
