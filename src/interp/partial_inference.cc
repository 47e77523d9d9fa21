// InferPartialFacts: what a partial plan's shown facts imply.
#include "lir/interp/partial_inference.h"

#include <optional>
#include <vector>

#include "lir/arity.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/partial.h"
#include "lir/status_macros.h"
#include "lir/unknown_facts.h"

namespace lir::interp {
namespace {

// Whether `input` is exactly the raw collection, with no arrangement.
bool IsRawOnly(const AvailableForms* input) {
  return input != nullptr && !input->everything && !input->unknown_key &&
         input->raw && input->arranged.empty();
}

// The input key an ArrangeBy reads, when its input's forms are exactly
// known: nullopt for "cannot tell", an empty optional inside for "none".
std::optional<std::optional<std::vector<ScalarExpr>>> ImpliedInputKey(
    const AvailableForms* input) {
  if (input == nullptr || input->everything || input->unknown_key) {
    return std::nullopt;
  }
  if (input->arranged.size() == 1) {
    return std::optional<std::vector<ScalarExpr>>(*input->arranged[0]);
  }
  if (IsRawOnly(input)) {
    return std::optional<std::vector<ScalarExpr>>();
  }
  return std::nullopt;
}

// The arity of the rows an ArrangeBy arranges, or unknown.
Arity ArrangedArity(const Node& node, const ArrangeByOp& op,
                    const Analysis<Arity>& arities) {
  // With an unknown input key the row input_mfp reads is unknown, but a
  // projection still fixes what it outputs.
  const Arity* input = arities.Find(*node.inputs[0]);
  const Arity read =
      node.unknown.Has(UnknownFact::kInputKey) || input == nullptr
          ? Arity::Unknown()
          : ReadArity(op.input_key, *input);
  return MfpOutputArity(op.input_mfp, read);
}

// One round over the plan; returns whether a mark was cleared.
absl::StatusOr<bool> InferOnce(Node& plan,
                               const std::map<std::string, int>& globals) {
  LIR_ASSIGN_OR_RETURN(Analysis<Arity> arities, AnalyzeArity(plan, globals));
  LIR_ASSIGN_OR_RETURN(Analysis<AvailableForms> forms,
                       AnalyzeArrangements(plan, &arities));
  bool changed = false;
  auto input_arity = [&](const Node& node, size_t i) {
    const Arity* found = arities.Find(*node.inputs[i]);
    return found != nullptr ? *found : Arity::Unknown();
  };
  auto layouts = [&](std::vector<ArrangementForm*> forms_to_fill, Arity arity) {
    if (!arity.known()) return false;
    for (ArrangementForm* form : forms_to_fill) {
      *form = MakeArrangement(form->key, arity.value);
    }
    return true;
  };
  ForEachPostOrder(plan, [&](Node& node) {
    if (node.unknown.empty()) return;
    switch (node.kind()) {
      case NodeKind::kArrangeBy: {
        ArrangeByOp& op = node.As<ArrangeByOp>();
        if (node.unknown.Has(UnknownFact::kInputKey)) {
          if (auto key = ImpliedInputKey(forms.Find(*node.inputs[0]))) {
            op.input_key = std::move(*key);
            node.unknown.Remove(UnknownFact::kInputKey);
            changed = true;
          }
        }
        if (node.unknown.Has(UnknownFact::kArrangementLayouts)) {
          std::vector<ArrangementForm*> all;
          for (ArrangementForm& form : op.forms.arranged) all.push_back(&form);
          if (layouts(all, ArrangedArity(node, op, arities))) {
            node.unknown.Remove(UnknownFact::kArrangementLayouts);
            changed = true;
          }
        }
        return;
      }
      case NodeKind::kThreshold:
        if (node.unknown.Has(UnknownFact::kArrangementLayouts) &&
            layouts({&node.As<ThresholdOp>().ensure_arrangement},
                    input_arity(node, 0))) {
          node.unknown.Remove(UnknownFact::kArrangementLayouts);
          changed = true;
        }
        return;
      case NodeKind::kSetDifference: {
        const Arity arity =
            JoinArity(input_arity(node, 0), input_arity(node, 1));
        if (node.unknown.Has(UnknownFact::kArrangementLayouts) &&
            layouts({&node.As<SetDifferenceOp>().ensure_arrangement}, arity)) {
          node.unknown.Remove(UnknownFact::kArrangementLayouts);
          changed = true;
        }
        return;
      }
      case NodeKind::kGet: {
        // Materialize's lowering reads a collection as Get::Collection
        // only when it has no arrangement (with one it reads
        // Get::Arrangement), so the forms are the raw collection alone.
        GetOp& get = node.As<GetOp>();
        if (get.kind == GetKind::kCollection &&
            node.unknown.Has(UnknownFact::kAvailableForms)) {
          get.keys = AvailableCollections{.raw = true, .arranged = {}};
          node.unknown.Remove(UnknownFact::kAvailableForms);
          changed = true;
        }
        return;
      }
      case NodeKind::kMfp:
      case NodeKind::kFlatMap:
      case NodeKind::kReduce: {
        // An input offering only its raw collection has no arrangement to
        // read: the input key is none.
        if (!node.unknown.Has(UnknownFact::kInputKey) ||
            !IsRawOnly(forms.Find(*node.inputs[0]))) {
          return;
        }
        if (node.Is<MfpOp>()) {
          node.As<MfpOp>().input_key.reset();
          node.As<MfpOp>().input_val.reset();
        } else if (node.Is<FlatMapOp>()) {
          node.As<FlatMapOp>().input_key.reset();
        } else {
          node.As<ReduceOp>().input_key.reset();
        }
        node.unknown.Remove(UnknownFact::kInputKey);
        changed = true;
        return;
      }
      case NodeKind::kConstant:
      case NodeKind::kLet:
      case NodeKind::kLetRec:
      case NodeKind::kJoin:
      case NodeKind::kTopK:
      case NodeKind::kNegate:
      case NodeKind::kUnion:
      case NodeKind::kAntiJoin: return;
    }
  });
  return changed;
}

}  // namespace

absl::Status InferPartialFacts(Node& plan,
                               const std::map<std::string, int>& global_arity) {
  if (!IsPartial(plan)) return absl::OkStatus();
  // An inferred input key can reveal an arity only the next round's
  // analyses see, so rounds repeat until nothing more follows. Each round
  // clears at least one mark, and a chain of ArrangeBys that feed each other
  // needs one round per link: the work budget keeps an adversarial chain
  // from taking quadratic time (a plan of 10^6 nodes gets 64 rounds, one of
  // 10^4 nodes 6,400); what it leaves stays unknown, which is always safe.
  constexpr size_t kMaxNodeVisits = size_t{1} << 26;
  const size_t nodes = CountNodes(plan);
  for (size_t visits = 0; visits <= kMaxNodeVisits; visits += nodes) {
    LIR_ASSIGN_OR_RETURN(bool changed, InferOnce(plan, global_arity));
    if (!changed) break;
  }
  return absl::OkStatus();
}

absl::Status InferPartialFacts(Document& doc,
                               const std::map<std::string, int>& global_arity) {
  const std::map<std::string, int> seen =
      GlobalAritiesSeenByGets(doc, global_arity);
  for (Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    LIR_RETURN_IF_ERROR(InferPartialFacts(*object.plan, seen));
  }
  return absl::OkStatus();
}

}  // namespace lir::interp
