// Reduce and TopK: what one group produces.
#include <algorithm>
#include <compare>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/eval/scalar_eval.h"
#include "lir/status_macros.h"
#include "src/eval/operators.h"
#include "src/eval/values/eval_internal.h"
#include "src/eval/values/ordered_aggregates.h"

namespace lir::eval {

namespace {

/// One aggregate of a Reduce, in output order; it reads the val column with
/// the same position.
struct AggSpec {
  std::string func;
  bool distinct = false;
  /// Ordered aggregates and window functions (ordered_aggregates.h).
  std::optional<internal::OrderedAggregate> ordered;
};

bool IsSupportedAggregate(const std::string& func) {
  return func == "count" || func == "sum" || func == "min" || func == "max" ||
         func == "any" || func == "all";
}

absl::Status UnsupportedAggregate(const std::string& func) {
  return absl::UnimplementedError(absl::StrCat("unsupported aggregate ", func));
}

absl::StatusOr<AggSpec> SpecOf(const AggregateExpr& aggr) {
  if (internal::IsOrderedAggregate(aggr.func)) {
    LIR_ASSIGN_OR_RETURN(
        internal::OrderedAggregate ordered,
        internal::ParseOrderedAggregate(aggr.func, aggr.params));
    return AggSpec{aggr.func, aggr.distinct, std::move(ordered)};
  }
  if (aggr.params.has_value() || !IsSupportedAggregate(aggr.func)) {
    return UnsupportedAggregate(aggr.func);
  }
  return AggSpec{aggr.func, aggr.distinct, std::nullopt};
}

/// Whether the aggregate is a window function, whose result is a list that
/// `fused_unnest_list` may unnest.
bool IsWindowFunction(const std::string& func) {
  return func == "row_number" || func == "rank" || func == "dense_rank" ||
         func == "lag" || func == "lead" || func == "fused_value_window_func";
}

/// The Reduce's aggregates in output order (empty for Distinct), or why it
/// cannot run.
absl::StatusOr<std::vector<AggSpec>> AggregatesInOrder(const ReduceOp& op) {
  std::vector<AggSpec> out;
  switch (op.kind) {
    case ReduceKind::kDistinct: return out;
    case ReduceKind::kAccumulable: {
      const size_t n = op.simple_aggrs.size() + op.distinct_aggrs.size();
      std::vector<std::optional<AggSpec>> slots(n);
      for (const auto* list : {&op.simple_aggrs, &op.distinct_aggrs}) {
        for (const auto& [position, aggr] : *list) {
          LIR_ASSIGN_OR_RETURN(AggSpec spec, SpecOf(aggr));
          if (position < 0 || static_cast<size_t>(position) >= n ||
              slots[position].has_value()) {
            return absl::InvalidArgumentError(
                absl::StrCat("accumulable aggregate position ", position,
                             " is out of range or repeated"));
          }
          slots[position] = std::move(spec);
        }
      }
      for (std::optional<AggSpec>& slot : slots)
        out.push_back(std::move(*slot));
      return out;
    }
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed:
      for (const std::string& func : op.aggr_funcs) {
        if (func != "min" && func != "max") {
          return UnsupportedAggregate(func);
        }
        out.push_back({func, false, std::nullopt});
      }
      return out;
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple:
      for (const AggregateExpr& aggr : op.aggrs) {
        LIR_ASSIGN_OR_RETURN(AggSpec spec, SpecOf(aggr));
        out.push_back(std::move(spec));
      }
      // Materialize fuses the unnesting only into a single window function.
      if (op.fused_unnest_list &&
          (out.size() != 1 || !IsWindowFunction(out[0].func))) {
        return absl::UnimplementedError(
            "unsupported aggregate with fused_unnest_list");
      }
      return out;
  }
  return out;
}

absl::Status Overflow() {
  return absl::OutOfRangeError("integer out of range");
}

/// One aggregate over the consolidated val rows of a group (all
/// multiplicities positive).
absl::StatusOr<Datum> Aggregate(const AggSpec& spec, size_t column,
                                const Multiset& vals) {
  // The non-NULL inputs with their multiplicities (each value once, with
  // multiplicity 1, for DISTINCT).
  std::vector<std::pair<Datum, int64_t>> inputs;
  inputs.reserve(vals.size());
  for (const auto& [row, diff] : vals) {
    if (column >= row.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Reduce value row has ", row.size(),
                       " columns; aggregate ", column, " reads past them"));
    }
    if (!row[column].is_null()) inputs.push_back({row[column], diff});
  }
  if (spec.distinct) {
    std::sort(inputs.begin(), inputs.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    inputs.erase(std::unique(inputs.begin(), inputs.end(),
                             [](const auto& a, const auto& b) {
                               return a.first == b.first;
                             }),
                 inputs.end());
    for (auto& input : inputs) input.second = 1;
  }
  if (spec.ordered.has_value()) {
    return internal::EvalOrderedAggregate(*spec.ordered, inputs);
  }
  const std::string& f = spec.func;
  if (f == "count") {
    int64_t count = 0;
    for (const auto& input : inputs) {
      if (__builtin_add_overflow(count, input.second, &count))
        return Overflow();
    }
    return Datum::Int(count);
  }
  if (inputs.empty()) return Datum::Null();
  if (f == "sum") {
    int64_t int_sum = 0;
    double float_sum = 0;
    bool any_float = false;
    for (const auto& [v, diff] : inputs) {
      if (v.is_int()) {
        int64_t term = 0;
        if (__builtin_mul_overflow(v.as_int(), diff, &term) ||
            __builtin_add_overflow(int_sum, term, &int_sum)) {
          return Overflow();
        }
      } else if (v.is_float()) {
        any_float = true;
        float_sum += v.as_float() * static_cast<double>(diff);
      } else {
        return absl::InvalidArgumentError("sum of a non-numeric value");
      }
    }
    if (any_float)
      return Datum::Float(static_cast<double>(int_sum) + float_sum);
    return Datum::Int(int_sum);
  }
  if (f == "min" || f == "max") {
    const bool is_max = f == "max";
    const Datum* best = &inputs[0].first;
    for (const auto& input : inputs) {
      LIR_ASSIGN_OR_RETURN(int c, internal::SqlCompare(input.first, *best));
      if (is_max ? c > 0 : c < 0) best = &input.first;
    }
    return *best;
  }
  if (f == "any" || f == "all") {
    // bool_or / bool_and over the non-NULL inputs.
    const bool is_any = f == "any";
    bool result = !is_any;
    for (const auto& input : inputs) {
      if (!input.first.is_bool()) {
        return absl::InvalidArgumentError(
            absl::StrCat("aggregate ", f, " of a non-boolean value"));
      }
      if (input.first.as_bool() == is_any) result = is_any;
    }
    return Datum::Bool(result);
  }
  return UnsupportedAggregate(f);
}

/// Compares two rows by the TopK order keys; 0 when they tie on them.
int CompareByOrder(const std::vector<OrderKey>& order, const DataRow& a,
                   const DataRow& b) {
  static const Datum kNull;
  for (const OrderKey& key : order) {
    const size_t c = static_cast<size_t>(key.column);
    const Datum& x = c < a.size() ? a[c] : kNull;
    const Datum& y = c < b.size() ? b[c] : kNull;
    if (x.is_null() != y.is_null()) {
      // The NULL one goes last under nulls_last, first otherwise.
      return (x.is_null() == key.nulls_last) ? 1 : -1;
    }
    if (x.is_null()) continue;
    absl::StatusOr<int> cmp = internal::SqlCompare(x, y);
    // Values of kinds SQL cannot compare fall back to the Datum order.
    int r = cmp.ok() ? *cmp : ((x <=> y) < 0 ? -1 : ((x <=> y) > 0 ? 1 : 0));
    if (r != 0) return key.desc ? -r : r;
  }
  return 0;
}

}  // namespace

