// Unit tests of the fused set-difference recognizer
// (../shared/reference/SEMANTICS.md 4) on hand-written plans: firing in both
// arm orders, ids, keys read through projections, candidates at every depth and
// place, the disabled mode, idempotence, the pass called directly and its
// report. Decline codes and their order are in recognizer_declines_test.cc.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "tests/support/recognizer_plan_text.h"

namespace lir {
namespace {

using namespace test::recognizer;  // NOLINT: the plan-text vocabulary
using enum FusedSetDifferenceDecline;

// ---- firing
// ---------------------------------------------------------------------

TEST(FusedSetDifference, FiresOnThePlainShapeAndPrintsTheFusedNode) {
  Except e{.base = kA, .subtract = kB};
  Optimized run = OptimizeText(e.Text());
  EXPECT_EQ(run.printed,
            "Explained Query:\n"
            "  SetDifference ensure_arrangement={ key=[#0], permutation=id, "
            "thinning=() }\n"
            "    base_key=[#0]\n"
            "    subtract_key=[#0]\n"
            "    Get::PassArrangements materialize.public.a\n"
            "      raw=false\n"
            "      arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
            "    Get::PassArrangements materialize.public.b\n"
            "      raw=false\n"
            "      arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
            "\n"
            "Target cluster: quickstart\n");
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.pass, "fused_set_difference");
  EXPECT_EQ(c.object, "Explained Query");
  EXPECT_EQ(c.outcome, CandidateOutcome::kFired);
  EXPECT_EQ(c.arm, "");
  EXPECT_EQ(c.message, "");
  EXPECT_EQ(WellFormedProblems(run.doc), "");
}

TEST(FusedSetDifference, BothUnionArmOrdersFireWithBaseAndSubtractInPlace) {
  for (bool negate_first : {false, true}) {
    SCOPED_TRACE(negate_first ? "Negate first" : "Negate second");
    Except e{.base = kA, .subtract = kB, .negate_first = negate_first};
    Optimized run = OptimizeText(e.Text());
    const Node& fused = *run.doc.objects[0].plan;
    ASSERT_TRUE(fused.Is<SetDifferenceOp>()) << run.printed;
    ASSERT_EQ(fused.inputs.size(), 2u);
    EXPECT_EQ(fused.inputs[0]->As<GetOp>().id.ToString(),
              "materialize.public.a");
    EXPECT_EQ(fused.inputs[1]->As<GetOp>().id.ToString(),
              "materialize.public.b");
    FusionDecision decision =
        CanFuseSetDifference(*ParseOrDie(e.Text()).objects[0].plan, false);
    ASSERT_TRUE(decision.fires());
    EXPECT_EQ(decision.fire->negated_arm, negate_first ? 0u : 1u);
  }
}

TEST(FusedSetDifference, FusedNodeKeepsTheThresholdLirId) {
  // Post-order ids: a=1, b=2, Negate=3, Union=4, ArrangeBy=5, Threshold=6.
  Except e{.base = kA, .subtract = kB};
  Optimized run = OptimizeText(e.Text());
  ASSERT_EQ(run.report.candidates.size(), 1u);
  EXPECT_EQ(run.report.candidates[0].lir_id, 6u);
  EXPECT_EQ(run.doc.objects[0].plan->id, 6u);

  // Explicit ids survive printing with node identifiers.
  std::string with_ids = absl::StrCat(
      "Explained Query:\n"
      "  Threshold::Basic ensure_arrangement=",
      WholeRow("#0"),
      " // { node_id: LirId(42) }\n"
      "    ArrangeBy // { node_id: LirId(41) }\n"
      "      raw=false\n"
      "      arrangements[0]=",
      WholeRow("#0"),
      "\n"
      "      Union consolidate_output=true // { node_id: LirId(40) }\n"
      "        Get::PassArrangements materialize.public.a // { node_id: "
      "LirId(7) }\n"
      "          raw=false\n"
      "          arrangements[0]=",
      WholeRow("#0"),
      "\n"
      "        Negate // { node_id: LirId(9) }\n"
      "          Get::PassArrangements materialize.public.b // { node_id: "
      "LirId(8) }\n"
      "            raw=false\n"
      "            arrangements[0]=",
      WholeRow("#0"),
      "\n"
      "\n"
      "Target cluster: quickstart\n");
  Optimized ids = OptimizeText(with_ids);
  EXPECT_EQ(ids.doc.objects[0].plan->id, 42u);
  ASSERT_EQ(ids.report.candidates.size(), 1u);
  EXPECT_EQ(ids.report.candidates[0].lir_id, 42u);
  EXPECT_NE(ids.printed.find(absl::StrCat(
                "  SetDifference ensure_arrangement=", WholeRow("#0"),
                " // { node_id: LirId(42) }\n")),
            std::string::npos)
      << ids.printed;
  EXPECT_NE(ids.printed.find("Get::PassArrangements materialize.public.b "
                             "// { node_id: LirId(8) }"),
            std::string::npos);
  EXPECT_EQ(WellFormedProblems(ids.doc), "");
}

TEST(FusedSetDifference, KeyNamesDoNotMatter) {
  // Keys compare by column, so a named key still matches the threshold key.
  Except e{.base = Indexed("a", "#0{a}"),
           .subtract = kB,
           .arrange_attrs =
               absl::StrCat("raw=false\narrangements[0]=", WholeRow("#0{x}"))};
  ExpectFires(e.Text(), {0}, {0});
}

TEST(FusedSetDifference, MultiColumnThresholdKey) {
  Except two{.base = Indexed("a", "#0, #1"),
             .subtract = Indexed("b", "#0, #1"),
             .key = "#0, #1"};
  ExpectFires(two.Text(), {0, 1}, {0, 1});
}

// ---- keys through projections (../shared/reference/SEMANTICS.md 4.3)
// ------------------------------

TEST(FusedSetDifference, KeyThroughMfpWrapperProjection) {
  // The arm's column 0 is column 2 of c, which is arranged by [#2].
  std::string base =
      "Mfp\n"
      "  project=(#2)\n"
      "  Get::PassArrangements materialize.public.c\n"
      "    raw=false\n"
      "    arrangements[0]={ key=[#2], permutation={#0: #1, #1: #2, #2: #0}, "
      "thinning=(#0, #1) }\n";
  ExpectFires(Except{.base = base, .subtract = kB}.Text(), {2}, {0});
  ExpectFires(Except{.base = kA, .subtract = base}.Text(), {0}, {2});
}

TEST(FusedSetDifference, KeyThroughGetPlanProjection) {
  // The corpus passthrough: Get::Arrangement l0 project=(#0) key=#0. The
  // projection selects positions of the layout row
  // (../shared/reference/SEMANTICS.md 4.3, 8.2): c arranged by [#1] reads as
  // (c1, c0), so project=(#0) is c's column 1.
  std::string subtract =
      "Get::Arrangement materialize.public.c\n"
      "  project=(#0)\n"
      "  key=#1\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
      "thinning=(#0) }\n";
  ExpectFires(Except{.base = kA, .subtract = subtract}.Text(), {0}, {1});
  // project=(#1) of the same layout is c's column 0, the value: c is not
  // arranged on it (reading the row instead would wrongly fire).
  std::string value_column =
      "Get::Arrangement materialize.public.c\n"
      "  project=(#1)\n"
      "  key=#1\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
      "thinning=(#0) }\n";
  ExpectDecline(Except{.base = kA, .subtract = value_column}.Text(),
                kNotCoArranged, "subtract",
                "subtract arm: Get::Arrangement materialize.public.c has no "
                "arrangement on [#0]");
  // A projection-only Get::Collection of an indexed collection reads the
  // index too.
  std::string collection =
      "Get::Collection materialize.public.c\n"
      "  project=(#1)\n"
      "  raw=true\n"
      "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
      "thinning=(#0) }\n";
  ExpectFires(Except{.base = collection, .subtract = kB}.Text(), {1}, {0});
}

TEST(FusedSetDifference, KeyThroughMfpWrapperAndGetProjectionComposed) {
  // Mfp column 0 -> Get output column 1 -> c column 0.
  std::string base =
      "Mfp\n"
      "  project=(#1)\n"
      "  Get::Collection materialize.public.c\n"
      "    project=(#2, #0)\n"
      "    raw=true\n"
      "    arrangements[0]={ key=[#0], permutation=id, thinning=(#1, #2) }\n";
  ExpectFires(Except{.base = base, .subtract = kB}.Text(), {0}, {0});
}

TEST(FusedSetDifference, KeyThroughArrangeByInputMfpProjection) {
  // input_key is in the ArrangeBy's input columns and input_mfp reads the
  // input form's layout row (c1, c0): project=(#0) is input column 1, on
  // which the input is arranged.
  std::string through_input_key =
      "ArrangeBy\n"
      "  input_key=[#1]\n"
      "  project=(#0)\n"
      "  raw=true\n"
      "  Get::PassArrangements materialize.public.c\n"
      "    raw=false\n"
      "    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
      "thinning=(#0) }\n";
  ExpectFires(Except{.base = through_input_key, .subtract = kB}.Text(), {1},
              {0});
  // forms are in the ArrangeBy's output columns (after input_mfp).
  std::string through_forms =
      "ArrangeBy\n"
      "  project=(#1)\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#0], permutation=id, thinning=() }\n" +
      Indent(Table("c"), 2);
  ExpectFires(Except{.base = kA, .subtract = through_forms}.Text(), {0}, {0});
  // The corpus base arm: ArrangeBy input_key=[#0] raw=true over a binding.
  std::string corpus_base =
      "ArrangeBy\n"
      "  input_key=[#0]\n"
      "  raw=true\n" +
      Indent(kA, 2);
  ExpectFires(Except{.base = corpus_base, .subtract = kB}.Text(), {0}, {0});
}

TEST(FusedSetDifference, KeyThroughArrangeByLayoutRow) {
  // ArrangeBy input_key=[#1] without MFP lines outputs the input form's
  // layout row (c1, c0) (../shared/reference/SEMANTICS.md 8.3): the arm's
  // column 0 is c's column 1, which is the input_key.
  std::string layout_row =
      "ArrangeBy\n  input_key=[#1]\n  raw=true\n" + Indent(Table("c"), 2);
  ExpectFires(Except{.base = layout_row, .subtract = kB}.Text(), {1}, {0});
}

TEST(FusedSetDifference, KeyThroughMfpWrapperOverArrangeBy) {
  // Mfp column 0 -> ArrangeBy output column 1 -> its input column 0.
  std::string base =
      "Mfp\n"
      "  project=(#1)\n"
      "  ArrangeBy\n"
      "    input_key=[#0]\n"
      "    project=(#1, #0)\n"
      "    raw=true\n"
      "    Get::PassArrangements materialize.public.c\n"
      "      raw=false\n"
      "      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n";
  ExpectFires(Except{.base = base, .subtract = kB}.Text(), {0}, {0});
}

// ---- placement of candidates
// ---------------------------------------------------------

TEST(FusedSetDifference, CandidatesAtEveryDepthAndPlace) {
  const std::string fires = Except{.base = kA, .subtract = kB}.Plan();
  // In a Let value and body, in Join inputs, in nested Unions, in a LetRec
  // body and in a LetRec value (which declines), and under another
  // candidate's arm.
  std::string nested_arm =
      Except{.base = "ArrangeBy\n  input_key=[#0]\n  raw=true\n" +
                     Indent("Reduce::Distinct\n  key_plan=id\n  val_plan\n    "
                            "project=()\n" +
                                Indent(fires, 2),
                            2),
             .subtract = kB}
          .Plan();
  std::string plan = absl::StrCat(
      "With\n  cte l0 =\n", Indent(fires, 4), "Return\n",
      Indent(
          absl::StrCat(
              "With Mutually Recursive\n  cte l1 =\n",
              Indent(absl::StrCat("Union\n", Indent(fires, 2),
                                  "  Get::PassArrangements l1\n    raw=true\n"),
                     4),
              "Return\n",
              Indent(
                  absl::StrCat("Union\n", Indent(fires, 2),
                               Indent(absl::StrCat("Union\n", Indent(fires, 2),
                                                   Indent(nested_arm, 2)),
                                      2),
                               "  Get::PassArrangements l0\n    raw=true\n"
                               "  Get::PassArrangements l1\n    raw=true\n"),
                  2)),
          2));
  Optimized off = OptimizeText(Doc(plan), false);
  EXPECT_EQ(off.printed, Doc(plan));
  Optimized run = OptimizeText(Doc(plan));
  std::vector<std::string> outcomes;
  for (const Candidate& c : run.report.candidates) {
    outcomes.push_back(c.outcome == CandidateOutcome::kFired
                           ? "fired"
                           : absl::StrCat("declined ", c.reason));
  }
  // Pre-order: the Let value, the LetRec value, the body's Union arms, the
  // outer candidate before the one under its arm.
  EXPECT_EQ(outcomes,
            (std::vector<std::string>{"fired", "declined inside_let_rec",
                                      "fired", "fired", "fired", "fired"}));
  EXPECT_EQ(WellFormedProblems(run.doc), "") << run.printed;
  EXPECT_EQ(run.printed.find("Threshold::Basic"),
            run.printed.rfind("Threshold::Basic"))
      << "exactly one Threshold (the recursive one) remains\n"
      << run.printed;
}

TEST(FusedSetDifference, NestedLetInsideLetRecValueStillDeclines) {
  std::string fires = Except{.base = kA, .subtract = kB}.Plan();
  std::string plan = absl::StrCat(
      "With Mutually Recursive\n  cte l0 =\n",
      Indent(absl::StrCat("With\n  cte l1 =\n", Indent(fires, 4),
                          "Return\n  Get::PassArrangements l1\n    raw=true\n"),
             4),
      "Return\n  Get::PassArrangements l0\n    raw=true\n");
  Optimized run = OptimizeText(Doc(plan));
  ASSERT_EQ(run.report.candidates.size(), 1u) << run.printed;
  EXPECT_EQ(run.report.candidates[0].reason, DeclineName(kInsideLetRec));
}

TEST(FusedSetDifference, CandidatesNameTheirObject) {
  std::string fires = Except{.base = kA, .subtract = kB}.Plan();
  std::string declines = Except{.base = Table("a"), .subtract = kB}.Plan();
  std::string text =
      absl::StrCat("materialize.public.v_idx:\n", Indent(fires, 2),
                   "\nmaterialize.public.v:\n", Indent(declines, 2),
                   "\nTarget cluster: quickstart\n");
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 2u);
  EXPECT_EQ(run.report.candidates[0].object, "materialize.public.v_idx");
  EXPECT_EQ(run.report.candidates[0].outcome, CandidateOutcome::kFired);
  EXPECT_EQ(run.report.candidates[1].object, "materialize.public.v");
  EXPECT_EQ(run.report.candidates[1].reason, DeclineName(kNotCoArranged));
}

