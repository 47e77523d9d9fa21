// The SetDifferenceCoArranged A/B: the incremental engine
// (include/lir/eval/incremental.h) maintaining `SELECT k FROM a EXCEPT
// SELECT k FROM b` with the fused set-difference rewrite off (Threshold::Basic
// over the co-arranged Union, the first case of
// testdata/recognizer/shapes.txt) and on (SetDifference, from lir::Optimize
// with enable_fused_set_difference), in the same process.
//
// Data: a = {0, 1, ..., N-1}, b = the even keys of a (N/2 keys), one-column
// integer rows with multiplicity 1. Arguments:
//   keys   N
//   fused  0: the Threshold plan; 1: the fused SetDifference plan
//   sched  0: a and b both at round 0; 1: a at round 0, b at round 1
//   eager  0: Compaction::kNone; 1: Compaction::kEager
// Two phases, each its own benchmark:
//   ExceptLoad     timed: building the dataflow and stepping it through the
//                  loading rounds (N + N/2 input updates).
//   ExceptRetract  untimed: the same build and load; timed: one more round
//                  that deletes 10% of b (the keys divisible by 20, N/20
//                  updates), which puts those keys back into the result.
//   ExceptAnalyzeLoad
//                  ExceptLoad of the fused plan (b one round later, eager
//                  compaction) with `elapsed` 0 or 1: whether every
//                  operator's run is timed, as `lir-opt run --analyze=cpu`
//                  does (what the cpu column costs).
// Tearing the dataflow down and reading its arrangement sizes are not timed.
// Reported per run:
//   updates, updates_per_s
//                  input updates of the timed rounds, and per second of wall
//                  time
//   records, batches, bytes
//                  sums over Dataflow::Arrangements() after the timed rounds;
//                  the label lists every arrangement as
//                  `role: <records>r/<batches>b/<bytes>B`, roles named as in
//                  ../shared/reference/SEMANTICS.md section 6 (ArrangementRole
//                  in bench/except_plan.h, with the plan)
//   arranged       updates the arrangements received in the timed rounds
//                  (ArrangementStats::updates_inserted): the maintenance
//                  work each plan does, whatever it costs per update
//   output_rows    size of the accumulated output; a run whose output is not
//                  the right answer (N/2, then N/2 + N/20) is an error
// CPU time is the benchmark's own column (the engine is single-threaded).
// Run with --benchmark_repetitions=N for min and median (scripts/bench.sh);
// small sizes for CI: --benchmark_filter='/keys:100000/'.
//
// Profiling one phase: with LIR_BENCH_STOP_BEFORE_TIMED=1 in the
// environment, each iteration stops itself (SIGSTOP) right before its timed
// part (ExceptRetract: after loading) and again right after it, so a
// profiler attached in between sees only that part
// (scripts/profile_except.sh does this with perf).
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
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
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"

