// The AntiJoin node (../shared/reference/SEMANTICS.md 7.1, issue 14) in every
// layer that has it so far: text and JSON round trips, Validate's rules (the
// keys arity, key columns, co-arranged arms with their recorded keys, not
// inside LetRec values), the analyses (arity of the base, never monotonic,
// raw only, the base's unique keys) and the snapshot engine's meaning,
// including the error for a key counted more than once, and the incremental
// engine's.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/incremental.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/plan_builder.h"
#include "lir/validate.h"
#include "tests/support/eval_snapshot_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir {
namespace {

using ::lir::test::ParseOrDie;

using test::snapshot::I;
using test::snapshot::M;
using test::snapshot::Null;
using test::snapshot::Runner;

// The stacked-LEFT-JOIN anti-side as an AntiJoin: base rows of `l` (two
// columns, arranged by #0) whose #0 is not among the keys of `r` (arranged
// by #0).
std::string AntiJoinPlan() {
  return test::FixtureText("antijoin_pass_arrangements.plan");
}

std::string ValidateMessage(const std::string& text) {
  Document doc = ParseOrDie(text);
  absl::Status status = Validate(doc);
  return status.ok() ? "ok" : std::string(status.message());
}

TEST(AntiJoinNode, TextAndJsonRoundTrip) {
  Document doc = ParseOrDie(AntiJoinPlan());
  ASSERT_EQ(doc.objects.size(), 1u);
  const Node& root = *doc.objects[0].plan;
  ASSERT_TRUE(root.Is<AntiJoinOp>());
  EXPECT_EQ(root.As<AntiJoinOp>().key, std::vector<int>{0});
  EXPECT_EQ(explain::PrintText(doc), AntiJoinPlan());
  explain::PrintOptions ids;
  ids.node_identifiers = true;
  const std::string with_ids = explain::PrintText(doc, ids);
  EXPECT_TRUE(absl::StrContains(
      with_ids, "  AntiJoin key=[#0] // { node_id: LirId(3) }\n"))
      << with_ids;
  EXPECT_EQ(explain::PrintText(ParseOrDie(with_ids), ids), with_ids);

  const std::string json = explain::WriteJson(doc);
  EXPECT_TRUE(absl::StrContains(json, "\"kind\": \"AntiJoin\"")) << json;
  absl::StatusOr<Document> back = explain::ReadJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(explain::PrintText(*back), AntiJoinPlan());
  // The three keys are required.
  std::string missing = json;
  missing.replace(missing.find("\"keys_key\""), 10, "\"keys_kex\"");
  absl::StatusOr<Document> bad = explain::ReadJson(missing);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "keys_key"))
      << bad.status();
}

TEST(AntiJoinNode, PlanBuilderBuildsTheSamePlan) {
  auto arranged = [](const std::string& name, int arity) {
    GetOp get;
    get.id = CollectionId::Global(name);
    get.kind = GetKind::kPassArrangements;
    get.keys.arranged.push_back(MakeColumnArrangement({0}, arity));
    return PlanBuilder::FromOp(std::move(get));
  };
  AntiJoinOp op;
  op.key = {0};
  op.base_key = {0};
  op.keys_key = {0};
  absl::StatusOr<NodePtr> built =
      PlanBuilder::AntiJoin(arranged("materialize.public.l", 2),
                            arranged("materialize.public.r", 1), op)
          .Build();
  ASSERT_TRUE(built.ok()) << built.status();
  Document doc;
  doc.objects.emplace_back().name = "Explained Query";
  doc.objects[0].plan = *std::move(built);
  EXPECT_EQ(explain::PrintText(doc), AntiJoinPlan());
}

TEST(AntiJoinNode, ValidateChecksKeysArmsAndScope) {
  EXPECT_EQ(ValidateMessage(AntiJoinPlan()), "ok");
  // A key column outside the base.
  std::string text = AntiJoinPlan();
  text.replace(text.find("key=[#0]"), 8, "key=[#5]");
  EXPECT_TRUE(absl::StrContains(ValidateMessage(text), "LirId(3) AntiJoin:"))
      << ValidateMessage(text);
  // The keys arm must have one column per key column.
  text = AntiJoinPlan();
  text.replace(text.find("thinning=() }"), 13, "thinning=(#1) }");
  EXPECT_TRUE(absl::StrContains(ValidateMessage(text),
                                "keys has arity 2, but key has 1 columns"))
      << ValidateMessage(text);
  // The recorded arm keys must be the ones the arms offer.
  text = AntiJoinPlan();
  const std::string keyed = "key=[#0], permutation=id, thinning=() }";
  text.replace(text.rfind(keyed), keyed.size(),
               "key=[], permutation=id, thinning=(#0) }");
  EXPECT_TRUE(absl::StrContains(ValidateMessage(text),
                                "the keys arm is not co-arranged: "
                                "Get::PassArrangements materialize.public.r "
                                "has no arrangement on [#0]"))
      << ValidateMessage(text);
  // A base arm that is not a Get or ArrangeBy.
  const std::string negated = test::FixtureText("antijoin_negated_base.plan");
  EXPECT_TRUE(absl::StrContains(ValidateMessage(negated),
                                "the base arm is not co-arranged: Negate is "
                                "not a Get or an ArrangeBy"))
      << ValidateMessage(negated);
  // Not inside the values of a LetRec.
  const std::string recursive =
      test::FixtureText("antijoin_in_letrec_value.plan");
  EXPECT_TRUE(absl::StrContains(ValidateMessage(recursive),
                                "cannot be inside the values of a With "
                                "Mutually Recursive block"))
      << ValidateMessage(recursive);
}

