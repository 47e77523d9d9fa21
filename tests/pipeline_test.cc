// lir_pipeline (include/lir/pipeline/): ReadDocument detects and forces
// formats with located errors, WriteDocument prints what lir-opt prints, and
// Pipeline does what `lir-opt explain` does, from text or from a Document
// built in code.
#include "lir/pipeline/pipeline.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/partial.h"
#include "lir/pipeline/document_io.h"
#include "lir/plan_builder.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "lir/validate.h"
#include "tests/support/corpus_util.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"
#include "tests/support/recognizer_test_util.h"

namespace lir {
namespace {

// WriteDocument's text, failing the test when it refuses.
std::string Written(const absl::StatusOr<std::string>& written) {
  EXPECT_TRUE(written.ok()) << written.status();
  return written.ok() ? *written : std::string();
}

std::string ExamplePlan() {
  return test::ReadFile(std::filesystem::path(LIR_SOURCE_DIR) / "examples" /
                        "except.plan");
}

// examples/except.plan in the concise syntax (`lir-opt explain
// --format=concise examples/except.plan`).
std::string ConciseExamplePlan() {
  return test::ReadFile(std::filesystem::path(LIR_SOURCE_DIR) / "examples" /
                        "except.concise.plan");
}

// `lir-opt explain --enable_fused_set_difference examples/except.plan`: the
// plan of testdata/slt/except.slt.on.rewritten.
std::string FusedExample() { return test::FixtureText("except_fused.plan"); }

// Parses (auto), validating; fails the test on an error.
Document Read(const std::string& text) {
  absl::StatusOr<Document> doc = ReadDocument(text);
  EXPECT_TRUE(doc.ok()) << doc.status();
  return doc.ok() ? *std::move(doc) : Document();
}

// ---- ReadDocument / WriteDocument ----------------------------------------

TEST(DocumentIo, DetectsTextAndJson) {
  const std::string text = ExamplePlan();
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(DetectDocumentFormat(text), DocumentFormat::kText);
  EXPECT_EQ(DetectDocumentFormat(" \n\t{}"), DocumentFormat::kJson);
  EXPECT_EQ(DetectDocumentFormat("\xEF\xBB\xBF  {"), DocumentFormat::kJson);
  EXPECT_EQ(DetectDocumentFormat(""), DocumentFormat::kText);

  const std::string json =
      Written(WriteDocument(Read(text), {.format = WriteFormat::kJson}));
  // Both read with the default (auto) options, whitespace before the JSON.
  absl::StatusOr<Document> from_json = ReadDocument("\n  " + json);
  ASSERT_TRUE(from_json.ok()) << from_json.status();
  EXPECT_EQ(Written(WriteDocument(*from_json)), text);
}

TEST(DocumentIo, AForcedFormatThatDoesNotMatchIsALocatedError) {
  const std::string text = ExamplePlan();
  absl::StatusOr<Document> as_json = ReadDocument(
      text, {.format = DocumentFormat::kJson, .file_name = "plan.txt"});
  ASSERT_FALSE(as_json.ok());
  EXPECT_EQ(as_json.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(as_json.status().message(),
            "plan.txt:1:1: syntax error while parsing value - invalid "
            "literal; last read: 'E'");

  const std::string json =
      Written(WriteDocument(Read(text), {.format = WriteFormat::kJson}));
  absl::StatusOr<Document> as_text = ReadDocument(
      json, {.format = DocumentFormat::kText, .file_name = "plan.json"});
  ASSERT_FALSE(as_text.ok());
  EXPECT_EQ(as_text.status().message(),
            "plan.json:1:1: expected an object header '<name>:' or a document "
            "section");
}

TEST(DocumentIo, AMalformedPlanIsLocatedByLineAndColumn) {
  absl::StatusOr<Document> doc = ReadDocument(
      "Explained Query:\n  Negate\n    Bogus\n", {.file_name = "bad.txt"});
  ASSERT_FALSE(doc.ok());
  EXPECT_TRUE(absl::StartsWith(doc.status().message(),
                               "bad.txt:3:5: expected a node (Constant, "))
      << doc.status();
  // Without a name the messages still say where.
  absl::StatusOr<Document> unnamed = ReadDocument("Explained Query:\n  Nope\n");
  ASSERT_FALSE(unnamed.ok());
  EXPECT_TRUE(absl::StartsWith(unnamed.status().message(), "<input>:2:3: "))
      << unnamed.status();
}

// A Get of a local that nothing binds.
std::string UnboundPlan() { return test::FixtureText("unbound_get.plan"); }

TEST(DocumentIo, ValidationIsOnUnlessTurnedOff) {
  absl::StatusOr<Document> checked =
      ReadDocument(UnboundPlan(), {.file_name = "unbound.plan"});
  ASSERT_FALSE(checked.ok());
  // Located at the node's header (line 2, column 3 of the fixture).
  EXPECT_EQ(checked.status().message(),
            "unbound.plan:2:3: Explained Query: LirId(1) "
            "Get::PassArrangements: l7 is not bound here");
  absl::StatusOr<Document> unchecked = ReadDocument(
      UnboundPlan(), {.file_name = "unbound.plan", .validate = false});
  ASSERT_TRUE(unchecked.ok()) << unchecked.status();
  EXPECT_EQ(Written(WriteDocument(*unchecked)), UnboundPlan());
}

TEST(DocumentIo, TextOfADeepPlanIsRefusedBeforeItIsPrinted) {
  // 2,000 nested Negates: the text holds 2 + 4 + ... + 4002 bytes of
  // indentation (about 4 MB), JSON a few hundred KB.
  const std::string text =
      absl::StrCat(test::NegateChainText(2000, "Constant\n  - (1)\n"),
                   "\nTarget cluster: quickstart\n");
  const Document doc = Read(text);
  EXPECT_EQ(Written(WriteDocument(doc)), text);
  const absl::StatusOr<std::string> refused =
      WriteDocument(doc, {.max_text_bytes = 1'000'000});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(
      refused.status().message(),
      "would hold at least 4006002 bytes of indentation (its plans nest 2001 "
      "levels deep"))
      << refused.status();
  // Concise text indents the same way; JSON is not limited.
  EXPECT_FALSE(WriteDocument(doc, {.format = WriteFormat::kConcise,
                                   .max_text_bytes = 1'000'000})
                   .ok());
  EXPECT_TRUE(WriteDocument(doc, {.format = WriteFormat::kJson,
                                  .max_text_bytes = 1'000'000})
                  .ok());
}

TEST(DocumentIo, WritesTheExampleByteForByteAndJsonRoundTrips) {
  const std::string text = ExamplePlan();
  const Document doc = Read(text);
  EXPECT_EQ(Written(WriteDocument(doc)), text);

  const std::string json =
      Written(WriteDocument(doc, {.format = WriteFormat::kJson}));
  EXPECT_TRUE(absl::StartsWith(json, "{")) << json;
  EXPECT_TRUE(absl::StrContains(json, "\"format\": \"lir-plan/2\"")) << json;
  EXPECT_TRUE(absl::EndsWith(json, "}\n")) << json;
  const Document back = Read(json);
  EXPECT_EQ(Written(WriteDocument(back)), text);
  EXPECT_EQ(Written(WriteDocument(back, {.format = WriteFormat::kJson})), json);

  // node_identifiers: every header gets its LirId, the root's last.
  const std::string with_ids =
      Written(WriteDocument(doc, {.node_identifiers = true}));
  EXPECT_TRUE(absl::StrContains(
      with_ids,
      "  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, "
      "thinning=() } // { node_id: LirId(10) }\n"))
      << with_ids;
}

// ---- Concise text -----------------------------------------------------------

// Catches: ReadDocument not detecting the concise syntax, or not running
// InferPartialFacts after validation (the root's layout would stay
// unknown); and infer_partial_facts=false not leaving the marks.
TEST(DocumentIo, ReadsConciseTextAndInfersWhatItImplies) {
  const std::string text = ConciseExamplePlan();
  ASSERT_FALSE(text.empty());
  const Document doc = Read(text);
  EXPECT_EQ(doc.syntax, TextSyntax::kConcise);
  ASSERT_EQ(doc.objects.size(), 1u);
  const Node& root = *doc.objects[0].plan;
  ASSERT_TRUE(root.Is<ThresholdOp>());
  // The Threshold's rows are one column wide (t1 read through project=(#0),
  // t2 through its Source block): its layout is inferred.
  EXPECT_TRUE(root.unknown.empty());
  EXPECT_EQ(root.As<ThresholdOp>().ensure_arrangement,
            MakeColumnArrangement({0}, 1));
  // What concise text never implies stays unknown: the plan stays partial.
  EXPECT_TRUE(IsPartial(doc));
  EXPECT_TRUE(root.inputs[0]->unknown.Has(UnknownFact::kRawFlag));

  absl::StatusOr<Document> marked =
      ReadDocument(text, {.infer_partial_facts = false});
  ASSERT_TRUE(marked.ok()) << marked.status();
  EXPECT_TRUE(
      marked->objects[0].plan->unknown.Has(UnknownFact::kArrangementLayouts));
}

// Catches: kText not following the syntax the document was read in, the
// concise printer not reproducing what it read, or inference changing what
// the concise form prints.
TEST(DocumentIo, WritesConciseTextBackByteForByte) {
  const std::string text = ConciseExamplePlan();
  const Document doc = Read(text);
  EXPECT_EQ(Written(WriteDocument(doc)), text);
  EXPECT_EQ(Written(WriteDocument(doc, {.format = WriteFormat::kConcise})),
            text);
}

// Catches: the verbose or JSON writer printing a partial plan's
// placeholders as if they were facts, instead of refusing it with a message
// that names the node and the fact and says where the facts are.
TEST(DocumentIo, VerboseAndJsonRefuseAPartialPlanNamingTheNode) {
  const Document doc = Read(ConciseExamplePlan());
  for (const WriteFormat format : {WriteFormat::kVerbose, WriteFormat::kJson}) {
    SCOPED_TRACE(format == WriteFormat::kJson ? "json" : "verbose");
    absl::StatusOr<std::string> written =
        WriteDocument(doc, {.format = format});
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.status().code(), absl::StatusCode::kFailedPrecondition);
    const std::string message(written.status().message());
    EXPECT_TRUE(absl::StartsWith(
        message, absl::StrCat(doc.objects[0].name,
                              ": LirId(9) ArrangeBy: the concise form does "
                              "not show its raw flag, which ")))
        << message;
    EXPECT_TRUE(absl::StrContains(message, "AS VERBOSE TEXT")) << message;
    EXPECT_TRUE(absl::StrContains(message, format == WriteFormat::kJson
                                               ? "lir's JSON form"
                                               : "the verbose syntax"))
        << message;
  }
}

// Catches: the concise printer refusing a complete plan, or printing it
// differently from what Materialize's default EXPLAIN prints.
TEST(DocumentIo, AVerbosePlanPrintsAsConciseText) {
  const Document doc = Read(ExamplePlan());
  EXPECT_EQ(doc.syntax, TextSyntax::kVerbose);
  EXPECT_EQ(Written(WriteDocument(doc, {.format = WriteFormat::kConcise})),
            ConciseExamplePlan());
}

// A concise plan that validates as read (the Threshold's layout is unknown)
// but not once the Source block's projection gives its rows' arity: a
// Threshold's key is its full row, #0, #1, and `#1` alone is not.
std::string InvalidOnceInferred() {
  return test::FixtureText("threshold_invalid_once_inferred.concise.plan");
}

// Regression: ReadDocument once validated a concise plan only before
// InferPartialFacts, so a plan that is invalid once its implied facts are
// filled in came back OK and the pipeline blamed the passes (`internal
// error: the optimized plan is invalid`) for the input's own fault.
TEST(DocumentIo, AnInputInvalidOnceInferredIsAnInputError) {
  absl::StatusOr<Document> doc =
      ReadDocument(InvalidOnceInferred(), {.file_name = "bad.plan"});
  if (doc.ok()) {
    const absl::Status valid = Validate(*doc);
    EXPECT_TRUE(valid.ok())
        << "ReadDocument returned an invalid document: " << valid;
  } else {
    EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
  }
  absl::StatusOr<PipelineResult> result =
      Pipeline().Run(InvalidOnceInferred(), {.file_name = "bad.plan"});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument)
      << result.status();
  EXPECT_FALSE(absl::StrContains(result.status().message(), "internal error"))
      << result.status();
}

