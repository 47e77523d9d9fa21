// Data-driven golden tests over testdata/**/*.txt, in the style of
// CockroachDB's datadriven package.
//
// A file is a sequence of cases separated by blank lines; lines starting
// with `#` between cases are comments. A case is
//
//   <command> [key=value ...]
//   <input lines, may be empty or contain blank lines>
//   ----
//   <expected output, up to the next blank line>
//
// When the expected output itself contains blank lines, it is wrapped in
// doubled separators: `----` `----` <output> `----` `----`.
//
// Commands are rows of kCommands below; `exec` runs lir-opt as a program
// (tests/golden_exec.h: the goldens of testdata/cli/). Running with
// REWRITE=1 in the environment replaces every expected output with the
// actual one, keeping directives, inputs, comments and blank lines as they
// are.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/explain/concise.h"
#include "lir/explain/json.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/inputs.h"
#include "lir/interp/partial_inference.h"
#include "lir/partial.h"
#include "lir/pipeline/document_io.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "lir/status_macros.h"
#include "lir/validate.h"
#include "tests/golden_analyze.h"
#include "tests/golden_built.h"
#include "tests/golden_exec.h"
#include "tests/golden_file.h"
#include "tests/golden_infer.h"
#include "tests/golden_run.h"
#include "tests/golden_spine.h"
#include "tests/support/corpus_data.h"
#include "tests/support/corpus_util.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"
#include "tools/lir-opt/list_parse.h"

