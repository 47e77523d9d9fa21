// Unit tests of the fused set-difference recognizer (SEMANTICS.md 4) on
// hand-written plans: every decline code with its message, the order of the
// checks, keys read through projections, ids, the disabled mode and the
// well-formedness of every rewritten plan.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "src/explain/text.h"
#include "src/recognizer/fused_set_difference.h"
#include "src/recognizer/pass.h"
#include "tests/recognizer_test_util.h"

namespace lir {
namespace {

using recognizer_testing::OptimizeCopy;
using recognizer_testing::WellFormedProblems;

// ---- building plan text -----------------------------------------------------

// `block` (lines at column 0, relative indentation kept) shifted right.
std::string Indent(absl::string_view block, int spaces) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(block, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&out, std::string(spaces, ' '), line, "\n");
  }
  return out;
}

// A one-object document around `plan` (at column 0).
std::string Doc(absl::string_view plan) {
  return absl::StrCat("Explained Query:\n", Indent(plan, 2),
                      "\nTarget cluster: quickstart\n");
}

// `{ key=[...], permutation=id, thinning=() }` for a whole-row key.
std::string WholeRow(absl::string_view key) {
  return absl::StrCat("{ key=[", key, "], permutation=id, thinning=() }");
}

// An indexed global collection read as is.
std::string Indexed(absl::string_view name, absl::string_view key = "#0") {
  return absl::StrCat("Get::PassArrangements materialize.public.", name,
                      "\n  raw=false\n  arrangements[0]=", WholeRow(key), "\n");
}

// A table read raw.
std::string Table(absl::string_view name) {
  return absl::StrCat("Get::Collection materialize.public.", name,
                      "\n  raw=true\n");
}

// The EXCEPT ALL shape Threshold(ArrangeBy(Union(base, Negate(subtract)))),
// with knobs for every shape check.
struct Except {
  std::string base;
  std::string subtract;
  bool negate_first = false;
  std::string key = "#0";
  std::string threshold_arrangement;  // default: WholeRow(key)
  std::string arrange_attrs;          // default: raw=false + WholeRow(key)
  std::string union_header = "Union consolidate_output=true";
  std::string union_attrs;            // e.g. temporal_bucketing_strategies

  std::string Plan() const {
    std::string arrangement =
        threshold_arrangement.empty() ? WholeRow(key) : threshold_arrangement;
    std::string attrs =
        arrange_attrs.empty()
            ? absl::StrCat("raw=false\narrangements[0]=", WholeRow(key))
            : arrange_attrs;
    std::string negated = absl::StrCat("Negate\n", Indent(subtract, 2));
    std::string arms = negate_first ? absl::StrCat(negated, base)
                                    : absl::StrCat(base, negated);
    return absl::StrCat(
        "Threshold::Basic ensure_arrangement=", arrangement, "\n",
        Indent(absl::StrCat("ArrangeBy\n", Indent(attrs, 2),
                            Indent(absl::StrCat(union_header, "\n",
                                                Indent(union_attrs, 2),
                                                Indent(arms, 2)),
                                   2)),
               2));
  }
  std::string Text() const { return Doc(Plan()); }
};

// ---- running the pass ---------------------------------------------------------

struct Optimized {
  Document doc;
  RewriteReport report;
  std::string printed;
};

Document Parse(const std::string& text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << text;
  return doc.ok() ? std::move(*doc) : Document{};
}

Optimized OptimizeText(const std::string& text, bool enabled = true) {
  Document doc = Parse(text);
  absl::StatusOr<OptimizeResult> result = OptimizeCopy(doc, enabled);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return {};
  Optimized run{std::move(result->document), std::move(result->report), ""};
  run.printed = explain::PrintText(run.doc);
  return run;
}

// The only candidate of `text` with the flag on; also checks that the result
// is well formed.
Candidate OnlyCandidate(const std::string& text) {
  Optimized run = OptimizeText(text);
  EXPECT_EQ(WellFormedProblems(run.doc), "");
  EXPECT_EQ(run.report.candidates.size(), 1u) << text;
  if (run.report.candidates.size() != 1) return {};
  return run.report.candidates[0];
}

