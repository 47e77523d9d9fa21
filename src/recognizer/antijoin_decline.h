// The decline helper both antijoin forms share (antijoin.cc and
// antijoin_semijoin.cc).
#ifndef LIR_SRC_RECOGNIZER_ANTIJOIN_DECLINE_H_
#define LIR_SRC_RECOGNIZER_ANTIJOIN_DECLINE_H_

#include <string>
#include <string_view>
#include <utility>

#include "lir/recognizer/antijoin.h"

namespace lir::antijoin_internal {

/// The decision that declines with `code`, saying `message` (about `arm`
/// when one is named).
inline AntiJoinDecision Decline(AntiJoinDecline code, std::string message,
                                std::string_view arm = "") {
  return AntiJoinDecision::Declines(code, std::move(message), arm);
}

}  // namespace lir::antijoin_internal

#endif  // LIR_SRC_RECOGNIZER_ANTIJOIN_DECLINE_H_
