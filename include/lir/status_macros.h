// Status propagation helpers used across lir, in the style of ZetaSQL's
// ZETASQL_RETURN_IF_ERROR / ZETASQL_ASSIGN_OR_RETURN.
#ifndef LIR_LIR_STATUS_MACROS_H_
#define LIR_LIR_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define LIR_STATUS_MACROS_CONCAT_INNER_(x, y) x##y
#define LIR_STATUS_MACROS_CONCAT_(x, y) LIR_STATUS_MACROS_CONCAT_INNER_(x, y)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define LIR_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::absl::Status lir_status_ = (expr);       \
    if (!lir_status_.ok()) return lir_status_; \
  } while (0)

#define LIR_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                               \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status,
// otherwise assigns the value to `lhs` (which may be a declaration).
#define LIR_ASSIGN_OR_RETURN(lhs, rexpr) \
  LIR_ASSIGN_OR_RETURN_IMPL_(            \
      LIR_STATUS_MACROS_CONCAT_(lir_statusor_, __LINE__), lhs, rexpr)

#endif  // LIR_LIR_STATUS_MACROS_H_
