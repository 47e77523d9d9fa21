// Arrangement accounting (include/lir/interp/arrangements_built.h): the
// arrangements each node kind builds, the totals, the annotation, and the
// equality with what the evaluator's incremental engine lists (`lir-opt run
// --arrangement_sizes`) per node kind on small plans (the corpus:
// arrangements_built_corpus_test.cc).
#include "lir/interp/arrangements_built.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/driver.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/arrangements_compare.h"

namespace lir::interp {
namespace {

using Names = std::vector<std::string>;
using built_testing::Compare;
using built_testing::Comparison;

Document Parse(const std::string& text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status();
  return doc.ok() ? *std::move(doc) : Document();
}

AnalysisInputs InputsOf(const std::map<std::string, int>& arities) {
  AnalysisInputs inputs;
  inputs.global_arity = arities;
  return inputs;
}

// What one node builds and imports, by LirId, for the nodes that build or
// import anything (objects keyed by name).
struct Listing {
  std::map<std::pair<std::string, LirId>, Names> built;
  /// Per object, the distinct imports.
  std::map<std::string, std::set<std::string>> imported;
};

// Runs `doc` with the incremental engine on collections of the given
// arities (no updates: which arrangements a dataflow keeps does not depend
// on the data) and compares the analysis with its listing.
Comparison RunAndCompare(const Document& doc,
                         const std::map<std::string, int>& arities) {
  eval::InputData data;
  for (const auto& entry : arities) {
    data.collections[entry.first].arity = entry.second;
  }
  absl::StatusOr<eval::RunResult> run =
      eval::RunDocument(doc, data, eval::RunOptions());
  Comparison failed;
  if (!run.ok()) {
    failed.differences.push_back(absl::StrCat("run: ", run.status().message()));
    return failed;
  }
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(arities));
  if (!analysis.ok()) {
    failed.differences.push_back(
        absl::StrCat("analysis: ", analysis.status().message()));
    return failed;
  }
  return Compare(doc, *analysis, run->arrangements);
}

// The analysis of `text`: every node's own built arrangements and imports.
Listing Analyze(const std::string& text,
                const std::map<std::string, int>& arities = {}) {
  Listing out;
  Document doc = Parse(text);
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(arities));
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return out;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      const ArrangementsBuilt& own = analysis->BuiltBy(node);
      if (!own.built.empty()) out.built[{object.name, node.id}] = own.built;
      out.imported[object.name].insert(own.imported.begin(),
                                       own.imported.end());
    });
  }
  return out;
}

// Expects the analysis of `text` to equal the evaluator's listing (when
// `run`), and returns its built arrangements by LirId of object `Explained
// Query`.
std::map<LirId, Names> Built(const std::string& text,
                             const std::map<std::string, int>& arities = {},
                             bool run = true) {
  if (run) {
    const Comparison comparison = RunAndCompare(Parse(text), arities);
    EXPECT_TRUE(comparison.differences.empty())
        << absl::StrJoin(comparison.differences, "\n");
  }
  std::map<LirId, Names> out;
  for (const auto& entry : Analyze(text, arities).built) {
    if (entry.first.first == "Explained Query") {
      out[entry.first.second] = entry.second;
    }
  }
  return out;
}

ArrangementCount Count(const std::string& text,
                       const std::map<std::string, int>& arities = {}) {
  Document doc = Parse(text);
  absl::StatusOr<ArrangementCount> count =
      CountArrangementsBuilt(*doc.objects.at(0).plan, InputsOf(arities));
  EXPECT_TRUE(count.ok()) << count.status();
  return count.ok() ? *count : ArrangementCount();
}

