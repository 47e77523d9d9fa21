// The snapshot engine (src/interp/eval/snapshot.h): every node kind over
// several rounds with retractions and negative counts, joins, reductions,
// LetRec fixed points and limits, errors, and 100,000-deep plans. Every
// expected collection below was computed by hand from the plan and data.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "src/explain/text.h"
#include "src/interp/eval/datum.h"
#include "src/interp/eval/snapshot.h"
#include "src/lir/document.h"

namespace lir::eval {
namespace {

Datum I(int64_t v) { return Datum::Int(v); }
Datum S(std::string s) { return Datum::String(std::move(s)); }
Datum Null() { return Datum::Null(); }

/// A consolidated multiset from hand-written rows (any order).
Multiset M(std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(rows));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Multiset();
}

std::string Show(const Multiset& m) {
  std::string out = "{";
  for (const auto& [row, diff] : m) {
    out += " " + FormatRow(row) + "x" + std::to_string(diff);
  }
  return out + " }";
}

Document Parse(const std::string& text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status();
  if (!doc.ok()) return Document();
  return *std::move(doc);
}

/// Runs one plan through a snapshot Dataflow round by round, tracking the
/// accumulated output.
class Runner {
 public:
  Runner(const std::string& text, absl::flat_hash_map<std::string, int> globals)
      : doc_(Parse(text)) {
    if (doc_.objects.empty()) return;
    DataflowOptions options;
    options.object = "test";
    options.globals = std::move(globals);
    absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
        MakeSnapshotDataflow(*doc_.objects[0].plan, options);
    EXPECT_TRUE(dataflow.ok()) << dataflow.status();
    if (dataflow.ok()) dataflow_ = *std::move(dataflow);
  }

  bool ok() const { return dataflow_ != nullptr; }
  Dataflow& dataflow() { return *dataflow_; }
  const Node& plan() const { return *doc_.objects[0].plan; }

  /// Steps the next round; returns the output's changes (empty on error).
  Multiset Step(const GlobalChanges& changes) {
    absl::StatusOr<Multiset> diff = dataflow_->Step(round_++, changes);
    EXPECT_TRUE(diff.ok()) << diff.status();
    if (!diff.ok()) return {};
    absl::StatusOr<Multiset> sum = AddMultisets(contents_, *diff);
    EXPECT_TRUE(sum.ok());
    contents_ = *sum;
    return *diff;
  }
  /// Steps the next round, which must fail; returns the error.
  absl::Status StepError(const GlobalChanges& changes) {
    absl::StatusOr<Multiset> diff = dataflow_->Step(round_++, changes);
    EXPECT_FALSE(diff.ok())
        << "round " << round_ - 1 << " gave " << Show(*diff);
    return diff.ok() ? absl::OkStatus() : diff.status();
  }
  const Multiset& contents() const { return contents_; }

