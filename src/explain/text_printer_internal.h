// The plan printer below the document level, and the pieces both text
// syntaxes share (internal): the fast-path printer prints a `Constant` fast
// path as the Constant node it stands for, and the concise printer
// (src/explain/concise_printer.cc) reuses the document frame, the node
// annotation and the line primitives, because Materialize prints the frame
// identically in both syntaxes (../shared/reference/CONCISE-FORMAT.md 3),
// and the plan printers' task stack and With blocks, which differ only in
// the concise `→`.
#ifndef LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_
#define LIR_EXPLAIN_TEXT_PRINTER_INTERNAL_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

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

/// One pending piece of a plan printer's output: a node subtree, or a
/// ready-made line. Both syntaxes print from an explicit stack of these, so
/// plan depth is bounded only by memory.
struct PrintTask {
  const Node* node = nullptr;  ///< null: `line` is printed as is
  int level = 0;
  std::string line;
};

/// Pops `stack` down to its next node task, appending the ready-made lines
/// above it to `out`; nullopt when the stack runs out. A plan printer loops
/// on this, printing each node it returns (which pushes the node's inputs).
std::optional<PrintTask> NextNodeTask(std::vector<PrintTask>& stack,
                                      std::string& out);

/// Schedules the inputs of `node` at `level` on `stack`, to print in order.
void PushInputs(const Node& node, int level, std::vector<PrintTask>& stack);

/// Prints the Let chain that starts at `let` as one With block at `level`
/// (the two syntaxes differ only in `arrow`: "" for verbose, "→" for
/// concise): appends the `<arrow>With` line to `out` and schedules on
/// `stack` each binding's `cte l<n> =` line with its plan one deeper, then
/// `<arrow>Return<return_annotation>` and the chain's body one deeper.
void PushWithBlock(const Node& let, int level, absl::string_view arrow,
                   absl::string_view return_annotation, std::string& out,
                   std::vector<PrintTask>& stack);

/// Prints the LetRec node `letrec` as a `<arrow>With Mutually Recursive`
/// block at `level`, as PushWithBlock does a Let chain; a binding with a
/// limit reads `cte [recursion_limit=<n>[, return_at_limit]] l<id> =`. A
/// LetRec is never merged with the blocks around it (Materialize prints
/// each alone).
void PushLetRecBlock(const Node& letrec, int level, absl::string_view arrow,
                     absl::string_view return_annotation, std::string& out,
                     std::vector<PrintTask>& stack);

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
