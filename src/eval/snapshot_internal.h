// Internals of the snapshot engine: the whole-collection meaning of each
// non-binding node kind, given its inputs' contents. The walk over the plan
// (Let, LetRec, Get of locals) lives in snapshot.cc.
#ifndef LIR_EVAL_SNAPSHOT_INTERNAL_H_
#define LIR_EVAL_SNAPSHOT_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/budget.h"
#include "lir/eval/datum.h"
#include "lir/node.h"

namespace lir::eval::snapshot_internal {

/// The round a snapshot is computed for, which temporal filters compare
/// with (`mz_now()`), and where they report the next round after it at which
/// their output may change (temporal.h); and the rows a node may produce in
/// it (budget.h).
struct Clock {
  uint64_t now = 0;
  std::optional<uint64_t>* next = nullptr;
  uint64_t max_rows = kUnlimited;
  uint64_t max_bytes = kUnlimited;
};

/// Reads `input` as Get::Arrangement / Mfp with `input_val` do: when `seek`
/// is set, only rows whose key (the prefix of an arrangement's layout row,
/// which `input` holds then) equals it; then `mfp` (a temporal one at
/// `clock.now`).
absl::StatusOr<Multiset> ReadSeekMfp(const Multiset& input,
                                     const std::optional<Row>* seek,
                                     const MapFilterProject& mfp,
                                     const Clock& clock);

/// The output of the Get `node` of the collection whose contents are
/// `source` (a Get::Arrangement reads them as its form's layout rows).
absl::StatusOr<Multiset> ComputeGet(const Node& node, const Multiset& source,
                                    const Clock& clock);

/// The output of a node of any kind but Get, Let and LetRec, whose inputs'
/// contents are `inputs` (in the node's input order; they may be moved
/// from). Errors are not yet prefixed with the node. A FlatMap's and each
/// join stage's rows count against `clock.max_rows` as they are made.
absl::StatusOr<Multiset> ComputeNode(const Node& node,
                                     std::span<Multiset> inputs,
                                     bool check_delta_paths,
                                     const Clock& clock);

/// Checks the relation indices of a join's paths against its input count.
absl::Status CheckJoinShape(const JoinOp& op, size_t relations);

}  // namespace lir::eval::snapshot_internal

#endif  // LIR_EVAL_SNAPSHOT_INTERNAL_H_
