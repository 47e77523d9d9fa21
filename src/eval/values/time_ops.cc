// SQL operators over timestamps, intervals and dates.
#include "src/eval/values/time_ops.h"

#include "lir/status_macros.h"

namespace lir::eval {
namespace {

// A timestamp or a date as a timestamp (a date is its midnight); nullopt
// for the other kinds.
std::optional<Timestamp> AsInstant(const Datum& d) {
  if (d.is_timestamp()) return d.as_timestamp();
  if (d.is_date()) return DateToTimestamp(d.as_date());
  return std::nullopt;
}

template <typename T>
int Order(const T& x, const T& y) {
  return x < y ? -1 : (x > y ? 1 : 0);
}

absl::StatusOr<Datum> Shifted(Timestamp start, const Interval& interval,
                              int sign) {
  LIR_ASSIGN_OR_RETURN(Timestamp ts, AddInterval(start, interval, sign));
  return Datum::Time(ts);
}

}  // namespace

std::optional<absl::StatusOr<Datum>> TimeArithmetic(int sign, const Datum& a,
                                                    const Datum& b) {
  if (sign == 0) return std::nullopt;
  if (b.is_interval()) {
    if (a.is_interval()) {
      absl::StatusOr<Interval> sum =
          AddIntervals(a.as_interval(), b.as_interval(), sign);
      if (!sum.ok()) return absl::StatusOr<Datum>(sum.status());
      return absl::StatusOr<Datum>(Datum::Span(*sum));
    }
    if (std::optional<Timestamp> start = AsInstant(a)) {
      return Shifted(*start, b.as_interval(), sign);
    }
    return std::nullopt;
  }
  // `interval + timestamp` and `interval + date` (no `interval - date`).
  if (sign == 1 && a.is_interval()) {
    if (std::optional<Timestamp> start = AsInstant(b)) {
      return Shifted(*start, a.as_interval(), 1);
    }
  }
  return std::nullopt;
}

std::optional<int> CompareTimes(const Datum& a, const Datum& b) {
  if (a.is_timestamp() && b.is_timestamp()) {
    return Order(a.as_timestamp(), b.as_timestamp());
  }
  if (a.is_interval() && b.is_interval()) {
    return CompareIntervals(a.as_interval(), b.as_interval());
  }
  if (a.is_date() && b.is_date()) return Order(a.as_date(), b.as_date());
  return std::nullopt;
}

}  // namespace lir::eval
