// RunDocument's bounds (include/lir/eval/budget.h, run.h): only rounds with
// changes are run, the row and iteration budgets end a runaway with an error
// naming the operator in both engines, and data for a collection the document
// computes is refused.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/budget.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "src/explain/json_locate.h"
#include "tests/support/eval_run_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using ::lir::test::ParseOrDie;
using test::EngineName;
using test::kEngines;
using test::OptionsFor;
using test::RunError;

InputData Data(const std::string& json) {
  absl::StatusOr<InputData> data = ParseInputData(json, "data.json");
  EXPECT_TRUE(data.ok()) << data.status();
  return data.ok() ? *std::move(data) : InputData{};
}

// The contents after each listed round of `object`.
std::vector<Multiset> Contents(const RunResult& result, size_t object = 0) {
  absl::StatusOr<std::vector<Multiset>> contents =
      ContentsByRound(result.objects.at(object));
  EXPECT_TRUE(contents.ok()) << contents.status();
  return contents.ok() ? *std::move(contents) : std::vector<Multiset>{};
}

std::vector<uint64_t> Rounds(const RunResult& result, size_t object = 0) {
  std::vector<uint64_t> rounds;
  for (const RoundChanges& r : result.objects.at(object).rounds) {
    rounds.push_back(r.round);
  }
  return rounds;
}

// ---------------------------------------------------------- Round skipping

TEST(RunRounds, AnUpdateFarAwayIsOneStepNotAHundredMillion) {
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  const InputData data = Data(R"({"collections": {"materialize.public.t":
      {"arity": 1, "updates": [[[1], 0, 1], [[2], 100000000, 1]]}}})");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    absl::StatusOr<RunResult> run = RunDocument(doc, data, options);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(run->rounds_stepped, 2u) << EngineName(engine);
    EXPECT_EQ(Rounds(*run), (std::vector<uint64_t>{0, 100000000}));
    EXPECT_EQ(Contents(*run)[1].size(), 2u);
    const RoundSpan span = RoundsOf(*run);
    EXPECT_EQ(span.last, 100000000u);
    EXPECT_EQ(span.listed, 2u);
    EXPECT_EQ(span.skipped(), 99999999u);
    EXPECT_TRUE(absl::StrContains(
        FormatRunText(*run, false),
        "\nRounds 0 to 100000000: 2 listed, 99999999 skipped"))
        << FormatRunText(*run, false);
  }
}

TEST(RunRounds, RoundsWhereATemporalBoundExpiresAreStillRun) {
  // (10, 5) is present from round 0 until round 5, a round with no update
  // in the data: skipping it would keep the row until round 1000.
  const Document doc = test::FixtureOrDie("mv_temporal_filter_t.plan");
  const InputData data = Data(R"({"collections": {"materialize.public.t":
      {"arity": 2, "updates": [[[10, 5], 0, 1], [[20, 2000], 1000, 1]]}}})");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    absl::StatusOr<RunResult> run = RunDocument(doc, data, options);
    ASSERT_TRUE(run.ok()) << run.status();
    // Round 2000 (the second row expires) comes after the data's last.
    EXPECT_EQ(Rounds(*run), (std::vector<uint64_t>{0, 5, 1000, 2000}))
        << EngineName(engine);
    const std::vector<Multiset> contents = Contents(*run);
    ASSERT_EQ(contents.size(), 4u);
    EXPECT_EQ(contents[0].size(), 1u);
    EXPECT_TRUE(contents[1].empty());
    EXPECT_EQ(contents[2].size(), 1u);
    EXPECT_TRUE(contents[3].empty());
  }
}

TEST(RunRounds, LastRoundStopsTheRun) {
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  const InputData data = Data(R"({"collections": {"materialize.public.t":
      {"arity": 1, "updates": [[[1], 0, 1], [[2], 7, 1], [[3], 9, 1]]}}})");
  RunOptions options;
  options.last_round = 8;
  absl::StatusOr<RunResult> run = RunDocument(doc, data, options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(Rounds(*run), (std::vector<uint64_t>{0, 7}));
}

TEST(RunRounds, ARunHoldsChangesNotContentsPerRound) {
  // 1,000 rows at round 0, then 200 rounds adding one row each: a run that
  // kept each round's contents would hold 1,000 x 200 rows; one that keeps
  // changes holds 1,200, and the contents are replayed from them.
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  InputData data;
  InputCollection& t = test::CollectionT(data, 1);
  for (int64_t i = 0; i < 1000; ++i)
    t.updates.push_back({{Datum::Int(i)}, 0, 1});
  for (int64_t r = 1; r <= 200; ++r) {
    t.updates.push_back({{Datum::Int(-r)}, static_cast<uint64_t>(r), 1});
  }
  for (const Engine engine : {Engine::kIncremental, Engine::kSnapshot}) {
    RunOptions options = OptionsFor(engine);
    absl::StatusOr<RunResult> run = RunDocument(doc, data, options);
    ASSERT_TRUE(run.ok()) << run.status();
    size_t held = 0;
    for (const RoundChanges& round : run->objects[0].rounds) {
      held += round.changes.size();
    }
    EXPECT_EQ(held, 1200u) << EngineName(engine);
    const std::vector<Multiset> contents = Contents(*run);
    ASSERT_EQ(contents.size(), 201u);
    EXPECT_EQ(contents[0].size(), 1000u);
    EXPECT_EQ(contents[200].size(), 1200u);
    EXPECT_EQ(contents[200].front().first, (DataRow{Datum::Int(-200)}));
  }
}

