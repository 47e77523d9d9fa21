// RunDocument's work and byte budgets (include/lir/eval/budget.h): a LetRec
// whose body grows each iteration ends at the run's work limit, a value
// that doubles ends at the value limit before it is built, and an operator
// whose rows are wide ends at the byte limit per round, in both engines,
// each error naming its limit and flag.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/budget.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "tests/support/eval_run_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using ::lir::test::ParseOrDie;
using test::DoublingPlan;
using test::EngineName;
using test::kEngines;
using test::OptionsFor;
using test::RunError;

TEST(RunWork, ALetRecThatGrowsEveryIterationEndsAtTheWorkLimit) {
  // l0 = distinct({1} + (l0 + 1)): one more row every iteration, forever.
  // Under the iteration limit alone its work is quadratic in iterations:
  // the work limit counts every row of every iteration.
  const Document doc = test::FixtureOrDie("mv_letrec_growing.plan");
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_work = 5000;
    const std::string error = RunError(doc, InputData{}, options);
    EXPECT_TRUE(absl::StrContains(
        error,
        "the run's operators produced more than 5000 rows in all by round 0 "
        "(the work limit of a run, every LetRec iteration counted; raise it "
        "with --max_work=N, RunOptions::max_work)"))
        << EngineName(engine) << ": " << error;
    // The same run under a work limit it stays within reaches the
    // iteration limit instead: the work limit is what ended it.
    options.max_work = kDefaultMaxWork;
    options.max_iterations = 50;
    EXPECT_TRUE(absl::StrContains(RunError(doc, InputData{}, options),
                                  "did not converge in 50 iterations"))
        << EngineName(engine);
  }
}

TEST(RunWork, WorkIsCountedOverEveryRound) {
  // One row per round through one Get: 3 rounds are 3 rows of work (the
  // incremental engine) or 1 + 2 + 3 (the snapshot engine recomputes).
  const Document doc = test::FixtureOrDie("mv_get_t.plan");
  InputData data;
  InputCollection& t = test::CollectionT(data, 1);
  for (uint64_t r = 0; r < 3; ++r) {
    t.updates.push_back({{Datum::Int(static_cast<int64_t>(r))}, r, 1});
  }
  RunOptions options;
  options.max_work = 3;
  EXPECT_EQ(RunError(doc, data, options), "");
  options.max_work = 2;
  EXPECT_TRUE(absl::StrContains(RunError(doc, data, options),
                                "more than 2 rows in all by round 2"));
  options.engine = Engine::kSnapshot;
  options.max_work = 6;
  EXPECT_EQ(RunError(doc, data, options), "");
  options.max_work = 5;
  EXPECT_TRUE(absl::StrContains(RunError(doc, data, options),
                                "more than 5 rows in all by round 2"));
}

TEST(RunValueBytes, DoublingAStringEndsAtTheValueLimitNotInMemory) {
  // Each map column doubles the one before: 2^40 bytes at the end.
  const Document doc = ParseOrDie(DoublingPlan(40, "||", "\"ab\""));
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    const std::string error = RunError(doc, InputData{}, options);
    // 2 bytes doubled 25 times is 64 MiB, the default; 26 times passes it.
    EXPECT_TRUE(absl::StrContains(
        error,
        "a value of 134217728 bytes passes the limit of 67108864 bytes per "
        "value (raise it with --max_value_bytes=N, "
        "RunOptions::max_value_bytes)"))
        << EngineName(engine) << ": " << error;
    options.max_value_bytes = 1000;
    EXPECT_TRUE(absl::StrContains(RunError(doc, InputData{}, options),
                                  "a value of 1024 bytes passes the limit of "
                                  "1000 bytes per value"))
        << EngineName(engine);
  }
}

TEST(RunValueBytes, NestedCopiesCountWhatTheyStandFor) {
  // row(x, x) shares x, so 40 levels take little memory but stand for
  // 2^40 elements: the value limit counts the latter.
  const Document doc = ParseOrDie(DoublingPlan(40, "row", "1"));
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_value_bytes = 1 << 20;
    const std::string error = RunError(doc, InputData{}, options);
    EXPECT_TRUE(absl::StrContains(error,
                                  "bytes passes the limit of 1048576 "
                                  "bytes per value"))
        << EngineName(engine) << ": " << error;
  }
}

TEST(RunBytesPerRound, WideRowsEndTheOperatorAtTheByteLimit) {
  // 30 rows of a 1,000-byte string joined with themselves on a constant
  // column: 900 rows of about 2,000 bytes, counted before they are made.
  const Document doc = test::FixtureOrDie("mv_self_join_t.plan");
  InputData data;
  InputCollection& t = test::CollectionT(data, 2);
  for (int i = 0; i < 30; ++i) {
    t.updates.push_back(
        {{Datum::String(std::string(1000, static_cast<char>('a' + i % 26)) +
                        std::to_string(i)),
          Datum::Int(0)},
         0,
         1});
  }
  for (Engine engine : kEngines) {
    RunOptions options = OptionsFor(engine);
    options.max_bytes_per_round = 1'000'000;
    const std::string error = RunError(doc, data, options);
    EXPECT_TRUE(absl::StrContains(
        error,
        "LirId(3) Join::Linear: produced more than 1000000 bytes of rows in "
        "round 0 (the limit per operator and round; raise it with "
        "--max_bytes_per_round=N, RunOptions::max_bytes_per_round)"))
        << EngineName(engine) << ": " << error;
    options.max_bytes_per_round = 10'000'000;
    EXPECT_EQ(RunError(doc, data, options), "") << EngineName(engine);
  }
}

TEST(RunBudgets, ZeroIsNotAByteOrWorkBudget) {
  const Document doc = test::FixtureOrDie("mv_letrec_growing.plan");
  for (uint64_t RunOptions::*budget :
       {&RunOptions::max_bytes_per_round, &RunOptions::max_value_bytes,
        &RunOptions::max_work}) {
    RunOptions options;
    options.*budget = 0;
    EXPECT_EQ(RunDocument(doc, InputData{}, options).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace lir::eval
