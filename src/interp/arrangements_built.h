// Arrangement accounting: which arrangements each node of a plan builds (and
// so the dataflow maintains), and which imported indexes it reads, derived
// from the plan's structure and the arrangements analysis
// (arrangements.h), without running anything.
//
// The rules are Materialize's rendering as the reference evaluator's
// incremental engine models it (docs/evaluator.md, "Operator names"): every
// arrangement is named as `mz_arrangement_sizes` and `lir-opt run
// --arrangement_sizes` list it, and tests/arrangements_built_test.cc checks,
// on every corpus plan the evaluator runs, that the names per object and
// LirId equal those the evaluator lists.
//
// Built and imported are kept apart: an `Index <global>[[...]]` is
// maintained by the index's own dataflow (Materialize charges it there), so
// reading it costs the plan nothing; the totals count each index once per
// plan however many Gets read it.
#ifndef LIR_INTERP_ARRANGEMENTS_BUILT_H_
#define LIR_INTERP_ARRANGEMENTS_BUILT_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/interp/arity.h"
#include "src/interp/arrangements.h"
#include "src/interp/inputs.h"
#include "src/interp/interpreter.h"
#include "src/lir/node.h"
#include "src/lir/scalar.h"

namespace lir::interp {

/// The arrangements one node builds and the imported indexes it reads, by
/// name (`ArrangeBy[[Column(0)]]`, `Arranged DistinctBy`, `Index
/// materialize.public.t[[Column(1)]]`), in the order the evaluator creates
/// them.
///
/// As a lattice it is flat: bottom (`bottom`, the start of a LetRec
/// fixpoint) below every value below top (`top`). No transfer function reads
/// a binding's value (a Get builds nothing whatever it reads), so a node's
/// value never depends on a fixpoint and the lattice only has to let the
/// driver's fixpoints stop.
struct ArrangementsBuilt {
  bool bottom = false;
  /// Two different values joined (never, in practice: see above).
  bool top = false;
  /// Arrangements this node builds and maintains.
  std::vector<std::string> built;
  /// Indexes maintained outside the dataflow that this node reads (a Get
  /// of a global that lists arrangements and is not a `Get::Collection`).
  std::vector<std::string> imported;

  friend bool operator==(const ArrangementsBuilt&,
                         const ArrangementsBuilt&) = default;
};

/// The totals over a plan.
struct ArrangementCount {
  /// Arrangements the plan's dataflow builds and maintains.
  uint64_t built = 0;
  /// Distinct imported indexes (global and key) the plan reads.
  uint64_t imported = 0;

