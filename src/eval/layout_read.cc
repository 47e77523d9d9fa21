// Arranged reads over layout rows.
#include "src/eval/layout_read.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"

namespace lir::eval {

absl::StatusOr<LayoutReader> LayoutReader::For(const ArrangementForm& form) {
  std::optional<Layout> layout = MakeLayout(form);
  if (!layout.has_value()) {
    return absl::InvalidArgumentError(
        "arrangement permutation and thinning are inconsistent");
  }
  LayoutReader reader;
  reader.identity_ = layout->arity == layout->row_arity;
  for (int p = 0; p < layout->arity && reader.identity_; ++p) {
    reader.identity_ = layout->column[p] == p;
  }
  reader.layout_ = std::move(*layout);
  for (const ScalarExpr& e : form.key) {
    reader.key_.push_back(CompiledScalar::Compile(e));
  }
  return reader;
}

absl::StatusOr<DataRow> LayoutReader::Apply(const DataRow& row) const {
  if (identity_) return row;
  if (static_cast<int>(row.size()) != layout_.row_arity) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a row of ", row.size(), " columns read through an arrangement of ",
        layout_.row_arity));
  }
  DataRow out;
  out.reserve(layout_.arity);
  for (int p = 0; p < layout_.arity; ++p) {
    const int c = layout_.column[p];
    if (c >= 0) {
      out.push_back(row[c]);
    } else if (static_cast<size_t>(p) < key_.size()) {
      // A key expression's own value (e.g. `(#0 + 1)`).
      LIR_RETURN_IF_ERROR(key_[p].status());
      LIR_ASSIGN_OR_RETURN(Datum v, key_[p]->Eval(row));
      out.push_back(std::move(v));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("layout position ", p, " holds no column"));
    }
  }
  return out;
}

absl::StatusOr<Multiset> LayoutReader::Apply(Multiset rows) const {
  if (identity_) return rows;
  for (RowDiff& entry : rows) {
    LIR_ASSIGN_OR_RETURN(entry.first, Apply(entry.first));
  }
  // Distinct rows stay distinct; only their order changes.
  std::sort(rows.begin(), rows.end(), [](const RowDiff& a, const RowDiff& b) {
    return a.first < b.first;
  });
  return rows;
}

namespace {

// The reader of `node`'s read of its input by `key`; identity without one.
absl::StatusOr<LayoutReader> ReaderOfInput(
    const Node& node, const std::optional<std::vector<ScalarExpr>>& key,
    int input_arity) {
  if (!key.has_value()) return LayoutReader();
  if (node.inputs.empty() || node.inputs[0] == nullptr) {
    return absl::InvalidArgumentError("an arranged read without an input");
  }
  std::optional<ArrangementForm> form =
      ReadForm(*node.inputs[0], *key, input_arity);
  if (!form.has_value()) return LayoutReader();
  return LayoutReader::For(*form);
}

}  // namespace

absl::StatusOr<LayoutReader> ReaderFor(const Node& node, int input_arity) {
  switch (node.kind()) {
    case NodeKind::kGet: {
      const GetOp& get = node.As<GetOp>();
      if (get.kind != GetKind::kArrangement) return LayoutReader();
      const ArrangementForm* form = get.keys.FindByKey(get.key);
      if (form == nullptr) {
        return absl::InvalidArgumentError(
            "reads an arrangement the collection does not have");
      }
      return LayoutReader::For(*form);
    }
    case NodeKind::kMfp:
      return ReaderOfInput(node, node.As<MfpOp>().input_key, input_arity);
    case NodeKind::kFlatMap:
      return ReaderOfInput(node, node.As<FlatMapOp>().input_key, input_arity);
    case NodeKind::kReduce:
      return ReaderOfInput(node, node.As<ReduceOp>().input_key, input_arity);
    case NodeKind::kArrangeBy:
      return ReaderOfInput(node, node.As<ArrangeByOp>().input_key, input_arity);
    case NodeKind::kConstant:
    case NodeKind::kLet:
    case NodeKind::kLetRec:
    case NodeKind::kJoin:
    case NodeKind::kTopK:
    case NodeKind::kNegate:
    case NodeKind::kThreshold:
    case NodeKind::kUnion:
    case NodeKind::kSetDifference:
    case NodeKind::kAntiJoin: return LayoutReader();
  }
  return LayoutReader();
}

absl::StatusOr<LayoutReader> DeltaSourceReader(const Node& join,
                                               const JoinPath& path,
                                               int source_arity) {
  if (!join.As<JoinOp>().delta || !path.source_key.has_value()) {
    return LayoutReader();
  }
  const size_t source = static_cast<size_t>(path.source_relation);
  if (source >= join.inputs.size() || join.inputs[source] == nullptr) {
    return absl::InvalidArgumentError("join source relation out of range");
  }
  std::optional<ArrangementForm> form =
      ReadForm(*join.inputs[source], *path.source_key, source_arity);
  if (!form.has_value()) return LayoutReader();
  return LayoutReader::For(*form);
}

absl::StatusOr<Multiset> ReadAsLayout(const Node& node, Multiset rows) {
  if (rows.empty()) return rows;
  LIR_ASSIGN_OR_RETURN(
      LayoutReader reader,
      ReaderFor(node, static_cast<int>(rows.front().first.size())));
  return reader.Apply(std::move(rows));
}

}  // namespace lir::eval
