// Unit tests of the pass driver (include/lir/recognizer/pass_driver.h): the
// walk and its recursive context, the report records and their payload, the
// decline name tables, and OptimizeOptions{report}.
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/inputs.h"
#include "lir/node.h"
#include "lir/recognizer/decision.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/pass_driver.h"
#include "lir/recognizer/relax_must_consolidate.h"
#include "lir/recognizer/report.h"
#include "nlohmann/json.hpp"
#include "tests/support/parse_or_die.h"
#include "tests/support/recognizer_test_util.h"

namespace lir {
namespace {

Document ParseOrDie(const std::string& text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << text;
  return doc.ok() ? std::move(*doc) : Document{};
}

// ---- the name tables -----------------------------------------------------

// The one place the tests spell the codes: they are the contract of
// ../shared/reference/SEMANTICS.md 4.2 (and of the relax pass's goldens).
// The context of the toy pass: whether it applies, where it reports and
// counts (either may be null).
PassContext ToyContext(bool apply, RewriteReport* report, PassWork* work) {
  return PassContext{.apply = apply,
                     .pass_name = "toy",
                     .report = report,
                     .work = work,
                     .inputs = {}};
}

TEST(DeclineTables, SpellTheReferenceCodesInCheckOrder) {
  std::vector<std::string> fused;
  for (const auto& entry : kAllFusedSetDifferenceDeclines) {
    EXPECT_EQ(DeclineName(entry.code), entry.name);
    fused.emplace_back(entry.name);
  }
  EXPECT_EQ(fused,
            (std::vector<std::string>{
                "inside_let_rec", "input_not_arranged", "not_two_arm_union",
                "not_one_negated_arm", "temporal_bucketing",
                "non_projection_mfp", "arm_not_get_or_arrange_by",
                "key_remapped_by_projection", "not_co_arranged"}));
  std::vector<std::string> relax;
  for (const auto& entry : kAllRelaxMustConsolidateDeclines) {
    EXPECT_EQ(DeclineName(entry.code), entry.name);
    relax.emplace_back(entry.name);
  }
  EXPECT_EQ(relax, (std::vector<std::string>{
                       "already_relaxed", "not_single_time", "analysis_failed",
                       "input_not_monotonic"}));
}

// ---- a toy pass through the driver ---------------------------------------

#define LIR_TOY_DECLINES(X)               \
  X(kInsideRecursion, "inside_recursion") \
  X(kAlreadyRenumbered, "already_renumbered")

LIR_DECLARE_DECLINES(ToyDecline, LIR_TOY_DECLINES)

// Renumbers every Negate outside LetRec values to LirId 1000 + id: the
// smallest pass, to show the driver's side of the contract.
class RenumberNegates {
 public:
  using Code = ToyDecline;
  struct Fire {
    LirId new_id = 0;
  };
  static constexpr std::string_view kName = "renumber_negates";

