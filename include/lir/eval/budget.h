// The budgets of a run: limits that end a runaway evaluation with a clean
// error naming the operator, where it would otherwise exhaust memory or run
// for hours. They are options of the evaluator (RunOptions in run.h,
// DataflowOptions in dataflow.h) that `lir-opt run` maps flags onto
// (--max_rows_per_round, --max_bytes_per_round, --max_value_bytes,
// --max_iterations, --max_work); docs/RELIABILITY.md lists what each one
// bounds.
#ifndef LIR_EVAL_BUDGET_H_
#define LIR_EVAL_BUDGET_H_

#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "lir/eval/datum.h"

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

/// Default of RunOptions::max_bytes_per_round: bytes of rows one operator
/// may produce in one round (RowBytes: the evaluator's row form, strings and
/// nested values included). Rows alone do not bound memory once values are
/// large: 10^4 rows of a 1 MB string are 10 GB.
inline constexpr uint64_t kDefaultMaxBytesPerRound = uint64_t{1} << 31;

/// Default of RunOptions::max_value_bytes: bytes of one string, bytea, list
/// or array the evaluator builds (`||`, the constructors, string_agg,
/// list_agg, array_agg). Checked before the value is allocated where its
/// size is known in advance, so doubling a string 40 times stops at this
/// size, not at the machine's memory.
inline constexpr uint64_t kDefaultMaxValueBytes = uint64_t{64} << 20;

/// Default of RunOptions::max_work: rows produced by every operator of a
/// run, over all its rounds and every iteration of every LetRec. The row
/// and iteration budgets bound one operator in one round; this bounds the
/// whole run, so that a LetRec whose body grows each iteration (quadratic
/// work under --max_iterations alone) ends. At the evaluator's speed on
/// simple rows (about 6 million rows per second produced, measured on the
/// LetRec benchmark shape) the default is about 30 seconds of work.
inline constexpr uint64_t kDefaultMaxWork = 200'000'000;

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

/// ResourceExhausted: the run's operators produced more than `limit` rows
/// in all (RunOptions::max_work); the message says how to raise it.
absl::Status WorkLimitError(uint64_t limit, uint64_t round);

/// ResourceExhausted: an operator produced more than `limit` bytes of rows
/// in round `round` (RunOptions::max_bytes_per_round).
absl::Status ByteLimitError(uint64_t limit, uint64_t round);

/// ResourceExhausted: a value of `bytes` bytes would pass `limit`, the
/// bytes one value may take (RunOptions::max_value_bytes).
absl::Status ValueLimitError(uint64_t bytes, uint64_t limit);

/// ResourceExhausted: memory ran out (std::bad_alloc) while computing round
/// `round`; the message names the budget that bounds the usual causes.
absl::Status OutOfMemoryError(uint64_t round);

/// RunOptions::max_value_bytes of the evaluation running on this thread
/// (kDefaultMaxValueBytes outside any ScopedValueLimit). Per thread rather
/// than passed down: every scalar function that builds a value reads it,
/// and a run evaluates on one thread.
uint64_t MaxValueBytes();

/// ValueLimitError when a value of `bytes` bytes would pass MaxValueBytes().
absl::Status CheckValueBytes(uint64_t bytes);

/// Sets MaxValueBytes() for this thread while it lives (RunDocument holds
/// one for the run).
class ScopedValueLimit {
 public:
  explicit ScopedValueLimit(uint64_t max_value_bytes);
  ~ScopedValueLimit();
  ScopedValueLimit(const ScopedValueLimit&) = delete;
  ScopedValueLimit& operator=(const ScopedValueLimit&) = delete;

 private:
  uint64_t previous_;
};

/// Counts the rows (and their bytes) one operator produces in one round
/// against the limits.
class RowCounter {
 public:
  RowCounter(uint64_t limit, uint64_t round, uint64_t max_bytes = kUnlimited)
      : limit_(limit), round_(round), max_bytes_(max_bytes) {}

  /// Counts `rows` more: RowLimitError once the total passes the limit.
  /// Callers count before they allocate the rows where they can.
  absl::Status Add(uint64_t rows) {
    if (rows > limit_ - count_) return RowLimitError(limit_, round_);
    count_ += rows;
    return absl::OkStatus();
  }

  /// Counts `bytes` more of rows about to be made: ByteLimitError once the
  /// total passes the byte limit.
  absl::Status AddBytes(uint64_t bytes) {
    if (bytes > max_bytes_ - bytes_) return ByteLimitError(max_bytes_, round_);
    bytes_ += bytes;
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
  uint64_t max_bytes_;
  uint64_t count_ = 0;
  uint64_t bytes_ = 0;
};

/// Counts the rows every operator of a run produces, across rounds and
/// LetRec iterations, against RunOptions::max_work. One per run, shared by
/// its dataflows (DataflowOptions::work, SnapshotEnv::work).
class WorkMeter {
 public:
  explicit WorkMeter(uint64_t limit) : limit_(limit) {}

  /// Counts `rows` produced in round `round`: WorkLimitError once the total
  /// passes the limit.
  absl::Status Add(uint64_t rows, uint64_t round) {
    if (rows > limit_ - used_) return WorkLimitError(limit_, round);
    used_ += rows;
    return absl::OkStatus();
  }

  uint64_t used() const { return used_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
};

/// The engines' check of one operator's output in one round: its rows
/// against `max_rows` (RowLimitError), their bytes against `max_bytes`
/// (ByteLimitError; not summed when unlimited), then the rows on the run's
/// `work` meter when there is one (WorkLimitError).
absl::Status CheckOperatorOutput(const Multiset& out, uint64_t max_rows,
                                 uint64_t max_bytes, WorkMeter* work,
                                 uint64_t round);

}  // namespace lir::eval

#endif  // LIR_EVAL_BUDGET_H_
