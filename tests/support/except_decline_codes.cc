// ExpectedDeclineCode (except_decline_codes.h).
#include "tests/support/except_decline_codes.h"

#include "lir/recognizer/fused_set_difference.h"

namespace lir::test {

std::string ExpectedDeclineCode(ExceptVariant variant) {
  // The codes come from the pass's own name table, so a renamed code cannot
  // drift between the recognizer and the generated expectations.
  using Decline = FusedSetDifferenceDecline;
  auto name = [](Decline code) { return std::string(DeclineName(code)); };
  switch (variant) {
    case ExceptVariant::kFires: return "";
    case ExceptVariant::kNotCoArranged: return name(Decline::kNotCoArranged);
    case ExceptVariant::kNonProjectionMfp:
      return name(Decline::kNonProjectionMfp);
    case ExceptVariant::kKeyRemappedByProjection:
      return name(Decline::kKeyRemappedByProjection);
    case ExceptVariant::kArmNotGetOrArrangeBy:
      return name(Decline::kArmNotGetOrArrangeBy);
    case ExceptVariant::kNotTwoArmUnion: return name(Decline::kNotTwoArmUnion);
    case ExceptVariant::kNotOneNegatedArm:
      return name(Decline::kNotOneNegatedArm);
  }
  return "";
}

}  // namespace lir::test
