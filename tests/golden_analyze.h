// The golden tests' EXPLAIN ANALYZE commands (lir/explain/analyze.h):
//
//   operators [plan=NAME|corpus=NAME]
//     every object's operator column, as Materialize's mz_lir_mapping shows
//     it (no run: the plan alone decides it);
//   analyze-table [corpus=NAME] [compare=FEATURE,...]
//     a plan, a line `====` and the data (or a corpus plan with the data
//     tests/support/corpus_data.h generates for it), run by the
//     incremental engine: every object's memory table (`lir-opt run
//     --analyze=memory`), or with `compare=` the table of the features off
//     and on (`--analyze_compare`).
// Both check, through gtest, that the memory column agrees with the run's
// arrangement listing (`--arrangement_sizes`): every arrangement is charged
// to exactly one row, with its bytes and records. A comparison also checks
// that the arrangements it shows removed and added are those the
// arrangement accounting (interp::CountArrangementsBuilt) says the rewrite
// saves, and that its memory change is the listings' difference.
#ifndef LIR_TESTS_GOLDEN_ANALYZE_H_
#define LIR_TESTS_GOLDEN_ANALYZE_H_

#include <string>

#include "lir/document.h"
#include "lir/eval/data.h"

namespace lir::test {

/// The `operators` output for `doc`.
std::string RunOperatorsGolden(const Document& doc);

/// The `analyze-table` output for `doc` on `data`; `compare` is empty or
/// the features to compare.
std::string RunAnalyzeTableGolden(const Document& doc,
                                  const eval::InputData& data,
                                  const std::string& compare);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_ANALYZE_H_
