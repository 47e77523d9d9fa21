// End-to-end tests of `lir-opt run`: output forms, engines, the rewrite
// flag, arrangement sizes, and how bad data is reported.
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"
#include "tests/support/eval_run_test_util.h"
#include "tests/support/sanitizers.h"

namespace {

using lir::testing_util::ReadFile;
using lir::testing_util::RunResult;

// SELECT a FROM a EXCEPT ALL SELECT a FROM b over two indexes.
constexpr char kPlan[] =
    "Explained Query:\n"
    "  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, "
    "thinning=() }\n"
    "    ArrangeBy\n"
    "      raw=false\n"
    "      arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
    "      Union consolidate_output=true\n"
    "        Get::PassArrangements materialize.public.a\n"
    "          raw=false\n"
    "          arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
    "        Negate\n"
    "          Get::PassArrangements materialize.public.b\n"
    "            raw=false\n"
    "            arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
    "\n"
    "Target cluster: quickstart\n";

// a = {1 x 2, 2} at round 0; b = {1} at round 0, {2} at round 1.
constexpr char kData[] = R"({"collections": {
  "materialize.public.a": {"arity": 1, "updates": [[[1], 0, 2], [[2], 0, 1]]},
  "materialize.public.b": {"arity": 1, "updates": [[[1], 0, 1], [[2], 1, 1]]}
}})";

constexpr char kExpectedText[] =
    "Explained Query:\n"
    "  round 0:\n"
    "    - (1)\n"
    "    - (2)\n"
    "  round 1:\n"
    "    - (1)\n";

