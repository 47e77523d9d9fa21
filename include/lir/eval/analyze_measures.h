// What a run measured, per object and LIR node, in the form of the EXPLAIN
// ANALYZE table (lir/explain/analyze.h): the bytes and records of the
// arrangements each node maintains, as RunResult::arrangements lists them
// (`lir-opt run --arrangement_sizes`), and each node's own time
// (RunOptions::measure_elapsed).
#ifndef LIR_EVAL_ANALYZE_MEASURES_H_
#define LIR_EVAL_ANALYZE_MEASURES_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "lir/eval/run.h"
#include "lir/explain/analyze.h"
#include "lir/node.h"

namespace lir::eval {

/// One object's measures by LirId.
using NodeMeasures = absl::flat_hash_map<LirId, explain::AnalyzeMeasure>;

/// Every object's measures, by object name. A node's memory is the sum of
/// its arrangements' bytes (set when it has one, even empty), its records
/// their sum when positive, its time the measured one.
absl::flat_hash_map<std::string, NodeMeasures> AnalyzeMeasures(
    const RunResult& result);

}  // namespace lir::eval

#endif  // LIR_EVAL_ANALYZE_MEASURES_H_
