// Prints LIR documents in Materialize's verbose EXPLAIN text form
// (../shared/reference/TEXT-FORMAT.md). The traversal keeps its own stack so
// that plan depth is bounded only by memory.
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/explain/text.h"
#include "src/explain/text_fast_path.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain {
namespace {

using internal::NameContext;
using internal::PrintName;
using internal::PrintTask;

// A Get's collection: `l3`, or a global name quoted where needed.
std::string CollectionText(const CollectionId& id) {
  return id.is_local ? id.ToString()
                     : PrintName(id.global, NameContext::kCollection);
}

// Materialize cuts constants longer than this to their first rows.
constexpr size_t kMaxPrintedConstantRows = 20;

class Printer {
 public:
  Printer(std::string& out, bool node_ids,
          std::function<std::string(const Node&)> annotate = nullptr)
      : out_(out), node_ids_(node_ids), annotate_(std::move(annotate)) {}

  // Prints the subtree at `root` with its header at `level`.
  void PrintTree(const Node& root, int level) {
    stack_.push_back({&root, level, {}});
    while (std::optional<PrintTask> task =
               internal::NextNodeTask(stack_, out_)) {
      PrintNode(*task->node, task->level);
    }
  }

  // Appends `text` at `level` as one line.
  void Line(int level, absl::string_view text) {
    internal::AppendLine(out_, level, text);
  }

  // The MFP-lines group (../shared/reference/TEXT-FORMAT.md 4.6).
  void MfpLines(int level, const MapFilterProject& mfp) {
    if (mfp.project.has_value()) {
      Line(level, absl::StrCat("project=(", PrintIndices(*mfp.project), ")"));
    }
    if (!mfp.filter.empty()) {
      Line(level, absl::StrCat("filter=(", PrintPredicates(mfp.filter), ")"));
    }
    if (!mfp.map.empty()) {
      Line(level, absl::StrCat("map=(", PrintExprList(mfp.map), ")"));
    }
    if (mfp.temporal.has_value()) {
      Line(level, internal::TemporalFilterLine(*mfp.temporal));
    }
  }

 private:
  std::string Annotation(const Node& node) const {
    return internal::NodeAnnotation(node, node_ids_, annotate_);
  }

  void Header(int level, const Node& node, absl::string_view text) {
    Line(level, absl::StrCat(text, Annotation(node)));
  }

  void PushInputs(const Node& node, int level) {
    internal::PushInputs(node, level, stack_);
  }

  void Collections(int level, const AvailableCollections& keys) {
    Line(level, keys.raw ? "raw=true" : "raw=false");
    for (size_t i = 0; i < keys.arranged.size(); ++i) {
      Line(level, absl::StrCat("arrangements[", i,
                               "]=", PrintArrangement(keys.arranged[i])));
    }
  }

  // A labelled MFP block (`key_plan`, `mfp_after`): label at `level`, lines
  // one deeper.
  void LabelledMfp(int level, absl::string_view label,
                   const MapFilterProject& mfp) {
    Line(level, label);
    MfpLines(level + 1, mfp);
  }

  void Closure(int level, absl::string_view label, const JoinClosure& closure) {
    Line(level, label);
    MfpLines(level + 1, closure.mfp);
    if (!closure.ready_equivalences.empty()) {
      std::vector<std::string> classes;
      for (const auto& cls : closure.ready_equivalences) {
        std::vector<std::string> members;
        for (const ScalarExpr& e : cls) members.push_back(PrintExpr(e));
        classes.push_back(absl::StrJoin(members, " = "));
      }
      Line(level + 1, absl::StrCat("ready_equivalences=",
                                   absl::StrJoin(classes, " AND ")));
    }
  }

  void Stage(int level, const JoinStage& stage) {
    if (stage.closure.has_value()) Closure(level, "closure", *stage.closure);
    Line(level,
         absl::StrCat("lookup={ relation=", stage.lookup_relation, ", key=[",
                      PrintCompactScalars(stage.lookup_key), "] }"));
    Line(level,
         absl::StrCat("stream={ key=[", PrintCompactScalars(stage.stream_key),
                      "], thinning=(", PrintIndices(stage.stream_thinning),
                      ") }"));
  }

