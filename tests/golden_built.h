// The `built` command of the golden tests: the arrangement accounting
// (include/lir/interp/arrangements_built.h) of a plan, node by node, checked
// against what the incremental evaluator builds for the same plan.
#ifndef LIR_TESTS_GOLDEN_BUILT_H_
#define LIR_TESTS_GOLDEN_BUILT_H_

#include <string>

#include "lir/document.h"
#include "lir/interp/inputs.h"

namespace lir::test {

/// For every object of `doc`: each node that builds arrangements (`LirId(n)
/// Header: name, name`), the indexes the object imports, and the count
/// (CountArrangementsBuilt). With `run`, the document also runs on empty
/// collections of the given arities and the evaluator's listing must agree
/// with the accounting (a disagreement fails the test and is printed);
/// nodes the evaluator recomputes (LetRec) are listed apart.
std::string RunBuiltGolden(const Document& doc,
                           const interp::AnalysisInputs& inputs, bool run);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_BUILT_H_
