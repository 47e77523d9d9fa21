// Dates, timestamps and intervals: text forms and arithmetic.
#include "lir/eval/time_values.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/lir/string_view_compat.h"

namespace lir::eval {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

// Days since 1970-01-01 of a proleptic Gregorian date (the classic
// era-based conversion: 400-year eras of 146097 days).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year, month, day;
};

Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return Civil{yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Years this evaluator reads and writes (4-digit years, as printed).
const int64_t kMinMicros = DaysFromCivil(1, 1, 1) * kMicrosPerDay;
const int64_t kMaxMicros = DaysFromCivil(10000, 1, 1) * kMicrosPerDay - 1;

absl::Status TimestampOutOfRange() {
  return absl::OutOfRangeError("timestamp out of range");
}

// Reads `digits` digits at `pos` of `text` into `out`.
bool Digits(absl::string_view text, size_t& pos, size_t digits, int64_t* out) {
  if (pos + digits > text.size()) return false;
  int64_t v = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  pos += digits;
  *out = v;
  return true;
}

// Reads `.ffffff` (1 to 6 digits) at `pos` as microseconds, if present.
bool Fraction(absl::string_view text, size_t& pos, int64_t* micros) {
  *micros = 0;
  if (pos >= text.size() || text[pos] != '.') return true;
  ++pos;
  size_t n = 0;
  int64_t scale = 100000;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    if (n == 6) return false;
    *micros += (text[pos] - '0') * scale;
    scale /= 10;
    ++pos;
    ++n;
  }
  return n > 0;
}

// `HH:MM:SS[.ffffff]` as microseconds.
bool TimeOfDay(absl::string_view text, size_t& pos, int64_t* micros) {
  int64_t h, m, s, frac;
  if (!Digits(text, pos, 2, &h) || pos >= text.size() || text[pos++] != ':' ||
      !Digits(text, pos, 2, &m) || pos >= text.size() || text[pos++] != ':' ||
      !Digits(text, pos, 2, &s) || !Fraction(text, pos, &frac)) {
    return false;
  }
  if (m > 59 || s > 59) return false;
  *micros = ((h * 60 + m) * 60 + s) * kMicrosPerSecond + frac;
  return true;
}

std::string FractionText(int64_t micros) {
  if (micros == 0) return "";
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), ".%06lld",
                static_cast<long long>(micros));
  std::string out(buffer);
  while (out.back() == '0') out.pop_back();
  return out;
}

// Reads `YYYY-MM-DD` at the start of `text` (advancing `pos`) as days
// since the epoch; false when it is not a valid date of years 1 to 9999.
bool CalendarDay(absl::string_view text, size_t& pos, int64_t* days) {
  int64_t y, mo, d;
  if (!Digits(text, pos, 4, &y) || pos >= text.size() || text[pos++] != '-' ||
      !Digits(text, pos, 2, &mo) || pos >= text.size() || text[pos++] != '-' ||
      !Digits(text, pos, 2, &d)) {
    return false;
  }
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo)) {
    return false;
  }
  *days = DaysFromCivil(y, mo, d);
  return true;
}

}  // namespace

absl::StatusOr<Date> ParseDate(std::string_view text_view) {
  const absl::string_view text = ToAbsl(text_view);
  size_t pos = 0;
  int64_t days = 0;
  if (!CalendarDay(text, pos, &days) || pos != text.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid date \"", text, "\" (expected YYYY-MM-DD)"));
  }
  return Date{static_cast<int32_t>(days)};
}

std::string FormatDate(Date date) {
  const Civil c = CivilFromDays(date.days);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%04lld-%02lld-%02lld",
                static_cast<long long>(c.year), static_cast<long long>(c.month),
                static_cast<long long>(c.day));
  return buffer;
}

Timestamp DateToTimestamp(Date date) {
  return Timestamp{static_cast<int64_t>(date.days) * kMicrosPerDay};
}

