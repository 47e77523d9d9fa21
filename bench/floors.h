// The floors every library benchmark reports beside its operations, on the
// same plan in the same run: a bare traversal (the least any whole-plan pass
// costs) and nlohmann::json::parse of the plan's JSON form (the least any
// reader of that form costs).
#ifndef LIR_BENCH_FLOORS_H_
#define LIR_BENCH_FLOORS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include <sys/resource.h>

#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "nlohmann/json.hpp"

namespace lir_bench {

/// Visits every node of every object of `doc` once, reading its kind.
inline size_t BareTraversal(const lir::Document& doc) {
  size_t kinds = 0;
  for (const lir::Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    lir::ForEachPostOrder(*object.plan, [&](const lir::Node& node) {
      kinds += static_cast<size_t>(node.kind());
    });
  }
  benchmark::DoNotOptimize(kinds);
  return kinds;
}

/// The JSON text the nlohmann floor parses (as `lir-opt explain
/// --format=json` writes it).
inline std::string JsonText(const lir::Document& doc) {
  return lir::explain::ToJson(doc).dump(2);
}

/// Parses `json` with nlohmann, keeping the result alive until it is built.
inline void NlohmannParse(const std::string& json) {
  nlohmann::json value = nlohmann::json::parse(json);
  benchmark::DoNotOptimize(value);
}

/// Reports throughput as `bytes` per iteration: the size of the form the
/// operation reads (text or JSON), or the plan's text size for operations
/// that read the plan itself, so MB/s compares across operations.
inline void SetBytesPerIteration(benchmark::State& state, int64_t bytes) {
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["bytes"] = static_cast<double>(bytes);
}

/// Memory figures beside the timings: `node_bytes`, the size of one plan
/// node (what every walk streams through), and `peak_rss_MB`, the process's
/// peak resident set so far. The peak only grows, so it describes one
/// workload when each workload runs in its own process
/// (scripts/bench_compare.sh does that).
inline void ReportMemory(benchmark::State& state) {
  state.counters["node_bytes"] = static_cast<double>(sizeof(lir::Node));
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    // Linux reports ru_maxrss in KiB.
    state.counters["peak_rss_MB"] =
        static_cast<double>(usage.ru_maxrss) / 1024.0;
  }
}

}  // namespace lir_bench

#endif  // LIR_BENCH_FLOORS_H_