// ---------------------------------------------------------------- Budgets

TEST(RunBudgets, RowsPerRoundEndTheRunNamingTheOperator) {
  // Four rows of 1000 each: 4000 rows, in one round, of one FlatMap.
  const Document doc = test::FixtureOrDie("mv_series.plan");
  const InputData data = Data(R"({"collections": {"materialize.public.t":
      {"arity": 1, "updates": [[[1000], 0, 1], [[1001], 0, 1], [[1002], 0, 1],
                               [[1003], 0, 1]]}}})");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_rows_per_round = 3999;
    EXPECT_EQ(RunError(doc, data, options),
              "materialize.public.mv: round 0: LirId(2) FlatMap: produced "
              "more than 3999 rows in round 0 (the limit per operator and "
              "round; raise it with --max_rows_per_round=N, "
              "RunOptions::max_rows_per_round)")
        << EngineName(engine);
    options.max_rows_per_round = 4006;  // 1000 + 1001 + 1002 + 1003
    EXPECT_EQ(RunError(doc, data, options), "") << EngineName(engine);
  }
}

TEST(RunBudgets, AJoinThatMultipliesRowsStopsAtTheBudget) {
  // 30 rows joined with the same 30 rows on a column where all are 0: 900
  // rows.
  const Document doc = test::FixtureOrDie("mv_self_join_t.plan");
  std::string updates;
  for (int i = 0; i < 30; ++i) {
    if (i > 0) updates += ", ";
    updates += "[[" + std::to_string(i) + ", 0], 0, 1]";
  }
  const InputData data = Data(
      R"({"collections": {"materialize.public.t": {"arity": 2, "updates": [)" +
      updates + "]}}}");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_rows_per_round = 899;
    absl::StatusOr<RunResult> run = RunDocument(doc, data, options);
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->error.has_value()) << EngineName(engine);
    EXPECT_TRUE(absl::StrContains(
        *run->error, "LirId(3) Join::Linear: produced more than 899 rows"))
        << *run->error;
    options.max_rows_per_round = 900;
    run = RunDocument(doc, data, options);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_FALSE(run->error.has_value()) << *run->error;
    EXPECT_EQ(Contents(*run).at(0).size(), 900u);
  }
}

TEST(RunBudgets, ALetRecThatNeverConvergesStopsAtMaxIterations) {
  const Document doc = test::FixtureOrDie("mv_letrec_oscillating.plan");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_iterations = 7;
    EXPECT_EQ(RunError(doc, InputData{}, options),
              "materialize.public.mv: round 0: LirId(6) With Mutually "
              "Recursive: did not "
              "converge in 7 iterations (the limit; raise it with "
              "--max_iterations=N, RunOptions::max_iterations)")
        << EngineName(engine);
  }
}

TEST(RunBudgets, ALetRecThatConvergesWithinTheLimitRuns) {
  // l0 = {1} ∪ (l0 + 1 where < 5): five rows after five changing iterations
  // and one that changes nothing.
  const Document doc = test::FixtureOrDie("mv_letrec_converges.plan");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_iterations = 5;
    absl::StatusOr<RunResult> run = RunDocument(doc, InputData{}, options);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_TRUE(run->error.has_value()) << EngineName(engine);
    options.max_iterations = 6;
    run = RunDocument(doc, InputData{}, options);
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_FALSE(run->error.has_value()) << *run->error;
    EXPECT_EQ(Contents(*run).at(0).size(), 5u);
  }
}