class RunCliTest : public lir::testing_util::LirOptTest {
 protected:
  void SetUp() override {
    LirOptTest::SetUp();
    if (IsSkipped()) return;
    Temp("plan.txt", kPlan);
    Temp("data.json", kData);
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

TEST_F(RunCliTest, PrintsEveryRoundSorted) {
  RunResult r = RunPlan({});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kExpectedText);
  EXPECT_EQ(r.err, "");
}

TEST_F(RunCliTest, EnginesAndTheRewriteGiveTheSameContents) {
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{
           {"--engine=snapshot"},
           {"--enable_fused_set_difference"},
           {"--enable_fused_set_difference", "--fuel=1", "--compaction=none"},
           {"--features=enable_fused_set_difference=on",
            "--engine=snapshot"}}) {
    RunResult r = RunPlan(flags);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, kExpectedText) << flags[0];
  }
}

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
  Temp("delta.txt",
       "Explained Query:\n"
       "  Join::Delta\n"
       "    plan_path[0]\n"
       "      delta_stage[0]\n"
       "        lookup={ relation=1, key=[#0] }\n"
       "        stream={ key=[#0], thinning=() }\n"
       "      source={ relation=0, raw }\n"
       "    Get::Collection materialize.public.a\n"
       "      raw=true\n"
       "    ArrangeBy\n"
       "      raw=false\n"
       "      arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
       "      Get::Collection materialize.public.b\n"
       "        raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
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

TEST_F(RunCliTest, TextArrangementSizesEndWithATotal) {
  RunResult r =
      RunPlan({"--arrangement_sizes", "--enable_fused_set_difference"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out, "Explained Query LirId(6) SetDifference: records=1 batches=1"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "  total: records=")) << r.out;
}

TEST_F(RunCliTest, BadDataNamesTheCollectionAndTheUpdate) {
  struct Case {
    const char* data;
    const char* message;
  } cases[] = {
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1, 2], 0, 1]]}}})",
       "bad.json:1:68: collections[\"materialize.public.a\"].updates[0]: the "
       "row has 2 "
       "values, "
       "the collection's arity is 1"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1], 0, 1], [[[1]], 0, 1]]}}})",
       "collections[\"materialize.public.a\"].updates[1] value 0: expected "
       "null, "
       "a boolean, an integer, a number, a string, {\"list\": [...]}, "
       "{\"array\": [...]}, {\"timestamp\": ...}, {\"interval\": ...}, "
       "{\"bytea\": ...}, {\"date\": ...} or {\"float\": ...}, got array"},
      // Integers past 64 bits, which nlohmann reads as unsigned or as a
      // double, at the number itself, also inside a list.
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1e20], 0, 1], [[-9223372036854775809], 0, 1]]}}})",
       "bad.json:1:85: collections[\"materialize.public.a\"].updates[1] value "
       "0: integer -9223372036854775809 is outside the 64-bit integer range "
       "(-9223372036854775808 to 9223372036854775807)"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[{"list": [9223372036854775808]}], 0, 1]]}}})",
       "bad.json:1:79: collections[\"materialize.public.a\"].updates[0] value "
       "0: integer 9223372036854775808 is outside the 64-bit integer range"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[{"bytea": "\\x6"}], 0, 1]]}}})",
       "collections[\"materialize.public.a\"].updates[0] value 0: invalid "
       "input syntax for type bytea: invalid hexadecimal data: odd number of "
       "digits: \"\\x6\""},
      // 1997 is not a leap year.
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[{"date": "1997-07-06"}], 0, 1], [[{"date": "1997-02-29"}], 0, 1]]}}})",
       "collections[\"materialize.public.a\"].updates[1] value 0: invalid "
       "date \"1997-02-29\" (expected YYYY-MM-DD)"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[{"date": 19970706}], 0, 1]]}}})",
       "collections[\"materialize.public.a\"].updates[0] value 0: expected "
       "{\"date\": \"...\"}"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1], 0, 0]]}}})",
       "updates[0]: the diff must be a non-zero 64-bit integer, got 0"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1], 0, 1.5]]}}})",
       "updates[0]: the diff must be a non-zero 64-bit integer, got 1.5"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1], -1, 1]]}}})",
       "bad.json:1:73: collections[\"materialize.public.a\"].updates[0]: the "
       "round must be an integer from 0 to 9007199254740991 (2^53 - 1), got "
       "-1"},
      {R"({"collections": {"materialize.public.a": {"arity": 1, "updates": [[[1], 9007199254740992, 1]]}}})",
       "bad.json:1:73: collections[\"materialize.public.a\"].updates[0]: the "
       "round must be an integer from 0 to 9007199254740991 (2^53 - 1), got "
       "9007199254740992"},
      // Diffs of one row past 64 bits: in one round, and over two rounds.
      {"{\"collections\": {\"materialize.public.a\": {\"arity\": 1, "
       "\"updates\": [\n  [[1], 0, 9223372036854775807],\n  [[2], 0, 1],\n  "
       "[[1], 0, 1]]}}}",
       "bad.json:4:3: collections[\"materialize.public.a\"].updates[2]: the "
       "diffs of row (1) in round 0 sum past the 64-bit range"},
      {"{\"collections\": {\"materialize.public.a\": {\"arity\": 1, "
       "\"updates\": [\n  [[1], 5, 1],\n  [[1], 0, 9223372036854775807]]}}}",
       "bad.json:2:3: collections[\"materialize.public.a\"].updates[0]: the "
       "diffs of row (1) up to round 5 sum past the 64-bit range"},
      // A number too large for a double.
      {"{\"collections\": {\"materialize.public.a\": {\"arity\": 1, "
       "\"updates\": [\n  [[1e999], 0, 1]]}}}",
       "bad.json:2:5: number overflow parsing '1e999'"},
      {"{\"collections\": {\n  \"materialize.public.a\": {\"arity\": 1,, }}}",
       "bad.json:2:"},
  };
  for (const Case& c : cases) {
    Temp("bad.json", c.data);
    RunResult r = RunPlan({}, "bad.json");
    EXPECT_EQ(r.exit_code, 1) << c.data;
    EXPECT_EQ(r.out, "") << c.data;
    EXPECT_TRUE(absl::StrContains(r.err, "bad.json")) << r.err;
    EXPECT_TRUE(absl::StrContains(r.err, c.message)) << r.err;
  }
}

TEST_F(RunCliTest, DatesReadAndPrintAsPostgreSQLDoes) {
  // kData with dates for integers: 1 is 1997-07-06 and 2 is 2024-02-29.
  Temp("dates.json", R"({"collections": {
  "materialize.public.a": {"arity": 1, "updates": [[[{"date": "1997-07-06"}], 0, 2], [[{"date": "2024-02-29"}], 0, 1]]},
  "materialize.public.b": {"arity": 1, "updates": [[[{"date": "1997-07-06"}], 0, 1], [[{"date": "2024-02-29"}], 1, 1]]}
}})");
  RunResult r = RunPlan({}, "dates.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "Explained Query:\n"
            "  round 0:\n"
            "    - (1997-07-06)\n"
            "    - (2024-02-29)\n"
            "  round 1:\n"
            "    - (1997-07-06)\n");
  RunResult json = RunPlan({"--format=json"}, "dates.json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  // The JSON form is the data file's: the value reads back as a date.
  const nlohmann::json rounds =
      nlohmann::json::parse(json.out)["objects"][0]["rounds"];
  EXPECT_EQ(rounds[1]["contents"][0][0][0],
            nlohmann::json({{"date", "1997-07-06"}}))
      << json.out;
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

TEST_F(RunCliTest, AGetWithoutDataIsAnErrorNamingTheCollection) {
  Temp(
      "only_a.json",
      R"({"collections": {"materialize.public.a": {"arity": 1, "updates": []}}})");
  RunResult r = RunPlan({}, "only_a.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(
      absl::StrContains(r.err, "no data for collection materialize.public.b"))
      << r.err;
}

TEST_F(RunCliTest, ARoundErrorIsReportedInItsRoundAndFailsTheRun) {
  Temp("plan.txt",
       "Explained Query:\n"
       "  Mfp\n"
       "    project=(#1)\n"
       "    map=((10 / #0))\n"
       "    Get::Collection materialize.public.a\n"
       "      raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("zero.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[5], 0, 1], [[0], 1, 1]]}}})");
  RunResult r = RunPlan({}, "zero.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "Explained Query:\n"
            "  round 0:\n"
            "    - (2)\n"
            "  round 1:\n"
            "    error: LirId(2) Mfp: division by zero\n");
  EXPECT_TRUE(
      absl::StrContains(r.err, "round 1: LirId(2) Mfp: division by zero"))
      << r.err;
}