// ---- disabled mode, idempotence, the pass called directly
// --------------------------------

// One firing and several declining candidates side by side.
std::string MixedDocument() {
  std::vector<std::string> plans = {
      Except{.base = kA, .subtract = kB}.Plan(),
      Except{.base = Table("a"), .subtract = kB}.Plan(),
      Except{.base = kA,
             .subtract = "Mfp\n  project=(#0)\n  map=(1)\n" + Indent(kB, 2)}
          .Plan(),
      Except{.base = kA, .subtract = kB, .arrange_attrs = "raw=true"}.Plan(),
      Except{.base = kA, .subtract = kB, .negate_first = true}.Plan(),
  };
  std::string arms;
  for (const std::string& p : plans) arms += Indent(p, 2);
  return Doc("Union\n" + arms);
}

TEST(DisabledMode, PrintsByteIdenticallyAndReportsWhatWouldHappen) {
  const std::string text = MixedDocument();
  Optimized on = OptimizeText(text, true);
  Optimized off = OptimizeText(text, false);
  EXPECT_EQ(off.printed, text);
  ASSERT_NE(test::recognizer::FusedPassRun(off.report), nullptr);
  EXPECT_FALSE(test::recognizer::FusedPassRun(off.report)->enabled);
  ASSERT_NE(test::recognizer::FusedPassRun(on.report), nullptr);
  EXPECT_TRUE(test::recognizer::FusedPassRun(on.report)->enabled);
  ASSERT_EQ(off.report.candidates.size(), 5u);
  ASSERT_EQ(on.report.candidates.size(), 5u);
  int would_fire = 0;
  for (size_t i = 0; i < off.report.candidates.size(); ++i) {
    const Candidate& d = off.report.candidates[i];
    const Candidate& e = on.report.candidates[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(d.outcome, CandidateOutcome::kDisabled);
    EXPECT_EQ(d.would_fire, e.outcome == CandidateOutcome::kFired);
    EXPECT_EQ(d.lir_id, e.lir_id);
    EXPECT_EQ(d.reason, e.reason);
    EXPECT_EQ(d.arm, e.arm);
    EXPECT_EQ(d.message, e.message);
    EXPECT_EQ(FusedKeysOf(d).base_key, FusedKeysOf(e).base_key);
    EXPECT_EQ(FusedKeysOf(d).subtract_key, FusedKeysOf(e).subtract_key);
    if (d.would_fire) {
      ++would_fire;
      EXPECT_EQ(d.reason, "");
      EXPECT_EQ(FusedKeysOf(d).base_key, std::vector<int>{0});
    } else {
      EXPECT_NE(d.reason, "");
      EXPECT_NE(d.message, "");
    }
  }
  EXPECT_EQ(would_fire, 2);
  EXPECT_EQ(off.report.candidates[1].reason, DeclineName(kNotCoArranged));
  EXPECT_EQ(off.report.candidates[2].reason, DeclineName(kNonProjectionMfp));
  EXPECT_EQ(off.report.candidates[2].arm, "subtract");
  EXPECT_EQ(off.report.candidates[3].reason, DeclineName(kInputNotArranged));
}

TEST(Idempotence, OptimizingTwiceEqualsOnce) {
  for (const std::string& text :
       {MixedDocument(), Except{.base = kA, .subtract = kB}.Text()}) {
    Optimized once = OptimizeText(text);
    absl::StatusOr<OptimizeResult> twice = OptimizeCopy(once.doc, true);
    ASSERT_TRUE(twice.ok());
    EXPECT_EQ(explain::PrintText(twice->document), once.printed);
    for (const Candidate& c : twice->report.candidates) {
      EXPECT_NE(c.outcome, CandidateOutcome::kFired) << c.lir_id;
    }
    EXPECT_EQ(WellFormedProblems(once.doc), "");
  }
}

TEST(PassFunction, DryRunVisitsWithoutMutatingAndApplyRewrites) {
  Document doc = ParseOrDie(MixedDocument());
  const std::string before = explain::PrintText(doc);
  RewriteReport report;
  PassContext ctx{.apply = false, .pass_name = "custom", .report = &report};
  ASSERT_TRUE(FusedSetDifferencePass(doc, ctx).ok());
  EXPECT_EQ(explain::PrintText(doc), before);
  ASSERT_EQ(report.candidates.size(), 5u);
  EXPECT_EQ(report.candidates[0].pass, "custom");
  EXPECT_TRUE(report.candidates[0].would_fire);

  RewriteReport applied;
  ctx = {.apply = true, .pass_name = "custom", .report = &applied};
  ASSERT_TRUE(FusedSetDifferencePass(doc, ctx).ok());
  EXPECT_NE(explain::PrintText(doc), before);
  EXPECT_EQ(applied.candidates.size(), 5u);
  EXPECT_EQ(WellFormedProblems(doc), "");
}

TEST(PassFunction, FuseSetDifferenceRebuildsTheNodeInPlace) {
  Document doc = ParseOrDie(
      Except{.base = kA, .subtract = Indexed("b"), .negate_first = true}
          .Text());
  Node& root = *doc.objects[0].plan;
  FusionDecision decision = CanFuseSetDifference(root, false);
  ASSERT_TRUE(decision.fires()) << decision.message;
  const LirId id = root.id;
  FuseSetDifference(root, *decision.fire);
  EXPECT_EQ(root.id, id);
  ASSERT_TRUE(root.Is<SetDifferenceOp>());
  EXPECT_EQ(root.As<SetDifferenceOp>().ensure_arrangement,
            MakeColumnArrangement({0}, 1));
  ASSERT_EQ(root.inputs.size(), 2u);
  EXPECT_EQ(root.inputs[0]->As<GetOp>().id.ToString(), "materialize.public.a");
  EXPECT_EQ(root.inputs[1]->As<GetOp>().id.ToString(), "materialize.public.b");
  EXPECT_EQ(WellFormedProblems(doc), "");
}

TEST(Report, TextAndJsonNameOutcomeReasonAndArm) {
  Optimized on = OptimizeText(MixedDocument());
  std::string printed = PrintCandidates(on.report);
  EXPECT_NE(printed.find("fused_set_difference LirId("), std::string::npos);
  EXPECT_NE(printed.find("declined non_projection_mfp (subtract arm: Mfp"),
            std::string::npos)
      << printed;
  nlohmann::json json = ReportToJson(on.report);
  ASSERT_EQ(json["candidates"].size(), 5u);
  EXPECT_EQ(json["candidates"][0]["outcome"], "fired");
  EXPECT_EQ(json["candidates"][0]["base_key"], nlohmann::json::array({0}));
  EXPECT_EQ(json["candidates"][2]["reason"], "non_projection_mfp");
  EXPECT_EQ(json["candidates"][2]["arm"], "subtract");
  Optimized off = OptimizeText(MixedDocument(), false);
  nlohmann::json off_json = ReportToJson(off.report);
  EXPECT_EQ(off_json["candidates"][0]["outcome"], "disabled");
  EXPECT_EQ(off_json["candidates"][0]["if_enabled"], "fired");
  EXPECT_EQ(off_json["candidates"][1]["if_enabled"], "declined");
}

}  // namespace
}  // namespace lir
