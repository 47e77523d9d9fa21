// The fused set-difference recognizer (../shared/reference/SEMANTICS.md
// section 4).
//
// Rewrites the co-arranged anti-side
//   Threshold::Basic(ArrangeBy(Union(base, Negate(subtract))))
// into one SetDifference(base, subtract) node, removing trace T. Every
// Threshold::Basic is a candidate; one that cannot be fused gets exactly one
// stable decline code.
#ifndef LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_
#define LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/node.h"
#include "lir/recognizer/decision.h"
#include "lir/recognizer/pass.h"
#include "lir/recognizer/pass_driver.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The stable decline codes, in the order the checks run
/// (../shared/reference/SEMANTICS.md 4.2; non_projection_mfp covers checks 6
/// and 8).
#define LIR_FUSED_SET_DIFFERENCE_DECLINES(X)                \
  X(kInsideLetRec, "inside_let_rec")                        \
  X(kInputNotArranged, "input_not_arranged")                \
  X(kNotTwoArmUnion, "not_two_arm_union")                   \
  X(kNotOneNegatedArm, "not_one_negated_arm")               \
  X(kTemporalBucketing, "temporal_bucketing")               \
  X(kNonProjectionMfp, "non_projection_mfp")                \
  X(kArmNotGetOrArrangeBy, "arm_not_get_or_arrange_by")     \
  X(kKeyRemappedByProjection, "key_remapped_by_projection") \
  X(kNotCoArranged, "not_co_arranged")

/// `FusedSetDifferenceDecline`, its name table
/// `kAllFusedSetDifferenceDeclines` and `DeclineName(code)`.
LIR_DECLARE_DECLINES(FusedSetDifferenceDecline,
                     LIR_FUSED_SET_DIFFERENCE_DECLINES)

/// What the rewrite of a firing candidate needs.
struct SetDifferenceFusion {
  /// The Union arm that is the Negate (0 or 1).
  size_t negated_arm = 0;
  /// The keys the fused operator reads, in each arm's underlying columns
  /// (../shared/reference/SEMANTICS.md 4.3).
  std::vector<int> base_key;
  std::vector<int> subtract_key;
  /// Facts a partial plan (concise text) does not show that the match took
  /// as Materialize's lowering sets them (reported as `assumes`).
  std::vector<std::string> assumptions;
};

/// The verdict on one candidate.
using FusionDecision = Decision<FusedSetDifferenceDecline, SetDifferenceFusion>;

/// Checks 1-10 of ../shared/reference/SEMANTICS.md 4.2 on `threshold` (a
/// Threshold::Basic node), one early return per bail-out in that order: the
/// co-arranged anti-side shape both the fused set difference and the
/// antijoin rendering replace. `inside_let_rec` says whether it sits inside
/// the values of a LetRec; `subtract_arm` is how declines name the negated
/// arm ("subtract", or "keys" for the antijoin).
FusionDecision MatchCoArrangedAntiSide(const Node& threshold,
                                       bool inside_let_rec,
                                       std::string_view subtract_arm);

/// Decides whether `threshold` (a Threshold::Basic node) can be fused:
/// MatchCoArrangedAntiSide, the negated arm called "subtract".
FusionDecision CanFuseSetDifference(const Node& threshold, bool inside_let_rec);

/// Replaces `threshold` in place (keeping its LirId) by the SetDifference
/// that `fusion` (from a firing decision on it) describes.
void FuseSetDifference(Node& threshold, const SetDifferenceFusion& fusion);

/// The report fields (Candidate::details) of a firing candidate.
inline constexpr char kBaseKeyField[] = "base_key";
inline constexpr char kSubtractKeyField[] = "subtract_key";

/// The pass, as the driver runs it (see RewritePass).
class FusedSetDifference {
 public:
  using Code = FusedSetDifferenceDecline;
  using Fire = SetDifferenceFusion;
  /// The registered name.
  static constexpr std::string_view kName = "fused_set_difference";

  /// Every Threshold is a candidate.
  bool IsCandidate(const Node& node) const { return node.Is<ThresholdOp>(); }
  /// CanFuseSetDifference, with the walk's recursive context.
  FusionDecision Decide(const Node& node, CandidateContext& ctx) const {
    return CanFuseSetDifference(node, ctx.inside_let_rec_values);
  }
  /// FuseSetDifference.
  void Rewrite(Node& node, const SetDifferenceFusion& fusion) const {
    FuseSetDifference(node, fusion);
  }
  /// `{"base_key": [..], "subtract_key": [..]}`.
  nlohmann::json Details(const SetDifferenceFusion& fusion) const;
};

/// The fused keys a candidate's report record carries (empty when it does
/// not fire): the typed view of FusedSetDifference::Details.
struct FusedKeys {
  std::vector<int> base_key;
  std::vector<int> subtract_key;
  /// Facts a partial plan (concise text) does not show that the match took
  /// as Materialize's lowering sets them (reported as `assumes`).
  std::vector<std::string> assumptions;
};
/// Reads the fused keys back from `candidate.details`.
FusedKeys FusedKeysOf(const Candidate& candidate);

/// The registered pass: RunPass(FusedSetDifference()) over every object.
absl::Status FusedSetDifferencePass(Document& doc, PassContext& ctx);

}  // namespace lir

#endif  // LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_
