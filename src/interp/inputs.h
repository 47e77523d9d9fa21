// What a caller knows about a dataflow that its plan text does not say: the
// inputs of the analyses and of the passes that use them.
#ifndef LIR_INTERP_INPUTS_H_
#define LIR_INTERP_INPUTS_H_

#include <map>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace lir::interp {

/// Facts about the dataflow around a plan.
struct AnalysisInputs {
  /// The dataflow computes a single time (a one-shot SELECT), so reductions
  /// outside iterations emit no retractions.
  bool single_time = false;
  /// Printed names of global collections that are insert-only (monotonic
  /// sources and their indexes).
  std::set<std::string> monotonic_ids;
  /// Arities of global collections by printed name.
  std::map<std::string, int> global_arity;
};

/// Adds the ids of `a,b,...` to `*ids` (empty items are skipped).
void ParseIdList(absl::string_view list, std::set<std::string>* ids);

/// Adds `name=N,name=N,...` to `*arities`. Each N is a non-negative integer;
/// a name may be given twice only with the same arity. Errors name the
/// offending item.
absl::Status ParseArityList(absl::string_view list,
                            std::map<std::string, int>* arities);

}  // namespace lir::interp

#endif  // LIR_INTERP_INPUTS_H_
