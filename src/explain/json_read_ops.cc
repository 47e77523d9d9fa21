// The JSON readers of the two largest node payloads, Join (paths, stages,
// closures) and Reduce (aggregates), split from json_read.cc.
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"
#include "src/explain/json_names.h"
#include "src/explain/json_reader.h"

namespace lir::explain::internal {
namespace {

absl::Status ReadEquivalences(const json& value, const JsonPath& path,
                              std::vector<std::vector<ScalarExpr>>& out) {
  return ReadList(value, path, out, ReadExprs);
}

absl::Status ReadClosure(const json& value, const JsonPath& path,
                         JoinClosure& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Optional(fields, "mfp", out.mfp, ReadMfp));
  LIR_RETURN_IF_ERROR(Optional(fields, "ready_equivalences",
                               out.ready_equivalences, ReadEquivalences));
  return fields.Finish("a join closure");
}

absl::Status ReadStage(const json& value, const JsonPath& path,
                       JoinStage& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "closure", out.closure, ReadClosure));
  LIR_RETURN_IF_ERROR(
      Required(fields, "lookup_relation", out.lookup_relation, ReadPosition));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "lookup_key", out.lookup_key, ReadExprs));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "stream_key", out.stream_key, ReadExprs));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "stream_thinning", out.stream_thinning, ReadPositions));
  return fields.Finish("a join stage");
}

absl::Status ReadPath(const json& value, const JsonPath& path, JoinPath& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(
      Required(fields, "source_relation", out.source_relation, ReadPosition));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "source_key", out.source_key, ReadExprs));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "initial_closure",
                                    out.initial_closure, ReadClosure));
  LIR_RETURN_IF_ERROR(Optional(
      fields, "stages", out.stages,
      [](const json& v, const JsonPath& p, std::vector<JoinStage>& stages) {
        return ReadList(v, p, stages, ReadStage);
      }));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "final_closure", out.final_closure, ReadClosure));
  return fields.Finish("a join path");
}

}  // namespace

absl::Status ReadJoin(Fields& fields, JoinOp& op) {
  static constexpr std::array<std::string_view, 2> kJoinKinds = {"Linear",
                                                                 "Delta"};
  int join_kind = 0;
  LIR_RETURN_IF_ERROR(Required(fields, "join_kind", join_kind,
                               [](const json& v, const JsonPath& p, int& k) {
                                 return ReadEnum(v, p, kJoinKinds, k);
                               }));
  op.delta = join_kind == 1;
  LIR_RETURN_IF_ERROR(Required(
      fields, "paths", op.paths,
      [](const json& v, const JsonPath& p, std::vector<JoinPath>& paths) {
        return ReadList(v, p, paths, ReadPath);
      }));
  if (!op.delta && op.paths.size() != 1) {
    return JsonError(
        fields.PathOf("paths"),
        absl::StrCat("expected exactly 1 path for a Linear join, got ",
                     op.paths.size()));
  }
  if (op.delta && op.paths.empty()) {
    return JsonError(fields.PathOf("paths"),
                     "expected at least 1 path for a Delta join");
  }
  return absl::OkStatus();
}

namespace {

absl::Status ReadAggregate(const json& value, const JsonPath& path,
                           AggregateExpr& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "func", out.func, ReadString));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "params", out.params, ReadString));
  LIR_RETURN_IF_ERROR(Optional(fields, "distinct", out.distinct, ReadBool));
  LIR_RETURN_IF_ERROR(Required(fields, "expr", out.expr, ReadExpr));
  LIR_RETURN_IF_ERROR(CheckAggregateText(out, path));
  return fields.Finish("an aggregate");
}

absl::Status ReadPositionedAggregate(const json& value, const JsonPath& path,
                                     std::pair<int, AggregateExpr>& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "position", out.first, ReadPosition));
  LIR_RETURN_IF_ERROR(Required(fields, "aggregate", out.second, ReadAggregate));
  return fields.Finish("a positioned aggregate");
}

absl::Status ReadPositionedAggregates(
    const json& value, const JsonPath& path,
    std::vector<std::pair<int, AggregateExpr>>& out) {
  return ReadList(value, path, out, ReadPositionedAggregate);
}

}  // namespace

absl::Status ReadReduce(Fields& fields, ReduceOp& op) {
  LIR_RETURN_IF_ERROR(
      Required(fields, "reduce_kind", op.kind,
               [](const json& v, const JsonPath& p, ReduceKind& k) {
                 return ReadEnum(v, p, kReduceKindNames, k);
               }));
  LIR_RETURN_IF_ERROR(Optional(fields, "simple_aggrs", op.simple_aggrs,
                               ReadPositionedAggregates));
  LIR_RETURN_IF_ERROR(Optional(fields, "distinct_aggrs", op.distinct_aggrs,
                               ReadPositionedAggregates));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "aggr_funcs", op.aggr_funcs, ReadAggregateNames));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "must_consolidate", op.must_consolidate, ReadBool));
  LIR_RETURN_IF_ERROR(Optional(
      fields, "buckets", op.buckets,
      [](const json& v, const JsonPath& p, std::vector<uint64_t>& buckets) {
        return ReadList(v, p, buckets, ReadUint64);
      }));
  LIR_RETURN_IF_ERROR(Optional(
      fields, "aggrs", op.aggrs,
      [](const json& v, const JsonPath& p, std::vector<AggregateExpr>& a) {
        return ReadList(v, p, a, ReadAggregate);
      }));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "fused_unnest_list", op.fused_unnest_list, ReadBool));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "input_key", op.input_key, ReadExprs));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "temporal_bucketing", op.temporal_bucketing, ReadBool));
  LIR_RETURN_IF_ERROR(Optional(fields, "key_plan", op.key_plan, ReadMfp));
  LIR_RETURN_IF_ERROR(Optional(fields, "val_plan", op.val_plan, ReadMfp));
  LIR_RETURN_IF_ERROR(Optional(fields, "mfp_after", op.mfp_after, ReadMfp));
  if (op.kind == ReduceKind::kBasicSingle && op.aggrs.size() != 1) {
    return JsonError(fields.PathOf("aggrs"),
                     absl::StrCat("expected exactly 1 aggregate for a "
                                  "BasicSingle reduction, got ",
                                  op.aggrs.size()));
  }
  return absl::OkStatus();
}

}  // namespace lir::explain::internal
