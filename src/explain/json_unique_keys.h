// Parsing JSON text with repeated object keys rejected.
//
// RFC 8259 leaves the meaning of a repeated key open and nlohmann keeps the
// last value silently, so a config, data, catalog or plan file that sets a
// key twice would lose the first setting without a word. Every JSON input of
// lir goes through ParseJsonText (json.h), which uses this parser.
#ifndef LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_
#define LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_

#include <cstddef>
#include <string_view>

#include "nlohmann/json.hpp"

namespace lir::explain {

/// The deepest nesting of arrays and objects a JSON input may have. lir's
/// own documents nest a few levels plus two per level of a scalar
/// expression (at most kMaxExprDepth = 1000), so this leaves room; deeper
/// input is refused while it is read, before it takes memory.
inline constexpr size_t kMaxJsonNesting = 4096;

/// Parses `text` like `nlohmann::json::parse`, except that a key repeated
/// within one object is a `nlohmann::json::parse_error` too. Its `byte` is
/// one past the opening quote of the second occurrence (the convention of
/// nlohmann's own parse errors, so ParseJsonText reports `file:line:column`
/// of the repeated key) and its message names the member's JSON pointer and
/// where the first occurrence is: `duplicate key "b" at /a/b (first at line
/// 2, column 8)`. Nesting deeper than kMaxJsonNesting is a parse_error
/// whose `byte` is one past the first bracket beyond the limit. When
/// nlohmann throws, `*error_start` (if given) is the
/// offset where the token at fault starts: an out_of_range error (406, a
/// number too large for a double, as `1e999`) carries no position of its own.
nlohmann::json ParseJsonWithUniqueKeys(std::string_view text,
                                       size_t* error_start = nullptr);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_