TEST_F(RunCliTest, UnsupportedFunctionsFailBeforeAnyRound) {
  Temp("plan.txt",
       "Explained Query:\n"
       "  Mfp\n"
       "    project=(#1)\n"
       "    map=(date_trunc(\"day\", #0))\n"
       "    Get::Collection materialize.public.a\n"
       "      raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  RunResult r = RunPlan({});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StrContains(r.err, "unsupported function date_trunc"))
      << r.err;
}

TEST_F(RunCliTest, CatalogDeclaresTheIndexAFastPathReads) {
  // The plan names t_a_idx but not its key; the catalog says it is [#1].
  Temp("peek.txt",
       "Explained Query (fast path):\n"
       "  Project (#1)\n"
       "    ReadIndex on=materialize.public.t t_a_idx=[lookup value=(5)]\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("t.json", R"({"collections": {"materialize.public.t": {"arity": 2,
      "updates": [[[1, 5], 0, 1], [[2, 6], 0, 1], [[3, 5], 0, 1]]}}})");
  Temp("catalog.json", R"({"indexes": {"materialize.public.t_a_idx":
      {"on": "materialize.public.t", "key": [1]}}})");
  RunResult missing = Run({"run", "--data=t.json", "peek.txt"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("neither the catalog nor the data file declares "
                             "an index \"t_a_idx\""),
            std::string::npos)
      << missing.err;
  // Rows with #1 = 5: (1, 5) and (3, 5); their layout (5, 1), (5, 3) with
  // the looked-up value appended; Project (#1) gives 1 and 3.
  RunResult found =
      Run({"run", "--data=t.json", "--catalog=catalog.json", "peek.txt"});
  ASSERT_EQ(found.exit_code, 0) << found.err;
  EXPECT_EQ(found.out,
            "Explained Query (fast path):\n  round 0:\n    - (1)\n    - (3)\n");
  // A catalog that disagrees with the data file is an error naming it.
  Temp("t2.json", R"({"collections": {"materialize.public.t": {"arity": 2,
      "updates": []}}, "indexes": {"materialize.public.t_a_idx":
      {"on": "materialize.public.t", "key": [0]}}})");
  RunResult conflict =
      Run({"run", "--data=t2.json", "--catalog=catalog.json", "peek.txt"});
  EXPECT_EQ(conflict.exit_code, 1);
  EXPECT_NE(
      conflict.err.find("catalog.json: index \"materialize.public.t_a_idx\" "
                        "is declared differently by the data file"),
      std::string::npos)
      << conflict.err;
  // Only "collections" and "indexes" are known; errors are located.
  Temp("bad.json", R"({"tables": {}})");
  RunResult bad =
      Run({"run", "--data=t.json", "--catalog=bad.json", "peek.txt"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("bad.json:1:12: top level: unknown field \"tables\""),
            std::string::npos)
      << bad.err;
}

