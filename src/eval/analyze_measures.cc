// RunResult -> the EXPLAIN ANALYZE table's measures.
#include "lir/eval/analyze_measures.h"

namespace lir::eval {

absl::flat_hash_map<std::string, NodeMeasures> AnalyzeMeasures(
    const RunResult& result) {
  absl::flat_hash_map<std::string, NodeMeasures> by_object;
  for (const ArrangementStats& s : result.arrangements) {
    explain::AnalyzeMeasure& m = by_object[s.object][s.lir_id];
    m.memory_bytes = m.memory_bytes.value_or(0) + s.bytes;
    if (s.records > 0) m.records = m.records.value_or(0) + s.records;
    ++m.arrangements;
  }
  for (const OperatorElapsed& e : result.elapsed) {
    by_object[e.object][e.lir_id].elapsed_ns = e.nanos;
  }
  return by_object;
}

}  // namespace lir::eval
