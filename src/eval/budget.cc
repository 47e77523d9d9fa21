// Budget errors: one wording for both engines (budget.h).
#include "lir/eval/budget.h"

#include "absl/strings/str_cat.h"

namespace lir::eval {

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

absl::Status OutOfMemoryError(uint64_t round) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "out of memory (std::bad_alloc) in round ", round,
      "; --max_rows_per_round bounds the rows an operator produces per "
      "round"));
}

}  // namespace lir::eval
