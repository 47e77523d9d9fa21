// The analyses on generated plans (agreement with Validate's arity
// inference, stability under the fused set-difference rewrite) and the
// relax_must_consolidate pass's report.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arity.h"
#include "lir/interp/driver.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/relax_must_consolidate.h"
#include "lir/recognizer/report.h"
#include "lir/validate.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_generator.h"

namespace lir::interp {
namespace {

test::GeneratedPlan Generate(uint64_t seed, size_t nodes,
                             test::PlanShape shape) {
  test::PlanGeneratorOptions options;
  options.seed = seed;
  options.node_count = nodes;
  options.shape = shape;
  return test::GeneratePlan(options);
}

TEST(GeneratedPlans, ArityAgreesWithValidate) {
  size_t compared = 0;
  for (test::PlanShape shape :
       {test::PlanShape::kMixed, test::PlanShape::kDeepChain,
        test::PlanShape::kWideUnion, test::PlanShape::kLetChain}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      test::GeneratedPlan generated = Generate(seed, 2000, shape);
      absl::StatusOr<std::map<LirId, std::optional<int>>> inferred =
          InferArities(*generated.plan, generated.validate_options);
      ASSERT_TRUE(inferred.ok()) << inferred.status();
      absl::StatusOr<Analysis<Arity>> computed = AnalyzeArity(
          *generated.plan, generated.validate_options.global_arity);
      ASSERT_TRUE(computed.ok()) << computed.status();
      ForEachPostOrder(*generated.plan, [&](const Node& node) {
        ++compared;
        EXPECT_EQ(computed->Find(node)->ToOptional(), inferred->at(node.id))
            << "seed " << seed << " LirId(" << node.id << ") "
            << HeaderName(node);
      });
    }
  }
  EXPECT_GT(compared, 40000u);
}

TEST(GeneratedPlans, EveryAnalysisCoversEveryNode) {
  test::GeneratedPlan generated = Generate(7, 5000, test::PlanShape::kMixed);
  Document doc = test::WrapInDocument(std::move(generated.plan));
  AnalysisInputs inputs;
  inputs.global_arity = generated.validate_options.global_arity;
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, inputs);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  std::set<NodeKind> kinds;
  ForEachPostOrder(*doc.objects[0].plan, [&](const Node& node) {
    kinds.insert(node.kind());
    ASSERT_NE(analysis->ArityOf(node), nullptr);
    EXPECT_NE(analysis->ArityOf(node)->state, Arity::State::kConflict);
    ASSERT_NE(analysis->FormsOf(node), nullptr);
    EXPECT_FALSE(analysis->FormsOf(node)->everything);
    EXPECT_NE(analysis->MonotonicOf(node), nullptr);
    ASSERT_NE(analysis->UniqueKeysOf(node), nullptr);
    EXPECT_FALSE(analysis->UniqueKeysOf(node)->everything);
  });
  EXPECT_GE(kinds.size(), 11u);
}

/// Root arity, monotonicity (with no and with every global monotonic) and
/// forms of `doc`'s first object.
std::vector<std::string> RootFacts(const Document& doc,
                                   const std::set<std::string>& globals,
                                   const std::map<std::string, int>& arities) {
  std::vector<std::string> facts;
  for (bool all_monotonic : {false, true}) {
    AnalysisInputs inputs;
    inputs.global_arity = arities;
    if (all_monotonic) inputs.monotonic_ids = globals;
    absl::StatusOr<DocumentAnalysis> analysis =
        DocumentAnalysis::Run(doc, inputs);
    EXPECT_TRUE(analysis.ok()) << analysis.status();
    if (!analysis.ok()) return facts;
    const Node& root = *doc.objects[0].plan;
    facts.push_back(analysis->CommentFields(
        root, AnnotationFields{false, true, true, true}));
  }
  return facts;
}