const char kExcept[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        ArrangeBy
          input_key=[#0]
          raw=true
          Reduce::Distinct
            key_plan=id
            val_plan
              project=()
            Get::Arrangement materialize.public.t1
              project=(#0)
              key=#0{a}
              raw=false
              arrangements[0]={ key=[#0{a}], permutation=id, thinning=(#1) }
        Negate
          ArrangeBy
            input_key=[#0]
            raw=true
            Reduce::Distinct
              key_plan=id
              val_plan
                project=()
              Get::Collection materialize.public.t2
                project=(#0)
                raw=true
)";
const std::map<std::string, int> kExceptArities = {
    {"materialize.public.t1", 2}, {"materialize.public.t2", 1}};

// The lattice is the offered forms'; a join keeps the newer own lists.
TEST(ArrangementsBuilt, LatticeIsTheOfferedForms) {
  const Analysis<AvailableForms> forms;
  const ArrangementsBuiltInterpreter interp(forms);
  const std::vector<ScalarExpr> k0 = {ScalarExpr::Column(0)};
  const std::vector<ScalarExpr> k1 = {ScalarExpr::Column(1)};
  ArrangementsBuilt a;
  a.offered = AvailableForms::ArrangedBy(PlanKey(k0));
  a.offered.AddKey(PlanKey(k1));
  a.built = {"ArrangeBy[[Column(1)]]"};
  ArrangementsBuilt b;
  b.offered = AvailableForms::ArrangedBy(PlanKey(k1));
  b.offered.raw = true;
  const ArrangementsBuilt joined = interp.Join(a, b);
  EXPECT_EQ(FormatForms(joined.offered), "[#1]");
  EXPECT_EQ(joined.built, a.built);
  EXPECT_EQ(interp.Join(interp.Bottom(), b).built, b.built);
  EXPECT_TRUE(interp.Equal(interp.Join(a, interp.Bottom()), a));
  EXPECT_TRUE(interp.Equal(interp.Join(a, interp.Top()), interp.Top()));
  EXPECT_FALSE(interp.Equal(a, b));
  // Only the offered forms are compared: the own lists follow from them.
  ArrangementsBuilt c = a;
  c.built.clear();
  EXPECT_TRUE(interp.Equal(a, c));
}

// An Mfp offers no arrangement, not even when it reads one through a
// projection that restores the rows (the arrangements analysis keeps that
// one; the evaluator and SEMANTICS 8.5 do not): the ArrangeBy above builds
// its form.
TEST(ArrangementsBuilt, MfpOffersNothing) {
  const std::string plan = R"(Explained Query:
  ArrangeBy
    raw=false
    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Mfp
      project=(#1, #0)
      input_key=#1
      Get::PassArrangements materialize.public.t
        raw=false
        arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
)";
  EXPECT_EQ(Built(plan, {{"materialize.public.t", 2}}),
            (std::map<LirId, Names>{{3, {"ArrangeBy[[Column(1)]]"}}}));
}

// A Reduce offers its output by the group key only while mfp_after keeps
// the key in front.
TEST(ArrangementsBuilt, ReduceWithMovedKeyOffersNothing) {
  const std::string plan = R"(Explained Query:
  ArrangeBy
    raw=false
    arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Reduce::Accumulable
      simple_aggrs[0]=(0, count(*))
      key_plan
        project=(#0)
      val_plan
        project=(#1)
        map=(true)
      mfp_after
        project=(#1, #0)
      Get::Collection materialize.public.t
        raw=true
)";
  EXPECT_EQ(Built(plan, {{"materialize.public.t", 2}}),
            (std::map<LirId, Names>{
                {2, {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"}},
                {3, {"ArrangeBy[[Column(0)]]"}}}));
}

TEST(ArrangementsBuilt, KeyText) {
  EXPECT_EQ(ArrangementKeyText({ScalarExpr::Column(0), ScalarExpr::Column(2)}),
            "[[Column(0), Column(2)]]");
  EXPECT_EQ(ArrangementKeyText({}), "[[]]");
}

// examples/except.plan: trace T is the ArrangeBy's form; the Threshold adds
// only its output. The Get::Arrangement imports t1's index.
TEST(ArrangementsBuilt, ThresholdReadsItsInputArrangement) {
  const std::map<LirId, Names> built = Built(kExcept, kExceptArities);
  EXPECT_EQ(built, (std::map<LirId, Names>{
                       {2, {"Arranged DistinctBy", "DistinctBy"}},
                       {5, {"Arranged DistinctBy", "DistinctBy"}},
                       {9, {"ArrangeBy[[Column(0)]]"}},
                       {10, {"Threshold local"}},
                   }));
  EXPECT_EQ(
      Analyze(kExcept, kExceptArities).imported["Explained Query"],
      (std::set<std::string>{"Index materialize.public.t1[[Column(0)]]"}));
  EXPECT_EQ(Count(kExcept, kExceptArities), (ArrangementCount{6, 1}));
}

TEST(ArrangementsBuilt, ThresholdOverRawInputBuildsTraceT) {
  const std::string plan = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    Get::Collection materialize.public.t
      raw=true
)";
  EXPECT_EQ(Built(plan, {{"materialize.public.t", 1}}),
            (std::map<LirId, Names>{
                {2, {"Arranged Threshold input", "Threshold local"}}}));
}

// The fused rewrite of except.plan: the SetDifference keeps only its output
// (no trace T, no Threshold output), saving one arrangement.
TEST(ArrangementsBuilt, SetDifferenceKeepsOnlyItsOutput) {
  Document before = Parse(kExcept);
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;
  absl::StatusOr<OptimizeResult> after = Optimize(Clone(before), features);
  ASSERT_TRUE(after.ok()) << after.status();
  const Comparison comparison = RunAndCompare(after->document, kExceptArities);
  EXPECT_TRUE(comparison.differences.empty())
      << absl::StrJoin(comparison.differences, "\n");
  const Node& root = *after->document.objects.at(0).plan;
  ASSERT_TRUE(root.Is<SetDifferenceOp>())
      << explain::PrintText(after->document);
  absl::StatusOr<ArrangementCount> fused =
      CountArrangementsBuilt(root, InputsOf(kExceptArities));
  ASSERT_TRUE(fused.ok());
  EXPECT_EQ(*fused, (ArrangementCount{5, 1}));
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(after->document, InputsOf(kExceptArities));
  ASSERT_TRUE(analysis.ok());
  EXPECT_EQ(analysis->BuiltBy(root).built, Names{"SetDifference"});
  EXPECT_EQ(ArrangementsSaved(Count(kExcept, kExceptArities), *fused), 1);
}

TEST(ArrangementsBuilt, AntiJoinBuildsNothing) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#0]
    base_key=[#0]
    keys_key=[#0]
    Get::PassArrangements materialize.public.l
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.r
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";
  // The incremental engine does not run AntiJoin yet: no comparison.
  EXPECT_EQ(Built(plan, {}, /*run=*/false), (std::map<LirId, Names>{}));
  EXPECT_EQ(Count(plan), (ArrangementCount{0, 2}));
}

TEST(ArrangementsBuilt, ArrangeByBuildsOnlyNewForms) {
  // t's index on #0 serves the first form; #1 is new; a form listed twice
  // is built once.
  const std::string plan = R"(Explained Query:
  ArrangeBy
    raw=false
    arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    arrangements[1]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    arrangements[2]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)";
  EXPECT_EQ(Built(plan, {{"materialize.public.t", 2}}),
            (std::map<LirId, Names>{{2, {"ArrangeBy[[Column(1)]]"}}}));
  EXPECT_EQ(Count(plan, {{"materialize.public.t", 2}}),
            (ArrangementCount{1, 1}));
}

TEST(ArrangementsBuilt, ArrangeByWithInputMfpRebuildsEvenWhatItsInputHas) {
  // The input's arrangements describe the rows before input_mfp, not the
  // ArrangeBy's output.
  const std::string plan = R"(Explained Query:
  ArrangeBy
    input_key=[#0]
    raw=false
    arrangements[0]={ key=[#0], permutation=id, thinning=() }
    Reduce::Distinct
      key_plan=id
      val_plan
        project=()
      Get::Collection materialize.public.t
        raw=true
)";
  EXPECT_EQ(
      Built(plan, {{"materialize.public.t", 1}}),
      (std::map<LirId, Names>{{2, {"Arranged DistinctBy", "DistinctBy"}}}));
  const std::string mapped = R"(Explained Query:
  ArrangeBy
    input_key=[#0]
    raw=false
    arrangements[0]={ key=[#0], permutation=id, thinning=() }
    Mfp
      project=(#0)
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Get::Collection materialize.public.t
          raw=true
)";
  EXPECT_EQ(Built(mapped, {{"materialize.public.t", 2}}),
            (std::map<LirId, Names>{{2, {"Arranged DistinctBy", "DistinctBy"}},
                                    {4, {"ArrangeBy[[Column(0)]]"}}}));
}

TEST(ArrangementsBuilt, EveryReduceKindBuildsTwo) {
  const std::string plan = R"(Explained Query:
  Union
    Reduce::Distinct
      key_plan=id
      val_plan
        project=()
      Get::Collection materialize.public.t
        raw=true
    Reduce::Accumulable
      simple_aggrs[0]=(0, count(*))
      key_plan
        project=(#0)
      val_plan
        project=(#1)
        map=(true)
      Get::Collection materialize.public.t
        raw=true
    Reduce::Hierarchical
      aggr_funcs=[max]
      monotonic
      key_plan
        project=(#0)
      val_plan
        project=(#1)
      Get::Collection materialize.public.t
        raw=true
    Reduce::Hierarchical
      aggr_funcs=[min]
      buckets=[4096, 16]
      key_plan
        project=(#0)
      val_plan
        project=(#1)
      Get::Collection materialize.public.t
        raw=true
    Reduce::Basic
      aggr=(string_agg[order_by=[]](row(row(integer_to_text(#1), ","))))
      key_plan
        project=(#0)
      val_plan
        project=(#2)
        map=(row(row(integer_to_text(#1), ",")))
      Get::Collection materialize.public.t
        raw=true
    Reduce::Basic
      aggrs[0]=array_agg[order_by=[]](row(array[#1]))
      aggrs[1]=string_agg[order_by=[]](row(row(integer_to_text(#1), ",")))
      key_plan
        project=(#0)
      val_plan
        project=(#2, #3)
        map=(row(array[#1]), row(row(integer_to_text(#1), ",")))
      Get::Collection materialize.public.t
        raw=true
)";
  const std::map<std::string, int> arities = {{"materialize.public.t", 2}};
  Document doc = Parse(plan);
  // Every kind, in the order of the Union's inputs.
  std::vector<Names> kinds;
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(arities));
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  for (const NodePtr& input : doc.objects[0].plan->inputs) {
    kinds.push_back(analysis->BuiltBy(*input).built);
  }
  EXPECT_EQ(kinds, (std::vector<Names>{
                       {"Arranged DistinctBy", "DistinctBy"},
                       {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"},
                       {"ArrangeMonotonic [val: empty]", "ReduceMonotonic"},
                       {"Arrange ReduceMinsMaxes", "ReduceMinsMaxes"},
                       {"Arranged ReduceInaccumulable", "ReduceInaccumulable"},
                       {"Arranged ReduceInaccumulable", "ReduceInaccumulable"},
                   }));
  const Comparison comparison = RunAndCompare(doc, arities);
  EXPECT_TRUE(comparison.differences.empty())
      << absl::StrJoin(comparison.differences, "\n");
  EXPECT_EQ(comparison.arrangements, 12u);
}

TEST(ArrangementsBuilt, EveryTopKKindBuildsTwo) {
  const std::string plan = R"(Explained Query:
  Union
    TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first] must_consolidate
      Get::Collection materialize.public.t
        raw=true
    TopK::MonotonicTopK order_by=[#1 asc nulls_last] limit=5 must_consolidate
      Get::Collection materialize.public.t
        raw=true
    TopK::Basic order_by=[#1 asc nulls_last, #0 desc nulls_first] limit=5
      Get::Collection materialize.public.t
        raw=true
)";
  const std::map<LirId, Names> built =
      Built(plan, {{"materialize.public.t", 2}});
  EXPECT_EQ(
      built,
      (std::map<LirId, Names>{
          {2, {"Arranged MonotonicTop1 partial [val: empty]", "MonotonicTop1"}},
          {4, {"Arranged TopK input", "Reduced TopK input"}},
          {6, {"Arranged TopK input", "Reduced TopK input"}},
      }));
}

// physical_plan_aggregates-L146: the first stage streams the source
// Reduce's own arrangement on [#0] and looks up the other Reduce's: the
// join builds nothing. With a second stage (and a lookup input that offers
// no arrangement) it builds the stage's stream and the lookup.
TEST(ArrangementsBuilt, LinearJoinBuildsLaterStreamsAndMissingLookups) {
  const std::string reduces = R"(
    Reduce::Distinct
      key_plan
        project=(#0)
      val_plan
        project=()
      Get::Collection materialize.public.t
        raw=true
    Reduce::Distinct
      key_plan
        project=(#0)
      val_plan
        project=()
      Get::Collection materialize.public.t
        raw=true
)";
  const std::string one_stage = absl::StrCat(R"(Explained Query:
  Join::Linear
    linear_stage[0]
      lookup={ relation=1, key=[#0] }
      stream={ key=[#0], thinning=() }
    source={ relation=0, key=[#0] })",
                                             reduces);
  const std::map<std::string, int> arities = {{"materialize.public.t", 2}};
  EXPECT_EQ(Built(one_stage, arities)[5], Names{});
  const std::string two_stages =
      absl::StrCat(R"(Explained Query:
  Join::Linear
    linear_stage[0]
      lookup={ relation=1, key=[#0] }
      stream={ key=[#0], thinning=() }
    linear_stage[1]
      lookup={ relation=2, key=[#0] }
      stream={ key=[#0], thinning=() }
    source={ relation=0, key=[#0] })",
                   reduces, R"(    Get::Collection materialize.public.t
      raw=true
)");
  EXPECT_EQ(Built(two_stages, arities)[6],
            (Names{"JoinLookup[[Column(0)]]", "JoinStage 1[[Column(0)]]"}));
}

// github-16036-L34: every lookup reads an index or the ArrangeBy's form; the
// delta join builds nothing, and three indexes are imported.
TEST(ArrangementsBuilt, DeltaJoinReadsItsInputsArrangements) {
  const std::string plan = R"(Explained Query:
  Join::Delta
    plan_path[0]
      delta_stage[1]
        closure
          project=(#1..=#3)
        lookup={ relation=2, key=[#1{k2}] }
        stream={ key=[#1{k2}], thinning=(#0, #2) }
      delta_stage[0]
        closure
          project=(#1..=#3)
        lookup={ relation=1, key=[#1{k1}] }
        stream={ key=[#1{k1}], thinning=(#0, #2) }
      source={ relation=0, raw }
    plan_path[1]
      delta_stage[0]
        lookup={ relation=0, key=[#1{k1}] }
        stream={ key=[#1{k1}], thinning=(#0) }
      source={ relation=1, key=[#1{k1}] }
    plan_path[2]
      delta_stage[0]
        lookup={ relation=0, key=[#1{k1}] }
        stream={ key=[#1{k1}], thinning=(#0) }
      source={ relation=2, key=[#1{k2}] }
    ArrangeBy
      raw=true
      arrangements[0]={ key=[#1{k1}], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
      Get::Arrangement materialize.public.t1
        project=(#1, #0, #2)
        filter=((#0{k1}) IS NOT NULL AND (#2{k2}) IS NOT NULL)
        key=#1{k1}
        raw=false
        arrangements[0]={ key=[#1{k1}], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
    Get::PassArrangements materialize.public.t2
      raw=false
      arrangements[0]={ key=[#1{k1}], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.t3
      raw=false
      arrangements[0]={ key=[#1{k2}], permutation={#0: #1, #1: #0}, thinning=(#0) }
)";
  const std::map<std::string, int> arities = {{"materialize.public.t1", 3},
                                              {"materialize.public.t2", 2},
                                              {"materialize.public.t3", 2}};
  EXPECT_EQ(Built(plan, arities),
            (std::map<LirId, Names>{{2, {"ArrangeBy[[Column(1)]]"}}}));
  EXPECT_EQ(Count(plan, arities), (ArrangementCount{1, 3}));
}

// A Let's value is built once, however many Gets read it; the Let builds
// nothing itself (the driver hands it its body's value); an ArrangeBy of a
// Get that passes the binding's arrangement on does not rebuild it.
TEST(ArrangementsBuilt, LetValuesAreBuiltOnce) {
  const std::string plan = R"(Explained Query:
  With
    cte l0 =
      Reduce::Distinct
        key_plan
          project=(#0)
        val_plan
          project=()
        Get::Collection materialize.public.t
          raw=true
  Return
    Union
      ArrangeBy
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=() }
        Get::PassArrangements l0
          raw=false
          arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Get::PassArrangements l0
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";
  const std::map<std::string, int> arities = {{"materialize.public.t", 2}};
  EXPECT_EQ(
      Built(plan, arities),
      (std::map<LirId, Names>{{2, {"Arranged DistinctBy", "DistinctBy"}}}));
  Document doc = Parse(plan);
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(arities));
  ASSERT_TRUE(analysis.ok());
  const Node& let = *doc.objects[0].plan;
  ASSERT_TRUE(let.Is<LetOp>());
  EXPECT_TRUE(analysis->BuiltBy(let).built.empty());
  EXPECT_EQ(analysis->TotalOf(let), (ArrangementCount{2, 0}));
}

// Inside LetRec values the rules are the same (Materialize renders them in
// the iteration scope); a recursive binding is read raw, so an ArrangeBy of
// it builds its form. The evaluator runs the LetRec through its recompute
// adapter and lists none of these: the comparison says so.
TEST(ArrangementsBuilt, LetRecValuesCount) {
  const std::string plan = R"(Explained Query:
  With Mutually Recursive
    cte l0 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Union
          Get::Collection materialize.public.t
            raw=true
          Get::Collection l0
            raw=true
  Return
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Get::PassArrangements l0
        raw=true
)";
  const std::map<std::string, int> arities = {{"materialize.public.t", 1}};
  EXPECT_EQ(Built(plan, arities, /*run=*/false),
            (std::map<LirId, Names>{{4, {"Arranged DistinctBy", "DistinctBy"}},
                                    {6, {"ArrangeBy[[Column(0)]]"}}}));
  EXPECT_EQ(Count(plan, arities), (ArrangementCount{3, 0}));
  const Comparison comparison = RunAndCompare(Parse(plan), arities);
  EXPECT_TRUE(comparison.differences.empty())
      << absl::StrJoin(comparison.differences, "\n");
  EXPECT_EQ(comparison.nodes, 0u);
  EXPECT_EQ(comparison.adapted_nodes, 7u);
  EXPECT_EQ(
      comparison.adapted,
      std::vector<std::string>{"Explained Query LirId(7) With Mutually "
                               "Recursive (7 nodes): the analysis says "
                               "it builds 3 [Arranged DistinctBy, DistinctBy, "
                               "ArrangeBy[[Column(0)]]] and imports 0"});
}

// Indexes are imported by the Gets that read them through their
// arrangements, and counted once per plan; a Get::Collection scans the
// collection and imports nothing.
TEST(ArrangementsBuilt, GetsOfIndexesImport) {
  const std::string plan = R"(Explained Query:
  Union
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::Arrangement materialize.public.t
      project=(#1)
      key=#0
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
      arrangements[1]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Mfp
      project=(#0)
      Get::Collection materialize.public.u
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";
  const std::map<std::string, int> arities = {{"materialize.public.t", 2},
                                              {"materialize.public.u", 1}};
  EXPECT_EQ(Built(plan, arities), (std::map<LirId, Names>{}));
  EXPECT_EQ(Analyze(plan, arities).imported["Explained Query"],
            (std::set<std::string>{"Index materialize.public.t[[Column(0)]]",
                                   "Index materialize.public.t[[Column(1)]]"}));
  EXPECT_EQ(Count(plan, arities), (ArrangementCount{0, 2}));
}

TEST(ArrangementsBuilt, Annotation) {
  Document doc = Parse(kExcept);
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(kExceptArities));
  ASSERT_TRUE(analysis.ok());
  AnnotationFields fields;
  fields.arrangements_built = true;
  const Node& root = *doc.objects[0].plan;
  EXPECT_EQ(analysis->CommentFields(root, fields), "arrangements_built: 1");
  EXPECT_EQ(analysis->JsonFields(root, fields).dump(),
            R"({"arrangements_built":["Threshold local"],)"
            R"("arrangements_imported":[]})");
  const Node* get = &root;
  while (!get->inputs.empty()) get = get->inputs[0].get();
  ASSERT_TRUE(get->Is<GetOp>());
  EXPECT_EQ(analysis->CommentFields(*get, fields),
            "arrangements_built: 0, arrangements_imported: 1");
  fields.arrangements = true;
  fields.unique_keys = true;
  EXPECT_EQ(analysis->CommentFields(root, fields),
            "arrangements: \"[#0]\", arrangements_built: 1, unique_keys: "
            "\"none\"");
}

}  // namespace
}  // namespace lir::interp
