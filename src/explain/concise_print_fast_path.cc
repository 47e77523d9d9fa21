// Concise fast-path bodies (../shared/reference/CONCISE-FORMAT.md section 7;
// Materialize's `FastPathPlan::fmt_default_text`, adapter/src/coord/peek.rs).
// lir's FastPath holds what the verbose form shows; three facts of the
// concise form are derived from it here:
// * the index name, qualified in the concise form (`humanize_id`) and
//   usually not in the verbose one: FastPath::qualified_index when the
//   concise reader set it, else the collection's qualifier (its name up to
//   the last `.`) before `index`, because Materialize creates an index in
//   the schema of the relation it indexes; an `index` that already holds a
//   `.` was printed qualified (ambiguous names) and is kept;
// * `Project:`, printed iff the projection is not the identity over the
//   input's columns, where the verbose `Project (...)` compares with the
//   input's columns plus the map's: FastPath::project_is_input_identity
//   when set, else derived where the verbose lines decide it, else an
//   error (the input arity is in neither text);
// * the constant's entry count (`(N rows)`, always "rows").
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/status_macros.h"
#include "src/explain/concise_printer_internal.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain::internal {
namespace {

// What the verbose form writes for an index the catalog no longer has.
constexpr char kDeletedIndex[] = "[DELETED INDEX]";

absl::StatusOr<std::string> QualifiedIndex(const FastPath& fast_path) {
  if (fast_path.qualified_index.has_value()) return *fast_path.qualified_index;
  if (fast_path.index == kDeletedIndex) {
    // The concise form prints the index's raw id, which is lost.
    return absl::FailedPreconditionError(
        "the concise form names the fast path's index by its id, which the "
        "verbose form does not show for a deleted index ([DELETED INDEX])");
  }
  if (fast_path.index.find('.') != std::string::npos) return fast_path.index;
  const size_t dot = fast_path.collection.rfind('.');
  if (dot == std::string::npos) return fast_path.index;
  return absl::StrCat(fast_path.collection.substr(0, dot + 1), fast_path.index);
}

// The columns of the verbose projection (column references), or nullopt.
std::optional<std::vector<int>> ProjectColumns(const FastPath& fast_path) {
  if (!fast_path.project.has_value()) return std::nullopt;
  std::vector<int> columns;
  for (const ScalarExpr& e : *fast_path.project) columns.push_back(e.column);
  return columns;
}

// True when `columns` is 0, 1, ..., n-1.
bool IsPrefixIdentity(const std::vector<int>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] != static_cast<int>(i)) return false;
  }
  return true;
}

absl::Status ArityUnknown() {
  return absl::FailedPreconditionError(
      "the concise form prints 'Project:' unless the projection is the "
      "identity over the fast path's input columns, whose number the "
      "verbose form does not show when it prints a Map");
}

// The `Project:` columns of the concise form, nullopt for no line.
absl::StatusOr<std::optional<std::vector<int>>> ConciseProject(
    const FastPath& fast_path) {
  const std::optional<std::vector<int>> columns = ProjectColumns(fast_path);
  if (fast_path.project_is_input_identity.has_value()) {
    if (*fast_path.project_is_input_identity) return std::nullopt;
    if (columns.has_value()) return columns;
    // Not the identity over the input, and the identity over input + map:
    // `#0..=#k` with k = input arity + |map| - 1.
    if (fast_path.map.empty()) return std::nullopt;
    return ArityUnknown();
  }
  // Read from the verbose form, which compares with input arity + |map|.
  if (fast_path.map.empty()) return columns;  // the two conditions agree
  if (columns.has_value() && !IsPrefixIdentity(*columns)) return columns;
  // `Project (#0..=#n)` over a Map, or no Project line over a Map: whether
  // that is the identity over the input depends on its arity.
  return ArityUnknown();
}

absl::Status Constant(std::string& out, const FastPath& fast_path, int level) {
  const ConstantOp& constant = fast_path.constant;
  if (constant.error.has_value()) {
    AppendLine(out, level,
               absl::StrCat("→Constant ", ConciseConstantError(constant)));
    return absl::OkStatus();
  }
  LIR_ASSIGN_OR_RETURN(
      uint64_t count,
      ConciseEntryCount(constant,
                        fast_path.unknown.Has(UnknownFact::kConstantRows)));
  // Always "rows", even for one (peek.rs; LIR says `(1 row)`).
  AppendLine(out, level, absl::StrCat("→Constant (", count, " rows)"));
  return absl::OkStatus();
}

}  // namespace

absl::Status AppendConciseFastPath(std::string& out, const FastPath& fast_path,
                                   int level) {
  switch (fast_path.kind) {
    case FastPath::Kind::kConstant: return Constant(out, fast_path, level);
    case FastPath::Kind::kReadIndex:
    case FastPath::Kind::kPeekPersist: break;
  }
  // Check everything before printing anything.
  LIR_ASSIGN_OR_RETURN(std::optional<std::vector<int>> project,
                       ConciseProject(fast_path));
  std::string index;
  if (fast_path.kind == FastPath::Kind::kReadIndex) {
    LIR_ASSIGN_OR_RETURN(index, QualifiedIndex(fast_path));
  }
  // Always printed, even over an identity MFP.
  AppendLine(out, level, "→Map/Filter/Project");
  const int d1 = level + 1;
  if (project.has_value()) {
    AppendLine(out, d1,
               project->empty()
                   ? std::string("Project: ()")
                   : absl::StrCat("Project: ", PrintIndices(*project)));
  }
  if (!fast_path.filter.empty()) {
    AppendLine(out, d1,
               absl::StrCat("Filter: ", PrintPredicates(fast_path.filter)));
  }
  if (!fast_path.map.empty()) {
    AppendLine(out, d1, absl::StrCat("Map: ", PrintExprList(fast_path.map)));
  }
  // A Project line alone does not deepen the read (peek.rs).
  const int at =
      fast_path.filter.empty() && fast_path.map.empty() ? d1 : d1 + 1;
  if (fast_path.kind == FastPath::Kind::kPeekPersist) {
    if (fast_path.persist_value.has_value()) {
      AppendLine(out, at,
                 absl::StrCat("→ReadStorage Lookup on ", fast_path.collection));
      AppendLine(
          out, at + 1,
          absl::StrCat("Lookup value: ", PrintRow(*fast_path.persist_value)));
    } else {
      AppendLine(out, at, absl::StrCat("→ReadStorage ", fast_path.collection));
    }
    return absl::OkStatus();
  }
  if (fast_path.lookup.has_value()) {
    AppendLine(out, at,
               absl::StrCat("→Index Lookup on ", fast_path.collection,
                            " (using ", index, ")"));
    std::vector<std::string> rows;
    for (const Row& row : *fast_path.lookup) rows.push_back(PrintRow(row));
    // `Lookup values:` even for one row, `; ` between rows.
    AppendLine(out, at + 1,
               absl::StrCat("Lookup values: ", absl::StrJoin(rows, "; ")));
  } else {
    AppendLine(out, at,
               absl::StrCat("→Indexed ", fast_path.collection, " (using ",
                            index, ")"));
  }
  return absl::OkStatus();
}

}  // namespace lir::explain::internal
