#include "src/explain/utf8.h"

#include <cstdint>

namespace lir::explain {

std::string_view SkipUtf8Bom(std::string_view text) {
  if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom) {
    text.remove_prefix(kUtf8Bom.size());
  }
  return text;
}

size_t FindInvalidUtf8(std::string_view text) {
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const auto b0 = static_cast<uint8_t>(text[i]);
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    // The length of the sequence and the range its second byte must fall in
    // (which excludes overlong forms, surrogates and code points above
    // U+10FFFF; RFC 3629 section 4).
    size_t length = 0;
    uint8_t low = 0x80;
    uint8_t high = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      length = 3;
      if (b0 == 0xE0) low = 0xA0;
      if (b0 == 0xED) high = 0x9F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      length = 4;
      if (b0 == 0xF0) low = 0x90;
      if (b0 == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    for (size_t k = 1; k < length; ++k) {
      if (i + k >= n) return i;
      const auto b = static_cast<uint8_t>(text[i + k]);
      const uint8_t lo = k == 1 ? low : 0x80;
      const uint8_t hi = k == 1 ? high : 0xBF;
      if (b < lo || b > hi) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

}  // namespace lir::explain
