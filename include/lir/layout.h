// Column layouts of arranged reads (../shared/reference/SEMANTICS.md section
// 8): which row an expression that reads an arrangement is written over, and
// which form of its input an arranged read finds.
#ifndef LIR_LIR_LAYOUT_H_
#define LIR_LIR_LAYOUT_H_

#include <optional>
#include <vector>

#include "lir/arrangement.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir {

/// The layout row `key ++ thinned value` of one arrangement form, resolved
/// against the collection's row (../shared/reference/SEMANTICS.md 8.2).
struct Layout {
  /// Columns of the collection's own row: distinct plain column references
  /// of the key plus the thinning.
  int row_arity = 0;
  /// Columns of the layout row: len(key) + len(thinning).
  int arity = 0;
  /// `position[c]`: where row column `c` sits in the layout (P[c]).
  std::vector<int> position;
  /// `column[p]`: the row column stored at layout position `p`, or -1 where
  /// the position holds the value of a key expression no column maps to.
  std::vector<int> column;
};

/// Resolves `form`'s printed permutation and thinning into a Layout. The
/// permutation's unlisted columns keep their index. Returns nullopt when
/// the form is inconsistent (a position out of range or used twice), which
/// Validate reports.
std::optional<Layout> MakeLayout(const ArrangementForm& form);

/// Columns of the layout row of an arrangement by `key` of a collection
/// with `row_arity` columns: len(key) plus the columns the key does not name
/// plainly (the thinning).
int LayoutArity(const std::vector<ScalarExpr>& key, int row_arity);

/// The collection column stored at layout position `position` of the
/// arrangement by `key`: per `form`'s printed permutation when given, else
/// per the layout Materialize derives for the key (key entries first, then
/// the other columns in increasing order), which needs no arity. -1 when
/// the position holds a key expression's value that no column maps to.
int ColumnAtLayoutPosition(const std::vector<ScalarExpr>& key,
                           const ArrangementForm* form, int position);

/// The inverse of ColumnAtLayoutPosition: the layout position where
/// collection column `column` sits in the arrangement by `key` (P[column]),
/// per `form` when given, else per the layout Materialize derives for the
/// key (which needs no arity). -1 for a negative column, or one the form's
/// row does not have.
int LayoutPositionOfColumn(const std::vector<ScalarExpr>& key,
                           const ArrangementForm* form, int column);

/// The form `node`'s output offers with key `key`
/// (../shared/reference/SEMANTICS.md 8.5): the printed form of a
/// Get::PassArrangements binding, an ArrangeBy (or the input it passes
/// through), a Threshold/SetDifference `ensure_arrangement`; the derived form
/// of a Reduce (`#0..#k-1`) or TopK::MonotonicTop1
/// (`group_by`) for a row of `row_arity` columns; Let and LetRec offer
/// their body's. nullopt when the node offers no arrangement with that key
/// (or its form depends on an unknown arity).
std::optional<ArrangementForm> OfferedForm(const Node& node,
                                           const std::vector<ScalarExpr>& key,
                                           std::optional<int> row_arity);

/// The form an arranged read with `key` of `input` finds: OfferedForm, or
/// (when the input does not advertise it) the form Materialize derives for
/// the key, MakeArrangement(key, row_arity). nullopt only when the arity
/// needed for that is unknown.
std::optional<ArrangementForm> ReadForm(const Node& input,
                                        const std::vector<ScalarExpr>& key,
                                        std::optional<int> row_arity);

}  // namespace lir

#endif  // LIR_LIR_LAYOUT_H_
