// Seeded property tests of the antijoin rendering pass over the random
// candidate plans of tests/support/candidate_plan_generator.h, whose oracle
// gives the fused set difference's verdict (SEMANTICS 4.2) on each
// Threshold: the antijoin's checks 1-10 are the same, so wherever that
// verdict is a decline the antijoin declines with the same code (the
// negated arm called "keys"), and where it fires the antijoin either fires
// or declines with one of its own checks 11-13. Also: the disabled pass is
// the identity, the result is well formed and a fixed point, and with both
// features every anti-side the antijoin leaves and the oracle fires is
// fused.
//
// Reproduce a failure with LIR_PROPERTY_SEED=<seed> LIR_PROPERTY_ITERATIONS=1.
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "lir/interp/inputs.h"
#include "lir/recognizer/antijoin.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/candidate_plan_generator.h"
#include "tests/support/ir_helpers.h"
#include "tests/support/random.h"
#include "tests/support/recognizer_test_util.h"

namespace lir {
namespace {

using test::Expected;
using test::GeneratedCase;
using test::recognizer::WellFormedProblems;

using ::lir::test::EnvOr;

// A catalog that keys every global collection on its first column: the
// plans are never run, so any key will do, and keyed arms let the antijoin
// get past its set checks where the projections keep the key.
interp::AnalysisInputs KeyEveryGlobal(const Document& doc) {
  interp::AnalysisInputs inputs;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      if (const GetOp* get = node.If<GetOp>(); get && !get->id.is_local) {
        inputs.global_unique_keys[get->id.global] = {{0}};
      }
    });
  }
  return inputs;
}

absl::StatusOr<OptimizeResult> OptimizeWith(const Document& doc, bool antijoin,
                                            bool fused) {
  OptimizerFeatures features;
  features.enable_antijoin_rendering = antijoin;
  features.enable_fused_set_difference = fused;
  return Optimize(Clone(doc), features, KeyEveryGlobal(doc));
}

using test::CountKind;

// The antijoin's own checks, taken only after 1-10 pass.
const std::set<std::string>& OwnChecks() {
  static const auto* const kOwn = new std::set<std::string>{
      std::string(DeclineName(AntiJoinDecline::kBaseNotSet)),
      std::string(DeclineName(AntiJoinDecline::kKeysNotDistinct)),
      std::string(DeclineName(AntiJoinDecline::kOutputArrangementConsumed))};
  return *kOwn;
}

// Form B's codes.
const std::set<std::string>& FormBChecks() {
  static const auto* const kFormB = new std::set<std::string>{
      std::string(DeclineName(AntiJoinDecline::kNegatedArmNotSemijoin)),
      std::string(DeclineName(AntiJoinDecline::kKeysNotDistinct)),
      std::string(DeclineName(AntiJoinDecline::kBaseNotProbe)),
      std::string(DeclineName(AntiJoinDecline::kNoArrangementSaving))};
  return *kFormB;
}

