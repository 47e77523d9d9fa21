// Seeded property tests of the fused set-difference recognizer.
//
// tests/support/candidate_plan_generator.h builds random valid plans full of
// candidate shapes, each carrying the outcome
// ../shared/reference/SEMANTICS.md 4.2/4.3 assigns to it, so the pass is
// checked against an independent oracle as well as for the properties: fired
// results validate and round-trip, Optimize is idempotent, the disabled pass is
// the identity, every candidate has exactly one outcome, fused keys have the
// key's length, LetRec-value candidates decline.
//
// Reproduce a failure with LIR_PROPERTY_SEED=<seed> LIR_PROPERTY_ITERATIONS=1.
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/candidate_plan_generator.h"
#include "tests/support/except_decline_codes.h"
#include "tests/support/ir_helpers.h"
#include "tests/support/plan_generator.h"
#include "tests/support/random.h"
#include "tests/support/recognizer_test_util.h"

namespace lir {
namespace {

using test::Expected;
using test::GeneratedCase;
using test::recognizer::OptimizeCopy;
using test::recognizer::WellFormedProblems;
using enum FusedSetDifferenceDecline;

// The oracle's spelling of a decline code: the pass's name table.
std::string Code(FusedSetDifferenceDecline code) {
  return std::string(DeclineName(code));
}

using ::lir::test::EnvOr;

// ---- the properties
// ---------------------------------------------------------------------

// Tallies printed at the end of a run, so a run shows what it covered.
struct Tally {
  size_t plans = 0, nodes = 0, candidates = 0, fired = 0, ambiguous = 0;
  std::map<std::string, size_t> declined;

  std::string ToString() const {
    std::string out =
        absl::StrCat(plans, " plans, ", nodes, " nodes, ", candidates,
                     " candidates: ", fired, " fired");
    for (const auto& [code, n] : declined)
      absl::StrAppend(&out, ", ", code, " ", n);
    absl::StrAppend(&out, " (", ambiguous,
                    " ArrangeBy input_mfp remap cases accepted either way)");
    return out;
  }
};

using test::CountKind;

// Checks every property on one document; `expected` may be empty (no
// oracle). Failures are reported through gtest.
void CheckProperties(const Document& doc, const ValidateOptions& validate,
                     const std::map<LirId, Expected>& expected, Tally& tally) {
  ASSERT_TRUE(Validate(doc, validate).ok())
      << "the generator made an invalid plan: " << Validate(doc, validate);
  const std::string text = explain::PrintText(doc);
  const size_t thresholds =
      CountKind(*doc.objects[0].plan, NodeKind::kThreshold);
  ++tally.plans;
  tally.nodes += CountNodes(*doc.objects[0].plan);

  // Disabled: the identity, with a prediction for every candidate.
  absl::StatusOr<OptimizeResult> off = OptimizeCopy(doc, false);
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(explain::PrintText(off->document), text);
  for (const Candidate& c : off->report.candidates) {
    EXPECT_EQ(c.outcome, CandidateOutcome::kDisabled);
  }

  absl::StatusOr<OptimizeResult> on = OptimizeCopy(doc, true);
  ASSERT_TRUE(on.ok()) << on.status();
  const RewriteReport& report = on->report;
  // Exactly one outcome per Threshold::Basic.
  ASSERT_EQ(report.candidates.size(), thresholds);
  ASSERT_EQ(off->report.candidates.size(), thresholds);
  // The disabled report lists the same candidates, though not always in the
  // same order: a fused node puts its base arm first, so candidates inside
  // the arms of a `Union(Negate(subtract), base)` swap places.
  std::map<LirId, const Candidate*> predicted;
  for (const Candidate& d : off->report.candidates) {
    EXPECT_TRUE(predicted.emplace(d.lir_id, &d).second)
        << "two predictions for LirId(" << d.lir_id << ")";
  }
  std::map<LirId, int> seen;
  size_t fired = 0;
  for (const Candidate& c : report.candidates) {
    SCOPED_TRACE(absl::StrCat("candidate LirId(", c.lir_id, ")"));
    EXPECT_EQ(++seen[c.lir_id], 1) << "two outcomes for one candidate";
    ASSERT_NE(c.outcome, CandidateOutcome::kDisabled);
    ASSERT_EQ(predicted.count(c.lir_id), 1u);
    const Candidate& d = *predicted[c.lir_id];
    EXPECT_EQ(d.would_fire, c.outcome == CandidateOutcome::kFired);
    EXPECT_EQ(d.reason, c.reason);
    EXPECT_EQ(d.arm, c.arm);
    ++tally.candidates;
    if (c.outcome == CandidateOutcome::kFired) {
      ++fired;
      ++tally.fired;
      EXPECT_EQ(c.reason, "");
    } else {
      EXPECT_NE(c.reason, "");
      ++tally.declined[c.reason];
    }
    auto it = expected.find(c.lir_id);
    if (expected.empty()) continue;
    ASSERT_NE(it, expected.end()) << "a candidate the generator did not make";
    const Expected& e = it->second;
    if (e.in_let_rec) {
      EXPECT_EQ(c.reason, Code(kInsideLetRec));
    }
    if (e.code.empty()) {
      EXPECT_EQ(c.outcome, CandidateOutcome::kFired)
          << c.reason << ": " << c.message;
      const FusedKeys keys = FusedKeysOf(c);
      EXPECT_EQ(keys.base_key, e.base_key);
      EXPECT_EQ(keys.subtract_key, e.subtract_key);
      EXPECT_EQ(keys.base_key.size(), e.key_size);
      EXPECT_EQ(keys.subtract_key.size(), e.key_size);
    } else if (e.remap_ambiguous) {
      ++tally.ambiguous;
      EXPECT_TRUE(c.reason == Code(kKeyRemappedByProjection) ||
                  c.reason == Code(kNotCoArranged))
          << c.reason << ": " << c.message;
      EXPECT_EQ(c.arm, e.arm);
    } else {
      EXPECT_EQ(c.reason, e.code) << c.message;
      EXPECT_EQ(c.arm, e.arm) << c.message;
    }
  }
  if (!expected.empty()) EXPECT_EQ(expected.size(), thresholds);

  // The rewritten document: well formed, one SetDifference per firing, keys
  // as long as the threshold key, and a fixed point of the pass.
  const Document& result = on->document;
  EXPECT_EQ(WellFormedProblems(result, validate), "");
  EXPECT_EQ(CountKind(*result.objects[0].plan, NodeKind::kSetDifference),
            fired);
  EXPECT_EQ(CountKind(*result.objects[0].plan, NodeKind::kThreshold),
            thresholds - fired);
  ForEachPreOrder(*result.objects[0].plan, [&](const Node& node, int) {
    if (!node.Is<SetDifferenceOp>()) return;
    const SetDifferenceOp& op = node.As<SetDifferenceOp>();
    EXPECT_EQ(op.base_key.size(), op.ensure_arrangement.key.size());
    EXPECT_EQ(op.subtract_key.size(), op.ensure_arrangement.key.size());
  });
  if (fired == 0) EXPECT_EQ(explain::PrintText(result), text);
  absl::StatusOr<OptimizeResult> twice = OptimizeCopy(result, true);
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(explain::PrintText(twice->document), explain::PrintText(result))
      << "Optimize is not idempotent";
  for (const Candidate& c : twice->report.candidates) {
    EXPECT_NE(c.outcome, CandidateOutcome::kFired);
  }
}

TEST(RecognizerProperty, RandomCandidatePlansAgreeWithTheOracle) {
  const uint64_t first = EnvOr("LIR_PROPERTY_SEED", 1);
  const uint64_t iterations = EnvOr("LIR_PROPERTY_ITERATIONS", 3000);
  Tally tally;
  for (uint64_t seed = first; seed < first + iterations; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed, " (rerun: LIR_PROPERTY_SEED=",
                              seed, " LIR_PROPERTY_ITERATIONS=1)"));
    GeneratedCase c = test::Generate(seed);
    CheckProperties(c.doc, c.validate, c.expected, tally);
    if (HasFailure()) {
      ADD_FAILURE() << "first failing seed " << seed << "; plan:\n"
                    << explain::PrintText(c.doc, {.node_identifiers = true});
      break;
    }
  }
  std::cout << tally.ToString() << "\n";
  if (HasFailure() || iterations < 1000) return;
  // The generator must actually exercise the interesting outcomes.
  EXPECT_GT(tally.fired, iterations / 10);
  for (const DeclineEntry<FusedSetDifferenceDecline>& code :
       kAllFusedSetDifferenceDeclines) {
    EXPECT_GT(tally.declined[std::string(code.name)], 0u)
        << code.name << " never occurred";
  }
}

