// The arity rules, one per node kind.
#include "lir/arity.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "lir/layout.h"

namespace lir {
namespace {

/// The number of distinct plain column references in `key`, or -1 when one
/// is negative. Keys are short, so the quadratic scan beats a set.
int DistinctKeyColumns(const std::vector<ScalarExpr>& key) {
  int distinct = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    if (!key[i].IsColumn()) continue;
    if (key[i].column < 0) return -1;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      seen = key[j].IsColumn() && key[j].column == key[i].column;
    }
    if (!seen) ++distinct;
  }
  return distinct;
}

}  // namespace

Arity JoinArity(Arity a, Arity b) {
  if (a.state == Arity::State::kUnknown) return b;
  if (b.state == Arity::State::kUnknown) return a;
  if (a == b) return a;
  return Arity::Conflict();
}

std::string FormatArity(Arity arity) {
  switch (arity.state) {
    case Arity::State::kUnknown: return "?";
    case Arity::State::kKnown: return absl::StrCat(arity.value);
    case Arity::State::kConflict: return "conflict";
  }
  return "?";
}

// The row's columns are the key's plain columns plus the thinning: they must
// be 0..n-1, each exactly once (Validate also checks the permutation).
Arity DescribedArity(const ArrangementForm& form) {
  const int key_columns = DistinctKeyColumns(form.key);
  if (key_columns < 0) return Arity::Conflict();
  const int n = key_columns + static_cast<int>(form.thinning.size());
  for (const ScalarExpr& e : form.key) {
    if (e.IsColumn() && e.column >= n) return Arity::Conflict();
  }
  for (size_t i = 0; i < form.thinning.size(); ++i) {
    const int c = form.thinning[i];
    if (c < 0 || c >= n || (i > 0 && c <= form.thinning[i - 1])) {
      return Arity::Conflict();
    }
    for (const ScalarExpr& e : form.key) {
      if (e.IsColumn() && e.column == c) return Arity::Conflict();
    }
  }
  return Arity::Known(n);
}

Arity MfpOutputArity(const MapFilterProject& mfp, Arity input) {
  if (mfp.project.has_value()) {
    return Arity::Known(static_cast<int>(mfp.project->size()));
  }
  return input;
}

Arity ReadArity(const std::optional<std::vector<ScalarExpr>>& input_key,
                Arity input) {
  if (!input_key.has_value() || !input.known()) return input;
  return Arity::Known(LayoutArity(*input_key, input.value));
}

std::optional<int> TableFunctionArity(std::string_view func) {
  std::string_view name = func.substr(0, func.find_first_of("([ "));
  static constexpr std::pair<std::string_view, int> kKnown[] = {
      {"generate_series", 1},      {"unnest_array", 1},
      {"unnest_list", 1},          {"unnest_map", 2},
      {"jsonb_array_elements", 1}, {"jsonb_array_elements_text", 1},
      {"jsonb_object_keys", 1},    {"jsonb_each", 2},
      {"jsonb_each_text", 2},      {"regexp_split_to_table", 1},
  };
  for (const auto& [known, arity] : kKnown) {
    if (name == known) return arity;
  }
  return std::nullopt;
}

Arity FlatMapRowArity(const FlatMapOp& flat_map, Arity input) {
  if (input.state == Arity::State::kConflict) return input;
  const std::optional<int> produced = TableFunctionArity(flat_map.func);
  if (!produced.has_value() || !input.known()) return Arity::Unknown();
  return Arity::Known(ReadArity(flat_map.input_key, input).value + *produced);
}

size_t AggregateCount(const ReduceOp& reduce) {
  switch (reduce.kind) {
    case ReduceKind::kDistinct: return 0;
    case ReduceKind::kAccumulable:
      return reduce.simple_aggrs.size() + reduce.distinct_aggrs.size();
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed: return reduce.aggr_funcs.size();
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple: return reduce.aggrs.size();
  }
  return 0;
}

Arity ReducedArity(const ReduceOp& reduce, Arity input) {
  const Arity key =
      MfpOutputArity(reduce.key_plan, ReadArity(reduce.input_key, input));
  if (!key.known()) return key;
  return Arity::Known(key.value + static_cast<int>(AggregateCount(reduce)));
}

Arity LookupStreamArity(const JoinStage& stage, Arity lookup) {
  if (!lookup.known()) return lookup;
  int key_columns = 0;
  for (size_t i = 0; i < stage.lookup_key.size(); ++i) {
    const ScalarExpr& e = stage.lookup_key[i];
    if (!e.IsColumn() || e.column < 0 || e.column >= lookup.value) continue;
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      seen = stage.lookup_key[j].IsColumn() &&
             stage.lookup_key[j].column == e.column;
    }
    if (!seen) ++key_columns;
  }
  return Arity::Known(
      static_cast<int>(stage.stream_key.size() + stage.stream_thinning.size()) +
      lookup.value - key_columns);
}

