// Tests of the incremental engine (include/lir/eval/incremental.h): the fused
// SetDifference against the Threshold it replaces (outputs, arrangements,
// fuel, compaction, projecting arms, memory at small scale), and agreement
// of every operator with the snapshot engine. The other native operators
// (reduce, joins, Let, TopK, the LetRec adapter, a deep chain) are in
// eval_incremental_operators_test.cc.
#include "lir/eval/incremental.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/snapshot.h"
#include "src/eval/trace.h"
#include "tests/support/eval_incremental_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

using namespace test::incremental;  // NOLINT: the shared test helpers

constexpr char kA[] = "materialize.public.a";
constexpr char kB[] = "materialize.public.b";

// ---- EXCEPT ALL over two indexed collections --------------------------------

std::string ThresholdExceptPlan() {
  return test::FixtureText("except_all_indexes.plan");
}

// The same with the negated arm first.
std::string ThresholdExceptSwappedPlan() {
  return test::FixtureText("except_all_ab_swapped.plan");
}

std::string FusedExceptPlan() {
  return test::FixtureText("except_all_ab_fused.plan");
}

// Rounds exercising multiplicities > 1, negative counts in the subtract
// arm, reappearance and changes that net to zero.
std::vector<GlobalChanges> ExceptRounds() {
  return {
      // a = {1, 2 x3, 3}, b = {2}
      {{kA, M({{I({1}), 1}, {I({2}), 3}, {I({3}), 1}})},
       {kB, M({{I({2}), 1}})}},
      // b gains 3 and 2 (2 now x2); a loses 1
      {{kA, M({{I({1}), -1}})}, {kB, M({{I({2}), 1}, {I({3}), 1}})}},
      // b goes negative on 4 (count -1): 4 appears once without being in a;
      // 3 is retracted from b: reappears
      {{kB, M({{I({4}), -1}, {I({3}), -1}})}},
      // net-zero: a and b both gain 5; 1 reappears in a
      {{kA, M({{I({5}), 1}, {I({1}), 1}})}, {kB, M({{I({5}), 1}})}},
      // nothing changes
      {},
  };
}

std::vector<Multiset> ExpectedExceptContents() {
  return {
      M({{I({1}), 1}, {I({2}), 2}, {I({3}), 1}}),
      M({{I({2}), 1}}),
      M({{I({2}), 1}, {I({3}), 1}, {I({4}), 1}}),
      M({{I({1}), 1}, {I({2}), 1}, {I({3}), 1}, {I({4}), 1}}),
      M({{I({1}), 1}, {I({2}), 1}, {I({3}), 1}, {I({4}), 1}}),
  };
}

TEST(IncrementalExcept, ThresholdBothArmOrdersAndFusedAgree) {
  for (const std::string& text :
       {ThresholdExceptPlan(), ThresholdExceptSwappedPlan(),
        FusedExceptPlan()}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, ExceptRounds());
    EXPECT_EQ(Contents(changes), ExpectedExceptContents()) << text;
    EXPECT_TRUE(changes[4].empty());
  }
}

TEST(IncrementalExcept, FusedKeepsNoTraceT) {
  Plan threshold(ThresholdExceptPlan());
  Plan fused(FusedExceptPlan());
  auto t = Build(threshold, Options({{kA, 1}, {kB, 1}}));
  auto f = Build(fused, Options({{kA, 1}, {kB, 1}}));
  ASSERT_NE(t, nullptr);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(
      Names(t->Arrangements()),
      (std::vector<std::string>{"Index materialize.public.a[[Column(0)]]",
                                "Index materialize.public.b[[Column(0)]]",
                                "ArrangeBy[[Column(0)]]", "Threshold local"}));
  EXPECT_EQ(Names(f->Arrangements()),
            (std::vector<std::string>{"Index materialize.public.a[[Column(0)]]",
                                      "Index materialize.public.b[[Column(0)]]",
                                      "SetDifference"}));
  for (const ArrangementStats& s : f->Arrangements()) {
    EXPECT_FALSE(s.adapter);
    EXPECT_EQ(s.object, "test");
  }
}

// a = {1, 2, 3, 4} at round 0, b = {3, 4} at round 1.
std::vector<GlobalChanges> LoadRounds() {
  return {{{kA, M({{I({1}), 1}, {I({2}), 1}, {I({3}), 1}, {I({4}), 1}})}},
          {{kB, M({{I({3}), 1}, {I({4}), 1}})}}};
}

