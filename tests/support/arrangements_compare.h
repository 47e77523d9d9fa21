// Comparing the arrangement accounting
// (include/lir/interp/arrangements_built.h) with what the evaluator lists for a
// run of the same document (`lir-opt run --arrangement_sizes`), for the
// accounting's tests.
#ifndef LIR_TESTS_SUPPORT_ARRANGEMENTS_COMPARE_H_
#define LIR_TESTS_SUPPORT_ARRANGEMENTS_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "lir/document.h"
#include "lir/eval/run.h"
#include "lir/interp/annotations.h"

namespace lir::test {

/// The comparison of the analysis with one evaluator run of a document.
struct Comparison {
  std::vector<std::string> differences;
  /// Nodes and arrangements compared (built, outside recompute adapters).
  uint64_t nodes = 0;
  uint64_t arrangements = 0;
  uint64_t imports = 0;
  /// Nodes the evaluator runs through its recompute-and-diff adapter for
  /// LetRec (the LetRec's whole subtree): it builds no dataflow arrangement
  /// for them, while Materialize's rendering (and so the analysis) does.
  /// Their number, and one line per LetRec saying what the analysis says
  /// they build.
  uint64_t adapted_nodes = 0;
  std::vector<std::string> adapted;
};

/// Compares the analysis of `doc` with `listed`, the evaluator's listing of
/// a run of it: per object and LirId, the built arrangements by name (as
/// multisets); per object, the imported indexes; and every Index entry's
/// LirId must be a Get the analysis says reads it.
Comparison Compare(const Document& doc,
                   const interp::DocumentAnalysis& analysis,
                   const std::vector<eval::ArrangementStats>& listed);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_ARRANGEMENTS_COMPARE_H_
