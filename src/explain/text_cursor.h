// The recursive-descent cursor behind the primitive parsers of
// text_primitives.h (internal; shared by text_scalar.cc, text_literal.cc and
// text_primitives.cc).
#ifndef LIR_EXPLAIN_TEXT_CURSOR_H_
#define LIR_EXPLAIN_TEXT_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/scalar.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {

/// The redaction mark `█` (U+2588) as UTF-8.
inline constexpr std::string_view kRedactedMark = "\xE2\x96\x88";

/// Byte classes of the scalar syntax (ASCII only: every byte of a
/// multi-byte UTF-8 character is outside them).
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); }
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }

/// True if `name` prints bare inside `#n{...}` (matches `[a-z_][a-z0-9_]*`).
bool IsBareColumnName(std::string_view name);

/// A position in one primitive's text. Every parser consumes exactly the
/// construct it names and leaves the cursor just after it; on failure it
/// returns InvalidArgument("expected ...") and remembers the offending
/// offset in error_pos().
class PrimitiveCursor {
 public:
  explicit PrimitiveCursor(std::string_view text) : text_(text) {}

  size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  /// The byte `ahead` positions after the cursor, or '\0' past the end.
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool LookingAt(std::string_view s) const {
    return text_.substr(pos_).substr(0, s.size()) == s;
  }
  /// Consumes `s` if the text continues with it.
  bool Consume(std::string_view s);
  /// Consumes `s`, else fails with "expected `s`".
  absl::Status Expect(std::string_view s);
  /// Fails with "expected <what>" unless the whole text was consumed.
  absl::Status ExpectEnd(std::string_view what);
  /// "expected <what>" at the cursor (or at `pos`).
  absl::Status Error(std::string_view what);
  absl::Status ErrorAt(size_t pos, std::string_view what);
  /// Where the last error was found.
  size_t error_pos() const { return error_pos_; }

  /// One scalar expression (section 5.1), at most kMaxExprDepth deep.
  absl::StatusOr<ScalarExpr> ParseExpr();
  /// The same into `out` (which must be default-constructed).
  absl::Status ParseExprInto(ScalarExpr& out);
  /// One datum (section 5.5); `what` names it in errors.
  absl::StatusOr<Literal> ParseLiteral(std::string_view what = "literal");
  /// `#n` without a name.
  absl::StatusOr<int> ParseColumnIndex();
  /// `#n` or `#n{name}`.
  absl::StatusOr<ScalarExpr> ParseColumnRef();
  /// An optionally negative decimal integer.
  absl::StatusOr<int64_t> ParseInteger(std::string_view what);
  /// A name `[A-Za-z_][A-Za-z0-9_]*`; `what` names it in errors.
  absl::StatusOr<std::string> ParseIdentifier(std::string_view what);
  /// A balanced `[...]` group (brackets nest, string literals are skipped);
  /// returns the text between the outer brackets.
  absl::StatusOr<std::string> ParseBracketGroup();

 private:
  absl::Status ParseExprNoDepth(ScalarExpr& out);
  /// A column reference or a literal.
  absl::Status ParseLeaf(ScalarExpr& out);
  absl::Status ParseParenthesized(ScalarExpr& out);
  /// A call whose name spans from the cursor to `name_end`.
  absl::Status ParseNamedCall(size_t name_end, ScalarExpr& out);
  absl::Status ParseIf(ScalarExpr& out);
  absl::Status ParseCaseLookup(ScalarExpr& out);
  /// Arguments up to and including `close`, separated by `, `.
  absl::Status ParseArgs(char close, std::vector<ScalarExpr>& args);
  absl::StatusOr<Literal> ParseStringLiteral();
  absl::StatusOr<Literal> ParseNumericLiteral(std::string_view what);
  /// Where a balanced group opened by text_[start] ends (just after its
  /// closer), or npos.
  size_t GroupEnd(size_t start) const;
  /// Where a simple range datum `[1,5)` / `(,5]` starting at `start` ends,
  /// or npos.
  size_t RangeEnd(size_t start) const;
  /// Where a uuid starting at `start` ends, or npos.
  size_t UuidEnd(size_t start) const;
  /// Where a time part `[+-]H+:MM:SS[.frac]` starting at `start` ends.
  size_t TimePartEnd(size_t start, bool allow_sign) const;
  /// Where an interval part `[+-]N unit` starting at `start` ends.
  size_t UnitPartEnd(size_t start, bool allow_sign) const;
  /// Where ` year[s]`, ` mon[s]`, ` day[s]` starting at `start` ends.
  size_t UnitWordEnd(size_t start) const;
  size_t DigitsEnd(size_t start) const;
  char CharAt(size_t pos) const {
    return pos < text_.size() ? text_[pos] : '\0';
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t error_pos_ = 0;
  int depth_ = 0;
};

/// Runs `parse(cursor)` over `text`, storing the error offset on failure.
template <typename T, typename Fn>
absl::StatusOr<T> RunPrimitiveParser(std::string_view text, size_t* error_pos,
                                     Fn&& parse) {
  PrimitiveCursor cursor(text);
  absl::StatusOr<T> result = parse(cursor);
  if (!result.ok() && error_pos != nullptr) *error_pos = cursor.error_pos();
  return result;
}

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_TEXT_CURSOR_H_
