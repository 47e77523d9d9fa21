// The fueled spine's merge work under idle scheduling: the synthetic
// workload of ../shared/reference/SPINE.md section 6 (src/eval/
// spine_workload.h) over a grid of batch sizes, idle turns, policies and
// exertions, and the spine's own speed on synthetic and on real batches.
//
// The grid, one benchmark per cell, named
//   BM_SpineCell/<policy>/<exertion>/B:<B>/k:<k>/E:<E>
// (policy and exertion spelled as `lir-opt spine` takes them): a snapshot of
// N = 2^20 updates settled, then n = 64 batches of B updates, each followed
// by up to k idle turns, and E empty batches after each batch (each with its
// own activation and up to k idle turns), for
//   policy    idle_merge:1000, proportional:16, proportional:1337
//   exertion  stock, funded
//   B         256, 1024, 4096, 16384, 65536
//   k         0, 1, 4, 16, 64, 256, 1024, 4096
//   E         0, 10
// Each cell is deterministic, so it runs once (Iterations(1)); reported:
//   work_per_update, merge_work, idle_turns_used, virtual_batches,
//   grants_credit, grants_bank, unfunded_continuations, declines,
//   nonempty_batches    SPINE.md section 6's metrics, counted after the
//                       snapshot settled (what `lir-opt spine` prints)
//   inserted_updates    n x B
//   snapshot, batches   N and n
//   turns               activations (n x (1 + E)) plus idle turns used
// and its wall time (snapshot included), from which the report computes ns
// per merged record.
//
// BM_SpineGrid runs every cell above in one iteration: the grid's wall time,
// what a user waits for, with its total merge work and turns.
//
// BM_SpineReal/<policy>/<exertion>/N:<N>/B:<B> is the spine over real
// batches (Batch::Real: consolidated records with random 128-bit
// fingerprints, so nothing cancels): a snapshot of N records at time 0
// settled (untimed), then 64 batches of B records, batch i at time i with
// the compaction frontier at i when it is inserted, each followed by up to
// 16 idle turns; then the input closes and the spine drains. Timed: the
// batches, the idle turns and the drain, so every merge begun (a real merge
// is computed when it begins) is also counted as merge work. Reported: the
// counters above plus `records_held`, which must be N + 64 B. This is what
// an arrangement of `lir-opt run --spine` pays per merged record.
//
// Small sizes for CI: see LIR_BENCH_SMOKE_FILTER_spine_bench in
// bench/CMakeLists.txt.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "lir/eval/spine.h"
#include "lir/eval/spine_workload.h"

