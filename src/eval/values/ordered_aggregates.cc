// Ordered aggregates and window functions (see ordered_aggregates.h).
#include "src/eval/values/ordered_aggregates.h"

#include <algorithm>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/budget.h"
#include "lir/status_macros.h"
#include "src/explain/text_primitives.h"

namespace lir::eval::internal {
namespace {

// More inputs than this (counting multiplicities) in one group is an error
// rather than an attempt to materialize them all.
constexpr int64_t kMaxInputs = 10'000'000;

absl::Status Unsupported(const std::string& func,
                         const std::optional<std::string>& params) {
  return absl::UnimplementedError(
      absl::StrCat("unsupported aggregate ", func,
                   params.has_value() ? absl::StrCat("[", *params, "]") : ""));
}

absl::Status Shape(const std::string& func, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat(func, ": ", std::string(what)));
}

bool IsLagLead(std::string_view func) {
  return func == "lag" || func == "lead";
}

// `order_by=[keys]` -> the keys; nullopt when `text` is not of that form.
std::optional<std::vector<OrderKey>> ParseOrderBy(std::string_view text) {
  constexpr std::string_view kPrefix = "order_by=[";
  if (!text.starts_with(kPrefix) || !text.ends_with("]")) {
    return std::nullopt;
  }
  text.remove_prefix(kPrefix.size());
  text.remove_suffix(1);
  size_t error_pos = 0;
  absl::StatusOr<std::vector<OrderKey>> keys =
      explain::ParseOrderKeys(text, &error_pos);
  if (!keys.ok()) return std::nullopt;
  return *std::move(keys);
}

// Splits `text` at the `, ` separators outside brackets.
std::vector<std::string_view> SplitTopLevel(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (depth == 0 && text.substr(i, 2) == ", ") {
      parts.push_back(text.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// The fields of an input record, or InvalidArgument.
absl::StatusOr<const std::vector<Datum>*> Fields(const std::string& func,
                                                 const Datum& record,
                                                 size_t at_least) {
  if (!record.is_list() || record.elements().size() < at_least) {
    return Shape(func, absl::StrCat("expected a record of at least ", at_least,
                                    " fields, got ", FormatDatum(record)));
  }
  return &record.elements();
}

// Orders two input records by the order keys (fields 1..), then by the
// payload (field 0), in Materialize's datum order.
int CompareInputs(const std::vector<OrderKey>& order_by, const Datum& a,
                  const Datum& b) {
  const std::vector<Datum>& x = a.elements();
  const std::vector<Datum>& y = b.elements();
  for (const OrderKey& key : order_by) {
    const Datum& u = x[1 + static_cast<size_t>(key.column)];
    const Datum& v = y[1 + static_cast<size_t>(key.column)];
    int c = 0;
    if (u.is_null() || v.is_null()) {
      if (u.is_null() && v.is_null()) continue;
      c = u.is_null() ? 1 : -1;
      if (!key.nulls_last) c = -c;
    } else {
      c = MzCompare(u, v);
      if (key.desc) c = -c;
    }
    if (c != 0) return c;
  }
  return MzCompare(x[0], y[0]);
}

// Whether two input records have equal order keys (rank's peers).
bool SameOrderKeys(const std::vector<OrderKey>& order_by, const Datum& a,
                   const Datum& b) {
  for (const OrderKey& key : order_by) {
    const size_t f = 1 + static_cast<size_t>(key.column);
    if (a.elements()[f] != b.elements()[f]) return false;
  }
  return true;
}

// The input records, each repeated by its multiplicity, sorted.
absl::StatusOr<std::vector<const Datum*>> SortedInputs(
    const OrderedAggregate& spec,
    const std::vector<std::pair<Datum, int64_t>>& inputs) {
  size_t width = 1;
  for (const OrderKey& key : spec.order_by) {
    if (key.column < 0) return Shape(spec.func, "negative order key column");
    width = std::max(width, 2 + static_cast<size_t>(key.column));
  }
  int64_t total = 0;
  for (const auto& [record, diff] : inputs) {
    LIR_RETURN_IF_ERROR(Fields(spec.func, record, width).status());
    if (diff <= 0) {
      return absl::OutOfRangeError(
          absl::StrCat(spec.func, ": non-positive multiplicity ", diff));
    }
    if (__builtin_add_overflow(total, diff, &total) || total > kMaxInputs) {
      return absl::OutOfRangeError(absl::StrCat(
          spec.func, ": more than ", kMaxInputs, " inputs in one group"));
    }
  }
  std::vector<const Datum*> sorted;
  sorted.reserve(static_cast<size_t>(total));
  for (const auto& [record, diff] : inputs) {
    for (int64_t i = 0; i < diff; ++i) sorted.push_back(&record);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const Datum* a, const Datum* b) {
                     return CompareInputs(spec.order_by, *a, *b) < 0;
                   });
  return sorted;
}

const Datum& Payload(const Datum* record) { return record->elements()[0]; }

absl::StatusOr<Datum> StringAgg(const std::string& func,
                                const std::vector<const Datum*>& sorted) {
  std::string out;
  bool any = false;
  for (const Datum* record : sorted) {
    const Datum& payload = Payload(record);
    if (payload.is_null()) continue;
    LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* value_sep,
                         Fields(func, payload, 2));
    const Datum& value = (*value_sep)[0];
    const Datum& sep = (*value_sep)[1];
    if (value.is_null()) continue;
    if (!value.is_string() || !(sep.is_null() || sep.is_string())) {
      return Shape(func, "expected a string value and separator");
    }
    // The first value is not preceded by its separator; a NULL separator
    // is the empty string.
    const size_t added = (any && sep.is_string() ? sep.as_string().size() : 0) +
                         value.as_string().size();
    LIR_RETURN_IF_ERROR(CheckValueBytes(out.size() + added));
    if (any && sep.is_string()) out += sep.as_string();
    out += value.as_string();
    any = true;
  }
  if (!any) return Datum::Null();
  return Datum::String(std::move(out));
}

// lag/lead over the sorted partition: `args[i]` = (value, offset, default)
// of row i. Materialize's lag_lead_inner.
absl::StatusOr<std::vector<Datum>> LagLead(
    const OrderedAggregate& spec,
    const std::vector<const std::vector<Datum>*>& args) {
  const int64_t n = static_cast<int64_t>(args.size());
  auto value_at = [&](__int128 j) -> const Datum* {
    if (j < 0 || j >= n) return nullptr;
    return &(*args[static_cast<size_t>(j)])[0];
  };
  std::vector<Datum> out;
  out.reserve(args.size());
  for (int64_t idx = 0; idx < n; ++idx) {
    const Datum& offset_datum = (*args[idx])[1];
    const Datum& default_value = (*args[idx])[2];
    // A NULL offset gives NULL.
    if (offset_datum.is_null()) {
      out.push_back(Datum::Null());
      continue;
    }
    if (!offset_datum.is_int()) {
      return Shape(spec.func, "the offset is not an integer");
    }
    // lag looks back, lead ahead; a negative offset looks the other way.
    __int128 offset = offset_datum.as_int();
    if (spec.func == "lag") offset = -offset;
    if (!spec.ignore_nulls) {
      const Datum* found = value_at(idx + offset);
      out.push_back(found != nullptr ? *found : default_value);
      continue;
    }
    if (offset == 0) {
      // Materialize panics here ("0 offset in lag/lead IGNORE NULLS") when
      // the current value is NULL; an error is the non-crashing equivalent.
      const Datum& current = *value_at(idx);
      if (current.is_null()) {
        return Shape(spec.func, "offset 0 with IGNORE NULLS on a NULL value");
      }
      out.push_back(current);
      continue;
    }
    // Step over |offset| non-NULL values, skipping NULLs, until the
    // partition ends (then the default). Each step moves at least one row,
    // so this ends within n steps.
    const int increment = offset > 0 ? 1 : -1;
    const __int128 steps = offset > 0 ? offset : -offset;
    __int128 j = idx;
    for (__int128 s = 0; s < steps; ++s) {
      j += increment;
      while (value_at(j) != nullptr && value_at(j)->is_null()) j += increment;
      if (value_at(j) == nullptr) break;
    }
    const Datum* found = value_at(j);
    out.push_back(found != nullptr ? *found : default_value);
  }
  return out;
}

// lag/lead: payload = (original row, (value, offset, default)).
absl::StatusOr<Datum> LagLeadList(const OrderedAggregate& spec,
                                  const std::vector<const Datum*>& sorted) {
  std::vector<const std::vector<Datum>*> args;
  args.reserve(sorted.size());
  for (const Datum* record : sorted) {
    LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* payload,
                         Fields(spec.func, Payload(record), 2));
    LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* encoded,
                         Fields(spec.func, (*payload)[1], 3));
    args.push_back(encoded);
  }
  LIR_ASSIGN_OR_RETURN(std::vector<Datum> results, LagLead(spec, args));
  std::vector<Datum> out;
  out.reserve(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) {
    out.push_back(
        Datum::List({std::move(results[i]), Payload(sorted[i]).elements()[0]}));
  }
  return Datum::List(std::move(out));
}