absl::StatusOr<Timestamp> ParseTimestamp(std::string_view text_view) {
  const absl::string_view text = ToAbsl(text_view);
  const auto bad = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid timestamp \"", text,
                     "\" (expected YYYY-MM-DD HH:MM:SS[.ffffff])"));
  };
  size_t pos = 0;
  int64_t y, mo, d, time;
  if (!Digits(text, pos, 4, &y) || pos >= text.size() || text[pos++] != '-' ||
      !Digits(text, pos, 2, &mo) || pos >= text.size() || text[pos++] != '-' ||
      !Digits(text, pos, 2, &d) || pos >= text.size() ||
      (text[pos] != ' ' && text[pos] != 'T')) {
    return bad();
  }
  ++pos;
  if (!TimeOfDay(text, pos, &time) || pos != text.size()) return bad();
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo) ||
      time >= kMicrosPerDay) {
    return bad();
  }
  return Timestamp{DaysFromCivil(y, mo, d) * kMicrosPerDay + time};
}

std::string FormatTimestamp(Timestamp ts) {
  const int64_t days = FloorDiv(ts.micros, kMicrosPerDay);
  int64_t rest = ts.micros - days * kMicrosPerDay;
  const Civil c = CivilFromDays(days);
  const int64_t frac = rest % kMicrosPerSecond;
  rest /= kMicrosPerSecond;
  char buffer[64];
  std::snprintf(
      buffer, sizeof(buffer), "%04lld-%02lld-%02lld %02lld:%02lld:%02lld",
      static_cast<long long>(c.year), static_cast<long long>(c.month),
      static_cast<long long>(c.day), static_cast<long long>(rest / 3600),
      static_cast<long long>(rest / 60 % 60),
      static_cast<long long>(rest % 60));
  return absl::StrCat(buffer, FractionText(frac));
}

absl::StatusOr<Interval> ParseInterval(std::string_view text_view) {
  const absl::string_view text = ToAbsl(text_view);
  const auto bad = [&]() {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid interval \"", text, "\""));
  };
  std::vector<absl::string_view> words =
      absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (words.empty()) return bad();
  __int128 months = 0, days = 0, micros = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    absl::string_view word = words[i];
    if (word.find(':') != absl::string_view::npos) {
      // The time part: `[-]HH:MM:SS[.ffffff]`, hours may exceed 2 digits.
      const bool negative = !word.empty() && word[0] == '-';
      if (negative || (!word.empty() && word[0] == '+')) word.remove_prefix(1);
      const size_t colon = word.find(':');
      int64_t hours = 0;
      if (colon == 0 || colon > 9 ||
          !absl::SimpleAtoi(word.substr(0, colon), &hours)) {
        return bad();
      }
      std::string padded = absl::StrCat("00", word.substr(colon));
      size_t pos = 0;
      int64_t t = 0;
      if (!TimeOfDay(padded, pos, &t) || pos != padded.size()) return bad();
      const __int128 total =
          hours * 3600 * kMicrosPerSecond + static_cast<__int128>(t);
      micros += negative ? -total : total;
      continue;
    }
    int64_t n = 0;
    if (i + 1 >= words.size() || !absl::SimpleAtoi(word, &n)) return bad();
    const absl::string_view unit = words[++i];
    if (unit == "year" || unit == "years") {
      months += static_cast<__int128>(n) * 12;
    } else if (unit == "mon" || unit == "mons" || unit == "month" ||
               unit == "months") {
      months += n;
    } else if (unit == "day" || unit == "days") {
      days += n;
    } else if (unit == "hour" || unit == "hours") {
      micros += static_cast<__int128>(n) * 3600 * kMicrosPerSecond;
    } else if (unit == "min" || unit == "mins" || unit == "minute" ||
               unit == "minutes") {
      micros += static_cast<__int128>(n) * 60 * kMicrosPerSecond;
    } else if (unit == "sec" || unit == "secs" || unit == "second" ||
               unit == "seconds") {
      micros += static_cast<__int128>(n) * kMicrosPerSecond;
    } else {
      return bad();
    }
  }
  if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX ||
      days < INT32_MIN || micros > INT64_MAX || micros < INT64_MIN) {
    return absl::OutOfRangeError(absl::StrCat("interval out of range: ", text));
  }
  return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days),
                  static_cast<int64_t>(micros)};
}

