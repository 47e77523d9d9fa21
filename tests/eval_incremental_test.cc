// Tests of the incremental engine (src/interp/eval/incremental.h): multi-round
// updates with retractions through every native operator, the fused
// SetDifference against the Threshold it replaces (outputs, arrangements,
// fuel, compaction), the LetRec adapter, a deep chain, and agreement with
// the snapshot engine.
#include "src/interp/eval/incremental.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "src/explain/text.h"
#include "src/interp/eval/snapshot.h"
#include "src/interp/eval/trace.h"

namespace lir::eval {
namespace {

constexpr char kA[] = "materialize.public.a";
constexpr char kB[] = "materialize.public.b";

DataRow I(std::initializer_list<int64_t> values) {
  DataRow row;
  for (int64_t v : values) row.push_back(Datum::Int(v));
  return row;
}

Multiset M(std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(rows));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Multiset{};
}

// A parsed plan kept alive for the dataflow built over it.
struct Plan {
  explicit Plan(std::string_view text) {
    absl::StatusOr<Document> parsed = explain::ParseText(text);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) doc = std::move(*parsed);
  }
  const Node& root() const { return *doc.objects.at(0).plan; }
  Document doc;
};

DataflowOptions Options(std::map<std::string, int> globals,
                        Compaction compaction = Compaction::kEager,
                        uint64_t fuel = 0) {
  DataflowOptions options;
  options.object = "test";
  for (auto& [name, arity] : globals) options.globals[name] = arity;
  options.compaction = compaction;
  options.fuel = fuel;
  return options;
}

std::unique_ptr<Dataflow> Build(const Plan& plan,
                                const DataflowOptions& options) {
  absl::StatusOr<std::unique_ptr<Dataflow>> df =
      MakeIncrementalDataflow(plan.root(), options);
  EXPECT_TRUE(df.ok()) << df.status();
  return df.ok() ? std::move(*df) : nullptr;
}

// Steps `df` through `rounds`; returns each round's output changes.
std::vector<Multiset> Steps(Dataflow& df,
                            const std::vector<GlobalChanges>& rounds) {
  std::vector<Multiset> out;
  for (size_t r = 0; r < rounds.size(); ++r) {
    absl::StatusOr<Multiset> step = df.Step(r, rounds[r]);
    EXPECT_TRUE(step.ok()) << "round " << r << ": " << step.status();
    out.push_back(step.ok() ? *step : Multiset{});
  }
  return out;
}

// Contents after each round (running sums of the changes).
std::vector<Multiset> Contents(const std::vector<Multiset>& changes) {
  std::vector<Multiset> out;
  Multiset acc;
  for (const Multiset& c : changes) {
    absl::StatusOr<Multiset> sum = AddMultisets(acc, c);
    EXPECT_TRUE(sum.ok());
    acc = *sum;
    out.push_back(acc);
  }
  return out;
}

