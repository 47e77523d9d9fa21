// Reading and writing Materialize's concise physical-plan EXPLAIN text, the
// syntax `EXPLAIN q` prints by default (`→Threshold Diffs #0`).
// ../shared/reference/CONCISE-FORMAT.md is the contract.
#ifndef LIR_EXPLAIN_CONCISE_H_
#define LIR_EXPLAIN_CONCISE_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/explain/text.h"

namespace lir::explain {

/// The syntax of an EXPLAIN text: kConcise when the first line of the
/// first object's plan body starts with `→` (after indentation and an
/// optional `Finish` line), else kVerbose. A document without objects (a
/// SUBSCRIBE's `Source ...` only) reads the same in both and is kVerbose.
TextSyntax DetectTextSyntax(std::string_view text);

/// Parses a whole concise EXPLAIN document. The result is a partial plan:
/// every fact the concise syntax drops (CONCISE-FORMAT section 9) is marked
/// on its node (Node::unknown), never defaulted. doc.syntax is kConcise.
/// Errors are InvalidArgument `file:line:column: expected ...`; a verbose
/// construct is named as such. Iterative.
absl::StatusOr<Document> ParseConciseText(std::string_view text,
                                          const ParseOptions& options = {});

/// Prints a document in the concise syntax exactly as Materialize would
/// (ending in one newline). Fails, naming the node, only where a fact the
/// concise form prints is unknown in `doc` (a Constant cut to 20 rows by
/// the verbose `total_rows` form; a fast path whose input arity the
/// verbose form does not show). PrintOptions::annotate fields follow the
/// node_id in the header comment. Iterative.
absl::StatusOr<std::string> PrintConciseText(const Document& doc,
                                             const PrintOptions& options = {});

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_CONCISE_H_