// Property: wherever the fused set-difference rewrite fires, the root's
// arity, monotonicity and forms are unchanged.
TEST(GeneratedPlans, FusedSetDifferenceKeepsRootResults) {
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;
  int fired = 0;
  for (uint64_t seed = 1; seed <= 25; ++seed) {
    test::PlanGeneratorOptions options;
    options.seed = seed;
    options.node_count = 300 + 40 * seed;
    options.except_candidates = 3;
    options.except_fire_fraction = 0.7;
    test::GeneratedPlan generated = test::GeneratePlan(options);
    std::set<std::string> globals;
    for (const auto& [name, arity] : generated.validate_options.global_arity) {
      globals.insert(name);
    }
    Document doc = test::WrapInDocument(std::move(generated.plan));
    absl::StatusOr<OptimizeResult> result = Optimize(Clone(doc), features);
    ASSERT_TRUE(result.ok()) << result.status();
    int fired_here = 0;
    for (const Candidate& c : result->report.candidates) {
      if (c.outcome == CandidateOutcome::kFired) ++fired_here;
    }
    if (fired_here == 0) continue;
    fired += fired_here;
    const auto& arities = generated.validate_options.global_arity;
    EXPECT_EQ(RootFacts(doc, globals, arities),
              RootFacts(result->document, globals, arities))
        << "seed " << seed;
  }
  EXPECT_GT(fired, 10);
}

// The same property at the fused node itself: a SetDifference keeps the
// Threshold's arity, monotonicity and forms.
TEST(GeneratedPlans, FusedNodeKeepsTheThresholdsResults) {
  test::PlanGeneratorOptions options;
  options.seed = 3;
  options.node_count = 3000;
  options.except_candidates = 12;
  options.except_fire_fraction = 1.0;
  test::GeneratedPlan generated = test::GeneratePlan(options);
  Document doc = test::WrapInDocument(std::move(generated.plan));
  AnalysisInputs inputs;
  inputs.global_arity = generated.validate_options.global_arity;
  const AnnotationFields fields{false, true, true, true};
  absl::StatusOr<DocumentAnalysis> before = DocumentAnalysis::Run(doc, inputs);
  ASSERT_TRUE(before.ok());
  std::map<LirId, std::string> thresholds;
  ForEachPostOrder(*doc.objects[0].plan, [&](const Node& node) {
    if (node.Is<ThresholdOp>()) {
      thresholds[node.id] = before->CommentFields(node, fields);
    }
  });
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;
  absl::StatusOr<OptimizeResult> result = Optimize(Clone(doc), features);
  ASSERT_TRUE(result.ok());
  absl::StatusOr<DocumentAnalysis> after =
      DocumentAnalysis::Run(result->document, inputs);
  ASSERT_TRUE(after.ok());
  int fused = 0;
  ForEachPostOrder(*result->document.objects[0].plan, [&](const Node& node) {
    if (!node.Is<SetDifferenceOp>()) return;
    ++fused;
    EXPECT_EQ(after->CommentFields(node, fields), thresholds.at(node.id))
        << "LirId(" << node.id << ")";
  });
  EXPECT_GE(fused, 10);
}

// ---- relax_must_consolidate ------------------------------------------------

std::string RelaxPlan() {
  return test::FixtureText("top1_must_consolidate_m_t.plan");
}

Document RelaxDoc() {
  absl::StatusOr<Document> doc = explain::ParseText(RelaxPlan());
  EXPECT_TRUE(doc.ok()) << doc.status();
  return std::move(*doc);
}

AnalysisInputs SingleTime() {
  AnalysisInputs inputs;
  inputs.single_time = true;
  inputs.monotonic_ids = {"materialize.public.m"};
  return inputs;
}

// RelaxDoc() with relax_must_consolidate on.
OptimizerFeatures RelaxOn() {
  OptimizerFeatures features;
  features.enable_relax_must_consolidate = true;
  return features;
}

absl::StatusOr<OptimizeResult> OptimizeRelaxDoc() {
  return Optimize(RelaxDoc(), RelaxOn(), SingleTime());
}

TEST(RelaxMustConsolidate, ClearsOnlyWhereTheInputIsMonotonic) {
  absl::StatusOr<OptimizeResult> result = OptimizeRelaxDoc();
  ASSERT_TRUE(result.ok());
  const Node& root = *result->document.objects[0].plan;
  EXPECT_FALSE(root.inputs[0]->As<TopKOp>().must_consolidate);
  EXPECT_TRUE(root.inputs[1]->As<TopKOp>().must_consolidate);
  // Idempotent: a second run fires nothing and changes nothing.
  const std::string printed = explain::PrintText(result->document);
  absl::StatusOr<OptimizeResult> again =
      Optimize(Clone(result->document), RelaxOn(), SingleTime());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(explain::PrintText(again->document), printed);
  ASSERT_EQ(again->report.candidates.size(), 2u);
  EXPECT_EQ(again->report.candidates[0].reason,
            DeclineName(RelaxMustConsolidateDecline::kAlreadyRelaxed));
}