TEST(IncrementalCompaction, EagerVersusNoneRecords) {
  struct Counts {
    uint64_t records;
    uint64_t batches;
    uint64_t bytes;
  };
  struct Expect {
    std::string plan;
    Compaction compaction;
    std::map<std::string, Counts> counts;
  };
  // Bytes, by the layout model (docs/evaluator.md): a key-only batch stores
  // each key (1 + 8 bytes) with a 4-byte offset, and one 16-byte (time,
  // diff) per key unless it repeats the last one stored, as every update of
  // a batch here does: keys * 13 + 16 per batch.
  const std::string ia = "Index materialize.public.a[[Column(0)]]";
  const std::string ib = "Index materialize.public.b[[Column(0)]]";
  std::vector<Expect> cases = {
      // Trace T gets +1..+4 then -3, -4: six records until compacted; the
      // Threshold output emits +1..+4 then -3, -4 the same way.
      {ThresholdExceptPlan(),
       Compaction::kNone,
       {{ia, {4, 1, 4 * 13 + 16}},
        {ib, {2, 1, 2 * 13 + 16}},
        {"ArrangeBy[[Column(0)]]", {6, 2, 4 * 13 + 16 + 2 * 13 + 16}},
        {"Threshold local", {6, 2, 4 * 13 + 16 + 2 * 13 + 16}}}},
      {ThresholdExceptPlan(),
       Compaction::kEager,
       {{ia, {4, 1, 4 * 13 + 16}},
        {ib, {2, 1, 2 * 13 + 16}},
        {"ArrangeBy[[Column(0)]]", {2, 1, 2 * 13 + 16}},
        {"Threshold local", {2, 1, 2 * 13 + 16}}}},
      // The fused operator keeps only its output: same history, no T.
      {FusedExceptPlan(),
       Compaction::kNone,
       {{ia, {4, 1, 4 * 13 + 16}},
        {ib, {2, 1, 2 * 13 + 16}},
        {"SetDifference", {6, 2, 4 * 13 + 16 + 2 * 13 + 16}}}},
      {FusedExceptPlan(),
       Compaction::kEager,
       {{ia, {4, 1, 4 * 13 + 16}},
        {ib, {2, 1, 2 * 13 + 16}},
        {"SetDifference", {2, 1, 2 * 13 + 16}}}},
  };
  for (const Expect& c : cases) {
    Plan plan(c.plan);
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}, c.compaction));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, LoadRounds());
    EXPECT_EQ(Contents(changes).back(), M({{I({1}), 1}, {I({2}), 1}}));
    std::vector<ArrangementStats> stats = df->Arrangements();
    EXPECT_EQ(stats.size(), c.counts.size());
    for (const auto& [name, want] : c.counts) {
      const ArrangementStats* s = Find(stats, name);
      ASSERT_NE(s, nullptr) << name;
      EXPECT_EQ(s->records, want.records) << name;
      EXPECT_EQ(s->batches, want.batches) << name;
      EXPECT_EQ(s->bytes, want.bytes) << name;
    }
  }
}

