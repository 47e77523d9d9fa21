// The spine A/B on a plan (issue 15, item 6): eval_bench's EXCEPT plan
// (bench/except_plan.h; the plan Materialize prints, rewrite off: six
// arrangements), maintained by the incremental engine with every
// arrangement also kept as differential's fueled spine
// (src/eval/trace_spine.cc, what `lir-opt run --spine` does), stock against
// funded exertion (../shared/reference/SPINE.md section 5).
//
// Data: a = {0, 1, ..., N-1}, b = the even keys of a (N/2), one-column
// integer rows with multiplicity 1, loaded in 64 rounds: round r brings the
// keys in [r*N/64, (r+1)*N/64) of both. Compaction eager, so each spine's
// compaction frontier is the round. After round 63 the input closes.
// Arguments of BM_SpinePlan:
//   keys    N
//   policy  0: proportional:16 (Materialize's compute setting);
//           1: idle_merge:1000 (differential's own)
//   funded  0: stock; 1: funded
//   idle    k, the idle turns each spine may take after each round's
//           activation and after the close (taken only while requested)
// BM_SpinePlanNoSpine/keys:N runs the same load without spines (after the
// spine runs): the time the spine model adds.
// Timed: building the dataflow, the 64 rounds and the close. One iteration
// per configuration: the figures are counts, the same on every run; the
// time is what one load took.
// Reported per run (sums over the six arrangements, after the close):
//   merge_work       records written by merges, fueled or not, over the run
//   batches_left     non-empty spine batches held at the end
//   spine_records    updates those batches hold (consolidated within each)
//   idle_turns       idle turns taken
//   records          the traces' records (the same in every configuration)
//   updates          input updates (N + N/2)
//   merge_work_per_update  merge_work / updates
// and the label lists each arrangement as
// `role: <merge work>w/<batches left>b/<spine records>r/<idle turns>t`
// (roles as in eval_bench). A run whose output is not the N/2 odd keys is an
// error. Small size for CI: --benchmark_filter='/keys:10000/'.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bench/except_plan.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/eval/incremental.h"
#include "lir/eval/spine.h"
#include "lir/explain/text.h"

