// Random expressions, MFPs, leaves and node payloads for the plan generator.
#include "tests/support/plan_generator_parts.h"

#include <algorithm>
#include <iterator>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "lir/plan_builder.h"

namespace lir::test::plan_gen {
namespace {

constexpr const char* kColumnNames[] = {"a",  "b",    "c",     "d",   "e",
                                        "id", "name", "price", "qty", "ts"};
// Commas and spaces inside strings exercise the list splitters of readers.
constexpr const char* kStrings[] = {"a", "foo", "hello world", "x, y", ","};

AggregateExpr Aggregate(std::string func, ScalarExpr expr,
                        bool distinct = false) {
  AggregateExpr agg;
  agg.func = std::move(func);
  agg.distinct = distinct;
  agg.expr = std::move(expr);
  return agg;
}

ScalarExpr IntLit(int64_t value) {
  return ScalarExpr::Lit(Literal::Int(value));
}

}  // namespace

Catalog::Catalog() {
  for (int m = 1; m <= kMaxArity; ++m) {
    Global table;
    table.name = absl::StrCat("materialize.public.t", m);
    table.arity = m;
    table.keys = RawOnly();
    tables_.push_back(std::move(table));

    Global indexed;
    indexed.name = absl::StrCat("materialize.public.x", m);
    indexed.arity = m;
    std::vector<std::vector<int>> index_columns = {{0}};
    if (m >= 3) index_columns.push_back(Iota(m - 1));
    if (m >= 2) index_columns.push_back(Iota(m));
    for (const std::vector<int>& columns : index_columns) {
      std::vector<ScalarExpr> key;
      for (int c : columns) {
        // Names only on keys too short to print as a range, whose interior
        // names the text form would drop.
        std::optional<std::string> name;
        if (columns.size() <= 2) name = kColumnNames[c];
        key.push_back(ScalarExpr::Column(c, name));
      }
      indexed.keys.arranged.push_back(MakeArrangement(std::move(key), m));
    }
    indexed_.push_back(std::move(indexed));
  }
}

std::vector<int> Iota(int n, int start) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

bool IsIota(const std::vector<int>& columns, int n) {
  if (static_cast<int>(columns.size()) != n) return false;
  for (int i = 0; i < n; ++i) {
    if (columns[i] != i) return false;
  }
  return true;
}

AvailableCollections RawOnly() {
  AvailableCollections forms;
  forms.raw = true;
  return forms;
}

ScalarExpr Infix(std::string op, ScalarExpr a, ScalarExpr b) {
  return ScalarExpr::Call(CallStyle::kInfix, std::move(op),
                          {std::move(a), std::move(b)});
}

ScalarExpr IsNotNull(ScalarExpr e) {
  return ScalarExpr::Call(
      CallStyle::kNot, "NOT",
      {ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {std::move(e)})});
}

MapFilterProject PrefixProjection(int in, int out) {
  MapFilterProject mfp;
  if (in != out) mfp.project = Iota(out);
  return mfp;
}

NodePtr MakeGet(const Global& global, GetKind kind) {
  GetOp get;
  get.id = CollectionId::Global(global.name);
  get.keys = global.keys;
  get.kind = kind;
  return PlanBuilder::Get(std::move(get)).Release();
}

ReduceOp DistinctOp(int in, std::vector<int> key_columns) {
  ReduceOp op;
  op.kind = ReduceKind::kDistinct;
  if (!IsIota(key_columns, in)) op.key_plan.project = std::move(key_columns);
  op.val_plan.project = std::vector<int>{};
  return op;
}

// ---- Expressions ----------------------------------------------------------

ScalarExpr Parts::Col(int c) {
  std::optional<std::string> name;
  if (rng_.Chance(name_probability_)) {
    name = kColumnNames[rng_.Next() % std::size(kColumnNames)];
  }
  return ScalarExpr::Column(c, std::move(name));
}

ScalarExpr Parts::AnyCol(int arity) { return Col(rng_.Int(0, arity - 1)); }

Literal Parts::RandomLiteral() {
  switch (rng_.Int(0, 5)) {
    case 0: return Literal::Null();
    case 1: return Literal::Bool(rng_.Chance(0.5));
    case 2: return Literal::String(kStrings[rng_.Next() % std::size(kStrings)]);
    default: return Literal::Int(rng_.Range(-20, 1000));
  }
}

