// Aggregates whose result depends on the order of their inputs: the
// ordered aggregates (`array_agg`, `list_agg`, `string_agg`, `jsonb_agg`)
// and the window functions as Materialize lowers them into a Reduce
// (`row_number`, `rank`, `dense_rank`, `lag`, `lead`,
// `fused_value_window_func`). Internal to the evaluator (operators_reduce.cc
// uses it); the meaning is Materialize's `AggregateFunc::eval`
// (expr/src/relation/func.rs).
//
// Every input is a record `row(payload, k0, k1, ...)`: the `order_by` keys
// (`#i` is `ki`) sort the inputs, ties broken by the payload in
// Materialize's datum order (NULL last), so the result does not depend on
// the order the inputs arrive in.
#ifndef LIR_EVAL_VALUES_ORDERED_AGGREGATES_H_
#define LIR_EVAL_VALUES_ORDERED_AGGREGATES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/scalar.h"

namespace lir::eval::internal {

/// An ordered aggregate or window function with its parsed parameters.
struct OrderedAggregate {
  /// `array_agg`, `list_agg`, `string_agg`, `jsonb_agg`, `row_number`,
  /// `rank`, `dense_rank`, `lag`, `lead`, `fused_value_window_func`.
  std::string func;
  /// `order_by=[...]`: positions among the record's fields after the first.
  std::vector<OrderKey> order_by;
  /// lag/lead: `ignore_nulls=true`.
  bool ignore_nulls = false;
  /// fused_value_window_func: the fused functions (lag/lead), in order.
  std::vector<OrderedAggregate> fused;
};

/// Whether `func` names an aggregate this file implements (its parameters
/// may still be unsupported).
bool IsOrderedAggregate(const std::string& func);

/// Parses the printed parameters (`order_by=[#0 asc nulls_last]`,
/// `ignore_nulls=true, order_by=[]`, `lag[order_by=[]], lead[order_by=[]]
/// order_by=[]`). Unimplemented `unsupported aggregate NAME[PARAMS]` for
/// parameters it does not know (window frames, fused first_value, ...).
absl::StatusOr<OrderedAggregate> ParseOrderedAggregate(
    const std::string& func, const std::optional<std::string>& params);

/// The aggregate over one group's inputs: non-NULL records with positive
/// multiplicities (an input with multiplicity n counts as n inputs, as in
/// Materialize). Window functions return a list with one element per input
/// (`row(result, original row)`); InvalidArgument when an input does not
/// have the record shape the function reads, OutOfRange when the group
/// holds more than 10^7 inputs (counting multiplicities).
absl::StatusOr<Datum> EvalOrderedAggregate(
    const OrderedAggregate& spec,
    const std::vector<std::pair<Datum, int64_t>>& inputs);

}  // namespace lir::eval::internal

#endif  // LIR_EVAL_VALUES_ORDERED_AGGREGATES_H_