namespace lir {
namespace {

namespace fs = std::filesystem;

using test::CaseArgs;
using test::FormatExpected;
using test::GoldenFile;
using test::JoinLines;
using test::kSeparator;
using test::ParseGoldenFile;
using test::TestCase;

// ---- Input generators ------------------------------------------------------
//
// `gen=<name> n=<count>` replaces a case's (empty) input with a generated
// plan, so that testdata/deep/ holds no hand-written megabyte files.

std::string GenerateNegateChain(int n) {
  return test::NegateChainText(n, "Constant\n  - (1, \"deep\")\n");
}

using Generator = std::string (*)(int n);
const std::map<std::string, Generator>& Generators() {
  static const auto* generators = new std::map<std::string, Generator>{
      {"with_chain", &test::WithChainText},
      {"wide_union", &test::WideUnionText},
      {"negate_chain", &GenerateNegateChain},
  };
  return *generators;
}

using test::ReadFile;

/// The case's input: the lines under the directive, a named plan fixture
/// (`plan=NAME`, testdata/plans/NAME), a corpus plan (`corpus=NAME`) or a
/// generated plan (`gen=`). Errors are returned as text and become the
/// case's output.
absl::StatusOr<std::string> CaseInput(TestCase& test) {
  if (test.args.Has("plan")) {
    if (!test.input.empty()) {
      return absl::InvalidArgumentError("plan= cases take no input lines");
    }
    const fs::path path = test::FixturePath(test.args.Get("plan"));
    if (!fs::is_regular_file(path)) {
      return absl::NotFoundError(absl::StrCat("no plan fixture testdata/plans/",
                                              test.args.Get("plan")));
    }
    return ReadFile(path);
  }
  if (test.args.Has("corpus")) {
    // A plan of ../shared's corpus, read in place (never copied here); the
    // case is skipped before it runs when the corpus is absent.
    if (!test.input.empty()) {
      return absl::InvalidArgumentError("corpus= cases take no input lines");
    }
    return ReadFile(test::CorpusDir() / test.args.Get("corpus"));
  }
  if (!test.args.Has("gen")) return test.input;
  std::string name = test.args.Get("gen");
  auto it = Generators().find(name);
  int n = 0;
  if (it == Generators().end() ||
      !absl::SimpleAtoi(test.args.Get("n", "1"), &n) || n < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad generator gen=", name, " n=", test.args.Get("n")));
  }
  if (!test.input.empty()) {
    return absl::InvalidArgumentError("gen= cases take no input lines");
  }
  return it->second(n);
}

// ---- Commands ---------------------------------------------------------------

std::string ErrorOutput(const absl::Status& status) {
  return absl::StrCat("error: ", status.message(), "\n");
}

/// Parses text input (either syntax) and validates it unless
/// `validate=false`; a concise input's implied facts are filled in, as
/// ReadDocument does, unless `infer=false`.
absl::StatusOr<Document> ParseAndValidate(TestCase& test) {
  absl::StatusOr<std::string> input = CaseInput(test);
  if (!input.ok()) return input.status();
  const bool infer = test.args.Get("infer", "true") == "true";
  absl::StatusOr<Document> doc = explain::ParseText(*input);
  if (!doc.ok()) return doc.status();
  if (test.args.Get("validate", "true") == "true") {
    absl::Status valid = Validate(*doc);
    if (!valid.ok()) return valid;
  }
  if (infer && IsPartial(*doc)) {
    absl::Status inferred = interp::InferPartialFacts(*doc);
    if (!inferred.ok()) return inferred;
    if (test.args.Get("validate", "true") == "true") {
      absl::Status valid = Validate(*doc);
      if (!valid.ok()) return valid;
    }
  }
  return doc;
}

/// Prints `doc` in the text syntax `format` names: `text` (the syntax the
/// input was read in, doc.syntax), `verbose` or `concise`.
absl::StatusOr<std::string> PrintInSyntax(
    const Document& doc, const std::string& format,
    const explain::PrintOptions& options = {}) {
  TextSyntax syntax = doc.syntax;
  if (format == "verbose") {
    syntax = TextSyntax::kVerbose;
  } else if (format == "concise") {
    syntax = TextSyntax::kConcise;
  } else if (format != "text") {
    return absl::InvalidArgumentError(
        "format must be text, verbose or concise");
  }
  if (syntax == TextSyntax::kConcise) {
    return explain::PrintConciseText(doc, options);
  }
  // As WriteDocument: the verbose syntax needs every fact.
  absl::Status complete = RequireKnownFacts(doc, "the verbose syntax");
  if (!complete.ok()) return complete;
  return explain::PrintText(doc, options);
}

/// `explain [format=text|verbose|concise|json] [node_identifiers=true]
/// [validate=false]`: parse the input as text, validate, print (`text`:
/// in the syntax the input was read in).
std::string RunExplain(TestCase& test) {
  // Read before the input can fail, so that the argument counts as used.
  const std::string format = test.args.Get("format", "text");
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  if (format == "json") {
    absl::Status complete = RequireKnownFacts(*doc, "lir's JSON form");
    if (!complete.ok()) return ErrorOutput(complete);
    return explain::WriteJson(*doc);
  }
  explain::PrintOptions options;
  options.node_identifiers = test.args.Get("node_identifiers") == "true";
  absl::StatusOr<std::string> printed = PrintInSyntax(*doc, format, options);
  if (!printed.ok()) return ErrorOutput(printed.status());
  std::string out = *std::move(printed);
  if (out.empty() || out.back() != '\n' ||
      (out.size() >= 2 && out[out.size() - 2] == '\n')) {
    absl::StrAppend(&out,
                    "\n<printed text does not end in exactly one "
                    "newline>\n");
  }
  return out;
}

/// `roundtrip [via=json] [format=text|verbose|concise] [validate=false]`:
/// parse, (convert to JSON and back,) print (`text`: in the syntax the
/// input was read in); the text must equal the input byte for byte.
std::string RunRoundtrip(TestCase& test) {
  const std::string format = test.args.Get("format", "text");
  absl::StatusOr<std::string> input = CaseInput(test);
  if (!input.ok()) return ErrorOutput(input.status());
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  std::string via = test.args.Get("via", "text");
  if (via == "json") {
    doc = explain::ReadJson(explain::WriteJson(*doc));
    if (!doc.ok()) return ErrorOutput(doc.status());
  } else if (via != "text") {
    return "error: via must be text or json\n";
  }
  absl::StatusOr<std::string> printed = PrintInSyntax(*doc, format);
  if (!printed.ok()) return ErrorOutput(printed.status());
  if (*printed == *input) return "ok\n";
  return absl::StrCat("roundtrip mismatch (- input, + printed):\n",
                      explain::UnifiedDiff(*input, *printed));
}

/// `error [format=json] [file=NAME]`: the input (text, or JSON) must fail
/// to parse or validate; the output is the error message. With `file`, the
/// input is read as lir-opt reads the file NAME (ReadDocument).
std::string RunError(TestCase& test) {
  absl::StatusOr<Document> doc;
  std::string format = test.args.Get("format", "text");
  if (test.args.Has("file")) {
    // As lir-opt reads a file (ReadDocument): errors found after reading
    // are located in the input.
    ReadOptions options;
    options.file_name = test.args.Get("file");
    options.format =
        format == "json" ? DocumentFormat::kJson : DocumentFormat::kText;
    doc = ReadDocument(test.input, options);
  } else if (format == "json") {
    doc = explain::ReadJson(test.input);
    if (doc.ok()) {
      absl::Status valid = Validate(*doc);
      if (!valid.ok()) doc = valid;
    }
  } else {
    doc = ParseAndValidate(test);
  }
  if (doc.ok()) return "no error\n";
  return absl::StrCat(doc.status().message(), "\n");
}

/// Text of `doc` after running Optimize with `features`, or an error line.
absl::StatusOr<OptimizeResult> OptimizeCopy(
    const Document& doc, const OptimizerFeatures& features,
    const interp::AnalysisInputs& inputs) {
  return Optimize(Clone(doc), features, inputs);
}

/// The analysis inputs a directive gives: `[monotonic_ids=a,b]
/// [arity=name=N,...] [catalog=<catalog JSON without spaces>]
/// [single_time=true]`.
absl::StatusOr<interp::AnalysisInputs> InputsOf(TestCase& test) {
  interp::AnalysisInputs inputs;
  inputs.single_time = test.args.Get("single_time", "false") == "true";
  cli::ParseIdList(test.args.Get("monotonic_ids"), &inputs.monotonic_ids);
  LIR_RETURN_IF_ERROR(
      cli::ParseArityList(test.args.Get("arity"), &inputs.global_arity));
  if (test.args.Has("catalog")) {
    LIR_ASSIGN_OR_RETURN(
        interp::Catalog catalog,
        interp::ParseCatalog(test.args.Get("catalog"), "catalog"));
    LIR_RETURN_IF_ERROR(interp::AddCatalogToAnalysisInputs(catalog, &inputs));
  }
  return inputs;
}

/// Checks `expect=pass:result,...` (CockroachDB's datadriven style: which
/// rule fired, independent of the printed text): for the passes it names,
/// the results of their candidates in report order, each `fired` or its
/// decline code (what a disabled pass would do), must be exactly the list
/// (`pass:` alone: the pass has no candidate).
/// A mismatch fails the case and is returned as a line of the output.
std::string CheckExpectations(TestCase& test, const RewriteReport& report) {
  if (!test.args.Has("expect")) return "";
  // `pass:` with no result says the pass has no candidate.
  std::vector<std::string> expected;
  std::set<std::string> passes;
  for (absl::string_view entry :
       absl::StrSplit(test.args.Get("expect"), ',', absl::SkipEmpty())) {
    passes.insert(std::string(entry.substr(0, entry.find(':'))));
    if (!absl::EndsWith(entry, ":")) expected.emplace_back(entry);
  }
  std::vector<std::string> actual;
  for (const Candidate& c : report.candidates) {
    if (!passes.contains(c.pass)) continue;
    const bool fires =
        c.outcome == CandidateOutcome::kFired ||
        (c.outcome == CandidateOutcome::kDisabled && c.would_fire);
    actual.push_back(absl::StrCat(c.pass, ":", fires ? "fired" : c.reason));
  }
  if (actual == expected) return "";
  ADD_FAILURE() << "line " << test.directive_line
                << ": expect=" << absl::StrJoin(expected, ",")
                << " but the report says " << absl::StrJoin(actual, ",");
  return absl::StrCat("EXPECTATION FAILED: ", absl::StrJoin(actual, ","), "\n");
}

/// `optimize [<feature>=<bool> ...] [explain_declines=false] [report=json]
/// [expect=pass:result,...] [<analysis inputs>]`: parse and validate the
/// input, run the passes with those features and the analysis inputs
/// (InputsOf), print the result and the candidates (or the JSON report);
/// `expect` as CheckExpectations. The handler also
/// checks the rewrite's invariants and reports any violation in the output:
/// the result validates, round-trips through text and JSON, is a fixpoint
/// of a second run, and with every feature off the input prints unchanged.
std::string RunOptimize(TestCase& test) {
  absl::StatusOr<std::string> input = CaseInput(test);
  if (!input.ok()) return ErrorOutput(input.status());
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  OptimizerFeatures features;
  for (const FeatureInfo& info : AllFeatures()) {
    std::string name(info.name);
    if (!test.args.Has(name)) continue;
    absl::Status set = SetFeature(features, name, test.args.Get(name));
    if (!set.ok()) return ErrorOutput(set);
  }
  absl::StatusOr<interp::AnalysisInputs> inputs = InputsOf(test);
  if (!inputs.ok()) return ErrorOutput(inputs.status());
  absl::StatusOr<OptimizeResult> result = OptimizeCopy(*doc, features, *inputs);
  if (!result.ok()) return ErrorOutput(result.status());
  // In the input's syntax: a concise input is a partial plan, which only
  // the concise printer takes.
  auto print = [](const Document& d) {
    absl::StatusOr<std::string> text = PrintInSyntax(d, "text");
    return text.ok() ? *text : ErrorOutput(text.status());
  };
  std::string printed = print(result->document);

  std::string violations = CheckExpectations(test, result->report);
  absl::StatusOr<OptimizeResult> off =
      OptimizeCopy(*doc, OptimizerFeatures(), *inputs);
  if (!off.ok() || print(off->document) != *input) {
    absl::StrAppend(&violations,
                    "VIOLATION: with every feature off the plan changed\n");
  }
  if (absl::Status valid = Validate(result->document); !valid.ok()) {
    absl::StrAppend(&violations, "VIOLATION: the result does not validate: ",
                    valid.message(), "\n");
  }
  absl::StatusOr<OptimizeResult> again =
      OptimizeCopy(result->document, features, *inputs);
  if (!again.ok() || print(again->document) != printed) {
    absl::StrAppend(&violations, "VIOLATION: a second run changed the plan\n");
  }
  absl::StatusOr<Document> reparsed = explain::ParseText(printed);
  if (!reparsed.ok() || print(*reparsed) != printed) {
    absl::StrAppend(&violations,
                    "VIOLATION: the result does not round-trip as text\n");
  }
  // lir's JSON form refuses partial plans (WriteDocument).
  absl::StatusOr<Document> via_json =
      IsPartial(result->document)
          ? absl::StatusOr<Document>(Clone(result->document))
          : explain::ReadJson(explain::WriteJson(result->document));
  if (!via_json.ok() || print(*via_json) != printed) {
    absl::StrAppend(&violations,
                    "VIOLATION: the result does not round-trip as JSON\n");
  }

  std::string out = violations + printed;
  if (test.args.Get("report") == "json") {
    absl::StrAppend(&out, "\n", ReportToJson(result->report).dump(2), "\n");
  } else if (test.args.Get("explain_declines", "true") == "true") {
    absl::StrAppend(&out, "\n", PrintCandidates(result->report), "\n",
                    PrintArrangementTotals(result->report));
  }
  return out;
}

/// `analyze [annotate=<fields>] [monotonic_ids=a,b] [arity=name=N,...]
/// [catalog=<catalog JSON without spaces>] [single_time=true]
/// [<feature>=<bool> ...] [format=text|verbose|concise|json]
/// [validate=false]`:
/// parse and validate the input; when a feature is given, run the passes
/// with those features and the analysis inputs; run the analyses and print
/// the plan annotated with <fields> (default: all four), then the pass
/// candidates (when a feature was given) and how LetRec fixpoints ended.
std::string RunAnalyze(TestCase& test) {
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  absl::StatusOr<interp::AnalysisInputs> given = InputsOf(test);
  if (!given.ok()) return ErrorOutput(given.status());
  const interp::AnalysisInputs& inputs = *given;
  absl::StatusOr<interp::AnnotationFields> fields =
      interp::ParseAnnotationFields(
          test.args.Get("annotate", "node_id,arity,monotonic,arrangements"));
  if (!fields.ok()) return ErrorOutput(fields.status());
  OptimizerFeatures features;
  bool optimize = false;
  for (const FeatureInfo& info : AllFeatures()) {
    std::string name(info.name);
    if (!test.args.Has(name)) continue;
    absl::Status set = SetFeature(features, name, test.args.Get(name));
    if (!set.ok()) return ErrorOutput(set);
    optimize = true;
  }
  std::string candidates;
  if (optimize) {
    absl::StatusOr<OptimizeResult> result =
        Optimize(std::move(*doc), features, inputs);
    if (!result.ok()) return ErrorOutput(result.status());
    doc = std::move(result->document);
    candidates = PrintCandidates(result->report);
  }
  absl::StatusOr<interp::DocumentAnalysis> analysis =
      interp::DocumentAnalysis::Run(*doc, inputs);
  if (!analysis.ok()) return ErrorOutput(analysis.status());
  std::string out;
  const std::string format = test.args.Get("format", "text");
  if (format == "json") {
    explain::JsonWriteOptions options;
    options.annotations = [&](const Node& node) {
      return analysis->JsonFields(node, *fields);
    };
    out = explain::WriteJson(*doc, options);
  } else {
    explain::PrintOptions options;
    options.node_identifiers = fields->node_id;
    options.annotate = [&](const Node& node) {
      return analysis->CommentFields(node, *fields);
    };
    absl::StatusOr<std::string> printed = PrintInSyntax(*doc, format, options);
    if (!printed.ok()) return ErrorOutput(printed.status());
    out = *std::move(printed);
  }
  if (optimize) absl::StrAppend(&out, "\n", candidates);
  std::string fixpoints = analysis->FixpointReport(*doc);
  if (!fixpoints.empty()) absl::StrAppend(&out, "\n", fixpoints);
  return out;
}

// `run [fused=off|on|both] [engine=incremental|snapshot]
// [compaction=eager|none] [fuel=N] [arrangement_sizes=true|false]
// [spine=off|stock|funded] [spine_policy=POLICY] [idle_turns=K]`: the
// input is a plan, `====`, and the data (tests/golden_run.h).
std::string RunRunCommand(TestCase& test) {
  test::RunArgs args;
  args.fused = test.args.Get("fused", "both");
  args.engine = test.args.Get("engine", "incremental");
  args.compaction = test.args.Get("compaction", "eager");
  if (!absl::SimpleAtoi(test.args.Get("fuel", "0"), &args.fuel)) {
    return "error: fuel must be a non-negative integer\n";
  }
  args.arrangement_sizes = test.args.Get("arrangement_sizes", "true") == "true";
  args.spine = test.args.Get("spine", "off");
  args.spine_policy = test.args.Get("spine_policy", "proportional:16");
  if (!absl::SimpleAtoi(test.args.Get("idle_turns", "0"), &args.idle_turns)) {
    return "error: idle_turns must be a non-negative integer\n";
  }
  return test::RunGolden(test.input, args);
}

// `spine [policy=...] [exertion=...] ...`: the SPINE.md section-6 workload
// as `lir-opt spine` prints it (tests/golden_spine.h).
std::string RunSpineCommand(TestCase& test) {
  return test::RunSpineGolden(
      test.input, [&test](const std::string& key, const std::string& fallback) {
        return test.args.Get(key, fallback);
      });
}

// `config`: the input is a --config file (config.json); the output is
// the features it sets (FeaturesToString) or its error.
std::string RunConfig(TestCase& test) {
  OptimizerFeatures features;
  absl::Status status = ApplyConfigText(features, test.input, "config.json");
  if (!status.ok()) return absl::StrCat(status.message(), "\n");
  return absl::StrCat(FeaturesToString(features), "\n");
}

// `exec`: lir-opt run as a program (tests/golden_exec.h); skipped, visibly,
// when the tool is not built.
std::string RunExec(TestCase& test) {
  if (std::string(LIR_OPT_PATH).empty()) {
    std::cout << "[  SKIPPED ] exec case at line " << test.directive_line
              << ": lir-opt is not built (LIR_BUILD_TOOLS=OFF)\n";
    return test.expected;
  }
  return test::RunExecGolden(test.input, LIR_OPT_PATH);
}

// `built [arity=...] [fused=true] [run=false]`: the arrangement accounting
// node by node, checked against the evaluator (tests/golden_built.h);
// `fused=true` applies the fused set-difference rewrite first.
std::string RunBuilt(TestCase& test) {
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  absl::StatusOr<interp::AnalysisInputs> inputs = InputsOf(test);
  if (!inputs.ok()) return ErrorOutput(inputs.status());
  if (test.args.Get("fused", "false") == "true") {
    OptimizerFeatures features;
    features.enable_fused_set_difference = true;
    absl::StatusOr<OptimizeResult> result =
        Optimize(*std::move(doc), features, *inputs);
    if (!result.ok()) return ErrorOutput(result.status());
    doc = std::move(result->document);
  }
  return test::RunBuiltGolden(*doc, *inputs,
                              test.args.Get("run", "true") == "true");
}

// `infer [arity=...] [plan_only=true] [read_only=true]`: what
// InferPartialFacts fills in, node by node (tests/golden_infer.h);
// `read_only=true` shows the plan as read, without inference.
std::string RunInfer(TestCase& test) {
  absl::StatusOr<interp::AnalysisInputs> inputs = InputsOf(test);
  if (!inputs.ok()) return ErrorOutput(inputs.status());
  absl::StatusOr<std::string> input = CaseInput(test);
  if (!input.ok()) return ErrorOutput(input.status());
  test::InferMode mode = test::InferMode::kDocument;
  if (test.args.Get("plan_only", "false") == "true") {
    mode = test::InferMode::kPlanOnly;
  }
  if (test.args.Get("read_only", "false") == "true") {
    mode = test::InferMode::kNone;
  }
  return test::RunInferGolden(*input, inputs->global_arity, mode);
}

// `operators [plan=|corpus=]`: the EXPLAIN ANALYZE operator column
// (tests/golden_analyze.h).
std::string RunOperators(TestCase& test) {
  absl::StatusOr<Document> doc = ParseAndValidate(test);
  if (!doc.ok()) return ErrorOutput(doc.status());
  return test::RunOperatorsGolden(*doc);
}

// `analyze-table [corpus=NAME | source=PATH data=PATH] [compare=FEATURES]`:
// a plan, `====` and data; a corpus plan with generated data; or a plan and
// a data file of the source tree (examples/), as `lir-opt run --analyze`
// tables (tests/golden_analyze.h).
std::string RunAnalyzeTable(TestCase& test) {
  const std::string compare = test.args.Get("compare", "");
  if (test.args.Has("corpus")) {
    absl::StatusOr<Document> doc = ParseAndValidate(test);
    if (!doc.ok()) return ErrorOutput(doc.status());
    static const auto* const schemas =
        new std::map<std::string, test::PlanSchema>(
            test::LoadSchemas(test::SharedDir()));
    std::vector<std::string> derived;
    absl::StatusOr<eval::InputData> data =
        test::MakeData(test.args.Get("corpus"), *doc, *schemas, &derived);
    if (!data.ok()) return ErrorOutput(data.status());
    return test::RunAnalyzeTableGolden(*doc, *data, compare);
  }
  std::string plan_text = test.input, data_text;
  if (test.args.Has("source")) {
    const fs::path root(LIR_SOURCE_DIR);
    plan_text = ReadFile(root / test.args.Get("source"));
    data_text = ReadFile(root / test.args.Get("data"));
  } else {
    const size_t split = test.input.find("\n====\n");
    if (split == std::string::npos) {
      return "error: the input needs a plan, a line ====, and the data\n";
    }
    plan_text = test.input.substr(0, split + 1);
    data_text = test.input.substr(split + 6);
  }
  absl::StatusOr<Document> doc = explain::ParseText(plan_text);
  if (!doc.ok()) return ErrorOutput(doc.status());
  absl::StatusOr<eval::InputData> data =
      eval::ParseInputData(data_text, "data");
  if (!data.ok()) return ErrorOutput(data.status());
  return test::RunAnalyzeTableGolden(*doc, *data, compare);
}

using CommandFn = std::string (*)(TestCase& test);

/// Command name -> handler. A handler returns the case's actual output.
const std::map<std::string, CommandFn>& Commands() {
  static const auto* commands = new std::map<std::string, CommandFn>{
      {"explain", &RunExplain},
      {"roundtrip", &RunRoundtrip},
      {"error", &RunError},
      {"optimize", &RunOptimize},
      {"analyze", &RunAnalyze},
      {"run", &RunRunCommand},
      {"spine", &RunSpineCommand},
      {"config", &RunConfig},
      {"exec", &RunExec},
      {"built", &RunBuilt},
      {"infer", &RunInfer},
      {"operators", &RunOperators},
      {"analyze-table", &RunAnalyzeTable},
  };
  return *commands;
}

// ---- Runner -----------------------------------------------------------------

fs::path TestdataDir() { return fs::path(LIR_SOURCE_DIR) / "testdata"; }

std::vector<std::string> GoldenFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(TestdataDir(), ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(TestdataDir())) {
    if (entry.is_regular_file() && entry.path().extension() == ".txt") {
      files.push_back(
          fs::relative(entry.path(), TestdataDir()).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool RewriteRequested() {
  const char* rewrite = std::getenv("REWRITE");
  return rewrite != nullptr && *rewrite != '\0' && std::string(rewrite) != "0";
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, Matches) {
  const fs::path path = TestdataDir() / GetParam();
  const std::string display = (fs::path("testdata") / GetParam()).string();
  absl::StatusOr<GoldenFile> file = ParseGoldenFile(ReadFile(path), display);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_FALSE(file->cases.empty()) << display << ": no cases";

  std::vector<std::string> actual_outputs;
  for (TestCase& test : file->cases) {
    auto command = Commands().find(test.command);
    std::string actual;
    if (test.args.Has("corpus") &&
        !fs::exists(test::CorpusDir() / test.args.Get("corpus"))) {
      std::cout << "[  SKIPPED ] " << display << ":" << test.directive_line
                << ": corpus plan " << test.args.Get("corpus")
                << " not found under " << test::CorpusDir()
                << " (../shared is absent)\n";
      actual = test.expected;
    } else if (command == Commands().end()) {
      ADD_FAILURE() << display << ":" << test.directive_line
                    << ": unknown command '" << test.command << "'";
      actual = test.expected;
    } else {
      actual = command->second(test);
      for (const std::string& key : test.args.Unused()) {
        ADD_FAILURE() << display << ":" << test.directive_line
                      << ": unknown argument '" << key << "' for "
                      << test.command;
      }
    }
    if (!actual.empty() && actual.back() != '\n') actual += '\n';
    if (!RewriteRequested() && actual != test.expected) {
      ADD_FAILURE() << display << ":" << test.directive_line << ": "
                    << test.command << " output differs (- expected, + actual;"
                    << " REWRITE=1 accepts it):\n"
                    << explain::UnifiedDiff(test.expected, actual);
    }
    actual_outputs.push_back(std::move(actual));
  }

  if (RewriteRequested()) {
    std::vector<std::string> out;
    size_t next = 0;
    for (size_t c = 0; c < file->cases.size(); ++c) {
      const TestCase& test = file->cases[c];
      // A case whose output is unchanged keeps its block as written (a
      // '----' '----' block that needs no doubling stays doubled), so a
      // rewrite's diff shows only outputs that changed.
      const size_t keep_until = actual_outputs[c] == test.expected
                                    ? test.output_end
                                    : test.output_begin;
      out.insert(out.end(), file->lines.begin() + next,
                 file->lines.begin() + keep_until);
      if (keep_until == test.output_begin) {
        std::vector<std::string> block = FormatExpected(actual_outputs[c]);
        out.insert(out.end(), block.begin(), block.end());
      }
      next = test.output_end;
    }
    out.insert(out.end(), file->lines.begin() + next, file->lines.end());
    if (out != file->lines) {
      std::ofstream(path, std::ios::binary) << JoinLines(out, 0, out.size());
    }
  }
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.size() - 4);  // .txt
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Testdata, GoldenTest,
                         ::testing::ValuesIn(GoldenFiles()), ParamName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenTest);

// ---- Tests of the runner itself --------------------------------------------

TEST(GoldenFileFormat, ParsesSingleAndDoubleSeparators) {
  absl::StatusOr<GoldenFile> file = ParseGoldenFile(
      "# comment\n"
      "explain format=json node_identifiers\n"
      "in 1\n"
      "\n"
      "in 2\n"
      "----\n"
      "out 1\n"
      "\n"
      "error\n"
      "----\n"
      "----\n"
      "a\n"
      "\n"
      "b\n"
      "----\n"
      "----\n",
      "t.txt");
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ(file->cases.size(), 2u);
  TestCase& first = file->cases[0];
  EXPECT_EQ(first.directive_line, 2);
  EXPECT_EQ(first.command, "explain");
  EXPECT_EQ(first.args.Get("format"), "json");
  EXPECT_EQ(first.args.Get("node_identifiers"), "true");
  EXPECT_EQ(first.input, "in 1\n\nin 2\n");
  EXPECT_EQ(first.expected, "out 1\n");
  EXPECT_EQ(first.output_begin, 6u);
  EXPECT_EQ(first.output_end, 7u);
  EXPECT_EQ(file->cases[1].expected, "a\n\nb\n");
  EXPECT_EQ(file->cases[1].output_end, 16u);
}

TEST(GoldenFileFormat, RejectsUnterminatedCases) {
  EXPECT_FALSE(ParseGoldenFile("explain\ninput\n", "t.txt").ok());
  EXPECT_FALSE(ParseGoldenFile("explain\n----\n----\na\n", "t.txt").ok());
}

TEST(GoldenFileFormat, FormatsBlankLinesWithDoubleSeparators) {
  EXPECT_EQ(FormatExpected("a\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(FormatExpected("a\n\nb\n"),
            (std::vector<std::string>{"----", "a", "", "b", "----", "----"}));
  EXPECT_TRUE(FormatExpected("").empty());
}

TEST(LineDiff, ShowsChangesWithContextAndLineNumbers) {
  EXPECT_EQ(explain::UnifiedDiff("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(explain::UnifiedDiff("1\n2\n3\n4\n5\n6\n7\n8\n",
                                 "1\n2\n3\n4\nfive\n6\n7\n8\n"),
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  EXPECT_EQ(explain::UnifiedDiff("a\n", "a\nb\n"), "@@ -1,1 +1,2 @@\n a\n+b\n");
  EXPECT_EQ(explain::UnifiedDiff("", "x\n"), "@@ -0,0 +1,1 @@\n+x\n");
  EXPECT_EQ(explain::UnifiedDiff("x\n", "x"),
            "@@ -1,1 +1,2 @@\n x\n+\\ No newline at end of text\n");
}

TEST(LineDiff, SplitsDistantChangesIntoHunks) {
  std::string a, b;
  for (int i = 1; i <= 20; ++i) {
    absl::StrAppend(&a, i, "\n");
    absl::StrAppend(&b, i == 2 || i == 18 ? "x" : absl::StrCat(i), "\n");
  }
  EXPECT_EQ(explain::UnifiedDiff(a, b),
            "@@ -1,5 +1,5 @@\n 1\n-2\n+x\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+x\n 19\n 20\n");
}

}  // namespace
}  // namespace lir
