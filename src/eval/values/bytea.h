// Byte strings (`bytea`): Materialize's text form of them and its `digest`
// hash functions, on the raw bytes a Bytes datum holds (datum.h).
#ifndef LIR_EVAL_VALUES_BYTEA_H_
#define LIR_EVAL_VALUES_BYTEA_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace lir::eval {

/// `\x` and two lowercase hex digits per byte (`\x0a1b`): how Materialize
/// (`bytea_to_text`) and PostgreSQL (`bytea_output = hex`) print a bytea.
std::string FormatBytea(std::string_view bytes);

/// The bytes `text` denotes as bytea input, as Materialize's `text_to_bytea`
/// (strconv::parse_bytes) reads it: after a `\x` prefix, hex digit pairs
/// (either case; spaces, tabs and newlines between pairs are skipped);
/// otherwise the text's own bytes, where `\\` is one backslash and `\NNN`
/// (octal, first digit 0-3) one byte. Anything else is InvalidArgument
/// `invalid input syntax for type bytea: <details>: "<text>"`.
absl::StatusOr<std::string> ParseBytea(std::string_view text);

/// Materialize's `digest(data, algorithm)`: the hash of `bytes` under
/// `algorithm`, one of md5, sha1, sha224, sha256, sha384, sha512 (lower
/// case only, as Materialize matches them), computed by OpenSSL's
/// libcrypto. Any other name is InvalidArgument `invalid hash algorithm
/// '<name>'`, Materialize's evaluation error.
absl::StatusOr<std::string> Digest(std::string_view bytes,
                                   std::string_view algorithm);

}  // namespace lir::eval

#endif  // LIR_EVAL_VALUES_BYTEA_H_