TEST_F(RunCliTest, OnlyRoundsWithChangesRunAndTheOutputSaysSo) {
  // One update at round 10^8: stepping every round from 0 never finished.
  Temp("far.json", R"({"collections": {
  "materialize.public.a": {"arity": 1, "updates": [[[1], 0, 1], [[2], 100000000, 1]]},
  "materialize.public.b": {"arity": 1, "updates": []}}})");
  for (const char* engine : {"--engine=incremental", "--engine=snapshot"}) {
    RunResult r = RunPlan({engine}, "far.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "Explained Query:\n"
              "  round 0:\n"
              "    - (1)\n"
              "  round 100000000:\n"
              "    - (1)\n"
              "    - (2)\n"
              "\n"
              "Rounds 0 to 100000000: 2 listed, 99999999 skipped (no update in "
              "the data or due from a temporal filter, or no change)\n")
        << engine;
  }
  RunResult json = RunPlan({"--format=json"}, "far.json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["rounds"],
            nlohmann::json::parse(
                R"({"last": 100000000, "listed": 2, "skipped": 99999999})"));
  // Consecutive rounds skip nothing: no line, and "skipped": 0.
  RunResult plain = RunPlan({});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, kExpectedText);
  RunResult plain_json = RunPlan({"--format=json"});
  EXPECT_EQ(nlohmann::json::parse(plain_json.out)["rounds"]["skipped"], 0);
}

TEST_F(RunCliTest, MaxRowsPerRoundEndsARunawayGenerateSeries) {
  // Four rows of generate_series(1, 9000000, 1) reached 3 GB and aborted
  // on std::bad_alloc: the calls were capped one by one, not in total. Here
  // scaled down (four rows of 9 against a budget of 30); the default budget
  // (10^7) is checked below with one call past it, refused before any row
  // is made.
  Temp("series.txt",
       "Explained Query:\n"
       "  FlatMap generate_series(1, #0, 1)\n"
       "    Get::Collection materialize.public.a\n"
       "      raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("four.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[9], 0, 1], [[9], 0, 1], [[9], 0, 1], [[9], 0, 1]]}}})");
  Temp("nine.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[9], 0, 1], [[10], 0, 1], [[11], 0, 1], [[12], 0, 1]]}}})");
  Temp("huge.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[10000001], 0, 1]]}}})");
  auto message = [](const char* limit) {
    return absl::StrCat(
        "LirId(2) FlatMap: produced more than ", limit,
        " rows in round 0 (the limit per operator and round; raise it with "
        "--max_rows_per_round=N, RunOptions::max_rows_per_round)");
  };
  for (const char* engine : {"--engine=incremental", "--engine=snapshot"}) {
    // Four equal rows are one row with diff 4 (9 rows made), and fit.
    RunResult fits = Run({"run", "--data=four.json", "--max_rows_per_round=30",
                          engine, "series.txt"});
    EXPECT_EQ(fits.exit_code, 0) << fits.err;
    RunResult r = Run({"run", "--data=nine.json", "--max_rows_per_round=30",
                       engine, "series.txt"});
    EXPECT_EQ(r.exit_code, 1) << engine;
    EXPECT_EQ(r.out, "Explained Query:\n  round 0:\n    error: " +
                         message("30") + "\n")
        << engine;
    EXPECT_EQ(r.err, "lir-opt: series.txt: Explained Query: round 0: " +
                         message("30") + "\n")
        << engine;
    RunResult huge = Run({"run", "--data=huge.json", engine, "series.txt"});
    EXPECT_EQ(huge.exit_code, 1) << engine;
    EXPECT_TRUE(absl::StrContains(huge.err, message("10000000"))) << huge.err;
  }
}

using lir::testing_util::kSanitized;