ScalarExpr Parts::ValueExpr(int arity) {
  if (arity == 0) return ScalarExpr::Lit(RandomLiteral());
  switch (rng_.Int(0, 7)) {
    case 0: return Infix("+", AnyCol(arity), AnyCol(arity));
    case 1: return Infix("*", AnyCol(arity), IntLit(2));
    case 2:
      return ScalarExpr::Call(CallStyle::kFunction, "abs", {AnyCol(arity)});
    case 3:
      return ScalarExpr::Call(CallStyle::kFunction, "integer_to_text",
                              {AnyCol(arity)});
    case 4:
      return ScalarExpr::If(
          ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {AnyCol(arity)}),
          IntLit(0), AnyCol(arity));
    case 5:
      return ScalarExpr::Call(CallStyle::kFunction, "row",
                              {AnyCol(arity), IntLit(3), IntLit(-5)});
    case 6: return ScalarExpr::Lit(RandomLiteral());
    default: return Infix("-", AnyCol(arity), IntLit(1));
  }
}

ScalarExpr Parts::Predicate(int arity) {
  switch (rng_.Int(0, 5)) {
    case 0: return IsNotNull(AnyCol(arity));
    case 1: return Infix(">", AnyCol(arity), IntLit(42));
    case 2: return Infix("=", AnyCol(arity), AnyCol(arity));
    case 3:
      return Infix("!=", AnyCol(arity), ScalarExpr::Lit(Literal::String("x")));
    case 4:
      return ScalarExpr::Call(CallStyle::kInfix, "OR",
                              {Infix("<", AnyCol(arity), IntLit(10)),
                               Infix(">=", AnyCol(arity), IntLit(3))});
    default:
      return ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL",
                              {AnyCol(arity)});
  }
}

MapFilterProject Parts::RandomMfp(int in, int out, double filter_chance,
                                  bool temporal) {
  MapFilterProject mfp;
  int maps = std::max(0, out - in);
  if (rng_.Chance(0.25)) ++maps;
  // Each map may read the columns mapped before it.
  for (int i = 0; i < maps; ++i) mfp.map.push_back(ValueExpr(in + i));
  int width = in + maps;
  if (width > 0 && rng_.Chance(filter_chance)) {
    int filters = rng_.Int(1, 2);
    for (int i = 0; i < filters; ++i) mfp.filter.push_back(Predicate(width));
  }
  std::vector<int> columns = Iota(width);
  rng_.Shuffle(columns);
  columns.resize(out);
  if (rng_.Chance(0.5)) std::sort(columns.begin(), columns.end());
  // Without a projection only the input's columns are output
  // (../shared/reference/SEMANTICS.md 8.1), so the projection is omitted only
  // when it is #0..#in-1.
  if (!IsIota(columns, in)) mfp.project = std::move(columns);
  if (temporal && in > 0 && rng_.Chance(0.03)) {
    TemporalFilter bounds;
    bounds.upper.push_back(ScalarExpr::Call(
        CallStyle::kFunction, "timestamp_to_mz_timestamp", {AnyCol(in)}));
    mfp.temporal = std::move(bounds);
  }
  return mfp;
}

// ---- Leaves ---------------------------------------------------------------

namespace {

// The arity of the layout row a read of `form` sees: `key ++ value`.
int LayoutWidth(const ArrangementForm& form) {
  return static_cast<int>(form.key.size() + form.thinning.size());
}

}  // namespace

NodePtr Parts::GlobalGet(int arity) {
  int m = rng_.Chance(0.4) ? arity : rng_.Int(1, kMaxArity);
  if (rng_.Chance(0.5)) {
    const Global& g = catalog_.Table(m);
    if (g.arity == arity && rng_.Chance(0.5)) {
      return MakeGet(g, GetKind::kPassArrangements);
    }
    NodePtr node = MakeGet(g, GetKind::kCollection);
    node->As<GetOp>().mfp = RandomMfp(g.arity, arity, 0.3, true);
    return node;
  }
  const Global& g = catalog_.Indexed(m);
  if (g.arity == arity && rng_.Chance(0.4)) {
    return MakeGet(g, GetKind::kPassArrangements);
  }
  NodePtr node = MakeGet(g, GetKind::kArrangement);
  GetOp& get = node->As<GetOp>();
  const ArrangementForm& form =
      g.keys.arranged[rng_.Next() % g.keys.arranged.size()];
  get.key = form.key;
  get.mfp = RandomMfp(LayoutWidth(form), arity, 0.2, true);
  if (get.key.size() == 1 && rng_.Chance(0.1)) {
    get.seek = Row{Literal::Int(rng_.Range(0, 100))};
  }
  return node;
}