// ---- Pipeline ---------------------------------------------------------------

PipelineOptions Fused() {
  PipelineOptions options;
  options.features.enable_fused_set_difference = true;
  return options;
}

// The candidate `pass` reported for LirId 10, or null.
const Candidate* CandidateOf(const RewriteReport& report,
                             const std::string& pass) {
  for (const Candidate& candidate : report.candidates) {
    if (candidate.pass == pass && candidate.lir_id == 10) return &candidate;
  }
  return nullptr;
}

TEST(Pipeline, WithNoFeatureOnPrintsTheInputBack) {
  const std::string text = ExamplePlan();
  absl::StatusOr<PipelineResult> result = Pipeline().Run(text);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, text);
  // The disabled pass still reports what it would do.
  const Candidate* fused = CandidateOf(result->report, "fused_set_difference");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->outcome, CandidateOutcome::kDisabled);
  EXPECT_TRUE(fused->would_fire);
}

// With the report off (as `lir-opt explain` without --explain_declines or
// --report runs), a disabled pass does not run at all and no arrangement is
// counted: the pass driver's counters and the report show nothing done.
TEST(Pipeline, WithTheReportOffNoDisabledPassRunsAndNothingIsCounted) {
  const std::string text = ExamplePlan();
  PipelineOptions options;
  options.report = false;
  absl::StatusOr<PipelineResult> quiet = Pipeline(options).Run(text);
  ASSERT_TRUE(quiet.ok()) << quiet.status();
  EXPECT_EQ(quiet->output, text);
  EXPECT_TRUE(quiet->report.candidates.empty());
  EXPECT_TRUE(quiet->report.objects.empty());  // no before/after accounting
  test::recognizer::ExpectNoPassRan(quiet->report);
  // The default reports: the same plan walked, its candidate decided and
  // the arrangements counted.
  absl::StatusOr<PipelineResult> reported = Pipeline().Run(text);
  ASSERT_TRUE(reported.ok()) << reported.status();
  EXPECT_EQ(reported->output, text);
  EXPECT_FALSE(reported->report.objects.empty());
  size_t walked = 0;
  for (const PassRun& pass : reported->report.passes) {
    walked += pass.work.objects_walked;
  }
  EXPECT_GT(walked, 0u);
  // With a feature on and the report off, the rewrite still happens.
  options.features.enable_fused_set_difference = true;
  absl::StatusOr<PipelineResult> fused = Pipeline(options).Run(text);
  ASSERT_TRUE(fused.ok()) << fused.status();
  EXPECT_TRUE(absl::StrContains(fused->output, "SetDifference"))
      << fused->output;
  EXPECT_TRUE(fused->report.candidates.empty());
}

