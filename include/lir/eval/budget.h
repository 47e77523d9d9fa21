// The budgets of a run: limits that end a runaway evaluation with a clean
// error naming the operator, where it would otherwise exhaust memory or run
// for hours. They are options of the evaluator (RunOptions in run.h,
// DataflowOptions in dataflow.h) that `lir-opt run` maps flags onto
// (--max_rows_per_round, --max_iterations); docs/RELIABILITY.md lists what
// each one bounds.
#ifndef LIR_EVAL_BUDGET_H_
#define LIR_EVAL_BUDGET_H_

#include <cstdint>
#include <limits>

#include "absl/status/status.h"

namespace lir::eval {

/// Default of RunOptions::max_rows_per_round: rows one operator may produce
/// in one round. Generous: the project's own benchmark runs 1.5 * 10^6 rows
/// through one operator in one round (bench/eval_bench.cc, keys=10^6), and
/// test data is far smaller. Bounded: a row of two integer columns takes
/// about 180 bytes in the evaluator's row form while an operator builds its
/// output (9 * 10^6 such rows peaked at 1.6 GB RSS), so one runaway operator
/// stops below 2 GB instead of exhausting the machine.
inline constexpr uint64_t kDefaultMaxRowsPerRound = 10'000'000;

/// Default of RunOptions::max_iterations: iterations of one LetRec in one
/// round (a fixpoint that is still changing after them is an error).
inline constexpr uint64_t kDefaultMaxIterations = 10'000;

/// No limit (for callers that bound nothing, e.g. unit tests of one
/// operator).
inline constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

/// ResourceExhausted: an operator produced more than `limit` rows in round
/// `round`; the message says how to raise the limit. The engines attribute
/// it to the operator's node (`LirId(3) FlatMap: produced more than ...`).
absl::Status RowLimitError(uint64_t limit, uint64_t round);

/// ResourceExhausted: a LetRec was still changing after `limit` iterations;
/// the message says how to raise the limit (attributed to the LetRec).
absl::Status IterationLimitError(uint64_t limit);

/// ResourceExhausted: memory ran out (std::bad_alloc) while computing round
/// `round`; the message names the budget that bounds the usual causes.
absl::Status OutOfMemoryError(uint64_t round);

/// Counts the rows one operator produces in one round against the limit.
class RowCounter {
 public:
  RowCounter(uint64_t limit, uint64_t round) : limit_(limit), round_(round) {}

  /// Counts `rows` more: RowLimitError once the total passes the limit.
  /// Callers count before they allocate the rows where they can.
  absl::Status Add(uint64_t rows) {
    if (rows > limit_ - count_) return RowLimitError(limit_, round_);
    count_ += rows;
    return absl::OkStatus();
  }

  /// RowLimitError when `rows` alone pass the limit (an operator's output).
  absl::Status Check(uint64_t rows) const {
    return rows > limit_ ? RowLimitError(limit_, round_) : absl::OkStatus();
  }

  uint64_t limit() const { return limit_; }
  uint64_t round() const { return round_; }

 private:
  uint64_t limit_;
  uint64_t round_;
  uint64_t count_ = 0;
};

}  // namespace lir::eval

#endif  // LIR_EVAL_BUDGET_H_
