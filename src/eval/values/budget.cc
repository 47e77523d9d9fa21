// Budget errors: one wording for both engines (budget.h).
#include "lir/eval/budget.h"

#include "absl/strings/str_cat.h"

namespace lir::eval {
namespace {

thread_local uint64_t max_value_bytes = kDefaultMaxValueBytes;

}  // namespace

uint64_t MaxValueBytes() { return max_value_bytes; }

absl::Status CheckValueBytes(uint64_t bytes) {
  return bytes > max_value_bytes ? ValueLimitError(bytes, max_value_bytes)
                                 : absl::OkStatus();
}

ScopedValueLimit::ScopedValueLimit(uint64_t limit)
    : previous_(max_value_bytes) {
  max_value_bytes = limit;
}

ScopedValueLimit::~ScopedValueLimit() { max_value_bytes = previous_; }

absl::Status RowLimitError(uint64_t limit, uint64_t round) {
  return absl::ResourceExhaustedError(
      absl::StrCat("produced more than ", limit, " rows in round ", round,
                   " (the limit per operator and round; raise it with "
                   "--max_rows_per_round=N, RunOptions::max_rows_per_round)"));
}

absl::Status IterationLimitError(uint64_t limit) {
  return absl::ResourceExhaustedError(
      absl::StrCat("did not converge in ", limit,
                   " iterations (the limit; raise it with --max_iterations=N, "
                   "RunOptions::max_iterations)"));
}

absl::Status WorkLimitError(uint64_t limit, uint64_t round) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "the run's operators produced more than ", limit,
      " rows in all by round ", round,
      " (the work limit of a run, every LetRec iteration counted; raise it "
      "with --max_work=N, RunOptions::max_work)"));
}

absl::Status ByteLimitError(uint64_t limit, uint64_t round) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "produced more than ", limit, " bytes of rows in round ", round,
      " (the limit per operator and round; raise it with "
      "--max_bytes_per_round=N, RunOptions::max_bytes_per_round)"));
}

absl::Status ValueLimitError(uint64_t bytes, uint64_t limit) {
  return absl::ResourceExhaustedError(
      absl::StrCat("a value of ", bytes, " bytes passes the limit of ", limit,
                   " bytes per value (raise it with --max_value_bytes=N, "
                   "RunOptions::max_value_bytes)"));
}

absl::Status CheckOperatorOutput(const Multiset& out, uint64_t max_rows,
                                 uint64_t max_bytes, WorkMeter* work,
                                 uint64_t round) {
  if (out.size() > max_rows) return RowLimitError(max_rows, round);
  if (max_bytes != kUnlimited) {
    uint64_t bytes = 0;
    for (const RowDiff& entry : out) {
      bytes += RowBytes(entry.first);
      if (bytes > max_bytes) return ByteLimitError(max_bytes, round);
    }
  }
  return work == nullptr ? absl::OkStatus() : work->Add(out.size(), round);
}

absl::Status OutOfMemoryError(uint64_t round) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "out of memory (std::bad_alloc) in round ", round,
      "; --max_rows_per_round and --max_bytes_per_round bound what an "
      "operator produces per round, --max_value_bytes one value"));
}

}  // namespace lir::eval