namespace {

using lir::eval::ArrangementStats;
using lir::eval::Compaction;
using lir::eval::DataRow;
using lir::eval::Datum;
using lir::eval::GlobalChanges;
using lir::eval::Multiset;
using lir_bench::ArrangementRole;
using lir_bench::kA;
using lir_bench::kB;
using lir_bench::kPlanText;
using lir_bench::ReduceSides;

// The two plans, parsed (and rewritten) once.
struct Plans {
  lir::Document threshold;
  lir::Document fused;
  std::map<lir::LirId, std::string> threshold_sides;
  std::map<lir::LirId, std::string> fused_sides;
  std::string error;
};

const Plans& GetPlans() {
  static const Plans* plans = [] {
    auto* p = new Plans;
    absl::StatusOr<lir::Document> doc = lir::explain::ParseText(kPlanText);
    if (!doc.ok()) {
      p->error = std::string(doc.status().message());
      return p;
    }
    lir::OptimizerFeatures features;
    features.enable_fused_set_difference = true;
    absl::StatusOr<lir::OptimizeResult> on =
        lir::Optimize(lir::Clone(*doc), features);
    if (!on.ok()) {
      p->error = std::string(on.status().message());
      return p;
    }
    p->threshold = std::move(*doc);
    p->fused = std::move(on->document);
    if (!p->fused.objects.at(0).plan->Is<lir::SetDifferenceOp>()) {
      p->error = "the fused rewrite did not fire";
      return p;
    }
    p->threshold_sides = ReduceSides(*p->threshold.objects.at(0).plan);
    p->fused_sides = ReduceSides(*p->fused.objects.at(0).plan);
    return p;
  }();
  return *plans;
}

// The rounds of one (keys, schedule): loading, then the retraction.
struct Workload {
  int64_t keys = -1;
  int64_t schedule = -1;
  std::vector<GlobalChanges> load;
  GlobalChanges retract;
  uint64_t load_updates = 0;
  uint64_t retract_updates = 0;
};

// Kept for the last (keys, schedule) asked for: benchmarks are registered
// size-major, so each is generated once.
const Workload& GetWorkload(int64_t keys, int64_t schedule) {
  static Workload* current = new Workload;
  if (current->keys == keys && current->schedule == schedule) return *current;
  *current = Workload();
  Multiset a, b, retract;
  a.reserve(static_cast<size_t>(keys));
  b.reserve(static_cast<size_t>(keys / 2 + 1));
  for (int64_t k = 0; k < keys; ++k) {
    a.emplace_back(DataRow{Datum::Int(k)}, 1);
    if (k % 2 == 0) b.emplace_back(DataRow{Datum::Int(k)}, 1);
    if (k % 20 == 0) retract.emplace_back(DataRow{Datum::Int(k)}, -1);
  }
  current->load_updates = a.size() + b.size();
  current->retract_updates = retract.size();
  if (schedule == 0) {
    GlobalChanges round0;
    round0[kA] = std::move(a);
    round0[kB] = std::move(b);
    current->load.push_back(std::move(round0));
  } else {
    GlobalChanges round0, round1;
    round0[kA] = std::move(a);
    round1[kB] = std::move(b);
    current->load.push_back(std::move(round0));
    current->load.push_back(std::move(round1));
  }
  current->retract[kB] = std::move(retract);
  current->keys = keys;
  current->schedule = schedule;
  return *current;
}

// Steps `df` through `rounds` from round `first`, adding the output's
// multiplicities to `output_rows`.
absl::Status StepRounds(lir::eval::Dataflow& df, uint64_t first,
                        const std::vector<const GlobalChanges*>& rounds,
                        int64_t& output_rows) {
  for (size_t r = 0; r < rounds.size(); ++r) {
    absl::StatusOr<Multiset> out = df.Step(first + r, *rounds[r]);
    if (!out.ok()) return out.status();
    for (const auto& [row, diff] : *out) output_rows += diff;
  }
  return absl::OkStatus();
}

enum class Phase { kLoad, kRetract };

// LIR_BENCH_STOP_BEFORE_TIMED (see the top of the file).
bool StopBeforeTimed() {
  const char* v = std::getenv("LIR_BENCH_STOP_BEFORE_TIMED");
  return v != nullptr && std::string(v) == "1";
}

void RunExcept(benchmark::State& state, Phase phase, bool elapsed = false) {
  const Plans& plans = GetPlans();
  if (!plans.error.empty()) {
    state.SkipWithError(plans.error.c_str());
    return;
  }
  const int64_t keys = state.range(0);
  const bool fused = state.range(1) != 0;
  const Workload& w = GetWorkload(keys, state.range(2));
  const lir::Node& plan =
      *(fused ? plans.fused : plans.threshold).objects.at(0).plan;
  lir::eval::DataflowOptions options;
  options.object = "bench";
  options.globals[kA] = 1;
  options.globals[kB] = 1;
  options.compaction =
      state.range(3) != 0 ? Compaction::kEager : Compaction::kNone;
  // lir-opt run --analyze=cpu: every operator run and arrangement merge
  // timed (DataflowOptions::measure_elapsed).
  options.measure_elapsed = elapsed;

  std::vector<const GlobalChanges*> load, retract = {&w.retract};
  for (const GlobalChanges& round : w.load) load.push_back(&round);
  const int64_t expected =
      keys / 2 + (phase == Phase::kRetract ? (keys + 19) / 20 : 0);

  // Read in the first iteration only (every iteration does the same work):
  // Arrangements() models the bytes of a million keys, untimed but slow.
  std::vector<ArrangementStats> stats;
  // Updates the arrangements received before the timed retraction round.
  uint64_t inserted_before = 0;
  int64_t output_rows = 0;
  bool first = true;
  if (phase == Phase::kRetract) {
    // On a dataflow of its own, so that no iteration reads its arrangements
    // (all of their memory) right before its timed round.
    absl::StatusOr<std::unique_ptr<lir::eval::Dataflow>> df =
        lir::eval::MakeIncrementalDataflow(plan, options);
    int64_t ignored = 0;
    if (df.ok() && StepRounds(**df, 0, load, ignored).ok()) {
      for (const ArrangementStats& s : (*df)->Arrangements()) {
        inserted_before += s.updates_inserted;
      }
    }
  }
  for (auto _ : state) {
    if (phase == Phase::kLoad && StopBeforeTimed()) std::raise(SIGSTOP);
    if (phase == Phase::kRetract) state.PauseTiming();
    absl::StatusOr<std::unique_ptr<lir::eval::Dataflow>> df =
        lir::eval::MakeIncrementalDataflow(plan, options);
    absl::Status status = df.status();
    output_rows = 0;
    if (status.ok()) status = StepRounds(**df, 0, load, output_rows);
    if (phase == Phase::kRetract) {
      if (StopBeforeTimed()) std::raise(SIGSTOP);
      state.ResumeTiming();
      if (status.ok()) {
        status = StepRounds(**df, load.size(), retract, output_rows);
      }
    }
    if (StopBeforeTimed()) std::raise(SIGSTOP);
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
    state.PauseTiming();
    if (first) stats = (*df)->Arrangements();
    first = false;
    df->reset();
    state.ResumeTiming();
  }
  if (output_rows != expected) {
    state.SkipWithError(absl::StrCat("wrong result: ", output_rows,
                                     " output rows, expected ", expected)
                            .c_str());
    return;
  }

  const auto& sides = fused ? plans.fused_sides : plans.threshold_sides;
  uint64_t records = 0, batches = 0, bytes = 0, inserted = 0;
  std::string label;
  for (const ArrangementStats& s : stats) {
    records += s.records;
    batches += s.batches;
    bytes += s.bytes;
    inserted += s.updates_inserted;
    absl::StrAppend(&label, label.empty() ? "" : "; ",
                    ArrangementRole(s, sides), ": ", s.records, "r/", s.batches,
                    "b/", s.bytes, "B");
  }
  state.SetLabel(label);
  const uint64_t updates =
      phase == Phase::kLoad ? w.load_updates : w.retract_updates;
  state.counters["updates"] = static_cast<double>(updates);
  state.counters["updates_per_s"] =
      benchmark::Counter(static_cast<double>(updates),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records"] = static_cast<double>(records);
  state.counters["batches"] = static_cast<double>(batches);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["output_rows"] = static_cast<double>(output_rows);
  state.counters["arranged"] = static_cast<double>(
      inserted - (phase == Phase::kRetract ? inserted_before : 0));
}

void BM_ExceptLoad(benchmark::State& state) { RunExcept(state, Phase::kLoad); }
// What --analyze=cpu costs: the fused load with and without timing every
// operator (`elapsed` 0/1), alternated in one process.
void BM_ExceptAnalyzeLoad(benchmark::State& state) {
  RunExcept(state, Phase::kLoad, state.range(4) != 0);
}
void BM_ExceptRetract(benchmark::State& state) {
  RunExcept(state, Phase::kRetract);
}

// Size-major, so each workload is generated once per benchmark.
void Configurations(benchmark::internal::Benchmark* b) {
  b->ArgNames({"keys", "fused", "sched", "eager"});
  for (int64_t keys : {100000, 1000000}) {
    for (int64_t sched : {0, 1}) {
      for (int64_t eager : {0, 1}) {
        for (int64_t fused : {0, 1}) b->Args({keys, fused, sched, eager});
      }
    }
  }
}

BENCHMARK(BM_ExceptLoad)
    ->Apply(Configurations)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ExceptRetract)
    ->Apply(Configurations)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ExceptAnalyzeLoad)
    ->ArgNames({"keys", "fused", "sched", "eager", "elapsed"})
    ->Args({100000, 1, 1, 1, 0})
    ->Args({100000, 1, 1, 1, 1})
    ->Args({1000000, 1, 1, 1, 0})
    ->Args({1000000, 1, 1, 1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
