// Dates, timestamps and intervals of the evaluator: the value kinds temporal
// filters need (`timestamp_to_mz_timestamp((#1 + 45 days))`) and date
// columns compare with (`date_to_timestamp(#1) = (#3 - 7 days)`), their text
// forms (as EXPLAIN prints such literals) and their arithmetic.
#ifndef LIR_EVAL_TIME_VALUES_H_
#define LIR_EVAL_TIME_VALUES_H_

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace lir::eval {

/// A `timestamp` (without time zone): microseconds since
/// 1970-01-01 00:00:00, as Materialize's `CheckedTimestamp<NaiveDateTime>`
/// has microsecond precision.
struct Timestamp {
  int64_t micros = 0;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

/// A `date`: days since 1970-01-01 in the proleptic Gregorian calendar.
/// Its own kind (not a timestamp at midnight) because Materialize keeps
/// `date` a type of its own: it prints without a time and `date - interval`
/// gives a timestamp. Years 1 to 9999 here, as for timestamps.
struct Date {
  int32_t days = 0;
  friend auto operator<=>(const Date&, const Date&) = default;
};

/// An `interval`: months, days and microseconds kept apart, as in
/// PostgreSQL and Materialize (a month is not a fixed number of days).
/// The defaulted order is field-wise: a total order for sorting and
/// grouping; SQL comparison uses CompareIntervals.
struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  friend auto operator<=>(const Interval&, const Interval&) = default;
};

/// Reads `YYYY-MM-DD HH:MM:SS[.ffffff]` (years 0001 to 9999 here; an
/// optional `T` instead of the space). InvalidArgument otherwise.
absl::StatusOr<Timestamp> ParseTimestamp(std::string_view text);

/// `2024-01-01 00:00:00`, with `.ffffff` (trailing zeros dropped) when the
/// microseconds are not zero: EXPLAIN's form.
std::string FormatTimestamp(Timestamp ts);

/// Reads `YYYY-MM-DD` (years 0001 to 9999 here), as EXPLAIN prints a date
/// literal and PostgreSQL a date. InvalidArgument otherwise.
absl::StatusOr<Date> ParseDate(std::string_view text);

/// `1997-07-06`: PostgreSQL's (ISO) and EXPLAIN's form.
std::string FormatDate(Date date);

/// Materialize's `date_to_timestamp`: midnight of the date. Never out of
/// range, as dates here are in the timestamps' years.
Timestamp DateToTimestamp(Date date);

/// Reads what EXPLAIN prints for intervals: `45 days`, `1 day`,
/// `1 year 2 mons 3 days 04:05:06.5`, `-1 days -00:00:01`, `00:00:00`
/// (units year(s), mon(s), day(s), hour(s), min(s), sec(s), and an optional
/// `[-]HH:MM:SS[.ffffff]` part). InvalidArgument otherwise.
absl::StatusOr<Interval> ParseInterval(std::string_view text);

/// The interval as PostgreSQL's and EXPLAIN's default style prints it.
std::string FormatInterval(const Interval& interval);

/// SQL comparison of intervals: by their length with a month as 30 days
/// and a day as 24 hours (PostgreSQL's and Materialize's order). -1, 0, 1.
int CompareIntervals(const Interval& a, const Interval& b);

/// `ts + sign * interval`: months first (the day clamped to the month's
/// length, as PostgreSQL does), then days, then microseconds. OutOfRange
/// `timestamp out of range` outside years 1 to 9999 or on overflow.
absl::StatusOr<Timestamp> AddInterval(Timestamp ts, const Interval& interval,
                                      int sign);

/// `interval + interval`, field by field (OutOfRange on overflow).
absl::StatusOr<Interval> AddIntervals(const Interval& a, const Interval& b,
                                      int sign);

/// Materialize's `timestamp_to_mz_timestamp`: milliseconds since the Unix
/// epoch (rounded down). Before the epoch it is OutOfRange, as an
/// mz_timestamp is unsigned.
absl::StatusOr<int64_t> TimestampToMzTimestamp(Timestamp ts);

}  // namespace lir::eval

#endif  // LIR_EVAL_TIME_VALUES_H_
