// The arity (number of columns) of a node's output, defined once: the
// lattice, and one rule per node kind from its inputs' arities to its
// output's. Validate (src/lir/validate.cc) checks plans and reports the
// arities these rules give; the arity analysis (include/lir/interp/arity.h)
// runs them as an abstract interpretation. Nothing is guessed: where nothing
// reveals an arity it stays unknown.
#ifndef LIR_LIR_ARITY_H_
#define LIR_LIR_ARITY_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lir/arrangement.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir {

/// The arity lattice: unknown (bottom) < known n < conflict (top). Two
/// different known arities join to a conflict.
struct Arity {
  enum class State : uint8_t { kUnknown, kKnown, kConflict };
  State state = State::kUnknown;
  int value = 0;  ///< meaningful when kKnown; 0 otherwise

  static Arity Unknown() { return {}; }
  static Arity Known(int n) { return {State::kKnown, n}; }
  static Arity Conflict() { return {State::kConflict, 0}; }
  /// Known(n) for n, Unknown() for nullopt.
  static Arity FromOptional(std::optional<int> n) {
    return n.has_value() ? Known(*n) : Unknown();
  }
  bool known() const { return state == State::kKnown; }
  /// The arity when known, else nullopt (InferArities' convention).
  std::optional<int> ToOptional() const {
    return known() ? std::optional<int>(value) : std::nullopt;
  }
  friend bool operator==(const Arity&, const Arity&) = default;
};

/// The least upper bound of `a` and `b`.
Arity JoinArity(Arity a, Arity b);

/// `2`, `?` (unknown) or `conflict`.
std::string FormatArity(Arity arity);

/// The arity the layout of `form` (key and thinning) describes, or conflict
/// when the layout is inconsistent (Validate's CheckArrangementForm says
/// why).
Arity DescribedArity(const ArrangementForm& form);

/// The output arity of `mfp` applied to `input` columns: its projection's
/// length, or without a projection the input's
/// (../shared/reference/SEMANTICS.md 8.1: map columns are output only
/// through a projection).
Arity MfpOutputArity(const MapFilterProject& mfp, Arity input);

/// The arity of the row an expression reading `input`'s arrangement by
/// `input_key` is written over: its layout row
/// (../shared/reference/SEMANTICS.md 8.2), or `input` itself for a raw read.
Arity ReadArity(const std::optional<std::vector<ScalarExpr>>& input_key,
                Arity input);

/// Output columns of table function `func` (as printed, parameters
/// included) when its result shape is fixed; other functions (e.g.
/// `regexp_extract`, one column per capture group) are not guessed.
std::optional<int> TableFunctionArity(std::string_view func);

/// The row a FlatMap's `mfp_after` reads: the input row (its layout row with
/// an input key) widened by the table function's columns; unknown when the
/// function's shape is not fixed.
Arity FlatMapRowArity(const FlatMapOp& flat_map, Arity input);

/// The number of aggregates a Reduce appends to its key columns.
size_t AggregateCount(const ReduceOp& reduce);

/// The row a Reduce produces before `mfp_after`: key_plan's columns (over
/// `input`'s layout row when it has an input key), then the aggregates.
Arity ReducedArity(const ReduceOp& reduce, Arity input);

/// The stream of a join stage after its lookup (before its closure):
/// `stream key ++ stream thinning ++ the lookup's value columns` (those its
/// key does not name plainly).
Arity LookupStreamArity(const JoinStage& stage, Arity lookup);

/// The arity one linear join plan or delta path produces from the inputs'
/// arities (conflict when it names a relation that does not exist).
Arity JoinPathArity(const JoinPath& path, bool delta,
                    std::span<const Arity> inputs);

/// The output arity of a Get reading a collection of arity `collection`
/// (joined with what its advertised arrangements describe).
Arity GetOutputArity(const GetOp& get, Arity collection);

/// The same for a Get node, which may be partial: when its available forms
/// are unknown, an arrangement read's layout row is derived from its key.
Arity GetOutputArity(const Node& get_node, Arity collection);

/// The output arity of `node` from its inputs' arities (in input order; Let
/// and LetRec give their body's). A Get is taken to read a collection of
/// unknown arity: use GetOutputArity when more is known.
Arity NodeOutputArity(const Node& node, std::span<const Arity> inputs);

}  // namespace lir

#endif  // LIR_LIR_ARITY_H_
