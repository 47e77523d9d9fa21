// Arranged reads in the evaluator: every expression that reads an
// arrangement is written over the arrangement's layout row `key ++ thinned
// value` (../shared/reference/SEMANTICS.md section 8), not over the
// collection's row. Both engines keep collections as rows and turn them into
// layout rows exactly where a plan reads an arrangement.
#ifndef LIR_EVAL_LAYOUT_READ_H_
#define LIR_EVAL_LAYOUT_READ_H_

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/arrangement.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/layout.h"
#include "lir/node.h"

namespace lir::eval {

/// Maps rows of a collection to the layout rows of one of its arrangement
/// forms.
class LayoutReader {
 public:
  /// The identity reader (a raw read).
  LayoutReader() = default;
  /// The reader of `form`; InvalidArgument when its permutation and thinning
  /// are inconsistent.
  static absl::StatusOr<LayoutReader> For(const ArrangementForm& form);

  /// Whether layout rows equal the collection's rows (nothing to do).
  bool identity() const { return identity_; }
  /// The layout row of `row`: each position holds the row column that the
  /// permutation puts there, or the key expression's value where no column
  /// maps to it. InvalidArgument when the row's arity is not the form's.
  absl::StatusOr<DataRow> Apply(const DataRow& row) const;
  /// Apply to every row of `rows` (a consolidated multiset stays one: the
  /// layout keeps every column, so distinct rows stay distinct).
  absl::StatusOr<Multiset> Apply(Multiset rows) const;

 private:
  bool identity_ = true;
  Layout layout_;
  /// The form's key expressions, compiled when the reader is made; one
  /// that does not compile fails where it is read.
  std::vector<absl::StatusOr<CompiledScalar>> key_;
};

/// The reader for the arranged read `node` makes of its input, whose rows
/// have `input_arity` columns: a Get::Arrangement reads its binding's form
/// `key=`; an Mfp, FlatMap, Reduce or ArrangeBy with `input_key` reads the
/// form its input offers with that key (../shared/reference/SEMANTICS.md 8.5).
/// The identity reader for every other read.
absl::StatusOr<LayoutReader> ReaderFor(const Node& node, int input_arity);

/// The reader for a Join::Delta path's source (`source={ relation=i, key=K
/// }`), whose rows have `source_arity` columns; identity for a raw source.
absl::StatusOr<LayoutReader> DeltaSourceReader(const Node& join,
                                               const JoinPath& path,
                                               int source_arity);

/// Whether the layout row `row` holds the key row `key` (its prefix): how a
/// seek (`val=`, `input_val=`) selects records of an arrangement.
inline bool HasKeyPrefix(const DataRow& row, const DataRow& key) {
  return row.size() >= key.size() &&
         std::equal(key.begin(), key.end(), row.begin());
}

/// ReaderFor applied to `rows` (the arity taken from the first row).
absl::StatusOr<Multiset> ReadAsLayout(const Node& node, Multiset rows);

}  // namespace lir::eval

#endif  // LIR_EVAL_LAYOUT_READ_H_
