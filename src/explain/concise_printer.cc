// Prints documents in Materialize's concise EXPLAIN syntax
// (../shared/reference/CONCISE-FORMAT.md): the document frame is the
// verbose printer's (Materialize prints it identically in both syntaxes,
// CONCISE-FORMAT 3, Source blocks included), the object bodies are the
// concise ones. This file holds the entry point and the pieces the LIR and
// fast-path bodies share.
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/concise.h"
#include "lir/node_error.h"
#include "src/explain/concise_printer_internal.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain {
namespace internal {

void AppendConciseMfp(std::string& out, int level, const MapFilterProject& mfp,
                      bool with_temporal) {
  // Same conditions as the verbose `project=`/`filter=`/`map=` lines
  // (expr/src/explain/text.rs `fmt_default_text`), so a stored projection
  // is exactly one that is not the identity over the input.
  if (mfp.project.has_value()) {
    AppendLine(out, level,
               mfp.project->empty()
                   ? std::string("Project: ()")
                   : absl::StrCat("Project: ", PrintIndices(*mfp.project)));
  }
  if (!mfp.filter.empty()) {
    AppendLine(out, level,
               absl::StrCat("Filter: ", PrintPredicates(mfp.filter)));
  }
  if (!mfp.map.empty()) {
    // A plain `, ` list: unlike CompactScalars, no column ranges.
    AppendLine(out, level, absl::StrCat("Map: ", PrintExprList(mfp.map)));
  }
  if (with_temporal && mfp.temporal.has_value()) {
    AppendLine(out, level, TemporalFilterLine(*mfp.temporal));
  }
}

std::string ConciseConstantError(const ConstantOp& constant) {
  if (constant.error_redacted) return "(error: █)";
  // Rust's `quoted()`: only `"` is escaped (the verbose fast path's
  // `escaped()` also escapes newlines and tabs; the concise form does not).
  std::string out = "(error: \"";
  for (char c : *constant.error) {
    if (c == '"') out += '\\';
    out += c;
  }
  out += "\")";
  return out;
}

absl::StatusOr<uint64_t> ConciseEntryCount(const ConstantOp& constant,
                                           bool rows_unknown) {
  if (rows_unknown) {
    if (!constant.entry_count.has_value()) {
      return absl::FailedPreconditionError(
          "the number of rows of this constant is unknown");
    }
    return *constant.entry_count;
  }
  if (constant.elided_total_rows.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the concise form prints the number of (row, diff) entries, which "
        "the verbose form does not show for a constant cut to its first ",
        constant.rows.size(),
        " rows (total_rows (diffs absed): ", *constant.elided_total_rows, ")"));
  }
  return constant.rows.size();
}

}  // namespace internal

absl::StatusOr<std::string> PrintConciseText(const Document& doc,
                                             const PrintOptions& options) {
  internal::ConciseAnnotation annotation;
  annotation.node_ids = options.node_identifiers || doc.node_identifiers;
  annotation.annotate = options.annotate;
  std::string out;
  absl::Status status = internal::AppendDocument(
      doc,
      [&](const Object& object, int level, std::string& body_out) {
        absl::Status body = absl::OkStatus();
        if (object.fast_path.has_value()) {
          body = internal::AppendConciseFastPath(body_out, *object.fast_path,
                                                 level);
        } else if (object.plan != nullptr) {
          body = internal::AppendConcisePlan(body_out, *object.plan, level,
                                             annotation);
        }
        // The node (if any) is already named; the object says where.
        return body.ok() ? body
                         : PrefixStatus(absl::StrCat(object.name, ": "), body);
      },
      out);
  if (!status.ok()) return status;
  return out;
}

}  // namespace lir::explain
