// Reading and writing Materialize's verbose physical-plan EXPLAIN text.
#ifndef LIR_EXPLAIN_TEXT_H_
#define LIR_EXPLAIN_TEXT_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/document.h"

namespace lir::explain {

/// A place in a text file: 1-based line (of the file, ParseOptions::
/// first_line counted) and 1-based column in bytes.
struct SourcePosition {
  int line = 0;
  int column = 0;
  friend bool operator==(const SourcePosition&,
                         const SourcePosition&) = default;
};

/// Where each node of a document read from text was printed: its header
/// line (verbose `Mfp`, concise `→Map/Filter/Project`; the Lets and the
/// LetRec of a With block: the `With` line). Kept beside the Document, not
/// in its nodes, so that the IR carries no parser state; for messages about
/// a node found after reading, such as a validation error.
struct NodePositions {
  /// objects[i] holds the nodes of doc.objects[i] by LirId (of nodes that
  /// share a LirId, which Validate rejects, only one); empty for a
  /// fast-path object.
  std::vector<std::unordered_map<LirId, SourcePosition>> objects;

  /// The header of the node a node error (lir/node_error.h) names, in the
  /// object it names (Validate(Document) attaches the object's index) or,
  /// for an error naming no object, in the document's only plan; nullopt
  /// when the error names no node or it was not read here.
  std::optional<SourcePosition> Of(const absl::Status& error) const;
};

/// Options for reading text.
struct ParseOptions {
  /// Used as the file part of `file:line:column` in error messages.
  std::string filename = "<input>";
  /// The line of that file where the text starts (a plan embedded in a
  /// larger file, such as a sqllogictest block), for error messages.
  int first_line = 1;
  /// When set, filled (from empty) with where each node was read; only a
  /// read that succeeds fills it completely. Costs a table entry per node,
  /// so callers ask only when they need it, e.g. re-reading a text once
  /// its document failed validation.
  NodePositions* positions = nullptr;
};

/// Parses a whole EXPLAIN document in either syntax: the verbose one, or
/// the concise one that Materialize prints by default (DetectTextSyntax and
/// ParseConciseText in lir/explain/concise.h; a concise document is a
/// partial plan). doc.syntax says which. Nodes without `// { node_id: ... }`
/// annotations get post-order LirIds per object. Errors are
/// InvalidArgument with the message `file:line:column: expected ...`.
/// Iterative: plan depth is bounded only by memory.
absl::StatusOr<Document> ParseText(std::string_view text,
                                   const ParseOptions& options = {});

/// Options for printing text.
struct PrintOptions {
  /// Print `// { node_id: LirId(n) }` on every node header. The document's
  /// own `node_identifiers` flag also turns them on.
  bool node_identifiers = false;
  /// Extra fields for a node's `// { ... }` comment, printed after the
  /// node_id (e.g. `arity: 2, monotonic: true`); an empty string adds
  /// nothing. Lets analyses show their results without this library
  /// depending on them.
  std::function<std::string(const Node&)> annotate;
};

/// Prints a document in the verbose syntax exactly as Materialize would
/// (ending in one newline). The document must be complete
/// (RequireKnownFacts in lir/partial.h): a partial plan's unknown facts
/// would print as defaults, so callers check first (WriteDocument does).
/// Iterative: plan depth is bounded only by memory.
std::string PrintText(const Document& doc, const PrintOptions& options = {});

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_TEXT_H_