// The stream starts as the source relation; after each lookup it is
// LookupStreamArity; closures map it.
Arity JoinPathArity(const JoinPath& path, bool delta,
                    std::span<const Arity> inputs) {
  const int n = static_cast<int>(inputs.size());
  if (path.source_relation < 0 || path.source_relation >= n) {
    return Arity::Conflict();
  }
  Arity stream = inputs[path.source_relation];
  // A delta path starts from its source's layout row
  // (../shared/reference/SEMANTICS.md 8.4).
  if (delta) stream = ReadArity(path.source_key, stream);
  if (path.initial_closure.has_value()) {
    stream = MfpOutputArity(path.initial_closure->mfp, stream);
  }
  for (const JoinStage& stage : path.stages) {
    if (stage.lookup_relation < 0 || stage.lookup_relation >= n) {
      return Arity::Conflict();
    }
    stream = LookupStreamArity(stage, inputs[stage.lookup_relation]);
    if (stage.closure.has_value()) {
      stream = MfpOutputArity(stage.closure->mfp, stream);
    }
  }
  if (path.final_closure.has_value()) {
    stream = MfpOutputArity(path.final_closure->mfp, stream);
  }
  return stream;
}

Arity GetOutputArity(const GetOp& get, Arity collection) {
  // Every advertised arrangement spells out the collection's arity.
  for (const ArrangementForm& form : get.keys.arranged) {
    collection = JoinArity(collection, DescribedArity(form));
  }
  switch (get.kind) {
    case GetKind::kPassArrangements: return collection;
    case GetKind::kArrangement:
      // The MFP reads the form's layout row
      // (../shared/reference/SEMANTICS.md 8.3).
      if (const ArrangementForm* form = get.keys.FindByKey(get.key)) {
        return MfpOutputArity(
            get.mfp, Arity::Known(static_cast<int>(form->key.size() +
                                                   form->thinning.size())));
      }
      return MfpOutputArity(get.mfp, collection);
    case GetKind::kCollection: return MfpOutputArity(get.mfp, collection);
  }
  return collection;
}

namespace {

// The arity of a node of a partial plan, using only the facts it shows
// (include/lir/unknown_facts.def): an unknown input key hides the row an
// MFP reads, unknown layouts say nothing about arity, and unknown join
// closures or stream keys leave only a printed final projection.
// nullopt when the node lacks no fact its complete rule reads.
std::optional<Arity> PartialNodeOutputArity(const Node& node,
                                            std::span<const Arity> inputs) {
  const UnknownFacts unknown = node.unknown;
  auto read = [&](const std::optional<std::vector<ScalarExpr>>& input_key,
                  Arity input) -> Arity {
    return unknown.Has(UnknownFact::kInputKey) ? Arity::Unknown()
                                               : ReadArity(input_key, input);
  };
  switch (node.kind()) {
    case NodeKind::kConstant:
      if (unknown.Has(UnknownFact::kConstantRows)) return Arity::Unknown();
      break;
    case NodeKind::kGet: return GetOutputArity(node, Arity::Unknown());
    case NodeKind::kMfp: {
      const MfpOp& op = node.As<MfpOp>();
      return MfpOutputArity(op.mfp, read(op.input_key, inputs[0]));
    }
    case NodeKind::kFlatMap: {
      const FlatMapOp& op = node.As<FlatMapOp>();
      const Arity row = unknown.Has(UnknownFact::kInputKey)
                            ? Arity::Unknown()
                            : FlatMapRowArity(op, inputs[0]);
      return MfpOutputArity(op.mfp_after, row);
    }
    case NodeKind::kJoin: {
      if (!unknown.Has(UnknownFact::kStreamKeys) &&
          !unknown.Has(UnknownFact::kJoinClosures)) {
        break;
      }
      Arity arity = Arity::Unknown();
      for (const JoinPath& path : node.As<JoinOp>().paths) {
        if (path.final_closure.has_value() &&
            path.final_closure->mfp.project.has_value()) {
          arity =
              JoinArity(arity, Arity::Known(static_cast<int>(
                                   path.final_closure->mfp.project->size())));
        }
      }
      return arity;
    }
    case NodeKind::kReduce: {
      const ReduceOp& op = node.As<ReduceOp>();
      const Arity key =
          MfpOutputArity(op.key_plan, read(op.input_key, inputs[0]));
      const Arity reduced =
          key.known()
              ? Arity::Known(key.value + static_cast<int>(AggregateCount(op)))
              : key;
      return MfpOutputArity(op.mfp_after, reduced);
    }
    case NodeKind::kThreshold:
      if (unknown.Has(UnknownFact::kArrangementLayouts)) return inputs[0];
      break;
    case NodeKind::kArrangeBy: {
      const ArrangeByOp& op = node.As<ArrangeByOp>();
      Arity arity = MfpOutputArity(op.input_mfp, read(op.input_key, inputs[0]));
      if (!unknown.Has(UnknownFact::kArrangementLayouts)) {
        for (const ArrangementForm& form : op.forms.arranged) {
          arity = JoinArity(arity, DescribedArity(form));
        }
      }
      return arity;
    }
    case NodeKind::kSetDifference:
      if (unknown.Has(UnknownFact::kArrangementLayouts)) {
        return JoinArity(inputs[0], inputs[1]);
      }
      break;
    case NodeKind::kLet:
    case NodeKind::kLetRec:
    case NodeKind::kTopK:
    case NodeKind::kNegate:
    case NodeKind::kUnion:
    case NodeKind::kAntiJoin: break;
  }
  return std::nullopt;
}

}  // namespace