TEST_F(RunCliTest, MemoryRunningOutIsAnErrorNotAnAbort) {
  // With the budget raised past what can be allocated, a series of 10^12
  // rows fails to allocate: exit 1 naming the operator, not signal 6.
  if (kSanitized) GTEST_SKIP() << "sanitizers report, not throw, bad_alloc";
  Temp("huge.txt",
       "Explained Query:\n"
       "  FlatMap generate_series(1, 1000000000000, 1)\n"
       "    Get::Collection materialize.public.a\n"
       "      raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("one.json", R"({"collections": {"materialize.public.a": {"arity": 1,
      "updates": [[[1], 0, 1]]}}})");
  const std::string command =
      absl::StrCat("cd ", lir::testing_util::ShellQuote(dir_.string()), " && ",
                   lir::testing_util::ShellQuote(LIR_OPT_PATH),
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
  std::string plan = "Explained Query:\n  Constant\n";
  for (int i = 0; i < 750000; ++i) {
    absl::StrAppend(&plan, "    - (", i, ", \"xxxxxxxxxxxxxxxxxxxx\")\n");
  }
  absl::StrAppend(&plan, "\nTarget cluster: quickstart\n");
  Temp("big.txt", plan);
  const std::string command = absl::StrCat(
      "cd ", lir::testing_util::ShellQuote(dir_.string()),
      " && ulimit -v 100000 && ", lir::testing_util::ShellQuote(LIR_OPT_PATH),
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
  Temp("plan.txt", "Explained Query:\n  Constant\n    - (1)\n");
  const std::string command =
      absl::StrCat("cd ", lir::testing_util::ShellQuote(dir_.string()), " && ",
                   lir::testing_util::ShellQuote(LIR_OPT_PATH),
                   " explain plan.txt >/dev/full 2>err.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_TRUE(absl::StrContains(ReadFile(dir_ / "err.txt"),
                                "lir-opt: cannot write to standard output"))
      << ReadFile(dir_ / "err.txt");
}

TEST_F(RunCliTest, MaxIterationsEndsALetRecThatNeverConverges) {
  Temp("letrec.txt",
       "Explained Query:\n"
       "  With Mutually Recursive\n"
       "    cte l0 =\n"
       "      Negate\n"
       "        Union\n"
       "          Constant\n"
       "            - (1)\n"
       "          Get::PassArrangements l0\n"
       "            raw=true\n"
       "  Return\n"
       "    Get::PassArrangements l0\n"
       "      raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  for (const char* engine : {"--engine=incremental", "--engine=snapshot"}) {
    RunResult r = Run({"run", "--data=data.json", "--max_iterations=3", engine,
                       "letrec.txt"});
    EXPECT_EQ(r.exit_code, 1) << engine;
    EXPECT_TRUE(absl::StrContains(
        r.err,
        "LirId(6) With Mutually Recursive: did not converge in 3 iterations "
        "(the limit; raise "
        "it with --max_iterations=N"))
        << r.err;
  }
}

TEST_F(RunCliTest, BudgetsOfZeroAreUsageErrors) {
  for (const char* flag :
       {"--max_rows_per_round=0", "--max_iterations=0",
        "--max_bytes_per_round=0", "--max_value_bytes=0", "--max_work=0"}) {
    RunResult r = RunPlan({flag});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_TRUE(absl::StrContains(r.err, "must be at least 1")) << r.err;
  }
  RunResult help = Run({"--help"});
  EXPECT_TRUE(absl::StrContains(help.out,
                                "--max_rows_per_round=VALUE  "
                                "(default: 10000000)"))
      << help.out;
  EXPECT_TRUE(
      absl::StrContains(help.out, "--max_iterations=VALUE  (default: 10000)"));
  for (const char* flag : {"--max_bytes_per_round=VALUE  (default: 2147483648)",
                           "--max_value_bytes=VALUE  (default: 67108864)",
                           "--max_work=VALUE  (default: 200000000)"}) {
    EXPECT_TRUE(absl::StrContains(help.out, flag)) << flag;
  }
}

TEST_F(RunCliTest, AStringDoubledPastTheValueLimitNamesTheLimit) {
  // The probe's plan: one row whose string doubles 40 times. It used to
  // exhaust memory and blame --max_rows_per_round.
  Temp("double.txt", lir::eval::testing_util::DoublingPlan(40, "||", "\"ab\""));
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

TEST_F(RunCliTest, DataForACollectionTheDocumentComputesIsAnError) {
  Temp("two.txt",
       "materialize.public.mv:\n"
       "  Get::Collection materialize.public.a\n"
       "    raw=true\n"
       "\n"
       "materialize.public.mv2:\n"
       "  Get::Collection materialize.public.mv\n"
       "    raw=true\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("mv.json",
       "{\"collections\": {\n"
       "  \"materialize.public.a\": {\"arity\": 1, \"updates\": [[[1], 0, "
       "1]]},\n"
       "  \"materialize.public.mv\": {\"arity\": 1, \"updates\": [[[7], 0, "
       "1]]}}}");
  RunResult r = Run({"run", "--data=mv.json", "two.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "mv.json:3:3: collections[\"materialize.public.mv\"]: the document "
            "computes materialize.public.mv (it is one of its objects), so the "
            "data cannot give it updates; remove it from the data\n");
}

TEST_F(RunCliTest, UsageErrors) {
  RunResult no_data = Run({"run", "plan.txt"});
  EXPECT_EQ(no_data.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(no_data.err, "--data=FILE is required"));
  RunResult bad_engine = RunPlan({"--engine=fast"});
  EXPECT_EQ(bad_engine.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(bad_engine.err, "incremental|snapshot"))
      << bad_engine.err;
  RunResult help = Run({"--help"});
  EXPECT_TRUE(absl::StrContains(help.out, "run --data=DATA [flags] FILE|-"));
  EXPECT_TRUE(absl::StrContains(help.out, "--compaction=eager|none"));
}

}  // namespace
