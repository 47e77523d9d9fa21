// Writes plan documents in the JSON form of docs/json-format.md.
//
// Plans become flat post-order node arrays so that the JSON nesting depth
// (and with it nlohmann's recursive dump) stays bounded whatever the plan
// depth. Fields holding their default value are left out.
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/node.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_names.h"

namespace lir::explain {
namespace {

using internal::EnumName;
using nlohmann::json;

json DatumToJson(const Literal& lit) {
  return json{{"type", EnumName(internal::kLiteralKindNames, lit.kind)},
              {"text", lit.text}};
}

json RowToJson(const Row& row) {
  json out = json::array();
  for (const Literal& lit : row) out.push_back(DatumToJson(lit));
  return out;
}

json ExprToJson(const ScalarExpr& e);

json ExprListToJson(const std::vector<ScalarExpr>& exprs) {
  json out = json::array();
  for (const ScalarExpr& e : exprs) out.push_back(ExprToJson(e));
  return out;
}

// Recursive, but expressions are bounded in depth (kMaxExprDepth) wherever
// they come from text or JSON.
json ExprToJson(const ScalarExpr& e) {
  json out = json::object();
  out["kind"] = EnumName(internal::kScalarKindNames, e.kind);
  switch (e.kind) {
    case ScalarKind::kColumn:
      out["column"] = e.column;
      if (e.name.has_value()) out["name"] = *e.name;
      break;
    case ScalarKind::kLiteral:
      out["type"] = EnumName(internal::kLiteralKindNames, e.literal.kind);
      out["text"] = e.literal.text;
      break;
    case ScalarKind::kCall:
      out["style"] = EnumName(internal::kCallStyleNames, e.style);
      out["func"] = e.func;
      if (e.params.has_value()) out["params"] = *e.params;
      out["args"] = ExprListToJson(e.args);
      break;
    case ScalarKind::kIf:
    case ScalarKind::kCaseLookup: out["args"] = ExprListToJson(e.args); break;
    case ScalarKind::kOpaque: out["text"] = e.opaque; break;
  }
  return out;
}

json OrderKeyToJson(const OrderKey& key) {
  return json{{"column", key.column},
              {"desc", key.desc},
              {"nulls_last", key.nulls_last}};
}

json OrderKeysToJson(const std::vector<OrderKey>& keys) {
  json out = json::array();
  for (const OrderKey& key : keys) out.push_back(OrderKeyToJson(key));
  return out;
}

json MfpToJson(const MapFilterProject& mfp) {
  json out = json::object();
  if (mfp.project.has_value()) out["project"] = *mfp.project;
  if (!mfp.filter.empty()) out["filter"] = ExprListToJson(mfp.filter);
  if (!mfp.map.empty()) out["map"] = ExprListToJson(mfp.map);
  if (mfp.temporal.has_value()) {
    json temporal = json::object();
    if (!mfp.temporal->lower.empty()) {
      temporal["lower"] = ExprListToJson(mfp.temporal->lower);
    }
    if (!mfp.temporal->upper.empty()) {
      temporal["upper"] = ExprListToJson(mfp.temporal->upper);
    }
    out["temporal"] = std::move(temporal);
  }
  return out;
}

// Sets `out[key]` to the MFP unless it is the identity (the default).
void PutMfp(json& out, const char* key, const MapFilterProject& mfp) {
  if (!mfp.IsIdentity()) out[key] = MfpToJson(mfp);
}

json ArrangementToJson(const ArrangementForm& form) {
  json out = json::object();
  out["key"] = ExprListToJson(form.key);
  if (!form.permutation.empty()) {
    json pairs = json::array();
    for (const auto& [column, position] : form.permutation) {
      pairs.push_back(json::array({column, position}));
    }
    out["permutation"] = std::move(pairs);
  }
  if (!form.thinning.empty()) out["thinning"] = form.thinning;
  return out;
}

json CollectionsToJson(const AvailableCollections& keys) {
  json out = json::object();
  if (keys.raw) out["raw"] = true;
  if (!keys.arranged.empty()) {
    json forms = json::array();
    for (const ArrangementForm& form : keys.arranged) {
      forms.push_back(ArrangementToJson(form));
    }
    out["arranged"] = std::move(forms);
  }
  return out;
}

json ClosureToJson(const JoinClosure& closure) {
  json out = json::object();
  PutMfp(out, "mfp", closure.mfp);
  if (!closure.ready_equivalences.empty()) {
    json classes = json::array();
    for (const auto& members : closure.ready_equivalences) {
      classes.push_back(ExprListToJson(members));
    }
    out["ready_equivalences"] = std::move(classes);
  }
  return out;
}

json StageToJson(const JoinStage& stage) {
  json out = json::object();
  if (stage.closure.has_value()) out["closure"] = ClosureToJson(*stage.closure);
  out["lookup_relation"] = stage.lookup_relation;
  out["lookup_key"] = ExprListToJson(stage.lookup_key);
  out["stream_key"] = ExprListToJson(stage.stream_key);
  if (!stage.stream_thinning.empty()) {
    out["stream_thinning"] = stage.stream_thinning;
  }
  return out;
}

json PathToJson(const JoinPath& path) {
  json out = json::object();
  out["source_relation"] = path.source_relation;
  if (path.source_key.has_value()) {
    out["source_key"] = ExprListToJson(*path.source_key);
  }
  if (path.initial_closure.has_value()) {
    out["initial_closure"] = ClosureToJson(*path.initial_closure);
  }
  json stages = json::array();
  for (const JoinStage& stage : path.stages)
    stages.push_back(StageToJson(stage));
  out["stages"] = std::move(stages);
  if (path.final_closure.has_value()) {
    out["final_closure"] = ClosureToJson(*path.final_closure);
  }
  return out;
}

json AggregateToJson(const AggregateExpr& agg) {
  json out = json::object();
  out["func"] = agg.func;
  if (agg.params.has_value()) out["params"] = *agg.params;
  if (agg.distinct) out["distinct"] = true;
  out["expr"] = ExprToJson(agg.expr);
  return out;
}

json PositionedAggregatesToJson(
    const std::vector<std::pair<int, AggregateExpr>>& aggrs) {
  json out = json::array();
  for (const auto& [position, agg] : aggrs) {
    out.push_back(
        json{{"position", position}, {"aggregate", AggregateToJson(agg)}});
  }
  return out;
}

json CollectionIdToJson(const CollectionId& id) {
  if (id.is_local) return json{{"local", id.local}};
  return json{{"global", id.global}};
}

// Adds the fields of each op kind to the node object `out`.
struct OpWriter {
  json& out;