  void Source(int level, const JoinPath& path) {
    if (path.source_key.has_value()) {
      Line(level,
           absl::StrCat("source={ relation=", path.source_relation, ", key=[",
                        PrintCompactScalars(*path.source_key), "] }"));
    } else {
      Line(level,
           absl::StrCat("source={ relation=", path.source_relation, ", raw }"));
    }
  }

  void Join(const Node& node, const JoinOp& join, int level) {
    Header(level, node, join.delta ? "Join::Delta" : "Join::Linear");
    const int d1 = level + 1;
    if (!join.delta) {
      // Linear: final closure first, stages ascending, initial closure last.
      if (!join.paths.empty()) {
        const JoinPath& path = join.paths[0];
        if (path.final_closure)
          Closure(d1, "final_closure", *path.final_closure);
        for (size_t i = 0; i < path.stages.size(); ++i) {
          Line(d1, absl::StrCat("linear_stage[", i, "]"));
          Stage(d1 + 1, path.stages[i]);
        }
        if (path.initial_closure) {
          Closure(d1, "initial_closure", *path.initial_closure);
        }
        Source(d1, path);
      }
    } else {
      for (size_t p = 0; p < join.paths.size(); ++p) {
        const JoinPath& path = join.paths[p];
        Line(d1, absl::StrCat("plan_path[", p, "]"));
        const int d2 = d1 + 1;
        if (path.final_closure)
          Closure(d2, "final_closure", *path.final_closure);
        // Delta stages print from the last to the first.
        for (size_t i = path.stages.size(); i-- > 0;) {
          Line(d2, absl::StrCat("delta_stage[", i, "]"));
          Stage(d2 + 1, path.stages[i]);
        }
        if (path.initial_closure) {
          Closure(d2, "initial_closure", *path.initial_closure);
        }
        Source(d2, path);
      }
    }
    PushInputs(node, d1);
  }

  void Reduce(const Node& node, const ReduceOp& r, int level) {
    const int d1 = level + 1;
    switch (r.kind) {
      case ReduceKind::kDistinct:
        Header(level, node, "Reduce::Distinct");
        break;
      case ReduceKind::kAccumulable:
        Header(level, node, "Reduce::Accumulable");
        for (size_t i = 0; i < r.simple_aggrs.size(); ++i) {
          Line(d1, absl::StrCat("simple_aggrs[", i, "]=(",
                                r.simple_aggrs[i].first, ", ",
                                PrintAggregate(r.simple_aggrs[i].second), ")"));
        }
        for (size_t i = 0; i < r.distinct_aggrs.size(); ++i) {
          Line(d1, absl::StrCat(
                       "distinct_aggrs[", i, "]=(", r.distinct_aggrs[i].first,
                       ", ", PrintAggregate(r.distinct_aggrs[i].second), ")"));
        }
        break;
      case ReduceKind::kHierarchicalMonotonic:
      case ReduceKind::kHierarchicalBucketed:
        Header(level, node, "Reduce::Hierarchical");
        Line(d1, absl::StrCat("aggr_funcs=[", absl::StrJoin(r.aggr_funcs, ", "),
                              "]"));
        if (r.kind == ReduceKind::kHierarchicalMonotonic) {
          Line(d1, "monotonic");
          if (r.must_consolidate) Line(d1, "must_consolidate");
        } else {
          Line(d1,
               absl::StrCat("buckets=[", absl::StrJoin(r.buckets, ", "), "]"));
        }
        break;
      case ReduceKind::kBasicSingle:
        Header(level, node, "Reduce::Basic");
        if (!r.aggrs.empty()) {
          Line(d1,
               absl::StrCat(
                   "aggr=(", PrintAggregate(r.aggrs[0]),
                   r.fused_unnest_list ? ", fused_unnest_list=true" : "", ")"));
        }
        break;
      case ReduceKind::kBasicMultiple:
        Header(level, node, "Reduce::Basic");
        for (size_t i = 0; i < r.aggrs.size(); ++i) {
          Line(d1, absl::StrCat("aggrs[", i, "]=", PrintAggregate(r.aggrs[i])));
        }
        break;
    }
    if (r.input_key.has_value()) {
      Line(d1, absl::StrCat("input_key=", PrintCompactScalars(*r.input_key)));
    }
    if (r.temporal_bucketing) {
      Line(d1, "temporal_bucketing_strategy=TemporalBucketing");
    }
    if (r.key_plan.IsIdentity()) {
      Line(d1, "key_plan=id");
    } else {
      LabelledMfp(d1, "key_plan", r.key_plan);
    }
    if (r.val_plan.IsIdentity()) {
      Line(d1, "val_plan=id");
    } else {
      LabelledMfp(d1, "val_plan", r.val_plan);
    }
    if (!r.mfp_after.IsIdentity()) LabelledMfp(d1, "mfp_after", r.mfp_after);
    PushInputs(node, d1);
  }

