// SQL operators over the time kinds of datums (timestamps, intervals and
// dates): kept out of scalar_eval.cc so that each kind's rules sit in one
// place next to time_values.h's arithmetic.
#ifndef LIR_EVAL_VALUES_TIME_OPS_H_
#define LIR_EVAL_VALUES_TIME_OPS_H_

#include <optional>

#include "absl/status/statusor.h"
#include "lir/eval/datum.h"

namespace lir::eval {

/// `a + b` (sign 1) or `a - b` (sign -1) when the pair is one the time kinds
/// define: timestamp ± interval and date ± interval (a timestamp, as
/// Materialize's `add_date_interval`/`sub_date_interval`: the date's
/// midnight plus the interval), interval + timestamp, interval + date,
/// interval ± interval. nullopt for every other pair (and sign 0), so the
/// caller goes on with numbers. Neither datum may be NULL.
std::optional<absl::StatusOr<Datum>> TimeArithmetic(int sign, const Datum& a,
                                                    const Datum& b);

/// SQL comparison (-1, 0, 1) of two timestamps, two intervals (by length,
/// CompareIntervals) or two dates; nullopt for any other pair.
std::optional<int> CompareTimes(const Datum& a, const Datum& b);

}  // namespace lir::eval

#endif  // LIR_EVAL_VALUES_TIME_OPS_H_
