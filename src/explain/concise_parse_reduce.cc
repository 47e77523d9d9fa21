// Concise Reduce and TopK operators (../shared/reference/CONCISE-FORMAT.md
// section 6): the GroupAggregate variants with their aggregate lines, their
// `Key:` block and the unnest wrapper (whose key and input stay one level
// below it, pitfall 1), and the TopK variants with their attribute lines.
// A Reduce read from the concise form lacks its input key and val_plan, and
// with both simple and distinct accumulable aggregates their positions.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// `Simple aggregates: a, b` and the like: aggregates joined by `sep`.
absl::StatusOr<std::vector<AggregateExpr>> ParseAggregateList(
    const ErrorSink& errors, const TextLine& line, size_t base,
    absl::string_view sep) {
  std::vector<AggregateExpr> out;
  const absl::string_view list = line.content.substr(base);
  if (list.empty()) return errors.Expected(line, base, "an aggregate");
  for (const auto& [offset, piece] : SplitTopLevel(list, sep)) {
    LIR_ASSIGN_OR_RETURN(
        AggregateExpr agg,
        ParseConciseAt(errors, line, base + offset, piece, ParseAggregate));
    out.push_back(std::move(agg));
  }
  return out;
}

// The plan lines of a Reduce at `level` (H+1, or H+2 under the unnest
// wrapper).
absl::Status ReadReducePlan(const ErrorSink& errors, ConciseCursor& c,
                            int level, bool unnest, Node& node) {
  ReduceOp& r = node.As<ReduceOp>();
  switch (r.kind) {
    case ReduceKind::kDistinct: return absl::OkStatus();
    case ReduceKind::kAccumulable: {
      std::vector<AggregateExpr> simple;
      std::vector<AggregateExpr> distinct;
      if (c.At(level, "Simple aggregates: ")) {
        LIR_ASSIGN_OR_RETURN(simple,
                             ParseAggregateList(errors, c.Next(), 19, ", "));
      }
      if (c.At(level, "Distinct aggregates: ")) {
        LIR_ASSIGN_OR_RETURN(distinct,
                             ParseAggregateList(errors, c.Next(), 21, ", "));
      }
      if (simple.empty() && distinct.empty()) {
        return UnexpectedAt(
            errors, c,
            absl::StrCat("'Simple aggregates: ' or 'Distinct aggregates: ' at "
                         "indentation level ",
                         level));
      }
      // Materialize numbers the aggregates in query order and sends each
      // to the simple or the distinct list (reduce.rs, `ReducePlan::create
      // _inner`), so with one kind only, the positions are 0..n-1 in list
      // order. With both kinds the interleaving is not printed.
      const bool both = !simple.empty() && !distinct.empty();
      int position = 0;
      for (AggregateExpr& agg : simple) {
        r.simple_aggrs.emplace_back(both ? 0 : position++, std::move(agg));
      }
      for (AggregateExpr& agg : distinct) {
        r.distinct_aggrs.emplace_back(both ? 0 : position++, std::move(agg));
      }
      if (both) node.unknown.Add(UnknownFact::kAggregatePositions);
      return absl::OkStatus();
    }
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed: {
      if (!c.At(level, "Aggregations: ")) {
        return UnexpectedAt(errors, c,
                            absl::StrCat("'Aggregations: <function>, ...' at "
                                         "indentation level ",
                                         level));
      }
      const TextLine& line = c.Next();
      for (const auto& [offset, name] :
           SplitTopLevel(line.content.substr(14), ", ")) {
        if (name.empty() || name.find(' ') != absl::string_view::npos) {
          return errors.Expected(line, 14 + offset,
                                 "an aggregate function name");
        }
        r.aggr_funcs.emplace_back(name);
      }
      return absl::OkStatus();
    }
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple: {
      if (c.At(level, "Aggregation: ")) {
        r.kind = ReduceKind::kBasicSingle;
        const TextLine& line = c.Next();
        LIR_ASSIGN_OR_RETURN(
            AggregateExpr agg,
            ParseConciseAt(errors, line, 13, line.content.substr(13),
                           ParseAggregate));
        r.aggrs.push_back(std::move(agg));
        return absl::OkStatus();
      }
      // Several basic aggregates print space-separated (pitfall 3); the
      // unnest fusion exists only for a single one.
      if (!unnest && c.At(level, "Aggregations: ")) {
        r.kind = ReduceKind::kBasicMultiple;
        LIR_ASSIGN_OR_RETURN(r.aggrs,
                             ParseAggregateList(errors, c.Next(), 14, " "));
        return absl::OkStatus();
      }
      return UnexpectedAt(errors, c,
                          absl::StrCat(unnest ? "'Aggregation: '"
                                              : "'Aggregation: ' or "
                                                "'Aggregations: '",
                                       " at indentation level ", level));
    }
  }
  return absl::OkStatus();
}

