// End-to-end tests of the lir-opt binary that data cannot say: runs whose
// output feeds another run, checks against the README and the help text's
// shape, limits computed from a file. Single runs with their exit code,
// stdout and stderr are goldens in testdata/cli/ (the `exec` directive).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/explain/line_diff.h"
#include "tests/support/cli_test_util.h"

namespace {

namespace fs = std::filesystem;

using lir::testing_util::ReadFile;
using lir::testing_util::RunResult;

class CliTest : public lir::testing_util::LirOptTest {
 protected:
  static std::string Example() {
    return (fs::path(LIR_SOURCE_DIR) / "examples" / "except.plan").string();
  }
};

constexpr char kSmallPlan[] =
    "Explained Query:\n"
    "  Negate\n"
    "    Constant\n"
    "      - (1)\n";

TEST_F(CliTest, JsonOutputReadsBackToTheSameText) {
  RunResult json = Run({"explain", "--format=json", Example()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_TRUE(absl::StartsWith(json.out, "{")) << json.out;
  EXPECT_TRUE(absl::StrContains(json.out, "\"lir-plan/2\"")) << json.out;

  // auto detects JSON from the leading '{' (after whitespace).
  RunResult back = Run({"explain", "-"}, "\n  " + json.out);
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, ReadFile(Example()));

  // Flags may also follow the operand, with a separate value.
  std::string path = Temp("plan.json", json.out);
  RunResult explicit_json = Run({"explain", path, "--input_format", "json"});
  EXPECT_EQ(explicit_json.exit_code, 0) << explicit_json.err;
  EXPECT_EQ(explicit_json.out, ReadFile(Example()));
}

TEST_F(CliTest, ForcedTextFormatRejectsJson) {
  RunResult json = Run({"explain", "--format=json", Example()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::string path = Temp("plan.json", json.out);
  RunResult r = Run({"explain", "--input_format=text", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StartsWith(r.err, path + ":1:")) << r.err;
}

TEST_F(CliTest, HelpExplainsCommandsFlagsAndExitCodes) {
  RunResult help = Run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.err, "");
  for (const char* needle :
       {"explain", "FILE|-", "--format=text|json",
        "--input_format=auto|text|json", "--[no]node_identifiers",
        "--[no]validate", "(default: true)", "Exit codes:", "  0  ", "  1  ",
        "  2  "}) {
    EXPECT_TRUE(absl::StrContains(help.out, needle))
        << "--help lacks '" << needle << "':\n"
        << help.out;
  }
  // Every choice is explained in words, not only listed.
  for (const char* needle : {"auto:", "text:", "json:"}) {
    EXPECT_TRUE(absl::StrContains(help.out, needle)) << needle;
  }
  EXPECT_EQ(Run({"help"}).out, help.out);
  EXPECT_EQ(Run({"-h"}).out, help.out);
  RunResult after_command = Run({"explain", "--help"});
  EXPECT_EQ(after_command.exit_code, 0);
  EXPECT_EQ(after_command.out, help.out);
}

TEST_F(CliTest, HelpTextStaysNarrow) {
  RunResult help = Run({"--help"});
  for (absl::string_view line : absl::StrSplit(help.out, '\n')) {
    EXPECT_LE(line.size(), 80u) << line;
  }
}

// The README quotes `lir-opt --help` in full; it must stay what the tool
// prints (regenerate the block from the tool's output).
TEST_F(CliTest, ReadmeQuotesTheCurrentHelpText) {
  const std::string readme =
      ReadFile(std::filesystem::path(LIR_SOURCE_DIR) / "README.md");
  const std::string marker = "$ build/tools/lir-opt/lir-opt --help\n";
  const size_t begin = readme.find(marker);
  ASSERT_NE(begin, std::string::npos) << "README.md does not quote --help";
  const size_t end = readme.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  const std::string quoted =
      readme.substr(begin + marker.size(), end - begin - marker.size());
  RunResult help = Run({"--help"});
  EXPECT_EQ(quoted, help.out) << "README.md's --help block is stale:\n"
                              << lir::explain::UnifiedDiff(quoted, help.out);
}

TEST_F(CliTest, VersionExitsZero) {
  RunResult r = Run({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(absl::StartsWith(r.out, "lir-opt ")) << r.out;
}

TEST_F(CliTest, DoubleDashEndsFlags) {
  Temp("--format=json", kSmallPlan);
  RunResult r = Run({"explain", "--", "--format=json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kSmallPlan);
  // Without `--` the same word is a flag, and FILE is missing.
  EXPECT_EQ(Run({"explain", "--format=json"}).exit_code, 2);
}

}  // namespace

// ---- Optimizer features
// ------------------------------------------------------

namespace {

bool Rewritten(const std::string& out) {
  return absl::StrContains(out, "SetDifference ensure_arrangement=") &&
         !absl::StrContains(out, "Threshold::Basic");
}

}  // namespace

TEST_F(CliTest, FeatureFlagRewritesAndAcceptsBooleanSpellings) {
  RunResult on = Run({"explain", "--enable_fused_set_difference", Example()});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_TRUE(Rewritten(on.out)) << on.out;
  for (const char* off :
       {"--enable_fused_set_difference=off", "--enable_fused_set_difference=N",
        "--noenable_fused_set_difference"}) {
    RunResult r = Run({"explain", off, Example()});
    ASSERT_EQ(r.exit_code, 0) << off << r.err;
    EXPECT_EQ(r.out, ReadFile(Example())) << off;
  }
  RunResult yes =
      Run({"explain", "--enable_fused_set_difference=YES", Example()});
  EXPECT_TRUE(Rewritten(yes.out)) << yes.out;
}

TEST_F(CliTest, LaterFeatureSourcesOverrideEarlierOnes) {
  std::string on_config =
      Temp("on.json", R"({"features": {"enable_fused_set_difference": true}})");
  RunResult config = Run({"explain", "--config=" + on_config, Example()});
  ASSERT_EQ(config.exit_code, 0) << config.err;
  EXPECT_TRUE(Rewritten(config.out));
  RunResult list_over_config =
      Run({"explain", "--config=" + on_config,
           "--features=enable_fused_set_difference=off", Example()});
  EXPECT_EQ(list_over_config.out, ReadFile(Example()));
  RunResult flag_over_list =
      Run({"explain", "--features=enable_fused_set_difference=off",
           "--enable_fused_set_difference", Example()});
  EXPECT_TRUE(Rewritten(flag_over_list.out));
  RunResult flag_off_over_config =
      Run({"explain", "--config=" + on_config,
           "--enable_fused_set_difference=false", Example()});
  EXPECT_EQ(flag_off_over_config.out, ReadFile(Example()));
}

TEST_F(CliTest, ExplainDeclinesAppendsTheCandidates) {
  RunResult on = Run({"explain", "--enable_fused_set_difference",
                      "--explain_declines", Example()});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_TRUE(absl::EndsWith(
      on.out,
      "\n\nRewrite candidates:\n  Explained Query:\n"
      "    antijoin LirId(10): disabled, would decline "
      "output_arrangement_consumed (the Threshold's output is the object's "
      "result, which keeps its arrangement)\n"
      "    fused_set_difference LirId(10): fired (saves 1 arrangement)\n"
      "\n"
      "Arrangements built (before the passes -> after):\n"
      "  Explained Query: 6 -> 5 (and 1 imported index read)\n"))
      << on.out;
  RunResult off = Run({"explain", "--explain_declines", Example()});
  EXPECT_TRUE(absl::EndsWith(
      off.out,
      "    fused_set_difference LirId(10): disabled, would fire (saves 1 "
      "arrangement)\n\n"
      "Arrangements built (before the passes -> after):\n"
      "  Explained Query: 6 -> 6 (and 1 imported index read)\n"))
      << off.out;
  RunResult json =
      Run({"explain", "--explain_declines", "--format=json", Example()});
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_EQ(json.out, "");
}

TEST_F(CliTest, ReportWritesJsonToAFileOrAfterTheDocument) {
  std::string path = (dir_ / "report.json").string();
  RunResult r = Run({"explain", "--enable_fused_set_difference",
                     "--report=" + path, Example()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Rewritten(r.out));
  std::string report = ReadFile(path);
  EXPECT_TRUE(absl::StrContains(report, "\"outcome\": \"fired\"")) << report;
  EXPECT_TRUE(absl::StrContains(report, "\"base_key\": [\n")) << report;
  EXPECT_TRUE(absl::StrContains(report, "\"enabled\": true")) << report;

  RunResult to_stdout = Run({"explain", "--report=-", Example()});
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_TRUE(absl::StartsWith(to_stdout.out, ReadFile(Example())));
  EXPECT_TRUE(absl::StrContains(to_stdout.out, "\"outcome\": \"disabled\""));
  EXPECT_TRUE(absl::StrContains(to_stdout.out, "\"if_enabled\": \"fired\""));
}

TEST_F(CliTest, ReportNeverOverwritesThePlanAndSaysWhatItTook) {
  // `--report plan a.txt` takes `plan` as the report's file: with the plan
  // itself there, it used to overwrite the plan with the report.
  const std::string plan = (dir_ / "plan.txt").string();
  const std::string original = ReadFile(Example());
  Temp("plan.txt", original);
  RunResult same = Run({"explain", "--report", plan, plan});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(same.err, "is the plan being read"))
      << same.err;
  EXPECT_EQ(ReadFile(plan), original);
  // With no FILE left, the message says where the plan went.
  RunResult took = Run({"explain", "--report", plan});
  EXPECT_EQ(took.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(
      took.err, "--report took '" + plan + "' as the file to write the report"))
      << took.err;
  EXPECT_EQ(ReadFile(plan), original);
}

TEST_F(CliTest, TextOfAPlanTooDeepForTheLimitIsRefusedBeforePrinting) {
  // 100 nested Negates: 2 + 4 + ... + 202 = 10,302 bytes of indentation.
  std::string plan = "Explained Query:\n";
  for (int level = 1; level <= 100; ++level) {
    absl::StrAppend(&plan, std::string(2 * level, ' '), "Negate\n");
  }
  // (StrAppend, not operator+: g++ 12 warns falsely about that operator+,
  // -Wstringop-overflow.)
  absl::StrAppend(&plan, std::string(202, ' '), "Constant\n",
                  std::string(204, ' '),
                  "- (1)\n\nTarget cluster: quickstart\n");
  const std::string path = Temp("deep.txt", plan);
  RunResult refused = Run({"explain", "--max_text_bytes=10000", path});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_TRUE(absl::StrContains(
      refused.err,
      "would hold at least 10302 bytes of indentation (its plans nest 101 "
      "levels deep, and text indents two spaces per level), more than the "
      "limit of 10000 bytes (raise it with --max_text_bytes=N"))
      << refused.err;
  RunResult json =
      Run({"explain", "--max_text_bytes=10000", "--format=json", path});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  RunResult fits = Run({"explain", "--max_text_bytes=10302", path});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(fits.out, plan);
  EXPECT_EQ(Run({"explain", "--max_text_bytes=0", path}).exit_code, 2);
}

TEST_F(CliTest, BadFeaturesAreErrorsNamingTheKnownFeatures) {
  RunResult unknown = Run({"explain", "--features=enable_magic=on", Example()});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_TRUE(
      absl::StrContains(unknown.err,
                        "unknown feature 'enable_magic'; known features: "
                        "enable_fused_set_difference (bool)"))
      << unknown.err;
  RunResult bad_value =
      Run({"explain", "--enable_fused_set_difference=maybe", Example()});
  EXPECT_EQ(bad_value.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(bad_value.err, "invalid boolean 'maybe'"))
      << bad_value.err;

  std::string broken =
      Temp("broken.json", "{\"features\": {\n  \"x\": tru }}\n");
  RunResult config = Run({"explain", "--config=" + broken, Example()});
  EXPECT_EQ(config.exit_code, 1);
  EXPECT_EQ(config.out, "");
  EXPECT_TRUE(absl::StartsWith(config.err, broken + ":2:")) << config.err;
  RunResult missing = Run({"explain", "--config=nope.json", Example()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(
      absl::StrContains(missing.err, "nope.json: cannot read config file"))
      << missing.err;
}

// ---- Concise plans
// ------------------------------------------------------------

namespace {

std::string ExamplePath(const char* name) {
  return (fs::path(LIR_SOURCE_DIR) / "examples" / name).string();
}

std::string ConciseExample() { return ExamplePath("except.concise.plan"); }

// How lir-opt refuses examples/except.concise.plan for `consumer`: the
// first node (pre-order) that still lacks a fact after inference is the
// ArrangeBy under the Threshold, whose raw flag the concise form omits.
std::string ConciseRefusal(const std::string& consumer) {
  return absl::StrCat(ConciseExample(),
                      ": Explained Query: LirId(9) ArrangeBy: the concise "
                      "form does not show its raw flag, which ",
                      consumer,
                      " needs; read the plan from EXPLAIN PHYSICAL PLAN AS "
                      "VERBOSE TEXT FOR ... instead\n");
}

}  // namespace

// Catches: the concise printer drifting from what Materialize's default
// EXPLAIN prints for the example (the two files are the same plan).
TEST_F(CliTest, ExplainFormatConcisePrintsTheConciseExample) {
  RunResult r = Run({"explain", "--format=concise", Example()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ReadFile(ConciseExample()));
  EXPECT_EQ(r.err, "");
}

// Catches: explain not detecting concise input, or the default --format
// (text) printing it in the verbose syntax; from a file and from stdin.
TEST_F(CliTest, ExplainPrintsAConcisePlanBackUnchanged) {
  const std::string concise = ReadFile(ConciseExample());
  ASSERT_FALSE(concise.empty());
  RunResult r = Run({"explain", ConciseExample()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, concise);
  EXPECT_EQ(r.err, "");
  RunResult explicit_concise =
      Run({"explain", "--format=concise", ConciseExample()});
  EXPECT_EQ(explicit_concise.exit_code, 0) << explicit_concise.err;
  EXPECT_EQ(explicit_concise.out, concise);
  RunResult in = Run({"explain", "-"}, concise);
  EXPECT_EQ(in.exit_code, 0) << in.err;
  EXPECT_EQ(in.out, concise);
}

// Catches: a partial plan printed as verbose text or JSON with its
// placeholders shown as facts (or a partial document on stdout before the
// error), instead of exit 1 naming the node, the fact and the fix.
TEST_F(CliTest, VerboseAndJsonOutputOfAConcisePlanAreRefused) {
  RunResult verbose = Run({"explain", "--format=verbose", ConciseExample()});
  EXPECT_EQ(verbose.exit_code, 1);
  EXPECT_EQ(verbose.out, "");
  EXPECT_EQ(verbose.err, ConciseRefusal("the verbose syntax"));
  RunResult json = Run({"explain", "--format=json", ConciseExample()});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(json.out, "");
  EXPECT_EQ(json.err, ConciseRefusal("lir's JSON form"));
}

// Catches: run evaluating a plan whose facts are placeholders, or refusing
// it only after reading (and complaining about) the data file: the plan is
// checked first, so even a missing data file gives the plan's refusal.
TEST_F(CliTest, RunRefusesAConcisePlanBeforeReadingData) {
  const std::string data = ExamplePath("except.data.json");
  RunResult r = Run({"run", "--data=" + data, ConciseExample()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, ConciseRefusal("the evaluator"));

  const std::string missing = (dir_ / "no-such.data.json").string();
  RunResult no_data = Run({"run", "--data=" + missing, ConciseExample()});
  EXPECT_EQ(no_data.exit_code, 1);
  EXPECT_EQ(no_data.out, "");
  EXPECT_EQ(no_data.err, ConciseRefusal("the evaluator"));
  // The verbose example with the missing file fails on the file instead.
  RunResult verbose = Run({"run", "--data=" + missing, Example()});
  EXPECT_EQ(verbose.exit_code, 1);
  EXPECT_TRUE(absl::StartsWith(verbose.err, missing + ": cannot read"))
      << verbose.err;
  // And with the data it runs.
  RunResult runs = Run({"run", "--data=" + data, Example()});
  EXPECT_EQ(runs.exit_code, 0) << runs.err;
}

// Catches: run accepting a plan-syntax --format (it prints a report, not a
// plan), whichever syntax the plan was read in.
TEST_F(CliTest, RunTakesNoPlanSyntaxFormat) {
  const std::string data = ExamplePath("except.data.json");
  for (const std::string& plan : {ConciseExample(), Example()}) {
    for (const char* format : {"--format=concise", "--format=verbose"}) {
      RunResult r = Run({"run", format, "--data=" + data, plan});
      EXPECT_EQ(r.exit_code, 2) << format << " " << plan << "\n" << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_TRUE(absl::StrContains(r.err, format)) << r.err;
    }
  }
}

// Catches: the arrangement accounting counting a partial plan's unknown
// layouts and raw flags as if they were shown (a wrong count, exit 0).
TEST_F(CliTest, ArrangementsBuiltAnnotationRefusesAConcisePlan) {
  RunResult r =
      Run({"explain", "--annotate=arrangements_built", ConciseExample()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, ConciseRefusal("--annotate=arrangements_built"));
  // The verbose example is accounted.
  RunResult verbose =
      Run({"explain", "--annotate=arrangements_built", Example()});
  EXPECT_EQ(verbose.exit_code, 0) << verbose.err;
}
