// The `infer` golden command (golden_infer.h).
#include "tests/golden_infer.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/arity.h"
#include "lir/document.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/interp/arity.h"
#include "lir/interp/partial_inference.h"
#include "lir/node.h"
#include "lir/partial.h"
#include "lir/unknown_facts.h"
#include "lir/validate.h"
#include "src/explain/text_primitives.h"

namespace lir::test {
namespace {

std::string ErrorLine(absl::string_view what, const absl::Status& status) {
  return absl::StrCat(what, ": ", status.message(), "\n");
}

// An arrangement as the verbose syntax prints it, or its key alone when its
// layout is still unknown.
std::string FormText(const Node& node, const ArrangementForm& form) {
  if (node.unknown.Has(UnknownFact::kArrangementLayouts)) {
    return absl::StrCat("{ key=[", explain::PrintCompactScalars(form.key),
                        "], layout=? }");
  }
  return explain::PrintArrangement(form);
}

std::string InputKeyText(const Node& node,
                         const std::optional<std::vector<ScalarExpr>>& key) {
  if (node.unknown.Has(UnknownFact::kInputKey)) return "?";
  if (!key.has_value()) return "none";
  return absl::StrCat("[", explain::PrintCompactScalars(*key), "]");
}

// The lines below a node's header: the facts the inference rules fill in.
std::vector<std::string> InferableFacts(const Node& node) {
  std::vector<std::string> lines;
  auto forms = [&](const std::vector<ArrangementForm>& arranged) {
    for (size_t i = 0; i < arranged.size(); ++i) {
      lines.push_back(
          absl::StrCat("arrangements[", i, "]=", FormText(node, arranged[i])));
    }
  };
  switch (node.kind()) {
    case NodeKind::kArrangeBy: {
      const ArrangeByOp& op = node.As<ArrangeByOp>();
      lines.push_back(
          absl::StrCat("input_key=", InputKeyText(node, op.input_key)));
      forms(op.forms.arranged);
      break;
    }
    case NodeKind::kThreshold:
      lines.push_back(absl::StrCat(
          "ensure_arrangement=",
          FormText(node, node.As<ThresholdOp>().ensure_arrangement)));
      break;
    case NodeKind::kSetDifference:
      lines.push_back(absl::StrCat(
          "ensure_arrangement=",
          FormText(node, node.As<SetDifferenceOp>().ensure_arrangement)));
      break;
    case NodeKind::kGet: {
      const GetOp& get = node.As<GetOp>();
      if (node.unknown.Has(UnknownFact::kAvailableForms)) {
        lines.emplace_back("forms=?");
      } else {
        lines.push_back(absl::StrCat("raw=", get.keys.raw ? "true" : "false"));
        forms(get.keys.arranged);
      }
      if (!get.mfp.filter.empty()) {
        lines.push_back(absl::StrCat(
            "filter=(", explain::PrintPredicates(get.mfp.filter), ")"));
      }
      break;
    }
    case NodeKind::kMfp: {
      const MfpOp& op = node.As<MfpOp>();
      lines.push_back(
          absl::StrCat("input_key=", InputKeyText(node, op.input_key)));
      if (op.input_val.has_value()) {
        lines.push_back(
            absl::StrCat("input_val=", explain::PrintRow(*op.input_val)));
      }
      break;
    }
    case NodeKind::kFlatMap:
      lines.push_back(absl::StrCat(
          "input_key=", InputKeyText(node, node.As<FlatMapOp>().input_key)));
      break;
    case NodeKind::kReduce:
      lines.push_back(absl::StrCat(
          "input_key=", InputKeyText(node, node.As<ReduceOp>().input_key)));
      break;
    case NodeKind::kConstant:
    case NodeKind::kLet:
    case NodeKind::kLetRec:
    case NodeKind::kJoin:
    case NodeKind::kTopK:
    case NodeKind::kNegate:
    case NodeKind::kUnion:
    case NodeKind::kAntiJoin: break;
  }
  return lines;
}

std::string ArityText(const Arity* arity) {
  if (arity == nullptr || !arity->known()) return "?";
  return absl::StrCat(arity->value);
}

std::string DescribePlan(const Node& plan,
                         const std::map<std::string, int>& global_arity) {
  absl::StatusOr<interp::Analysis<Arity>> arities =
      interp::AnalyzeArity(plan, global_arity);
  if (!arities.ok())
    return ErrorLine("arity analysis failed", arities.status());
  std::string out;
  ForEachPostOrder(plan, [&](const Node& node) {
    std::vector<std::string> facts;
    node.unknown.ForEach(
        [&](UnknownFact fact) { facts.emplace_back(UnknownFactName(fact)); });
    absl::StrAppend(&out, "LirId(", node.id, ") ", HeaderName(node),
                    " arity=", ArityText(arities->Find(node)));
    if (!facts.empty()) {
      absl::StrAppend(&out, " unknown=", absl::StrJoin(facts, ","));
    }
    absl::StrAppend(&out, "\n");
    for (const std::string& line : InferableFacts(node)) {
      absl::StrAppend(&out, "  ", line, "\n");
    }
  });
  return out;
}

}  // namespace

std::string RunInferGolden(std::string_view text,
                           const std::map<std::string, int>& global_arity,
                           InferMode mode) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  if (!doc.ok()) return ErrorLine("parse error", doc.status());
  if (absl::Status valid = Validate(*doc); !valid.ok()) {
    return ErrorLine("invalid plan", valid);
  }
  const bool was_partial = IsPartial(*doc);
  const std::string before = explain::PrintText(*doc);
  absl::Status inferred = absl::OkStatus();
  if (mode == InferMode::kPlanOnly) {
    for (Object& object : doc->objects) {
      if (object.plan == nullptr || !inferred.ok()) continue;
      inferred = interp::InferPartialFacts(*object.plan, global_arity);
    }
  } else if (mode == InferMode::kDocument) {
    inferred = interp::InferPartialFacts(*doc, global_arity);
  }
  if (!inferred.ok()) return ErrorLine("inference failed", inferred);
  if (absl::Status valid = Validate(*doc); !valid.ok()) {
    ADD_FAILURE() << "the plan is invalid after inference: " << valid;
    return ErrorLine("invalid after inference", valid);
  }
  if (!was_partial) {
    const std::string after = explain::PrintText(*doc);
    if (after == before) return "complete: unchanged\n";
    ADD_FAILURE() << "inference changed a complete plan";
    return absl::StrCat("complete plan changed (- before, + after):\n",
                        explain::UnifiedDiff(before, after));
  }
  // The arities shown are those the inference used: with the Document
  // overload, what Source blocks make of the catalog's.
  const std::map<std::string, int> seen =
      mode == InferMode::kPlanOnly
          ? global_arity
          : interp::GlobalAritiesSeenByGets(*doc, global_arity);
  // Whether the reader saw node_id annotations (the ids are then kept).
  std::string out = doc->node_identifiers ? "node ids: annotated\n" : "";
  for (const Object& object : doc->objects) {
    if (object.plan == nullptr) continue;
    if (doc->objects.size() > 1) absl::StrAppend(&out, object.name, ":\n");
    absl::StrAppend(&out, DescribePlan(*object.plan, seen));
  }
  absl::StrAppend(&out, "partial: ", IsPartial(*doc) ? "yes" : "no", "\n");
  return out;
}

}  // namespace lir::test