void ExpectDecline(const std::string& text, absl::string_view code,
                   absl::string_view arm, absl::string_view message) {
  SCOPED_TRACE(text);
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.outcome, CandidateOutcome::kDeclined);
  EXPECT_EQ(c.reason, code);
  EXPECT_EQ(c.arm, arm);
  EXPECT_EQ(c.message, message);
  // A declined candidate leaves the document as it was.
  EXPECT_EQ(run.printed, text);
}

void ExpectFires(const std::string& text, const std::vector<int>& base_key,
                 const std::vector<int>& subtract_key) {
  SCOPED_TRACE(text);
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.outcome, CandidateOutcome::kFired) << c.reason << ": " << c.message;
  EXPECT_EQ(c.reason, "");
  EXPECT_EQ(c.base_key, base_key);
  EXPECT_EQ(c.subtract_key, subtract_key);
  ASSERT_TRUE(run.doc.objects[0].plan->Is<SetDifferenceOp>()) << run.printed;
  const SetDifferenceOp& fused = run.doc.objects[0].plan->As<SetDifferenceOp>();
  EXPECT_EQ(fused.base_key, base_key);
  EXPECT_EQ(fused.subtract_key, subtract_key);
  EXPECT_EQ(WellFormedProblems(run.doc), "");
}

const std::string kA = Indexed("a");
const std::string kB = Indexed("b");

// ---- firing ---------------------------------------------------------------------