namespace internal {

absl::Status CheckReduce(const ReduceOp& op) {
  LIR_RETURN_IF_ERROR(AggregatesInOrder(op).status());
  if (op.input_key.has_value()) {
    for (const ScalarExpr& e : *op.input_key)
      LIR_RETURN_IF_ERROR(CheckScalar(e));
  }
  LIR_RETURN_IF_ERROR(CheckMfp(op.key_plan));
  LIR_RETURN_IF_ERROR(CheckMfp(op.val_plan));
  return CheckMfp(op.mfp_after);
}

}  // namespace internal

absl::StatusOr<CompiledReduce> CompiledReduce::Compile(const ReduceOp& op) {
  CompiledReduce out;
  out.op_ = &op;
  LIR_ASSIGN_OR_RETURN(out.key_plan_, CompiledMfp::Compile(op.key_plan));
  LIR_ASSIGN_OR_RETURN(out.val_plan_, CompiledMfp::Compile(op.val_plan));
  LIR_ASSIGN_OR_RETURN(out.mfp_after_, CompiledMfp::Compile(op.mfp_after));
  return out;
}

absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>>
CompiledReduce::KeyVal(const DataRow& row) const {
  LIR_ASSIGN_OR_RETURN(std::optional<DataRow> key, key_plan_.Eval(row));
  if (!key.has_value()) return std::nullopt;
  LIR_ASSIGN_OR_RETURN(std::optional<DataRow> val, val_plan_.Eval(row));
  if (!val.has_value()) return std::nullopt;
  return std::make_pair(std::move(*key), std::move(*val));
}

absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>> ReduceKeyVal(
    const ReduceOp& op, const DataRow& row) {
  LIR_ASSIGN_OR_RETURN(CompiledReduce compiled, CompiledReduce::Compile(op));
  return compiled.KeyVal(row);
}

absl::StatusOr<Multiset> ReduceGroup(const ReduceOp& op, const DataRow& key,
                                     const Multiset& vals) {
  LIR_ASSIGN_OR_RETURN(CompiledReduce compiled, CompiledReduce::Compile(op));
  return compiled.Group(key, vals);
}