 private:
  Document doc_;
  std::unique_ptr<Dataflow> dataflow_;
  uint64_t round_ = 0;
  Multiset contents_;
};

#define EXPECT_MS(actual, expected) EXPECT_EQ(Show(actual), Show(expected))

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

// ----------------------------------------------------------------- Joins

// t(a, b) JOIN u(c, d) ON b = c JOIN v(e, f) ON d = e, WHERE a IS NOT NULL
// AND d > 0, output (a, d, a + f).
constexpr char kLinearJoin[] = R"(Explained Query:
  Join::Linear
    final_closure
      project=(#0, #2, #4)
      map=((#0 + #3))
    linear_stage[0]
      closure
        project=(#1, #0, #2)
        filter=((#2 > 0))
      lookup={ relation=1, key=[#0{c}] }
      stream={ key=[#1], thinning=(#0) }
    linear_stage[1]
      closure
        project=(#1, #2, #0, #3)
      lookup={ relation=2, key=[#0{e}] }
      stream={ key=[#2], thinning=(#0, #1) }
    initial_closure
      filter=((#0{a}) IS NOT NULL)
    source={ relation=0, key=[#1] }
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0{c}], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.v
      raw=false
      arrangements[0]={ key=[#0{e}], permutation=id, thinning=(#1) }
)";

TEST(SnapshotTest, LinearJoinFollowsItsStages) {
  Runner run(kLinearJoin, {{"materialize.public.t", 2},
                           {"materialize.public.u", 2},
                           {"materialize.public.v", 2}});
  ASSERT_TRUE(run.ok());
  const Node& join = run.plan();
  ASSERT_EQ(join.As<JoinOp>().paths[0].stages[0].lookup_relation, 1)
      << "stages run in execution order";
  run.Step(
      {{"materialize.public.t", M({{{I(1), I(10)}, 1},
                                   {{I(2), I(10)}, 1},
                                   {{Null(), I(10)}, 1},
                                   {{I(3), I(20)}, 1}})},
       {"materialize.public.u",
        M({{{I(10), I(100)}, 1}, {{I(10), I(-5)}, 1}, {{I(20), I(200)}, 2}})},
       {"materialize.public.v",
        M({{{I(100), I(7)}, 1}, {{I(200), I(8)}, 1}, {{I(-5), I(9)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(100), I(8)}, 1},
                               {{I(2), I(100), I(9)}, 1},
                               {{I(3), I(200), I(11)}, 2}}));
  // v's (100, 7) becomes (100, 1); t gets a negative count for (4, 20),
  // which meets u's (20, 200) x2.
  run.Step({{"materialize.public.t", M({{{I(4), I(20)}, -1}})},
            {"materialize.public.v",
             M({{{I(100), I(7)}, -1}, {{I(100), I(1)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(1), I(100), I(2)}, 1},
                               {{I(2), I(100), I(3)}, 1},
                               {{I(3), I(200), I(11)}, 2},
                               {{I(4), I(200), I(12)}, -2}}));
}

// The 3-way star join t.a = u.c = v.e as Materialize plans it (one path per
// input, every path producing (a, b, c, d, e, f)).
constexpr char kDeltaJoin[] = R"(Explained Query:
  Join::Delta
    plan_path[0]
      final_closure
        project=(#0, #1, #0, #2, #0, #3)
      delta_stage[1]
        lookup={ relation=2, key=[#0{e}] }
        stream={ key=[#0], thinning=(#1, #2) }
      delta_stage[0]
        lookup={ relation=1, key=[#0{c}] }
        stream={ key=[#0{a}], thinning=(#1) }
      initial_closure
        filter=((#0{a}) IS NOT NULL)
      source={ relation=0, key=[#0{a}] }
    plan_path[1]
      delta_stage[1]
        closure
          project=(#0, #2, #0, #1, #0, #3)
        lookup={ relation=2, key=[#0{e}] }
        stream={ key=[#0], thinning=(#1, #2) }
      delta_stage[0]
        lookup={ relation=0, key=[#0{a}] }
        stream={ key=[#0{c}], thinning=(#1) }
      source={ relation=1, key=[#0{c}] }
    plan_path[2]
      delta_stage[1]
        closure
          project=(#0, #2, #0, #3, #0, #1)
        lookup={ relation=1, key=[#0{c}] }
        stream={ key=[#0], thinning=(#1, #2) }
      delta_stage[0]
        lookup={ relation=0, key=[#0{a}] }
        stream={ key=[#0{e}], thinning=(#1) }
      source={ relation=2, key=[#0{e}] }
    Get::PassArrangements materialize.public.t
      raw=false
      arrangements[0]={ key=[#0{a}], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.u
      raw=false
      arrangements[0]={ key=[#0{c}], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.v
      raw=false
      arrangements[0]={ key=[#0{e}], permutation=id, thinning=(#1) }
)";

GlobalChanges DeltaRound0() {
  return {
      {"materialize.public.t",
       M({{{I(1), S("x")}, 1}, {{I(2), S("y")}, 1}, {{Null(), S("z")}, 1}})},
      {"materialize.public.u", M({{{I(1), I(10)}, 1},
                                  {{I(1), I(11)}, 1},
                                  {{I(2), I(20)}, 1},
                                  {{Null(), I(99)}, 1}})},
      {"materialize.public.v",
       M({{{I(1), Datum::Bool(true)}, 1}, {{I(2), Datum::Bool(false)}, 3}})}};
}

TEST(SnapshotTest, DeltaJoinPathsAgree) {
  Runner run(kDeltaJoin, {{"materialize.public.t", 2},
                          {"materialize.public.u", 2},
                          {"materialize.public.v", 2}});
  ASSERT_TRUE(run.ok());
  // The snapshot Dataflow runs every path and checks that they agree.
  run.Step(DeltaRound0());
  const Datum t = Datum::Bool(true);
  const Datum f = Datum::Bool(false);
  EXPECT_MS(run.contents(), M({{{I(1), S("x"), I(1), I(10), I(1), t}, 1},
                               {{I(1), S("x"), I(1), I(11), I(1), t}, 1},
                               {{I(2), S("y"), I(2), I(20), I(2), f}, 3}}));
  // Retract t's (1, "x"); u gets (2, 21) x -1.
  Multiset diff =
      run.Step({{"materialize.public.t", M({{{I(1), S("x")}, -1}})},
                {"materialize.public.u", M({{{I(2), I(21)}, -1}})}});
  EXPECT_MS(diff, M({{{I(1), S("x"), I(1), I(10), I(1), t}, -1},
                     {{I(1), S("x"), I(1), I(11), I(1), t}, -1},
                     {{I(2), S("y"), I(2), I(21), I(2), f}, -3}}));
}

TEST(SnapshotTest, DeltaPathCheckCatchesInconsistentPaths) {
  Document doc = Parse(kDeltaJoin);
  ASSERT_FALSE(doc.objects.empty());
  Node& join = *doc.objects[0].plan;
  // Path 1 now outputs its columns in another order than path 0.
  join.As<JoinOp>().paths[1].stages[1].closure->mfp.project =
      std::vector<int>{0, 3, 0, 1, 0, 2};
  GlobalChanges data = DeltaRound0();
  SnapshotEnv env;
  for (const auto& [name, contents] : data) env.globals[name] = &contents;
  // Path 0 alone gives the right answer ...
  absl::StatusOr<Multiset> one = EvaluateSnapshot(join, env);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->size(), 3u);
  // ... and checking every path finds the difference.
  env.check_delta_paths = true;
  absl::StatusOr<Multiset> all = EvaluateSnapshot(join, env);
  EXPECT_EQ(all.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(all.status().message().find("delta join paths disagree"),
            std::string::npos)
      << all.status();
}

// One-shot plans print only plan_path[0] of a delta join.
TEST(SnapshotTest, DeltaJoinWithOnlyItsFirstPath) {
  Document doc = Parse(kDeltaJoin);
  ASSERT_FALSE(doc.objects.empty());
  Node& join = *doc.objects[0].plan;
  join.As<JoinOp>().paths.resize(1);
  DataflowOptions options;
  for (const char* name : {"materialize.public.t", "materialize.public.u",
                           "materialize.public.v"}) {
    options.globals[name] = 2;
  }
  absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
      MakeSnapshotDataflow(join, options);
  ASSERT_TRUE(dataflow.ok()) << dataflow.status();
  absl::StatusOr<Multiset> round0 = (*dataflow)->Step(0, DeltaRound0());
  ASSERT_TRUE(round0.ok()) << round0.status();
  EXPECT_EQ(round0->size(), 3u) << Show(*round0);
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

// --------------------------------------------------------------------- Let

TEST(SnapshotTest, LetBindsItsValueForTheBody) {
  Runner run(R"(Explained Query:
  With
    cte l0 =
      Get::Collection materialize.public.t
        filter=((#0 > 1))
        raw=true
    cte l1 =
      Negate
        Get::PassArrangements l0
          raw=true
  Return
    Union
      Get::PassArrangements l0
        raw=true
      Get::PassArrangements l0
        raw=true
      Get::Collection l1
        filter=((#0 > 2))
        raw=true
)",
             {{"materialize.public.t", 1}});
  ASSERT_TRUE(run.ok());
  // l0 = {2, 3}; body = 2 x l0 - (l0 where > 2).
  run.Step(
      {{"materialize.public.t", M({{{I(1)}, 1}, {{I(2)}, 1}, {{I(3)}, 1}})}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}, {{I(3)}, 1}}));
  run.Step({{"materialize.public.t", M({{{I(3)}, 2}})}});
  EXPECT_MS(run.contents(), M({{{I(2)}, 2}, {{I(3)}, 3}}));
}

TEST(SnapshotTest, ShadowingALocalIsAnError) {
  Document doc = Parse(R"(Explained Query:
  With
    cte l0 =
      Constant
        - (1)
  Return
    Union
      With
        cte l0 =
          Constant
            - (2)
      Return
        Get::PassArrangements l0
          raw=true
      Get::PassArrangements l0
        raw=true
)");
  ASSERT_FALSE(doc.objects.empty());
  const Node& plan = *doc.objects[0].plan;
  absl::Status built = MakeSnapshotDataflow(plan, {}).status();
  EXPECT_EQ(built.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(built.message().find("l0 is already bound"), std::string::npos)
      << built;
  absl::StatusOr<Multiset> evaluated = EvaluateSnapshot(plan, {});
  EXPECT_NE(evaluated.status().message().find("l0 is already bound"),
            std::string::npos)
      << evaluated.status();
}

TEST(SnapshotTest, FreeLocalsComeFromTheEnvironment) {
  Document doc = Parse(R"(Explained Query:
  Negate
    Get::Collection l3
      filter=((#0 > 1))
      raw=true
)");
  ASSERT_FALSE(doc.objects.empty());
  const Node& plan = *doc.objects[0].plan;
  const Multiset l3 = M({{{I(1)}, 1}, {{I(2)}, 5}});
  SnapshotEnv env;
  env.locals[3] = &l3;
  absl::StatusOr<Multiset> result = EvaluateSnapshot(plan, env);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(2)}, -5}}));
  absl::StatusOr<Multiset> unbound = EvaluateSnapshot(plan, {});
  EXPECT_EQ(unbound.status().message(),
            "LirId(1) Get::Collection: l3 is not bound here");
}

// ------------------------------------------------------------------ LetRec

// Transitive closure of e, with `LIMIT` replaced by a recursion limit.
std::string Closure(const std::string& limit) {
  return R"(Explained Query:
  With Mutually Recursive
    cte )" +
         limit + R"(l0 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Union
          Get::Collection materialize.public.e
            raw=true
          Join::Linear
            linear_stage[0]
              closure
                project=(#1, #2)
              lookup={ relation=1, key=[#0] }
              stream={ key=[#1], thinning=(#0) }
            source={ relation=0, raw }
            Get::PassArrangements l0
              raw=true
            ArrangeBy
              raw=true
              arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
              Get::PassArrangements materialize.public.e
                raw=true
  Return
    Get::PassArrangements l0
      raw=true
)";
}

Multiset Pairs(std::vector<std::pair<int, int>> pairs) {
  std::vector<RowDiff> rows;
  for (auto [a, b] : pairs) rows.push_back({{I(a), I(b)}, 1});
  return M(std::move(rows));
}

TEST(SnapshotTest, LetRecTransitiveClosureConvergesEveryRound) {
  Runner run(Closure(""), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step({{"materialize.public.e", Pairs({{1, 2}, {2, 3}, {3, 4}})}});
  EXPECT_MS(run.contents(),
            Pairs({{1, 2}, {2, 3}, {3, 4}, {1, 3}, {2, 4}, {1, 4}}));
  // A cycle: every pair of {1, 2, 3, 4}.
  run.Step({{"materialize.public.e", Pairs({{4, 1}})}});
  std::vector<std::pair<int, int>> all;
  for (int a = 1; a <= 4; ++a) {
    for (int b = 1; b <= 4; ++b) all.push_back({a, b});
  }
  EXPECT_MS(run.contents(), Pairs(all));
  // Removing 2 -> 3 leaves 1 -> 2, 3 -> 4 -> 1: the fixed point is
  // recomputed from empty, so pairs through 2 -> 3 disappear.
  run.Step({{"materialize.public.e", M({{{I(2), I(3)}, -1}})}});
  EXPECT_MS(run.contents(),
            Pairs({{1, 2}, {3, 4}, {3, 1}, {3, 2}, {4, 1}, {4, 2}}));
}

// On the chain 1 -> 2 -> 3 -> 4 -> 5, iteration k finds the paths of
// length <= k; iteration 4 finds the last pair (1, 5), iteration 5 changes
// nothing.
GlobalChanges Chain() {
  return {{"materialize.public.e", Pairs({{1, 2}, {2, 3}, {3, 4}, {4, 5}})}};
}

TEST(SnapshotTest, LetRecConvergingWithinItsLimit) {
  Runner run(Closure("[recursion_limit=5] "), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(Chain());
  EXPECT_EQ(run.contents().size(), 10u) << Show(run.contents());
}

TEST(SnapshotTest, LetRecLimitExceeded) {
  Runner run(Closure("[recursion_limit=4] "), {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  absl::Status error = run.StepError(Chain());
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(
      error.message().find("With Mutually Recursive: recursion limit exceeded"),
      std::string::npos)
      << error;
}

TEST(SnapshotTest, LetRecReturnAtLimitReturnsTheCurrentValues) {
  Runner run(Closure("[recursion_limit=3, return_at_limit] "),
             {{"materialize.public.e", 2}});
  ASSERT_TRUE(run.ok());
  run.Step(Chain());
  // Paths of length <= 3: everything but (1, 5).
  EXPECT_MS(run.contents(), Pairs({{1, 2},
                                   {2, 3},
                                   {3, 4},
                                   {4, 5},
                                   {1, 3},
                                   {2, 4},
                                   {3, 5},
                                   {1, 4},
                                   {2, 5}}));
}

// l1 reads l0's value of the same iteration: with limit 1 and
// return_at_limit the body sees {1}, not the empty start value.
TEST(SnapshotTest, LetRecBindingsSeeEarlierBindingsOfTheSameIteration) {
  auto plan = [](const std::string& limit) {
    return R"(Explained Query:
  With Mutually Recursive
    cte )" +
           limit + R"(l0 =
      Constant
        - (1)
    cte )" +
           limit + R"(l1 =
      Get::PassArrangements l0
        raw=true
  Return
    Get::PassArrangements l1
      raw=true
)";
  };
  Runner at_limit(plan("[recursion_limit=1, return_at_limit] "), {});
  ASSERT_TRUE(at_limit.ok());
  at_limit.Step({});
  EXPECT_MS(at_limit.contents(), M({{{I(1)}, 1}}));
  // Without return_at_limit the first iteration's change is an error;
  // with two iterations the second confirms the fixed point.
  Runner erroring(plan("[recursion_limit=1] "), {});
  ASSERT_TRUE(erroring.ok());
  EXPECT_EQ(erroring.StepError({}).code(), absl::StatusCode::kOutOfRange);
  Runner two(plan("[recursion_limit=2] "), {});
  ASSERT_TRUE(two.ok());
  two.Step({});
  EXPECT_MS(two.contents(), M({{{I(1)}, 1}}));
}

TEST(SnapshotTest, LetRecWithoutLimitThatOscillatesDoesNotConverge) {
  Runner run(R"(Explained Query:
  With Mutually Recursive
    cte l0 =
      Negate
        Union
          Constant
            - (1)
          Get::PassArrangements l0
            raw=true
  Return
    Get::PassArrangements l0
      raw=true
)",
             {});
  ASSERT_TRUE(run.ok());
  // l0 alternates between {1 x-1} and {}.
  absl::Status error = run.StepError({});
  EXPECT_EQ(error.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(error.message().find("did not converge"), std::string::npos)
      << error;
}

// ------------------------------------------------------------ Build errors

absl::Status BuildError(const std::string& text,
                        absl::flat_hash_map<std::string, int> globals) {
  Document doc = Parse(text);
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

TEST(SnapshotTest, TemporalFilterFailsAtBuild) {
  absl::Status status = BuildError(R"(Explained Query:
  Get::Collection materialize.public.events
    project=(#0)
    TemporalFilter: mz_now() < timestamp_to_mz_timestamp((#1{event_time} + 45 days))
    raw=true
)",
                                   {{"materialize.public.events", 2}});
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(status.message().find("unsupported function mz_now"),
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

TEST(SnapshotTest, RoundsMustBeSteppedInOrder) {
  Runner run(kDistinct, {{"materialize.public.t", 2}});
  ASSERT_TRUE(run.ok());
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

// -------------------------------------------------------------- Deep plans

constexpr int kDepth = 100000;

TEST(SnapshotTest, DeepNegateChain) {
  ConstantOp constant;
  constant.rows.push_back({Row{Literal::Int(1)}, 3});
  NodePtr plan = MakeNode(std::move(constant));
  for (int i = 0; i < kDepth - 1; ++i) {
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(plan));
    plan = MakeNode(NegateOp{}, std::move(inputs));
  }
  AssignPostOrderIds(*plan);
  // 99,999 negations: an odd number.
  absl::StatusOr<Multiset> result = EvaluateSnapshot(*plan, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(1)}, -3}}));
}

TEST(SnapshotTest, DeepMfpChainThroughTheDataflow) {
  GetOp get;
  get.id = CollectionId::Global("materialize.public.t");
  get.kind = GetKind::kCollection;
  NodePtr plan = MakeNode(std::move(get));
  for (int i = 0; i < kDepth - 1; ++i) {
    MfpOp op;
    op.mfp.map.push_back(ScalarExpr::Call(
        CallStyle::kInfix, "+",
        {ScalarExpr::Column(0), ScalarExpr::Lit(Literal::Int(1))}));
    op.mfp.project = std::vector<int>{1};
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(plan));
    plan = MakeNode(std::move(op), std::move(inputs));
  }
  AssignPostOrderIds(*plan);
  DataflowOptions options;
  options.globals["materialize.public.t"] = 1;
  absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
      MakeSnapshotDataflow(*plan, options);
  ASSERT_TRUE(dataflow.ok()) << dataflow.status();
  absl::StatusOr<Multiset> round0 = (*dataflow)->Step(
      0, {{"materialize.public.t", M({{{I(0)}, 1}, {{I(5)}, 2}})}});
  ASSERT_TRUE(round0.ok()) << round0.status();
  EXPECT_MS(*round0, M({{{I(kDepth - 1)}, 1}, {{I(kDepth + 4)}, 2}}));
  absl::StatusOr<Multiset> round1 =
      (*dataflow)->Step(1, {{"materialize.public.t", M({{{I(0)}, -1}})}});
  ASSERT_TRUE(round1.ok()) << round1.status();
  EXPECT_MS(*round1, M({{{I(kDepth - 1)}, -1}}));
}

TEST(SnapshotTest, DeepLetNesting) {
  // With l0 = const in With l1 = Get l0 in ... Return Get l<n-1>, built as
  // a right-leaning chain of Lets 100,000 deep.
  GetOp last;
  last.id = CollectionId::Local(kDepth - 1);
  NodePtr plan = MakeNode(std::move(last));
  for (int i = kDepth - 1; i >= 0; --i) {
    NodePtr value;
    if (i == 0) {
      ConstantOp constant;
      constant.rows.push_back({Row{Literal::Int(7)}, 2});
      value = MakeNode(std::move(constant));
    } else {
      GetOp get;
      get.id = CollectionId::Local(i - 1);
      value = MakeNode(std::move(get));
    }
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(value));
    inputs.push_back(std::move(plan));
    plan = MakeNode(LetOp{static_cast<uint64_t>(i)}, std::move(inputs));
  }
  AssignPostOrderIds(*plan);
  ASSERT_TRUE(CheckSnapshotPlan(*plan, {}).ok());
  absl::StatusOr<Multiset> result = EvaluateSnapshot(*plan, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_MS(*result, M({{{I(7)}, 2}}));
}

}  // namespace
}  // namespace lir::eval