constexpr absl::string_view kBucketed =
    "Bucketed Hierarchical GroupAggregate (buckets:";

}  // namespace

OperatorPrefixes SplitPrefixes(absl::string_view text) {
  OperatorPrefixes p;
  p.rest = text;
  p.temporally_bucketed = absl::ConsumePrefix(&p.rest, "Temporally-Bucketed ");
  p.consolidating_offset = text.size() - p.rest.size();
  p.consolidating = absl::ConsumePrefix(&p.rest, "Consolidating ");
  p.rest_offset = text.size() - p.rest.size();
  return p;
}

bool IsReduceOperator(absl::string_view text) {
  const OperatorPrefixes p = SplitPrefixes(text);
  return text == "Fused with Child Table Function unnest_list" ||
         p.rest == "Distinct GroupAggregate" ||
         p.rest == "Accumulable GroupAggregate" ||
         p.rest == "Monotonic GroupAggregate" ||
         p.rest == "Non-incremental GroupAggregate" ||
         absl::StartsWith(p.rest, kBucketed);
}

absl::StatusOr<ConciseHead> ReadReduce(const ErrorSink& errors,
                                       ConciseCursor& c, OperatorLine op,
                                       const FusedMfp* fused) {
  const int h = op.line->level;
  const bool unnest = op.text == "Fused with Child Table Function unnest_list";
  if (unnest) {
    LIR_RETURN_IF_ERROR(NoAnnotation(errors, op));
    if (!c.AtOperator(h + 1)) {
      return UnexpectedAt(
          errors, c,
          absl::StrCat("'\xE2\x86\x92Non-incremental GroupAggregate' at "
                       "indentation level ",
                       h + 1, ", under '", op.line->content, "'"));
    }
    LIR_ASSIGN_OR_RETURN(op, ReadOperatorLine(errors, c));
  }
  const OperatorPrefixes p = SplitPrefixes(op.text);
  ReduceOp r;
  r.temporal_bucketing = p.temporally_bucketed;
  std::string label(p.rest);
  if (p.rest == "Distinct GroupAggregate") {
    r.kind = ReduceKind::kDistinct;
  } else if (p.rest == "Accumulable GroupAggregate") {
    r.kind = ReduceKind::kAccumulable;
  } else if (p.rest == "Monotonic GroupAggregate") {
    r.kind = ReduceKind::kHierarchicalMonotonic;
    r.must_consolidate = p.consolidating;
  } else if (p.rest == "Non-incremental GroupAggregate") {
    r.kind = ReduceKind::kBasicSingle;
  } else if (absl::StartsWith(p.rest, kBucketed)) {
    // `Bucketed Hierarchical GroupAggregate (buckets: 16 256)`.
    r.kind = ReduceKind::kHierarchicalBucketed;
    label = "Bucketed Hierarchical GroupAggregate";
    absl::string_view list = p.rest.substr(kBucketed.size());
    const size_t base = kOp + p.rest_offset + kBucketed.size();
    if (!absl::ConsumeSuffix(&list, ")")) {
      return errors.Expected(*op.line, kOp + op.text.size(),
                             "')' closing the bucket list");
    }
    for (size_t i = 0; i < list.size();) {
      uint64_t bucket = 0;
      const size_t end = list.find(' ', i + 1);
      const absl::string_view number = list.substr(
          i + 1, end == absl::string_view::npos ? end : end - i - 1);
      if (list[i] != ' ' || !IsCanonicalNumber(number) ||
          !absl::SimpleAtoi(number, &bucket)) {
        return errors.Expected(*op.line, base + i, "' <bucket size>'");
      }
      r.buckets.push_back(bucket);
      i = end == absl::string_view::npos ? list.size() : end;
    }
  } else {
    return errors.Expected(*op.line, 0,
                           unnest ? absl::StrCat("'", kArrow,
                                                 "Non-incremental "
                                                 "GroupAggregate'")
                                  : std::string(kConciseOperators));
  }
  if (unnest && r.kind != ReduceKind::kBasicSingle) {
    return errors.Expected(*op.line, 0,
                           "'\xE2\x86\x92Non-incremental GroupAggregate' "
                           "under '\xE2\x86\x92"
                           "Fused with Child Table Function unnest_list'");
  }
  if (p.consolidating && r.kind != ReduceKind::kHierarchicalMonotonic) {
    return errors.Expected(*op.line, kOp + p.consolidating_offset,
                           "no 'Consolidating ' before this GroupAggregate "
                           "(only a Monotonic one says it)");
  }
  if (fused != nullptr && fused->temporal_line != nullptr) {
    return errors.Expected(*fused->temporal_line, 0,
                           "no 'TemporalFilter:' in an MFP fused into a "
                           "GroupAggregate (its mfp_after has no temporal "
                           "bounds)");
  }
  r.fused_unnest_list = unnest;
  if (fused != nullptr) r.mfp_after = fused->mfp;
  NodePtr node = MakeNode(std::move(r));
  LIR_RETURN_IF_ERROR(
      ReadReducePlan(errors, c, op.line->level + 1, unnest, *node));
  // `Key:` and the input sit at H+1 even under the unnest wrapper
  // (text.rs resets the indentation to H before printing them).
  if (c.AtExactly(h + 1, "Key:")) {
    c.Next();
    LIR_ASSIGN_OR_RETURN(int read,
                         ParseConciseMfpLines(errors, c, h + 2, false,
                                              &node->As<ReduceOp>().key_plan));
    if (read == 0) {
      return UnexpectedAt(
          errors, c,
          absl::StrCat("the key's MFP lines (Project:, Filter:, Map:) at "
                       "indentation level ",
                       h + 2));
    }
  }
  node->unknown.Add(UnknownFact::kInputKey);
  node->unknown.Add(UnknownFact::kValPlan);
  ConciseHead head =
      MakeHead(op, std::move(node), absl::StrCat(kArrow, label), h + 1, 1, 1);
  head.start_level = h;
  return head;
}

