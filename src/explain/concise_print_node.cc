// The concise LIR node printer (../shared/reference/CONCISE-FORMAT.md
// section 6; Materialize's `LirRelationExpr::fmt_default_text` in
// compute-types/src/explain/text.rs). Unlike the verbose form, a child is not
// always one level below its parent's header: wrapper lines
// (`→Fused with Child Map/Filter/Project`, `→Fused with Parent ...`,
// `→Fused with Child Table Function unnest_list`) and MFP lines push it down
// (CONCISE-FORMAT 12, pitfall 1). The traversal keeps its own stack, so plan
// depth is bounded only by memory.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/node_error.h"
#include "lir/status_macros.h"
#include "src/explain/concise_printer_internal.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain::internal {
namespace {

constexpr char kFusedChildMfp[] = "→Fused with Child Map/Filter/Project";
constexpr char kTemporallyBucketed[] = "Temporally-Bucketed ";

// A Get's collection as the concise form names it: `l3`, or the qualified
// global name (quoted only where it would not read back, as in the verbose
// form).
std::string CollectionText(const CollectionId& id) {
  return id.is_local ? id.ToString()
                     : PrintName(id.global, NameContext::kCollection);
}

// `#0{a}, #1` for a non-empty key, `(empty key)` otherwise (Threshold, and
// lir's SetDifference and AntiJoin in the same style).
std::string KeyOrEmpty(const std::vector<ScalarExpr>& key) {
  return key.empty() ? std::string("(empty key)") : PrintCompactScalars(key);
}

class ConcisePrinter {
 public:
  ConcisePrinter(std::string& out, const ConciseAnnotation& annotation)
      : out_(out), annotation_(annotation) {}

  // Prints the subtree at `root` with its first line at `level`.
  absl::Status PrintTree(const Node& root, int level) {
    stack_.push_back({&root, level, {}});
    while (std::optional<PrintTask> task = NextNodeTask(stack_, out_)) {
      LIR_RETURN_IF_ERROR(PrintNode(*task->node, task->level));
    }
    return absl::OkStatus();
  }

 private:
  void Line(int level, absl::string_view text) {
    AppendLine(out_, level, text);
  }

  std::string Annotation(const Node& node) const {
    return NodeAnnotation(node, annotation_.node_ids, annotation_.annotate);
  }

  // The operator line that carries the node's annotation.
  void Header(int level, const Node& node, absl::string_view text) {
    if (annotation_.on_header) annotation_.on_header(node, text);
    Line(level, absl::StrCat(text, Annotation(node)));
  }

  void PushInputs(const Node& node, int level) {
    internal::PushInputs(node, level, stack_);
  }

  // `→Fused with Child Map/Filter/Project` and the MFP lines below it when
  // `mfp` is not the identity; returns the level of the node's header (two
  // deeper under the wrapper).
  int FusedChildMfp(int level, const MapFilterProject& mfp,
                    bool with_temporal) {
    if (mfp.IsIdentity()) return level;
    Line(level, kFusedChildMfp);
    AppendConciseMfp(out_, level + 1, mfp, with_temporal);
    return level + 2;
  }

  absl::Status Constant(const Node& node, const ConstantOp& c, int level) {
    if (c.error.has_value()) {
      Header(level, node, absl::StrCat("→Constant ", ConciseConstantError(c)));
      return absl::OkStatus();
    }
    absl::StatusOr<uint64_t> count =
        ConciseEntryCount(c, node.unknown.Has(UnknownFact::kConstantRows));
    if (!count.ok()) {
      return NodeError(node, absl::StatusCode::kFailedPrecondition,
                       std::string(count.status().message()));
    }
    Header(
        level, node,
        absl::StrCat("→Constant (", *count, *count == 1 ? " row)" : " rows)"));
    return absl::OkStatus();
  }

  void Get(const Node& node, const GetOp& g, int level) {
    const std::string id = CollectionText(g.id);
    switch (g.kind) {
      case GetKind::kPassArrangements:
        // The only trace of the available forms: a bare raw stream.
        Header(
            level, node,
            absl::StrCat(g.keys.raw && g.keys.arranged.empty() ? "→Stream "
                                                               : "→Arranged ",
                         id));
        return;
      case GetKind::kArrangement: {
        const int at = FusedChildMfp(level, g.mfp, /*with_temporal=*/true);
        std::string key =
            absl::StrCat("Key: (", PrintCompactScalars(g.key), ")");
        if (g.seek.has_value()) {
          Header(at, node, absl::StrCat("→Index Lookup on ", id));
          absl::StrAppend(&key, " Value: ", PrintRow(*g.seek));
        } else {
          Header(at, node, absl::StrCat("→Arranged ", id));
        }
        Line(at + 1, key);
        return;
      }
      case GetKind::kCollection: {
        const int at = FusedChildMfp(level, g.mfp, /*with_temporal=*/true);
        Header(at, node, absl::StrCat("→Read ", id));
        return;
      }
    }
  }

