// The rows of the EXPLAIN ANALYZE table: each node's operator string as
// Materialize's RenderPlanExprHumanizer writes it into mz_lir_mapping, and
// the let-free plans a Let or LetRec is peeled into, as Materialize's
// renderer does (render.rs: each binding's value and the body start again
// at nesting 0; the root of each is decorated with its binding).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/explain/analyze.h"
#include "src/explain/concise_printer_internal.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"

namespace lir::explain {
namespace {

// A Get's collection: `l3`, or the global's name where Materialize's
// introspection prints its raw id (`u8`): lir's plans carry names only.
std::string CollectionName(const CollectionId& id) {
  return id.is_local ? id.ToString()
                     : internal::PrintName(id.global,
                                           internal::NameContext::kCollection);
}

std::string ConstantName(const Node& node, const ConstantOp& c) {
  if (c.error.has_value()) {
    // The error's Display, unquoted (the concise form quotes it).
    return absl::StrCat(
        "Constant (error: ", c.error_redacted ? "\xE2\x96\x88" : *c.error, ")");
  }
  absl::StatusOr<uint64_t> count = internal::ConciseEntryCount(
      c, node.unknown.Has(UnknownFact::kConstantRows));
  // Always "rows", as Materialize writes it. A cut verbose constant's
  // entry count is unknown: `?` rather than a guess.
  return absl::StrCat("Constant (", count.ok() ? absl::StrCat(*count) : "?",
                      " rows)");
}

std::string GetName(const GetOp& g) {
  const std::string id = CollectionName(g.id);
  switch (g.kind) {
    case GetKind::kPassArrangements:
      return absl::StrCat(
          g.keys.raw && g.keys.arranged.empty() ? "Stream " : "Arranged ", id);
    case GetKind::kArrangement:
      if (g.seek.has_value()) {
        return absl::StrCat("Index Lookup on ", id, " (val=", PrintRow(*g.seek),
                            ")");
      }
      return absl::StrCat("Arranged ", id);
    case GetKind::kCollection: return absl::StrCat("Read ", id);
  }
  return "Get";  // unreachable: every kind returns above
}

std::string JoinName(const JoinOp& join) {
  auto path_text = [](const JoinPath& path) {
    std::string text = absl::StrCat("%", path.source_relation);
    for (const JoinStage& stage : path.stages) {
      absl::StrAppend(&text, " \xC2\xBB %", stage.lookup_relation);
    }
    return text;
  };
  if (!join.delta) {
    return absl::StrCat("Differential Join ",
                        join.paths.empty() ? "" : path_text(join.paths[0]));
  }
  std::vector<std::string> paths;
  for (const JoinPath& path : join.paths) {
    paths.push_back(absl::StrCat("[", path_text(path), "]"));
  }
  return absl::StrCat("Delta Join ", absl::StrJoin(paths, " "));
}

std::string ReduceName(const ReduceOp& r) {
  switch (r.kind) {
    case ReduceKind::kDistinct: return "Distinct GroupAggregate";
    case ReduceKind::kAccumulable: return "Accumulable GroupAggregate";
    case ReduceKind::kHierarchicalBucketed: {
      std::string text = "Bucketed Hierarchical GroupAggregate (buckets:";
      for (uint64_t bucket : r.buckets) absl::StrAppend(&text, " ", bucket);
      return absl::StrCat(text, ")");
    }
    case ReduceKind::kHierarchicalMonotonic:
      return absl::StrCat(r.must_consolidate ? "Consolidating " : "",
                          "Monotonic GroupAggregate");
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple: return "Non-incremental GroupAggregate";
  }
  return "Reduce";  // unreachable
}

std::string TopKName(const TopKOp& t) {
  switch (t.kind) {
    case TopKKind::kMonotonicTop1: return "Monotonic Top1";
    case TopKKind::kMonotonicTopK:
      // No space before the limit, a space without one: both as
      // Materialize writes them.
      return t.limit.has_value()
                 ? absl::StrCat("MonotonicTopK(", PrintExpr(*t.limit), ")")
                 : "Monotonic TopK";
    case TopKKind::kBasic: return "Non-monotonic TopK";
  }
  return "TopK";  // unreachable
}

std::string ArrangeByName(const ArrangeByOp& a) {
  if (a.forms.arranged.empty()) return "Unarranged Raw Stream";
  std::string text = "Arrange";
  for (const ArrangementForm& form : a.forms.arranged) {
    absl::StrAppend(&text, form.key.empty() ? " (empty key)" : " (",
                    form.key.empty() ? "" : PrintCompactScalars(form.key),
                    form.key.empty() ? "" : ")");
  }
  return text;
}

// mz_lir_mapping's nesting is a u8 that saturates: a deep plan's
// indentation stays bounded.
constexpr int kMaxNesting = 255;

// A node to place: its nesting and the binding prefix of its row.
struct Pending {
  const Node* node;
  int nesting;
  std::string prefix;
  /// A Let or LetRec whose own measures this row also carries (0: none):
  /// lir runs a LetRec whole in a recompute adapter, which has no row in
  /// Materialize's table.
  LirId also = 0;
};

void AddMeasure(AnalyzeMeasure& into, const AnalyzeMeasure& m) {
  auto add = [](std::optional<uint64_t>& a, const std::optional<uint64_t>& b) {
    if (b.has_value()) a = a.value_or(0) + *b;
  };
  add(into.memory_bytes, m.memory_bytes);
  add(into.records, m.records);
  add(into.elapsed_ns, m.elapsed_ns);
  into.arrangements += m.arrangements;
}

// Pushes the bindings of a Let or LetRec (nesting 0, their binding as
// prefix) and its body (at `nesting`, prefixed `Returning `).
void PushBindings(const Node& node, int nesting, std::vector<Pending>& todo) {
  const size_t values = node.inputs.size() - 1;
  const Node* body = node.inputs.back().get();
  if (node.Is<LetOp>()) {
    // A stage is a chain of Lets each the body of the one before; its last
    // binding (whose body is not a Let) is the one printed `With`.
    const bool last = body == nullptr || !body->Is<LetOp>();
    const std::string id = absl::StrCat("l", node.As<LetOp>().id);
    if (node.inputs[0] != nullptr) {
      todo.push_back({node.inputs[0].get(), 0,
                      absl::StrCat(last ? "With " : "", id, " = "), node.id});
    }
  } else {
    const std::vector<uint64_t>& ids = node.As<LetRecOp>().ids;
    for (size_t i = 0; i < values && i < ids.size(); ++i) {
      if (node.inputs[i] == nullptr) continue;
      const bool last = i + 1 == ids.size();
      // The stage's `With Recursive` row carries the LetRec's own measures.
      todo.push_back(
          {node.inputs[i].get(), 0,
           absl::StrCat(last ? "With Recursive " : "", "l", ids[i], " = "),
           last ? node.id : 0});
    }
  }
  if (body != nullptr) {
    // Without bindings (an empty LetRec) the body's row carries them.
    todo.push_back({body, nesting, "Returning ", values == 0 ? node.id : 0});
  }
}

}  // namespace

std::string AnalyzeOperatorName(const Node& node) {
  switch (node.kind()) {
    case NodeKind::kConstant: return ConstantName(node, node.As<ConstantOp>());
    case NodeKind::kGet: return GetName(node.As<GetOp>());
    case NodeKind::kLet: return "";
    case NodeKind::kLetRec: return "";
    case NodeKind::kMfp: return "Map/Filter/Project";
    case NodeKind::kFlatMap: {
      const FlatMapOp& f = node.As<FlatMapOp>();
      return absl::StrCat("Table Function ", f.func, "(",
                          PrintCompactScalars(f.exprs), ")");
    }
    case NodeKind::kJoin: return JoinName(node.As<JoinOp>());
    case NodeKind::kReduce: return ReduceName(node.As<ReduceOp>());
    case NodeKind::kTopK: return TopKName(node.As<TopKOp>());
    case NodeKind::kNegate: return "Negate Diffs";
    case NodeKind::kThreshold: return "Threshold Diffs";
    case NodeKind::kUnion:
      return node.As<UnionOp>().consolidate_output ? "Consolidating Union"
                                                   : "Union";
    case NodeKind::kArrangeBy: return ArrangeByName(node.As<ArrangeByOp>());
    // lir's own kinds, in the style of Threshold (docs/analyze.md).
    case NodeKind::kSetDifference: return "Set Difference";
    case NodeKind::kAntiJoin: return "Anti Join";
  }
  return "";  // unreachable: every kind returns above
}

std::vector<AnalyzeRow> AnalyzeRows(
    const Node& plan,
    const absl::flat_hash_map<LirId, AnalyzeMeasure>& measures) {
  std::vector<AnalyzeRow> rows;
  std::vector<Pending> todo = {{&plan, 0, ""}};
  while (!todo.empty()) {
    Pending p = std::move(todo.back());
    todo.pop_back();
    const Node& node = *p.node;
    if (node.Is<LetOp>() || node.Is<LetRecOp>()) {
      // A Let inside a binding's value or the body: its own bindings start
      // at 0; its body goes on where it stands. A Let that is the body of a
      // Let continues its stage and carries no prefix of its own.
      PushBindings(node, p.nesting, todo);
      continue;
    }
    AnalyzeRow row;
    row.lir_id = node.id;
    row.nesting = p.nesting;
    row.op = absl::StrCat(p.prefix, AnalyzeOperatorName(node));
    for (LirId id : {node.id, p.also}) {
      if (id == 0) continue;
      if (auto it = measures.find(id); it != measures.end()) {
        AddMeasure(row.measure, it->second);
      }
    }
    rows.push_back(std::move(row));
    for (const NodePtr& input : node.inputs) {
      if (input != nullptr) {
        todo.push_back({input.get(), std::min(p.nesting + 1, kMaxNesting), ""});
      }
    }
  }
  // Materialize orders by LirId, descending; ties (ids not assigned) keep
  // the walk's order.
  std::stable_sort(rows.begin(), rows.end(),
                   [](const AnalyzeRow& a, const AnalyzeRow& b) {
                     return a.lir_id > b.lir_id;
                   });
  return rows;
}

}  // namespace lir::explain