TEST(FusedSetDifference, FiresOnThePlainShapeAndPrintsTheFusedNode) {
  Except e{.base = kA, .subtract = kB};
  Optimized run = OptimizeText(e.Text());
  EXPECT_EQ(run.printed,
            "Explained Query:\n"
            "  SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }\n"
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
    EXPECT_EQ(fused.inputs[0]->As<GetOp>().id.ToString(), "materialize.public.a");
    EXPECT_EQ(fused.inputs[1]->As<GetOp>().id.ToString(), "materialize.public.b");
    FusionDecision decision =
        CanFuseSetDifference(*Parse(e.Text()).objects[0].plan, false);
    EXPECT_TRUE(decision.fires);
    EXPECT_EQ(decision.negated_arm, negate_first ? 0u : 1u);
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
      "  Threshold::Basic ensure_arrangement=", WholeRow("#0"),
      " // { node_id: LirId(42) }\n"
      "    ArrangeBy // { node_id: LirId(41) }\n"
      "      raw=false\n"
      "      arrangements[0]=", WholeRow("#0"), "\n"
      "      Union consolidate_output=true // { node_id: LirId(40) }\n"
      "        Get::PassArrangements materialize.public.a // { node_id: LirId(7) }\n"
      "          raw=false\n"
      "          arrangements[0]=", WholeRow("#0"), "\n"
      "        Negate // { node_id: LirId(9) }\n"
      "          Get::PassArrangements materialize.public.b // { node_id: LirId(8) }\n"
      "            raw=false\n"
      "            arrangements[0]=", WholeRow("#0"), "\n"
      "\n"
      "Target cluster: quickstart\n");
  Optimized ids = OptimizeText(with_ids);
  EXPECT_EQ(ids.doc.objects[0].plan->id, 42u);
  ASSERT_EQ(ids.report.candidates.size(), 1u);
  EXPECT_EQ(ids.report.candidates[0].lir_id, 42u);
  EXPECT_NE(ids.printed.find(absl::StrCat("  SetDifference ensure_arrangement=",
                                          WholeRow("#0"),
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
  Except e{.base = Indexed("a", "#0{a}"), .subtract = kB,
           .arrange_attrs = absl::StrCat("raw=false\narrangements[0]=",
                                         WholeRow("#0{x}"))};
  ExpectFires(e.Text(), {0}, {0});
}

TEST(FusedSetDifference, MultiColumnThresholdKey) {
  Except two{.base = Indexed("a", "#0, #1"), .subtract = Indexed("b", "#0, #1"),
             .key = "#0, #1"};
  ExpectFires(two.Text(), {0, 1}, {0, 1});
}

// ---- keys through projections (SEMANTICS.md 4.3) ------------------------------

TEST(FusedSetDifference, KeyThroughMfpWrapperProjection) {
  // The arm's column 0 is column 2 of c, which is arranged by [#2].
  std::string base =
      "Mfp\n"
      "  project=(#2)\n"
      "  Get::PassArrangements materialize.public.c\n"
      "    raw=false\n"
      "    arrangements[0]={ key=[#2], permutation={#0: #1, #1: #2, #2: #0}, thinning=(#0, #1) }\n";
  ExpectFires(Except{.base = base, .subtract = kB}.Text(), {2}, {0});
  ExpectFires(Except{.base = kA, .subtract = base}.Text(), {0}, {2});
}

TEST(FusedSetDifference, KeyThroughGetPlanProjection) {
  // The corpus passthrough: Get::Arrangement l0 project=(#0) key=#0.
  std::string subtract =
      "Get::Arrangement materialize.public.c\n"
      "  project=(#1)\n"
      "  key=#1\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }\n";
  ExpectFires(Except{.base = kA, .subtract = subtract}.Text(), {0}, {1});
  // A projection-only Get::Collection of an indexed collection reads the
  // index too.
  std::string collection =
      "Get::Collection materialize.public.c\n"
      "  project=(#1)\n"
      "  raw=true\n"
      "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }\n";
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
  // input_key is in the ArrangeBy's input columns: output column 0 is input
  // column 1, and the input is arranged by [#1].
  std::string through_input_key =
      "ArrangeBy\n"
      "  input_key=[#1]\n"
      "  project=(#1)\n"
      "  raw=true\n"
      "  Get::PassArrangements materialize.public.c\n"
      "    raw=false\n"
      "    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }\n";
  ExpectFires(Except{.base = through_input_key, .subtract = kB}.Text(), {1}, {0});
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

// ---- decline codes (SEMANTICS.md 4.2), each with its message ----------------------

TEST(DeclineCodes, InsideLetRec) {
  std::string plan = absl::StrCat(
      "With Mutually Recursive\n  cte l0 =\n",
      Indent(Except{.base = kA, .subtract = kB}.Plan(), 4),
      "Return\n  Get::PassArrangements l0\n    raw=true\n");
  Optimized run = OptimizeText(Doc(plan));
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.outcome, CandidateOutcome::kDeclined);
  EXPECT_EQ(c.reason, "inside_let_rec");
  EXPECT_EQ(c.arm, "");
  EXPECT_EQ(c.message,
            "Threshold is inside the values of a With Mutually Recursive block");
  EXPECT_EQ(run.printed, Doc(plan));
}

TEST(DeclineCodes, InputNotArranged) {
  // Threshold reads the Union directly.
  std::string direct = absl::StrCat(
      "Threshold::Basic ensure_arrangement=", WholeRow("#0"), "\n",
      Indent(absl::StrCat("Union consolidate_output=true\n", Indent(kA, 2),
                          "  Negate\n", Indent(kB, 4)),
             2));
  ExpectDecline(Doc(direct), "input_not_arranged", "",
                "input is Union, not an ArrangeBy");
  ExpectDecline(
      Except{.base = kA, .subtract = kB,
             .arrange_attrs = "raw=true\narrangements[0]=" + WholeRow("#0")}
          .Text(),
      "input_not_arranged", "",
      "input ArrangeBy also keeps the raw form (raw=true)");
  ExpectDecline(
      Except{.base = kA, .subtract = kB,
             .arrange_attrs = "raw=false\narrangements[0]={ key=[#1], "
                              "permutation=id, thinning=() }"}
          .Text(),
      "input_not_arranged", "",
      "input ArrangeBy has no arrangement on the threshold key [#0]");
  ExpectDecline(Except{.base = kA, .subtract = kB,
                       .arrange_attrs = "raw=false"}
                    .Text(),
                "input_not_arranged", "",
                "input ArrangeBy has no arrangement on the threshold key [#0]");
  ExpectDecline(
      Except{.base = kA, .subtract = kB,
             .arrange_attrs = "filter=((#0) IS NOT NULL)\nraw=false\n"
                              "arrangements[0]=" + WholeRow("#0")}
          .Text(),
      "input_not_arranged", "",
      "input ArrangeBy transforms its input (input_mfp)");
  // A threshold key that leaves a value column is not the whole row.
  std::string partial = "{ key=[#0], permutation=id, thinning=(#1) }";
  ExpectDecline(
      Except{.base = Indexed("a", "#0, #1"), .subtract = Indexed("b", "#0, #1"),
             .threshold_arrangement = partial,
             .arrange_attrs = "raw=false\narrangements[0]=" + partial}
          .Text(),
      "input_not_arranged", "",
      "the threshold key is not the whole row of plain columns");
}

TEST(DeclineCodes, NotTwoArmUnion) {
  std::string over_get = absl::StrCat(
      "Threshold::Basic ensure_arrangement=", WholeRow("#0"), "\n",
      Indent(absl::StrCat("ArrangeBy\n  raw=false\n  arrangements[0]=",
                          WholeRow("#0"), "\n", Indent(kA, 2)),
             2));
  ExpectDecline(Doc(over_get), "not_two_arm_union", "",
                "ArrangeBy input is Get::PassArrangements materialize.public.a, "
                "not a Union");
  // Three arms: the extra arm rides along with the base.
  Except three{.base = kA + Indexed("c"), .subtract = kB};
  ExpectDecline(three.Text(), "not_two_arm_union", "", "Union has 3 arms");
  Except one{.base = "", .subtract = kB};
  ExpectDecline(one.Text(), "not_two_arm_union", "", "Union has 1 arms");
}

TEST(DeclineCodes, NotOneNegatedArm) {
  std::string none = absl::StrCat(
      "Threshold::Basic ensure_arrangement=", WholeRow("#0"), "\n",
      Indent(absl::StrCat("ArrangeBy\n  raw=false\n  arrangements[0]=",
                          WholeRow("#0"), "\n  Union consolidate_output=true\n",
                          Indent(kA, 4), Indent(kB, 4)),
             2));
  ExpectDecline(Doc(none), "not_one_negated_arm", "", "no Union arm is a Negate");
  Except both{.base = "Negate\n" + Indent(kA, 2), .subtract = kB};
  ExpectDecline(both.Text(), "not_one_negated_arm", "",
                "both Union arms are Negate");
}

TEST(DeclineCodes, TemporalBucketing) {
  ExpectDecline(
      Except{.base = kA, .subtract = kB,
             .union_attrs = "temporal_bucketing_strategies=[Direct, TemporalBucketing]"}
          .Text(),
      "temporal_bucketing", "", "Union arm 1 uses TemporalBucketing");
  ExpectDecline(
      Except{.base = kA, .subtract = kB,
             .arrange_attrs = "strategy=TemporalBucketing\nraw=false\n"
                              "arrangements[0]=" + WholeRow("#0")}
          .Text(),
      "temporal_bucketing", "", "ArrangeBy uses strategy=TemporalBucketing");
}

TEST(DeclineCodes, NonProjectionMfpWrapper) {
  for (const char* line : {"filter=((#0) IS NOT NULL)", "map=(1)",
                           "TemporalFilter: mz_now() < #0"}) {
    SCOPED_TRACE(line);
    std::string wrapped = absl::StrCat("Mfp\n  project=(#0)\n  ", line, "\n",
                                       Indent(kA, 2));
    ExpectDecline(Except{.base = wrapped, .subtract = kB}.Text(),
                  "non_projection_mfp", "base",
                  "base arm: Mfp applies a map, filter or temporal filter, not "
                  "only a projection");
    ExpectDecline(Except{.base = kB, .subtract = wrapped}.Text(),
                  "non_projection_mfp", "subtract",
                  "subtract arm: Mfp applies a map, filter or temporal filter, "
                  "not only a projection");
  }
  std::string seek = "Mfp\n  input_key=#0\n  input_val=(5)\n" + Indent(kA, 2);
  ExpectDecline(Except{.base = kB, .subtract = seek}.Text(),
                "non_projection_mfp", "subtract",
                "subtract arm: Mfp reads a single value (input_val=) of its "
                "input arrangement");
}

TEST(DeclineCodes, ArmNotGetOrArrangeBy) {
  std::string reduce =
      "Reduce::Distinct\n  key_plan=id\n  val_plan\n    project=()\n" +
      Indent(kA, 2);
  ExpectDecline(Except{.base = kB, .subtract = reduce}.Text(),
                "arm_not_get_or_arrange_by", "subtract",
                "subtract arm: Reduce::Distinct is not a Get or an ArrangeBy");
  // A projecting Mfp is stripped first; what is under it must qualify.
  std::string wrapped = "Mfp\n  project=(#0)\n" + Indent(reduce, 2);
  ExpectDecline(Except{.base = wrapped, .subtract = kB}.Text(),
                "arm_not_get_or_arrange_by", "base",
                "base arm: Reduce::Distinct is not a Get or an ArrangeBy");
  // Two Mfps: only one wrapper is stripped.
  std::string twice = "Mfp\n  project=(#0)\n" +
                      Indent("Mfp\n  project=(#0)\n" + Indent(kA, 2), 2);
  ExpectDecline(Except{.base = twice, .subtract = kB}.Text(),
                "arm_not_get_or_arrange_by", "base",
                "base arm: Mfp is not a Get or an ArrangeBy");
  ExpectDecline(Except{.base = kA, .subtract = "Constant\n  - (1)\n"}.Text(),
                "arm_not_get_or_arrange_by", "subtract",
                "subtract arm: Constant is not a Get or an ArrangeBy");
}

TEST(DeclineCodes, NonProjectionMfpInGetPlanOrArrangeBy) {
  std::string seek =
      "Get::Arrangement materialize.public.c\n"
      "  key=#0\n"
      "  val=(5)\n"
      "  raw=false\n"
      "  arrangements[0]=" + WholeRow("#0") + "\n";
  ExpectDecline(Except{.base = seek, .subtract = kB}.Text(),
                "non_projection_mfp", "base",
                "base arm: Get::Arrangement materialize.public.c reads a single "
                "value (val=) of its arrangement");
  std::string filtered =
      "Get::Collection materialize.public.c\n"
      "  filter=((#0) IS NOT NULL)\n"
      "  raw=true\n"
      "  arrangements[0]=" + WholeRow("#0") + "\n";
  ExpectDecline(Except{.base = kA, .subtract = filtered}.Text(),
                "non_projection_mfp", "subtract",
                "subtract arm: Get::Collection materialize.public.c applies a "
                "map, filter or temporal filter, not only a projection");
  std::string mapped =
      "Get::Arrangement materialize.public.c\n"
      "  project=(#1)\n"
      "  map=(1)\n"
      "  key=#0\n"
      "  raw=false\n"
      "  arrangements[0]=" + WholeRow("#0") + "\n";
  ExpectDecline(Except{.base = mapped, .subtract = kB}.Text(),
                "non_projection_mfp", "base",
                "base arm: Get::Arrangement materialize.public.c applies a "
                "map, filter or temporal filter, not only a projection");
  std::string arrange =
      "ArrangeBy\n"
      "  filter=((#0) IS NOT NULL)\n"
      "  raw=false\n"
      "  arrangements[0]=" + WholeRow("#0") + "\n" + Indent(Table("c"), 2);
  ExpectDecline(Except{.base = kA, .subtract = arrange}.Text(),
                "non_projection_mfp", "subtract",
                "subtract arm: ArrangeBy applies a map, filter or temporal "
                "filter before arranging, not only a projection");
}

TEST(DeclineCodes, KeyRemappedByProjection) {
  // c is arranged by [#0] only; the arm's column 0 is c's column 1.
  std::string c_by_0 =
      "Get::PassArrangements materialize.public.c\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n";
  std::string remapped = "Mfp\n  project=(#1)\n" + Indent(c_by_0, 2);
  ExpectDecline(Except{.base = remapped, .subtract = kB}.Text(),
                "key_remapped_by_projection", "base",
                "base arm: Get::PassArrangements materialize.public.c is "
                "arranged on [#0] but the arm's projection reads the key as "
                "[#1]");
  std::string get_projection =
      "Get::Arrangement materialize.public.c\n"
      "  project=(#1)\n"
      "  key=#0\n"
      "  raw=false\n"
      "  arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n";
  ExpectDecline(Except{.base = kA, .subtract = get_projection}.Text(),
                "key_remapped_by_projection", "subtract",
                "subtract arm: Get::Arrangement materialize.public.c is "
                "arranged on [#0] but the arm's projection reads the key as "
                "[#1]");
  std::string arrange =
      "Mfp\n"
      "  project=(#1)\n"
      "  ArrangeBy\n"
      "    raw=false\n"
      "    arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n" +
      Indent(Table("c"), 4);
  ExpectDecline(Except{.base = kA, .subtract = arrange}.Text(),
                "key_remapped_by_projection", "subtract",
                "subtract arm: ArrangeBy is arranged on [#0] but the arm's "
                "projection reads the key as [#1]");
  // Two columns swapped by the projection: [#0, #1] is advertised, the arm
  // needs [#1, #0].
  std::string swapped =
      "Mfp\n  project=(#1, #0)\n" + Indent(Indexed("c", "#0, #1"), 2);
  ExpectDecline(Except{.base = swapped, .subtract = Indexed("b", "#0, #1"),
                       .key = "#0, #1"}
                    .Text(),
                "key_remapped_by_projection", "base",
                "base arm: Get::PassArrangements materialize.public.c is "
                "arranged on [#0, #1] but the arm's projection reads the key "
                "as [#1, #0]");
}

TEST(DeclineCodes, NotCoArranged) {
  // The corpus's second candidate: the subtract arm reads a table raw.
  std::string raw =
      "Get::Collection materialize.public.right2\n"
      "  project=(#0)\n"
      "  raw=true\n";
  ExpectDecline(Except{.base = kA, .subtract = raw}.Text(), "not_co_arranged",
                "subtract",
                "subtract arm: Get::Collection materialize.public.right2 has "
                "no arrangement on [#0]");
  ExpectDecline(Except{.base = Indexed("c", "#1"), .subtract = kB}.Text(),
                "not_co_arranged", "base",
                "base arm: Get::PassArrangements materialize.public.c has no "
                "arrangement on [#0]");
  std::string arrange = "ArrangeBy\n  raw=true\n" + Indent(Table("c"), 2);
  ExpectDecline(Except{.base = arrange, .subtract = kB}.Text(),
                "not_co_arranged", "base",
                "base arm: ArrangeBy has no arrangement on [#0]");
  // input_key on another column than the one the arm's key reads.
  std::string other_input_key =
      "ArrangeBy\n  input_key=[#1]\n  raw=true\n" + Indent(Table("c"), 2);
  ExpectDecline(Except{.base = kA, .subtract = other_input_key}.Text(),
                "not_co_arranged", "subtract",
                "subtract arm: ArrangeBy has no arrangement on [#0]");
  // A key prefix is not the whole-row key.
  ExpectDecline(Except{.base = Indexed("a", "#0"),
                       .subtract = Indexed("b", "#0, #1"), .key = "#0, #1"}
                    .Text(),
                "not_co_arranged", "base",
                "base arm: Get::PassArrangements materialize.public.a has no "
                "arrangement on [#0, #1]");
}

// ---- the order of the checks ----------------------------------------------------

TEST(DeclineOrder, InsideLetRecComesFirst) {
  // Also fails input_not_arranged (raw=true) and its arms are raw tables.
  Except bad{.base = Table("a"), .subtract = Table("b"),
             .arrange_attrs = "raw=true\narrangements[0]=" + WholeRow("#0")};
  std::string plan = absl::StrCat("With Mutually Recursive\n  cte l0 =\n",
                                  Indent(bad.Plan(), 4),
                                  "Return\n  Get::PassArrangements l0\n    raw=true\n");
  Optimized run = OptimizeText(Doc(plan));
  ASSERT_EQ(run.report.candidates.size(), 1u);
  EXPECT_EQ(run.report.candidates[0].reason, "inside_let_rec");
  FusionDecision direct =
      CanFuseSetDifference(*Parse(bad.Text()).objects[0].plan, true);
  EXPECT_EQ(direct.code, "inside_let_rec");
  EXPECT_FALSE(direct.fires);
}

TEST(DeclineOrder, ShapeChecksInOrder) {
  // input_not_arranged before not_two_arm_union.
  Except raw_three{.base = kA + kA, .subtract = kB,
                   .arrange_attrs = "raw=true\narrangements[0]=" + WholeRow("#0")};
  EXPECT_EQ(OnlyCandidate(raw_three.Text()).reason, "input_not_arranged");
  // not_two_arm_union before not_one_negated_arm: three arms, two negated.
  Except three_two_negated{.base = "Negate\n" + Indent(kA, 2) + kA,
                           .subtract = kB};
  EXPECT_EQ(OnlyCandidate(three_two_negated.Text()).reason, "not_two_arm_union");
  // not_one_negated_arm before temporal_bucketing.
  Except both_bucketed{
      .base = "Negate\n" + Indent(kA, 2), .subtract = kB,
      .arrange_attrs = "strategy=TemporalBucketing\nraw=false\narrangements[0]=" +
                       WholeRow("#0")};
  EXPECT_EQ(OnlyCandidate(both_bucketed.Text()).reason, "not_one_negated_arm");
  // temporal_bucketing before every arm check.
  Except bucketed_bad_arms{
      .base = "Constant\n  - (1)\n", .subtract = Table("b"),
      .union_attrs = "temporal_bucketing_strategies=[TemporalBucketing, Direct]"};
  Candidate c = OnlyCandidate(bucketed_bad_arms.Text());
  EXPECT_EQ(c.reason, "temporal_bucketing");
  EXPECT_EQ(c.message, "Union arm 0 uses TemporalBucketing");
  EXPECT_EQ(c.arm, "");
}

TEST(DeclineOrder, BaseArmIsCheckedCompletelyBeforeSubtract) {
  // The base fails the last check (not_co_arranged), the subtract arm the
  // first arm check (non_projection_mfp): the base's code is reported.
  std::string filtered_subtract =
      "Mfp\n  filter=((#0) IS NOT NULL)\n" + Indent(kB, 2);
  for (bool negate_first : {false, true}) {
    SCOPED_TRACE(negate_first);
    Candidate c = OnlyCandidate(Except{.base = Table("a"),
                                       .subtract = filtered_subtract,
                                       .negate_first = negate_first}
                                    .Text());
    EXPECT_EQ(c.reason, "not_co_arranged");
    EXPECT_EQ(c.arm, "base");
    // With a good base the subtract arm's failure shows.
    Candidate s = OnlyCandidate(Except{.base = kA,
                                       .subtract = filtered_subtract,
                                       .negate_first = negate_first}
                                    .Text());
    EXPECT_EQ(s.reason, "non_projection_mfp");
    EXPECT_EQ(s.arm, "subtract");
  }
}

TEST(DeclineOrder, WithinAnArm) {
  // non_projection_mfp (wrapper) before arm_not_get_or_arrange_by.
  std::string filtered_over_constant =
      "Mfp\n  filter=((#0) IS NOT NULL)\n  Constant\n    - (1)\n";
  Candidate a = OnlyCandidate(
      Except{.base = filtered_over_constant, .subtract = kB}.Text());
  EXPECT_EQ(a.reason, "non_projection_mfp");
  EXPECT_EQ(a.arm, "base");
  // non_projection_mfp (Get plan) before not_co_arranged.
  std::string filtered_raw =
      "Get::Collection materialize.public.c\n  filter=((#0) IS NOT NULL)\n"
      "  raw=true\n";
  Candidate b = OnlyCandidate(Except{.base = kA, .subtract = filtered_raw}.Text());
  EXPECT_EQ(b.reason, "non_projection_mfp");
  // non_projection_mfp (ArrangeBy input_mfp) before not_co_arranged.
  std::string arrange_mapped =
      "ArrangeBy\n  map=(1)\n  raw=true\n" + Indent(Table("c"), 2);
  Candidate d = OnlyCandidate(Except{.base = arrange_mapped, .subtract = kB}.Text());
  EXPECT_EQ(d.reason, "non_projection_mfp");
  EXPECT_EQ(d.arm, "base");
}

// ---- placement of candidates ---------------------------------------------------------

TEST(FusedSetDifference, CandidatesAtEveryDepthAndPlace) {
  const std::string fires = Except{.base = kA, .subtract = kB}.Plan();
  // In a Let value and body, in Join inputs, in nested Unions, in a LetRec
  // body and in a LetRec value (which declines), and under another
  // candidate's arm.
  std::string nested_arm = Except{
      .base = "ArrangeBy\n  input_key=[#0]\n  raw=true\n" +
              Indent("Reduce::Distinct\n  key_plan=id\n  val_plan\n    project=()\n" +
                         Indent(fires, 2),
                     2),
      .subtract = kB}
                               .Plan();
  std::string plan = absl::StrCat(
      "With\n  cte l0 =\n", Indent(fires, 4), "Return\n",
      Indent(absl::StrCat(
                 "With Mutually Recursive\n  cte l1 =\n",
                 Indent(absl::StrCat("Union\n", Indent(fires, 2),
                                     "  Get::PassArrangements l1\n    raw=true\n"),
                        4),
                 "Return\n",
                 Indent(absl::StrCat(
                            "Union\n", Indent(fires, 2),
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
  EXPECT_EQ(outcomes, (std::vector<std::string>{
                          "fired", "declined inside_let_rec", "fired", "fired",
                          "fired", "fired"}));
  EXPECT_EQ(WellFormedProblems(run.doc), "") << run.printed;
  EXPECT_EQ(run.printed.find("Threshold::Basic"),
            run.printed.rfind("Threshold::Basic"))
      << "exactly one Threshold (the recursive one) remains\n" << run.printed;
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
  EXPECT_EQ(run.report.candidates[0].reason, "inside_let_rec");
}

TEST(FusedSetDifference, CandidatesNameTheirObject) {
  std::string fires = Except{.base = kA, .subtract = kB}.Plan();
  std::string declines = Except{.base = Table("a"), .subtract = kB}.Plan();
  std::string text = absl::StrCat("materialize.public.v_idx:\n", Indent(fires, 2),
                                  "\nmaterialize.public.v:\n", Indent(declines, 2),
                                  "\nTarget cluster: quickstart\n");
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 2u);
  EXPECT_EQ(run.report.candidates[0].object, "materialize.public.v_idx");
  EXPECT_EQ(run.report.candidates[0].outcome, CandidateOutcome::kFired);
  EXPECT_EQ(run.report.candidates[1].object, "materialize.public.v");
  EXPECT_EQ(run.report.candidates[1].reason, "not_co_arranged");
}

// ---- disabled mode, idempotence, the pass called directly --------------------------------

// One firing and several declining candidates side by side.
std::string MixedDocument() {
  std::vector<std::string> plans = {
      Except{.base = kA, .subtract = kB}.Plan(),
      Except{.base = Table("a"), .subtract = kB}.Plan(),
      Except{.base = kA, .subtract = "Mfp\n  project=(#0)\n  map=(1)\n" + Indent(kB, 2)}.Plan(),
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
  ASSERT_EQ(off.report.passes.size(), 1u);
  EXPECT_FALSE(off.report.passes[0].enabled);
  EXPECT_TRUE(on.report.passes[0].enabled);
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
    EXPECT_EQ(d.base_key, e.base_key);
    EXPECT_EQ(d.subtract_key, e.subtract_key);
    if (d.would_fire) {
      ++would_fire;
      EXPECT_EQ(d.reason, "");
      EXPECT_EQ(d.base_key, std::vector<int>{0});
    } else {
      EXPECT_NE(d.reason, "");
      EXPECT_NE(d.message, "");
    }
  }
  EXPECT_EQ(would_fire, 2);
  EXPECT_EQ(off.report.candidates[1].reason, "not_co_arranged");
  EXPECT_EQ(off.report.candidates[2].reason, "non_projection_mfp");
  EXPECT_EQ(off.report.candidates[2].arm, "subtract");
  EXPECT_EQ(off.report.candidates[3].reason, "input_not_arranged");
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
  Document doc = Parse(MixedDocument());
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
  Document doc = Parse(Except{.base = kA, .subtract = Indexed("b"),
                              .negate_first = true}
                           .Text());
  Node& root = *doc.objects[0].plan;
  FusionDecision decision = CanFuseSetDifference(root, false);
  ASSERT_TRUE(decision.fires) << decision.message;
  const LirId id = root.id;
  FuseSetDifference(root, decision);
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
