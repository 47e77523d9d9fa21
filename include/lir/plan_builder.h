// PlanBuilder: LIR plans built in C++ rather than written as EXPLAIN text,
// for compilers that lower their own plans to LIR, for tests and for
// benchmarks. One factory or method per node kind, with the defaults the
// lowering uses; Build() numbers the nodes as Materialize does (post-order)
// and validates, so a mistake is reported with the LirId of the node.
//
//   // SELECT a FROM t1 EXCEPT ALL SELECT a FROM t2, both arms arranged:
//   ArrangementForm by_a = MakeColumnArrangement({0}, 1);
//   absl::StatusOr<NodePtr> plan =
//       PlanBuilder::Union(
//           PlanBuilder::Inputs(
//               PlanBuilder::Get(CollectionId::Global("t1"),
//                                PlanBuilder::Arranged({by_a})),
//               PlanBuilder::Get(CollectionId::Global("t2"),
//                                PlanBuilder::Arranged({by_a}))
//                   .Negate()),
//           {.consolidate_output = true})
//           .ArrangeBy(PlanBuilder::Arranged({by_a}))
//           .Threshold(by_a)
//           .Build();
//
// Builders are move-only values: unary methods consume the builder they are
// called on (`std::move(b).Negate()` for a named one) and return the wrapped
// plan; multi-input factories take their inputs by value, as a vector that
// Inputs() makes (braces cannot: they copy). Misuse (an empty builder where
// an input is needed) is remembered and reported by Build(), so a fluent
// chain never needs checking halfway. Static helpers make the payload pieces
// (forms, MFPs, join stages and paths); tests/plan_builder_test.cc builds
// Materialize's LEFT JOIN plan (a Let chain, a delta join with closures, the
// antijoin of each outer side) with them.
#ifndef LIR_LIR_PLAN_BUILDER_H_
#define LIR_LIR_PLAN_BUILDER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/arrangement.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"
#include "lir/validate.h"

namespace lir {

/// One binding of PlanBuilder::LetRec: the local id, its value and its
/// iteration limit (none: iterate to a fixpoint).
struct LetRecBinding;

/// Builds a plan tree node by node (see the file comment for an example).
class PlanBuilder {
 public:
  /// An empty builder: no plan yet. Passing it where an input is expected
  /// makes Build() fail.
  PlanBuilder() = default;
  /// Continues from an existing tree (ids are reassigned by Build()).
  explicit PlanBuilder(NodePtr node);
  /// Moving leaves `other` empty (no plan, no error), so that passing a
  /// moved-from builder where an input is needed is reported as an empty
  /// input.
  PlanBuilder(PlanBuilder&& other) noexcept;
  /// As the move constructor.
  PlanBuilder& operator=(PlanBuilder&& other) noexcept;

  // ---- Forms and projections used as arguments ---------------------------

  /// A collection that exists only unarranged (`raw=true`).
  static AvailableCollections Raw();
  /// A collection available in `arranged` forms, and raw too when `raw`.
  static AvailableCollections Arranged(std::vector<ArrangementForm> arranged,
                                       bool raw = false);
  /// An MFP that only projects to `columns` (`project=(...)`).
  static MapFilterProject Project(std::vector<int> columns);
  /// An MFP that appends the `map` columns to each row, then projects to
  /// `columns` (printed `project=(...)` then `map=(...)`).
  static MapFilterProject MapProject(std::vector<ScalarExpr> map,
                                     std::vector<int> columns);
  /// An MFP that keeps the rows satisfying every one of `predicates`
  /// (`filter=(...)`), then projects to `columns` when given.
  static MapFilterProject Filter(
      std::vector<ScalarExpr> predicates,
      std::optional<std::vector<int>> columns = std::nullopt);
  /// The columns `first`, `first + 1`, ..., `last` (`#first..=#last`); empty
  /// when `last < first`.
  static std::vector<int> Columns(int first, int last);
  /// The payload of Reduce::Distinct grouping by `key_plan` (see
  /// Distinct()), for a caller that sets more of it (`input_key`,
  /// `temporal_bucketing`) before passing it to Reduce().
  static ReduceOp DistinctOp(MapFilterProject key_plan = {});

  // ---- Join plans used as arguments ----------------------------------------