namespace {

using lir::eval::spine::Batch;
using lir::eval::spine::Consolidate;
using lir::eval::spine::Counters;
using lir::eval::spine::Exertion;
using lir::eval::spine::Policy;
using lir::eval::spine::Record;
using lir::eval::spine::RunWorkload;
using lir::eval::spine::Spine;
using lir::eval::spine::Workload;
using lir::eval::spine::WorkloadResult;

constexpr uint64_t kSnapshot = uint64_t{1} << 20;
constexpr uint64_t kBatches = 64;
constexpr uint64_t kBatchSizes[] = {256, 1024, 4096, 16384, 65536};
constexpr uint64_t kIdleTurns[] = {0, 1, 4, 16, 64, 256, 1024, 4096};
constexpr uint64_t kEmptyBatches[] = {0, 10};
constexpr const char* kPolicies[] = {"idle_merge:1000", "proportional:16",
                                     "proportional:1337"};
constexpr Exertion kExertions[] = {Exertion::kStock, Exertion::kFunded};

const char* ExertionName(Exertion e) {
  return e == Exertion::kStock ? "stock" : "funded";
}

Policy ParsePolicy(const char* text) {
  absl::StatusOr<Policy> policy = Policy::Parse(text);
  if (!policy.ok()) std::abort();  // the constants above are valid
  return *policy;
}

/// Every cell of the grid, in the order they are registered.
std::vector<Workload> Grid() {
  std::vector<Workload> cells;
  for (uint64_t empty : kEmptyBatches) {
    for (const char* policy : kPolicies) {
      for (Exertion exertion : kExertions) {
        for (uint64_t b : kBatchSizes) {
          for (uint64_t k : kIdleTurns) {
            Workload w;
            w.policy = ParsePolicy(policy);
            w.exertion = exertion;
            w.snapshot = kSnapshot;
            w.batches = kBatches;
            w.batch_size = b;
            w.idle_turns = k;
            w.empty_batches = empty;
            cells.push_back(w);
          }
        }
      }
    }
  }
  return cells;
}

void SetCounters(benchmark::State& state, const Counters& c, uint64_t snapshot,
                 uint64_t inserted, uint64_t activations,
                 uint64_t nonempty_batches) {
  const auto set = [&state](const char* name, uint64_t value) {
    state.counters[name] = static_cast<double>(value);
  };
  state.counters["work_per_update"] =
      static_cast<double>(c.merge_work) / static_cast<double>(inserted);
  set("merge_work", c.merge_work);
  set("idle_turns_used", c.idle_turns_used);
  set("virtual_batches", c.virtual_batches);
  set("grants_credit", c.grants_credit);
  set("grants_bank", c.grants_bank);
  set("unfunded_continuations", c.unfunded_continuations);
  set("declines", c.declines);
  set("nonempty_batches", nonempty_batches);
  set("inserted_updates", inserted);
  set("turns", activations + c.idle_turns_used);
  // N and n, so the report computes N / B from the run itself.
  set("snapshot", snapshot);
  set("batches", kBatches);
}

void BM_SpineCell(benchmark::State& state, const Workload& w) {
  absl::StatusOr<WorkloadResult> result;
  for (auto _ : state) {
    result = RunWorkload(w);
    benchmark::DoNotOptimize(result);
  }
  if (!result.ok()) {
    state.SkipWithError(std::string(result.status().message()).c_str());
    return;
  }
  SetCounters(state, result->counters, w.snapshot, result->inserted_updates,
              w.batches * (1 + w.empty_batches), result->nonempty_batches);
}

void BM_SpineGrid(benchmark::State& state) {
  const std::vector<Workload> grid = Grid();
  uint64_t work = 0;
  uint64_t turns = 0;
  for (auto _ : state) {
    work = 0;
    turns = 0;
    for (const Workload& w : grid) {
      absl::StatusOr<WorkloadResult> result = RunWorkload(w);
      if (!result.ok()) {
        state.SkipWithError(std::string(result.status().message()).c_str());
        return;
      }
      work += result->counters.merge_work;
      turns +=
          w.batches * (1 + w.empty_batches) + result->counters.idle_turns_used;
    }
  }
  state.counters["cells"] = static_cast<double>(grid.size());
  state.counters["merge_work"] = static_cast<double>(work);
  state.counters["turns"] = static_cast<double>(turns);
}

/// splitmix64: deterministic, well-mixed fingerprints.
uint64_t Mix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// A consolidated batch of `n` records with random fingerprints at `time`.
Batch RealBatch(uint64_t n, uint64_t time, uint64_t& seed) {
  std::vector<Record> records(n);
  for (Record& r : records) {
    r.fp_hi = Mix(seed);
    r.fp_lo = Mix(seed);
    r.time = time;
    r.diff = 1;
  }
  Consolidate(records);
  return Batch::Real(std::move(records));
}

constexpr uint64_t kRealIdleTurns = 16;

void BM_SpineReal(benchmark::State& state, Policy policy, Exertion exertion,
                  uint64_t snapshot, uint64_t batch_size) {
  // The records are made once, outside the timed region; Batch shares them.
  uint64_t seed = 42;
  const Batch first = RealBatch(snapshot, 0, seed);
  std::vector<Batch> batches;
  for (uint64_t i = 1; i <= kBatches; ++i) {
    batches.push_back(RealBatch(batch_size, i, seed));
  }
  Counters counters;
  uint64_t held = 0;
  uint64_t nonempty = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Spine spine(policy, exertion);
    spine.Activate(first);
    while (spine.IdleTurn()) {
    }
    spine.ResetAccounting();
    state.ResumeTiming();
    for (uint64_t i = 1; i <= kBatches; ++i) {
      spine.set_compaction_frontier(i);
      spine.Activate(batches[i - 1]);
      for (uint64_t t = 0; t < kRealIdleTurns && spine.IdleTurn(); ++t) {
      }
    }
    spine.ActivateClose();
    while (spine.IdleTurn()) {
    }
    state.PauseTiming();
    counters = spine.counters();
    held = spine.RecordsHeld();
    nonempty = spine.NonEmptyBatches();
    state.ResumeTiming();
  }
  if (held != snapshot + kBatches * batch_size) {
    state.SkipWithError(absl::StrCat("the spine holds ", held, " records, not ",
                                     snapshot + kBatches * batch_size)
                            .c_str());
    return;
  }
  SetCounters(state, counters, snapshot, kBatches * batch_size, kBatches + 1,
              nonempty);
  state.counters["records_held"] = static_cast<double>(held);
}

void Register() {
  for (const Workload& w : Grid()) {
    const std::string name = absl::StrCat(
        "BM_SpineCell/", w.policy.ToString(), "/", ExertionName(w.exertion),
        "/B:", w.batch_size, "/k:", w.idle_turns, "/E:", w.empty_batches);
    benchmark::RegisterBenchmark(name.c_str(), BM_SpineCell, w)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::RegisterBenchmark("BM_SpineGrid", BM_SpineGrid)
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  // Materialize's compute policy; two sizes with the same N / B.
  const Policy policy = ParsePolicy("proportional:16");
  for (const auto& [snapshot, batch_size] :
       {std::pair<uint64_t, uint64_t>{uint64_t{1} << 16, 1024},
        std::pair<uint64_t, uint64_t>{uint64_t{1} << 20, 16384}}) {
    for (Exertion exertion : kExertions) {
      const std::string name = absl::StrCat("BM_SpineReal/", policy.ToString(),
                                            "/", ExertionName(exertion),
                                            "/N:", snapshot, "/B:", batch_size);
      benchmark::RegisterBenchmark(name.c_str(), BM_SpineReal, policy, exertion,
                                   snapshot, batch_size)
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
