// Cost of the three analyses (arity, monotonicity, available arrangements)
// and of everything DocumentAnalysis::Run runs over a document (what
// `lir-opt explain --annotate` runs): `document_all_five` is those three,
// unique keys and the arrangement accounting (arrangements built).
//
// Workloads:
//   mixed/N:  generated kMixed plans of N = 10^3 .. 10^6 nodes;
//   deep/N:   a kDeepChain of N nodes (depth N);
//   letrec/K: one LetRec of K bindings, each a chain of 50 nodes ending in a
//             read of the next binding (the last one a constant), so the
//             arity fixpoint needs K + 1 rounds; monotonicity and
//             arrangements settle in 2.
// Floors on the same plan (bench/floors.h): `traverse`, a post-order walk
// reading each node's kind, and `nlohmann_parse`, nlohmann::json::parse of
// the plan's JSON form. MB/s is in plan text bytes (JSON bytes for
// nlohmann_parse). Reported: `per_node` (CPU seconds per plan node per
// run; 35.2n = 35.2 ns), `per_eval` (per transfer-function call, which counts
// re-evaluations in fixpoint rounds) and `rounds` (of the LetRec, when there is
// one).
//
// Nodes are 72 bytes (632 before payloads were boxed), but each node is its
// own heap allocation, interleaved with its payload's, so beyond ~10^4 nodes
// every walk is bound by memory latency (each node's first touch misses the
// caches); `traverse` shows it (docs/BENCHMARKS.md, node size before/after).
// As explain_bench notes, glibc mmap()s big buffers afresh per iteration;
// for steady-state numbers run with
//   MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=100000000000
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/floors.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/interp/driver.h"
#include "lir/interp/monotonicity.h"
#include "lir/node.h"
#include "lir/plan_builder.h"
#include "tests/support/plan_generator.h"

