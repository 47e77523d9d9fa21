// Helpers shared by the incremental-engine tests (eval_incremental_test.cc,
// eval_incremental_operators_test.cc): row and multiset shorthands, plans
// kept alive for their dataflows, stepping and arrangement lookups, and the
// reduce and join plans (with their rounds) that the operator tests and the
// agreement with the snapshot engine both run.
#ifndef LIR_TESTS_SUPPORT_EVAL_INCREMENTAL_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_EVAL_INCREMENTAL_TEST_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/incremental.h"
#include "lir/explain/text.h"
#include "src/eval/trace.h"
#include "tests/support/parse_or_die.h"

namespace lir::test::incremental {

// Shorthand over the evaluator's types, for tests that open lir::eval.
using namespace ::lir::eval;  // NOLINT

inline DataRow I(std::initializer_list<int64_t> values) {
  DataRow row;
  for (int64_t v : values) row.push_back(Datum::Int(v));
  return row;
}

inline Multiset M(std::vector<RowDiff> rows) {
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

inline DataflowOptions Options(std::map<std::string, int> globals,
                               Compaction compaction = Compaction::kEager,
                               uint64_t fuel = 0) {
  DataflowOptions options;
  options.object = "test";
  for (auto& [name, arity] : globals) options.globals[name] = arity;
  options.compaction = compaction;
  options.fuel = fuel;
  return options;
}

inline std::unique_ptr<Dataflow> Build(const Plan& plan,
                                       const DataflowOptions& options) {
  absl::StatusOr<std::unique_ptr<Dataflow>> df =
      MakeIncrementalDataflow(plan.root(), options);
  EXPECT_TRUE(df.ok()) << df.status();
  return df.ok() ? std::move(*df) : nullptr;
}

// Steps `df` through `rounds`; returns each round's output changes.
inline std::vector<Multiset> Steps(Dataflow& df,
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
inline std::vector<Multiset> Contents(const std::vector<Multiset>& changes) {
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

inline const ArrangementStats* Find(const std::vector<ArrangementStats>& stats,
                                    const std::string& name) {
  for (const ArrangementStats& s : stats) {
    if (s.operator_name == name) return &s;
  }
  return nullptr;
}
/// The result would point into a temporary (ASan found one such use).
const ArrangementStats* Find(std::vector<ArrangementStats>&& stats,
                             const std::string& name) = delete;

inline std::vector<std::string> Names(
    const std::vector<ArrangementStats>& stats) {
  std::vector<std::string> names;
  for (const ArrangementStats& s : stats) names.push_back(s.operator_name);
  return names;
}

// ---- Reduce plans
// --------------------------------------------------------------

inline constexpr char kT[] = "materialize.public.t";

// t(k, v): r0 (1,10) (1,20) (2,5); r1 -(1,20) +(2,7)x2; r2 -(2,5) -(2,7)x2.
inline std::vector<GlobalChanges> ReduceRounds() {
  return {
      {{kT, M({{I({1, 10}), 1}, {I({1, 20}), 1}, {I({2, 5}), 1}})}},
      {{kT, M({{I({1, 20}), -1}, {I({2, 7}), 2}})}},
      {{kT, M({{I({2, 5}), -1}, {I({2, 7}), -2}})}},
  };
}

inline std::string CountSumPlan() {
  return test::FixtureText("reduce_count_sum.plan");
}

inline std::string MinMaxPlan() {
  return test::FixtureText("reduce_min_max.plan");
}

// ---- Join plans
// ----------------------------------------------------------------

inline constexpr char kR[] = "materialize.public.r";
inline constexpr char kS[] = "materialize.public.s";
inline constexpr char kU[] = "materialize.public.u";

// r(a, b) join s(b, c) join u(c, d), output (a, b, c, d).
inline std::string Linear3Plan() {
  return test::FixtureText("join_linear3.plan");
}

inline std::string Delta3Plan() {
  return test::FixtureText("join_delta3.plan");
}

inline std::vector<GlobalChanges> JoinRounds() {
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

// A delta join with one path over three inputs (Materialize prints such
// plans): the inputs no path starts from still change the result.
inline std::string DeltaOnePathPlan() {
  return test::FixtureText("join_delta_one_path.plan");
}

}  // namespace lir::test::incremental

#endif  // LIR_TESTS_SUPPORT_EVAL_INCREMENTAL_TEST_UTIL_H_