// fused_value_window_func: payload = (original row, (args1, args2, ...)).
absl::StatusOr<Datum> FusedList(const OrderedAggregate& spec,
                                const std::vector<const Datum*>& sorted) {
  const size_t k = spec.fused.size();
  std::vector<std::vector<const std::vector<Datum>*>> args(k);
  for (const Datum* record : sorted) {
    LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* payload,
                         Fields(spec.func, Payload(record), 2));
    LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* argss,
                         Fields(spec.func, (*payload)[1], k));
    for (size_t f = 0; f < k; ++f) {
      LIR_ASSIGN_OR_RETURN(const std::vector<Datum>* encoded,
                           Fields(spec.func, (*argss)[f], 3));
      args[f].push_back(encoded);
    }
  }
  std::vector<std::vector<Datum>> results(sorted.size());
  for (size_t f = 0; f < k; ++f) {
    LIR_ASSIGN_OR_RETURN(std::vector<Datum> column,
                         LagLead(spec.fused[f], args[f]));
    for (size_t i = 0; i < sorted.size(); ++i) {
      results[i].push_back(std::move(column[i]));
    }
  }
  std::vector<Datum> out;
  out.reserve(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) {
    out.push_back(Datum::List({Datum::List(std::move(results[i])),
                               Payload(sorted[i]).elements()[0]}));
  }
  return Datum::List(std::move(out));
}