TEST(Pipeline, FusedSetDifferenceRewritesTheExampleAndReportsIt) {
  absl::StatusOr<PipelineResult> result =
      Pipeline(Fused()).Run(ExamplePlan(), {.file_name = "except.plan"});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, FusedExample());
  ASSERT_EQ(result->document.objects.size(), 1u);
  EXPECT_EQ(result->document.objects[0].plan->kind(), NodeKind::kSetDifference);

  const Candidate* fused = CandidateOf(result->report, "fused_set_difference");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->outcome, CandidateOutcome::kFired);
  EXPECT_EQ(fused->details[kSavesField], 1) << fused->details.dump();
  // What `lir-opt explain --explain_declines` prints from this report
  // (tests/cli_test.cc, ExplainDeclinesAppendsTheCandidates).
  EXPECT_EQ(PrintCandidates(result->report),
            "Rewrite candidates:\n  Explained Query:\n"
            "    antijoin LirId(10): disabled, would decline "
            "output_arrangement_consumed (the Threshold's output is the "
            "object's result, which keeps its arrangement)\n"
            "    fused_set_difference LirId(10): fired (saves 1 "
            "arrangement)\n");
  bool enabled = false;
  for (const PassRun& pass : result->report.passes) {
    if (pass.name == "fused_set_difference") enabled = pass.enabled;
  }
  EXPECT_TRUE(enabled);
}