TEST(AntiJoinProperty, SharesTheFusedChecksAndKeepsThePlanWellFormed) {
  const uint64_t first = EnvOr("LIR_PROPERTY_SEED", 1);
  const uint64_t iterations = EnvOr("LIR_PROPERTY_ITERATIONS", 1500);
  size_t candidates = 0, fired = 0, fused_after = 0;
  std::map<std::string, size_t> declined, form_b;
  for (uint64_t seed = first; seed < first + iterations; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed, " (rerun: LIR_PROPERTY_SEED=",
                              seed, " LIR_PROPERTY_ITERATIONS=1)"));
    GeneratedCase c = test::Generate(seed);
    const std::string text = explain::PrintText(c.doc);

    absl::StatusOr<OptimizeResult> off = OptimizeWith(c.doc, false, false);
    ASSERT_TRUE(off.ok()) << off.status();
    EXPECT_EQ(explain::PrintText(off->document), text);

    absl::StatusOr<OptimizeResult> on = OptimizeWith(c.doc, true, false);
    ASSERT_TRUE(on.ok()) << on.status();
    size_t fired_here = 0;
    for (const Candidate& cand : on->report.candidates) {
      if (cand.pass != AntiJoinPass::kName) continue;
      SCOPED_TRACE(absl::StrCat("candidate LirId(", cand.lir_id, ")"));
      ++candidates;
      auto it = c.expected.find(cand.lir_id);
      if (it == c.expected.end()) {
        // Not a Threshold: a Form B Union(.., Negate(Join)), never rewritten.
        EXPECT_NE(cand.outcome, CandidateOutcome::kFired);
        EXPECT_EQ(FormBChecks().count(cand.reason), 1u) << cand.reason;
        ++form_b[cand.reason];
        continue;
      }
      const Expected& e = it->second;
      if (cand.outcome == CandidateOutcome::kFired) {
        ++fired;
        ++fired_here;
        EXPECT_EQ(e.code, "") << "fired where the shared checks decline";
        continue;
      }
      ++declined[cand.reason];
      if (e.code.empty()) {
        EXPECT_EQ(OwnChecks().count(cand.reason), 1u)
            << cand.reason << ": " << cand.message;
      } else if (!e.remap_ambiguous) {
        EXPECT_EQ(cand.reason, e.code) << cand.message;
        EXPECT_EQ(cand.arm, e.arm == "subtract" ? "keys" : e.arm);
      }
    }
    const Document& result = on->document;
    EXPECT_EQ(WellFormedProblems(result, c.validate), "");
    EXPECT_EQ(CountKind(*result.objects[0].plan, NodeKind::kAntiJoin),
              fired_here);
    if (fired_here == 0) EXPECT_EQ(explain::PrintText(result), text);
    absl::StatusOr<OptimizeResult> twice = OptimizeWith(result, true, false);
    ASSERT_TRUE(twice.ok()) << twice.status();
    EXPECT_EQ(explain::PrintText(twice->document), explain::PrintText(result))
        << "not idempotent";

    // Both features: what the antijoin leaves and the oracle fires is fused.
    absl::StatusOr<OptimizeResult> both = OptimizeWith(c.doc, true, true);
    ASSERT_TRUE(both.ok()) << both.status();
    std::set<LirId> rendered;
    for (const Candidate& cand : both->report.candidates) {
      if (cand.pass == AntiJoinPass::kName &&
          cand.outcome == CandidateOutcome::kFired) {
        rendered.insert(cand.lir_id);
      }
    }
    size_t fusable = 0;
    for (const auto& [id, e] : c.expected) {
      if (e.code.empty() && !rendered.contains(id)) ++fusable;
    }
    EXPECT_EQ(CountKind(*both->document.objects[0].plan, NodeKind::kAntiJoin),
              rendered.size());
    EXPECT_EQ(
        CountKind(*both->document.objects[0].plan, NodeKind::kSetDifference),
        fusable);
    fused_after += fusable;
    EXPECT_EQ(WellFormedProblems(both->document, c.validate), "");
    if (HasFailure()) {
      ADD_FAILURE() << "plan:\n"
                    << explain::PrintText(c.doc, {.node_identifiers = true});
      break;
    }
  }
  std::string tally = absl::StrCat(candidates, " candidates: ", fired,
                                   " rendered as AntiJoin, ", fused_after,
                                   " fused after it with both features");
  for (const auto& [code, n] : declined) {
    absl::StrAppend(&tally, ", ", code, " ", n);
  }
  for (const auto& [code, n] : form_b) {
    absl::StrAppend(&tally, ", Form B ", code, " ", n);
  }
  std::cout << tally << "\n";
  if (HasFailure() || iterations < 1000) return;
  // The generator must reach the antijoin's own outcomes.
  EXPECT_GT(fired, 0u);
  for (const std::string& code : OwnChecks()) {
    EXPECT_GT(declined[code], 0u) << code << " never occurred";
  }
}

}  // namespace
}  // namespace lir