  void operator()(const ConstantOp& op) {
    if (!op.rows.empty()) {
      json rows = json::array();
      for (const ConstantOp::Entry& entry : op.rows) {
        json row = json{{"row", RowToJson(entry.row)}};
        if (entry.diff != 1) row["diff"] = entry.diff;
        rows.push_back(std::move(row));
      }
      out["rows"] = std::move(rows);
    }
    if (op.error.has_value()) out["error"] = *op.error;
    if (op.error_redacted) out["error_redacted"] = true;
    if (op.elided_total_rows.has_value()) {
      out["elided_total_rows"] = *op.elided_total_rows;
    }
  }
  void operator()(const GetOp& op) {
    out["collection"] = CollectionIdToJson(op.id);
    out["get_kind"] = EnumName(internal::kGetKindNames, op.kind);
    if (op.keys != AvailableCollections())
      out["keys"] = CollectionsToJson(op.keys);
    if (!op.key.empty()) out["key"] = ExprListToJson(op.key);
    if (op.seek.has_value()) out["seek"] = RowToJson(*op.seek);
    PutMfp(out, "mfp", op.mfp);
  }
  void operator()(const LetOp& op) { out["local_id"] = op.id; }
  void operator()(const LetRecOp& op) {
    out["local_ids"] = op.ids;
    if (!op.limits.empty()) {
      json limits = json::array();
      for (const auto& limit : op.limits) {
        if (!limit.has_value()) {
          limits.push_back(nullptr);
          continue;
        }
        json entry = json{{"max_iters", limit->max_iters}};
        if (limit->return_at_limit) entry["return_at_limit"] = true;
        limits.push_back(std::move(entry));
      }
      out["limits"] = std::move(limits);
    }
  }
  void operator()(const MfpOp& op) {
    PutMfp(out, "mfp", op.mfp);
    if (op.input_key.has_value())
      out["input_key"] = ExprListToJson(*op.input_key);
    if (op.input_val.has_value()) out["input_val"] = RowToJson(*op.input_val);
  }
  void operator()(const FlatMapOp& op) {
    out["func"] = op.func;
    out["exprs"] = ExprListToJson(op.exprs);
    if (op.input_key.has_value())
      out["input_key"] = ExprListToJson(*op.input_key);
    PutMfp(out, "mfp_after", op.mfp_after);
  }
  void operator()(const JoinOp& op) {
    out["join_kind"] = op.delta ? "Delta" : "Linear";
    json paths = json::array();
    for (const JoinPath& path : op.paths) paths.push_back(PathToJson(path));
    out["paths"] = std::move(paths);
  }
  void operator()(const ReduceOp& op) {
    out["reduce_kind"] = EnumName(internal::kReduceKindNames, op.kind);
    if (!op.simple_aggrs.empty()) {
      out["simple_aggrs"] = PositionedAggregatesToJson(op.simple_aggrs);
    }
    if (!op.distinct_aggrs.empty()) {
      out["distinct_aggrs"] = PositionedAggregatesToJson(op.distinct_aggrs);
    }
    if (!op.aggr_funcs.empty()) out["aggr_funcs"] = op.aggr_funcs;
    if (op.must_consolidate) out["must_consolidate"] = true;
    if (!op.buckets.empty()) out["buckets"] = op.buckets;
    if (!op.aggrs.empty()) {
      json aggrs = json::array();
      for (const AggregateExpr& agg : op.aggrs) {
        aggrs.push_back(AggregateToJson(agg));
      }
      out["aggrs"] = std::move(aggrs);
    }
    if (op.fused_unnest_list) out["fused_unnest_list"] = true;
    if (op.input_key.has_value())
      out["input_key"] = ExprListToJson(*op.input_key);
    if (op.temporal_bucketing) out["temporal_bucketing"] = true;
    PutMfp(out, "key_plan", op.key_plan);
    PutMfp(out, "val_plan", op.val_plan);
    PutMfp(out, "mfp_after", op.mfp_after);
  }
  void operator()(const TopKOp& op) {
    out["topk_kind"] = EnumName(internal::kTopKKindNames, op.kind);
    if (!op.group_by.empty()) out["group_by"] = op.group_by;
    if (!op.order_by.empty()) out["order_by"] = OrderKeysToJson(op.order_by);
    if (op.limit.has_value()) out["limit"] = ExprToJson(*op.limit);
    if (op.offset != 0) out["offset"] = op.offset;
    if (op.must_consolidate) out["must_consolidate"] = true;
    if (op.temporal_bucketing) out["temporal_bucketing"] = true;
  }
  void operator()(const NegateOp&) {}
  void operator()(const ThresholdOp& op) {
    out["ensure_arrangement"] = ArrangementToJson(op.ensure_arrangement);
  }
  void operator()(const UnionOp& op) {
    if (op.consolidate_output) out["consolidate_output"] = true;
    if (!op.strategies.empty()) {
      json strategies = json::array();
      for (UnionStrategy s : op.strategies) {
        strategies.push_back(EnumName(internal::kUnionStrategyNames, s));
      }
      out["strategies"] = std::move(strategies);
    }
  }
  void operator()(const ArrangeByOp& op) {
    if (op.input_key.has_value())
      out["input_key"] = ExprListToJson(*op.input_key);
    if (op.temporal_bucketing) out["temporal_bucketing"] = true;
    PutMfp(out, "input_mfp", op.input_mfp);
    if (op.forms != AvailableCollections())
      out["forms"] = CollectionsToJson(op.forms);
  }
  void operator()(const SetDifferenceOp& op) {
    out["ensure_arrangement"] = ArrangementToJson(op.ensure_arrangement);
    out["base_key"] = op.base_key;
    out["subtract_key"] = op.subtract_key;
  }
  void operator()(const AntiJoinOp& op) {
    out["key"] = op.key;
    out["base_key"] = op.base_key;
    out["keys_key"] = op.keys_key;
  }
};

// The plan as a post-order node array; inputs are indexes into it.
json PlanToJson(const Node& root, const JsonWriteOptions& options) {
  json nodes = json::array();
  std::unordered_map<const Node*, size_t> index_of;
  ForEachPostOrder(root, [&](const Node& node) {
    json out = json::object();
    out["id"] = node.id;
    out["kind"] = EnumName(internal::kNodeKindNames, node.kind());
    json inputs = json::array();
    for (const NodePtr& input : node.inputs) {
      inputs.push_back(index_of.at(input.get()));
    }
    out["inputs"] = std::move(inputs);
    VisitPayload(node.op, OpWriter{out});
    if (options.annotations) {
      json annotations = options.annotations(node);
      if (annotations.is_object() && !annotations.empty()) {
        out["annotations"] = std::move(annotations);
      }
    }
    index_of.emplace(&node, nodes.size());
    nodes.push_back(std::move(out));
  });
  return nodes;
}

json FinishToJson(const Finish& finish) {
  json out = json::object();
  if (!finish.order_by.empty())
    out["order_by"] = OrderKeysToJson(finish.order_by);
  if (finish.limit.has_value()) out["limit"] = *finish.limit;
  if (finish.offset != 0) out["offset"] = finish.offset;
  out["output"] = finish.output;
  return out;
}

// The fast-path form of docs/json-format.md: the constant's fields as on a
// Constant node, or the read with its optional project/filter/map.
json FastPathToJson(const FastPath& fast_path) {
  json out = json::object();
  switch (fast_path.kind) {
    case FastPath::Kind::kConstant:
      out["kind"] = "constant";
      OpWriter{out}(fast_path.constant);
      return out;
    case FastPath::Kind::kReadIndex: out["kind"] = "read_index"; break;
    case FastPath::Kind::kPeekPersist: out["kind"] = "peek_persist"; break;
  }
  if (fast_path.project.has_value()) {
    out["project"] = ExprListToJson(*fast_path.project);
  }
  if (!fast_path.filter.empty())
    out["filter"] = ExprListToJson(fast_path.filter);
  if (!fast_path.map.empty()) out["map"] = ExprListToJson(fast_path.map);
  out["collection"] = fast_path.collection;
  if (fast_path.kind == FastPath::Kind::kReadIndex) {
    out["index"] = fast_path.index;
    if (fast_path.lookup.has_value()) {
      json rows = json::array();
      for (const Row& row : *fast_path.lookup) rows.push_back(RowToJson(row));
      out["lookup"] = std::move(rows);
    }
  }
  if (fast_path.persist_value.has_value()) {
    out["value"] = RowToJson(*fast_path.persist_value);
  }
  return out;
}

json ObjectToJson(const Object& object, const JsonWriteOptions& options) {
  json out = json::object();
  out["name"] = object.name;
  if (object.finish.has_value()) out["finish"] = FinishToJson(*object.finish);
  if (object.plan != nullptr) out["plan"] = PlanToJson(*object.plan, options);
  if (object.fast_path.has_value()) {
    out["fast_path"] = FastPathToJson(*object.fast_path);
  }
  return out;
}

json SourceToJson(const SourceBlock& source) {
  json out = json::object();
  out["name"] = source.name;
  PutMfp(out, "mfp", source.mfp);
  if (source.pushdown.has_value()) {
    out["pushdown"] = ExprListToJson(*source.pushdown);
  }
  return out;
}

}  // namespace

nlohmann::json ToJson(const Document& doc, const JsonWriteOptions& options) {
  json out = json::object();
  out["format"] = kJsonFormat;
  json objects = json::array();
  for (const Object& object : doc.objects)
    objects.push_back(ObjectToJson(object, options));
  out["objects"] = std::move(objects);
  json sources = json::array();
  for (const SourceBlock& source : doc.sources) {
    sources.push_back(SourceToJson(source));
  }
  out["sources"] = std::move(sources);
  if (doc.used_indexes.has_value()) {
    json indexes = json::array();
    for (const UsedIndex& index : *doc.used_indexes) {
      indexes.push_back(json{{"name", index.name}, {"usages", index.usages}});
    }
    out["used_indexes"] = std::move(indexes);
  }
  if (doc.target_cluster.has_value())
    out["target_cluster"] = *doc.target_cluster;
  if (doc.notices.has_value()) out["notices"] = *doc.notices;
  if (doc.optimization_time.has_value()) {
    out["optimization_time"] = *doc.optimization_time;
  }
  out["node_identifiers"] = doc.node_identifiers;
  return out;
}

std::string DumpJson(const nlohmann::json& value, int indent) {
  try {
    return value.dump(indent, ' ', false, json::error_handler_t::strict);
  } catch (const json::type_error&) {
    // Only strings that no reader produced get here (see json.h).
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
  }
}

std::string DumpJsonAt(const nlohmann::json& value, int depth) {
  // Strings print with their newlines escaped, so each newline of the dump
  // starts one of the value's own lines.
  return absl::StrReplaceAll(
      DumpJson(value, 2),
      {{"\n", absl::StrCat("\n", std::string(2 * depth, ' '))}});
}

std::string WriteJson(const Document& doc, const JsonWriteOptions& options) {
  std::string text = DumpJson(ToJson(doc, options), 2);
  text.push_back('\n');
  return text;
}

}  // namespace lir::explain