TEST(Pipeline, JsonOutputIsTheOptimizedDocument) {
  PipelineOptions options = Fused();
  options.format = WriteFormat::kJson;
  absl::StatusOr<PipelineResult> result = Pipeline(options).Run(ExamplePlan());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      result->output,
      Written(WriteDocument(result->document, {.format = WriteFormat::kJson})));
  EXPECT_EQ(Written(WriteDocument(Read(result->output))), FusedExample());
}

// examples/except.plan built in code (as tests/plan_builder_test.cc does).
Document ExampleFromBuilder() {
  const AvailableCollections index_on_a =
      PlanBuilder::Arranged({MakeArrangement({ScalarExpr::Column(0, "a")}, 2)});
  auto distinct_arranged = [](PlanBuilder input) {
    ArrangeByOp arrange;
    arrange.input_key = ColumnKey({0});
    arrange.forms = PlanBuilder::Raw();
    return std::move(input).Distinct().ArrangeBy(std::move(arrange));
  };
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  std::vector<PlanBuilder> arms;
  arms.push_back(distinct_arranged(PlanBuilder::GetArrangement(
      CollectionId::Global("materialize.public.t1"), index_on_a,
      {ScalarExpr::Column(0, "a")}, PlanBuilder::Project({0}))));
  arms.push_back(
      distinct_arranged(PlanBuilder::GetCollection(
                            CollectionId::Global("materialize.public.t2"),
                            PlanBuilder::Raw()))
          .Negate());
  absl::StatusOr<NodePtr> plan =
      PlanBuilder::Union(std::move(arms), {.consolidate_output = true})
          .ArrangeBy(PlanBuilder::Arranged({by_0}))
          .Threshold(by_0)
          .Build({.global_arity = {{"materialize.public.t1", 2}}});
  EXPECT_TRUE(plan.ok()) << plan.status();
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  if (plan.ok()) object.plan = *std::move(plan);
  SourceBlock& source = doc.sources.emplace_back();
  source.name = "materialize.public.t2";
  source.mfp.project = std::vector<int>{0};
  doc.used_indexes = std::vector<UsedIndex>{
      {"materialize.public.t1_a_idx", {"*** full scan ***"}}};
  doc.target_cluster = "quickstart";
  return doc;
}