  void TopK(const Node& node, const TopKOp& t, int level) {
    std::string header;
    switch (t.kind) {
      case TopKKind::kMonotonicTop1: header = "TopK::MonotonicTop1"; break;
      case TopKKind::kMonotonicTopK: header = "TopK::MonotonicTopK"; break;
      case TopKKind::kBasic: header = "TopK::Basic"; break;
    }
    if (!t.group_by.empty()) {
      absl::StrAppend(&header, " group_by=[", PrintIndices(t.group_by), "]");
    }
    if (!t.order_by.empty()) {
      absl::StrAppend(&header, " order_by=[", PrintOrderKeys(t.order_by), "]");
    }
    if (t.kind != TopKKind::kMonotonicTop1 && t.limit.has_value()) {
      absl::StrAppend(&header, " limit=", PrintExpr(*t.limit));
    }
    if (t.kind == TopKKind::kBasic && t.offset > 0) {
      absl::StrAppend(&header, " offset=", t.offset);
    }
    if (t.kind != TopKKind::kBasic && t.must_consolidate) {
      header += " must_consolidate";
    }
    Header(level, node, header);
    if (t.temporal_bucketing) {
      Line(level + 1, "temporal_bucketing_strategy=TemporalBucketing");
    }
    PushInputs(node, level + 1);
  }

  void Constant(const Node& node, const ConstantOp& c, int level) {
    if (c.error.has_value()) {
      if (c.error_redacted) {
        Header(level, node, "Error █");
        return;
      }
      std::string quoted = "\"";
      for (char ch : *c.error) {
        if (ch == '"') quoted += '\\';
        quoted += ch;
      }
      quoted += '"';
      Header(level, node, absl::StrCat("Error ", quoted));
      return;
    }
    if (c.rows.empty() && !c.elided_total_rows.has_value()) {
      Header(level, node, "Constant <empty>");
      return;
    }
    Header(level, node, "Constant");
    int row_level = level + 1;
    size_t shown = c.rows.size();
    if (c.elided_total_rows.has_value() ||
        c.rows.size() > kMaxPrintedConstantRows) {
      int64_t total = 0;
      if (c.elided_total_rows.has_value()) {
        total = *c.elided_total_rows;
      } else {
        for (const auto& entry : c.rows) total += std::llabs(entry.diff);
      }
      Line(row_level, absl::StrCat("total_rows (diffs absed): ", total));
      Line(row_level, "first_rows:");
      ++row_level;
      shown = std::min(shown, kMaxPrintedConstantRows);
    }
    for (size_t i = 0; i < shown; ++i) {
      Line(row_level,
           absl::StrCat("- ", PrintConstantRow(c.rows[i].row, c.rows[i].diff)));
    }
  }

  void Get(const Node& node, const GetOp& g, int level) {
    const int d1 = level + 1;
    switch (g.kind) {
      case GetKind::kPassArrangements:
        Header(level, node,
               absl::StrCat("Get::PassArrangements ", CollectionText(g.id)));
        break;
      case GetKind::kArrangement:
        Header(level, node,
               absl::StrCat("Get::Arrangement ", CollectionText(g.id)));
        MfpLines(d1, g.mfp);
        Line(d1, absl::StrCat("key=", PrintCompactScalars(g.key)));
        if (g.seek.has_value()) {
          Line(d1, absl::StrCat("val=", PrintRow(*g.seek)));
        }
        break;
      case GetKind::kCollection:
        Header(level, node,
               absl::StrCat("Get::Collection ", CollectionText(g.id)));
        MfpLines(d1, g.mfp);
        break;
    }
    Collections(d1, g.keys);
  }

