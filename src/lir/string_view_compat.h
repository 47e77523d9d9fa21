// Conversions between std::string_view, which lir's public headers use, and
// absl::string_view, which this Debian's Abseil (built with
// ABSL_OPTION_USE_STD_STRING_VIEW=0) defines as a separate class that
// neither converts to nor from std::string_view. Internal: callers of lir
// only ever see std::string_view.
#ifndef LIR_LIR_STRING_VIEW_COMPAT_H_
#define LIR_LIR_STRING_VIEW_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace lir {

/// `text` as an absl::string_view (same bytes, no copy).
constexpr absl::string_view ToAbsl(std::string_view text) {
  return absl::string_view(text.data(), text.size());
}

/// `text` as a std::string_view (same bytes, no copy).
constexpr std::string_view ToStd(absl::string_view text) {
  return std::string_view(text.data(), text.size());
}

}  // namespace lir

#endif  // LIR_LIR_STRING_VIEW_COMPAT_H_