const ArrangementStats* Find(const std::vector<ArrangementStats>& stats,
                             const std::string& name) {
  for (const ArrangementStats& s : stats) {
    if (s.operator_name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> Names(const std::vector<ArrangementStats>& stats) {
  std::vector<std::string> names;
  for (const ArrangementStats& s : stats) names.push_back(s.operator_name);
  return names;
}

// ---- EXCEPT ALL over two indexed collections --------------------------------

constexpr char kThresholdExcept[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        Get::PassArrangements materialize.public.a
          raw=false
          arrangements[0]={ key=[#0], permutation=id, thinning=() }
        Negate
          Get::PassArrangements materialize.public.b
            raw=false
            arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

// The same with the negated arm first.
constexpr char kThresholdExceptSwapped[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        Negate
          Get::PassArrangements materialize.public.b
            raw=false
            arrangements[0]={ key=[#0], permutation=id, thinning=() }
        Get::PassArrangements materialize.public.a
          raw=false
          arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

constexpr char kFusedExcept[] = R"(Explained Query:
  SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    base_key=[#0]
    subtract_key=[#0]
    Get::PassArrangements materialize.public.a
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
    Get::PassArrangements materialize.public.b
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

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
  for (const char* text :
       {kThresholdExcept, kThresholdExceptSwapped, kFusedExcept}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, ExceptRounds());
    EXPECT_EQ(Contents(changes), ExpectedExceptContents()) << text;
    EXPECT_TRUE(changes[4].empty());
  }
}

TEST(IncrementalExcept, FusedKeepsNoTraceT) {
  Plan threshold(kThresholdExcept);
  Plan fused(kFusedExcept);
  auto t = Build(threshold, Options({{kA, 1}, {kB, 1}}));
  auto f = Build(fused, Options({{kA, 1}, {kB, 1}}));
  ASSERT_NE(t, nullptr);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(Names(t->Arrangements()),
            (std::vector<std::string>{
                "Index materialize.public.a[[Column(0)]]",
                "Index materialize.public.b[[Column(0)]]",
                "ArrangeBy[[Column(0)]]", "Threshold local"}));
  EXPECT_EQ(Names(f->Arrangements()),
            (std::vector<std::string>{
                "Index materialize.public.a[[Column(0)]]",
                "Index materialize.public.b[[Column(0)]]", "SetDifference"}));
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
  struct Expect {
    const char* plan;
    Compaction compaction;
    std::map<std::string, std::pair<uint64_t, uint64_t>> records_batches;
  };
  const std::string ia = "Index materialize.public.a[[Column(0)]]";
  const std::string ib = "Index materialize.public.b[[Column(0)]]";
  std::vector<Expect> cases = {
      // Trace T gets +1..+4 then -3, -4: six records until compacted; the
      // Threshold output emits +1..+4 then -3, -4 the same way.
      {kThresholdExcept, Compaction::kNone,
       {{ia, {4, 1}}, {ib, {2, 1}}, {"ArrangeBy[[Column(0)]]", {6, 2}},
        {"Threshold local", {6, 2}}}},
      {kThresholdExcept, Compaction::kEager,
       {{ia, {4, 1}}, {ib, {2, 1}}, {"ArrangeBy[[Column(0)]]", {2, 1}},
        {"Threshold local", {2, 1}}}},
      // The fused operator keeps only its output: same history, no T.
      {kFusedExcept, Compaction::kNone,
       {{ia, {4, 1}}, {ib, {2, 1}}, {"SetDifference", {6, 2}}}},
      {kFusedExcept, Compaction::kEager,
       {{ia, {4, 1}}, {ib, {2, 1}}, {"SetDifference", {2, 1}}}},
  };
  for (const Expect& c : cases) {
    Plan plan(c.plan);
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}, c.compaction));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, LoadRounds());
    EXPECT_EQ(Contents(changes).back(), M({{I({1}), 1}, {I({2}), 1}}));
    std::vector<ArrangementStats> stats = df->Arrangements();
    EXPECT_EQ(stats.size(), c.records_batches.size());
    for (const auto& [name, rb] : c.records_batches) {
      const ArrangementStats* s = Find(stats, name);
      ASSERT_NE(s, nullptr) << name;
      EXPECT_EQ(s->records, rb.first) << name;
      EXPECT_EQ(s->batches, rb.second) << name;
      // Layout model: an integer key (1 + 8), empty value, 16 bytes of time
      // and diff per record, 64 per batch.
      EXPECT_EQ(s->bytes, rb.first * (9 + 16) + rb.second * 64) << name;
    }
  }
}

TEST(IncrementalFuel, SameOutputsMoreActivations) {
  Plan plan(kFusedExcept);
  std::vector<std::vector<Multiset>> outputs;
  std::vector<uint64_t> activations;
  for (uint64_t fuel : {0, 1, 2}) {
    auto df = Build(plan, Options({{kA, 1}, {kB, 1}}, Compaction::kEager, fuel));
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

constexpr char kAntiThreshold[] = R"(Explained Query:
  With
    cte l0 =
      ArrangeBy
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
        Get::Collection materialize.public.customers
          raw=true
    cte l1 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Get::Collection materialize.public.orders
          project=(#1)
          raw=true
  Return
    Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
      ArrangeBy
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=() }
        Union consolidate_output=true
          Negate
            Get::Arrangement l0
              project=(#0)
              key=#0
              raw=false
              arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
          ArrangeBy
            input_key=[#0]
            raw=true
            Get::PassArrangements l1
              raw=false
              arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

constexpr char kAntiFused[] = R"(Explained Query:
  With
    cte l0 =
      ArrangeBy
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
        Get::Collection materialize.public.customers
          raw=true
    cte l1 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Get::Collection materialize.public.orders
          project=(#1)
          raw=true
  Return
    SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
      base_key=[#0]
      subtract_key=[#0]
      ArrangeBy
        input_key=[#0]
        raw=true
        Get::PassArrangements l1
          raw=false
          arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Get::Arrangement l0
        project=(#0)
        key=#0
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)";

std::vector<GlobalChanges> AntiRounds() {
  return {
      {{kOrders, M({{I({100, 1}), 1}, {I({101, 1}), 1}, {I({102, 2}), 1},
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
  for (const char* text : {kAntiThreshold, kAntiFused}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kOrders, 2}, {kCustomers, 2}}));
    ASSERT_NE(df, nullptr);
    EXPECT_EQ(Contents(Steps(*df, rounds)), expected) << text;
  }
  Plan fused(kAntiFused);
  auto df = Build(fused, Options({{kOrders, 2}, {kCustomers, 2}}));
  ASSERT_NE(df, nullptr);
  // The arms' arrangements are l0's ArrangeBy and l1's DistinctBy output.
  EXPECT_EQ(Names(df->Arrangements()),
            (std::vector<std::string>{"ArrangeBy[[Column(0)]]",
                                      "Arranged DistinctBy", "DistinctBy",
                                      "SetDifference"}));
  Plan threshold(kAntiThreshold);
  auto dt = Build(threshold, Options({{kOrders, 2}, {kCustomers, 2}}));
  ASSERT_NE(dt, nullptr);
  EXPECT_EQ(Names(dt->Arrangements()),
            (std::vector<std::string>{"ArrangeBy[[Column(0)]]",
                                      "Arranged DistinctBy", "DistinctBy",
                                      "ArrangeBy[[Column(0)]]",
                                      "Threshold local"}));
}

TEST(IncrementalExcept, UnresolvableArmFailsToBuild) {
  Plan plan(R"(Explained Query:
  SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    base_key=[#0]
    subtract_key=[#0]
    Get::PassArrangements materialize.public.a
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
    Get::Collection materialize.public.b
      raw=true
)");
  auto df = MakeIncrementalDataflow(plan.root(), Options({{kA, 1}, {kB, 1}}));
  ASSERT_FALSE(df.ok());
  EXPECT_NE(df.status().message().find("subtract arm"), std::string::npos)
      << df.status();
  EXPECT_EQ(df.status().message().substr(0, 6), "LirId(") << df.status();
}

// ---- Reduce ------------------------------------------------------------------

constexpr char kT[] = "materialize.public.t";

// t(k, v): r0 (1,10) (1,20) (2,5); r1 -(1,20) +(2,7)x2; r2 -(2,5) -(2,7)x2.
std::vector<GlobalChanges> ReduceRounds() {
  return {
      {{kT, M({{I({1, 10}), 1}, {I({1, 20}), 1}, {I({2, 5}), 1}})}},
      {{kT, M({{I({1, 20}), -1}, {I({2, 7}), 2}})}},
      {{kT, M({{I({2, 5}), -1}, {I({2, 7}), -2}})}},
  };
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

constexpr char kCountSum[] = R"(Explained Query:
  Reduce::Accumulable
    simple_aggrs[0]=(0, count(*))
    simple_aggrs[1]=(1, sum(#1))
    key_plan
      project=(#0)
    val_plan
      project=(#2, #1)
      map=(true)
    Get::Collection materialize.public.t
      raw=true
)";

constexpr char kMinMax[] = R"(Explained Query:
  Reduce::Hierarchical
    aggr_funcs=[min, max]
    buckets=[16]
    key_plan
      project=(#0)
    val_plan
      project=(#1, #1)
    Get::Collection materialize.public.t
      raw=true
)";

TEST(IncrementalReduce, DistinctCountSumMinMax) {
  struct Case {
    const char* text;
    std::vector<Multiset> contents;
    std::vector<std::string> arrangements;
  };
  std::vector<Case> cases = {
      {kDistinct,
       {M({{I({1}), 1}, {I({2}), 1}}), M({{I({1}), 1}, {I({2}), 1}}),
        M({{I({1}), 1}})},
       {"Arranged DistinctBy", "DistinctBy"}},
      {kCountSum,
       {M({{I({1, 2, 30}), 1}, {I({2, 1, 5}), 1}}),
        M({{I({1, 1, 10}), 1}, {I({2, 3, 19}), 1}}), M({{I({1, 1, 10}), 1}})},
       {"ArrangeAccumulable [val: empty]", "ReduceAccumulable"}},
      {kMinMax,
       {M({{I({1, 10, 20}), 1}, {I({2, 5, 5}), 1}}),
        M({{I({1, 10, 10}), 1}, {I({2, 5, 7}), 1}}), M({{I({1, 10, 10}), 1}})},
       {"Arrange ReduceMinsMaxes", "ReduceMinsMaxes"}},
  };
  for (const Case& c : cases) {
    Plan plan(c.text);
    auto df = Build(plan, Options({{kT, 2}}));
    ASSERT_NE(df, nullptr);
    std::vector<Multiset> changes = Steps(*df, ReduceRounds());
    EXPECT_EQ(Contents(changes), c.contents) << c.text;
    std::vector<ArrangementStats> stats = df->Arrangements();
    EXPECT_EQ(Names(stats), c.arrangements);
    // Eager compaction: one output record per live group.
    EXPECT_EQ(stats[1].records, 1u) << c.text;
  }
  // Distinct emits nothing in round 1: its keys did not change.
  Plan plan(kDistinct);
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  EXPECT_TRUE(Steps(*df, ReduceRounds())[1].empty());
}

TEST(IncrementalReduce, NegativeMultiplicityIsARoundErrorNamingTheNode) {
  Plan plan(kDistinct);
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  ASSERT_TRUE(df->Step(0, {{kT, M({{I({1, 10}), 1}})}}).ok());
  absl::StatusOr<Multiset> bad = df->Step(1, {{kT, M({{I({1, 10}), -2}})}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().substr(0, 25), "LirId(2) Reduce::Distinct")
      << bad.status();
  EXPECT_NE(bad.status().message().find("negative multiplicity"),
            std::string::npos)
      << bad.status();
  // A failed dataflow is not stepped again.
  EXPECT_FALSE(df->Step(2, {}).ok());
}

// ---- Joins -----------------------------------------------------------------

constexpr char kR[] = "materialize.public.r";
constexpr char kS[] = "materialize.public.s";
constexpr char kU[] = "materialize.public.u";

// r(a, b) join s(b, c) join u(c, d), output (a, b, c, d).
constexpr char kLinear3[] = R"(Explained Query:
  Join::Linear
    linear_stage[0]
      lookup={ relation=1, key=[#0] }
      stream={ key=[#1], thinning=(#0) }
    linear_stage[1]
      closure
        project=(#2, #1, #0, #3)
      lookup={ relation=2, key=[#0] }
      stream={ key=[#2], thinning=(#0, #1) }
    source={ relation=0, key=[#1] }
    ArrangeBy
      raw=true
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
      Get::Collection materialize.public.r
        raw=true
    Get::PassArrangements materialize.public.s
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)";

constexpr char kDelta3[] = R"(Explained Query:
  Join::Delta
    plan_path[0]
      delta_stage[1]
        closure
          project=(#2, #1, #0, #3)
        lookup={ relation=2, key=[#0] }
        stream={ key=[#2], thinning=(#0, #1) }
      delta_stage[0]
        lookup={ relation=1, key=[#0] }
        stream={ key=[#1], thinning=(#0) }
      source={ relation=0, raw }
    plan_path[1]
      delta_stage[1]
        closure
          project=(#2, #1, #0, #3)
        lookup={ relation=2, key=[#0] }
        stream={ key=[#1], thinning=(#0, #2) }
      delta_stage[0]
        lookup={ relation=0, key=[#1] }
        stream={ key=[#0], thinning=(#1) }
      source={ relation=1, raw }
    plan_path[2]
      delta_stage[1]
        closure
          project=(#3, #0, #1, #2)
        lookup={ relation=0, key=[#1] }
        stream={ key=[#2], thinning=(#0, #1) }
      delta_stage[0]
        lookup={ relation=1, key=[#1] }
        stream={ key=[#0], thinning=(#1) }
      source={ relation=2, raw }
    Get::PassArrangements materialize.public.r
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.s
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
      arrangements[1]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)";

// The join by nested loops over accumulated contents: an independent
// oracle for the 3-way join.
Multiset NestedLoops(const Multiset& r, const Multiset& s, const Multiset& u) {
  std::vector<RowDiff> out;
  for (const auto& [rr, dr] : r) {
    for (const auto& [sr, ds] : s) {
      if (rr[1] != sr[0]) continue;
      for (const auto& [ur, du] : u) {
        if (sr[1] != ur[0]) continue;
        out.emplace_back(DataRow{rr[0], rr[1], sr[1], ur[1]}, dr * ds * du);
      }
    }
  }
  return M(std::move(out));
}

std::vector<GlobalChanges> JoinRounds() {
  return {
      {{kR, M({{I({1, 10}), 1}, {I({2, 10}), 1}, {I({3, 20}), 1}})},
       {kS, M({{I({10, 100}), 1}, {I({20, 200}), 1}})},
       {kU, M({{I({100, 7}), 1}, {I({200, 8}), 1}})}},
      // Changes in all three relations in the same round.
      {{kR, M({{I({2, 10}), -1}, {I({4, 20}), 1}})},
       {kS, M({{I({10, 200}), 1}})},
       {kU, M({{I({100, 7}), -1}, {I({200, 9}), 1}})}},
      // Multiplicity 2 in r, a new u row.
      {{kR, M({{I({1, 10}), 1}})}, {kU, M({{I({100, 9}), 1}})}},
      // s is emptied.
      {{kS, M({{I({10, 100}), -1}, {I({20, 200}), -1}, {I({10, 200}), -1}})}},
      // s comes back partly, r loses a row in the same round.
      {{kS, M({{I({20, 200}), 1}})}, {kR, M({{I({3, 20}), -1}})}},
  };
}

TEST(IncrementalJoin, LinearAndDeltaThreeWayMatchNestedLoops) {
  std::vector<GlobalChanges> rounds = JoinRounds();
  std::vector<Multiset> expected;
  Multiset r, s, u;
  for (GlobalChanges& g : rounds) {
    r = *AddMultisets(r, g[kR]);
    s = *AddMultisets(s, g[kS]);
    u = *AddMultisets(u, g[kU]);
    expected.push_back(NestedLoops(r, s, u));
  }
  // Spot-check the oracle by hand at round 0: (1,10,100,7), (2,10,100,7),
  // (3,20,200,8).
  EXPECT_EQ(expected[0], M({{I({1, 10, 100, 7}), 1},
                            {I({2, 10, 100, 7}), 1},
                            {I({3, 20, 200, 8}), 1}}));
  EXPECT_TRUE(expected[3].empty());
  for (const char* text : {kLinear3, kDelta3}) {
    Plan plan(text);
    auto df = Build(plan, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
    ASSERT_NE(df, nullptr);
    EXPECT_EQ(Contents(Steps(*df, JoinRounds())), expected) << text;
  }
  Plan linear(kLinear3);
  auto df = Build(linear, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(df, nullptr);
  // Stage 0 streams r's ArrangeBy arrangement; stage 1's stream is arranged
  // by the join itself.
  EXPECT_EQ(Names(df->Arrangements()),
            (std::vector<std::string>{"ArrangeBy[[Column(1)]]",
                                      "Index materialize.public.s[[Column(0)]]",
                                      "Index materialize.public.u[[Column(0)]]",
                                      "JoinStage 1[[Column(2)]]"}));
}

// ---- Let, TopK, LetRec --------------------------------------------------------

TEST(IncrementalLet, BindingReadTwice) {
  Plan plan(R"(Explained Query:
  With
    cte l0 =
      Mfp
        project=(#1)
        filter=((#0 > 1))
        Get::Collection materialize.public.t
          raw=true
  Return
    Union
      Get::Collection l0
        raw=true
      Negate
        Get::Collection l0
          map=((#0 + 1))
          raw=true
      Get::Collection l0
        map=((#0 + 1))
        raw=true
)");
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes = Steps(
      *df, {{{kT, M({{I({1, 10}), 1}, {I({2, 20}), 2}})}},
            {{kT, M({{I({2, 20}), -1}, {I({3, 30}), 1}})}}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{M({{I({20}), 2}}),
                                   M({{I({20}), 1}, {I({30}), 1}})}));
}

TEST(IncrementalTopK, PerGroupRecomputation) {
  Plan plan(R"(Explained Query:
  TopK::Basic group_by=[#0] order_by=[#1 desc nulls_first] limit=2
    Get::Collection materialize.public.t
      raw=true
)");
  auto df = Build(plan, Options({{kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes = Steps(
      *df, {{{kT, M({{I({1, 1}), 1}, {I({1, 2}), 1}, {I({1, 3}), 1},
                     {I({2, 5}), 1}})}},
            {{kT, M({{I({1, 3}), -1}, {I({2, 6}), 2}})}}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{
                M({{I({1, 3}), 1}, {I({1, 2}), 1}, {I({2, 5}), 1}}),
                M({{I({1, 2}), 1}, {I({1, 1}), 1}, {I({2, 6}), 2}})}));
  // Round 1 touches both groups; the changes are exactly the differences.
  EXPECT_EQ(changes[1], M({{I({1, 3}), -1}, {I({1, 1}), 1}, {I({2, 5}), -1},
                           {I({2, 6}), 2}}));
  EXPECT_EQ(Names(df->Arrangements()),
            (std::vector<std::string>{"Arranged TopK input",
                                      "Reduced TopK input"}));
}

constexpr char kEdges[] = "materialize.public.edges";

// Transitive closure of `edges`, inside a Let whose binding the recursive
// part reads from outside.
constexpr char kClosure[] = R"(Explained Query:
  With
    cte l5 =
      Get::Collection materialize.public.edges
        raw=true
  Return
    With Mutually Recursive
      cte l0 =
        Reduce::Distinct
          key_plan=id
          val_plan
            project=()
          Union
            Get::Collection l5
              raw=true
            Join::Linear
              linear_stage[0]
                closure
                  project=(#1, #2)
                lookup={ relation=1, key=[#0] }
                stream={ key=[#1], thinning=(#0) }
              source={ relation=0, key=[#1] }
              ArrangeBy
                raw=true
                arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
                Get::Collection l0
                  raw=true
              ArrangeBy
                raw=true
                arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
                Get::Collection materialize.public.edges
                  raw=true
    Return
      Get::Collection l0
        raw=true
)";

TEST(IncrementalLetRec, AdapterRecomputesAndDiffs) {
  Plan plan(kClosure);
  auto df = Build(plan, Options({{kEdges, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes =
      Steps(*df, {{{kEdges, M({{I({1, 2}), 1}, {I({2, 3}), 1}})}},
                  {{kEdges, M({{I({3, 4}), 1}})}},
                  {{kEdges, M({{I({2, 3}), -1}})}},
                  {}});
  EXPECT_EQ(Contents(changes),
            (std::vector<Multiset>{
                M({{I({1, 2}), 1}, {I({2, 3}), 1}, {I({1, 3}), 1}}),
                M({{I({1, 2}), 1}, {I({2, 3}), 1}, {I({1, 3}), 1},
                   {I({3, 4}), 1}, {I({2, 4}), 1}, {I({1, 4}), 1}}),
                M({{I({1, 2}), 1}, {I({3, 4}), 1}}),
                M({{I({1, 2}), 1}, {I({3, 4}), 1}})}));
  EXPECT_EQ(changes[1], M({{I({3, 4}), 1}, {I({2, 4}), 1}, {I({1, 4}), 1}}));
  EXPECT_TRUE(changes[3].empty());
  std::vector<ArrangementStats> stats = df->Arrangements();
  EXPECT_EQ(Names(stats),
            (std::vector<std::string>{
                "LetRec (recompute adapter) input l5",
                "LetRec (recompute adapter) input materialize.public.edges",
                "LetRec (recompute adapter) output"}));
  for (const ArrangementStats& s : stats) EXPECT_TRUE(s.adapter);
  // Eager compaction: the held contents, no history.
  EXPECT_EQ(stats[0].records, 2u);
  EXPECT_EQ(stats[2].records, 2u);
}

// ---- Depth -------------------------------------------------------------------

TEST(IncrementalDepth, HundredThousandDeepChain) {
  NodePtr node = MakeNode(GetOp{CollectionId::Global(kT), {}, GetKind::kCollection});
  node->As<GetOp>().keys.raw = true;
  constexpr int kDepth = 100000;
  for (int i = 0; i < kDepth; ++i) {
    if (i % 2 == 0) {
      std::vector<NodePtr> inputs;
      inputs.push_back(std::move(node));
      node = MakeNode(NegateOp{}, std::move(inputs));
    } else {
      MfpOp mfp;
      mfp.mfp.project = std::vector<int>{1, 0};
      std::vector<NodePtr> inputs;
      inputs.push_back(std::move(node));
      node = MakeNode(std::move(mfp), std::move(inputs));
    }
  }
  AssignPostOrderIds(*node);
  absl::StatusOr<std::unique_ptr<Dataflow>> df =
      MakeIncrementalDataflow(*node, Options({{kT, 2}}));
  ASSERT_TRUE(df.ok()) << df.status();
  // 50,000 Negates (even: no sign change) and 50,000 swaps (even: none).
  absl::StatusOr<Multiset> r0 =
      (*df)->Step(0, {{kT, M({{I({1, 2}), 1}, {I({3, 4}), 2}})}});
  ASSERT_TRUE(r0.ok()) << r0.status();
  EXPECT_EQ(*r0, M({{I({1, 2}), 1}, {I({3, 4}), 2}}));
  absl::StatusOr<Multiset> r1 = (*df)->Step(1, {{kT, M({{I({1, 2}), -1}})}});
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_EQ(*r1, M({{I({1, 2}), -1}}));
}

// A delta join with one path over three inputs (Materialize prints such
// plans): the inputs no path starts from still change the result.
constexpr char kDeltaOnePath[] = R"(Explained Query:
  Join::Delta
    plan_path[0]
      delta_stage[1]
        closure
          project=(#2, #1, #0, #3)
        lookup={ relation=2, key=[#0] }
        stream={ key=[#2], thinning=(#0, #1) }
      delta_stage[0]
        lookup={ relation=1, key=[#0] }
        stream={ key=[#1], thinning=(#0) }
      source={ relation=0, raw }
    Get::PassArrangements materialize.public.r
      raw=true
    Get::PassArrangements materialize.public.s
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)";

TEST(IncrementalJoin, DeltaWithoutEveryPathRunsRecomputed) {
  Plan plan(kDeltaOnePath);
  auto df = Build(plan, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> contents = Contents(Steps(*df, JoinRounds()));
  Plan linear(kLinear3);
  auto reference = Build(linear, Options({{kR, 2}, {kS, 2}, {kU, 2}}));
  ASSERT_NE(reference, nullptr);
  EXPECT_EQ(contents, Contents(Steps(*reference, JoinRounds())));
  const ArrangementStats* out =
      Find(df->Arrangements(), "Join::Delta (recompute adapter) output");
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->adapter);
}

// MonotonicTop1 offers its output arranged by the group key: a
// SetDifference arm reads it through a projecting Get::Arrangement.
TEST(IncrementalExcept, ArmReadsMonotonicTop1Output) {
  Plan plan(R"(Explained Query:
  With
    cte l0 =
      TopK::MonotonicTop1 group_by=[#0] order_by=[#1 asc nulls_last]
        Get::Collection materialize.public.t
          raw=true
  Return
    SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
      base_key=[#0]
      subtract_key=[#0]
      Get::PassArrangements materialize.public.a
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Get::Arrangement l0
        project=(#0)
        key=#0
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
)");
  auto df = Build(plan, Options({{kA, 1}, {kT, 2}}));
  ASSERT_NE(df, nullptr);
  std::vector<Multiset> changes = Steps(
      *df, {{{kA, M({{I({1}), 1}, {I({2}), 2}})},
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

// ---- SEMANTICS.md 6 at small scale -----------------------------------------

// SELECT k FROM a EXCEPT SELECT k FROM b, neither side indexed: both arms
// are ArrangeBy input_key=[#0] over a Reduce::Distinct.
std::string DistinctExcept(bool fused) {
  const std::string arm = R"(Reduce::Distinct
  key_plan=id
  val_plan
    project=()
  Get::Collection NAME
    raw=true
)";
  auto indent = [](const std::string& text, int spaces) {
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      out += std::string(spaces, ' ') + text.substr(start, end - start + 1);
      start = end + 1;
    }
    return out;
  };
  auto arrange = [&](const char* name, int spaces) {
    std::string a = arm;
    a.replace(a.find("NAME"), 4, name);
    return indent("ArrangeBy\n  input_key=[#0]\n  raw=true\n", spaces) +
           indent(a, spaces + 2);
  };
  if (fused) {
    return "Explained Query:\n"
           "  SetDifference ensure_arrangement={ key=[#0], permutation=id, "
           "thinning=() }\n    base_key=[#0]\n    subtract_key=[#0]\n" +
           arrange(kA, 4) + arrange(kB, 4);
  }
  return "Explained Query:\n"
         "  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, "
         "thinning=() }\n    ArrangeBy\n      raw=false\n"
         "      arrangements[0]={ key=[#0], permutation=id, thinning=() }\n"
         "      Union consolidate_output=true\n" +
         arrange(kA, 8) + "        Negate\n" + arrange(kB, 10);
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
      {false, Compaction::kNone,
       {{"ArrangeBy[[Column(0)]]", 1500}, {"Threshold local", 1500}}},
      {false, Compaction::kEager,
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
  Plan plan(kFusedExcept);
  auto df = MakeIncrementalDataflow(plan.root(), Options({{kA, 1}}));
  ASSERT_FALSE(df.ok());
  EXPECT_NE(df.status().message().find(
                "no data for collection materialize.public.b"),
            std::string::npos)
      << df.status();
}

// ---- Agreement with the snapshot engine --------------------------------------

TEST(IncrementalVersusSnapshot, SameChangesEveryRound) {
  struct Case {
    const char* text;
    std::map<std::string, int> globals;
    std::vector<GlobalChanges> rounds;
  };
  std::vector<Case> cases = {
      {kThresholdExcept, {{kA, 1}, {kB, 1}}, ExceptRounds()},
      {kFusedExcept, {{kA, 1}, {kB, 1}}, ExceptRounds()},
      {kCountSum, {{kT, 2}}, ReduceRounds()},
      {kMinMax, {{kT, 2}}, ReduceRounds()},
      {kLinear3, {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {kDelta3, {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {kDeltaOnePath, {{kR, 2}, {kS, 2}, {kU, 2}}, JoinRounds()},
      {kAntiFused, {{kOrders, 2}, {kCustomers, 2}}, AntiRounds()},
      {kAntiThreshold, {{kOrders, 2}, {kCustomers, 2}}, AntiRounds()},
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
