// The forms in which every node's output is available: raw (unarranged)
// and/or arranged by which keys, per the "Output forms" column of
// ../shared/reference/SEMANTICS.md section 2.
#ifndef LIR_INTERP_ARRANGEMENTS_H_
#define LIR_INTERP_ARRANGEMENTS_H_

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "lir/arrangement.h"
#include "lir/interp/arity.h"
#include "lir/interp/interpreter.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::interp {

/// An arrangement key, shared rather than copied: a node's result is copied
/// into its own entry, into its parent's input list and across fixpoint
/// rounds, and copying ScalarExpr vectors dominated the analysis of large
/// plans.
using SharedKey = std::shared_ptr<const std::vector<ScalarExpr>>;

/// A key the analysis made up (a Reduce or TopK group key); owned.
SharedKey OwnedKey(std::vector<ScalarExpr> key);

/// A key stored in the plan, referred to without ownership: the plan must
/// outlive the analysis anyway (results are indexed by node pointer), and
/// copies of such a reference touch no reference count.
SharedKey PlanKey(const std::vector<ScalarExpr>& key);

/// Forms guaranteed to be available. Ordered by inclusion reversed: more
/// forms is lower; bottom (`everything`, the start of a LetRec fixpoint)
/// has all of them, top none; join is the intersection.
struct AvailableForms {
  /// Bottom: no value computed yet; the identity of the join.
  bool everything = false;
  bool raw = false;
  /// Keys of the available arrangements, without duplicates (column names
  /// ignored), in the order they became available.
  absl::InlinedVector<SharedKey, 1> arranged;
  /// Also arranged by a key this analysis cannot spell out: the group key of
  /// a Reduce whose key width is unknown (printed `[?]`).
  bool unknown_key = false;

  /// Raw only.
  static AvailableForms Raw();
  /// Arranged by exactly `key`.
  static AvailableForms ArrangedBy(SharedKey key);
  /// The forms an AvailableCollections of the plan lists (keys refer to it).
  static AvailableForms Of(const AvailableCollections& collections);

  /// Whether `key` (column names ignored) is among the arranged keys.
  bool HasKey(const std::vector<ScalarExpr>& key) const;
  /// Adds `key` unless present.
  void AddKey(SharedKey key);
};

/// Same forms, column names and order of keys ignored.
bool SameForms(const AvailableForms& a, const AvailableForms& b);

/// The intersection of `a` and `b` (`everything` is its identity).
AvailableForms JoinForms(const AvailableForms& a, const AvailableForms& b);

/// `raw, [#0], [#0..=#2]` (keys as EXPLAIN prints key lists), `none` when
/// nothing is available, `*` for bottom.
std::string FormatForms(const AvailableForms& forms);

/// The arrangements interpreter. Output forms per kind: Constant, FlatMap,
/// Join, Negate, Union: raw; Get::PassArrangements: the binding's forms (a
/// global's are those the Get advertises; a recursive binding circulates
/// through the iteration unarranged, so it is raw only), other Gets raw;
/// Mfp: the arrangement it reads (`input_key`) when its MFP is the identity,
/// else raw; Reduce: arranged by its group key `#0..#k-1`; TopK: arranged by
/// the group key for MonotonicTop1, else raw; Threshold, SetDifference:
/// `ensure_arrangement`; ArrangeBy: its input's forms (when its input_mfp is
/// the identity, so they still describe its output) plus `forms`; AntiJoin
/// and the others: raw.
class ArrangementsInterpreter {
 public:
  using Domain = AvailableForms;

  /// `arities`: the arity analysis of the same plan, used for the width of
  /// Reduce group keys (may be null: widths are then known only from a
  /// key_plan projection), shared with the caller so that the interpreter
  /// keeps it alive without copying it.
  explicit ArrangementsInterpreter(
      std::shared_ptr<const Analysis<Arity>> arities)
      : arities_(std::move(arities)) {}

  /// The lattice (see the Domain type).
  Domain Top() const { return AvailableForms(); }
  Domain Bottom() const {
    AvailableForms forms;
    forms.everything = true;
    return forms;
  }
  Domain Join(const Domain& a, const Domain& b) const {
    return JoinForms(a, b);
  }
  bool Equal(const Domain& a, const Domain& b) const { return SameForms(a, b); }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from include/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"

 private:
  /// The key `#0..#width-1`, made once per width: a plan has many Reduces
  /// and few distinct group-key widths.
  SharedKey PrefixKey(int width) const;

  std::shared_ptr<const Analysis<Arity>> arities_;  ///< may be null
  mutable std::vector<SharedKey> prefix_keys_;
};

/// Runs the arrangements analysis over `plan` (`arities` as for the
/// interpreter).
absl::StatusOr<Analysis<AvailableForms>> AnalyzeArrangements(
    const Node& plan, const Analysis<Arity>* arities);

}  // namespace lir::interp

#endif  // LIR_INTERP_ARRANGEMENTS_H_