TEST(RelaxMustConsolidate, ReportsWithoutFusedKeys) {
  absl::StatusOr<OptimizeResult> result = OptimizeRelaxDoc();
  ASSERT_TRUE(result.ok());
  nlohmann::json report = ReportToJson(result->report);
  ASSERT_EQ(report["candidates"].size(), 2u);
  const nlohmann::json& fired = report["candidates"][0];
  EXPECT_EQ(fired["pass"], "relax_must_consolidate");
  EXPECT_EQ(fired["outcome"], "fired");
  EXPECT_FALSE(fired.contains("base_key"));
  EXPECT_FALSE(fired.contains("subtract_key"));
  const nlohmann::json& declined = report["candidates"][1];
  EXPECT_EQ(declined["reason"], "input_not_monotonic");
  EXPECT_EQ(declined["message"],
            "input Get::PassArrangements materialize.public.t is not "
            "physically monotonic");
  EXPECT_FALSE(declined.contains("arm"));
  // Every registered pass is listed with whether it ran enabled.
  ASSERT_EQ(report["passes"].size(), 3u);
  EXPECT_EQ(report["passes"][0]["name"], "antijoin");
  EXPECT_EQ(report["passes"][0]["enabled"], false);
  EXPECT_EQ(report["passes"][1]["name"], "fused_set_difference");
  EXPECT_EQ(report["passes"][1]["enabled"], false);
  EXPECT_EQ(report["passes"][2]["name"], "relax_must_consolidate");
  EXPECT_EQ(report["passes"][2]["enabled"], true);
  EXPECT_EQ(
      PrintCandidates(result->report),
      absl::StrCat("Rewrite candidates:\n  ", result->document.objects[0].name,
                   ":\n",
                   "    relax_must_consolidate LirId(2): fired\n"
                   "    relax_must_consolidate LirId(4): declined "
                   "input_not_monotonic (input Get::PassArrangements "
                   "materialize.public.t is not physically monotonic)\n"));
}

TEST(RelaxMustConsolidate, DisabledItOnlyReports) {
  absl::StatusOr<OptimizeResult> result =
      Optimize(RelaxDoc(), OptimizerFeatures(), SingleTime());
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(explain::PrintText(result->document), RelaxPlan());
  ASSERT_EQ(result->report.candidates.size(), 2u);
  EXPECT_EQ(result->report.candidates[0].outcome, CandidateOutcome::kDisabled);
  EXPECT_TRUE(result->report.candidates[0].would_fire);
  EXPECT_FALSE(result->report.candidates[1].would_fire);
  nlohmann::json report = ReportToJson(result->report);
  EXPECT_EQ(report["candidates"][0]["if_enabled"], "fired");
  ASSERT_EQ(report["passes"].size(), 3u);
  EXPECT_EQ(report["passes"][2]["name"], "relax_must_consolidate");
  EXPECT_EQ(report["passes"][2]["enabled"], false);
}

TEST(RelaxMustConsolidate, AnUnanalyzablePlanDeclinesInsteadOfFailing) {
  // Unvalidated input reading an unbound id: the pipeline still succeeds.
  absl::StatusOr<Document> doc = explain::ParseText(
      test::FixtureText("topk_unbound_must_consolidate.plan"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  OptimizerFeatures features;
  features.enable_relax_must_consolidate = true;
  absl::StatusOr<OptimizeResult> result =
      Optimize(std::move(*doc), features, SingleTime());
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->report.candidates.size(), 1u);
  EXPECT_EQ(result->report.candidates[0].reason,
            DeclineName(RelaxMustConsolidateDecline::kAnalysisFailed));
  EXPECT_TRUE(absl::StrContains(result->report.candidates[0].message,
                                "l4 is not bound here"));
  EXPECT_TRUE(result->document.objects[0].plan->As<TopKOp>().must_consolidate);
}

}  // namespace
}  // namespace lir::interp