NodePtr Parts::LocalGet(uint64_t id, int binding_arity,
                        const AvailableCollections& forms, int arity) {
  GetOp get;
  get.id = CollectionId::Local(id);
  get.keys = forms;
  if (binding_arity == arity && rng_.Chance(0.6)) {
    get.kind = GetKind::kPassArrangements;
  } else if (!forms.raw && !forms.arranged.empty()) {
    get.kind = GetKind::kArrangement;
    get.key = forms.arranged[0].key;
    // An arrangement read sees the layout row `key ++ value` (SEMANTICS
    // 8.2), wider than the binding's row when a key entry is an
    // expression.
    get.mfp = RandomMfp(LayoutWidth(forms.arranged[0]), arity, 0.2, true);
  } else {
    get.kind = GetKind::kCollection;
    get.mfp = RandomMfp(binding_arity, arity, 0.3, true);
  }
  return PlanBuilder::Get(std::move(get)).Release();
}

NodePtr Parts::ConstantLeaf(int arity) {
  ConstantOp constant;
  int rows = rng_.Int(1, 3);
  for (int r = 0; r < rows; ++r) {
    ConstantOp::Entry entry;
    for (int c = 0; c < arity; ++c) entry.row.push_back(RandomLiteral());
    if (rng_.Chance(0.2)) entry.diff = rng_.Chance(0.5) ? 2 : -1;
    constant.rows.push_back(std::move(entry));
  }
  return PlanBuilder::Constant(std::move(constant)).Release();
}

// ---- Payloads -------------------------------------------------------------

TopKOp Parts::RandomTopK(int arity) {
  TopKOp op;
  op.kind = static_cast<TopKKind>(rng_.Int(0, 2));
  std::vector<int> columns = Iota(arity);
  rng_.Shuffle(columns);
  int groups = rng_.Int(0, std::min(2, arity - 1));
  op.group_by.assign(columns.begin(), columns.begin() + groups);
  std::sort(op.group_by.begin(), op.group_by.end());
  int orders = rng_.Int(0, std::min(2, arity - groups));
  for (int i = 0; i < orders; ++i) {
    op.order_by.push_back(
        {columns[groups + i], rng_.Chance(0.4), rng_.Chance(0.7)});
  }
  if (op.kind != TopKKind::kMonotonicTop1 && rng_.Chance(0.8)) {
    op.limit = IntLit(rng_.Range(1, 100));
  }
  if (op.kind == TopKKind::kBasic) {
    if (rng_.Chance(0.3)) op.offset = rng_.Range(1, 5);
  } else {
    op.must_consolidate = rng_.Chance(0.5);
  }
  return op;
}

