// Antijoin rendering of outer joins' anti-sides (Materialize issue #10500;
// ../shared/reference/SEMANTICS.md section 7).
//
// Form A (rewritten): the co-arranged anti-side
//   Threshold::Basic(ArrangeBy(Union(base, Negate(keys))))
// whose arms are sets becomes one AntiJoin(base, keys) node. That drops the
// Threshold's input arrangement (trace T) and its output arrangement, where
// fusing into a SetDifference drops only T.
//
// Form B (reported, never rewritten): the single equi-join lowering
//   Union(P, Negate(Join(P, K)))
// is already an antijoin in all but name; its arrangements (P and K by the
// key) are the same either way, so it is declined `no_arrangement_saving`
// with the counts.
#ifndef LIR_RECOGNIZER_ANTIJOIN_H_
#define LIR_RECOGNIZER_ANTIJOIN_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/node.h"
#include "lir/recognizer/decision.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/pass.h"
#include "lir/recognizer/pass_driver.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The stable decline codes. Form A runs the fused set difference's checks
/// 1-10 (the same codes, in the same order: the list starts with theirs,
/// so the enumerators coincide), then 11-13. Form B's codes follow.
#define LIR_ANTIJOIN_DECLINES(X)                               \
  LIR_FUSED_SET_DIFFERENCE_DECLINES(X)                         \
  X(kBaseNotSet, "base_not_set")                               \
  X(kKeysNotDistinct, "keys_not_distinct")                     \
  X(kOutputArrangementConsumed, "output_arrangement_consumed") \
  X(kNegatedArmNotSemijoin, "negated_arm_not_semijoin")        \
  X(kBaseNotProbe, "base_not_probe")                           \
  X(kNoArrangementSaving, "no_arrangement_saving")

/// `AntiJoinDecline`, its name table `kAllAntiJoinDeclines` and
/// `DeclineName(code)`.
LIR_DECLARE_DECLINES(AntiJoinDecline, LIR_ANTIJOIN_DECLINES)

/// What the rewrite of a firing (Form A) candidate needs.
struct AntiJoinRendering {
  /// The anti-side's shape and the keys the operator reads (checks 1-10).
  SetDifferenceFusion arms;
  /// The consumer reading the Threshold's output arrangement through
  /// `input_key` (an Mfp, FlatMap, Reduce or ArrangeBy), whose `input_key`
  /// the rewrite clears; null when the consumer reads the output raw.
  Node* consumer = nullptr;
};

/// The verdict on one candidate of either form.
using AntiJoinDecision = Decision<AntiJoinDecline, AntiJoinRendering>;

/// Decides a Form A candidate (a Threshold::Basic): checks 1-13 of
/// ../shared/reference/SEMANTICS.md 7.2, one early return per bail-out.
AntiJoinDecision DecideAntiJoinRendering(const Node& threshold,
                                         CandidateContext& ctx);

/// Whether `node` is a Form B candidate: a Union of exactly two arms, one
/// of them the Negate of a Join.
bool IsSemijoinAntiSide(const Node& node);

/// Decides a Form B candidate (SEMANTICS 7.4): never fires; declines
/// `negated_arm_not_semijoin`, `keys_not_distinct`, `base_not_probe`, or
/// `no_arrangement_saving` with the arrangements the anti-side builds now
/// and would build as an antijoin (the report fields below).
AntiJoinDecision DecideSemijoinAntiSide(const Node& union_node,
                                        CandidateContext& ctx);

/// Replaces `threshold` in place (keeping its LirId) by the AntiJoin that
/// `rendering` (from a firing decision on it) describes, and clears the
/// consumer's `input_key`.
void RenderAntiJoin(Node& threshold, const AntiJoinRendering& rendering);

/// Report fields of a Form B candidate.
inline constexpr char kArrangementsNowField[] = "arrangements_now";
inline constexpr char kArrangementsAsAntiJoinField[] =
    "arrangements_as_antijoin";

/// The pass, as the driver runs it (see RewritePass). Form A candidates are
/// reported before Form B ones in each object.
class AntiJoinPass {
 public:
  using Code = AntiJoinDecline;
  using Fire = AntiJoinRendering;
  /// The registered name.
  static constexpr std::string_view kName = "antijoin";

  /// Every Threshold (Form A), and every IsSemijoinAntiSide Union (Form B).
  bool IsCandidate(const Node& node) const {
    return node.Is<ThresholdOp>() || IsSemijoinAntiSide(node);
  }
  /// 0 for Form A, 1 for Form B.
  int ReportGroup(const Node& node) const {
    return node.Is<ThresholdOp>() ? 0 : 1;
  }
  /// DecideAntiJoinRendering or DecideSemijoinAntiSide.
  AntiJoinDecision Decide(const Node& node, CandidateContext& ctx) const {
    return node.Is<ThresholdOp>() ? DecideAntiJoinRendering(node, ctx)
                                  : DecideSemijoinAntiSide(node, ctx);
  }
  /// RenderAntiJoin.
  void Rewrite(Node& node, const AntiJoinRendering& rendering) const {
    RenderAntiJoin(node, rendering);
  }
  /// `{"base_key": [..], "keys_key": [..]}`.
  nlohmann::json Details(const AntiJoinRendering& rendering) const;
};

/// The report field of a firing candidate's keys-arm key.
inline constexpr char kKeysKeyField[] = "keys_key";

/// The registered pass: RunPass(AntiJoinPass()) over every object.
absl::Status AntiJoinRenderingPass(Document& doc, PassContext& ctx);

}  // namespace lir

#endif  // LIR_RECOGNIZER_ANTIJOIN_H_
