// Non-template helpers of the interpretation driver.
#include "lir/interp/driver.h"

#include <algorithm>

namespace lir::interp::driver_internal {

uint64_t LetRecRoundLimit(const LetRecOp& op) {
  uint64_t limit = kMaxLetRecRounds;
  for (const std::optional<LetRecLimit>& l : op.limits) {
    if (l.has_value()) limit = std::min(limit, l->max_iters);
  }
  return limit;
}

}  // namespace lir::interp::driver_internal
