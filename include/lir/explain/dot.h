// A plan as a Graphviz graph (`lir-opt explain --format=dot`, `lir-opt run
// --analyze=... --analyze_format=dot`): one box per LIR node labelled with
// its concise operator line, edges from inputs to consumers (and from a
// binding to the Gets that read it), Let and LetRec bindings as clusters,
// the arrangements a node maintains as cylinders beside it, and nodes a
// rewrite created highlighted. docs/analyze.md shows a rendered one.
#ifndef LIR_EXPLAIN_DOT_H_
#define LIR_EXPLAIN_DOT_H_

#include <functional>
#include <string>
#include <vector>

#include "lir/document.h"
#include "lir/node.h"

namespace lir::explain {

/// What the graph shows besides the plan. Every callback may be unset.
struct DotOptions {
  /// Extra label text of a node (the `--annotate` fields, `arity: 2,
  /// monotonic: true`); empty adds nothing.
  std::function<std::string(const Object&, const Node&)> annotate;
  /// The arrangements a node maintains, one label each (a name, possibly
  /// followed by lines of sizes); each is drawn as a cylinder.
  std::function<std::vector<std::string>(const Object&, const Node&)>
      arrangements;
  /// Whether a rewrite created (or changed) the node: drawn bold and
  /// coloured.
  std::function<bool(const Object&, const Node&)> highlighted;
  /// A last label line (run --analyze: the node's memory and time); empty
  /// adds nothing.
  std::function<std::string(const Object&, const Node&)> measure;
};

/// The document as a `digraph`, one cluster per object, ending in a
/// newline. Labels are each node's concise operator line (without `→`);
/// where the concise form cannot be printed (a fact it prints is unknown)
/// the EXPLAIN ANALYZE operator string stands in. Iterative.
std::string PrintDot(const Document& doc, const DotOptions& options = {});

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_DOT_H_