  void Mfp(const Node& node, const MfpOp& m, int level) {
    Header(level, node, "→Map/Filter/Project");
    AppendConciseMfp(out_, level + 1, m.mfp, /*with_temporal=*/true);
    // One level more when the MFP printed anything.
    PushInputs(node, m.mfp.IsIdentity() ? level + 1 : level + 2);
  }

  void FlatMap(const Node& node, const FlatMapOp& f, int level) {
    const int at = FusedChildMfp(level, f.mfp_after, /*with_temporal=*/true);
    Header(at, node,
           absl::StrCat("→Table Function ", f.func, "(",
                        PrintCompactScalars(f.exprs), ")"));
    PushInputs(node, at + 1);
  }

  void Join(const Node& node, const JoinOp& join, int level) {
    Header(level, node, ConciseJoinHeader(node, join));
    AppendConciseJoinClosures(out_, level + 1, join);
    PushInputs(node, level + 1);
  }

  // The header of `r` at `header` (after the unnest wrapper, if any) and
  // its aggregation lines one deeper.
  void ReduceHeader(const Node& node, const ReduceOp& r, int header) {
    const std::string tb(r.temporal_bucketing ? kTemporallyBucketed : "");
    const int d1 = header + 1;
    switch (r.kind) {
      case ReduceKind::kDistinct:
        Header(header, node, absl::StrCat("→", tb, "Distinct GroupAggregate"));
        return;
      case ReduceKind::kAccumulable: {
        Header(header, node,
               absl::StrCat("→", tb, "Accumulable GroupAggregate"));
        // The output positions are not shown, only the aggregates.
        auto list = [](const std::vector<std::pair<int, AggregateExpr>>& v) {
          std::vector<std::string> items;
          for (const auto& [position, agg] : v) {
            items.push_back(PrintAggregate(agg));
          }
          return absl::StrJoin(items, ", ");
        };
        if (!r.simple_aggrs.empty()) {
          Line(d1, absl::StrCat("Simple aggregates: ", list(r.simple_aggrs)));
        }
        if (!r.distinct_aggrs.empty()) {
          Line(d1,
               absl::StrCat("Distinct aggregates: ", list(r.distinct_aggrs)));
        }
        return;
      }
      case ReduceKind::kHierarchicalBucketed: {
        std::string text = absl::StrCat(
            "→", tb, "Bucketed Hierarchical GroupAggregate (buckets:");
        for (uint64_t bucket : r.buckets) absl::StrAppend(&text, " ", bucket);
        Header(header, node, absl::StrCat(text, ")"));
        Line(d1,
             absl::StrCat("Aggregations: ", absl::StrJoin(r.aggr_funcs, ", ")));
        return;
      }
      case ReduceKind::kHierarchicalMonotonic:
        Header(header, node,
               absl::StrCat("→", tb, r.must_consolidate ? "Consolidating " : "",
                            "Monotonic GroupAggregate"));
        Line(d1,
             absl::StrCat("Aggregations: ", absl::StrJoin(r.aggr_funcs, ", ")));
        return;
      case ReduceKind::kBasicSingle:
      case ReduceKind::kBasicMultiple: {
        int at = header;
        if (r.kind == ReduceKind::kBasicSingle && r.fused_unnest_list) {
          Line(at++, "→Fused with Child Table Function unnest_list");
        }
        Header(at, node,
               absl::StrCat("→", tb, "Non-incremental GroupAggregate"));
        if (r.kind == ReduceKind::kBasicSingle) {
          if (!r.aggrs.empty()) {
            Line(at + 1,
                 absl::StrCat("Aggregation: ", PrintAggregate(r.aggrs[0])));
          }
        } else {
          // Space separated, without commas (BasicPlan::fmt_default_text).
          std::string text = "Aggregations:";
          for (const AggregateExpr& agg : r.aggrs) {
            absl::StrAppend(&text, " ", PrintAggregate(agg));
          }
          Line(at + 1, text);
        }
        return;
      }
    }
  }

  void Reduce(const Node& node, const ReduceOp& r, int level) {
    // mfp_after and key_plan are plain MapFilterProjects in Materialize:
    // no TemporalFilter line.
    const int header = FusedChildMfp(level, r.mfp_after,
                                     /*with_temporal=*/false);
    ReduceHeader(node, r, header);
    // `Key:` and the input sit one below the header level, even when the
    // unnest wrapper moved the header itself one deeper (text.rs resets
    // the indentation before printing them).
    const int d1 = header + 1;
    if (!r.key_plan.IsIdentity()) {
      Line(d1, "Key:");
      AppendConciseMfp(out_, d1 + 1, r.key_plan, /*with_temporal=*/false);
    }
    PushInputs(node, d1);
  }

