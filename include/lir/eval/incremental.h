// The incremental engine (../shared/reference/SEMANTICS.md section 6):
// operators consume each round's changes and keep arrangements (trace.h), as
// Materialize renders them. The fused SetDifference is a two-input reduce over
// the arrangements its arms already maintain or import (co_reduce2): it builds
// no trace T and keeps exactly one output arrangement, which is what makes its
// memory measurable against the Threshold it replaces. AntiJoin reads its
// arms' arrangements the same way and keeps none of its own (differential's
// antijoin, section 7.1).
//
// Natively incremental: Constant, Get, Mfp, FlatMap, Negate, Union,
// ArrangeBy, Let, Threshold, SetDifference, AntiJoin, Reduce, TopK (per
// dirty group), Join (Linear and Delta). LetRec runs through a
// recompute-and-diff adapter over the snapshot engine (its state is
// reported with `adapter = true`).
// See docs/evaluator.md ("Arrangement layout model", "Incremental
// operators") for the arrangements kept and how they are named.
#ifndef LIR_EVAL_INCREMENTAL_H_
#define LIR_EVAL_INCREMENTAL_H_

#include <memory>

#include "absl/status/statusor.h"
#include "lir/eval/dataflow.h"
#include "lir/node.h"

namespace lir::eval {

/// A Dataflow whose operators consume each round's changes and keep
/// arrangements. `plan` must outlive it. Fails to build for unsupported
/// nodes (CheckNode) and unknown globals (`no data for collection NAME`),
/// and for a SetDifference or AntiJoin whose arms do not offer the
/// arrangements its `base_key`/`subtract_key`/`keys_key` name. Building and
/// stepping are iterative: plan depth is bounded only by memory.
absl::StatusOr<std::unique_ptr<Dataflow>> MakeIncrementalDataflow(
    const Node& plan, const DataflowOptions& options);

}  // namespace lir::eval

#endif  // LIR_EVAL_INCREMENTAL_H_
