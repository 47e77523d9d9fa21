// Materialize's `EXPLAIN ANALYZE MEMORY | CPU` table for a plan and what
// running it measured: one row per LIR node, the node's operator string as
// Materialize's `mz_lir_mapping.operator` shows it (RenderPlanExprHumanizer in
// src/compute-types/src/plan/render_plan.rs), indented two spaces per
// nesting level, with the memory and records of the arrangements the node
// maintains and the time of its own work. docs/analyze.md describes the
// forms and where lir departs from Materialize.
//
// This layer knows plans and formats only: the measures come from the
// caller (lir-opt run fills them from lir::eval::RunResult).
#ifndef LIR_EXPLAIN_ANALYZE_H_
#define LIR_EXPLAIN_ANALYZE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "lir/node.h"
#include "nlohmann/json.hpp"

namespace lir::explain {

/// What was measured of one LIR node. An unset field prints as an empty
/// cell (SQL NULL), as Materialize's table does for a node that maintains no
/// arrangement or has no operator of its own.
struct AnalyzeMeasure {
  /// Bytes of the arrangements the node maintains; set when it maintains
  /// at least one (even an empty one).
  std::optional<uint64_t> memory_bytes;
  /// Records in them; unset when they hold none (Materialize's
  /// `total_records` is NULL then, while `total_memory` is not).
  std::optional<uint64_t> records;
  /// Wall time of the node's own work, in nanoseconds; set when the node
  /// has an operator (or arrangement) whose time was measured.
  std::optional<uint64_t> elapsed_ns;
  /// How many arrangements the node maintains (an index read from outside
  /// the dataflow included); not a column of the table.
  uint64_t arrangements = 0;
};

/// The columns after `operator`, in the order asked
/// (`--analyze=memory,cpu` or `cpu,memory`): memory is `total_memory` and
/// `total_records`, cpu is `total_elapsed`.
enum class AnalyzeColumn { kMemory, kCpu };

/// Parses `memory`, `cpu`, `memory,cpu` or `cpu,memory` (each at most
/// once). InvalidArgument naming the offending item and what is accepted.
absl::StatusOr<std::vector<AnalyzeColumn>> ParseAnalyzeColumns(
    std::string_view text);

/// One row of the table.
struct AnalyzeRow {
  LirId lir_id = 0;
  /// Depth within its let-free plan: a binding's value and the body of a
  /// Let or LetRec start again at 0 (mz_lir_mapping's `nesting`, which
  /// saturates at 255 as that u8 does).
  int nesting = 0;
  /// The operator string without indentation, with the binding prefix
  /// (`With l0 = `, `l1 = `, `With Recursive l2 = `, `Returning `) on the
  /// root of a binding's value and of the body.
  std::string op;
  AnalyzeMeasure measure;
};

/// The operator string of one node (no binding prefix). Let and LetRec
/// have none: they get no row. lir's SetDifference prints `Set Difference`
/// and AntiJoin `Anti Join` (docs/analyze.md).
std::string AnalyzeOperatorName(const Node& node);

/// The rows of `plan`, in Materialize's order (descending LirId: each node
/// above its inputs, the last input first; the body above the bindings),
/// each with its measure from `measures` (absent: all cells empty). Let
/// and LetRec have no row: the measures of a LetRec (lir runs it whole in a
/// recompute adapter) go to its `With Recursive` row, those of a Let to its
/// binding's row. Iterative.
std::vector<AnalyzeRow> AnalyzeRows(
    const Node& plan,
    const absl::flat_hash_map<LirId, AnalyzeMeasure>& measures);

/// The table as psql prints the query's result (aligned format, border 1):
/// centred headers, text and interval columns left-aligned, numbers
/// right-aligned, NULL empty, then `(N rows)` and an empty line.
std::string PrintAnalyzeTable(const std::vector<AnalyzeRow>& rows,
                              const std::vector<AnalyzeColumn>& columns);

/// The rows as JSON for tools: `[{"lir_id", "nesting", "operator"`, with
/// memory `"total_memory", "memory_bytes", "total_records",
/// "arrangements"`, with cpu `"total_elapsed", "elapsed_ns"}, ...]`, null
/// where a cell is empty.
nlohmann::json AnalyzeRowsJson(const std::vector<AnalyzeRow>& rows,
                               const std::vector<AnalyzeColumn>& columns);

/// The rows of two runs of one object, `off` and `on` (e.g. a feature off
/// and on), side by side: a row is the same operator at the same LirId on
/// both sides; a node a rewrite removed or created shows on its side only.
struct AnalyzeCompareRow {
  LirId lir_id = 0;
  int nesting = 0;
  std::string op;
  /// Set for the side(s) the row exists on.
  std::optional<AnalyzeMeasure> off;
  std::optional<AnalyzeMeasure> on;
};

/// Pairs `off` and `on` (each from AnalyzeRows): rows in descending LirId,
/// at one LirId an off-only row before an on-only one.
std::vector<AnalyzeCompareRow> CompareAnalyzeRows(
    const std::vector<AnalyzeRow>& off, const std::vector<AnalyzeRow>& on);

/// The comparison as a psql-style table: operator (marked `(off only)` or
/// `(on only)` when one side lacks it), memory and records off, on and
/// their change, and a last `total` row summing each column.
std::string PrintAnalyzeCompareTable(
    const std::vector<AnalyzeCompareRow>& rows);

/// The comparison as JSON: `{"rows": [{"lir_id", "nesting", "operator",
/// "side" ("both", "off", "on"), "off": {...}, "on": {...}}], "total":
/// {...}}`, each side `{"memory_bytes", "records", "arrangements"}`.
nlohmann::json AnalyzeCompareJson(const std::vector<AnalyzeCompareRow>& rows);

/// PostgreSQL's and Materialize's pg_size_pretty of a byte count: `10239
/// bytes`, `10 kB`, `10239 kB`, `10 MB`, ... up to PB, rounding half away
/// from zero; negative counts mirror positive ones (`-12 kB`).
std::string PgSizePretty(int64_t bytes);

/// An elapsed time as Materialize prints `total_ns / 1000 * '1
/// microsecond'::interval`: whole microseconds (truncated), `HH:MM:SS`
/// with the fraction's trailing zeros trimmed (`00:00:00.5`), hours not
/// folded into days.
std::string FormatElapsed(uint64_t nanos);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_ANALYZE_H_
