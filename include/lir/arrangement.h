// Arrangement layouts and the forms in which a collection is available.
#ifndef LIR_LIR_ARRANGEMENT_H_
#define LIR_LIR_ARRANGEMENT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lir/scalar.h"

namespace lir {

/// One arrangement of a collection: its key expressions and the layout of
/// stored rows (../shared/reference/SEMANTICS.md section 1).
struct ArrangementForm {
  std::vector<ScalarExpr> key;
  /// The non-identity entries `(column, position in key ++ value)` of the
  /// permutation, ascending by column; empty means `id`.
  std::vector<std::pair<int, int>> permutation;
  /// Row columns that form the value (not plain key column references).
  std::vector<int> thinning;

  friend bool operator==(const ArrangementForm&,
                         const ArrangementForm&) = default;
};

/// Builds the arrangement of an `arity`-column collection by `key`, with the
/// permutation and thinning Materialize derives for it.
ArrangementForm MakeArrangement(std::vector<ScalarExpr> key, int arity);

/// The arrangement by plain columns `columns` of an `arity`-column collection.
ArrangementForm MakeColumnArrangement(const std::vector<int>& columns,
                                      int arity);

/// In which forms a node's output exists.
struct AvailableCollections {
  bool raw = false;
  std::vector<ArrangementForm> arranged;

  /// The arranged form whose key equals `key` ignoring column names, or null.
  const ArrangementForm* FindByKey(const std::vector<ScalarExpr>& key) const;

  friend bool operator==(const AvailableCollections&,
                         const AvailableCollections&) = default;
};

/// If every key expression is a plain column reference, their indexes.
std::optional<std::vector<int>> KeyColumns(const std::vector<ScalarExpr>& key);

/// Plain column references `#c` for every c in `columns`.
std::vector<ScalarExpr> ColumnKey(const std::vector<int>& columns);

/// Runs of at least this many consecutive ascending columns print as a
/// range `#a..=#b` in the text form.
inline constexpr size_t kMinColumnRangeLength = 3;

/// `columns` as the text form lists them: `#0..=#2, #4` (runs of at least
/// kMinColumnRangeLength collapsed); empty for no columns.
std::string FormatColumnList(const std::vector<int>& columns);

}  // namespace lir

#endif  // LIR_LIR_ARRANGEMENT_H_