TEST(IncrementalFuel, SameOutputsMoreActivations) {
  Plan plan(FusedExceptPlan());
  std::vector<std::vector<Multiset>> outputs;
  std::vector<uint64_t> activations;
  for (uint64_t fuel : {0, 1, 2}) {
    auto df =
        Build(plan, Options({{kA, 1}, {kB, 1}}, Compaction::kEager, fuel));
    ASSERT_NE(df, nullptr);
    outputs.push_back(Steps(*df, ExceptRounds()));
    activations.push_back(df->Activations());
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  EXPECT_EQ(outputs[0], outputs[2]);
  // Dirty keys per round: 3, 3, 2, 2, 0. Unlimited: one activation per
  // round with dirty keys (4); fuel 1: 10; fuel 2: 2 + 2 + 1 + 1 = 6. The
  // other operators (two Gets, every round) are the same in all runs.
  EXPECT_EQ(activations[1] - activations[0], 10u - 4u);
  EXPECT_EQ(activations[2] - activations[0], 6u - 4u);
}

// ---- The projecting LEFT JOIN anti-branch -----------------------------------

constexpr char kCustomers[] = "materialize.public.customers";
constexpr char kOrders[] = "materialize.public.orders";

std::string AntiThresholdPlan() {
  return test::FixtureText("antijoin_threshold.plan");
}

std::string AntiFusedPlan() { return test::FixtureText("antijoin_fused.plan"); }

std::vector<GlobalChanges> AntiRounds() {
  return {
      {{kOrders, M({{I({100, 1}), 1},
                    {I({101, 1}), 1},
                    {I({102, 2}), 1},
                    {I({103, 3}), 1}})},
       {kCustomers, M({{I({1, 7}), 1}, {I({1, 8}), 1}})}},
      {{kCustomers, M({{I({1, 7}), -1}, {I({1, 8}), -1}, {I({2, 9}), 1}})}},
      {{kOrders, M({{I({103, 3}), -1}, {I({104, 4}), 1}})},
       {kCustomers, M({{I({4, 5}), 1}})}},
  };
}

TEST(IncrementalExcept, ProjectingArmsThroughLetAndReduce) {
  // orders(id, customer); customers(customer, name). Output: customers of
  // orders with no customers row, once (distinct minus customer rows, a
  // customer with two rows subtracting 2).
  std::vector<GlobalChanges> rounds = AntiRounds();
  std::vector<Multiset> expected = {
      M({{I({2}), 1}, {I({3}), 1}}),
      M({{I({1}), 1}, {I({3}), 1}}),
      M({{I({1}), 1}}),
  };
  for (const std::string& text : {AntiThresholdPlan(), AntiFusedPlan()}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kOrders, 2}, {kCustomers, 2}}));
    ASSERT_NE(df, nullptr);
    EXPECT_EQ(Contents(Steps(*df, rounds)), expected) << text;
  }
  Plan fused(AntiFusedPlan());
  auto df = Build(fused, Options({{kOrders, 2}, {kCustomers, 2}}));
  ASSERT_NE(df, nullptr);
  // The arms' arrangements are l0's ArrangeBy and l1's DistinctBy output.
  EXPECT_EQ(
      Names(df->Arrangements()),
      (std::vector<std::string>{"ArrangeBy[[Column(0)]]", "Arranged DistinctBy",
                                "DistinctBy", "SetDifference"}));
  Plan threshold(AntiThresholdPlan());
  auto dt = Build(threshold, Options({{kOrders, 2}, {kCustomers, 2}}));
  ASSERT_NE(dt, nullptr);
  EXPECT_EQ(Names(dt->Arrangements()),
            (std::vector<std::string>{
                "ArrangeBy[[Column(0)]]", "Arranged DistinctBy", "DistinctBy",
                "ArrangeBy[[Column(0)]]", "Threshold local"}));
}

TEST(IncrementalExcept, UnresolvableArmFailsToBuild) {
  Plan plan(test::FixtureText("set_difference_unresolvable_arm.plan"));
  auto df = MakeIncrementalDataflow(plan.root(), Options({{kA, 1}, {kB, 1}}));
  ASSERT_FALSE(df.ok());
  EXPECT_NE(df.status().message().find("subtract arm"), std::string::npos)
      << df.status();
  EXPECT_EQ(df.status().message().substr(0, 6), "LirId(") << df.status();
}

// The runner analyses each object's arity once and hands the analysis to
// the engine, which keeps that one instead of analysing the plan again.
TEST(IncrementalBuild, UsesTheArityAnalysisItIsGiven) {
  Plan plan(test::FixtureText("negate_get_a.plan"));
  DataflowOptions options = Options({{kA, 1}});
  absl::StatusOr<interp::Analysis<interp::Arity>> analysis =
      interp::AnalyzeArity(plan.root(), {{kA, 1}});
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto shared = std::make_shared<const interp::Analysis<interp::Arity>>(
      *std::move(analysis));
  options.arities = shared;
  auto df = MakeIncrementalDataflow(plan.root(), options);
  ASSERT_TRUE(df.ok()) << df.status();
  options.arities.reset();
  // The dataflow keeps the caller's analysis (its operators point into it)
  // for as long as it lives, and lets it go with it.
  EXPECT_GE(shared.use_count(), 2);
  df->reset();
  EXPECT_EQ(shared.use_count(), 1);
}

