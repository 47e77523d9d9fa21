// Temporal filters (Materialize's MfpPlan::create_from and
// MfpPlan::evaluate, expr/src/linear.rs).
#include "src/eval/values/temporal.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"
#include "src/explain/text_primitives.h"

namespace lir::eval {
namespace {

bool IsMzNow(const ScalarExpr& e) {
  return e.kind == ScalarKind::kCall && e.style == CallStyle::kFunction &&
         e.func == "mz_now" && e.args.empty() && !e.params.has_value();
}

bool ContainsMzNow(const ScalarExpr& e) {
  if (IsMzNow(e)) return true;
  return std::any_of(e.args.begin(), e.args.end(), ContainsMzNow);
}

absl::Status Misplaced(const char* where, const ScalarExpr& e) {
  return absl::InvalidArgumentError(absl::StrCat(
      "mz_now() ", where, ": ", explain::PrintExpr(e),
      " (only a filter `mz_now() op e` with op one of < <= > >= = is a "
      "temporal filter)"));
}

ScalarExpr Step(ScalarExpr e) {
  return ScalarExpr::Call(CallStyle::kFunction, "step_mz_timestamp",
                          {std::move(e)});
}

// The value of one bound: an mz_timestamp (a non-negative integer) or NULL.
absl::StatusOr<std::optional<int64_t>> EvalBound(const ScalarExpr& bound,
                                                 const CompiledScalar& compiled,
                                                 const DataRow& row) {
  LIR_ASSIGN_OR_RETURN(Datum v, compiled.Eval(row));
  if (v.is_null()) return std::nullopt;
  if (!v.is_int()) {
    return absl::InvalidArgumentError(
        absl::StrCat("temporal bound ", explain::PrintExpr(bound),
                     " is not an mz_timestamp: ", FormatDatum(v)));
  }
  if (v.as_int() < 0) {
    return absl::OutOfRangeError(absl::StrCat("temporal bound ",
                                              explain::PrintExpr(bound),
                                              " is negative: ", v.as_int()));
  }
  return v.as_int();
}

absl::Status BeyondLimit(const DataRow& row, int64_t round) {
  return absl::OutOfRangeError(absl::StrCat(
      "temporal filter: row ", FormatRow(row), " is due at round ", round,
      ", beyond the last round the evaluator runs (", kMaxTemporalRound, ")"));
}

}  // namespace

bool HasTemporal(const MapFilterProject& mfp) {
  if (mfp.temporal.has_value()) return true;
  return std::any_of(mfp.filter.begin(), mfp.filter.end(), ContainsMzNow);
}

absl::Status RejectTemporal(const MapFilterProject& mfp) {
  if (mfp.temporal.has_value()) {
    return absl::InvalidArgumentError(
        "a temporal filter where Materialize evaluates without time");
  }
  for (const ScalarExpr& e : mfp.map) {
    if (ContainsMzNow(e)) return Misplaced("in a map expression", e);
  }
  for (const ScalarExpr& e : mfp.filter) {
    if (ContainsMzNow(e)) {
      return Misplaced("in a filter where Materialize evaluates without time",
                       e);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TemporalMfp> PlanTemporal(const MapFilterProject& mfp) {
  TemporalMfp plan;
  plan.mfp = mfp;
  plan.mfp.temporal.reset();
  plan.mfp.filter.clear();
  if (mfp.temporal.has_value()) {
    plan.lower = mfp.temporal->lower;
    plan.upper = mfp.temporal->upper;
  }
  for (const ScalarExpr& e : mfp.map) {
    if (ContainsMzNow(e)) return Misplaced("in a map expression", e);
  }
  for (const ScalarExpr& filter : mfp.filter) {
    if (!ContainsMzNow(filter)) {
      plan.mfp.filter.push_back(filter);
      continue;
    }
    // `mz_now() op e`, or `e op mz_now()` (flipped), as create_from accepts.
    if (filter.kind != ScalarKind::kCall || filter.style != CallStyle::kInfix ||
        filter.args.size() != 2) {
      return Misplaced("inside a larger predicate", filter);
    }
    std::string op = filter.func;
    const ScalarExpr* bound = &filter.args[1];
    if (!IsMzNow(filter.args[0])) {
      if (!IsMzNow(filter.args[1])) {
        return Misplaced("inside a larger predicate", filter);
      }
      bound = &filter.args[0];
      if (op == "<")
        op = ">";
      else if (op == ">")
        op = "<";
      else if (op == "<=")
        op = ">=";
      else if (op == ">=")
        op = "<=";
    }
    if (ContainsMzNow(*bound)) {
      return Misplaced("compared with an expression that reads mz_now()",
                       filter);
    }
    if (op == "<") {
      plan.upper.push_back(*bound);
    } else if (op == "<=") {
      plan.upper.push_back(Step(*bound));
    } else if (op == ">") {
      plan.lower.push_back(Step(*bound));
    } else if (op == ">=") {
      plan.lower.push_back(*bound);
    } else if (op == "=") {
      plan.lower.push_back(*bound);
      plan.upper.push_back(Step(*bound));
    } else {
      return Misplaced("with an unsupported operator", filter);
    }
  }
  // Maps, then filters, then each bound: the order the checks report in.
  LIR_ASSIGN_OR_RETURN(plan.compiled_mfp, CompiledMfp::Compile(plan.mfp));
  for (auto [bounds, compiled] :
       {std::pair{&plan.lower, &plan.compiled_lower},
        std::pair{&plan.upper, &plan.compiled_upper}}) {
    for (const ScalarExpr& e : *bounds) {
      if (ContainsMzNow(e)) return Misplaced("inside a temporal bound", e);
      LIR_ASSIGN_OR_RETURN(CompiledScalar c, CompiledScalar::Compile(e));
      compiled->push_back(std::move(c));
    }
  }
  return plan;
}

absl::StatusOr<std::optional<TemporalRow>> EvalTemporal(const TemporalMfp& plan,
                                                        DataRow row) {
  if (!plan.temporal()) {
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> out,
                         plan.compiled_mfp.Eval(std::move(row)));
    if (!out.has_value()) return std::nullopt;
    return TemporalRow{*std::move(out), 0, std::nullopt};
  }
  // Every map column, as MfpPlan::evaluate computes them all before its
  // bounds (which may read them): project onto input ++ maps.
  const int input_arity = static_cast<int>(row.size());
  LIR_ASSIGN_OR_RETURN(std::optional<DataRow> wide,
                       plan.compiled_mfp.EvalWide(std::move(row)));
  if (!wide.has_value()) return std::nullopt;
  // Every bound is evaluated (an error in any is reported) before a NULL
  // one drops the row; Materialize skips the remaining upper bounds once
  // the interval is empty, which only changes which errors are seen.
  bool null_bound = false;
  TemporalRow out;
  for (size_t i = 0; i < plan.lower.size(); ++i) {
    LIR_ASSIGN_OR_RETURN(
        std::optional<int64_t> v,
        EvalBound(plan.lower[i], plan.compiled_lower[i], *wide));
    if (!v.has_value())
      null_bound = true;
    else
      out.lower = std::max(out.lower, *v);
  }
  for (size_t i = 0; i < plan.upper.size(); ++i) {
    LIR_ASSIGN_OR_RETURN(
        std::optional<int64_t> v,
        EvalBound(plan.upper[i], plan.compiled_upper[i], *wide));
    if (!v.has_value())
      null_bound = true;
    else
      out.upper = out.upper.has_value() ? std::min(*out.upper, *v) : *v;
  }
  if (null_bound) return std::nullopt;
  if (plan.mfp.project.has_value()) {
    out.row.reserve(plan.mfp.project->size());
    for (int c : *plan.mfp.project) {
      if (c < 0 || static_cast<size_t>(c) >= wide->size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("projected column #", c, " out of range for a row of ",
                         wide->size(), " columns"));
      }
      out.row.push_back((*wide)[c]);
    }
  } else {
    // ../shared/reference/SEMANTICS.md 8.1: without a projection only the input
    // columns are output.
    wide->resize(input_arity);
    out.row = *std::move(wide);
  }
  return out;
}

absl::Status ScheduleTemporal(const TemporalMfp& plan, DataRow row,
                              uint64_t time, int64_t diff,
                              std::map<uint64_t, std::vector<RowDiff>>* out) {
  LIR_ASSIGN_OR_RETURN(std::optional<TemporalRow> r,
                       EvalTemporal(plan, std::move(row)));
  if (!r.has_value()) return absl::OkStatus();
  const int64_t lower = std::max<int64_t>(
      r->lower, static_cast<int64_t>(std::min<uint64_t>(time, INT64_MAX)));
  if (r->upper.has_value() && *r->upper <= lower) return absl::OkStatus();
  if (lower > kMaxTemporalRound) return BeyondLimit(r->row, lower);
  if (r->upper.has_value() && *r->upper > kMaxTemporalRound) {
    return BeyondLimit(r->row, *r->upper);
  }
  if (r->upper.has_value()) {
    if (diff == INT64_MIN)
      return absl::OutOfRangeError("multiplicity out of 64-bit range");
    (*out)[static_cast<uint64_t>(*r->upper)].emplace_back(r->row, -diff);
  }
  (*out)[static_cast<uint64_t>(lower)].emplace_back(std::move(r->row), diff);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<DataRow>> EvalTemporalAt(
    const TemporalMfp& plan, DataRow row, uint64_t now,
    std::optional<uint64_t>* next) {
  LIR_ASSIGN_OR_RETURN(std::optional<TemporalRow> r,
                       EvalTemporal(plan, std::move(row)));
  if (!r.has_value()) return std::nullopt;
  if (!plan.temporal()) return std::move(r->row);
  if (r->upper.has_value() && *r->upper <= r->lower) return std::nullopt;
  const uint64_t lower = static_cast<uint64_t>(r->lower);
  // The checks ScheduleTemporal made when this row's update arrived (its
  // time is <= now): once the upper bound has passed they held.
  if (!r->upper.has_value() || static_cast<uint64_t>(*r->upper) > now) {
    if (r->lower > kMaxTemporalRound) return BeyondLimit(r->row, r->lower);
    if (r->upper.has_value() && *r->upper > kMaxTemporalRound) {
      return BeyondLimit(r->row, *r->upper);
    }
  }
  auto lower_next = [&](uint64_t t) {
    if (!next->has_value() || t < **next) *next = t;
  };
  if (lower > now) {
    lower_next(lower);
    return std::nullopt;
  }
  if (!r->upper.has_value()) return std::move(r->row);
  const uint64_t upper = static_cast<uint64_t>(*r->upper);
  if (upper <= now) return std::nullopt;
  lower_next(upper);
  return std::move(r->row);
}

}  // namespace lir::eval