  /// A join closure: `mfp` (no temporal bounds), then the equivalences that
  /// become checkable at that point (`ready_equivalences=`).
  static JoinClosure Closure(
      MapFilterProject mfp,
      std::vector<std::vector<ScalarExpr>> ready_equivalences = {});
  /// One join stage: look the stream up, by `stream_key`, in the
  /// arrangement of input `relation` by `lookup_key`, keep the stream's
  /// `stream_thinning` columns beside the key, then apply `closure`.
  static JoinStage Lookup(int relation, std::vector<ScalarExpr> lookup_key,
                          std::vector<ScalarExpr> stream_key,
                          std::vector<int> stream_thinning,
                          std::optional<JoinClosure> closure = std::nullopt);
  /// A linear join plan or one delta path: start from input
  /// `source_relation`, raw when `source_key` is nullopt (`source={
  /// relation=0, raw }`) or else read by that arrangement, then run `stages`
  /// in execution order (a delta path prints them last to first).
  static JoinPath Path(int source_relation,
                       std::optional<std::vector<ScalarExpr>> source_key,
                       std::vector<JoinStage> stages);

  // ---- Inputs -------------------------------------------------------------

  /// The inputs of Union, LinearJoin, DeltaJoin or FromOp, in order:
  /// `PlanBuilder::Inputs(a, std::move(b))` where braces cannot make the
  /// vector (builders are move-only).
  template <typename... Builders>
  requires(std::is_same_v<Builders, PlanBuilder>&&...) static std::vector<
      PlanBuilder> Inputs(Builders... inputs) {
    std::vector<PlanBuilder> out;
    out.reserve(sizeof...(inputs));
    (out.push_back(std::move(inputs)), ...);
    return out;
  }

  // ---- Leaves -------------------------------------------------------------

  /// Constant with each row once (diff 1); no rows prints `Constant <empty>`.
  static PlanBuilder Constant(std::vector<Row> rows);
  /// Constant with any payload (diffs, an error, elided rows).
  static PlanBuilder Constant(ConstantOp op);
  /// An error collection (`Error "message"`).
  static PlanBuilder ConstantError(std::string message);
  /// Get::PassArrangements of `id`, available in `keys`.
  static PlanBuilder Get(CollectionId id, AvailableCollections keys);
  /// Get::Collection of `id` (which must exist raw), then `mfp`.
  static PlanBuilder GetCollection(CollectionId id, AvailableCollections keys,
                                   MapFilterProject mfp = {});
  /// Get::Arrangement: read the arrangement of `keys` by `key`, optionally
  /// only the rows whose key is `seek` (`val=`), then `mfp` over the
  /// arrangement's layout row.
  static PlanBuilder GetArrangement(CollectionId id, AvailableCollections keys,
                                    std::vector<ScalarExpr> key,
                                    MapFilterProject mfp = {},
                                    std::optional<Row> seek = std::nullopt);
  /// Any Get, from its payload.
  static PlanBuilder Get(GetOp op);

  // ---- Bindings -----------------------------------------------------------

  /// Let: bind local `id` (printed `l<id>`) to `value` within `body`.
  static PlanBuilder Let(uint64_t id, PlanBuilder value, PlanBuilder body);
  /// LetRec: mutually recursive `bindings` (in order) within `body`.
  static PlanBuilder LetRec(std::vector<LetRecBinding> bindings,
                            PlanBuilder body);

  // ---- Unary nodes over this builder's plan --------------------------------

