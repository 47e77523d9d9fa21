// The monotonicity interpreter's transfer functions.
#include "lir/interp/monotonicity.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "lir/interp/driver.h"

namespace lir::interp {
namespace {

bool CallsMzNow(const ScalarExpr& expr) {
  // Expressions are shallow (ParseExpr bounds their depth), so recursion is
  // fine here.
  if (expr.kind == ScalarKind::kCall && expr.func == "mz_now") return true;
  if (expr.kind == ScalarKind::kOpaque &&
      absl::StrContains(expr.opaque, "mz_now()")) {
    return true;
  }
  for (const ScalarExpr& arg : expr.args) {
    if (CallsMzNow(arg)) return true;
  }
  return false;
}

}  // namespace

bool HasTemporalPredicates(const MapFilterProject& mfp) {
  if (mfp.temporal.has_value()) return true;
  for (const ScalarExpr& predicate : mfp.filter) {
    if (CallsMzNow(predicate)) return true;
  }
  return false;
}

bool TableFunctionPreservesMonotonicity(std::string_view func) {
  std::string_view name = func.substr(0, func.find_first_of("([ "));
  // Materialize's TableFunc::preserves_monotonicity: every function emits
  // rows only for rows it receives, except `repeat_row`, whose negative
  // counts emit retractions.
  static constexpr std::string_view kPreserving[] = {
      "aclexplode",           "mz_aclexplode",
      "csv_extract",          "generate_series",
      "generate_subscripts",  "guard_subquery_size",
      "jsonb_array_elements", "jsonb_array_elements_text",
      "jsonb_each",           "jsonb_each_text",
      "jsonb_object_keys",    "regexp_extract",
      "regexp_matches",       "regexp_split_to_table",
      "unnest_array",         "unnest_list",
      "unnest_map",
  };
  for (std::string_view known : kPreserving) {
    if (name == known) return true;
  }
  // `wrap2`, `wrap3`, ...: VALUES lists folded into one row.
  if (name.starts_with("wrap") && name.size() > 4) {
    for (char c : name.substr(4)) {
      if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
  }
  return false;
}

PhysicallyMonotonic MonotonicityInterpreter::VisitConstant(
    const Context<PhysicallyMonotonic>&, const Node&,
    const ConstantOp& op) const {
  if (op.error.has_value()) return {true};
  if (op.elided_total_rows.has_value()) return {false};
  for (const ConstantOp::Entry& entry : op.rows) {
    if (entry.diff <= 0) return {false};
  }
  return {true};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitGet(
    const Context<PhysicallyMonotonic>& ctx, const Node&,
    const GetOp& op) const {
  if (!op.id.is_local) return {monotonic_globals_.count(op.id.global) > 0};
  const Binding<PhysicallyMonotonic>* binding = ctx.Find(op.id.local);
  return {binding != nullptr && !binding->recursive &&
          binding->value.monotonic};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitMfp(
    const Context<PhysicallyMonotonic>&, const Node&, const MfpOp& op,
    const PhysicallyMonotonic& input) const {
  return {input.monotonic && !HasTemporalPredicates(op.mfp)};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitFlatMap(
    const Context<PhysicallyMonotonic>&, const Node&, const FlatMapOp& op,
    const PhysicallyMonotonic& input) const {
  return {input.monotonic && TableFunctionPreservesMonotonicity(op.func) &&
          !HasTemporalPredicates(op.mfp_after)};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitJoin(
    const Context<PhysicallyMonotonic>&, const Node&, const JoinOp&,
    std::span<const PhysicallyMonotonic> inputs) const {
  for (const PhysicallyMonotonic& input : inputs) {
    if (!input.monotonic) return {false};
  }
  return {true};
}

// A reduction in a single-time dataflow emits its output once, without
// retractions, unless it runs inside an iteration.
PhysicallyMonotonic MonotonicityInterpreter::VisitReduce(
    const Context<PhysicallyMonotonic>& ctx, const Node&, const ReduceOp&,
    const PhysicallyMonotonic&) const {
  return {!ctx.recursive()};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitTopK(
    const Context<PhysicallyMonotonic>& ctx, const Node&, const TopKOp&,
    const PhysicallyMonotonic&) const {
  return {!ctx.recursive()};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitNegate(
    const Context<PhysicallyMonotonic>&, const Node&, const NegateOp&,
    const PhysicallyMonotonic&) const {
  return {false};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitThreshold(
    const Context<PhysicallyMonotonic>& ctx, const Node&, const ThresholdOp&,
    const PhysicallyMonotonic&) const {
  return {!ctx.recursive()};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitUnion(
    const Context<PhysicallyMonotonic>&, const Node&, const UnionOp&,
    std::span<const PhysicallyMonotonic> inputs) const {
  // Even a consolidating Union may pass on an uncancelled retraction (the
  // EXCEPT pattern), so it needs all inputs monotonic.
  for (const PhysicallyMonotonic& input : inputs) {
    if (!input.monotonic) return {false};
  }
  return {true};
}

PhysicallyMonotonic MonotonicityInterpreter::VisitArrangeBy(
    const Context<PhysicallyMonotonic>&, const Node&, const ArrangeByOp&,
    const PhysicallyMonotonic& input) const {
  return input;
}

// The fused node is a Threshold over its two arms.
PhysicallyMonotonic MonotonicityInterpreter::VisitSetDifference(
    const Context<PhysicallyMonotonic>& ctx, const Node&,
    const SetDifferenceOp&, const PhysicallyMonotonic&,
    const PhysicallyMonotonic&) const {
  return {!ctx.recursive()};
}

// It carries retractions, like the Union(base, Negate(...)) it stands for
// (SEMANTICS 7.1).
PhysicallyMonotonic MonotonicityInterpreter::VisitAntiJoin(
    const Context<PhysicallyMonotonic>&, const Node&, const AntiJoinOp&,
    const PhysicallyMonotonic&, const PhysicallyMonotonic&) const {
  return {false};
}

absl::StatusOr<Analysis<PhysicallyMonotonic>> AnalyzeMonotonicity(
    const Node& plan, const std::set<std::string>& monotonic_globals) {
  return Analyze(MonotonicityInterpreter(monotonic_globals), plan);
}

}  // namespace lir::interp
