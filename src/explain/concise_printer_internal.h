// The pieces of the concise printer (internal to src/explain): the document
// entry point PrintConciseText (concise_printer.cc) hands each object's body
// to the LIR plan printer (concise_print_node.cc, with the join header and
// closures in concise_print_join.cc) or to the fast-path printer
// (concise_print_fast_path.cc). ../shared/reference/CONCISE-FORMAT.md is
// the contract; Materialize's `fmt_default_text` methods are the source.
#ifndef LIR_EXPLAIN_CONCISE_PRINTER_INTERNAL_H_
#define LIR_EXPLAIN_CONCISE_PRINTER_INTERNAL_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain::internal {

/// What every node header of one document is annotated with.
struct ConciseAnnotation {
  bool node_ids = false;
  AnnotateFn annotate;
  /// Called with each node's operator line (`→Threshold Diffs #0`, without
  /// its annotation) as it is printed: the DOT writer's labels.
  std::function<void(const Node&, absl::string_view)> on_header;
};

/// Appends the concise MFP lines of `mfp` at `level` (CONCISE-FORMAT 5.1):
/// `Project:` (iff a projection is stored, `Project: ()` when it is
/// empty), `Filter:`, `Map:`, and `TemporalFilter:` when `with_temporal`
/// (only where Materialize prints an MfpPlan: Get, Mfp, FlatMap, ArrangeBy).
/// Prints nothing for the identity.
void AppendConciseMfp(std::string& out, int level, const MapFilterProject& mfp,
                      bool with_temporal);

/// `(error: "msg")` with only `"` escaped (Rust's `quoted()`), or
/// `(error: █)` when the message is redacted. `constant` must be an error.
std::string ConciseConstantError(const ConstantOp& constant);

/// The number of `(row, diff)` entries of a constant that is not an error,
/// which the concise form prints: the stored rows, or
/// `entry_count` when `rows_unknown` (read from concise text).
/// FailedPrecondition (message without location) when the verbose
/// `total_rows (diffs absed)` form cut the rows, or the count is missing.
absl::StatusOr<uint64_t> ConciseEntryCount(const ConstantOp& constant,
                                           bool rows_unknown);

/// Appends the concise form of the plan rooted at `root`, its first line at
/// `level`. Iterative. Errors name the node (`LirId(n) Constant: ...`).
absl::Status AppendConcisePlan(std::string& out, const Node& root, int level,
                               const ConciseAnnotation& annotation);

/// The header of a Join node without its annotation, e.g.
/// `→Differential Join %0:t[#0{a}] » %1:u[#0{c}]` or
/// `→Delta Join [%0:t » %1[×]] [...]` (CONCISE-FORMAT 6, Join).
std::string ConciseJoinHeader(const Node& node, const JoinOp& join);

/// Appends the closure blocks of `join` at `level` (one level below the
/// header): `after %k:` / `Final closure:`, under `path %s:` for delta
/// joins; only closures that map, filter or check equivalences.
void AppendConciseJoinClosures(std::string& out, int level, const JoinOp& join);

/// Appends the concise body of a fast-path object (`→Constant (N rows)`,
/// `→Map/Filter/Project` over `→Indexed`/`→Index Lookup on`/`→ReadStorage
/// [Lookup on]`) at `level`. FailedPrecondition (message without the object
/// name) where a fact the concise form prints is unknown: the entry count
/// of a cut constant, the input arity that decides `Project:`, the id of a
/// deleted index.
absl::Status AppendConciseFastPath(std::string& out, const FastPath& fast_path,
                                   int level);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_CONCISE_PRINTER_INTERNAL_H_
