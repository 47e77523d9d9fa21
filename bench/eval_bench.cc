// Throughput of the incremental engine (src/interp/eval/incremental.h) on a
// maintained `SELECT k FROM a EXCEPT SELECT k FROM b`, with the fused
// set-difference rewrite off (Threshold::Basic over the co-arranged Union,
// the first case of testdata/recognizer/shapes.txt) and on (SetDifference,
// from lir::Optimize with enable_fused_set_difference).
//
// Data: a = {0, 1, ..., N-1}, b = the even keys of a (N/2 keys), one-column
// integer rows with multiplicity 1. Arguments:
//   keys   N
//   fused  0: the Threshold plan; 1: the fused SetDifference plan
//   sched  0: a and b both at round 0; 1: a at round 0, b at round 1
//   eager  0: Compaction::kNone; 1: Compaction::kEager
// One iteration builds the dataflow (MakeIncrementalDataflow) and steps it
// through every round; tearing it down and reading its arrangement sizes
// are not timed. Reported:
//   updates_per_s  input updates (N + N/2) per second of wall time
//   records, batches, bytes
//                  sums over Dataflow::Arrangements() after the last round
//                  (the label lists them per arrangement)
//   output_rows    size of the accumulated output (N/2 when correct)
// CPU time is the benchmark's own column (single-threaded, so it tracks wall
// time). Run small sizes in CI: --benchmark_filter='/keys:100000/'.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "src/explain/text.h"
#include "src/interp/eval/dataflow.h"
#include "src/interp/eval/datum.h"
#include "src/interp/eval/incremental.h"
#include "src/lir/document.h"
#include "src/lir/node.h"
#include "src/recognizer/features.h"
#include "src/recognizer/pass.h"

namespace {

using lir::eval::Compaction;
using lir::eval::DataRow;
using lir::eval::Datum;
using lir::eval::GlobalChanges;
using lir::eval::Multiset;

constexpr char kA[] = "materialize.public.a";
constexpr char kB[] = "materialize.public.b";

// Materialize's verbose plan for the EXCEPT: distinct legs, both arms
// arranged by #0, the subtracted arm negated.
constexpr char kPlanText[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        ArrangeBy
          input_key=[#0]
          raw=true
          Reduce::Distinct
            key_plan=id
            val_plan
              project=()
            Get::Collection materialize.public.a
              project=(#0)
              raw=true
        Negate
          ArrangeBy
            input_key=[#0]
            raw=true
            Reduce::Distinct
              key_plan=id
              val_plan
                project=()
              Get::Collection materialize.public.b
                project=(#0)
                raw=true

Source materialize.public.a
  project=(#0)
Source materialize.public.b
  project=(#0)

Target cluster: quickstart
)";

// The two plans, parsed (and rewritten) once.
struct Plans {
  lir::Document threshold;
  lir::Document fused;
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
    }
    return p;
  }();
  return *plans;
}

// Rounds of global changes for `keys` and a schedule, kept for the last
// size asked for.
struct Workload {
  int64_t keys = -1;
  int64_t schedule = -1;
  std::vector<GlobalChanges> rounds;
  uint64_t updates = 0;
};

const Workload& GetWorkload(int64_t keys, int64_t schedule) {
  static Workload* current = new Workload;
  if (current->keys != keys || current->schedule != schedule) {
    current->rounds.clear();
    Multiset a, b;
    a.reserve(static_cast<size_t>(keys));
    b.reserve(static_cast<size_t>(keys / 2 + 1));
    for (int64_t k = 0; k < keys; ++k) {
      a.emplace_back(DataRow{Datum::Int(k)}, 1);
      if (k % 2 == 0) b.emplace_back(DataRow{Datum::Int(k)}, 1);
    }
    current->updates = a.size() + b.size();
    if (schedule == 0) {
      GlobalChanges round0;
      round0[kA] = std::move(a);
      round0[kB] = std::move(b);
      current->rounds.push_back(std::move(round0));
    } else {
      GlobalChanges round0, round1;
      round0[kA] = std::move(a);
      round1[kB] = std::move(b);
      current->rounds.push_back(std::move(round0));
      current->rounds.push_back(std::move(round1));
    }
    current->keys = keys;
    current->schedule = schedule;
  }
  return *current;
}

void BM_ExceptIncremental(benchmark::State& state) {
  const Plans& plans = GetPlans();
  if (!plans.error.empty()) {
    state.SkipWithError(plans.error.c_str());
    return;
  }
  const bool fused = state.range(1) != 0;
  const Workload& w = GetWorkload(state.range(0), state.range(2));
  const lir::Node& plan =
      *(fused ? plans.fused : plans.threshold).objects.at(0).plan;
  lir::eval::DataflowOptions options;
  options.object = "bench";
  options.globals[kA] = 1;
  options.globals[kB] = 1;
  options.compaction =
      state.range(3) != 0 ? Compaction::kEager : Compaction::kNone;

  std::vector<lir::eval::ArrangementStats> stats;
  int64_t output_rows = 0;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<lir::eval::Dataflow>> df =
        lir::eval::MakeIncrementalDataflow(plan, options);
    if (!df.ok()) {
      state.SkipWithError(std::string(df.status().message()).c_str());
      return;
    }
    output_rows = 0;
    for (size_t r = 0; r < w.rounds.size(); ++r) {
      absl::StatusOr<Multiset> out = (*df)->Step(r, w.rounds[r]);
      if (!out.ok()) {
        state.SkipWithError(std::string(out.status().message()).c_str());
        return;
      }
      for (const auto& [row, diff] : *out) output_rows += diff;
    }
    state.PauseTiming();
    stats = (*df)->Arrangements();
    df->reset();
    state.ResumeTiming();
  }

  uint64_t records = 0, batches = 0, bytes = 0;
  std::string label;
  for (const lir::eval::ArrangementStats& s : stats) {
    records += s.records;
    batches += s.batches;
    bytes += s.bytes;
    absl::StrAppend(&label, label.empty() ? "" : "; ", s.operator_name, " ",
                    s.records, "r/", s.batches, "b/", s.bytes, "B");
  }
  state.SetLabel(label);
  state.counters["updates_per_s"] = benchmark::Counter(
      static_cast<double>(w.updates),
      benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records"] = static_cast<double>(records);
  state.counters["batches"] = static_cast<double>(batches);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["output_rows"] = static_cast<double>(output_rows);
}

// Size-major, so each workload is generated once.
void Configurations(benchmark::internal::Benchmark* b) {
  b->ArgNames({"keys", "fused", "sched", "eager"});
  for (int64_t keys : {100000, 1000000}) {
    for (int64_t eager : {0, 1}) {
      for (int64_t sched : {0, 1}) {
        for (int64_t fused : {0, 1}) b->Args({keys, fused, sched, eager});
      }
    }
  }
}

BENCHMARK(BM_ExceptIncremental)
    ->Apply(Configurations)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
