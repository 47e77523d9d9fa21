// Internal to lir_interp: lending a caller's analysis to an interpreter for
// the duration of one call.
#ifndef LIR_SRC_INTERP_BORROW_INTERNAL_H_
#define LIR_SRC_INTERP_BORROW_INTERNAL_H_

#include <memory>

namespace lir::interp::interp_internal {

/// A shared_ptr to `*value` that owns nothing (null when `value` is):
/// the aliasing constructor with an empty owner. Only for an interpreter
/// that is constructed, run and destroyed within one function call that
/// received `value` from its caller (AnalyzeArrangements and its kind), so
/// it cannot outlive `value`; this spares those functions a copy of an
/// analysis as large as the plan. Interpreters a caller constructs own or
/// share what they read.
template <typename T>
std::shared_ptr<const T> BorrowForThisCall(const T* value) {
  return std::shared_ptr<const T>(std::shared_ptr<const T>(), value);
}

}  // namespace lir::interp::interp_internal

#endif  // LIR_SRC_INTERP_BORROW_INTERNAL_H_
