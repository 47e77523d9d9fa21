// End-to-end tests of `lir-opt run` that a golden cannot say: the JSON
// report's structure (which arrangements the rewrite removes, adapter state
// apart), output read back as data, and failures that need a signal, an
// address-space limit or /dev/full. Single runs (output forms, engines, bad
// data, budgets, usage errors) are goldens in testdata/cli/run.txt.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/analyze.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"
#include "tests/support/eval_run_test_util.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"
#include "tests/support/sanitizers.h"

namespace {

using lir::test::ReadFile;
using lir::test::RunResult;

class RunCliTest : public lir::test::LirOptTest {
 protected:
  void SetUp() override {
    LirOptTest::SetUp();
    if (IsSkipped()) return;
    // SELECT a FROM a EXCEPT ALL SELECT a FROM b over two indexes, and its
    // data (a = {1 x 2, 2} at round 0; b = {1} at round 0, {2} at round 1):
    // the fixtures testdata/cli/run.txt runs.
    Temp("plan.txt", lir::test::FixtureText("except_all_indexes.plan"));
    Temp("data.json", lir::test::FixtureText("except_all_indexes.data.json"));
  }

  // Runs `lir-opt run --data=data.json <flags> plan.txt`.
  RunResult RunPlan(std::vector<std::string> flags,
                    const std::string& data = "data.json") {
    std::vector<std::string> args = {"run", "--data=" + data};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back("plan.txt");
    return Run(args);
  }
};

TEST_F(RunCliTest, ArrangementSizesShowWhatTheRewriteRemoves) {
  RunResult off = RunPlan({"--arrangement_sizes", "--format=json"});
  RunResult on = RunPlan({"--arrangement_sizes", "--format=json",
                          "--enable_fused_set_difference"});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  ASSERT_EQ(on.exit_code, 0) << on.err;
  auto names = [](const std::string& out) {
    std::vector<std::string> operators;
    const nlohmann::json json = nlohmann::json::parse(out);
    for (const auto& a : json["arrangements"]) {
      operators.push_back(a["operator"].get<std::string>());
    }
    return operators;
  };
  // Trace T (the ArrangeBy on the full row) and the Threshold's output
  // arrangement become the single SetDifference output.
  EXPECT_EQ(names(off.out), (std::vector<std::string>{
                                "Index materialize.public.a[[Column(0)]]",
                                "Index materialize.public.b[[Column(0)]]",
                                "ArrangeBy[[Column(0)]]", "Threshold local"}));
  EXPECT_EQ(names(on.out),
            (std::vector<std::string>{"Index materialize.public.a[[Column(0)]]",
                                      "Index materialize.public.b[[Column(0)]]",
                                      "SetDifference"}));
  const nlohmann::json json = nlohmann::json::parse(on.out);
  EXPECT_EQ(json["objects"][0]["name"], "Explained Query");
  EXPECT_EQ(json["objects"][0]["rounds"][1]["round"], 1);
  EXPECT_EQ(json["objects"][0]["rounds"][1]["contents"],
            nlohmann::json::parse("[[[1], 1]]"));
  const nlohmann::json& set_difference = json["arrangements"][2];
  EXPECT_EQ(set_difference["lir_id"], 6);
  EXPECT_EQ(set_difference["records"], 1);  // only (1) survives
  EXPECT_GT(set_difference["bytes"], 0);
}

TEST_F(RunCliTest, AdapterStateIsListedApartFromTheDataflowsArrangements) {
  // A one-shot Join::Delta (only plan_path[0]) runs through the evaluator's
  // recompute adapter; Materialize's delta join builds no arrangement.
  Temp("delta.txt", lir::test::FixtureText("delta_join_one_path.plan"));
  RunResult r = Run({"run", "--data=data.json", "--arrangement_sizes",
                     "--format=json", "delta.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  ASSERT_EQ(json["arrangements"].size(), 1u) << r.out;
  EXPECT_EQ(json["arrangements"][0]["operator"], "ArrangeBy[[Column(0)]]");
  ASSERT_TRUE(json.contains("evaluator_state")) << r.out;
  std::vector<std::string> adapters;
  for (const auto& a : json["evaluator_state"]) {
    adapters.push_back(a["operator"].get<std::string>());
  }
  EXPECT_EQ(adapters, (std::vector<std::string>{
                          "Join::Delta (recompute adapter) input 0",
                          "Join::Delta (recompute adapter) input 1",
                          "Join::Delta (recompute adapter) output"}));
  // Without adapters there is no evaluator_state member.
  RunResult plain = RunPlan({"--arrangement_sizes", "--format=json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("evaluator_state"));
}

TEST_F(RunCliTest, NonFiniteFloatsWriteAsTaggedJsonAndReadBack) {
  // b is empty, so the plan's result is a: infinities, NaN and NULL.
  const std::string b =
      R"("materialize.public.b": {"arity": 1, "updates": []})";
  Temp("floats.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[{"float": "Infinity"}], 0, 1], [[{"float": "NaN"}], 0, 1],
      [[{"float": "-Infinity"}], 0, 2], [[null], 0, 1]]},
      )" + b + "}}");
  RunResult json = RunPlan({"--format=json"}, "floats.json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json contents =
      nlohmann::json::parse(json.out)["objects"][0]["rounds"][0]["contents"];
  // NULL first, then the floats in order, -inf < inf < NaN: each tagged in
  // PostgreSQL's spelling, none written as null.
  EXPECT_EQ(contents, nlohmann::json::parse(R"([[[null], 1],
      [[{"float": "-Infinity"}], 2], [[{"float": "Infinity"}], 1],
      [[{"float": "NaN"}], 1]])"))
      << json.out;
  // The rows read back as data and give the same output.
  nlohmann::json updates = nlohmann::json::array();
  for (const nlohmann::json& entry : contents) {
    updates.push_back({entry[0], 0, entry[1]});
  }
  Temp("again.json",
       R"({"collections": {"materialize.public.a": {"arity": 1, "updates": )" +
           updates.dump() + "}, " + b + "}}");
  RunResult again = RunPlan({"--format=json"}, "again.json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, json.out);
}

using lir::test::kSanitized;

TEST_F(RunCliTest, MemoryRunningOutIsAnErrorNotAnAbort) {
  // With the budget raised past what can be allocated, a series of 10^12
  // rows fails to allocate: exit 1 naming the operator, not signal 6.
  if (kSanitized) GTEST_SKIP() << "sanitizers report, not throw, bad_alloc";
  Temp("huge.txt", lir::test::FixtureText("flat_map_huge_series.plan"));
  Temp("one.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[1], 0, 1]]}}})");
  const std::string command =
      absl::StrCat("cd ", lir::test::ShellQuote(dir_.string()), " && ",
                   lir::test::ShellQuote(LIR_OPT_PATH),
                   " run --data=one.json --max_rows_per_round=10000000000000 "
                   "--max_bytes_per_round=18446744073709551615 huge.txt "
                   ">out.txt 2>err.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string err = ReadFile(dir_ / "err.txt");
  EXPECT_TRUE(absl::StrContains(
      err, "LirId(2) FlatMap: out of memory (std::bad_alloc) in round 0"))
      << err;
}

TEST_F(RunCliTest, MemoryRunningOutInAnyCommandIsExit1NotAnAbort) {
  // lir-opt's last line of defence (main): `explain` of a 30 MB plan under
  // a 100 MB address-space limit (a small plan needs under 40 MB) ran out
  // of memory with an uncaught std::bad_alloc, exit 134.
  if (kSanitized) GTEST_SKIP() << "ulimit -v and sanitizers do not mix";
  std::string plan = absl::StrCat(lir::test::kQueryHeader, "  Constant\n");
  for (int i = 0; i < 750000; ++i) {
    absl::StrAppend(&plan, "    - (", i, ", \"xxxxxxxxxxxxxxxxxxxx\")\n");
  }
  absl::StrAppend(&plan, "\nTarget cluster: quickstart\n");
  Temp("big.txt", plan);
  const std::string command = absl::StrCat(
      "cd ", lir::test::ShellQuote(dir_.string()), " && ulimit -v 100000 && ",
      lir::test::ShellQuote(LIR_OPT_PATH),
      " explain big.txt >out.txt 2>err.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(ReadFile(dir_ / "err.txt"),
            "lir-opt: out of memory (std::bad_alloc; not an error in the "
            "input's syntax: the input, or what it asked to compute, did not "
            "fit in memory)\n");
}

TEST_F(RunCliTest, OutputThatCannotBeWrittenIsAFailure) {
  // `> /dev/full` used to exit 0 with the output lost.
  Temp("plan.txt", lir::test::FixtureText("constant_1.plan"));
  const std::string command =
      absl::StrCat("cd ", lir::test::ShellQuote(dir_.string()), " && ",
                   lir::test::ShellQuote(LIR_OPT_PATH),
                   " explain plan.txt >/dev/full 2>err.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_TRUE(absl::StrContains(ReadFile(dir_ / "err.txt"),
                                "lir-opt: cannot write to standard output"))
      << ReadFile(dir_ / "err.txt");
}

TEST_F(RunCliTest, AStringDoubledPastTheValueLimitNamesTheLimit) {
  // The probe's plan: one row whose string doubles 40 times. It used to
  // exhaust memory and blame --max_rows_per_round.
  Temp("double.txt", lir::test::DoublingPlan(40, "||", "\"ab\""));
  Temp("empty.json", "{\"collections\": {}}");
  RunResult r =
      Run({"run", "--data=empty.json", "--max_value_bytes=4096", "double.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(absl::StrContains(
      r.err,
      "materialize.public.mv: round 0: LirId(2) Mfp: a value of 8192 bytes "
      "passes the limit of 4096 bytes per value (raise it with "
      "--max_value_bytes=N"))
      << r.err;
}

}  // namespace

// --analyze=cpu: times vary from run to run, so no golden shows them. Every
// node of this plan has an operator, so every row has a time; the text
// cell is the JSON's nanoseconds as Materialize's interval prints them;
// the columns follow the order asked.
TEST_F(RunCliTest, AnalyzeCpuTimesEveryOperatorInTheOrderAsked) {
  RunResult json = RunPlan({"--analyze=memory,cpu", "--format=json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json parsed = nlohmann::json::parse(json.out);
  const nlohmann::json& rows = parsed["objects"][0]["rows"];
  ASSERT_GT(rows.size(), 3u);
  uint64_t total_ns = 0;
  for (const nlohmann::json& row : rows) {
    ASSERT_TRUE(row["elapsed_ns"].is_number_unsigned()) << row.dump();
    const uint64_t ns = row["elapsed_ns"].get<uint64_t>();
    total_ns += ns;
    EXPECT_EQ(row["total_elapsed"].get<std::string>(),
              lir::explain::FormatElapsed(ns))
        << row.dump();
    EXPECT_TRUE(row.contains("total_memory")) << row.dump();
  }
  EXPECT_GT(total_ns, 0u);

  RunResult text = RunPlan({"--analyze=cpu,memory"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const std::string header = text.out.substr(text.out.find('\n') + 1);
  const size_t elapsed = header.find("total_elapsed");
  const size_t memory = header.find("total_memory");
  ASSERT_NE(elapsed, std::string::npos) << text.out;
  ASSERT_NE(memory, std::string::npos) << text.out;
  EXPECT_LT(elapsed, memory) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, " | 00:00:0")) << text.out;

  // Memory only: no time is measured or printed.
  RunResult memory_only = RunPlan({"--analyze=memory", "--format=json"});
  ASSERT_EQ(memory_only.exit_code, 0) << memory_only.err;
  // Parsed into a variable: a range over a member of the temporary parse
  // result would outlive it.
  const nlohmann::json memory_json = nlohmann::json::parse(memory_only.out);
  for (const nlohmann::json& row : memory_json["objects"][0]["rows"]) {
    EXPECT_FALSE(row.contains("elapsed_ns")) << row.dump();
  }
}