TEST(Pipeline, RunsOnADocumentBuiltInCode) {
  const Pipeline pipeline(Fused());
  absl::StatusOr<PipelineResult> result = pipeline.Run(ExampleFromBuilder());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, FusedExample());
  const Candidate* fused = CandidateOf(result->report, "fused_set_difference");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->outcome, CandidateOutcome::kFired);

  // The steps one at a time give the same.
  absl::StatusOr<OptimizeResult> optimized =
      pipeline.Optimize(ExampleFromBuilder(), "built");
  ASSERT_TRUE(optimized.ok()) << optimized.status();
  absl::StatusOr<std::string> printed =
      pipeline.Print(optimized->document, "built");
  ASSERT_TRUE(printed.ok()) << printed.status();
  EXPECT_EQ(*printed, FusedExample());
}

TEST(Pipeline, ValidatesADocumentUnlessTurnedOff) {
  absl::StatusOr<Document> unbound =
      ReadDocument(UnboundPlan(), {.validate = false});
  ASSERT_TRUE(unbound.ok()) << unbound.status();
  absl::StatusOr<PipelineResult> checked =
      Pipeline().Run(Clone(*unbound), "unbound.plan");
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.status().message(),
            absl::StrCat("unbound.plan: ", unbound->objects[0].name,
                         ": LirId(1) Get::PassArrangements: l7 is not bound "
                         "here"));

  PipelineOptions unchecked;
  unchecked.validate = false;
  absl::StatusOr<PipelineResult> result =
      Pipeline(unchecked).Run(*std::move(unbound));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, UnboundPlan());
  // From text the pipeline's switch decides too.
  EXPECT_TRUE(Pipeline(unchecked).Run(UnboundPlan()).ok());
  absl::StatusOr<PipelineResult> from_text =
      Pipeline().Run(UnboundPlan(), {.file_name = "u.plan", .validate = false});
  ASSERT_FALSE(from_text.ok());
  EXPECT_TRUE(absl::StartsWith(from_text.status().message(), "u.plan:2:3: "))
      << from_text.status();
}

TEST(Pipeline, AnnotatesTheOptimizedPlan) {
  PipelineOptions options = Fused();
  options.annotate.arity = true;
  options.annotate.arrangements_built = true;
  absl::StatusOr<PipelineResult> text = Pipeline(options).Run(ExamplePlan());
  ASSERT_TRUE(text.ok()) << text.status();
  // As `lir-opt explain --enable_fused_set_difference
  // --annotate=arity,arrangements_built` prints it.
  EXPECT_TRUE(absl::StrContains(
      text->output,
      "\n  SetDifference ensure_arrangement={ key=[#0], permutation=id, "
      "thinning=() } // { arity: 1, arrangements_built: 1 }\n"
      "    base_key=[#0]\n"
      "    subtract_key=[#0]\n"
      "    ArrangeBy // { arity: 1, arrangements_built: 0 }\n"))
      << text->output;
  EXPECT_TRUE(absl::StrContains(
      text->output,
      "        Get::Arrangement materialize.public.t1 // { arity: 1, "
      "arrangements_built: 0, arrangements_imported: 1 }\n"))
      << text->output;

  // node_id in the fields turns the identifiers on.
  options.annotate.node_id = true;
  absl::StatusOr<PipelineResult> ids = Pipeline(options).Run(ExamplePlan());
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_TRUE(
      absl::StrContains(ids->output,
                        "thinning=() } // { node_id: LirId(10), arity: 1, "
                        "arrangements_built: 1 }\n"))
      << ids->output;

  options.format = WriteFormat::kJson;
  absl::StatusOr<PipelineResult> json = Pipeline(options).Run(ExamplePlan());
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_TRUE(absl::StrContains(json->output,
                                "\"annotations\": {\n"
                                "            \"arity\": 1,\n"
                                "            \"arrangements_built\": [\n"
                                "              \"Arranged DistinctBy\",\n"
                                "              \"DistinctBy\"\n"
                                "            ],\n"))
      << json->output;
  // The annotations are output only: the document reads back as before.
  EXPECT_EQ(Written(WriteDocument(Read(json->output))), FusedExample());
}