TEST(RunBudgets, ZeroIsNotABudget) {
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  RunOptions options;
  options.max_rows_per_round = 0;
  EXPECT_EQ(RunDocument(doc, InputData{}, options).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.max_rows_per_round = 1;
  options.max_iterations = 0;
  EXPECT_EQ(RunDocument(doc, InputData{}, options).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// ------------------------------------------------ Data the document computes

TEST(RunData, DataForAnObjectOfTheDocumentIsAnErrorLocatedInTheData) {
  const Document doc = test::FixtureOrDie("mv_two_objects.plan");
  const InputData data = Data(
      "{\"collections\": {\n"
      "  \"materialize.public.t\": {\"arity\": 1, \"updates\": []},\n"
      "  \"materialize.public.mv\": {\"arity\": 1, \"updates\": []}}}");
  const absl::Status checked = CheckDataForDocument(doc, data);
  EXPECT_EQ(checked.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(checked.message(),
            "data.json:3:3: collections[\"materialize.public.mv\"]: the "
            "document computes materialize.public.mv (it is one of its "
            "objects), so the data cannot give it updates; remove it from the "
            "data");
  EXPECT_EQ(RunDocument(doc, data, {}).status(), checked);
}

TEST(RunData, ARunGivenTheDataTakesTheRowsItReadsAndGivesTheSameResult) {
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  const std::string json = R"({"collections": {
      "materialize.public.t": {"arity": 1, "updates": [[[1], 0, 1],
          [[2], 3, 1], [[1], 5, -1]]},
      "materialize.public.u": {"arity": 1, "updates": [[[9], 7, 1]]}}})";
  for (Engine engine : kEngines) {
    SCOPED_TRACE(EngineName(engine));
    RunOptions options = OptionsFor(engine);
    const InputData kept = Data(json);
    absl::StatusOr<RunResult> copied = RunDocument(doc, kept, options);
    ASSERT_TRUE(copied.ok()) << copied.status();
    InputData given = Data(json);
    absl::StatusOr<RunResult> moved =
        RunDocument(doc, std::move(given), options);
    ASSERT_TRUE(moved.ok()) << moved.status();
    EXPECT_EQ(Contents(*moved), Contents(*copied));
    // Rounds 0, 3 and 5 of t, and round 7 of u, which the plan does not
    // read, are listed in both: the rounds are taken before the rows.
    EXPECT_EQ(Rounds(*moved), (std::vector<uint64_t>{0, 3, 5, 7}));
    EXPECT_EQ(Rounds(*moved), Rounds(*copied));
    // t's rows were moved out; u, which the plan does not read, is as it was.
    EXPECT_TRUE(given.collections.at("materialize.public.t").updates.empty());
    EXPECT_EQ(given.collections.at("materialize.public.u").updates.size(), 1u);
    EXPECT_EQ(kept.collections.at("materialize.public.t").updates.size(), 3u);
  }
}

// ------------------------------------------------------ Data file locations

using explain::JsonLocator;

TEST(JsonLocate, FindsValuesByPathForMessages) {
  // A BOM, a key with escapes, strings holding brackets and quotes, and a
  // duplicate key (nlohmann keeps the last, so the locator points there).
  const std::string text =
      "\xEF\xBB\xBF{\"a\": [\"]\\\"[\", {\"k\": 1}],\n"
      " \"\\u0074\\n\": [[1, 2], [3, 4]],\n"
      " \"a\": [7, 8]}";
  const JsonLocator locator(text);
  EXPECT_EQ(locator.Where("f", locator.Find({"t\n", 1, 0})), "f:2:24");
  EXPECT_EQ(locator.Where("f", locator.Find({"t\n"}, true)), "f:2:2");
  EXPECT_EQ(locator.Where("f", locator.Find({"a", 1})), "f:3:11");
  // A path that leaves the structure stops at the deepest value found.
  EXPECT_EQ(locator.Where("f", locator.Find({"a", 5})), "f:3:7");
  std::vector<std::string> keys;
  for (const auto& [key, offset] : locator.Members(locator.Find({}))) {
    keys.push_back(key);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "t\n", "a"}));
}

TEST(JsonLocate, LocatingEveryMemberReadsTheTextOnce) {
  // The data and catalog readers locate every collection's name; each
  // location used to rescan the text from its start, so 40,000 collections
  // took seconds. The line index makes all the locations one pass.
  std::string text = "{\n";
  for (int i = 0; i < 2000; ++i) {
    absl::StrAppend(&text, i == 0 ? "" : ",\n", "  \"c", i, "\": 1");
  }
  text += "\n}";
  const JsonLocator locator(text);
  const auto members = locator.Members(locator.Find({}));
  ASSERT_EQ(members.size(), 2000u);
  for (const auto& [key, offset] : members) locator.Where("f", offset);
  EXPECT_EQ(locator.Where("f", members.back().second), "f:2001:3");
  EXPECT_EQ(locator.Where("f", text.size()), "f:2002:2");
  EXPECT_LE(locator.bytes_read_by_where(), text.size());
}

TEST(JsonLocate, DataErrorsGiveLineAndColumn) {
  absl::StatusOr<InputData> data = ParseInputData(
      "{\"collections\": {\"t\": {\"arity\": 2, \"updates\": [\n"
      "  [[1, \"a\"], 0, 1],\n"
      "  [[2, [3]], 0, 1]]}}}",
      "d.json");
  ASSERT_FALSE(data.ok());
  EXPECT_TRUE(absl::StartsWith(data.status().message(),
                               "d.json:3:8: collections[\"t\"].updates[1] "
                               "value 1: expected null"))
      << data.status();
}

}  // namespace
}  // namespace lir::eval
