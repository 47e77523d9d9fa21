// Parsing scalar literals (../shared/reference/TEXT-FORMAT.md section 5):
// strings, numbers, and the literals whose kind is read from their shape
// (ranges, UUIDs, times, intervals, dates and timestamps). Expressions are
// parsed in text_scalar.cc, which calls ParseLiteral for each leaf.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"
#include "src/explain/text_cursor.h"

namespace lir::explain::internal {

size_t PrimitiveCursor::RangeEnd(size_t start) const {
  // `[1,5)`, `(,5]`: bounds without spaces, brackets, quotes or commas.
  auto bound_end = [&](size_t p) {
    while (p < text_.size() && std::string_view(" ,()[]{}\"#").find(text_[p]) ==
                                   std::string_view::npos) {
      ++p;
    }
    return p;
  };
  char open = CharAt(start);
  if (open != '[' && open != '(') return std::string_view::npos;
  size_t p = bound_end(start + 1);
  if (CharAt(p) != ',') return std::string_view::npos;
  p = bound_end(p + 1);
  char close = CharAt(p);
  if (close != ']' && close != ')') return std::string_view::npos;
  return p + 1;
}

size_t PrimitiveCursor::UuidEnd(size_t start) const {
  static constexpr std::string_view kShape =
      "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  if (start + kShape.size() > text_.size()) return std::string_view::npos;
  for (size_t i = 0; i < kShape.size(); ++i) {
    char c = text_[start + i];
    if (kShape[i] == '-' ? c != '-' : !IsHexDigit(c)) {
      return std::string_view::npos;
    }
  }
  size_t end = start + kShape.size();
  return IsIdentChar(CharAt(end)) ? std::string_view::npos : end;
}

size_t PrimitiveCursor::TimePartEnd(size_t start, bool allow_sign) const {
  size_t p = start;
  if (allow_sign && (CharAt(p) == '-' || CharAt(p) == '+')) ++p;
  size_t hours_end = DigitsEnd(p);
  if (hours_end == p || CharAt(hours_end) != ':') return std::string_view::npos;
  p = hours_end + 1;
  for (int field = 0; field < 2; ++field) {
    if (!IsDigit(CharAt(p)) || !IsDigit(CharAt(p + 1))) {
      return std::string_view::npos;
    }
    p += 2;
    if (field == 0) {
      if (CharAt(p) != ':') return std::string_view::npos;
      ++p;
    }
  }
  if (CharAt(p) == '.' && IsDigit(CharAt(p + 1))) p = DigitsEnd(p + 1);
  return p;
}

size_t PrimitiveCursor::UnitWordEnd(size_t start) const {
  for (std::string_view unit :
       {" years", " year", " mons", " mon", " days", " day"}) {
    if (text_.substr(start).substr(0, unit.size()) == unit &&
        !IsIdentChar(CharAt(start + unit.size()))) {
      return start + unit.size();
    }
  }
  return std::string_view::npos;
}

size_t PrimitiveCursor::UnitPartEnd(size_t start, bool allow_sign) const {
  size_t p = start;
  if (allow_sign && (CharAt(p) == '-' || CharAt(p) == '+')) ++p;
  size_t digits_end = DigitsEnd(p);
  if (digits_end == p) return std::string_view::npos;
  return UnitWordEnd(digits_end);
}

absl::StatusOr<Literal> PrimitiveCursor::ParseStringLiteral() {
  size_t start = pos_;
  ++pos_;  // opening quote
  std::string value;
  while (true) {
    if (AtEnd()) return ErrorAt(start, "string literal closed by `\"`");
    char c = text_[pos_];
    if (c == '"') break;
    if (c == '\\') {
      // Only these escapes exist; any other backslash is printed raw.
      char next = Peek(1);
      char decoded = next == '"'   ? '"'
                     : next == 'n' ? '\n'
                     : next == 'r' ? '\r'
                     : next == 't' ? '\t'
                                   : '\0';
      if (decoded != '\0') {
        value += decoded;
        pos_ += 2;
        continue;
      }
    }
    value += c;
    ++pos_;
  }
  ++pos_;  // closing quote
  return Literal{LiteralKind::kString, std::move(value)};
}

absl::StatusOr<Literal> PrimitiveCursor::ParseNumericLiteral(
    std::string_view what) {
  size_t start = pos_;
  auto finish = [&](LiteralKind kind) {
    return Literal{kind, std::string(text_.substr(start, pos_ - start))};
  };
  bool negative = CharAt(start) == '-';
  size_t digits_start = negative ? start + 1 : start;
  size_t digits_end = DigitsEnd(digits_start);
  size_t digit_count = digits_end - digits_start;
  if (digit_count == 0) return Error(what);
  char after = CharAt(digits_end);
  if (!negative && digit_count == 1 && CharAt(start) == '0' && after == 'x') {
    pos_ = digits_end + 1;  // bytes: 0x<hex>
    while (IsHexDigit(Peek())) ++pos_;
    return finish(LiteralKind::kOther);
  }
  if (after == ':') {
    size_t end = TimePartEnd(start, /*allow_sign=*/true);
    if (end == std::string_view::npos) {
      return ErrorAt(digits_end, "time `HH:MM:SS[.frac]`");
    }
    pos_ = end;
    // `HH:MM:SS` is a time of day; a signed or longer hour field can only be
    // an interval's time part.
    bool time_of_day = !negative && digit_count == 2;
    return finish(time_of_day ? LiteralKind::kTime : LiteralKind::kInterval);
  }
  if (!negative && digit_count >= 4 && after == '-' &&
      IsDigit(CharAt(digits_end + 1)) && IsDigit(CharAt(digits_end + 2)) &&
      CharAt(digits_end + 3) == '-' && IsDigit(CharAt(digits_end + 4)) &&
      IsDigit(CharAt(digits_end + 5))) {
    pos_ = digits_end + 6;
    if (Peek() != ' ') return finish(LiteralKind::kDate);
    size_t time_end = TimePartEnd(pos_ + 1, /*allow_sign=*/false);
    if (time_end == std::string_view::npos) return finish(LiteralKind::kDate);
    pos_ = time_end;
    if (LookingAt(" UTC") && !IsIdentChar(Peek(4))) {
      pos_ += 4;
      return finish(LiteralKind::kTimestampTz);
    }
    return finish(LiteralKind::kTimestamp);
  }
  // Materialize prints a double in full (1e300 as a 1 and 300 zeros), so a
  // number literal may be long; but past the largest double (about
  // 1.8e308, 309 integer digits) no SQL number type holds it.
  auto number = [&]() -> absl::StatusOr<Literal> {
    std::string_view integer = text_.substr(digits_start, digit_count);
    integer.remove_prefix(
        std::min(integer.find_first_not_of('0'), integer.size()));
    double value = 0;
    if (integer.size() > 309 ||
        (integer.size() == 309 &&
         (!absl::SimpleAtod(ToAbsl(integer), &value) || std::isinf(value)))) {
      return ErrorAt(start,
                     "a number within the range of a double (below 1.8e308 "
                     "in magnitude; no SQL number type holds more)");
    }
    return finish(LiteralKind::kNumber);
  };
  pos_ = digits_end;
  if (after == '.' && IsDigit(CharAt(digits_end + 1))) {
    pos_ = DigitsEnd(digits_end + 1);
    return number();
  }
  size_t unit_end = UnitWordEnd(pos_);
  if (unit_end == std::string_view::npos) return number();
  // An interval: unit parts, then at most one time part, single spaces.
  pos_ = unit_end;
  while (Peek() == ' ') {
    size_t end = UnitPartEnd(pos_ + 1, /*allow_sign=*/true);
    if (end != std::string_view::npos) {
      pos_ = end;
      continue;
    }
    end = TimePartEnd(pos_ + 1, /*allow_sign=*/true);
    if (end != std::string_view::npos) pos_ = end;
    break;
  }
  return finish(LiteralKind::kInterval);
}

absl::StatusOr<Literal> PrimitiveCursor::ParseLiteral(std::string_view what) {
  size_t start = pos_;
  auto verbatim = [&](size_t end, LiteralKind kind) {
    pos_ = end;
    return Literal{kind, std::string(text_.substr(start, end - start))};
  };
  if (LookingAt(kRedactedMark)) {
    return verbatim(start + kRedactedMark.size(), LiteralKind::kRedacted);
  }
  char c = Peek();
  if (c == '"') return ParseStringLiteral();
  if (c == '(' || c == '[' || c == '{') {
    // Ranges, arrays, lists, records and maps are kept as printed.
    size_t end = RangeEnd(start);
    if (end == std::string_view::npos && c != '(') end = GroupEnd(start);
    if (end == std::string_view::npos) return Error(what);
    return verbatim(end, LiteralKind::kOther);
  }
  if (size_t end = UuidEnd(start); end != std::string_view::npos) {
    return verbatim(end, LiteralKind::kOther);
  }
  if (IsIdentStart(c)) {
    size_t end = start;
    while (IsIdentChar(CharAt(end))) ++end;
    std::string_view word = text_.substr(start, end - start);
    if (word == "null") return verbatim(end, LiteralKind::kNull);
    if (word == "true" || word == "false") {
      return verbatim(end, LiteralKind::kBool);
    }
    if (word == "NaN" || word == "inf") {
      return verbatim(end, LiteralKind::kNumber);
    }
    if (word == "json_null" || word == "dummy" || word == "empty") {
      return verbatim(end, LiteralKind::kOther);
    }
    if (word == "error" && CharAt(end) == '(') {
      // A literal error: `error("msg")` or `error(█)`.
      pos_ = end + 1;
      if (LookingAt(kRedactedMark)) {
        pos_ += kRedactedMark.size();
      } else if (Peek() == '"') {
        LIR_RETURN_IF_ERROR(ParseStringLiteral().status());
      } else {
        return Error("string message of the literal error");
      }
      LIR_RETURN_IF_ERROR(Expect(")"));
      return verbatim(pos_, LiteralKind::kOther);
    }
    return Error(what);
  }
  if (LookingAt("-inf") && !IsIdentChar(Peek(4))) {
    return verbatim(start + 4, LiteralKind::kNumber);
  }
  if (IsDigit(c) || (c == '-' && IsDigit(Peek(1)))) {
    return ParseNumericLiteral(what);
  }
  return Error(what);
}

}  // namespace lir::explain::internal