// Catches: the passes not seeing what inference filled in (the fused
// SetDifference rewrite needs the Threshold's layout and the arms' input
// keys), or the result printed in another syntax than the input's.
TEST(Pipeline, FusedSetDifferenceRewritesTheConciseExample) {
  absl::StatusOr<PipelineResult> result = Pipeline(Fused()).Run(
      ConciseExamplePlan(), {.file_name = "except.concise.plan"});
  ASSERT_TRUE(result.ok()) << result.status();
  // FusedExample() in the concise syntax.
  EXPECT_EQ(result->output, test::FixtureText("except_fused.concise.plan"));
  EXPECT_EQ(result->document.syntax, TextSyntax::kConcise);
  ASSERT_EQ(result->document.objects.size(), 1u);
  EXPECT_EQ(result->document.objects[0].plan->kind(), NodeKind::kSetDifference);
  const Candidate* fused = CandidateOf(result->report, "fused_set_difference");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->outcome, CandidateOutcome::kFired);

  // Without the feature it prints the input back.
  absl::StatusOr<PipelineResult> off = Pipeline().Run(ConciseExamplePlan());
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(off->output, ConciseExamplePlan());

  // Verbose output is refused, named by the input's name.
  PipelineOptions verbose = Fused();
  verbose.format = WriteFormat::kVerbose;
  absl::StatusOr<PipelineResult> refused = Pipeline(verbose).Run(
      ConciseExamplePlan(), {.file_name = "except.concise.plan"});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  // The first node still lacking a fact is now an arm's ArrangeBy.
  // (The wording is testdata/cli/concise.txt's; here: which node, named
  // by the input's name.)
  EXPECT_TRUE(
      absl::StartsWith(refused.status().message(), "except.concise.plan: "))
      << refused.status();
  EXPECT_TRUE(absl::StrContains(
      refused.status().message(),
      ": LirId(3) ArrangeBy: the concise form does not show its arrangement "
      "strategy, which the verbose syntax needs"))
      << refused.status();
}

TEST(Pipeline, FeaturesFromAConfigText) {
  Pipeline pipeline;
  ASSERT_TRUE(pipeline
                  .ApplyConfigText(
                      R"({"features": {"enable_fused_set_difference": "on"}})")
                  .ok());
  EXPECT_TRUE(pipeline.options().features.enable_fused_set_difference);
  absl::StatusOr<PipelineResult> result = pipeline.Run(ExamplePlan());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->output, FusedExample());

  // A later config changes only what it names.
  ASSERT_TRUE(pipeline
                  .ApplyConfigText(
                      R"({"features": {"enable_antijoin_rendering": true}})")
                  .ok());
  EXPECT_TRUE(pipeline.options().features.enable_fused_set_difference);
  EXPECT_TRUE(pipeline.options().features.enable_antijoin_rendering);

  // Errors are located in the config and change nothing.
  Pipeline fresh;
  const absl::Status syntax = fresh.ApplyConfigText(
      "{\"features\": {\n  \"enable_fused_set_difference\": maybe}}",
      "my.json");
  EXPECT_EQ(syntax.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(syntax.message(),
            "my.json:2:34: invalid JSON config: syntax error while parsing "
            "value - invalid literal; last read: "
            "'\"enable_fused_set_difference\": m'");
  const absl::Status unknown = fresh.ApplyConfigText(
      R"({"features": {"enable_fused_set_difference": true, "enable_x": 1}})",
      "my.json");
  EXPECT_TRUE(absl::StartsWith(unknown.message(),
                               "my.json:1:52: /features/enable_x: unknown "
                               "feature 'enable_x'"))
      << unknown;
  // enable_fused_set_difference comes first and was set before enable_x
  // failed: none of it stays.
  EXPECT_EQ(fresh.options().features, OptimizerFeatures());
}

}  // namespace
}  // namespace lir
