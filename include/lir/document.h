// The EXPLAIN document around one or more plans: objects, Finish, Source
// blocks, Used Indexes, Target cluster, Notices.
#ifndef LIR_LIR_DOCUMENT_H_
#define LIR_LIR_DOCUMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir {

/// The `Finish` line of a peek: ordering, limit, offset and output columns
/// applied to the result outside the dataflow.
struct Finish {
  std::vector<OrderKey> order_by;
  std::optional<int64_t> limit;
  int64_t offset = 0;
  std::vector<int> output;
  friend bool operator==(const Finish&, const Finish&) = default;
};

/// What a fast-path peek (`Explained Query (fast path):`,
/// ../shared/reference/TEXT-FORMAT.md 1.2) does instead of running a dataflow.
/// It is not LIR: a constant, or a read of an existing index or of a persist
/// shard under an optional map/filter/project.
struct FastPath {
  /// Which form the body has.
  enum class Kind {
    kConstant,     ///< `Constant ...` / `Error ...`
    kReadIndex,    ///< `ReadIndex on=<collection> <index>=[...]`
    kPeekPersist,  ///< `PeekPersist <collection> [value=(...)]`
  };
  Kind kind = Kind::kConstant;
  /// kConstant: the rows or the error (never elided in practice, but the
  /// `total_rows` form parses as for a LIR Constant).
  ConstantOp constant;
  /// The `Project (...)` line: column references (names kept for printing);
  /// nullopt when the line is absent (the identity).
  std::optional<std::vector<ScalarExpr>> project;
  /// The `Filter ...` line's predicates (empty: no line).
  std::vector<ScalarExpr> filter;
  /// The `Map (...)` line's expressions (empty: no line).
  std::vector<ScalarExpr> map;
  /// kReadIndex: the `on=` collection; kPeekPersist: the shard's collection.
  std::string collection;
  /// kReadIndex: the index name as printed (unqualified unless ambiguous,
  /// `[DELETED INDEX]` if dropped).
  std::string index;
  /// kReadIndex: the key values looked up; nullopt is `*** full scan ***`.
  /// One row prints as `lookup value=`, any other count as `lookup values=`.
  std::optional<std::vector<Row>> lookup;
  /// kPeekPersist: the literal prefix of leading columns (`[value=(...)]`).
  std::optional<Row> persist_value;
  /// kReadIndex: the index name as the concise form prints it (qualified,
  /// `materialize.public.t_idx`); set by the concise reader. When absent the
  /// concise printer qualifies `index` with the collection's schema, where
  /// Materialize creates an index.
  std::optional<std::string> qualified_index;
  /// Whether the projection is the identity over the index's or shard's
  /// columns (the concise form prints `Project:` exactly when it is not;
  /// the verbose form prints `Project (...)` when it is not the identity
  /// over those columns and the map's). Set by the concise reader; nullopt
  /// when the text did not say (the verbose form does not show the input
  /// arity). With `true`, no `project` and a non-empty `map`, the verbose
  /// `Project (#0..=#n)` line cannot be written: the plan is partial.
  std::optional<bool> project_is_input_identity;
  /// Facts the text did not show: kConstantRows for a concise
  /// `→Constant (N rows)` (constant.entry_count keeps N).
  UnknownFacts unknown;

  friend bool operator==(const FastPath&, const FastPath&) = default;
};

/// One explained object: a named dataflow export and its plan.
struct Object {
  std::string name;              ///< `Explained Query`, `materialize.public.mv`
  std::optional<Finish> finish;  ///< only on the first object
  NodePtr plan;                  ///< null for fast-path objects
  std::optional<FastPath> fast_path;
};

/// A `Source <name>` block: the MFP pushed into a source, and the filter
/// pushdown predicates when shown.
struct SourceBlock {
  std::string name;
  MapFilterProject mfp;
  std::optional<std::vector<ScalarExpr>> pushdown;
};

/// One line of `Used Indexes:`.
struct UsedIndex {
  std::string name;  ///< `materialize.public.t_a_idx` or `[DELETED INDEX]`
  std::vector<std::string> usages;
  friend bool operator==(const UsedIndex&, const UsedIndex&) = default;
};

/// The two text syntaxes of Materialize's physical plans
/// (../shared/reference/CONCISE-FORMAT.md section 1).
enum class TextSyntax {
  kVerbose,  ///< `EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT`: `Reduce::Basic`
  kConcise,  ///< the default `EXPLAIN`: `→Non-incremental GroupAggregate`
};

/// A whole EXPLAIN PHYSICAL PLAN output.
struct Document {
  std::vector<Object> objects;
  std::vector<SourceBlock> sources;
  std::optional<std::vector<UsedIndex>> used_indexes;
  std::optional<std::string> target_cluster;
  /// Notice lines, verbatim, without their indentation.
  std::optional<std::vector<std::string>> notices;
  std::optional<std::string> optimization_time;
  /// Whether the parsed text carried `// { node_id: LirId(n) }` annotations;
  /// printers keep them unless told otherwise.
  bool node_identifiers = false;
  /// The syntax the document was read in (kVerbose for JSON and built
  /// plans); printers in the "same syntax as the input" mode follow it.
  TextSyntax syntax = TextSyntax::kVerbose;
};

/// A deep copy of `doc`.
Document Clone(const Document& doc);

}  // namespace lir

#endif  // LIR_LIR_DOCUMENT_H_