std::string FormatInterval(const Interval& iv) {
  std::vector<std::string> parts;
  const int64_t years = iv.months / 12;
  const int64_t mons = iv.months % 12;
  if (years != 0)
    parts.push_back(absl::StrCat(years, years == 1 ? " year" : " years"));
  if (mons != 0)
    parts.push_back(absl::StrCat(mons, mons == 1 ? " mon" : " mons"));
  if (iv.days != 0) {
    parts.push_back(absl::StrCat(iv.days, iv.days == 1 ? " day" : " days"));
  }
  if (iv.micros != 0 || parts.empty()) {
    const bool negative = iv.micros < 0;
    // Magnitude as unsigned: INT64_MIN has no positive int64.
    uint64_t m = negative ? 0 - static_cast<uint64_t>(iv.micros)
                          : static_cast<uint64_t>(iv.micros);
    const uint64_t frac = m % kMicrosPerSecond;
    m /= kMicrosPerSecond;
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%s%02llu:%02llu:%02llu",
                  negative ? "-" : "",
                  static_cast<unsigned long long>(m / 3600),
                  static_cast<unsigned long long>(m / 60 % 60),
                  static_cast<unsigned long long>(m % 60));
    parts.push_back(
        absl::StrCat(buffer, FractionText(static_cast<int64_t>(frac))));
  }
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += ' ';
    out += part;
  }
  return out;
}

int CompareIntervals(const Interval& a, const Interval& b) {
  auto length = [](const Interval& iv) {
    return (static_cast<__int128>(iv.months) * 30 + iv.days) * kMicrosPerDay +
           iv.micros;
  };
  const __int128 x = length(a), y = length(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

absl::StatusOr<Timestamp> AddInterval(Timestamp ts, const Interval& iv,
                                      int sign) {
  int64_t days = FloorDiv(ts.micros, kMicrosPerDay);
  const int64_t time = ts.micros - days * kMicrosPerDay;
  if (iv.months != 0) {
    const Civil c = CivilFromDays(days);
    const int64_t month0 =
        c.year * 12 + (c.month - 1) + sign * static_cast<int64_t>(iv.months);
    const int64_t year = FloorDiv(month0, 12);
    const int64_t month = month0 - year * 12 + 1;
    if (year < 1 || year > 9999) return TimestampOutOfRange();
    const int64_t day = std::min(c.day, DaysInMonth(year, month));
    days = DaysFromCivil(year, month, day);
  }
  const __int128 micros =
      (static_cast<__int128>(days) + sign * static_cast<__int128>(iv.days)) *
          kMicrosPerDay +
      time + sign * static_cast<__int128>(iv.micros);
  if (micros < kMinMicros || micros > kMaxMicros) return TimestampOutOfRange();
  return Timestamp{static_cast<int64_t>(micros)};
}

absl::StatusOr<Interval> AddIntervals(const Interval& a, const Interval& b,
                                      int sign) {
  Interval out;
  if (__builtin_add_overflow(a.months, sign * static_cast<int64_t>(b.months),
                             &out.months) ||
      __builtin_add_overflow(a.days, sign * static_cast<int64_t>(b.days),
                             &out.days) ||
      (sign < 0 && b.micros == INT64_MIN) ||
      __builtin_add_overflow(a.micros, sign * b.micros, &out.micros)) {
    return absl::OutOfRangeError("interval out of range");
  }
  return out;
}

absl::StatusOr<int64_t> TimestampToMzTimestamp(Timestamp ts) {
  if (ts.micros < 0) {
    return absl::OutOfRangeError(
        absl::StrCat("mz_timestamp out of range: ", FormatTimestamp(ts),
                     " is before the Unix epoch"));
  }
  return ts.micros / 1000;
}

}  // namespace lir::eval