  void PrintNode(const Node& node, int level) {
    const int d1 = level + 1;
    switch (node.kind()) {
      case NodeKind::kConstant:
        Constant(node, node.As<ConstantOp>(), level);
        return;
      case NodeKind::kGet: Get(node, node.As<GetOp>(), level); return;
      case NodeKind::kLet:
        internal::PushWithBlock(node, level, /*arrow=*/"", Annotation(node),
                                out_, stack_);
        return;
      case NodeKind::kLetRec:
        internal::PushLetRecBlock(node, level, /*arrow=*/"", Annotation(node),
                                  out_, stack_);
        return;
      case NodeKind::kMfp: {
        const MfpOp& m = node.As<MfpOp>();
        Header(level, node, "Mfp");
        MfpLines(d1, m.mfp);
        if (m.input_key.has_value()) {
          Line(d1,
               absl::StrCat("input_key=", PrintCompactScalars(*m.input_key)));
          if (m.input_val.has_value()) {
            Line(d1, absl::StrCat("input_val=", PrintRow(*m.input_val)));
          }
        }
        PushInputs(node, d1);
        return;
      }
      case NodeKind::kFlatMap: {
        const FlatMapOp& f = node.As<FlatMapOp>();
        Header(level, node,
               absl::StrCat("FlatMap ", f.func, "(",
                            PrintCompactScalars(f.exprs), ")"));
        if (f.input_key.has_value()) {
          Line(d1,
               absl::StrCat("input_key=", PrintCompactScalars(*f.input_key)));
        }
        if (!f.mfp_after.IsIdentity())
          LabelledMfp(d1, "mfp_after", f.mfp_after);
        PushInputs(node, d1);
        return;
      }
      case NodeKind::kJoin: Join(node, node.As<JoinOp>(), level); return;
      case NodeKind::kReduce: Reduce(node, node.As<ReduceOp>(), level); return;
      case NodeKind::kTopK: TopK(node, node.As<TopKOp>(), level); return;
      case NodeKind::kNegate:
        Header(level, node, "Negate");
        PushInputs(node, d1);
        return;
      case NodeKind::kThreshold:
        Header(level, node,
               absl::StrCat("Threshold::Basic ensure_arrangement=",
                            PrintArrangement(
                                node.As<ThresholdOp>().ensure_arrangement)));
        PushInputs(node, d1);
        return;
      case NodeKind::kUnion: {
        const UnionOp& u = node.As<UnionOp>();
        Header(
            level, node,
            u.consolidate_output ? "Union consolidate_output=true" : "Union");
        bool any_bucketing = false;
        for (UnionStrategy s : u.strategies) {
          any_bucketing |= s == UnionStrategy::kTemporalBucketing;
        }
        if (any_bucketing) {
          std::vector<std::string> names;
          for (UnionStrategy s : u.strategies) {
            names.push_back(s == UnionStrategy::kDirect ? "Direct"
                                                        : "TemporalBucketing");
          }
          Line(d1, absl::StrCat("temporal_bucketing_strategies=[",
                                absl::StrJoin(names, ", "), "]"));
        }
        PushInputs(node, d1);
        return;
      }
      case NodeKind::kArrangeBy: {
        const ArrangeByOp& a = node.As<ArrangeByOp>();
        Header(level, node, "ArrangeBy");
        if (a.input_key.has_value()) {
          Line(d1, absl::StrCat("input_key=[",
                                PrintCompactScalars(*a.input_key), "]"));
        }
        if (a.temporal_bucketing) Line(d1, "strategy=TemporalBucketing");
        MfpLines(d1, a.input_mfp);
        Collections(d1, a.forms);
        PushInputs(node, d1);
        return;
      }
      case NodeKind::kSetDifference: {
        const SetDifferenceOp& s = node.As<SetDifferenceOp>();
        Header(level, node,
               absl::StrCat("SetDifference ensure_arrangement=",
                            PrintArrangement(s.ensure_arrangement)));
        Line(d1, absl::StrCat("base_key=[",
                              PrintCompactScalars(ColumnKey(s.base_key)), "]"));
        Line(d1,
             absl::StrCat("subtract_key=[",
                          PrintCompactScalars(ColumnKey(s.subtract_key)), "]"));
        PushInputs(node, d1);
        return;
      }
      case NodeKind::kAntiJoin: {
        const AntiJoinOp& a = node.As<AntiJoinOp>();
        Header(level, node,
               absl::StrCat("AntiJoin key=[",
                            PrintCompactScalars(ColumnKey(a.key)), "]"));
        Line(d1, absl::StrCat("base_key=[",
                              PrintCompactScalars(ColumnKey(a.base_key)), "]"));
        Line(d1, absl::StrCat("keys_key=[",
                              PrintCompactScalars(ColumnKey(a.keys_key)), "]"));
        PushInputs(node, d1);
        return;
      }
    }
  }

