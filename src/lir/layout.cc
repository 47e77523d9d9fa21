// Column layouts of arranged reads.
#include "lir/layout.h"

#include <set>
#include <utility>

namespace lir {

std::optional<Layout> MakeLayout(const ArrangementForm& form) {
  Layout layout;
  std::set<int> key_columns;
  for (const ScalarExpr& e : form.key) {
    if (e.IsColumn()) key_columns.insert(e.column);
  }
  layout.row_arity =
      static_cast<int>(key_columns.size() + form.thinning.size());
  layout.arity = static_cast<int>(form.key.size() + form.thinning.size());
  layout.position.resize(layout.row_arity);
  for (int c = 0; c < layout.row_arity; ++c) layout.position[c] = c;
  for (const auto& [c, p] : form.permutation) {
    if (c < 0 || c >= layout.row_arity) return std::nullopt;
    layout.position[c] = p;
  }
  layout.column.assign(layout.arity, -1);
  for (int c = 0; c < layout.row_arity; ++c) {
    const int p = layout.position[c];
    if (p < 0 || p >= layout.arity || layout.column[p] != -1) {
      return std::nullopt;
    }
    layout.column[p] = c;
  }
  return layout;
}

int LayoutArity(const std::vector<ScalarExpr>& key, int row_arity) {
  std::set<int> named;
  for (const ScalarExpr& e : key) {
    if (e.IsColumn() && e.column >= 0 && e.column < row_arity) {
      named.insert(e.column);
    }
  }
  return static_cast<int>(key.size()) + row_arity -
         static_cast<int>(named.size());
}

int ColumnAtLayoutPosition(const std::vector<ScalarExpr>& key,
                           const ArrangementForm* form, int position) {
  if (position < 0) return -1;
  if (form != nullptr) {
    std::optional<Layout> layout = MakeLayout(*form);
    if (!layout.has_value() || position >= layout->arity) return -1;
    return layout->column[position];
  }
  const int k = static_cast<int>(key.size());
  std::set<int> named;
  for (const ScalarExpr& e : key) {
    if (e.IsColumn() && e.column >= 0) named.insert(e.column);
  }
  if (position < k) {
    const ScalarExpr& e = key[position];
    if (!e.IsColumn() || e.column < 0) return -1;
    // A column named twice sits at its last key position.
    for (int i = position + 1; i < k; ++i) {
      if (key[i].IsColumn() && key[i].column == e.column) return -1;
    }
    return e.column;
  }
  // The (position - k)-th column the key does not name.
  int remaining = position - k;
  for (int c = 0;; ++c) {
    if (named.count(c) > 0) continue;
    if (remaining-- == 0) return c;
  }
}

int LayoutPositionOfColumn(const std::vector<ScalarExpr>& key,
                           const ArrangementForm* form, int column) {
  if (column < 0) return -1;
  if (form != nullptr) {
    std::optional<Layout> layout = MakeLayout(*form);
    if (!layout.has_value() || column >= layout->row_arity) return -1;
    return layout->position[column];
  }
  // A column the key names plainly sits at its last key position; the
  // others follow the key in increasing column order.
  const int k = static_cast<int>(key.size());
  for (int i = k - 1; i >= 0; --i) {
    if (key[i].IsColumn() && key[i].column == column) return i;
  }
  std::set<int> named_below;
  for (const ScalarExpr& e : key) {
    if (e.IsColumn() && e.column >= 0 && e.column < column) {
      named_below.insert(e.column);
    }
  }
  return k + column - static_cast<int>(named_below.size());
}

namespace {

/// `#0..#k-1` for the first k plain columns.
bool IsPrefixKey(const std::vector<ScalarExpr>& key) {
  for (size_t i = 0; i < key.size(); ++i) {
    if (!key[i].IsColumn() || key[i].column != static_cast<int>(i)) {
      return false;
    }
  }
  return true;
}

std::optional<ArrangementForm> Found(const ArrangementForm* form) {
  if (form == nullptr) return std::nullopt;
  return *form;
}

}  // namespace

std::optional<ArrangementForm> OfferedForm(const Node& start,
                                           const std::vector<ScalarExpr>& key,
                                           std::optional<int> row_arity) {
  // Follows pass-through nodes down (ArrangeBy without an MFP, Let and
  // LetRec bodies) without recursion, so deep plans are fine.
  const Node* node = &start;
  while (node != nullptr) {
    switch (node->kind()) {
      case NodeKind::kGet: {
        const GetOp& get = node->As<GetOp>();
        if (get.kind != GetKind::kPassArrangements) return std::nullopt;
        return Found(get.keys.FindByKey(key));
      }
      case NodeKind::kArrangeBy: {
        const ArrangeByOp& op = node->As<ArrangeByOp>();
        if (const ArrangementForm* form = op.forms.FindByKey(key)) {
          // A partial plan's layouts are placeholders: the caller derives
          // the layout from the key (and the arity, when known) instead.
          if (node->unknown.Has(UnknownFact::kArrangementLayouts)) {
            return std::nullopt;
          }
          return *form;
        }
        // The input's forms stay available only when rows pass unchanged.
        if (!op.input_mfp.IsIdentity() || node->inputs.empty()) {
          return std::nullopt;
        }
        node = node->inputs[0].get();
        continue;
      }
      case NodeKind::kLet:
      case NodeKind::kLetRec:
        if (node->inputs.empty()) return std::nullopt;
        node = node->inputs.back().get();
        continue;
      case NodeKind::kThreshold: {
        const ArrangementForm& form =
            node->As<ThresholdOp>().ensure_arrangement;
        if (!SameIgnoringNames(form.key, key) ||
            node->unknown.Has(UnknownFact::kArrangementLayouts)) {
          return std::nullopt;
        }
        return form;
      }
      case NodeKind::kSetDifference: {
        const ArrangementForm& form =
            node->As<SetDifferenceOp>().ensure_arrangement;
        if (!SameIgnoringNames(form.key, key) ||
            node->unknown.Has(UnknownFact::kArrangementLayouts)) {
          return std::nullopt;
        }
        return form;
      }
      case NodeKind::kReduce:
        if (!row_arity.has_value() || !IsPrefixKey(key) ||
            static_cast<int>(key.size()) > *row_arity) {
          return std::nullopt;
        }
        return MakeArrangement(key, *row_arity);
      case NodeKind::kTopK: {
        const TopKOp& op = node->As<TopKOp>();
        if (op.kind != TopKKind::kMonotonicTop1 || !row_arity.has_value() ||
            !SameIgnoringNames(key, ColumnKey(op.group_by))) {
          return std::nullopt;
        }
        return MakeArrangement(key, *row_arity);
      }
      case NodeKind::kConstant:
      case NodeKind::kMfp:
      case NodeKind::kFlatMap:
      case NodeKind::kJoin:
      case NodeKind::kNegate:
      case NodeKind::kUnion:
      case NodeKind::kAntiJoin: return std::nullopt;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ArrangementForm> ReadForm(const Node& input,
                                        const std::vector<ScalarExpr>& key,
                                        std::optional<int> row_arity) {
  std::optional<ArrangementForm> form = OfferedForm(input, key, row_arity);
  if (form.has_value()) return form;
  if (!row_arity.has_value()) return std::nullopt;
  return MakeArrangement(key, *row_arity);
}

}  // namespace lir