ReduceOp Parts::RandomReduce(int arity, int* input_arity) {
  int variant = rng_.Int(0, 9);
  ReduceKind kind = variant < 3    ? ReduceKind::kDistinct
                    : variant < 6  ? ReduceKind::kAccumulable
                    : variant == 6 ? ReduceKind::kHierarchicalMonotonic
                    : variant == 7 ? ReduceKind::kHierarchicalBucketed
                    : (variant == 8 || arity < 2) ? ReduceKind::kBasicSingle
                                                  : ReduceKind::kBasicMultiple;
  int aggs = kind == ReduceKind::kDistinct        ? 0
             : kind == ReduceKind::kBasicSingle   ? 1
             : kind == ReduceKind::kBasicMultiple ? rng_.Int(2, arity)
                                                  : rng_.Int(1, arity);
  int keys = arity - aggs;
  int in = std::max(std::max(keys, 1),
                    std::min(kMaxArity, rng_.Int(std::max(keys, 1), keys + 3)));
  *input_arity = in;
  std::vector<int> columns = Iota(in);
  if (rng_.Chance(0.5)) rng_.Shuffle(columns);
  std::vector<int> key_columns(columns.begin(), columns.begin() + keys);
  if (kind == ReduceKind::kDistinct) return DistinctOp(in, key_columns);

  ReduceOp op;
  op.kind = kind;
  if (!IsIota(key_columns, in) || rng_.Chance(0.5)) {
    op.key_plan.project = key_columns;
  }
  // val_plan yields one column per aggregate, in output order.
  std::vector<int> values;
  auto read = [&](const ScalarExpr& e) {
    if (e.IsColumn()) {
      values.push_back(e.column);
      return;
    }
    values.push_back(in + static_cast<int>(op.val_plan.map.size()));
    op.val_plan.map.push_back(e);
  };
  for (int pos = 0; pos < aggs; ++pos) {
    ScalarExpr column = AnyCol(in);
    switch (kind) {
      case ReduceKind::kAccumulable: {
        int f = rng_.Int(0, 4);
        AggregateExpr agg =
            f == 0 ? Aggregate("count", ScalarExpr::Lit(Literal::Bool(true)))
                   : Aggregate(f == 1 ? "count" : "sum", column, f == 4);
        read(agg.expr);
        // Distinct aggregates are listed apart; each keeps its position.
        (agg.distinct ? op.distinct_aggrs : op.simple_aggrs)
            .emplace_back(pos, std::move(agg));
        break;
      }
      case ReduceKind::kHierarchicalMonotonic:
      case ReduceKind::kHierarchicalBucketed:
        op.aggr_funcs.push_back(rng_.Chance(0.5) ? "min" : "max");
        read(column);
        break;
      default: {
        static constexpr const char* kBasic[] = {"array_agg", "list_agg",
                                                 "jsonb_agg", "string_agg"};
        std::string func = kBasic[rng_.Next() % std::size(kBasic)];
        AggregateExpr agg;
        if (func == "string_agg") {
          agg = Aggregate(func,
                          ScalarExpr::Call(
                              CallStyle::kFunction, "row",
                              {column, ScalarExpr::Lit(Literal::String(","))}));
          agg.params = "order_by=[#0 desc nulls_first]";
        } else {
          agg = Aggregate(func, column);
          agg.params = "order_by=[]";
        }
        read(agg.expr);
        op.aggrs.push_back(std::move(agg));
        break;
      }
    }
  }
  if (kind == ReduceKind::kBasicSingle) {
    op.fused_unnest_list = rng_.Chance(0.05);
  } else if (kind == ReduceKind::kHierarchicalMonotonic) {
    op.must_consolidate = rng_.Chance(0.5);
  } else if (kind == ReduceKind::kHierarchicalBucketed) {
    op.buckets = {268435456, 16777216, 1048576, 65536, 4096, 256, 16};
  }
  op.val_plan.project = std::move(values);
  if (rng_.Chance(0.15)) op.mfp_after.filter.push_back(Predicate(arity));
  return op;
}

std::vector<ArrangementForm> Parts::RandomArrangements(int arity) {
  std::vector<ArrangementForm> forms;
  int count = rng_.Int(1, 2);
  for (int i = 0; i < count; ++i) {
    std::vector<ScalarExpr> key;
    int shape = rng_.Int(0, 9);
    if (shape < 6) {
      key.push_back(AnyCol(arity));
    } else if (shape < 8 && arity >= 2) {
      key.push_back(ScalarExpr::Column(0));
      key.push_back(ScalarExpr::Column(rng_.Int(1, arity - 1)));
    } else if (shape == 8) {
      key.push_back(
          Infix("+", ScalarExpr::Column(0), ScalarExpr::Column(arity - 1)));
    }  // else the empty key: a cross join's arrangement
    bool duplicate = false;
    for (const ArrangementForm& f : forms) {
      duplicate = duplicate || SameIgnoringNames(f.key, key);
    }
    if (!duplicate) forms.push_back(MakeArrangement(std::move(key), arity));
  }
  return forms;
}

// ---- Joins ----------------------------------------------------------------

std::optional<JoinClosure> Parts::MaybeClosure(int in, double chance,
                                               bool may_project) {
  if (!rng_.Chance(chance)) return std::nullopt;
  JoinClosure closure;
  closure.mfp.filter.push_back(Predicate(in));
  if (may_project && rng_.Chance(0.5)) {
    std::vector<int> columns = Iota(in);
    rng_.Shuffle(columns);
    columns.resize(rng_.Int(1, in));
    std::sort(columns.begin(), columns.end());
    closure.mfp.project = std::move(columns);
  }
  return closure;
}