absl::StatusOr<ConciseHead> ReadTopK(const ErrorSink& errors, ConciseCursor& c,
                                     const OperatorLine& op,
                                     const OperatorPrefixes& p) {
  const int d1 = op.line->level + 1;
  TopKOp t;
  t.temporal_bucketing = p.temporally_bucketed;
  if (p.rest == "Monotonic Top1") {
    t.kind = TopKKind::kMonotonicTop1;
  } else if (p.rest == "Monotonic TopK") {
    t.kind = TopKKind::kMonotonicTopK;
  } else {
    t.kind = TopKKind::kBasic;
    if (p.consolidating) {
      return errors.Expected(*op.line, kOp + p.consolidating_offset,
                             "no 'Consolidating ' before 'Non-monotonic TopK'");
    }
  }
  t.must_consolidate = p.consolidating;
  if (c.At(d1, "Group By ")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(
        t.group_by,
        ParseConciseAt(errors, line, 9, line.content.substr(9), ParseIndices));
    if (t.group_by.empty()) return errors.Expected(line, 9, "a column");
  }
  if (c.At(d1, "Order By ")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(t.order_by,
                         ParseConciseAt(errors, line, 9, line.content.substr(9),
                                        ParseOrderKeys));
    if (t.order_by.empty()) return errors.Expected(line, 9, "an order key");
  }
  if (t.kind != TopKKind::kMonotonicTop1 && c.At(d1, "Limit ")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(
        t.limit,
        ParseConciseAt(errors, line, 6, line.content.substr(6), ParseExpr));
  }
  if (t.kind == TopKKind::kBasic && c.At(d1, "Offset ")) {
    const TextLine& line = c.Next();
    const absl::string_view number = line.content.substr(7);
    if (!IsCanonicalNumber(number, /*signed_ok=*/true) ||
        !absl::SimpleAtoi(number, &t.offset) || t.offset == 0) {
      return errors.Expected(line, 7,
                             "a non-zero offset (offset 0 is not printed)");
    }
  }
  return MakeHead(op, MakeNode(std::move(t)), absl::StrCat(kArrow, p.rest), d1,
                  1, 1);
}

}  // namespace lir::explain::internal
