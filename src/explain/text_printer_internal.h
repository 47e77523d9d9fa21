// The plan printer below the document level (internal): the fast-path
// printer prints a `Constant` fast path as the Constant node it stands for.
#ifndef LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_
#define LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_

#include <string>

#include "lir/node.h"

namespace lir::explain {

/// Prints the plan tree `root` with its root at `level` (two spaces a
/// level), with the default PrintOptions.
std::string PrintPlanAt(const Node& root, int level);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_
