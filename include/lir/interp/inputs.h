// What a caller knows about a dataflow that its plan text does not say: the
// inputs of the analyses and of the passes that use them.
#ifndef LIR_INTERP_INPUTS_H_
#define LIR_INTERP_INPUTS_H_

#include <map>
#include <set>
#include <string>
#include <vector>

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
  /// Unique keys of global collections by printed name: each a list of
  /// columns of the collection's row on which no value occurs twice (an
  /// empty list: at most one row). For the unique-keys analysis.
  std::map<std::string, std::vector<std::vector<int>>> global_unique_keys;
  /// Where global_arity's entry for a collection came from, as errors name
  /// it: `catalog.json:2:3: collections["t"]: the catalog gives arity 3`,
  /// `--arity=t=3`. Optional; CheckGlobalFacts names an entry without one by
  /// the collection and the value.
  std::map<std::string, std::string> global_arity_origin;
  /// Where global_unique_keys' entry for a collection came from, likewise
  /// (`catalog.json:2:3: collections["t"]`).
  std::map<std::string, std::string> global_keys_origin;
};

}  // namespace lir::interp

#endif  // LIR_INTERP_INPUTS_H_