// MonotonicTop1 offers its output arranged by the group key: a
// SetDifference arm reads it through a projecting Get::Arrangement.
TEST(IncrementalExcept, ArmReadsMonotonicTop1Output) {
  Plan plan(test::FixtureText("except_arm_monotonic_top1.plan"));
  auto df = Build(plan, Options({{kA, 1}, {kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes =
      Steps(*df, {{{kA, M({{I({1}), 1}, {I({2}), 2}})},
                   {kT, M({{I({2, 5}), 1}, {I({2, 6}), 1}, {I({3, 1}), 1}})}},
                  {{kT, M({{I({2, 5}), -1}, {I({2, 6}), -1}})}}});
  // Top1 keeps one row per group: group 2 subtracts 1 from a's two 2s.
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{M({{I({1}), 1}, {I({2}), 1}}),
                                   M({{I({1}), 1}, {I({2}), 2}})}));
  EXPECT_EQ(Names(df->Arrangements()),
            (std::vector<std::string>{
                "Arranged MonotonicTop1 partial [val: empty]", "MonotonicTop1",
                "Index materialize.public.a[[Column(0)]]", "SetDifference"}));
}

// ---- ../shared/reference/SEMANTICS.md 6 at small scale
// -----------------------------------------

// SELECT k FROM a EXCEPT SELECT k FROM b, neither side indexed: both arms
// are ArrangeBy input_key=[#0] over a Reduce::Distinct.
std::string DistinctExcept(bool fused) {
  return test::FixtureText(fused ? "except_distinct_ab_fused.plan"
                                 : "except_distinct_ab.plan");
}

TEST(IncrementalMemory, FusionRemovesTraceTUnderBothSchedules) {
  // a = 1000 keys at round 0, b = its upper 500 keys at round 1.
  GlobalChanges r0, r1;
  for (int64_t k = 0; k < 1000; ++k) r0[kA].emplace_back(I({k}), 1);
  for (int64_t k = 500; k < 1000; ++k) r1[kB].emplace_back(I({k}), 1);
  const std::vector<std::string> distinct = {
      "Arranged DistinctBy", "DistinctBy", "Arranged DistinctBy", "DistinctBy"};
  struct Case {
    bool fused;
    Compaction compaction;
    std::vector<std::pair<std::string, uint64_t>> records;
  };
  std::vector<Case> cases = {
      {false,
       Compaction::kNone,
       {{"ArrangeBy[[Column(0)]]", 1500}, {"Threshold local", 1500}}},
      {false,
       Compaction::kEager,
       {{"ArrangeBy[[Column(0)]]", 500}, {"Threshold local", 500}}},
      {true, Compaction::kNone, {{"SetDifference", 1500}}},
      {true, Compaction::kEager, {{"SetDifference", 500}}},
  };
  for (const Case& c : cases) {
    Plan plan(DistinctExcept(c.fused));
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}, c.compaction));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> contents = Contents(Steps(*df, {r0, r1}));
    EXPECT_EQ(contents[1].size(), 500u);
    EXPECT_EQ(contents[1].front(), RowDiff(I({0}), 1));
    std::vector<ArrangementStats> stats = df->Arrangements();
    std::vector<std::string> names = distinct;
    std::vector<uint64_t> records = {1000, 1000, 500, 500};
    for (const auto& [name, n] : c.records) {
      names.push_back(name);
      records.push_back(n);
    }
    ASSERT_EQ(Names(stats), names);
    for (size_t i = 0; i < stats.size(); ++i) {
      EXPECT_EQ(stats[i].records, records[i]) << names[i];
    }
  }
}

TEST(IncrementalBuild, UnknownGlobalIsAnError) {
  Plan plan(FusedExceptPlan());
  auto df = MakeIncrementalDataflow(plan.root(), Options({{kA, 1}}));
  ASSERT_FALSE(df.ok());
  EXPECT_NE(
      df.status().message().find("no data for collection materialize.public.b"),
      std::string::npos)
      << df.status();
}

// ---- Agreement with the snapshot engine
// --------------------------------------

TEST(IncrementalVersusSnapshot, SameChangesEveryRound) {
  struct Case {
    std::string text;
    std::map<std::string, int> globals;
    std::vector<GlobalChanges> rounds;
  };
  std::vector<Case> cases = {
      {ThresholdExceptPlan(), {{kA, 1}, {kB, 1}}, ExceptRounds()},
      {FusedExceptPlan(), {{kA, 1}, {kB, 1}}, ExceptRounds()},
      {CountSumPlan(), {{kT, 2}}, ReduceRounds()},
      {MinMaxPlan(), {{kT, 2}}, ReduceRounds()},
      {Linear3Plan(), {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {Delta3Plan(), {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {DeltaOnePathPlan(), {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {AntiFusedPlan(), {{kOrders, 2}, {kCustomers, 2}}, AntiRounds()},
      {AntiThresholdPlan(), {{kOrders, 2}, {kCustomers, 2}}, AntiRounds()},
  };
  for (const Case& c : cases) {
    Plan plan(c.text);
    DataflowOptions options = Options(c.globals);
    auto incremental = Build(plan, options);
    absl::StatusOr<std::unique_ptr<Dataflow>> snapshot =
        MakeSnapshotDataflow(plan.root(), options);
    ASSERT_NE(incremental, nullptr);
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
    EXPECT_EQ(Steps(*incremental, c.rounds), Steps(**snapshot, c.rounds))
        << c.text;
  }
}

}  // namespace
}  // namespace lir::eval
