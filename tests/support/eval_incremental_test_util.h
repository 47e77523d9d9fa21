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

namespace lir::eval::incremental_testing {

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

inline constexpr char kCountSum[] = R"(Explained Query:
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

inline constexpr char kMinMax[] = R"(Explained Query:
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

// ---- Join plans
// ----------------------------------------------------------------

inline constexpr char kR[] = "materialize.public.r";
inline constexpr char kS[] = "materialize.public.s";
inline constexpr char kU[] = "materialize.public.u";

// r(a, b) join s(b, c) join u(c, d), output (a, b, c, d).
inline constexpr char kLinear3[] = R"(Explained Query:
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

inline constexpr char kDelta3[] = R"(Explained Query:
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
inline constexpr char kDeltaOnePath[] = R"(Explained Query:
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

}  // namespace lir::eval::incremental_testing

#endif  // LIR_TESTS_SUPPORT_EVAL_INCREMENTAL_TEST_UTIL_H_