// row_number, rank, dense_rank: payload = a list of original rows (all
// peers of one input record).
absl::StatusOr<Datum> Numbering(const OrderedAggregate& spec,
                                const std::vector<const Datum*>& sorted) {
  std::vector<Datum> out;
  int64_t row_number = 0;
  int64_t rank = 0;
  int64_t dense_rank = 0;
  const Datum* previous = nullptr;
  for (const Datum* record : sorted) {
    const Datum& rows = Payload(record);
    if (!rows.is_list()) {
      return Shape(spec.func, "expected a list of rows as the payload");
    }
    for (const Datum& row : rows.elements()) {
      ++row_number;
      if (previous == nullptr ||
          !SameOrderKeys(spec.order_by, *previous, *record)) {
        rank = row_number;
        ++dense_rank;
      }
      previous = record;
      const int64_t result = spec.func == "row_number" ? row_number
                             : spec.func == "rank"     ? rank
                                                       : dense_rank;
      out.push_back(Datum::List({Datum::Int(result), row}));
    }
  }
  return Datum::List(std::move(out));
}

}  // namespace

bool IsOrderedAggregate(const std::string& func) {
  return func == "array_agg" || func == "list_agg" || func == "string_agg" ||
         func == "jsonb_agg" || func == "row_number" || func == "rank" ||
         func == "dense_rank" || IsLagLead(func) ||
         func == "fused_value_window_func";
}