  std::string& out_;
  bool node_ids_;
  std::function<std::string(const Node&)> annotate_;
  std::vector<PrintTask> stack_;
};

void PrintFinish(Printer& p, const Finish& f) {
  std::string line = "Finish";
  if (!f.order_by.empty()) {
    absl::StrAppend(&line, " order_by=[", PrintOrderKeys(f.order_by), "]");
  }
  if (f.limit.has_value()) absl::StrAppend(&line, " limit=", *f.limit);
  if (f.offset > 0) absl::StrAppend(&line, " offset=", f.offset);
  absl::StrAppend(&line, " output=[", PrintIndices(f.output), "]");
  p.Line(1, line);
}

}  // namespace

std::string PrintPlanAt(const Node& root, int level) {
  const PrintOptions options;
  std::string out;
  Printer printer(out, options.node_identifiers, options.annotate);
  printer.PrintTree(root, level);
  return out;
}

namespace internal {

void AppendLine(std::string& out, int level, absl::string_view text) {
  out.append(2 * static_cast<size_t>(level), ' ');
  out.append(text.data(), text.size());
  out.push_back('\n');
}

std::optional<PrintTask> NextNodeTask(std::vector<PrintTask>& stack,
                                      std::string& out) {
  while (!stack.empty()) {
    PrintTask task = std::move(stack.back());
    stack.pop_back();
    if (task.node != nullptr) return task;
    AppendLine(out, task.level, task.line);
  }
  return std::nullopt;
}

void PushInputs(const Node& node, int level, std::vector<PrintTask>& stack) {
  for (size_t i = node.inputs.size(); i-- > 0;) {
    stack.push_back({node.inputs[i].get(), level, {}});
  }
}

void PushWithBlock(const Node& let, int level, absl::string_view arrow,
                   absl::string_view return_annotation, std::string& out,
                   std::vector<PrintTask>& stack) {
  std::vector<const Node*> chain;
  const Node* head = &let;
  while (head->Is<LetOp>()) {
    chain.push_back(head);
    head = head->inputs[1].get();
  }
  AppendLine(out, level, absl::StrCat(arrow, "With"));
  // Pushed in reverse: the body last-out.
  stack.push_back({head, level + 1, {}});
  stack.push_back(
      {nullptr, level, absl::StrCat(arrow, "Return", return_annotation)});
  for (size_t i = chain.size(); i-- > 0;) {
    stack.push_back({chain[i]->inputs[0].get(), level + 2, {}});
    stack.push_back({nullptr, level + 1,
                     absl::StrCat("cte l", chain[i]->As<LetOp>().id, " =")});
  }
}

void PushLetRecBlock(const Node& letrec, int level, absl::string_view arrow,
                     absl::string_view return_annotation, std::string& out,
                     std::vector<PrintTask>& stack) {
  const LetRecOp& r = letrec.As<LetRecOp>();
  AppendLine(out, level, absl::StrCat(arrow, "With Mutually Recursive"));
  const size_t n = r.ids.size();
  stack.push_back({letrec.inputs[n].get(), level + 1, {}});
  stack.push_back(
      {nullptr, level, absl::StrCat(arrow, "Return", return_annotation)});
  for (size_t i = n; i-- > 0;) {
    stack.push_back({letrec.inputs[i].get(), level + 2, {}});
    std::string limit;
    if (i < r.limits.size() && r.limits[i].has_value()) {
      limit = absl::StrCat(
          "[recursion_limit=", r.limits[i]->max_iters,
          r.limits[i]->return_at_limit ? ", return_at_limit" : "", "] ");
    }
    stack.push_back(
        {nullptr, level + 1, absl::StrCat("cte ", limit, "l", r.ids[i], " =")});
  }
}

std::string NodeAnnotation(const Node& node, bool node_ids,
                           const AnnotateFn& annotate) {
  std::string fields;
  if (node_ids) fields = absl::StrCat("node_id: LirId(", node.id, ")");
  if (annotate) {
    std::string extra = annotate(node);
    if (!extra.empty()) {
      absl::StrAppend(&fields, fields.empty() ? "" : ", ", extra);
    }
  }
  if (fields.empty()) return "";
  return absl::StrCat(" // { ", fields, " }");
}

std::string TemporalFilterLine(const TemporalFilter& temporal) {
  std::string line = "TemporalFilter: ";
  if (!temporal.lower.empty()) {
    absl::StrAppend(&line, PrintExprList(temporal.lower), " <= ");
  }
  line += "mz_now()";
  if (!temporal.upper.empty()) {
    absl::StrAppend(&line, " < ", PrintExprList(temporal.upper));
  }
  return line;
}

absl::Status AppendDocument(const Document& doc, const ObjectBodyPrinter& body,
                            std::string& out) {
  // The frame prints no node, so its printer needs no annotation settings.
  Printer p(out, /*node_ids=*/false);
  bool first_section = true;
  // Every section after the first is preceded by one blank line.
  auto begin_section = [&] {
    if (!first_section) out.push_back('\n');
    first_section = false;
  };
  for (const Object& object : doc.objects) {
    begin_section();
    // A fast-path object's name is read back from its unquoted form (the
    // readers check that it ends in `(fast path)` and needs no quotes).
    p.Line(0, absl::StrCat(object.fast_path.has_value()
                               ? object.name
                               : PrintName(object.name, NameContext::kObject),
                           ":"));
    int plan_level = 1;
    if (object.finish.has_value()) {
      PrintFinish(p, *object.finish);
      plan_level = 2;
    }
    if (absl::Status status = body(object, plan_level, out); !status.ok()) {
      return status;
    }
  }
  if (!doc.sources.empty()) {
    begin_section();
    for (const SourceBlock& source : doc.sources) {
      p.Line(0, absl::StrCat("Source ",
                             PrintName(source.name, NameContext::kSource)));
      p.MfpLines(1, source.mfp);
      if (source.pushdown.has_value()) {
        p.Line(1, absl::StrCat("pushdown=(", PrintPredicates(*source.pushdown),
                               ")"));
      }
    }
  }
  if (doc.used_indexes.has_value()) {
    begin_section();
    p.Line(0, "Used Indexes:");
    for (const UsedIndex& index : *doc.used_indexes) {
      p.Line(1, absl::StrCat("- ", PrintName(index.name, NameContext::kIndex),
                             " (", absl::StrJoin(index.usages, ", "), ")"));
    }
  }
  if (doc.target_cluster.has_value()) {
    begin_section();
    p.Line(0, absl::StrCat("Target cluster: ", *doc.target_cluster));
  }
  if (doc.notices.has_value()) {
    begin_section();
    p.Line(0, "Notices:");
    for (const std::string& notice : *doc.notices) p.Line(0, notice);
  }
  if (doc.optimization_time.has_value()) {
    begin_section();
    p.Line(0, absl::StrCat("Optimization time: ", *doc.optimization_time));
  }
  return absl::OkStatus();
}

}  // namespace internal

std::string PrintText(const Document& doc, const PrintOptions& options) {
  const bool node_ids = options.node_identifiers || doc.node_identifiers;
  std::string out;
  // The verbose body printers cannot fail: every fact they print is in the
  // IR (a partial plan is the caller's to refuse, see text.h).
  internal::AppendDocument(
      doc,
      [&](const Object& object, int level, std::string& body_out) {
        if (object.fast_path.has_value()) {
          internal::AppendFastPath(body_out, *object.fast_path, level);
        } else if (object.plan != nullptr) {
          Printer(body_out, node_ids, options.annotate)
              .PrintTree(*object.plan, level);
        }
        return absl::OkStatus();
      },
      out)
      .IgnoreError();
  return out;
}

}  // namespace lir::explain
