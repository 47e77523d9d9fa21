// Cost of the fused set-difference pass against a bare traversal.
//
// Workloads: generated kMixed plans of 10^3 .. 10^6 nodes with one EXCEPT
// candidate per 25 nodes (half of them firing). Per size:
//   Traversal             ForEachPreOrder counting nodes: the floor any
//                         pass pays.
//   NlohmannParse         nlohmann::json::parse of the plan's JSON form:
//                         the floor any reader of that form pays.
//   DryRun                FusedSetDifferencePass with apply=false (the flag
//                         off) on the same plan: visits and decides every
//                         candidate, fills the report, mutates nothing.
// and from 10^4 nodes, on a fresh clone made (and the previous clone freed)
// inside PauseTiming, which costs a few microseconds per iteration:
//   Traversal_FreshClone  the floor for Apply: a just-built clone is laid
//                         out and cached differently from the long-lived plan.
//   DryRun_FreshClone     apply=false on the fresh clone.
//   Apply_FreshClone      the rewrite itself (apply=true).
// and, per size, what `lir-opt explain FILE` does with every feature off
// (Pipeline::Run on the plan's text: parse, validate, optimize, validate,
// print), side by side:
//   Explain_ReportOn      with the rewrite report (--explain_declines or
//                         --report): each disabled pass dry-runs and the
//                         arrangements are counted before and after.
//   Explain_ReportOff     without it (a plain explain): no pass runs.
// Each reports `ns_per_node` (CPU time per plan node), MB/s in plan text
// bytes (JSON bytes for NlohmannParse) and the candidate count. Goal: the pass
// within 3x of the traversal floor, linear in size. From 10^5 nodes every
// variant misses the cache on almost every node, so ns_per_node there is mostly
// memory latency. Benchmarks are registered size-major and only the current
// plan is kept, so each plan is generated once (the 10^6 plan takes about 0.7
// GB, twice that with its clone).
#include <cstdint>
#include <memory>
#include <string>

#include "bench/floors.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/pipeline/pipeline.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/pass.h"
#include "tests/support/plan_generator.h"