JoinDraft Parts::RandomLinearJoin(int arity, int inputs) {
  JoinDraft draft;
  draft.inputs.resize(inputs);
  for (JoinInput& input : draft.inputs) input.arity = rng_.Int(1, 4);
  std::vector<int> order = Iota(inputs);
  rng_.Shuffle(order);
  JoinPath& path = draft.op.paths.emplace_back();
  const int source = order[0];
  path.source_relation = source;
  JoinInput& first = draft.inputs[source];
  if (rng_.Chance(0.5)) {
    int column = rng_.Int(0, first.arity - 1);
    path.source_key = ColumnKey({column});
    first.key = std::vector<int>{column};
  } else {
    first.raw_arrange_by = rng_.Chance(0.5);
  }
  int stream = first.arity;
  path.initial_closure = MaybeClosure(stream, 0.2, false);
  for (int s = 1; s < inputs; ++s) {
    JoinInput& lookup = draft.inputs[order[s]];
    JoinStage& stage = path.stages.emplace_back();
    stage.lookup_relation = order[s];
    std::vector<int> lookup_columns;
    std::vector<int> stream_columns;
    if (rng_.Chance(0.85)) {  // else a cross join on the empty key
      lookup_columns.push_back(rng_.Int(0, lookup.arity - 1));
      stream_columns.push_back(rng_.Int(0, stream - 1));
    }
    lookup.key = lookup_columns;
    stage.lookup_key = ColumnKey(lookup_columns);
    stage.stream_key = ColumnKey(stream_columns);
    stage.stream_thinning =
        MakeColumnArrangement(stream_columns, stream).thinning;
    size_t lookup_values =
        MakeColumnArrangement(lookup_columns, lookup.arity).thinning.size();
    // The joined row is stream key ++ stream value ++ lookup value.
    int joined = static_cast<int>(stream_columns.size() +
                                  stage.stream_thinning.size() + lookup_values);
    stage.closure = MaybeClosure(joined, 0.3, true);
    stream = stage.closure ? stage.closure->mfp.OutputArity(joined) : joined;
  }
  JoinClosure final_closure;
  std::vector<int> picks(arity);
  for (int& c : picks) c = rng_.Int(0, stream - 1);
  final_closure.mfp.project = std::move(picks);
  path.final_closure = std::move(final_closure);
  return draft;
}

JoinDraft Parts::RandomDeltaJoin(int arity, int inputs) {
  JoinDraft draft;
  draft.op.delta = true;
  draft.inputs.resize(inputs);
  for (JoinInput& input : draft.inputs) {
    input.arity = rng_.Int(1, 4);
    input.key = std::vector<int>{0};
  }
  // Output column i is column `output[i].second` of input `output[i].first`.
  std::vector<std::pair<int, int>> output(arity);
  for (auto& [relation, column] : output) {
    relation = rng_.Int(0, inputs - 1);
    column = rng_.Int(0, draft.inputs[relation].arity - 1);
  }
  for (int source = 0; source < inputs; ++source) {
    JoinPath& path = draft.op.paths.emplace_back();
    path.source_relation = source;
    path.source_key = ColumnKey({0});
    path.initial_closure =
        MaybeClosure(draft.inputs[source].arity, 0.15, false);
    // Which (input, column) each stream column holds. Stream and lookup are
    // keyed by their column 0, so each stage appends the lookup's others.
    std::vector<std::pair<int, int>> layout;
    for (int c = 0; c < draft.inputs[source].arity; ++c) {
      layout.emplace_back(source, c);
    }
    for (int relation = 0; relation < inputs; ++relation) {
      if (relation == source) continue;
      JoinStage& stage = path.stages.emplace_back();
      stage.lookup_relation = relation;
      stage.lookup_key = ColumnKey({0});
      stage.stream_key = ColumnKey({0});
      stage.stream_thinning =
          MakeColumnArrangement({0}, static_cast<int>(layout.size())).thinning;
      for (int c = 1; c < draft.inputs[relation].arity; ++c) {
        layout.emplace_back(relation, c);
      }
      stage.closure =
          MaybeClosure(static_cast<int>(layout.size()), 0.15, false);
    }
    std::vector<int> picks;
    for (const auto& [relation, column] : output) {
      if (column == 0) {
        picks.push_back(0);  // the join key, equal in every input
        continue;
      }
      auto it = std::find(layout.begin(), layout.end(),
                          std::make_pair(relation, column));
      picks.push_back(static_cast<int>(it - layout.begin()));
    }
    JoinClosure final_closure;
    final_closure.mfp.project = std::move(picks);
    path.final_closure = std::move(final_closure);
  }
  return draft;
}

}  // namespace lir::test::plan_gen
