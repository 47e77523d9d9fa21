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
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/interp/inputs.h"
#include "lir/interp/interpreter.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::interp {

/// The arrangements one node builds and the imported indexes it reads, by
/// name (`ArrangeBy[[Column(0)]]`, `Arranged DistinctBy`, `Index
/// materialize.public.t[[Column(1)]]`), in the order the evaluator creates
/// them; and the arrangements its output offers to its consumers, which
/// decide what they build.
///
/// The lattice is that of `offered` (AvailableForms: bottom, the start of a
/// LetRec fixpoint, offers everything; the join is the intersection). Only
/// `offered` flows from node to node (through Let bindings too); `built` and
/// `imported` are the node's own, recomputed at each evaluation, and the join
/// keeps the newer ones.
struct ArrangementsBuilt {
  AvailableForms offered;
  /// Arrangements this node builds and maintains.
  std::vector<std::string> built;
  /// Indexes maintained outside the dataflow that this node reads (a Get
  /// of a global that lists arrangements and is not a `Get::Collection`).
  std::vector<std::string> imported;
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
/// What an input offers is what the evaluator's operators offer
/// (docs/evaluator.md, "Incremental operators"): for Reduce, TopK,
/// Threshold, SetDifference and global Gets, the arrangements analysis's
/// forms (a key it cannot spell, `[?]`, offers nothing), except that a
/// Reduce whose `mfp_after` moves its key out of the front offers none; an
/// ArrangeBy its input's (when `input_mfp` is the identity) and its forms; a
/// local Get::PassArrangements its binding's (a recursive one: none); Let
/// and LetRec their body's; every other node, Mfp included, none. (The
/// arrangements analysis lets an Mfp that reads an arrangement through a
/// row-restoring projection keep it; SEMANTICS 8.5 and the evaluator do
/// not.)
///
/// Not modelled: the evaluator also imports the index a SetDifference arm
/// reads through a `Get::Collection` of an indexed global (the recognizer
/// never builds such an arm: a Collection read offers no arrangement).
class ArrangementsBuiltInterpreter {
 public:
  using Domain = ArrangementsBuilt;

  /// `forms`: the arrangements analysis of the same plan (for the forms of
  /// the nodes whose output arrangements do not depend on their inputs).
  /// The interpreter keeps it (move it in to avoid the copy).
  explicit ArrangementsBuiltInterpreter(Analysis<AvailableForms> forms)
      : forms_(std::make_shared<const Analysis<AvailableForms>>(
            std::move(forms))) {}
  /// The same, sharing the caller's analysis instead of copying it (null:
  /// no node has forms from the analysis).
  explicit ArrangementsBuiltInterpreter(
      std::shared_ptr<const Analysis<AvailableForms>> forms)
      : forms_(std::move(forms)) {}

  /// The lattice of the offered forms (see the Domain type).
  Domain Top() const { return ArrangementsBuilt(); }
  Domain Bottom() const {
    ArrangementsBuilt bottom;
    bottom.offered.everything = true;
    return bottom;
  }
  Domain Join(const Domain& a, const Domain& b) const;
  bool Equal(const Domain& a, const Domain& b) const {
    return SameForms(a.offered, b.offered);
  }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from include/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"

 private:
  /// The arrangements analysis's forms of `node` (none when it has none).
  AvailableForms FormsOf(const Node& node) const;

  std::shared_ptr<const Analysis<AvailableForms>> forms_;  ///< may be null
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
