// Byte strings: their text form and their digests.
#include "src/eval/values/bytea.h"

#include <openssl/evp.h>

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace lir::eval {
namespace {

// `"text"` with inner quotes doubled, as Materialize quotes the input in a
// parse error.
std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

absl::Status SyntaxError(std::string_view details, std::string_view text) {
  return absl::InvalidArgumentError(absl::StrCat(
      "invalid input syntax for type bytea: ", std::string(details), ": ",
      Quoted(text)));
}

// `invalid hexadecimal digit: "c"`, the digit escaped as Rust's
// char::escape_default does (Materialize's message), so that a control or
// non-ASCII byte does not end up raw in the message.
absl::Status BadDigit(char c, std::string_view text) {
  std::string digit;
  switch (c) {
    case '\t': digit = "\\t"; break;
    case '\n': digit = "\\n"; break;
    case '\r': digit = "\\r"; break;
    case '"': digit = "\\\""; break;
    case '\'': digit = "\\'"; break;
    case '\\': digit = "\\\\"; break;
    default: {
      const auto byte = static_cast<unsigned char>(c);
      digit = byte >= 0x20 && byte < 0x7f
                  ? std::string(1, c)
                  : absl::StrCat("\\u{", absl::Hex(byte), "}");
    }
  }
  return SyntaxError(absl::StrCat("invalid hexadecimal digit: \"", digit, "\""),
                     text);
}

std::optional<int> HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

bool IsHexSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

// The hex form after `\x`: pairs of digits, whitespace allowed between
// pairs (not inside one).
absl::StatusOr<std::string> ParseHex(std::string_view hex,
                                     std::string_view text) {
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); ++i) {
    if (IsHexSpace(hex[i])) continue;
    std::optional<int> high = HexValue(hex[i]);
    if (!high.has_value()) return BadDigit(hex[i], text);
    if (++i == hex.size()) {
      return SyntaxError("invalid hexadecimal data: odd number of digits",
                         text);
    }
    std::optional<int> low = HexValue(hex[i]);
    if (!low.has_value()) return BadDigit(hex[i], text);
    out += static_cast<char>(*high * 16 + *low);
  }
  return out;
}

// The escape form: bytes as they are, `\\` for a backslash, `\NNN` octal.
absl::StatusOr<std::string> ParseEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\') {
      out += text[i];
      continue;
    }
    if (i + 1 == text.size()) {
      return SyntaxError("ends with escape character", text);
    }
    if (text[i + 1] == '\\') {
      out += '\\';
      ++i;
      continue;
    }
    auto octal = [&](size_t at, char highest) {
      return at < text.size() && text[at] >= '0' && text[at] <= highest;
    };
    if (!octal(i + 1, '3') || !octal(i + 2, '7') || !octal(i + 3, '7')) {
      return SyntaxError("invalid escape sequence", text);
    }
    out += static_cast<char>((text[i + 1] - '0') * 64 +
                             (text[i + 2] - '0') * 8 + (text[i + 3] - '0'));
    i += 3;
  }
  return out;
}

}  // namespace

std::string FormatBytea(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "\\x";
  out.reserve(2 + 2 * bytes.size());
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0xf];
  }
  return out;
}

absl::StatusOr<std::string> ParseBytea(std::string_view text) {
  if (text.substr(0, 2) == "\\x") return ParseHex(text.substr(2), text);
  return ParseEscape(text);
}

absl::StatusOr<std::string> Digest(std::string_view bytes,
                                   std::string_view algorithm) {
  // Materialize's digest_inner matches these names exactly (no case
  // folding, no aliases such as `sha-256`).
  const EVP_MD* md = nullptr;
  if (algorithm == "md5") {
    md = EVP_md5();
  } else if (algorithm == "sha1") {
    md = EVP_sha1();
  } else if (algorithm == "sha224") {
    md = EVP_sha224();
  } else if (algorithm == "sha256") {
    md = EVP_sha256();
  } else if (algorithm == "sha384") {
    md = EVP_sha384();
  } else if (algorithm == "sha512") {
    md = EVP_sha512();
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid hash algorithm '", std::string(algorithm), "'"));
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // Fails only when libcrypto cannot provide the algorithm (a FIPS-only
  // configuration refusing md5, say): an error, not a wrong value.
  if (md == nullptr ||
      EVP_Digest(bytes.data(), bytes.size(), out, &length, md, nullptr) != 1) {
    return absl::InternalError(absl::StrCat("OpenSSL could not compute digest ",
                                            std::string(algorithm)));
  }
  return std::string(reinterpret_cast<const char*>(out), length);
}

}  // namespace lir::eval