  bool IsCandidate(const Node& node) const { return node.Is<NegateOp>(); }
  Decision<Code, Fire> Decide(const Node& node, CandidateContext& ctx) const {
    using D = Decision<Code, Fire>;
    if (ctx.inside_let_rec_values) {
      return D::Declines(ToyDecline::kInsideRecursion, "in a LetRec value");
    }
    if (node.id >= 1000) {
      return D::Declines(ToyDecline::kAlreadyRenumbered, "done", "input");
    }
    return D::Fires({node.id + 1000});
  }
  void Rewrite(Node& node, const Fire& fire) const { node.id = fire.new_id; }
  nlohmann::json Details(const Fire& fire) const {
    return {{"new_id", fire.new_id}};
  }
};
static_assert(RewritePass<RenumberNegates>);
static_assert(RewritePass<FusedSetDifference>);
static_assert(RewritePass<RelaxMustConsolidate>);

// Negates in a LetRec value, in its body, and outside the LetRec.
std::string ToyPlan() { return test::FixtureText("toy_negate.plan"); }

// `doc` as text with every node's LirId, so that renumbering shows.
std::string PrintWithIds(const Document& doc) {
  explain::PrintOptions options;
  options.node_identifiers = true;
  return explain::PrintText(doc, options);
}

// The LirIds of the Negates of `doc`, in pre-order.
std::vector<LirId> NegateIds(const Document& doc) {
  std::vector<LirId> ids;
  ForEachPreOrder(*doc.objects[0].plan, [&](const Node& node, int) {
    if (node.Is<NegateOp>()) ids.push_back(node.id);
  });
  return ids;
}

TEST(PassDriver, DecidesInPreOrderWithTheRecursiveContextAndRewrites) {
  Document doc = ParseOrDie(ToyPlan());
  ASSERT_FALSE(doc.objects.empty());
  const std::vector<LirId> ids = NegateIds(doc);
  ASSERT_EQ(ids.size(), 3u);
  RewriteReport report;
  PassWork work;
  PassContext ctx = ToyContext(true, &report, &work);
  ASSERT_TRUE(RunPass(RenumberNegates(), doc, ctx).ok());
  ASSERT_EQ(report.candidates.size(), 3u);
  EXPECT_EQ(report.candidates[0].lir_id, ids[0]);
  EXPECT_EQ(report.candidates[0].outcome, CandidateOutcome::kDeclined);
  EXPECT_EQ(report.candidates[0].reason, "inside_recursion");
  EXPECT_EQ(report.candidates[1].lir_id, ids[1]);  // a LetRec body is outside
  EXPECT_EQ(report.candidates[1].outcome, CandidateOutcome::kFired);
  EXPECT_EQ(report.candidates[1].details,
            nlohmann::json({{"new_id", ids[1] + 1000}, {"saves", 0}}));
  EXPECT_EQ(report.candidates[2].lir_id, ids[2]);
  EXPECT_EQ(report.candidates[2].pass, "toy");
  EXPECT_EQ(work.objects_walked, 1u);
  EXPECT_EQ(work.candidates_decided, 3u);
  EXPECT_EQ(work.rewrites, 2u);
  EXPECT_EQ(work.analyses_run, 0u);
  // The details are merged into the JSON record; the arm is named.
  nlohmann::json json = ReportToJson(report);
  EXPECT_EQ(json["candidates"][2]["new_id"], ids[2] + 1000);
  EXPECT_FALSE(json["candidates"][0].contains("new_id"));

  // Again: the renumbered Negates decline with an arm-prefixed message.
  RewriteReport again;
  ctx.report = &again;
  ASSERT_TRUE(RunPass(RenumberNegates(), doc, ctx).ok());
  ASSERT_EQ(again.candidates.size(), 3u);
  EXPECT_EQ(again.candidates[1].lir_id, ids[1] + 1000);
  EXPECT_EQ(again.candidates[1].reason,
            DeclineName(ToyDecline::kAlreadyRenumbered));
  EXPECT_EQ(again.candidates[1].arm, "input");
  EXPECT_EQ(again.candidates[1].message, "input arm: done");
}

TEST(PassDriver,
     DisabledItReportsWithoutRewritingAndWithoutAReportRecordsNothing) {
  Document doc = ParseOrDie(ToyPlan());
  const std::string before = PrintWithIds(doc);
  RewriteReport report;
  PassContext dry = ToyContext(false, &report, nullptr);
  ASSERT_TRUE(RunPass(RenumberNegates(), doc, dry).ok());
  EXPECT_EQ(PrintWithIds(doc), before);
  ASSERT_EQ(report.candidates.size(), 3u);
  EXPECT_EQ(report.candidates[1].outcome, CandidateOutcome::kDisabled);
  EXPECT_TRUE(report.candidates[1].would_fire);
  EXPECT_EQ(
      report.candidates[1].details,
      nlohmann::json({{"new_id", NegateIds(doc)[1] + 1000}, {"saves", 0}}));

  PassWork work;
  PassContext quiet = ToyContext(true, nullptr, &work);
  const std::vector<LirId> ids = NegateIds(doc);
  ASSERT_TRUE(RunPass(RenumberNegates(), doc, quiet).ok());
  EXPECT_EQ(work.rewrites, 2u);
  EXPECT_EQ(NegateIds(doc),
            (std::vector<LirId>{ids[0], ids[1] + 1000, ids[2] + 1000}));
}

TEST(PassDriver, WalksUnvalidatedPlansButNotBadlyScopedOnes) {
  // Optimize runs before validation: a local bound nowhere is for the
  // decisions to judge (relax declines analysis_failed, see analysis_test).
  Document unbound = test::FixtureOrDie("negate_unbound_l4.plan");
  RewriteReport report;
  PassContext ctx = ToyContext(true, &report, nullptr);
  ASSERT_TRUE(RunPass(RenumberNegates(), unbound, ctx).ok());
  EXPECT_EQ(report.candidates.size(), 1u);
  // A binding that shadows another is an error of the scoped walker.
  Document shadowing = test::FixtureOrDie("let_shadows_let.plan");
  absl::Status status = RunPass(RenumberNegates(), shadowing, ctx);
  EXPECT_TRUE(absl::StartsWith(
      status.message(),
      absl::StrCat(shadowing.objects[0].name,
                   ": LirId(4) With: l0 is already bound by an enclosing "
                   "binding")))
      << status;
}

// ---- OptimizeOptions{report} ---------------------------------------------

// Two relax candidates: the first over a monotonic input, the second not.
std::string RelaxPlan() {
  return test::FixtureText("top1_must_consolidate_m_t.plan");
}

interp::AnalysisInputs SingleTime() {
  interp::AnalysisInputs inputs;
  inputs.single_time = true;
  inputs.monotonic_ids = {"materialize.public.m"};
  return inputs;
}

const PassRun& RunOf(const OptimizeResult& result, std::string_view name) {
  for (const PassRun& run : result.report.passes) {
    if (run.name == name) return run;
  }
  ADD_FAILURE() << name << " not listed";
  static const PassRun kNone;
  return kNone;
}

TEST(OptimizeOptions, WithTheReportADisabledPassDryRunsItsAnalysis) {
  absl::StatusOr<OptimizeResult> result =
      Optimize(ParseOrDie(RelaxPlan()), OptimizerFeatures(), SingleTime());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(explain::PrintText(result->document), RelaxPlan());
  EXPECT_EQ(result->report.candidates.size(), 2u);
  const PassRun& relax = RunOf(*result, RelaxMustConsolidate::kName);
  EXPECT_FALSE(relax.enabled);
  EXPECT_EQ(relax.work.objects_walked, 1u);
  EXPECT_EQ(relax.work.candidates_decided, 2u);
  EXPECT_EQ(relax.work.analyses_run, 1u);
  EXPECT_EQ(relax.work.rewrites, 0u);
}

TEST(OptimizeOptions, WithoutTheReportADisabledPassDoesNoWork) {
  absl::StatusOr<OptimizeResult> result =
      Optimize(ParseOrDie(RelaxPlan()), OptimizerFeatures(), SingleTime(),
               OptimizeOptions{.report = false});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(explain::PrintText(result->document), RelaxPlan());
  EXPECT_TRUE(result->report.candidates.empty());
  // Still listed, so a caller can see what was off; but nothing ran.
  test::recognizer::ExpectNoPassRan(result->report);
}

TEST(OptimizeOptions, WithoutTheReportAnEnabledPassStillRewrites) {
  OptimizerFeatures features;
  features.enable_relax_must_consolidate = true;
  absl::StatusOr<OptimizeResult> quiet =
      Optimize(ParseOrDie(RelaxPlan()), features, SingleTime(),
               OptimizeOptions{.report = false});
  absl::StatusOr<OptimizeResult> reported =
      Optimize(ParseOrDie(RelaxPlan()), features, SingleTime());
  ASSERT_TRUE(quiet.ok() && reported.ok());
  EXPECT_TRUE(quiet->report.candidates.empty());
  EXPECT_EQ(reported->report.candidates.size(), 2u);
  EXPECT_EQ(explain::PrintText(quiet->document),
            explain::PrintText(reported->document));
  EXPECT_NE(explain::PrintText(quiet->document), RelaxPlan());
  const PassRun& relax = RunOf(*quiet, RelaxMustConsolidate::kName);
  EXPECT_EQ(relax.work.candidates_decided, 2u);
  EXPECT_EQ(relax.work.analyses_run, 1u);
  EXPECT_EQ(relax.work.rewrites, 1u);
  // The disabled fused pass did not run at all.
  EXPECT_EQ(RunOf(*quiet, FusedSetDifference::kName).work.objects_walked, 0u);
}

TEST(OptimizeOptions, AnalysesRunOnlyWhenADecisionNeedsThem) {
  // Not single-time: every candidate declines before the analysis.
  OptimizerFeatures features;
  features.enable_relax_must_consolidate = true;
  absl::StatusOr<OptimizeResult> result =
      Optimize(ParseOrDie(RelaxPlan()), features, interp::AnalysisInputs());
  ASSERT_TRUE(result.ok());
  const PassRun& relax = RunOf(*result, RelaxMustConsolidate::kName);
  EXPECT_EQ(relax.work.candidates_decided, 2u);
  EXPECT_EQ(relax.work.analyses_run, 0u);
  for (const Candidate& c : result->report.candidates) {
    EXPECT_EQ(c.reason,
              DeclineName(RelaxMustConsolidateDecline::kNotSingleTime));
  }
}

}  // namespace
}  // namespace lir