  void TopK(const Node& node, const TopKOp& t, int level) {
    const std::string tb(t.temporal_bucketing ? kTemporallyBucketed : "");
    const std::string consolidating =
        t.must_consolidate ? "Consolidating " : "";
    switch (t.kind) {
      case TopKKind::kMonotonicTop1:
        Header(level, node,
               absl::StrCat("→", tb, consolidating, "Monotonic Top1"));
        break;
      case TopKKind::kMonotonicTopK:
        Header(level, node,
               absl::StrCat("→", tb, consolidating, "Monotonic TopK"));
        break;
      case TopKKind::kBasic:
        Header(level, node, absl::StrCat("→", tb, "Non-monotonic TopK"));
        break;
    }
    const int d1 = level + 1;
    if (!t.group_by.empty()) {
      Line(d1, absl::StrCat("Group By ", PrintIndices(t.group_by)));
    }
    if (!t.order_by.empty()) {
      Line(d1, absl::StrCat("Order By ", PrintOrderKeys(t.order_by)));
    }
    if (t.kind != TopKKind::kMonotonicTop1 && t.limit.has_value()) {
      Line(d1, absl::StrCat("Limit ", PrintExpr(*t.limit)));
    }
    if (t.kind == TopKKind::kBasic && t.offset != 0) {
      Line(d1, absl::StrCat("Offset ", t.offset));
    }
    PushInputs(node, d1);
  }

  void Union(const Node& node, const UnionOp& u, int level) {
    // Only "some input is temporally bucketed" survives.
    bool any_bucketing = false;
    for (UnionStrategy s : u.strategies) {
      any_bucketing |= s == UnionStrategy::kTemporalBucketing;
    }
    Header(level, node,
           absl::StrCat("→", any_bucketing ? kTemporallyBucketed : "",
                        u.consolidate_output ? "Consolidating " : "", "Union"));
    PushInputs(node, level + 1);
  }

  void ArrangeBy(const Node& node, const ArrangeByOp& a, int level) {
    if (a.forms.raw && a.forms.arranged.empty()) {
      Header(level, node, "→Unarranged Raw Stream");
    } else {
      std::string text = "→Arrange";
      for (const ArrangementForm& form : a.forms.arranged) {
        if (form.key.empty()) {
          text += " (empty key)";
        } else {
          absl::StrAppend(&text, " (", PrintCompactScalars(form.key), ")");
        }
      }
      Header(level, node, text);
    }
    int input_level = level + 1;
    if (!a.input_mfp.IsIdentity()) {
      Line(level + 1, "→Fused with Parent Map/Filter/Project");
      AppendConciseMfp(out_, level + 2, a.input_mfp, /*with_temporal=*/true);
      // The input stands level with the MFP lines.
      input_level = level + 2;
    }
    PushInputs(node, input_level);
  }

  absl::Status PrintNode(const Node& node, int level) {
    switch (node.kind()) {
      case NodeKind::kConstant:
        return Constant(node, node.As<ConstantOp>(), level);
      case NodeKind::kGet: Get(node, node.As<GetOp>(), level); break;
      case NodeKind::kLet:
        PushWithBlock(node, level, /*arrow=*/"→", Annotation(node), out_,
                      stack_);
        break;
      case NodeKind::kLetRec:
        PushLetRecBlock(node, level, /*arrow=*/"→", Annotation(node), out_,
                        stack_);
        break;
      case NodeKind::kMfp: Mfp(node, node.As<MfpOp>(), level); break;
      case NodeKind::kFlatMap:
        FlatMap(node, node.As<FlatMapOp>(), level);
        break;
      case NodeKind::kJoin: Join(node, node.As<JoinOp>(), level); break;
      case NodeKind::kReduce: Reduce(node, node.As<ReduceOp>(), level); break;
      case NodeKind::kTopK: TopK(node, node.As<TopKOp>(), level); break;
      case NodeKind::kNegate:
        Header(level, node, "→Negate Diffs");
        PushInputs(node, level + 1);
        break;
      case NodeKind::kThreshold:
        Header(level, node,
               absl::StrCat(
                   "→Threshold Diffs ",
                   KeyOrEmpty(node.As<ThresholdOp>().ensure_arrangement.key)));
        PushInputs(node, level + 1);
        break;
      case NodeKind::kUnion: Union(node, node.As<UnionOp>(), level); break;
      case NodeKind::kArrangeBy:
        ArrangeBy(node, node.As<ArrangeByOp>(), level);
        break;
      // lir's own kinds (CONCISE-FORMAT 11), in the style of Threshold:
      // the arms' arrangement keys are dropped as its layout is.
      case NodeKind::kSetDifference:
        Header(
            level, node,
            absl::StrCat(
                "→Set Difference ",
                KeyOrEmpty(node.As<SetDifferenceOp>().ensure_arrangement.key)));
        PushInputs(node, level + 1);
        break;
      case NodeKind::kAntiJoin:
        Header(level, node,
               absl::StrCat("→Anti Join ",
                            KeyOrEmpty(ColumnKey(node.As<AntiJoinOp>().key))));
        PushInputs(node, level + 1);
        break;
    }
    return absl::OkStatus();
  }

  std::string& out_;
  const ConciseAnnotation& annotation_;
  std::vector<PrintTask> stack_;
};

}  // namespace

absl::Status AppendConcisePlan(std::string& out, const Node& root, int level,
                               const ConciseAnnotation& annotation) {
  ConcisePrinter printer(out, annotation);
  return printer.PrintTree(root, level);
}

}  // namespace lir::explain::internal