absl::StatusOr<OrderedAggregate> ParseOrderedAggregate(
    const std::string& func, const std::optional<std::string>& params) {
  if (!IsOrderedAggregate(func) || !params.has_value()) {
    return Unsupported(func, params);
  }
  OrderedAggregate out;
  out.func = func;
  std::string_view text = *params;
  if (func == "fused_value_window_func") {
    // `f1[p1], f2[p2] order_by=[...]`: the outer order_by is the last one
    // preceded by a space (the fused ones follow a `[`).
    const size_t split = text.rfind(" order_by=[");
    if (split == std::string_view::npos) return Unsupported(func, params);
    std::optional<std::vector<OrderKey>> order_by =
        ParseOrderBy(text.substr(split + 1));
    if (!order_by.has_value()) return Unsupported(func, params);
    out.order_by = *std::move(order_by);
    for (std::string_view part : SplitTopLevel(text.substr(0, split))) {
      const size_t open = part.find('[');
      if (open == std::string_view::npos || !part.ends_with("]")) {
        return Unsupported(func, params);
      }
      const std::string name(part.substr(0, open));
      // Only lag/lead are implemented among the fusable functions
      // (first_value/last_value carry window frames).
      if (!IsLagLead(name)) return Unsupported(func, params);
      LIR_ASSIGN_OR_RETURN(
          OrderedAggregate inner,
          ParseOrderedAggregate(name, std::string(part.substr(
                                          open + 1, part.size() - open - 2))));
      if (inner.order_by != out.order_by) {
        return absl::InvalidArgumentError(
            absl::StrCat("fused_value_window_func: ", name,
                         " has another order_by than the fused function"));
      }
      out.fused.push_back(std::move(inner));
    }
    if (out.fused.empty()) return Unsupported(func, params);
    return out;
  }
  constexpr std::string_view kIgnoreNulls = "ignore_nulls=true, ";
  if (IsLagLead(func) && text.starts_with(kIgnoreNulls)) {
    text.remove_prefix(kIgnoreNulls.size());
    out.ignore_nulls = true;
  }
  std::optional<std::vector<OrderKey>> order_by = ParseOrderBy(text);
  if (!order_by.has_value()) return Unsupported(func, params);
  out.order_by = *std::move(order_by);
  return out;
}

absl::StatusOr<Datum> EvalOrderedAggregate(
    const OrderedAggregate& spec,
    const std::vector<std::pair<Datum, int64_t>>& inputs) {
  LIR_ASSIGN_OR_RETURN(std::vector<const Datum*> sorted,
                       SortedInputs(spec, inputs));
  const std::string& f = spec.func;
  if (f == "array_agg" || f == "list_agg") {
    // Concatenates the payload arrays (lists) in order.
    const bool arrays = f == "array_agg";
    std::vector<Datum> elements;
    uint64_t bytes = 0;
    for (const Datum* record : sorted) {
      const Datum& payload = Payload(record);
      if (payload.is_null()) continue;
      if (arrays ? !payload.is_array() : !payload.is_list()) {
        return Shape(f, arrays ? "expected an array payload"
                               : "expected a list payload");
      }
      bytes += payload.as_nested().bytes;
      LIR_RETURN_IF_ERROR(CheckValueBytes(bytes));
      elements.insert(elements.end(), payload.elements().begin(),
                      payload.elements().end());
    }
    return arrays ? Datum::Array(std::move(elements))
                  : Datum::List(std::move(elements));
  }
  if (f == "string_agg") return StringAgg(f, sorted);
  if (f == "jsonb_agg") {
    // A jsonb array is a list datum; SQL NULL payloads are left out.
    std::vector<Datum> elements;
    for (const Datum* record : sorted) {
      if (!Payload(record).is_null()) elements.push_back(Payload(record));
    }
    return Datum::List(std::move(elements));
  }
  if (IsLagLead(f)) return LagLeadList(spec, sorted);
  if (f == "fused_value_window_func") return FusedList(spec, sorted);
  if (f == "row_number" || f == "rank" || f == "dense_rank") {
    return Numbering(spec, sorted);
  }
  return Unsupported(f, std::nullopt);
}

}  // namespace lir::eval::internal