absl::StatusOr<Multiset> CompiledReduce::Group(const DataRow& key,
                                               const Multiset& vals) const {
  const ReduceOp& op = *op_;
  LIR_ASSIGN_OR_RETURN(std::vector<AggSpec> specs, AggregatesInOrder(op));
  LIR_ASSIGN_OR_RETURN(const int64_t total, GroupTotal(vals));
  Multiset result;
  if (total == 0) return result;
  DataRow out = key;
  out.reserve(key.size() + specs.size());
  for (size_t p = 0; p < specs.size(); ++p) {
    LIR_ASSIGN_OR_RETURN(Datum value, Aggregate(specs[p], p, vals));
    out.push_back(std::move(value));
  }
  if (!op.fused_unnest_list) {
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> row,
                         mfp_after_.Eval(std::move(out)));
    if (row.has_value()) result.emplace_back(std::move(*row), 1);
    return result;
  }
  // fused_unnest_list: one row per element of the window function's list,
  // each then through mfp_after.
  const Datum list = std::move(out.back());
  out.pop_back();
  if (list.is_null()) return result;
  if (!list.is_list()) {
    return absl::InvalidArgumentError(
        "fused_unnest_list: the aggregate did not produce a list");
  }
  std::vector<RowDiff> rows;
  rows.reserve(list.elements().size());
  for (const Datum& element : list.elements()) {
    DataRow row = out;
    row.push_back(element);
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> kept,
                         mfp_after_.Eval(std::move(row)));
    if (kept.has_value()) rows.emplace_back(std::move(*kept), 1);
  }
  return Consolidate(std::move(rows));
}

DataRow TopKGroupKey(const TopKOp& op, const DataRow& row) {
  DataRow key;
  key.reserve(op.group_by.size());
  for (int c : op.group_by) {
    key.push_back(
        c >= 0 && static_cast<size_t>(c) < row.size() ? row[c] : Datum::Null());
  }
  return key;
}

absl::StatusOr<CompiledTopK> CompiledTopK::Compile(const TopKOp& op) {
  CompiledTopK out;
  out.op_ = &op;
  if (op.kind != TopKKind::kMonotonicTop1 && op.limit.has_value()) {
    LIR_ASSIGN_OR_RETURN(out.limit_, CompiledScalar::Compile(*op.limit));
  }
  return out;
}

absl::StatusOr<Multiset> TopKGroup(const TopKOp& op, const Multiset& rows) {
  LIR_ASSIGN_OR_RETURN(CompiledTopK compiled, CompiledTopK::Compile(op));
  return compiled.Group(rows);
}

absl::StatusOr<Multiset> CompiledTopK::Group(const Multiset& rows) const {
  const TopKOp& op = *op_;
  for (const auto& [row, diff] : rows) {
    if (diff < 0) {
      return absl::OutOfRangeError("negative multiplicity in TopK input");
    }
  }
  Multiset out;
  if (rows.empty()) return out;
  // nullopt: unlimited.
  std::optional<int64_t> limit;
  if (op.kind == TopKKind::kMonotonicTop1) {
    limit = 1;
  } else if (limit_.has_value()) {
    LIR_ASSIGN_OR_RETURN(Datum value,
                         limit_->Eval(TopKGroupKey(op, rows[0].first)));
    if (!value.is_null()) {
      if (!value.is_int() || value.as_int() < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("TopK limit must be a non-negative integer, not ",
                         FormatDatum(value)));
      }
      limit = value.as_int();
    }
  }
  int64_t skip = op.kind == TopKKind::kBasic ? op.offset : 0;
  if (skip < 0) return absl::InvalidArgumentError("TopK offset is negative");
  std::vector<const RowDiff*> sorted;
  sorted.reserve(rows.size());
  for (const RowDiff& r : rows) sorted.push_back(&r);
  // Ties on the order keys are broken by the whole row, so the result does
  // not depend on the input's order.
  std::sort(sorted.begin(), sorted.end(),
            [&](const RowDiff* a, const RowDiff* b) {
              int c = CompareByOrder(op.order_by, a->first, b->first);
              return c != 0 ? c < 0 : a->first < b->first;
            });
  int64_t remaining = limit.value_or(0);
  for (const RowDiff* r : sorted) {
    if (limit.has_value() && remaining == 0) break;
    int64_t count = r->second;
    const int64_t skipped = std::min(skip, count);
    skip -= skipped;
    count -= skipped;
    if (count == 0) continue;
    if (limit.has_value()) {
      count = std::min(count, remaining);
      remaining -= count;
    }
    out.push_back({r->first, count});
  }
  // The kept rows are a sub-multiset of `rows`: sort them back into row
  // order so the result is consolidated.
  std::sort(out.begin(), out.end(), [](const RowDiff& a, const RowDiff& b) {
    return a.first < b.first;
  });
  return out;
}

}  // namespace lir::eval
