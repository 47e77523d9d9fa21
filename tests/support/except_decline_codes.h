// The decline code each generated EXCEPT shape (plan_generator.h's
// ExceptVariant) should get from the fused set-difference pass. Kept apart
// from the generator because it names the recognizer's codes: the generator
// itself sits at the IR's layer, so the explain and interp test binaries can
// link it without the recognizer.
#ifndef LIR_TESTS_SUPPORT_EXCEPT_DECLINE_CODES_H_
#define LIR_TESTS_SUPPORT_EXCEPT_DECLINE_CODES_H_

#include <string>

#include "tests/support/plan_generator.h"

namespace lir::test {

/// The decline code ../shared/reference/SEMANTICS.md 4.2 assigns to `variant`
/// ("" for kFires).
std::string ExpectedDeclineCode(ExceptVariant variant);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_EXCEPT_DECLINE_CODES_H_
