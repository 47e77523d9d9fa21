// What the libFuzzer targets of fuzz/ share: how a target reports a broken
// property (abort, so that libFuzzer saves the input as a crash), the
// whole-status checks every target makes, and the checks of the targets
// that read fuzzed plans.
#ifndef LIR_FUZZ_FUZZ_UTIL_H_
#define LIR_FUZZ_FUZZ_UTIL_H_

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/validate.h"

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

/// What a reader (`what` names it) made of fuzzed input: the document, or
/// nullopt when it refused the input, which it must do as CheckInputError
/// demands.
inline std::optional<Document> ReadOrRefuse(absl::StatusOr<Document> read,
                                            absl::string_view what) {
  if (!read.ok()) {
    CheckInputError(read.status(), what);
    return std::nullopt;
  }
  return *std::move(read);
}

/// PrintOptions that print every node's id: the second form the text round
/// trips are checked in.
inline explain::PrintOptions WithNodeIds() {
  explain::PrintOptions options;
  options.node_identifiers = true;
  return options;
}

/// A plan that validated must still validate once printed (`printed`) and
/// read back (`reparsed`).
inline void CheckStillValid(const Document& reparsed,
                            absl::string_view printed) {
  if (absl::Status status = Validate(reparsed); !status.ok()) {
    Fail("a valid plan no longer validates after print and parse", printed,
         status.ToString());
  }
}

}  // namespace lir::fuzz

#endif  // LIR_FUZZ_FUZZ_UTIL_H_
