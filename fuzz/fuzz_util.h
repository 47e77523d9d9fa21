// What the libFuzzer targets of fuzz/ share: how a target reports a broken
// property (abort, so that libFuzzer saves the input as a crash) and the
// whole-status checks every target makes.
#ifndef LIR_FUZZ_FUZZ_UTIL_H_
#define LIR_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"

namespace lir::fuzz {

/// Prints what broke (with the two texts that disagree, if any) and aborts.
[[noreturn]] inline void Fail(absl::string_view what,
                              absl::string_view first = {},
                              absl::string_view second = {}) {
  std::fprintf(stderr, "\n=== lir fuzz property violated: %.*s\n",
               static_cast<int>(what.size()), what.data());
  if (!first.empty()) {
    std::fprintf(stderr, "--- first ---\n%.*s\n",
                 static_cast<int>(first.size()), first.data());
  }
  if (!second.empty()) {
    std::fprintf(stderr, "--- second ---\n%.*s\n",
                 static_cast<int>(second.size()), second.data());
  }
  std::fflush(stderr);
  std::abort();
}

/// Bad input must be a located InvalidArgument error with a message, never
/// another code (an internal error or a crash in disguise).
inline void CheckInputError(const absl::Status& status,
                            absl::string_view what) {
  if (status.ok()) return;
  if (status.code() != absl::StatusCode::kInvalidArgument ||
      status.message().empty()) {
    Fail(std::string(what) + " returned a status other than InvalidArgument",
         status.ToString());
  }
}

/// The two strings must be equal.
inline void CheckEqual(absl::string_view first, absl::string_view second,
                       absl::string_view what) {
  if (first != second) Fail(what, first, second);
}

}  // namespace lir::fuzz

#endif  // LIR_FUZZ_FUZZ_UTIL_H_