TEST(RecognizerProperty, GeneratorIsReproducible) {
  for (uint64_t seed : {3u, 77u}) {
    GeneratedCase a = test::Generate(seed);
    GeneratedCase b = test::Generate(seed);
    EXPECT_EQ(explain::PrintText(a.doc), explain::PrintText(b.doc));
    EXPECT_EQ(a.expected.size(), b.expected.size());
  }
}

// The generator's expected codes are the pass's own names (moved here from
// plan_generator_test: the code table is the recognizer's).
TEST(RecognizerProperty, ExceptVariantsNameThePassCodes) {
  EXPECT_EQ(test::ExpectedDeclineCode(test::ExceptVariant::kFires), "");
  EXPECT_EQ(
      test::ExpectedDeclineCode(test::ExceptVariant::kKeyRemappedByProjection),
      "key_remapped_by_projection");
  EXPECT_EQ(test::ExpectedDeclineCode(test::ExceptVariant::kNotTwoArmUnion),
            "not_two_arm_union");
}

TEST(RecognizerProperty, MixedGeneratedPlansMatchTheirExceptVariants) {
  const uint64_t first = EnvOr("LIR_PROPERTY_SEED", 1);
  const uint64_t iterations =
      std::max<uint64_t>(1, EnvOr("LIR_PROPERTY_ITERATIONS", 3000) / 20);
  Tally tally;
  for (uint64_t seed = first; seed < first + iterations; ++seed) {
    SCOPED_TRACE(absl::StrCat("test::PlanShape::kMixed seed ", seed));
    test::PlanGeneratorOptions options;
    options.seed = seed;
    options.node_count = 400;
    options.except_candidates = 6;
    test::GeneratedPlan plan = test::GeneratePlan(options);
    std::map<LirId, std::string> codes;
    for (const test::ExceptCandidate& c : plan.except_candidates) {
      codes[c.threshold_id] = test::ExpectedDeclineCode(c.variant);
    }
    Document doc = test::WrapInDocument(std::move(plan.plan));
    CheckProperties(doc, plan.validate_options, {}, tally);
    absl::StatusOr<OptimizeResult> on = OptimizeCopy(doc, true);
    ASSERT_TRUE(on.ok());
    for (const Candidate& c : on->report.candidates) {
      ASSERT_EQ(codes.count(c.lir_id), 1u) << c.lir_id;
      EXPECT_EQ(c.reason, codes[c.lir_id]) << c.message;
    }
    if (HasFailure()) break;
  }
  std::cout << tally.ToString() << "\n";
  EXPECT_GT(tally.fired, 0u);
}

}  // namespace
}  // namespace lir
