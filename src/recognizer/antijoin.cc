// Form A of the antijoin rendering: the rewrite of a co-arranged anti-side
// whose arms are sets (../shared/reference/SEMANTICS.md 7.2).
#include "lir/recognizer/antijoin.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lir/arm_key.h"
#include "lir/arrangement.h"
#include "lir/recognizer/pass_driver.h"
#include "src/recognizer/antijoin_decline.h"

namespace lir {
namespace {

using enum AntiJoinDecline;

using antijoin_internal::Decline;

// The fused set difference's decline codes are the first entries of ours,
// in the same order.
static_assert(std::size(kAllFusedSetDifferenceDeclines) ==
              static_cast<size_t>(kBaseNotSet));
AntiJoinDecline FromSetDifference(FusedSetDifferenceDecline code) {
  return static_cast<AntiJoinDecline>(code);
}

// Whether the unique-keys analysis proves `node` a set: some key within its
// columns (every key is), so no row has a count other than 0 or 1. Fills
// `why` when it does not.
bool ProvenSet(const Node& node, CandidateContext& ctx, std::string* why) {
  const auto& keys = ctx.analyses.UniqueKeys();
  if (!keys.ok()) {
    *why = absl::StrCat("the unique-keys analysis failed: ",
                        keys.status().message());
    return false;
  }
  const interp::UniqueKeys* found = keys->Find(node);
  if (found == nullptr || found->keys.empty()) {
    *why = absl::StrCat(DescribeNode(node), " has no proven unique key");
    return false;
  }
  return true;
}

// The input_key through which `consumer` reads its input, if it has one.
const std::optional<std::vector<ScalarExpr>>* InputKeyOf(const Node& consumer) {
  if (const auto* mfp = consumer.If<MfpOp>()) return &mfp->input_key;
  if (const auto* flat_map = consumer.If<FlatMapOp>()) {
    return &flat_map->input_key;
  }
  if (const auto* reduce = consumer.If<ReduceOp>()) return &reduce->input_key;
  if (const auto* arrange = consumer.If<ArrangeByOp>()) {
    return &arrange->input_key;
  }
  return nullptr;
}

// Check 13 on the node that reads the Threshold's output. A Let or LetRec
// whose body the output is passes it on, so its own reader is the one
// asked. Sets `*consumer` when the reader's input_key must be cleared.
std::optional<AntiJoinDecision> CheckConsumer(
    const Node& threshold, const std::vector<ScalarExpr>& threshold_key,
    std::span<Node* const> ancestors, Node** consumer) {
  const Node* output = &threshold;
  size_t depth = ancestors.size();
  for (; depth > 0; --depth) {
    const Node& parent = *ancestors[depth - 1];
    const bool binder = parent.Is<LetOp>() || parent.Is<LetRecOp>();
    if (!binder) break;
    if (parent.inputs.back().get() != output) {
      // A LetRec's values are recursive: check 1 declined them already.
      const std::string bound = parent.Is<LetOp>()
                                    ? absl::StrCat("l", parent.As<LetOp>().id)
                                    : std::string("a recursive id");
      return Decline(kOutputArrangementConsumed,
                     absl::StrCat("the Threshold is the value bound to ", bound,
                                  ", whose readers may use its arrangement"));
    }
    output = &parent;
  }
  if (depth == 0) {
    return Decline(kOutputArrangementConsumed,
                   "the Threshold's output is the object's result, which "
                   "keeps its arrangement");
  }
  Node& reader = *ancestors[depth - 1];
  const std::string who = DescribeNode(reader);
  switch (reader.kind()) {
    case NodeKind::kUnion:
    case NodeKind::kNegate:
    case NodeKind::kTopK: return std::nullopt;  // raw readers
    case NodeKind::kMfp:
    case NodeKind::kFlatMap:
    case NodeKind::kReduce:
    case NodeKind::kArrangeBy: break;
    case NodeKind::kJoin:
      return Decline(kOutputArrangementConsumed,
                     absl::StrCat("the Threshold is an input of ", who,
                                  ", which reads its arrangement"));
    case NodeKind::kThreshold:
    case NodeKind::kSetDifference:
    case NodeKind::kAntiJoin:
      return Decline(kOutputArrangementConsumed,
                     absl::StrCat(who, " reads the Threshold's arrangement"));
    case NodeKind::kConstant:
    case NodeKind::kGet:
    case NodeKind::kLet:
    case NodeKind::kLetRec:
      // No input (Constant, Get), or handled above (Let, LetRec).
      return Decline(kOutputArrangementConsumed,
                     absl::StrCat("unexpected reader ", who));
  }
  const std::optional<std::vector<ScalarExpr>>& input_key = *InputKeyOf(reader);
  if (const auto* mfp = reader.If<MfpOp>();
      mfp != nullptr && mfp->input_val.has_value()) {
    return Decline(kOutputArrangementConsumed,
                   absl::StrCat(who,
                                " looks up input_val in the Threshold's "
                                "arrangement"));
  }
  if (const auto* arrange = reader.If<ArrangeByOp>();
      arrange != nullptr && arrange->forms.FindByKey(threshold_key)) {
    return Decline(kOutputArrangementConsumed,
                   absl::StrCat(who, " passes the Threshold's arrangement on ",
                                "(it lists the threshold key)"));
  }
  if (!input_key.has_value()) return std::nullopt;  // reads it raw
  if (!SameIgnoringNames(*input_key, threshold_key)) {
    return Decline(kOutputArrangementConsumed,
                   absl::StrCat(who,
                                " reads an input_key other than the threshold "
                                "key"));
  }
  *consumer = &reader;
  return std::nullopt;
}

}  // namespace

AntiJoinDecision DecideAntiJoinRendering(const Node& threshold,
                                         CandidateContext& ctx) {
  FusionDecision shape = MatchCoArrangedAntiSide(
      threshold, ctx.inside_let_rec_values, /*subtract_arm=*/"keys");
  if (!shape.fires()) {
    AntiJoinDecision declined;
    declined.code = FromSetDifference(shape.code);
    declined.arm = std::move(shape.arm);
    declined.message = std::move(shape.message);
    return declined;
  }
  // The shape matched, so the input is ArrangeBy(Union(arms)).
  const Node& union_node = *threshold.inputs[0]->inputs[0];
  const size_t negated = shape.fire->negated_arm;
  const Node& base = *union_node.inputs[1 - negated];
  const Node& keys = *union_node.inputs[negated]->inputs[0];
  std::string why;
  if (!ProvenSet(base, ctx, &why)) {
    return Decline(kBaseNotSet, std::move(why), "base");
  }
  // The threshold key is the whole row, so any key of the keys arm lies
  // within the key's columns.
  if (!ProvenSet(keys, ctx, &why)) {
    return Decline(kKeysNotDistinct, std::move(why), "keys");
  }
  Node* consumer = nullptr;
  const std::vector<ScalarExpr>& threshold_key =
      threshold.As<ThresholdOp>().ensure_arrangement.key;
  if (auto declined =
          CheckConsumer(threshold, threshold_key, ctx.ancestors, &consumer)) {
    return *declined;
  }
  return AntiJoinDecision::Fires(
      AntiJoinRendering{.arms = std::move(*shape.fire), .consumer = consumer});
}

void RenderAntiJoin(Node& threshold, const AntiJoinRendering& rendering) {
  const size_t width =
      threshold.As<ThresholdOp>().ensure_arrangement.key.size();
  NodePtr arrange = std::move(threshold.inputs[0]);
  NodePtr union_node = std::move(arrange->inputs[0]);
  const size_t negated = rendering.arms.negated_arm;
  NodePtr negate = std::move(union_node->inputs[negated]);
  NodePtr base = std::move(union_node->inputs[1 - negated]);
  NodePtr keys = std::move(negate->inputs[0]);
  AntiJoinOp antijoin;
  // The threshold key is the whole row #0..#n-1 (check 2).
  for (size_t c = 0; c < width; ++c) {
    antijoin.key.push_back(static_cast<int>(c));
  }
  antijoin.base_key = rendering.arms.base_key;
  antijoin.keys_key = rendering.arms.subtract_key;
  threshold.op = std::move(antijoin);
  threshold.inputs.clear();
  threshold.inputs.push_back(std::move(base));
  threshold.inputs.push_back(std::move(keys));
  if (rendering.consumer != nullptr) {
    // The reader now gets the AntiJoin's raw output. The key it read was the
    // whole row in order with nothing thinned, so its layout row was the row
    // itself and its expressions read the same columns.
    Node& consumer = *rendering.consumer;
    if (consumer.Is<MfpOp>()) consumer.As<MfpOp>().input_key.reset();
    if (consumer.Is<FlatMapOp>()) {
      consumer.As<FlatMapOp>().input_key.reset();
    }
    if (consumer.Is<ReduceOp>()) consumer.As<ReduceOp>().input_key.reset();
    if (consumer.Is<ArrangeByOp>()) {
      consumer.As<ArrangeByOp>().input_key.reset();
    }
  }
}

nlohmann::json AntiJoinPass::Details(const AntiJoinRendering& rendering) const {
  return {{kBaseKeyField, rendering.arms.base_key},
          {kKeysKeyField, rendering.arms.subtract_key}};
}

absl::Status AntiJoinRenderingPass(Document& doc, PassContext& ctx) {
  return RunPass(AntiJoinPass(), doc, ctx);
}

}  // namespace lir