namespace {

using lir::interp::Analysis;

constexpr int kChainPerBinding = 50;

/// A LetRec of `bindings` ids: l<i> = Mfp(Negate(... Get l<i+1>)) with
/// kChainPerBinding nodes, the last binding a constant; body reads l0.
lir::NodePtr SlowLetRec(int bindings) {
  using lir::PlanBuilder;
  std::vector<lir::LetRecBinding> values;
  for (int i = 0; i < bindings; ++i) {
    PlanBuilder value;
    if (i + 1 == bindings) {
      value = PlanBuilder::Constant({lir::Row{lir::Literal::Int(1)}});
    } else {
      value = PlanBuilder::Get(
          lir::CollectionId::Local(static_cast<uint64_t>(i + 1)),
          PlanBuilder::Raw());
      for (int d = 1; d < kChainPerBinding; ++d) {
        value = std::move(value).Negate();
      }
    }
    values.push_back(
        {static_cast<uint64_t>(i), std::move(value), std::nullopt});
  }
  PlanBuilder root = PlanBuilder::LetRec(
      std::move(values),
      PlanBuilder::Get(lir::CollectionId::Local(0), PlanBuilder::Raw()));
  // Build() validates too; the benchmarks time the analyses alone.
  lir::NodePtr plan = std::move(root).Release();
  lir::AssignPostOrderIds(*plan);
  return plan;
}

/// One workload, built once per (kind, size) and kept while its benchmarks
/// run (they are registered workload-major).
struct Workload {
  std::string key;
  lir::Document doc;
  std::map<std::string, int> arities;
  int64_t nodes = 0;
  int64_t text_bytes = 0;
  /// The plan's JSON form, for the nlohmann floor.
  std::string json;
};

const Workload& Get(const std::string& kind, int64_t size) {
  static std::unique_ptr<Workload> current;
  const std::string key = kind + "/" + std::to_string(size);
  if (current != nullptr && current->key == key) return *current;
  current.reset();
  auto workload = std::make_unique<Workload>();
  workload->key = key;
  lir::NodePtr plan;
  if (kind == "letrec") {
    plan = SlowLetRec(static_cast<int>(size));
  } else {
    lir::test::PlanGeneratorOptions options;
    options.seed = 42;
    options.node_count = static_cast<size_t>(size);
    options.shape = kind == "deep" ? lir::test::PlanShape::kDeepChain
                                   : lir::test::PlanShape::kMixed;
    lir::test::GeneratedPlan generated = lir::test::GeneratePlan(options);
    workload->arities = generated.validate_options.global_arity;
    plan = std::move(generated.plan);
  }
  workload->nodes = static_cast<int64_t>(lir::CountNodes(*plan));
  workload->doc = lir::test::WrapInDocument(std::move(plan));
  // A deep chain's text is quadratic in its depth (10 GB at 10^5 levels of
  // indentation): it gets no MB/s.
  if (kind != "deep") {
    workload->text_bytes =
        static_cast<int64_t>(lir::explain::PrintText(workload->doc).size());
  }
  workload->json = lir_bench::JsonText(workload->doc);
  current = std::move(workload);
  return *current;
}

template <typename D>
void Report(benchmark::State& state, const Workload& w, const Analysis<D>& a) {
  state.counters["nodes"] = static_cast<double>(w.nodes);
  // Seconds per node / per evaluation (printed with SI prefixes: 35.2n is
  // 35.2 ns).
  state.counters["per_node"] =
      benchmark::Counter(static_cast<double>(w.nodes),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  state.counters["per_eval"] =
      benchmark::Counter(static_cast<double>(a.evaluations),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  lir_bench::ReportMemory(state);
  if (!a.let_recs.empty()) {
    state.counters["rounds"] =
        static_cast<double>(a.let_recs.begin()->second.rounds);
  }
}

enum class Which {
  kTraverse,
  kNlohmannParse,
  kArity,
  kMonotonic,
  kArrangements,
  kAll
};

void BM_Analysis(benchmark::State& state, const std::string& kind,
                 Which which) {
  const Workload& w = Get(kind, state.range(0));
  const lir::Node& plan = *w.doc.objects[0].plan;
  std::set<std::string> monotonic;
  for (const auto& [name, arity] : w.arities) monotonic.insert(name);
  // Arrangements read the arity results; compute them once, untimed.
  absl::StatusOr<Analysis<lir::interp::Arity>> arities =
      lir::interp::AnalyzeArity(plan, w.arities);
  if (!arities.ok()) {
    state.SkipWithError(std::string(arities.status().message()).c_str());
    return;
  }
  lir::interp::AnalysisInputs inputs;
  inputs.global_arity = w.arities;
  inputs.monotonic_ids = monotonic;
  for (auto _ : state) {
    switch (which) {
      case Which::kTraverse: {
        lir_bench::BareTraversal(w.doc);
        Analysis<bool> visits;
        visits.evaluations = static_cast<uint64_t>(w.nodes);
        Report(state, w, visits);
        break;
      }
      case Which::kNlohmannParse: {
        lir_bench::NlohmannParse(w.json);
        Analysis<bool> none;
        none.evaluations = static_cast<uint64_t>(w.nodes);
        Report(state, w, none);
        break;
      }
      case Which::kArity: {
        auto a = lir::interp::AnalyzeArity(plan, w.arities);
        benchmark::DoNotOptimize(a);
        Report(state, w, *a);
        break;
      }
      case Which::kMonotonic: {
        auto a = lir::interp::AnalyzeMonotonicity(plan, monotonic);
        benchmark::DoNotOptimize(a);
        Report(state, w, *a);
        break;
      }
      case Which::kArrangements: {
        auto a = lir::interp::AnalyzeArrangements(plan, &*arities);
        benchmark::DoNotOptimize(a);
        Report(state, w, *a);
        break;
      }
      case Which::kAll: {
        auto a = lir::interp::DocumentAnalysis::Run(w.doc, inputs);
        benchmark::DoNotOptimize(a);
        Report(state, w, a->arity());
        break;
      }
    }
  }
  const int64_t bytes = which == Which::kNlohmannParse
                            ? static_cast<int64_t>(w.json.size())
                            : w.text_bytes;
  if (bytes > 0) lir_bench::SetBytesPerIteration(state, bytes);
}

void Register() {
  struct Named {
    const char* name;
    Which which;
  };
  const Named analyses[] = {{"traverse", Which::kTraverse},
                            {"nlohmann_parse", Which::kNlohmannParse},
                            {"arity", Which::kArity},
                            {"monotonic", Which::kMonotonic},
                            {"arrangements", Which::kArrangements},
                            {"document_all_five", Which::kAll}};
  struct Sized {
    const char* kind;
    int64_t size;
  };
  const Sized workloads[] = {
      {"mixed", 1000},  {"mixed", 10000}, {"mixed", 100000}, {"mixed", 1000000},
      {"deep", 100000}, {"letrec", 20},   {"letrec", 90}};
  for (const Sized& w : workloads) {
    for (const Named& a : analyses) {
      const std::string kind = w.kind;
      const Which which = a.which;
      benchmark::RegisterBenchmark((std::string(a.name) + "/" + w.kind).c_str(),
                                   [kind, which](benchmark::State& state) {
                                     BM_Analysis(state, kind, which);
                                   })
          ->Arg(w.size)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  Register();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
