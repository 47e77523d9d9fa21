// UTF-8 checks shared by the text parser and the JSON writer (internal to
// the explain layer, but also used by the pipeline's format detection).
#ifndef LIR_EXPLAIN_UTF8_H_
#define LIR_EXPLAIN_UTF8_H_

#include <cstddef>
#include <string_view>

namespace lir::explain {

/// The UTF-8 byte-order mark (EF BB BF).
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

/// `text` without a leading byte-order mark. Editors on some platforms add
/// one; it is not part of the first line's content.
std::string_view SkipUtf8Bom(std::string_view text);

/// The offset of the first byte of `text` that does not start (or continue)
/// a well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF), or npos when all of `text` is valid.
size_t FindInvalidUtf8(std::string_view text);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_UTF8_H_