  /// Mfp: apply `mfp` to every row.
  PlanBuilder Mfp(MapFilterProject mfp) &&;
  /// Mfp reading the input's arrangement by `input_key` (`input_key=`):
  /// `mfp` applies to that arrangement's layout row.
  PlanBuilder Mfp(MapFilterProject mfp, std::vector<ScalarExpr> input_key) &&;
  /// Mfp from its payload (an input arrangement read, a seek).
  PlanBuilder Mfp(MfpOp op) &&;
  /// FlatMap: the table function `func` over `exprs` per row, then
  /// `mfp_after`.
  PlanBuilder FlatMap(std::string func, std::vector<ScalarExpr> exprs,
                      MapFilterProject mfp_after = {}) &&;
  /// FlatMap from its payload (an input arrangement read).
  PlanBuilder FlatMap(FlatMapOp op) &&;
  /// Reduce::Distinct grouping by `key_plan` (`key_plan=id` by default);
  /// `input_key` reads an arrangement of the input instead of its rows.
  PlanBuilder Distinct(
      MapFilterProject key_plan = {},
      std::optional<std::vector<ScalarExpr>> input_key = std::nullopt) &&;
  /// Any Reduce (Accumulable, Hierarchical*, Basic*), from its payload.
  PlanBuilder Reduce(ReduceOp op) &&;
  /// TopK (any strategy), from its payload.
  PlanBuilder TopK(TopKOp op) &&;
  /// TopK::MonotonicTop1: per `group_by` group, the first row in `order_by`
  /// order; `must_consolidate` when the input must be consolidated first.
  PlanBuilder MonotonicTop1(std::vector<int> group_by,
                            std::vector<OrderKey> order_by = {},
                            bool must_consolidate = false) &&;
  /// Negate: every diff negated.
  PlanBuilder Negate() &&;
  /// Threshold::Basic, arranged as `ensure_arrangement`.
  PlanBuilder Threshold(ArrangementForm ensure_arrangement) &&;
  /// ArrangeBy: also make the input available in `forms`.
  PlanBuilder ArrangeBy(AvailableCollections forms) &&;
  /// ArrangeBy reading the input's arrangement by `input_key`
  /// (`input_key=[...]`) to form `forms`: with `Raw()`, the permuting
  /// ArrangeBy that turns an arranged-only input back into rows.
  PlanBuilder ArrangeBy(AvailableCollections forms,
                        std::vector<ScalarExpr> input_key) &&;
  /// ArrangeBy from its payload (input_key, input MFP, temporal bucketing).
  PlanBuilder ArrangeBy(ArrangeByOp op) &&;

  // ---- Nodes of several inputs --------------------------------------------

  /// Union of `inputs` in order.
  static PlanBuilder Union(std::vector<PlanBuilder> inputs, UnionOp op = {});
  /// Join::Linear of `inputs` along `path`.
  static PlanBuilder LinearJoin(std::vector<PlanBuilder> inputs, JoinPath path);
  /// Join::Delta of `inputs`, `paths[i]` starting from input i.
  static PlanBuilder DeltaJoin(std::vector<PlanBuilder> inputs,
                               std::vector<JoinPath> paths);
  /// SetDifference (the fused EXCEPT node): `base` minus `subtract`.
  static PlanBuilder SetDifference(PlanBuilder base, PlanBuilder subtract,
                                   SetDifferenceOp op);
  /// AntiJoin: the rows of `base` whose `op.key` columns are not in `keys`.
  static PlanBuilder AntiJoin(PlanBuilder base, PlanBuilder keys,
                              AntiJoinOp op);
  /// Any node kind from its payload and inputs, in the order node.h gives
  /// for its kind: the escape hatch for payloads the methods above omit.
  static PlanBuilder FromOp(NodeOp op, std::vector<PlanBuilder> inputs = {});

  // ---- Results ------------------------------------------------------------

  /// Whether no plan has been started (or it was released).
  bool empty() const { return node_ == nullptr && status_.ok(); }
  /// The first misuse so far (OK if none).
  const absl::Status& status() const { return status_; }
  /// Assigns LirIds 1, 2, ... in post-order and validates the plan against
  /// `options` (the arities of global collections, when known). Errors are
  /// Validate's, located as `LirId(7) Mfp: ...`, or the first misuse.
  absl::StatusOr<NodePtr> Build(const ValidateOptions& options = {}) &&;
  /// The tree as built so far, without ids or validation (null after a
  /// misuse): for generators that assemble plans from parts.
  NodePtr Release() &&;

 private:
  /// A node of `op` over `inputs`, carrying the first error among them.
  static PlanBuilder Make(NodeOp op, std::vector<PlanBuilder> inputs,
                          const char* what);
  /// `op` over this builder's plan.
  PlanBuilder Wrap(NodeOp op, const char* what) &&;

  NodePtr node_;
  absl::Status status_;
};

struct LetRecBinding {
  uint64_t id = 0;                   ///< the local id, printed `l<id>`
  PlanBuilder value;                 ///< may read every id of the LetRec
  std::optional<LetRecLimit> limit;  ///< nullopt: no iteration limit
};

}  // namespace lir

#endif  // LIR_LIR_PLAN_BUILDER_H_