Arity GetOutputArity(const Node& get_node, Arity collection) {
  const GetOp& get = get_node.As<GetOp>();
  if (!get_node.unknown.Has(UnknownFact::kAvailableForms)) {
    return GetOutputArity(get, collection);
  }
  switch (get.kind) {
    case GetKind::kPassArrangements: return collection;
    case GetKind::kArrangement:
      // The MFP reads the layout row of the arrangement by `key`, whose
      // width Materialize derives from the key and the collection's arity.
      return MfpOutputArity(get.mfp, ReadArity(get.key, collection));
    case GetKind::kCollection: return MfpOutputArity(get.mfp, collection);
  }
  return collection;
}

Arity NodeOutputArity(const Node& node, std::span<const Arity> inputs) {
  if (!node.unknown.empty()) {
    if (std::optional<Arity> partial = PartialNodeOutputArity(node, inputs)) {
      return *partial;
    }
  }
  switch (node.kind()) {
    case NodeKind::kConstant: {
      Arity arity = Arity::Unknown();
      for (const ConstantOp::Entry& entry : node.As<ConstantOp>().rows) {
        arity =
            JoinArity(arity, Arity::Known(static_cast<int>(entry.row.size())));
      }
      return arity;
    }
    case NodeKind::kGet:
      return GetOutputArity(node.As<GetOp>(), Arity::Unknown());
    case NodeKind::kLet:
    case NodeKind::kLetRec: return inputs.back();
    case NodeKind::kMfp: {
      const MfpOp& op = node.As<MfpOp>();
      return MfpOutputArity(op.mfp, ReadArity(op.input_key, inputs[0]));
    }
    case NodeKind::kFlatMap: {
      const FlatMapOp& op = node.As<FlatMapOp>();
      return MfpOutputArity(op.mfp_after, FlatMapRowArity(op, inputs[0]));
    }
    case NodeKind::kJoin: {
      const JoinOp& op = node.As<JoinOp>();
      if (op.paths.empty()) return Arity::Conflict();
      Arity arity = Arity::Unknown();
      for (const JoinPath& path : op.paths) {
        arity = JoinArity(arity, JoinPathArity(path, op.delta, inputs));
      }
      return arity;
    }
    case NodeKind::kReduce: {
      const ReduceOp& op = node.As<ReduceOp>();
      return MfpOutputArity(op.mfp_after, ReducedArity(op, inputs[0]));
    }
    case NodeKind::kTopK:
    case NodeKind::kNegate: return inputs[0];
    case NodeKind::kThreshold:
      return JoinArity(
          inputs[0], DescribedArity(node.As<ThresholdOp>().ensure_arrangement));
    case NodeKind::kUnion: {
      Arity arity = Arity::Unknown();
      for (const Arity& input : inputs) arity = JoinArity(arity, input);
      return arity;
    }
    case NodeKind::kArrangeBy: {
      const ArrangeByOp& op = node.As<ArrangeByOp>();
      Arity arity =
          MfpOutputArity(op.input_mfp, ReadArity(op.input_key, inputs[0]));
      for (const ArrangementForm& form : op.forms.arranged) {
        arity = JoinArity(arity, DescribedArity(form));
      }
      return arity;
    }
    case NodeKind::kSetDifference:
      return JoinArity(
          JoinArity(inputs[0], inputs[1]),
          DescribedArity(node.As<SetDifferenceOp>().ensure_arrangement));
    // The base's rows, filtered (SEMANTICS 7.1); Validate checks the keys.
    case NodeKind::kAntiJoin: return inputs[0];
  }
  return Arity::Conflict();
}

}  // namespace lir
