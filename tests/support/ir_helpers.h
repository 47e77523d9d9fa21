// Small IR helpers that many tests use, defined once (a unity build puts
// several test files in one translation unit, where file-local copies of the
// same helper would collide).
#ifndef LIR_TESTS_SUPPORT_IR_HELPERS_H_
#define LIR_TESTS_SUPPORT_IR_HELPERS_H_

#include <cstddef>

#include "lir/node.h"
#include "lir/walk.h"

namespace lir::test {

/// The column reference `#c`.
inline ScalarExpr Col(int c) { return ScalarExpr::Column(c); }

/// How many nodes of `kind` the plan under `root` holds.
inline size_t CountKind(const Node& root, NodeKind kind) {
  size_t n = 0;
  ForEachPreOrder(root,
                  [&](const Node& node, int) { n += node.kind() == kind; });
  return n;
}

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_IR_HELPERS_H_
