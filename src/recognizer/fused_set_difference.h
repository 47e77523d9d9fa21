// The fused set-difference recognizer (SEMANTICS.md section 4).
//
// Rewrites the co-arranged anti-side
//   Threshold::Basic(ArrangeBy(Union(base, Negate(subtract))))
// into one SetDifference(base, subtract) node, removing trace T. Every
// Threshold::Basic is a candidate; one that cannot be fused gets exactly one
// stable decline code.
#ifndef LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_
#define LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "src/lir/document.h"
#include "src/lir/node.h"
#include "src/recognizer/pass.h"

namespace lir {

/// Stable decline codes, in the order the checks run.
inline constexpr char kDeclineInsideLetRec[] = "inside_let_rec";
inline constexpr char kDeclineInputNotArranged[] = "input_not_arranged";
inline constexpr char kDeclineNotTwoArmUnion[] = "not_two_arm_union";
inline constexpr char kDeclineNotOneNegatedArm[] = "not_one_negated_arm";
inline constexpr char kDeclineTemporalBucketing[] = "temporal_bucketing";
inline constexpr char kDeclineNonProjectionMfp[] = "non_projection_mfp";
inline constexpr char kDeclineArmNotGetOrArrangeBy[] = "arm_not_get_or_arrange_by";
inline constexpr char kDeclineKeyRemapped[] = "key_remapped_by_projection";
inline constexpr char kDeclineNotCoArranged[] = "not_co_arranged";

/// The verdict on one candidate.
struct FusionDecision {
  bool fires = false;
  /// Decline code when !fires.
  std::string code;
  /// "base" or "subtract" for per-arm codes, else empty.
  std::string arm;
  std::string message;
  /// When firing: the Union arm that is negated, and the fused keys.
  size_t negated_arm = 0;
  std::vector<int> base_key;
  std::vector<int> subtract_key;
};

/// Decides whether `threshold` (a Threshold::Basic node) can be fused.
/// `inside_let_rec` says whether it sits inside the values of a LetRec.
/// One early return per bail-out, in the order of SEMANTICS.md 4.2.
FusionDecision CanFuseSetDifference(const Node& threshold, bool inside_let_rec);

/// Replaces `threshold` in place (keeping its LirId) by the SetDifference
/// that `decision` (which must fire) describes.
void FuseSetDifference(Node& threshold, const FusionDecision& decision);

/// The registered pass: every candidate in every object, at every depth.
absl::Status FusedSetDifferencePass(Document& doc, PassContext& ctx);

}  // namespace lir

#endif  // LIR_RECOGNIZER_FUSED_SET_DIFFERENCE_H_
