// The plan printer below the document level, and the pieces both text
// syntaxes share (internal): the fast-path printer prints a `Constant` fast
// path as the Constant node it stands for, and the concise printer
// (src/explain/concise_printer.cc) reuses the document frame, the node
// annotation and the line primitives, because Materialize prints the frame
// identically in both syntaxes (../shared/reference/CONCISE-FORMAT.md 3).
#ifndef LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_
#define LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "lir/mfp.h"
#include "lir/node.h"

namespace lir::explain {

/// Prints the plan tree `root` with its root at `level` (two spaces a
/// level), with the default PrintOptions.
std::string PrintPlanAt(const Node& root, int level);

namespace internal {

/// Extra annotation fields for a node (PrintOptions::annotate).
using AnnotateFn = std::function<std::string(const Node&)>;

/// Appends `text` at `level` (two spaces a level) as one line.
void AppendLine(std::string& out, int level, absl::string_view text);

/// The header comment of `node`: ` // { node_id: LirId(n), <extra> }` with
/// the node_id when `node_ids` and the fields `annotate` returns (if any);
/// "" when both are empty. Same text in both syntaxes.
std::string NodeAnnotation(const Node& node, bool node_ids,
                           const AnnotateFn& annotate);

/// The `TemporalFilter: lo <= mz_now() < hi` line of an MfpPlan's bounds
/// (identical in both syntaxes).
std::string TemporalFilterLine(const TemporalFilter& temporal);

/// Appends the body of `object` (its plan or fast path) with the first line
/// at `level`; an error stops the document.
using ObjectBodyPrinter = std::function<absl::Status(
    const Object& object, int level, std::string& out)>;

/// Appends the document frame (object headers, Finish, Source blocks in
/// the verbose MFP syntax, Used Indexes, Target cluster, Notices,
/// Optimization time), calling `body` for each object's plan. Returns the
/// first error `body` returns; `out` then holds a partial text.
absl::Status AppendDocument(const Document& doc, const ObjectBodyPrinter& body,
                            std::string& out);

}  // namespace internal
}  // namespace lir::explain

#endif  // LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_