namespace {

struct Workload {
  int64_t size = -1;
  lir::Document doc;
  size_t nodes = 0;
  int64_t text_bytes = 0;
  /// The plan's verbose text, what `lir-opt explain` reads.
  std::string text;
  /// The plan's JSON form, for the nlohmann floor.
  std::string json;
};

// The plan of `size` nodes; generated on first use, replacing the last one.
const Workload& GetWorkload(int64_t size) {
  static Workload* current = new Workload;
  if (current->size != size) {
    current->doc = lir::Document{};
    lir::test::PlanGeneratorOptions options;
    options.seed = 20260820;
    options.node_count = static_cast<size_t>(size);
    options.shape = lir::test::PlanShape::kMixed;
    options.except_candidates = static_cast<size_t>(size) / 25;
    options.except_fire_fraction = 0.5;
    lir::test::GeneratedPlan plan = lir::test::GeneratePlan(options);
    current->nodes = lir::CountNodes(*plan.plan);
    current->doc = lir::test::WrapInDocument(std::move(plan.plan));
    current->text = lir::explain::PrintText(current->doc);
    current->text_bytes = static_cast<int64_t>(current->text.size());
    current->json = lir_bench::JsonText(current->doc);
    current->size = size;
  }
  return *current;
}

// MB/s is in plan text bytes unless `bytes` says otherwise.
void SetCounters(benchmark::State& state, const Workload& w, size_t candidates,
                 int64_t bytes = -1) {
  lir_bench::SetBytesPerIteration(state, bytes < 0 ? w.text_bytes : bytes);
  state.counters["nodes"] = static_cast<double>(w.nodes);
  state.counters["candidates"] = static_cast<double>(candidates);
  // Seconds per node, shown with an SI prefix ("n" = nanoseconds).
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(w.nodes),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

void BM_Traversal(benchmark::State& state) {
  const Workload& w = GetWorkload(state.range(0));
  for (auto _ : state) {
    size_t count = 0;
    lir::ForEachPreOrder(*w.doc.objects[0].plan,
                         [&](const lir::Node&, int) { ++count; });
    benchmark::DoNotOptimize(count);
  }
  SetCounters(state, w, 0);
}

// The floor for readers of the JSON form, on the same plan.
void BM_NlohmannParse(benchmark::State& state) {
  const Workload& w = GetWorkload(state.range(0));
  for (auto _ : state) lir_bench::NlohmannParse(w.json);
  SetCounters(state, w, 0, static_cast<int64_t>(w.json.size()));
}

void BM_DryRun(benchmark::State& state) {
  const Workload& w = GetWorkload(state.range(0));
  // apply=false never writes to the document.
  lir::Document& doc = const_cast<lir::Document&>(w.doc);
  size_t candidates = 0;
  for (auto _ : state) {
    lir::RewriteReport report;
    lir::PassContext ctx{
        .apply = false, .pass_name = "fused_set_difference", .report = &report};
    if (!lir::FusedSetDifferencePass(doc, ctx).ok()) {
      state.SkipWithError("pass failed");
      break;
    }
    candidates = report.candidates.size();
    benchmark::DoNotOptimize(report);
  }
  SetCounters(state, w, candidates);
}

// Runs `body(copy)` on a fresh clone of the workload each iteration; the
// clone, and freeing the previous one, are not timed.
template <typename Body>
void OnFreshClone(benchmark::State& state, const Workload& w, Body body) {
  lir::Document copy;
  for (auto _ : state) {
    state.PauseTiming();
    copy = lir::Clone(w.doc);
    state.ResumeTiming();
    body(copy);
  }
}

void BM_Traversal_FreshClone(benchmark::State& state) {
  const Workload& w = GetWorkload(state.range(0));
  OnFreshClone(state, w, [](lir::Document& copy) {
    size_t count = 0;
    lir::ForEachPreOrder(*copy.objects[0].plan,
                         [&](const lir::Node&, int) { ++count; });
    benchmark::DoNotOptimize(count);
  });
  SetCounters(state, w, 0);
}

// The pass on a fresh clone; the report is freed untimed.
void RunPassOnFreshClone(benchmark::State& state, bool apply) {
  const Workload& w = GetWorkload(state.range(0));
  size_t candidates = 0;
  OnFreshClone(state, w, [&](lir::Document& copy) {
    lir::RewriteReport report;
    lir::PassContext ctx{
        .apply = apply, .pass_name = "fused_set_difference", .report = &report};
    if (!lir::FusedSetDifferencePass(copy, ctx).ok()) {
      state.SkipWithError("pass failed");
    }
    candidates = report.candidates.size();
    benchmark::DoNotOptimize(report);
    state.PauseTiming();
    report = {};
    state.ResumeTiming();
  });
  SetCounters(state, w, candidates);
}

void BM_DryRun_FreshClone(benchmark::State& state) {
  RunPassOnFreshClone(state, false);
}

void BM_Apply_FreshClone(benchmark::State& state) {
  RunPassOnFreshClone(state, true);
}

// `lir-opt explain` with every feature off, the report on or off.
void RunExplain(benchmark::State& state, bool report) {
  const Workload& w = GetWorkload(state.range(0));
  lir::PipelineOptions options;
  options.report = report;
  const lir::Pipeline pipeline(options);
  size_t candidates = 0;
  for (auto _ : state) {
    absl::StatusOr<lir::PipelineResult> result = pipeline.Run(w.text);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      break;
    }
    // Printed back unchanged: nothing was rewritten.
    if (result->output.size() != w.text.size()) {
      state.SkipWithError("explain changed the plan with every feature off");
      break;
    }
    candidates = result->report.candidates.size();
    benchmark::DoNotOptimize(result);
  }
  SetCounters(state, w, candidates);
}

void BM_Explain_ReportOn(benchmark::State& state) { RunExplain(state, true); }

void BM_Explain_ReportOff(benchmark::State& state) { RunExplain(state, false); }

void Register() {
  auto add = [](const char* name, void (*fn)(benchmark::State&), int64_t size) {
    benchmark::RegisterBenchmark(name, fn)->Arg(size)->Unit(
        benchmark::kMicrosecond);
  };
  for (int64_t size : {1000, 10000, 100000, 1000000}) {
    add("BM_Traversal", BM_Traversal, size);
    add("BM_NlohmannParse", BM_NlohmannParse, size);
    add("BM_DryRun", BM_DryRun, size);
    add("BM_Explain_ReportOn", BM_Explain_ReportOn, size);
    add("BM_Explain_ReportOff", BM_Explain_ReportOff, size);
    if (size >= 10000) {
      add("BM_Traversal_FreshClone", BM_Traversal_FreshClone, size);
      add("BM_DryRun_FreshClone", BM_DryRun_FreshClone, size);
      add("BM_Apply_FreshClone", BM_Apply_FreshClone, size);
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
