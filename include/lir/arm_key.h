// Which arrangement an arm of a fused two-input operator (SetDifference,
// AntiJoin) reads: ../shared/reference/SEMANTICS.md 4.2 checks 6-10 and
// 4.3. Shared by the recognizer passes, which turn a problem into their
// decline code, and by Validate, which checks that an AntiJoin's recorded
// arm keys are the ones its arms offer.
#ifndef LIR_LIR_ARM_KEY_H_
#define LIR_LIR_ARM_KEY_H_

#include <string>
#include <vector>

#include "lir/node.h"

namespace lir {

/// Why an arm offers no arrangement to read (in check order).
enum class ArmProblem {
  kNone,
  /// Check 6/8: a map, filter, temporal bound or single-value read.
  kNonProjectionMfp,
  /// Check 7: after an optional projection-only Mfp, not a Get or ArrangeBy.
  kNotGetOrArrangeBy,
  /// Check 9: arranged on the key itself, but the projection moves it.
  kKeyRemappedByProjection,
  /// Check 10: no arrangement on the arm's key is shown (for a Get of a
  /// partial plan, whose arrangements the concise text does not show, the
  /// check cannot be passed: the message says so).
  kNotCoArranged,
};

/// The verdict on one arm: the key the operator reads (in the arm's
/// underlying columns) or the problem, with a message for reports.
struct ArmRead {
  ArmProblem problem = ArmProblem::kNone;
  std::string message;
  std::vector<int> key;
};

/// The arrangement `arm` offers on `key` (columns of the arm's output),
/// looking through a projection-only Mfp wrapper and the projection of a
/// Get's plan or an ArrangeBy's input_mfp (SEMANTICS 4.3).
ArmRead ResolveArmKey(const Node& arm, const std::vector<int>& key);

/// `[#0..=#2]`: a key as reports and messages print it.
std::string KeyText(const std::vector<int>& key);

/// `Get::Collection materialize.public.t`, `ArrangeBy`: a node as arm
/// messages name it.
std::string DescribeNode(const Node& node);

/// Whether `forms` has an arrangement keyed by exactly the plain columns
/// `key` (compared in place, without building the key expressions).
bool HasColumnKey(const AvailableCollections& forms,
                  const std::vector<int>& key);

}  // namespace lir

#endif  // LIR_LIR_ARM_KEY_H_
