// The snapshot engine (include/lir/eval/snapshot.h): every node kind but
// joins and bindings over several rounds with retractions and negative
// counts, reductions, TopK, EXCEPT ALL both ways, and build and round
// errors. Joins are in eval_snapshot_join_test.cc; Let, LetRec and
// 100,000-deep plans in eval_snapshot_letrec_test.cc. Every expected
// collection below was computed by hand from the plan and data.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/datum.h"
#include "lir/eval/snapshot.h"
#include "tests/support/eval_snapshot_test_util.h"

namespace lir::eval {
namespace {

using namespace snapshot_testing;  // NOLINT: the shared test helpers

// ---------------------------------------------------------------- Constant

TEST(SnapshotTest, ConstantAtRoundZeroOnly) {
  Runner run(R"(Explained Query:
  Constant
    - (1, "a")
    - ((2, "b") x 2)
    - ((3, null) x -1)
)",
             {});
  ASSERT_TRUE(run.ok());
  const Multiset expected =
      M({{{I(1), S("a")}, 1}, {{I(2), S("b")}, 2}, {{I(3), Null()}, -1}});
  EXPECT_MS(run.Step({}), expected);
  EXPECT_MS(run.Step({}), Multiset());  // nothing changes afterwards
  EXPECT_MS(run.contents(), expected);
  EXPECT_EQ(run.dataflow().Activations(), 2u);
  EXPECT_TRUE(run.dataflow().Arrangements().empty());
}

// --------------------------------------------------------------------- Get

TEST(SnapshotTest, GetPassArrangementsKeepsNegativeCounts) {
  Runner run(R"(Explained Query:
  Get::PassArrangements materialize.public.t
    raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(
      {{"materialize.public.t", M({{{I(1), I(2)}, 1}, {{I(3), I(4)}, -2}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(2)}, 1}, {{I(3), I(4)}, -2}}));
  Multiset diff = run.Step(
      {{"materialize.public.t", M({{{I(1), I(2)}, -1}, {{I(3), I(4)}, 2}})}});
  EXPECT_MS(diff, M({{{I(1), I(2)}, -1}, {{I(3), I(4)}, 2}}));
  EXPECT_MS(run.contents(), Multiset());
}

TEST(SnapshotTest, GetArrangementSeeksThenAppliesMfp) {
  Runner run(R"(Explained Query:
  Get::Arrangement materialize.public.t
    project=(#1, #2)
    map=((#0{a} + #1{b}))
    key=#0{a}
    val=(5)
    raw=false
    arrangements[0]={ key=[#0{a}], permutation=id, thinning=(#1) }
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  // Only a = 5 rows; each becomes (b, a + b).
  run.Step({{"materialize.public.t",
             M({{{I(5), I(1)}, 1}, {{I(5), I(2)}, 2}, {{I(6), I(3)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(6)}, 1}, {{I(2), I(7)}, 2}}));
  Multiset diff = run.Step(
      {{"materialize.public.t",
        M({{{I(5), I(1)}, -1}, {{I(6), I(3)}, -1}, {{I(5), I(10)}, 1}})}});
  EXPECT_MS(diff, M({{{I(1), I(6)}, -1}, {{I(10), I(15)}, 1}}));
  EXPECT_MS(run.contents(), M({{{I(2), I(7)}, 2}, {{I(10), I(15)}, 1}}));
}

TEST(SnapshotTest, GetCollectionAppliesMfp) {
  Runner run(R"(Explained Query:
  Get::Collection materialize.public.t
    project=(#1)
    filter=((#0 > 1))
    raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  // (1, 7) is filtered; (2, 7) and (3, 7) both project to (7).
  run.Step({{"materialize.public.t", M({{{I(1), I(7)}, 1},
                                        {{I(2), I(7)}, 1},
                                        {{I(3), I(7)}, 2},
                                        {{Null(), I(8)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(7)}, 3}}));
  run.Step({{"materialize.public.t", M({{{I(3), I(7)}, -3}})}});
  EXPECT_MS(run.contents(), M({{{I(7)}, 0}}));
}

// --------------------------------------------------------------------- Mfp

TEST(SnapshotTest, MfpReadsOneValueOfItsInputArrangement) {
  Runner run(R"(Explained Query:
  Mfp
    project=(#1, #2)
    map=((#1 * 2))
    input_key=#0
    input_val=(5)
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             M({{{I(5), I(1)}, 1}, {{I(5), I(2)}, 2}, {{I(6), I(3)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(2)}, 1}, {{I(2), I(4)}, 2}}));
}

TEST(SnapshotTest, DivisionByZeroIsAnErrorOfItsRound) {
  Runner run(R"(Explained Query:
  Mfp
    project=(#2)
    map=((#0 / #1))
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(
      {{"materialize.public.t", M({{{I(4), I(2)}, 1}, {{I(9), I(3)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 1}, {{I(3)}, 1}}));
  absl::Status error =
      run.StepError({{"materialize.public.t", M({{{I(1), I(0)}, 1}})}});
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange) << error;
  EXPECT_EQ(error.message(), "LirId(2) Mfp: division by zero");
  // A failed dataflow is not stepped again.
  EXPECT_EQ(run.StepError({}).code(), absl::StatusCode::kFailedPrecondition);
}

// ----------------------------------------------------------------- FlatMap

TEST(SnapshotTest, FlatMapKeepsMultiplicities) {
  Runner run(R"(Explained Query:
  FlatMap generate_series(#0, #1, 1)
    mfp_after
      project=(#0, #2)
      filter=((#2 > 1))
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  // (1, 3) x2: series 1, 2, 3, keep > 1. (5, 4): empty series.
  run.Step(
      {{"materialize.public.t", M({{{I(1), I(3)}, 2}, {{I(5), I(4)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(2)}, 2}, {{I(1), I(3)}, 2}}));
  // (2, 2) x -1: series 2 -> (2, 2) x -1.
  run.Step({{"materialize.public.t", M({{{I(2), I(2)}, -1}})}});
  EXPECT_MS(run.contents(),
            M({{{I(1), I(2)}, 2}, {{I(1), I(3)}, 2}, {{I(2), I(2)}, -1}}));
}

// --------------------------------------------------------------- Reduce

TEST(SnapshotTest, ReduceAccumulableSumAndCount) {
  Runner run(R"(Explained Query:
  Reduce::Accumulable
    simple_aggrs[0]=(0, sum(#1{b}))
    simple_aggrs[1]=(1, count(*))
    key_plan
      project=(#0)
    val_plan
      project=(#1, #2)
      map=(true)
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             M({{{I(1), I(5)}, 1}, {{I(1), I(7)}, 1}, {{I(2), I(3)}, 2}})}});
  EXPECT_MS(run.contents(),
            M({{{I(1), I(12), I(2)}, 1}, {{I(2), I(6), I(2)}, 1}}));
  Multiset diff = run.Step(
      {{"materialize.public.t", M({{{I(1), I(5)}, -1}, {{I(3), Null()}, 1}})}});
  // Group 2 is unchanged; sum over only NULL is NULL, count(*) counts it.
  EXPECT_MS(diff, M({{{I(1), I(12), I(2)}, -1},
                     {{I(1), I(7), I(1)}, 1},
                     {{I(3), Null(), I(1)}, 1}}));
  // Emptying a group removes its row.
  run.Step({{"materialize.public.t", M({{{I(2), I(3)}, -2}})}});
  EXPECT_MS(run.contents(),
            M({{{I(1), I(7), I(1)}, 1}, {{I(3), Null(), I(1)}, 1}}));
}

TEST(SnapshotTest, ReduceHierarchicalMinMax) {
  Runner run(R"(Explained Query:
  Reduce::Hierarchical
    aggr_funcs=[min, max]
    buckets=[4096, 16]
    key_plan
      project=(#0)
    val_plan
      project=(#1, #1)
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t", M({{{I(1), I(5)}, 1},
                                        {{I(1), I(7)}, 1},
                                        {{I(1), I(-2)}, 1},
                                        {{I(2), I(3)}, 2}})}});
  EXPECT_MS(run.contents(),
            M({{{I(1), I(-2), I(7)}, 1}, {{I(2), I(3), I(3)}, 1}}));
  run.Step(
      {{"materialize.public.t",
        M({{{I(1), I(-2)}, -1}, {{I(1), I(7)}, -1}, {{I(3), Null()}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(5), I(5)}, 1},
                               {{I(2), I(3), I(3)}, 1},
                               {{I(3), Null(), Null()}, 1}}));
}

constexpr char kDistinct[] = R"(Explained Query:
  Reduce::Distinct
    key_plan
      project=(#0)
    val_plan
      project=()
    Get::Collection materialize.public.t
      raw=true
)";

TEST(SnapshotTest, ReduceDistinct) {
  Runner run(kDistinct, {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             M({{{I(1), I(5)}, 3}, {{I(1), I(7)}, 1}, {{I(2), I(3)}, 2}})}});
  EXPECT_MS(run.contents(), M({{{I(1)}, 1}, {{I(2)}, 1}}));
  Multiset diff = run.Step(
      {{"materialize.public.t", M({{{I(2), I(3)}, -2}, {{I(3), I(0)}, 1}})}});
  EXPECT_MS(diff, M({{{I(2)}, -1}, {{I(3)}, 1}}));
}

TEST(SnapshotTest, ReduceNegativeMultiplicityIsAnError) {
  Runner run(kDistinct, {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t", M({{{I(1), I(5)}, 1}})}});
  // Key 1 nets to zero (fine), key 4 to -1 (an error).
  absl::Status error = run.StepError(
      {{"materialize.public.t", M({{{I(1), I(5)}, -1}, {{I(4), I(0)}, -1}})}});
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(error.message().find("LirId(2) Reduce::Distinct: negative"),
            std::string::npos)
      << error;
}

// ------------------------------------------------------------------- TopK

TEST(SnapshotTest, TopKLimitAndOffsetPerGroup) {
  Runner run(R"(Explained Query:
  TopK::Basic group_by=[#0] order_by=[#1 asc nulls_last] limit=2 offset=1
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  // Group 1 in order: 3, 3, 5, 9, null; rows 2 and 3 are 3 and 5.
  // Group 2 has one row, skipped by the offset.
  run.Step({{"materialize.public.t", M({{{I(1), I(5)}, 1},
                                        {{I(1), I(3)}, 2},
                                        {{I(1), I(9)}, 1},
                                        {{I(1), Null()}, 1},
                                        {{I(2), I(4)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(3)}, 1}, {{I(1), I(5)}, 1}}));
  // Group 1: 3, 5, 9, null -> 5, 9. Group 2: 1, 4 -> 4.
  run.Step(
      {{"materialize.public.t", M({{{I(1), I(3)}, -1}, {{I(2), I(1)}, 1}})}});
  EXPECT_MS(run.contents(),
            M({{{I(1), I(5)}, 1}, {{I(1), I(9)}, 1}, {{I(2), I(4)}, 1}}));
}

TEST(SnapshotTest, TopKMonotonicTop1) {
  Runner run(R"(Explained Query:
  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_last]
    Get::Collection materialize.public.t
      raw=true
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t", M({{{I(1), I(5)}, 1},
                                        {{I(1), I(9)}, 2},
                                        {{I(1), Null()}, 1},
                                        {{I(2), I(4)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(9)}, 1}, {{I(2), I(4)}, 1}}));
}

// ------------------------------------- Negate, Union, Threshold, SetDifference

TEST(SnapshotTest, NegateAndUnion) {
  Runner run(R"(Explained Query:
  Union
    Get::PassArrangements materialize.public.t
      raw=true
    Negate
      Get::PassArrangements materialize.public.t
        raw=true
    Negate
      Get::PassArrangements materialize.public.u
        raw=true
    Constant
      - (7)
)",
             {{"materialize.public.t", 1}, {"materialize.public.u", 1}});
  ASSERT_TRUE(run.ok());
  // t cancels itself; u is negated; the constant is added.
  run.Step({{"materialize.public.t", M({{{I(1)}, 2}})},
            {"materialize.public.u", M({{{I(1)}, 1}, {{I(7)}, -3}})}});
  EXPECT_MS(run.contents(), M({{{I(1)}, -1}, {{I(7)}, 4}}));
}

// EXCEPT ALL both ways: Threshold over Union(t, Negate(u)) and the fused
// SetDifference(t, u) compute max(0, count_t - count_u).
constexpr char kThresholdExcept[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        Get::Collection materialize.public.t
          raw=true
        Negate
          Get::Collection materialize.public.u
            raw=true
)";

constexpr char kSetDifference[] = R"(Explained Query:
  SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    base_key=[#0]
    subtract_key=[#0]
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

class ExceptAllTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ExceptAllTest, RetractionsAndNegativeCounts) {
  Runner run(GetParam(),
             {{"materialize.public.t", 1}, {"materialize.public.u", 1}});
  ASSERT_TRUE(run.ok());
  // t = {1 x3, 2, 3}, u = {1, 3 x2, 4}: net 1 x2, 2 x1, 3 x-1, 4 x-1.
  run.Step(
      {{"materialize.public.t", M({{{I(1)}, 3}, {{I(2)}, 1}, {{I(3)}, 1}})},
       {"materialize.public.u", M({{{I(1)}, 1}, {{I(3)}, 2}, {{I(4)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1)}, 2}, {{I(2)}, 1}}));
  // u retracts its 1, t its 2: net 1 x3, 3 x-1, 4 x-1.
  Multiset diff = run.Step({{"materialize.public.t", M({{{I(2)}, -1}})},
                            {"materialize.public.u", M({{{I(1)}, -1}})}});
  EXPECT_MS(diff, M({{{I(1)}, 1}, {{I(2)}, -1}}));
  // t gets 5 x-2 (negative in t); u's 4 goes to -2: net 4 x2, 5 x-2.
  run.Step({{"materialize.public.t", M({{{I(5)}, -2}})},
            {"materialize.public.u", M({{{I(4)}, -3}})}});
  EXPECT_MS(run.contents(), M({{{I(1)}, 3}, {{I(4)}, 2}}));
}

INSTANTIATE_TEST_SUITE_P(Forms, ExceptAllTest,
                         ::testing::Values(kThresholdExcept, kSetDifference));

// --------------------------------------------------------------- ArrangeBy

TEST(SnapshotTest, ArrangeByAppliesItsInputMfp) {
  Runner run(R"(Explained Query:
  ArrangeBy
    input_key=[#0]
    project=(#1, #0)
    filter=((#0) IS NOT NULL)
    raw=false
    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)",
             {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             M({{{I(1), S("a")}, 2}, {{Null(), S("b")}, 1}})}});
  EXPECT_MS(run.contents(), M({{{S("a"), I(1)}, 2}}));
}

// ------------------------------------------------------------ Build errors

absl::Status BuildError(const std::string& text,
                        absl::flat_hash_map<std::string, int> globals) {
  Document doc = ParseOrDie(text);
  if (doc.objects.empty()) return absl::InternalError("no plan");
  DataflowOptions options;
  options.globals = std::move(globals);
  return MakeSnapshotDataflow(*doc.objects[0].plan, options).status();
}

TEST(SnapshotTest, UnsupportedFunctionFailsAtBuild) {
  absl::Status status = BuildError(R"(Explained Query:
  Mfp
    project=(#1)
    map=(frobnicate(#0))
    Get::Collection materialize.public.t
      raw=true
)",
                                   {{"materialize.public.t", 1}});
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(status.message().find("unsupported function frobnicate"),
            std::string::npos)
      << status;
}

TEST(SnapshotTest, MzNowOutsideATemporalFilterFailsAtBuild) {
  // A temporal bound is fine on a Get (temporal.h); mz_now() inside a
  // Reduce's key plan, which Materialize evaluates without time, is not.
  absl::Status status = BuildError(R"(Explained Query:
  Reduce::Distinct
    key_plan
      project=(#0)
      filter=((mz_now() < #1))
    val_plan
      project=()
    Get::Collection materialize.public.events
      project=(#0, #1)
      TemporalFilter: mz_now() < #1
      raw=true
)",
                                   {{"materialize.public.events", 2}});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(
      status.message().find("LirId(2) Reduce::Distinct: mz_now() in a filter"),
      std::string::npos)
      << status;
}

TEST(SnapshotTest, MissingGlobalAndUnboundLocalFailAtBuild) {
  absl::Status missing = BuildError(kDistinct, {});
  EXPECT_EQ(missing.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(
      missing.message().find("no data for collection materialize.public.t"),
      std::string::npos)
      << missing;
  absl::Status unbound = BuildError(R"(Explained Query:
  Get::PassArrangements l4
    raw=true
)",
                                    {});
  EXPECT_NE(unbound.message().find("l4 is not bound here"), std::string::npos)
      << unbound;
}

TEST(SnapshotTest, UnconsolidatedChangesAreAccepted) {
  Runner run(R"(Explained Query:
  Get::PassArrangements materialize.public.t
    raw=true
)",
             {{"materialize.public.t", 1}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.t",
             Multiset{{{I(2)}, 1}, {{I(1)}, 1}, {{I(2)}, 1}, {{I(1)}, -1}}}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}}));
}

TEST(SnapshotTest, RoundsMustIncrease) {
  // Rounds may be skipped (after the data's last round a run steps only
  // the rounds temporal filters have updates due), never repeated.
  Runner run(kDistinct, {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(run.dataflow().Step(2, {}).ok());
  EXPECT_EQ(run.dataflow().Step(2, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(run.dataflow().Step(1, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SnapshotTest, ChangesOfTheWrongWidthAreRejected) {
  Runner run(kDistinct, {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
  absl::Status error =
      run.StepError({{"materialize.public.t", M({{{I(1)}, 1}})}});
  EXPECT_EQ(error.code(), absl::StatusCode::kInvalidArgument) << error;
}

}  // namespace
}  // namespace lir::eval
