// Physical monotonicity in single-time dataflows
// (../shared/reference/SEMANTICS.md section 5, Materialize's
// `SingleTimeMonotonic`): does a node's output consist of insertions only?
#ifndef LIR_INTERP_MONOTONICITY_H_
#define LIR_INTERP_MONOTONICITY_H_

#include <set>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "lir/interp/interpreter.h"
#include "lir/mfp.h"
#include "lir/node.h"

namespace lir::interp {

/// The monotonicity lattice: bottom = monotonic (true), top = not (false),
/// join = AND.
struct PhysicallyMonotonic {
  bool monotonic = true;
  friend bool operator==(const PhysicallyMonotonic&,
                         const PhysicallyMonotonic&) = default;
};

/// True when `mfp` can retract rows later: it has temporal bounds, or a
/// filter predicate that calls mz_now().
bool HasTemporalPredicates(const MapFilterProject& mfp);

/// Whether table function `func` (as printed, e.g. `generate_series(...)`)
/// keeps an insert-only input insert-only. `repeat_row` does not; functions
/// this library does not know are assumed not to.
bool TableFunctionPreservesMonotonicity(std::string_view func);

/// The monotonicity interpreter. Transfer rules, per node:
///   Constant: an error, or every diff > 0 (rows elided from a printed
///     constant have unknown diffs, so such a constant is not monotonic);
///   Get: a local bound by Let to a monotonic value, or a global id in the
///     caller's set (recursive bindings never are);
///   Mfp: input, no temporal predicates; FlatMap: input, a preserving
///     function, no temporal predicates in mfp_after;
///   Join, Union: all inputs; ArrangeBy: input; Negate, AntiJoin: never;
///   Reduce, TopK, Threshold, SetDifference: outside recursive scopes.
class MonotonicityInterpreter {
 public:
  using Domain = PhysicallyMonotonic;

  /// `monotonic_globals`: printed names of the global collections known to
  /// be insert-only (monotonic sources and indexes). The interpreter keeps
  /// its own copy (move it in to avoid the copy).
  explicit MonotonicityInterpreter(std::set<std::string> monotonic_globals)
      : monotonic_globals_(std::move(monotonic_globals)) {}

  /// The lattice (see the Domain type).
  Domain Top() const { return {false}; }
  Domain Bottom() const { return {true}; }
  Domain Join(const Domain& a, const Domain& b) const {
    return {a.monotonic && b.monotonic};
  }
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from include/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"

 private:
  std::set<std::string> monotonic_globals_;
};

/// Runs the monotonicity analysis over `plan`.
absl::StatusOr<Analysis<PhysicallyMonotonic>> AnalyzeMonotonicity(
    const Node& plan, const std::set<std::string>& monotonic_globals);

}  // namespace lir::interp

#endif  // LIR_INTERP_MONOTONICITY_H_