  friend bool operator==(const ArrangementCount&,
                         const ArrangementCount&) = default;
};

/// How many arrangements a rewrite from `before` to `after` saves (negative
/// when it builds more): the difference of the built counts. Imports are
/// not counted: they are maintained whether or not the plan reads them.
inline int64_t ArrangementsSaved(const ArrangementCount& before,
                                 const ArrangementCount& after) {
  return static_cast<int64_t>(before.built) - static_cast<int64_t>(after.built);
}

/// `[[Column(0), Column(1)]]`, `[[(#0 + #1)]]`: a key as arrangement names
/// spell it (plain columns as `Column(i)`, other expressions as EXPLAIN
/// prints them), the spelling the evaluator's names use.
std::string ArrangementKeyText(const std::vector<ScalarExpr>& key);

/// The arrangements-built interpreter. Per kind (names in quotes):
///   ArrangeBy: `ArrangeBy[[key]]` per form its input does not already
///     offer (the input's forms count only when `input_mfp` is the
///     identity; a form listed twice is built once);
///   Threshold: `Threshold local` (its output), preceded by `Arranged
///     Threshold input` when its input offers no arrangement on the
///     threshold key (trace T is normally the input ArrangeBy's form);
///   SetDifference: `SetDifference` (its output) only;
///   Reduce: an input and an output arrangement, named per kind
///     (`Arranged DistinctBy` + `DistinctBy`, `ArrangeAccumulable [val:
///     empty]` + `ReduceAccumulable`, `ArrangeMonotonic [val: empty]` +
///     `ReduceMonotonic`, `Arrange ReduceMinsMaxes` + `ReduceMinsMaxes`,
///     `Arranged ReduceInaccumulable` + `ReduceInaccumulable`);
///   TopK: `Arranged MonotonicTop1 partial [val: empty]` + `MonotonicTop1`,
///     else `Arranged TopK input` + `Reduced TopK input`;
///   Join (Linear and Delta): `JoinLookup[[key]]` for each distinct
///     (relation, lookup key) whose relation offers no such arrangement
///     (none in plans Materialize prints: their ArrangeBy children build
///     them); Linear also `JoinStage i[[stream key]]` for every stage but a
///     first one that streams the source's own arrangement on its key (no
///     initial closure);
///   Get of a global, PassArrangements or Arrangement: imports one index
///     per listed arrangement;
///   Constant, other Gets, Mfp, FlatMap, Negate, Union, AntiJoin: nothing.
/// Let and LetRec build nothing themselves; the driver gives them their
/// body's value, so read per-node results through BuiltBy(). Inside LetRec
/// values the rules are the same (what Materialize renders in the
/// iteration scope).
///
/// What an input offers is the arrangements analysis's answer (a key the
/// analysis cannot spell, `[?]`, offers nothing).
class ArrangementsBuiltInterpreter {
 public:
  using Domain = ArrangementsBuilt;

  /// `forms`: the arrangements analysis of the same plan; must outlive the
  /// interpreter.
  explicit ArrangementsBuiltInterpreter(const Analysis<AvailableForms>& forms)
      : forms_(forms) {}

  /// The flat lattice (see the Domain type).
  Domain Top() const {
    ArrangementsBuilt top;
    top.top = true;
    return top;
  }
  Domain Bottom() const {
    ArrangementsBuilt bottom;
    bottom.bottom = true;
    return bottom;
  }
  Domain Join(const Domain& a, const Domain& b) const;
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from src/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "src/lir/node_kinds.def"

 private:
  /// Whether `input`'s output is arranged by `key` (names ignored).
  bool Offers(const Node& input, const std::vector<ScalarExpr>& key) const;

  const Analysis<AvailableForms>& forms_;
};

/// Runs the interpreter over `plan` (`forms` as for the interpreter).
absl::StatusOr<Analysis<ArrangementsBuilt>> AnalyzeArrangementsBuilt(
    const Node& plan, const Analysis<AvailableForms>& forms);

/// What `node` itself builds and imports: its value in `analysis`, except
/// for Let and LetRec (which carry their body's value) and nodes the
/// analysis does not hold, for which nothing.
const ArrangementsBuilt& BuiltBy(const Analysis<ArrangementsBuilt>& analysis,
                                 const Node& node);

/// The totals over the plan rooted at `plan`: every node's built
/// arrangements, and its distinct imports (by name: one index per global
/// and key).
ArrangementCount TotalArrangements(const Node& plan,
                                   const Analysis<ArrangementsBuilt>& analysis);

/// The whole computation for one plan, for a caller that compares plans
/// (how many arrangements a rewrite saves: ArrangementsSaved of the counts
/// before and after). Runs the arity analysis (global arities from `inputs`
/// and from what `plan` reveals; those other objects of a document reveal
/// are not seen: pass them in `inputs.global_arity`, or use
/// DocumentAnalysis), the arrangements analysis and this one; linear in the
/// plan's size outside LetRec fixpoints. Errors as Analyze's.
absl::StatusOr<ArrangementCount> CountArrangementsBuilt(
    const Node& plan, const AnalysisInputs& inputs);

}  // namespace lir::interp

#endif  // LIR_INTERP_ARRANGEMENTS_BUILT_H_
