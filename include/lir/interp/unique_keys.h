// Unique keys (../shared/reference/SEMANTICS.md section 7.3): for every node,
// sets of output columns on which every value has count at most 1 (and no
// negative count) at every time. Conservative: a key is listed only when a
// rule proves it, and no key at all is always a sound answer.
#ifndef LIR_INTERP_UNIQUE_KEYS_H_
#define LIR_INTERP_UNIQUE_KEYS_H_

#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/interp/arity.h"
#include "lir/interp/interpreter.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::interp {

/// One unique key: output columns, sorted and without repeats. Empty means
/// the whole output holds at most one row.
using UniqueKey = std::vector<int>;

/// The unique-keys lattice, ordered by what it proves: bottom (`everything`,
/// the start of a LetRec fixpoint) proves every key, top (no keys) nothing.
/// `keys` is kept normalized (NormalizeKeys), so equal values compare equal.
struct UniqueKeys {
  /// Bottom: no value computed yet; the identity of the join.
  bool everything = false;
  std::vector<UniqueKey> keys;

  friend bool operator==(const UniqueKeys&, const UniqueKeys&) = default;
};

/// At most this many keys are kept per node (dropping a key is always
/// sound), which bounds the work of joins and of wide Constants.
inline constexpr size_t kMaxUniqueKeys = 32;

/// Sorts and deduplicates each key's columns, drops keys that contain
/// another key (they say nothing more) and orders the rest by size, then
/// lexicographically; keeps at most kMaxUniqueKeys (the smallest).
std::vector<UniqueKey> NormalizeKeys(std::vector<UniqueKey> keys);

/// The least upper bound: the keys both `a` and `b` imply, i.e. the unions
/// of one key of each (normalized).
UniqueKeys JoinUniqueKeys(const UniqueKeys& a, const UniqueKeys& b);

/// `[#0], [#1, #2]`; `[]` for the empty key; `none` when no key is known;
/// `*` for bottom.
std::string FormatUniqueKeys(const UniqueKeys& keys);

/// `keys` of an MFP's input carried to its output: map and filter (and
/// temporal bounds) keep every key; a projection keeps a key whose columns
/// all survive, renumbered to the first output that copies each column.
std::vector<UniqueKey> KeysThroughMfp(const std::vector<UniqueKey>& keys,
                                      const MapFilterProject& mfp);

/// `keys` of a collection carried to the layout row of its arrangement by
/// `arranged_key` (../shared/reference/SEMANTICS.md 8.2): each column moves
/// to its position P[c], per `form` when given, else per the layout
/// Materialize derives for the key. A key with a column the layout does not
/// hold is dropped. The layout row is a function of the row and the row can
/// be read back from it, so counts, and with them keys, carry over.
std::vector<UniqueKey> KeysIntoLayout(
    const std::vector<UniqueKey>& keys,
    const std::vector<ScalarExpr>& arranged_key, const ArrangementForm* form);

/// The keys a Constant proves, when it is no error, lists all its rows and
/// every diff is 1 (otherwise none): with no rows or one row the empty key;
/// else each single column whose values are pairwise distinct, and the set
/// of columns whose values can be compared when the rows are pairwise
/// distinct on it. Literals are compared by value only where the printed
/// text determines it (null, booleans, numbers, strings); two values of any
/// other kind are taken to be possibly equal.
std::vector<UniqueKey> ConstantKeys(const ConstantOp& op);

/// The unique-keys interpreter. Rules per kind (SEMANTICS.md 7.3):
///   Reduce (every kind): the group key #0..#k-1, through mfp_after;
///   TopK with limit 1 and no offset (MonotonicTop1 included): group_by;
///   Constant: ConstantKeys;
///   Mfp, Get::Collection/Arrangement (their mfp), ArrangeBy (input_mfp):
///     the input's keys through the MFP, first into the layout row of the
///     arrangement read (input_key, Get::Arrangement's key);
///   Get::PassArrangements, ArrangeBy: the collection's / input's;
///   local Get: the binding's, none for a LetRec-bound (recursive) id;
///   global Get: the caller's keys for the name, else none;
///   AntiJoin: the base's (it only removes base rows).
///   Union, Negate, Join, FlatMap, Threshold, SetDifference: none.
/// Let passes its body's keys (the driver); so does LetRec, whose body
/// sees its recursive ids without keys.
class UniqueKeysInterpreter {
 public:
  using Domain = UniqueKeys;

  /// `global_keys`: keys of global collections by printed name, over the
  /// rows their Gets read (GlobalKeysSeenByGets); the interpreter keeps its
  /// own copy (move it in to avoid the copy). `arities`: the arity analysis
  /// of the same plan, for the width of a Reduce key without a key_plan
  /// projection (may be null), shared with the caller so that the
  /// interpreter keeps it alive without copying it.
  UniqueKeysInterpreter(
      std::map<std::string, std::vector<UniqueKey>> global_keys,
      std::shared_ptr<const Analysis<Arity>> arities)
      : global_keys_(std::move(global_keys)), arities_(std::move(arities)) {}

  /// The lattice (see the Domain type).
  Domain Top() const { return UniqueKeys(); }
  Domain Bottom() const { return UniqueKeys{true, {}}; }
  Domain Join(const Domain& a, const Domain& b) const {
    return JoinUniqueKeys(a, b);
  }
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from include/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"

 private:
  std::map<std::string, std::vector<UniqueKey>> global_keys_;
  std::shared_ptr<const Analysis<Arity>> arities_;  ///< may be null
};

/// The keys of global collections as a document's Gets read them: the
/// caller's keys (over each collection's own row) carried through the
/// collection's `Source` block, if the document has one (the plan reads the
/// block's output; ../shared/reference/SEMANTICS.md 8.3).
std::map<std::string, std::vector<UniqueKey>> GlobalKeysSeenByGets(
    const Document& doc,
    const std::map<std::string, std::vector<UniqueKey>>& catalog_keys);

/// Runs the unique-keys analysis over `plan` (arguments as for the
/// interpreter).
absl::StatusOr<Analysis<UniqueKeys>> AnalyzeUniqueKeys(
    const Node& plan,
    const std::map<std::string, std::vector<UniqueKey>>& global_keys,
    const Analysis<Arity>* arities);

}  // namespace lir::interp

#endif  // LIR_INTERP_UNIQUE_KEYS_H_