TEST(AntiJoinNode, Analyses) {
  Document doc = ParseOrDie(AntiJoinPlan());
  interp::AnalysisInputs inputs;
  inputs.monotonic_ids = {"materialize.public.l", "materialize.public.r"};
  absl::StatusOr<interp::DocumentAnalysis> analysis =
      interp::DocumentAnalysis::Run(doc, inputs);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  interp::AnnotationFields fields;
  fields.arity = fields.monotonic = fields.arrangements = true;
  const Node& root = *doc.objects[0].plan;
  // Monotonic inputs, but the AntiJoin retracts rows when keys arrive.
  EXPECT_EQ(analysis->CommentFields(root, fields),
            "arity: 2, monotonic: false, arrangements: \"raw\"");
  // Unique keys: the base's, whatever the keys arm has.
  fields = interp::AnnotationFields();
  fields.unique_keys = true;
  EXPECT_EQ(analysis->CommentFields(root, fields), "unique_keys: \"none\"");
  inputs.global_unique_keys = {{"materialize.public.l", {{0}}},
                               {"materialize.public.r", {{0}}}};
  analysis = interp::DocumentAnalysis::Run(doc, inputs);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_EQ(analysis->CommentFields(root, fields), "unique_keys: \"[#0]\"");
  inputs.global_unique_keys.erase("materialize.public.l");
  analysis = interp::DocumentAnalysis::Run(doc, inputs);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_EQ(analysis->CommentFields(root, fields), "unique_keys: \"none\"");
}

TEST(AntiJoinNode, SnapshotEngineRemovesRowsWhoseKeyIsPresent) {
  Runner run(AntiJoinPlan(),
             {{"materialize.public.l", 2}, {"materialize.public.r", 1}});
  ASSERT_TRUE(run.ok());
  // Round 0: l = {(1,10), (2,20) x2, (null,30)}, r = {1}.
  run.Step({{"materialize.public.l",
             M({{{I(1), I(10)}, 1}, {{I(2), I(20)}, 2}, {{Null(), I(30)}, 1}})},
            {"materialize.public.r", M({{{I(1)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(2), I(20)}, 2}, {{Null(), I(30)}, 1}}));
  // Round 1: a null key arrives (null equals null) and 1 is retracted.
  run.Step({{"materialize.public.r", M({{{Null()}, 1}, {{I(1)}, -1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(10)}, 1}, {{I(2), I(20)}, 2}}));
  // Round 2: key 2 twice while l holds rows for it: an error naming it.
  absl::Status error =
      run.StepError({{"materialize.public.r", M({{{I(2)}, 2}})}});
  EXPECT_TRUE(absl::StrContains(error.message(),
                                "AntiJoin: key (2) has count 2 in the keys "
                                "input"))
      << error;
}

// The same rounds through the incremental engine (more plans and the
// cross-check of both engines are in antijoin_incremental_test.cc).
TEST(AntiJoinNode, IncrementalEngineRunsIt) {
  Document doc = ParseOrDie(AntiJoinPlan());
  eval::DataflowOptions options;
  options.object = "test";
  options.globals = {{"materialize.public.l", 2}, {"materialize.public.r", 1}};
  absl::StatusOr<std::unique_ptr<eval::Dataflow>> dataflow =
      eval::MakeIncrementalDataflow(*doc.objects[0].plan, options);
  ASSERT_TRUE(dataflow.ok()) << dataflow.status();
  eval::Multiset contents;
  auto step = [&](uint64_t round, const eval::GlobalChanges& changes) {
    absl::StatusOr<eval::Multiset> diff = (*dataflow)->Step(round, changes);
    EXPECT_TRUE(diff.ok()) << diff.status();
    if (!diff.ok()) return;
    absl::StatusOr<eval::Multiset> sum = eval::AddMultisets(contents, *diff);
    ASSERT_TRUE(sum.ok()) << sum.status();
    contents = *std::move(sum);
  };
  step(0, {{"materialize.public.l",
            M({{{I(1), I(10)}, 1}, {{I(2), I(20)}, 2}, {{Null(), I(30)}, 1}})},
           {"materialize.public.r", M({{{I(1)}, 1}})}});
  EXPECT_MS(contents, M({{{I(2), I(20)}, 2}, {{Null(), I(30)}, 1}}));
  step(1, {{"materialize.public.r", M({{{Null()}, 1}, {{I(1)}, -1}})}});
  EXPECT_MS(contents, M({{{I(1), I(10)}, 1}, {{I(2), I(20)}, 2}}));
  absl::StatusOr<eval::Multiset> error =
      (*dataflow)->Step(2, {{"materialize.public.r", M({{{I(2)}, 2}})}});
  ASSERT_FALSE(error.ok());
  EXPECT_TRUE(absl::StrContains(error.status().message(),
                                "AntiJoin: key (2) has count 2 in the keys "
                                "input"))
      << error.status();
  // It keeps no arrangement: only the two indexes it reads.
  EXPECT_EQ((*dataflow)->Arrangements().size(), 2u);
}

}  // namespace
}  // namespace lir