namespace {

using lir::eval::ArrangementStats;
using lir::eval::DataRow;
using lir::eval::Datum;
using lir::eval::GlobalChanges;
using lir::eval::Multiset;
using lir::eval::spine::Exertion;
using lir::eval::spine::Policy;
using lir_bench::kA;
using lir_bench::kB;

constexpr int64_t kRounds = 64;

// The plan, parsed once, and which input each Reduce reads.
struct Plan {
  lir::Document doc;
  std::map<lir::LirId, std::string> sides;
  std::string error;
};

const Plan& GetPlan() {
  static const Plan* plan = [] {
    auto* p = new Plan;
    absl::StatusOr<lir::Document> doc =
        lir::explain::ParseText(lir_bench::kPlanText);
    if (!doc.ok()) {
      p->error = std::string(doc.status().message());
      return p;
    }
    p->doc = *std::move(doc);
    p->sides = lir_bench::ReduceSides(*p->doc.objects.at(0).plan);
    return p;
  }();
  return *plan;
}

// The 64 rounds of one size, kept for the last size asked for (benchmarks
// are registered size-major).
struct Workload {
  int64_t keys = -1;
  std::vector<GlobalChanges> rounds;
  uint64_t updates = 0;
};

const Workload& GetWorkload(int64_t keys) {
  static Workload* current = new Workload;
  if (current->keys == keys) return *current;
  *current = Workload();
  for (int64_t r = 0; r < kRounds; ++r) {
    Multiset a, b;
    for (int64_t k = r * keys / kRounds; k < (r + 1) * keys / kRounds; ++k) {
      a.emplace_back(DataRow{Datum::Int(k)}, 1);
      if (k % 2 == 0) b.emplace_back(DataRow{Datum::Int(k)}, 1);
    }
    current->updates += a.size() + b.size();
    GlobalChanges round;
    round[kA] = std::move(a);
    round[kB] = std::move(b);
    current->rounds.push_back(std::move(round));
  }
  current->keys = keys;
  return *current;
}

// Loads the workload into a dataflow with `spine` (none: no spines) and
// closes it; the arrangements after the close, or the error.
absl::StatusOr<std::vector<ArrangementStats>> Load(
    const Workload& w, const std::optional<lir::eval::SpineOptions>& spine,
    int64_t& output_rows) {
  const Plan& plan = GetPlan();
  lir::eval::DataflowOptions options;
  options.object = "bench";
  options.globals[kA] = 1;
  options.globals[kB] = 1;
  options.compaction = lir::eval::Compaction::kEager;
  options.spine = spine;
  absl::StatusOr<std::unique_ptr<lir::eval::Dataflow>> df =
      lir::eval::MakeIncrementalDataflow(*plan.doc.objects.at(0).plan, options);
  if (!df.ok()) return df.status();
  output_rows = 0;
  for (size_t r = 0; r < w.rounds.size(); ++r) {
    absl::StatusOr<Multiset> out = (*df)->Step(r, w.rounds[r]);
    if (!out.ok()) return out.status();
    for (const auto& [row, diff] : *out) output_rows += diff;
  }
  (*df)->CloseInput();
  return (*df)->Arrangements();
}

// Skips the run unless its output is the N/2 odd keys.
bool CheckOutput(benchmark::State& state, int64_t keys, int64_t output_rows) {
  if (output_rows == keys / 2) return true;
  state.SkipWithError(absl::StrCat("wrong result: ", output_rows,
                                   " output rows, expected ", keys / 2)
                          .c_str());
  return false;
}

void BM_SpinePlan(benchmark::State& state) {
  const Plan& plan = GetPlan();
  if (!plan.error.empty()) {
    state.SkipWithError(plan.error.c_str());
    return;
  }
  const int64_t keys = state.range(0);
  lir::eval::SpineOptions spine;
  spine.policy = state.range(1) == 0 ? Policy{Policy::Kind::kProportional, 16}
                                     : Policy{Policy::Kind::kIdleMerge, 1000};
  spine.exertion = state.range(2) == 0 ? Exertion::kStock : Exertion::kFunded;
  spine.idle_turns = static_cast<uint64_t>(state.range(3));
  const Workload& w = GetWorkload(keys);

  std::vector<ArrangementStats> stats;
  int64_t output_rows = 0;
  for (auto _ : state) {
    absl::StatusOr<std::vector<ArrangementStats>> loaded =
        Load(w, spine, output_rows);
    if (!loaded.ok()) {
      state.SkipWithError(std::string(loaded.status().message()).c_str());
      return;
    }
    stats = *std::move(loaded);
  }
  if (!CheckOutput(state, keys, output_rows)) return;

  uint64_t merge_work = 0, batches = 0, spine_records = 0, idle_turns = 0,
           records = 0;
  std::string label;
  for (const ArrangementStats& s : stats) {
    if (!s.spine.has_value()) {
      state.SkipWithError(
          absl::StrCat(s.operator_name, " kept no spine").c_str());
      return;
    }
    merge_work += s.spine->merge_work;
    batches += s.spine->batches;
    spine_records += s.spine->records;
    idle_turns += s.spine->idle_turns;
    records += s.records;
    absl::StrAppend(&label, label.empty() ? "" : "; ",
                    lir_bench::ArrangementRole(s, plan.sides), ": ",
                    s.spine->merge_work, "w/", s.spine->batches, "b/",
                    s.spine->records, "r/", s.spine->idle_turns, "t");
  }
  state.SetLabel(label);
  state.counters["merge_work"] = static_cast<double>(merge_work);
  state.counters["batches_left"] = static_cast<double>(batches);
  state.counters["spine_records"] = static_cast<double>(spine_records);
  state.counters["idle_turns"] = static_cast<double>(idle_turns);
  state.counters["records"] = static_cast<double>(records);
  state.counters["updates"] = static_cast<double>(w.updates);
  state.counters["merge_work_per_update"] =
      static_cast<double>(merge_work) / static_cast<double>(w.updates);
}

void BM_SpinePlanNoSpine(benchmark::State& state) {
  const Plan& plan = GetPlan();
  if (!plan.error.empty()) {
    state.SkipWithError(plan.error.c_str());
    return;
  }
  const int64_t keys = state.range(0);
  const Workload& w = GetWorkload(keys);
  int64_t output_rows = 0;
  uint64_t records = 0;
  for (auto _ : state) {
    absl::StatusOr<std::vector<ArrangementStats>> loaded =
        Load(w, std::nullopt, output_rows);
    if (!loaded.ok()) {
      state.SkipWithError(std::string(loaded.status().message()).c_str());
      return;
    }
    records = 0;
    for (const ArrangementStats& s : *loaded) records += s.records;
  }
  if (!CheckOutput(state, keys, output_rows)) return;
  state.counters["records"] = static_cast<double>(records);
  state.counters["updates"] = static_cast<double>(w.updates);
}

constexpr int64_t kSizes[] = {10000, 1000000};

// Size-major, so each workload is generated once.
void Configurations(benchmark::internal::Benchmark* b) {
  b->ArgNames({"keys", "policy", "funded", "idle"});
  for (int64_t keys : kSizes) {
    for (int64_t policy : {0, 1}) {
      for (int64_t idle : {0, 64, 1024}) {
        for (int64_t funded : {0, 1}) b->Args({keys, policy, funded, idle});
      }
    }
  }
}

BENCHMARK(BM_SpinePlan)
    ->Apply(Configurations)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// After the spine runs, so that it does not pay for the first touches of
// fresh memory at a size (the first spine run does).
BENCHMARK(BM_SpinePlanNoSpine)
    ->ArgNames({"keys"})
    ->Apply([](benchmark::internal::Benchmark* b) {
      for (int64_t keys : kSizes) b->Args({keys});
    })
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
