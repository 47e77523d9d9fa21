// General plans for the engine differential test: recursive composition of
// every node kind the evaluator runs, written as verbose EXPLAIN text so a
// failing case prints as a plan anyone can rerun with `lir-opt run`.
// Joins are in eval_plan_fuzz_join.cc; Reduce, TopK and LetRec in
// eval_plan_fuzz_stateful.cc; AntiJoin in eval_plan_fuzz_antijoin.cc.
#include "tests/support/eval_plan_fuzz_gen.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/support/eval_plan_fuzz_internal.h"
#include "tests/support/plan_text_gen.h"

namespace lir::test {
namespace fuzz {

namespace {

std::string Header(const char* kind, const std::string& id) {
  return absl::StrCat(kind, " ", id);
}

// A seek value for `key` over `schema`: one non-NULL literal per key column.
std::string SeekText(Dice& dice, const std::vector<int>& key,
                     const Schema& schema) {
  std::vector<std::string> parts;
  for (int c : key) {
    parts.push_back(DatumText(RandomDatum(dice, schema[c], false)));
  }
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

// A random key of 1 or 2 distinct columns, in any order (a key that is
// not in column order makes a non-identity permutation).
std::vector<int> RandomKey(Dice& dice, const Schema& schema) {
  std::vector<int> columns = AllColumns(schema.size());
  dice.Shuffle(columns);
  const size_t width =
      std::min<size_t>(columns.size(), dice.Chance(20) ? 2 : 1);
  columns.resize(width);
  return columns;
}

}  // namespace

FuzzCase FuzzGenerator::Build() {
  const int collections = 2 + dice_.Below(3);
  for (int i = 0; i < collections; ++i) {
    Global g;
    g.name = absl::StrCat("materialize.public.t", i);
    const int arity = 1 + dice_.Below(3);
    for (int c = 0; c < arity; ++c) {
      g.schema.push_back(dice_.Chance(70) ? Type::kInt : Type::kStr);
      g.nullable.push_back(dice_.Chance(40));
    }
    globals_.push_back(std::move(g));
  }
  budget_ = 8 + dice_.Below(22);
  const Sub root = Gen(2 + dice_.Below(4));
  FuzzCase out;
  out.plan_text = absl::StrCat(test::kQueryHeader,
                               absl::StrJoin(Indent(root.lines, 2), "\n"),
                               "\n\nTarget cluster: quickstart\n");
  out.data = Data();
  out.kinds = kinds_;
  return out;
}

Sub FuzzGenerator::Gen(int depth) {
  if (depth <= 0 || budget_ <= 0) return Leaf();
  --budget_;
  // Weights: every kind is common enough to be covered hundreds of times
  // in the default run.
  static constexpr int kWeights[] = {10, 5, 8, 6, 13, 8, 3, 8, 7, 6, 7, 4, 5};
  int total = 0;
  for (int w : kWeights) total += w;
  int pick = dice_.Below(total);
  int kind = 0;
  while (pick >= kWeights[kind]) pick -= kWeights[kind++];
  if ((kind == 2 || kind == 3) && joins_ >= kMaxJoins) kind = 0;
  if (kind == 12 && recursive_values_ > 0) kind = 0;
  switch (kind) {
    case 0: return MfpNode(depth);
    case 1: return FlatMap(depth);
    case 2: return LinearJoin(depth);
    case 3: return DeltaJoin(depth);
    case 4: return Reduce(depth);
    case 5: return TopK(depth);
    case 6: return Difference(depth);
    case 7: return ThresholdNode(depth);
    case 8: return UnionNode(depth);
    case 9: return ArrangeByNode(depth);
    case 10: return Let(depth);
    case 11: return LetRec(depth);
    default: return AntiJoin(depth);
  }
}

Sub FuzzGenerator::Leaf() {
  if (!scope_.empty() && dice_.Chance(45)) return GetLocal(dice_.Pick(scope_));
  if (dice_.Chance(15)) return Constant();
  return GetGlobal();
}

Sub FuzzGenerator::Constant() {
  Count("Constant");
  Sub out;
  const int arity = 1 + dice_.Below(3);
  for (int c = 0; c < arity; ++c) {
    out.schema.push_back(dice_.Chance(70) ? Type::kInt : Type::kStr);
  }
  out.lines = {"Constant"};
  const int rows = 1 + dice_.Below(4);
  for (int r = 0; r < rows; ++r) {
    std::vector<std::string> datums;
    for (Type t : out.schema)
      datums.push_back(DatumText(RandomDatum(dice_, t, true)));
    const std::string row = absl::StrCat("(", absl::StrJoin(datums, ", "), ")");
    int diff = 1;
    if (dice_.Chance(15)) diff = 2;
    if (dice_.Chance(12)) diff = -1;
    if (diff < 0) out.may_be_negative = true;
    out.lines.push_back(diff == 1
                            ? absl::StrCat("  - ", row)
                            : absl::StrCat("  - (", row, " x ", diff, ")"));
  }
  return out;
}

Sub FuzzGenerator::GetGlobal() {
  const Global& g = dice_.Pick(globals_);
  const int arity = static_cast<int>(g.schema.size());
  Sub out;
  out.schema = g.schema;
  const int pick = dice_.Below(100);
  if (pick < 45) {
    Count("Get::Collection");
    MfpSpec spec = RandomMfp(dice_, exprs_, g.schema, {1, 1, 50});
    out.lines = {Header("Get::Collection", g.name)};
    Append(out.lines, Indent(spec.ToLines(), 2));
    out.lines.push_back("  raw=true");
    out.schema = spec.Output(g.schema);
    return out;
  }
  if (pick < 75) {
    // An index on the global: the dataflow imports it.
    Count("Get::PassArrangements (index)");
    out.lines = {Header("Get::PassArrangements", g.name), "  raw=false"};
    const int forms = dice_.Chance(25) ? 2 : 1;
    for (int i = 0; i < forms; ++i) {
      std::vector<int> key = RandomKey(dice_, g.schema);
      if (std::find(out.offered.begin(), out.offered.end(), key) !=
          out.offered.end()) {
        continue;
      }
      out.lines.push_back(
          absl::StrCat("  arrangements[", out.offered.size(),
                       "]=", ColumnArrangementText(key, arity)));
      out.offered.push_back(std::move(key));
    }
    return out;
  }
  Count("Get::Arrangement");
  const std::vector<int> key = RandomKey(dice_, g.schema);
  // The MFP reads the arrangement's layout row
  // (../shared/reference/SEMANTICS.md 8.3).
  const Schema layout = LayoutSchema(key, g.schema);
  MfpSpec spec = RandomMfp(dice_, exprs_, layout, {1, 1, 50});
  out.lines = {Header("Get::Arrangement", g.name)};
  Append(out.lines, Indent(spec.ToLines(), 2));
  out.lines.push_back(absl::StrCat("  key=", Positions(key)));
  if (dice_.Chance(35)) {
    Count("Get::Arrangement seek (val)");
    out.lines.push_back(absl::StrCat("  val=", SeekText(dice_, key, g.schema)));
  }
  out.lines.push_back("  raw=false");
  out.lines.push_back(
      absl::StrCat("  arrangements[0]=", ColumnArrangementText(key, arity)));
  out.schema = spec.Output(layout);
  return out;
}

Sub FuzzGenerator::GetLocal(const Local& local) {
  ++uses_[local.id];
  const int arity = static_cast<int>(local.schema.size());
  Sub out;
  out.schema = local.schema;
  const int pick = dice_.Below(100);
  if (pick < 20 && !local.offered.empty()) {
    Count("Get::Arrangement (local)");
    const std::vector<int>& key = dice_.Pick(local.offered);
    const Schema layout = LayoutSchema(key, local.schema);
    MfpSpec spec = RandomMfp(dice_, exprs_, layout, {1, 1, 50});
    out.lines = {Header("Get::Arrangement", LocalName(local.id))};
    Append(out.lines, Indent(spec.ToLines(), 2));
    out.lines.push_back(absl::StrCat("  key=", Positions(key)));
    if (dice_.Chance(35)) {
      Count("Get::Arrangement seek (val)");
      out.lines.push_back(
          absl::StrCat("  val=", SeekText(dice_, key, local.schema)));
    }
    out.lines.push_back("  raw=false");
    out.lines.push_back(
        absl::StrCat("  arrangements[0]=", ColumnArrangementText(key, arity)));
    out.schema = spec.Output(layout);
    return out;
  }
  if (pick < 45) {
    Count("Get::Collection (local)");
    MfpSpec spec = RandomMfp(dice_, exprs_, local.schema, {1, 1, 50});
    out.lines = {Header("Get::Collection", LocalName(local.id))};
    Append(out.lines, Indent(spec.ToLines(), 2));
    out.lines.push_back("  raw=true");
    out.schema = spec.Output(local.schema);
    return out;
  }
  Count("Get::PassArrangements (local)");
  out.lines = {Header("Get::PassArrangements", LocalName(local.id))};
  out.lines.push_back(local.offered.empty() ? "  raw=true" : "  raw=false");
  for (size_t i = 0; i < local.offered.size(); ++i) {
    out.lines.push_back(
        absl::StrCat("  arrangements[", i,
                     "]=", ColumnArrangementText(local.offered[i], arity)));
  }
  out.offered = local.offered;
  return out;
}

Sub FuzzGenerator::WrapMfp(Sub input, const MfpSpec& spec) {
  Count("Mfp");
  Sub out;
  out.lines = {"Mfp"};
  Append(out.lines, Indent(spec.ToLines(), 2));
  Append(out.lines, Indent(input.lines, 2));
  out.schema = spec.Output(input.schema);
  out.may_be_negative = input.may_be_negative;
  return out;
}

Sub FuzzGenerator::MfpNode(int depth) {
  Sub input = Gen(depth - 1);
  MfpSpec spec = RandomMfp(dice_, exprs_, input.schema, {2, 2, 60});
  if (spec.IsIdentity())
    spec.filter.push_back(exprs_.Predicate(input.schema, 1));
  if (input.offered.empty() || !dice_.Chance(20)) {
    return WrapMfp(std::move(input), spec);
  }
  // A seek into the input's arrangement (`input_key` + `input_val`).
  Count("Mfp");
  Count("Mfp seek (input_val)");
  const std::vector<int>& key = dice_.Pick(input.offered);
  // The MFP reads the input arrangement's layout row
  // (../shared/reference/SEMANTICS.md 8.3).
  const Schema layout = LayoutSchema(key, input.schema);
  spec = RandomMfp(dice_, exprs_, layout, {2, 2, 60});
  Sub out;
  out.lines = {"Mfp"};
  Append(out.lines, Indent(spec.ToLines(), 2));
  out.lines.push_back(absl::StrCat("  input_key=", Positions(key)));
  out.lines.push_back(
      absl::StrCat("  input_val=", SeekText(dice_, key, input.schema)));
  Append(out.lines, Indent(input.lines, 2));
  out.schema = spec.Output(layout);
  out.may_be_negative = input.may_be_negative;
  return out;
}

Sub FuzzGenerator::FlatMap(int depth) {
  Count("FlatMap");
  Sub input = RequireType(Gen(depth - 1), Type::kInt);
  const int a = dice_.Pick(ColumnsOf(input.schema, Type::kInt));
  // Bounded series: at most a handful of rows per input row.
  std::string call;
  switch (dice_.Below(3)) {
    case 0:
      call = absl::StrCat("generate_series(#", a, ", (#", a, " + ",
                          dice_.Below(3), "), 1)");
      break;
    case 1:
      call = absl::StrCat("generate_series(#", a, ", (#", a, " + ",
                          dice_.Below(3), "))");
      break;
    default:
      call = absl::StrCat("generate_series(", dice_.Below(2), ", least(#", a,
                          ", 3))");
      break;
  }
  Sub out;
  out.lines = {absl::StrCat("FlatMap ", call)};
  Schema widened = input.schema;
  widened.push_back(Type::kInt);
  out.schema = widened;
  if (dice_.Chance(40)) {
    MfpSpec after = RandomMfp(dice_, exprs_, widened, {1, 1, 60});
    if (!after.IsIdentity()) {
      out.lines.push_back("  mfp_after");
      Append(out.lines, Indent(after.ToLines(), 4));
      out.schema = after.Output(widened);
    }
  }
  Append(out.lines, Indent(input.lines, 2));
  out.may_be_negative = input.may_be_negative;
  return out;
}

Sub FuzzGenerator::UnionNode(int depth) {
  Count("Union");
  const bool consolidate = dice_.Chance(50);
  if (consolidate) Count("Union consolidate_output=true");
  Sub out;
  out.lines = {consolidate ? "Union consolidate_output=true" : "Union"};
  Sub first = Gen(depth - 1);
  out.schema = first.schema;
  out.may_be_negative = first.may_be_negative;
  Append(out.lines, Indent(first.lines, 2));
  const int more = dice_.Chance(25) ? 2 : 1;
  for (int i = 0; i < more; ++i) {
    Sub next = Conform(Gen(depth - 1), out.schema);
    if (dice_.Chance(15)) next = NegateNode(std::move(next));
    out.may_be_negative = out.may_be_negative || next.may_be_negative;
    Append(out.lines, Indent(next.lines, 2));
  }
  return out;
}

Sub FuzzGenerator::NegateNode(Sub input) {
  Count("Negate");
  Sub out;
  out.lines = {"Negate"};
  Append(out.lines, Indent(input.lines, 2));
  out.schema = input.schema;
  out.may_be_negative = true;
  return out;
}

Sub FuzzGenerator::Difference(int depth) {
  // A bare Negate would only feed Thresholds that keep nothing; subtracting
  // a filtered copy of a collection keeps the rows the filter rejects.
  Count("Let");
  Count("Union");
  Count("Get::PassArrangements (local)");
  Count("Get::Collection (local)");
  Sub value = Gen(depth - 1);
  const std::string name = LocalName(next_local_++);
  const int arity = static_cast<int>(value.schema.size());
  Sub all;
  all.lines = {absl::StrCat("Get::PassArrangements ", name),
               value.offered.empty() ? "  raw=true" : "  raw=false"};
  for (size_t i = 0; i < value.offered.size(); ++i) {
    all.lines.push_back(
        absl::StrCat("  arrangements[", i,
                     "]=", ColumnArrangementText(value.offered[i], arity)));
  }
  Sub subtract;
  subtract.lines = {
      absl::StrCat("Get::Collection ", name),
      absl::StrCat("  filter=(", Render(exprs_.Predicate(value.schema, 1)),
                   ")"),
      "  raw=true"};
  subtract = NegateNode(std::move(subtract));
  Sub out;
  out.lines = {"With", absl::StrCat("  cte ", name, " =")};
  Append(out.lines, Indent(value.lines, 4));
  out.lines.push_back("Return");
  out.lines.push_back(dice_.Chance(50) ? "  Union consolidate_output=true"
                                       : "  Union");
  Append(out.lines, Indent(all.lines, 4));
  Append(out.lines, Indent(subtract.lines, 4));
  out.schema = value.schema;
  out.may_be_negative = value.may_be_negative;
  return out;
}

Sub FuzzGenerator::ThresholdNode(int depth) {
  Sub input = Gen(depth - 1);
  if (dice_.Chance(50)) {
    // EXCEPT ALL: Union(base, Negate(subtract)), as Materialize lowers it.
    Count("Union");
    Sub subtract = NegateNode(Conform(Gen(depth - 1), input.schema));
    Sub both;
    both.lines = {dice_.Chance(50) ? "Union consolidate_output=true" : "Union"};
    const bool negate_first = dice_.Chance(50);
    Append(both.lines, Indent(negate_first ? subtract.lines : input.lines, 2));
    Append(both.lines, Indent(negate_first ? input.lines : subtract.lines, 2));
    both.schema = input.schema;
    both.may_be_negative = true;
    input = std::move(both);
  }
  return WrapThreshold(std::move(input), dice_.Chance(80));
}

Sub FuzzGenerator::WrapThreshold(Sub input, bool arrange) {
  Count("Threshold::Basic");
  const int arity = static_cast<int>(input.schema.size());
  const std::vector<int> all = AllColumns(arity);
  const std::string form = ColumnArrangementText(all, arity);
  if (arrange) input = WrapArrange(std::move(input), {all});
  Sub out;
  out.lines = {absl::StrCat("Threshold::Basic ensure_arrangement=", form)};
  Append(out.lines, Indent(input.lines, 2));
  out.schema = input.schema;
  out.offered = {all};
  return out;
}

Sub FuzzGenerator::WrapArrange(Sub input,
                               const std::vector<std::vector<int>>& keys) {
  Count("ArrangeBy");
  const int arity = static_cast<int>(input.schema.size());
  Sub out;
  out.lines = {"ArrangeBy", dice_.Chance(50) ? "  raw=true" : "  raw=false"};
  for (size_t i = 0; i < keys.size(); ++i) {
    out.lines.push_back(absl::StrCat(
        "  arrangements[", i, "]=", ColumnArrangementText(keys[i], arity)));
  }
  Append(out.lines, Indent(input.lines, 2));
  out.schema = input.schema;
  out.may_be_negative = input.may_be_negative;
  out.offered = input.offered;
  for (const auto& key : keys) out.offered.push_back(key);
  return out;
}

Sub FuzzGenerator::ArrangeByNode(int depth) {
  Sub input = Gen(depth - 1);
  if (!dice_.Chance(25)) {
    std::vector<std::vector<int>> keys = {RandomKey(dice_, input.schema)};
    if (dice_.Chance(30)) {
      std::vector<int> other = RandomKey(dice_, input.schema);
      if (other != keys[0]) keys.push_back(std::move(other));
    }
    return WrapArrange(std::move(input), keys);
  }
  // An input MFP, or a key that is an expression.
  Count("ArrangeBy");
  Count("ArrangeBy mfp/expression key");
  MfpSpec spec = RandomMfp(dice_, exprs_, input.schema, {1, 1, 50});
  const Schema arranged = spec.Output(input.schema);
  const int arity = static_cast<int>(arranged.size());
  std::vector<Expr> key = {exprs_.Of(Type::kInt, arranged, 1)};
  Sub out;
  out.lines = {"ArrangeBy"};
  Append(out.lines, Indent(spec.ToLines(), 2));
  out.lines.push_back("  raw=true");
  out.lines.push_back(
      absl::StrCat("  arrangements[0]=", ArrangementText(key, arity)));
  Append(out.lines, Indent(input.lines, 2));
  out.schema = arranged;
  out.may_be_negative = input.may_be_negative;
  if (spec.IsIdentity()) out.offered = input.offered;
  return out;
}

Sub FuzzGenerator::Conform(Sub input, const Schema& target) {
  if (input.schema == target && dice_.Chance(60)) return input;
  MfpSpec spec;
  std::vector<int> project;
  const int arity = static_cast<int>(input.schema.size());
  for (Type t : target) {
    const std::vector<int> same = ColumnsOf(input.schema, t);
    if (!same.empty() && dice_.Chance(85)) {
      project.push_back(dice_.Pick(same));
      continue;
    }
    spec.map.push_back(exprs_.Of(t, input.schema, 1));
    spec.map_types.push_back(t);
    project.push_back(arity + static_cast<int>(spec.map.size()) - 1);
  }
  if (dice_.Chance(20))
    spec.filter.push_back(exprs_.Predicate(input.schema, 1));
  if (project != AllColumns(arity)) spec.project = std::move(project);
  if (spec.IsIdentity()) return input;
  return WrapMfp(std::move(input), spec);
}

Sub FuzzGenerator::RequireType(Sub input, Type type) {
  if (!ColumnsOf(input.schema, type).empty()) return input;
  MfpSpec spec;
  spec.map.push_back(exprs_.Of(type, input.schema, 1));
  spec.map_types.push_back(type);
  // Keep the mapped column: without a projection it would not be output.
  spec.project = AllColumns(static_cast<int>(input.schema.size()) + 1);
  return WrapMfp(std::move(input), spec);
}

Sub FuzzGenerator::NonNegative(Sub input) {
  // Reduce and TopK fail on negative counts; mostly guard them with a
  // Threshold, sometimes let the round fail (both engines must agree on
  // the failing round too).
  if (!input.may_be_negative || dice_.Chance(15)) return input;
  return WrapThreshold(std::move(input), dice_.Chance(80));
}

Sub FuzzGenerator::UseLocal(Sub body, const Local& local) {
  if (uses_[local.id] > 0) return body;
  Count("Union");
  Sub read = Conform(GetLocal(local), body.schema);
  Sub out;
  out.lines = {"Union"};
  Append(out.lines, Indent(body.lines, 2));
  Append(out.lines, Indent(read.lines, 2));
  out.schema = body.schema;
  out.may_be_negative = body.may_be_negative || read.may_be_negative;
  return out;
}

Sub FuzzGenerator::Let(int depth) {
  Count("Let");
  Sub value = Gen(depth - 1);
  Local local{next_local_++, value.schema, value.offered};
  scope_.push_back(local);
  Sub body = UseLocal(Gen(depth - 1), local);
  scope_.pop_back();
  Sub out;
  out.lines = {"With", absl::StrCat("  cte ", LocalName(local.id), " =")};
  Append(out.lines, Indent(value.lines, 4));
  out.lines.push_back("Return");
  Append(out.lines, Indent(body.lines, 2));
  out.schema = body.schema;
  out.may_be_negative = body.may_be_negative;
  out.offered = body.offered;
  return out;
}

eval::InputData FuzzGenerator::Data() {
  eval::InputData data;
  const int rounds = 3 + dice_.Below(3);
  for (const Global& g : globals_) {
    eval::InputCollection collection;
    collection.arity = static_cast<int>(g.schema.size());
    std::map<eval::DataRow, int64_t> present;
    for (int round = 0; round < rounds; ++round) {
      const int inserts = round == 0 ? 4 + dice_.Below(8) : dice_.Below(5);
      for (int i = 0; i < inserts; ++i) {
        eval::DataRow row;
        for (size_t c = 0; c < g.schema.size(); ++c) {
          row.push_back(RandomDatum(dice_, g.schema[c], g.nullable[c]));
        }
        const int64_t diff = 1 + dice_.Below(2);
        present[row] += diff;
        collection.updates.push_back({row, static_cast<uint64_t>(round), diff});
      }
      // Retract only what is present: inputs never go negative (Negate
      // and Constants make negative counts inside plans).
      const int retractions = round == 0 ? 0 : dice_.Below(3);
      for (int i = 0; i < retractions; ++i) {
        std::vector<eval::DataRow> live;
        for (const auto& [row, count] : present) {
          if (count > 0) live.push_back(row);
        }
        if (live.empty()) break;
        const eval::DataRow& row = dice_.Pick(live);
        const int64_t diff = -(1 + dice_.Below(static_cast<int>(present[row])));
        present[row] += diff;
        collection.updates.push_back({row, static_cast<uint64_t>(round), diff});
      }
    }
    data.collections[g.name] = std::move(collection);
  }
  return data;
}

}  // namespace fuzz

FuzzCase GenerateFuzzCase(uint64_t seed) {
  return fuzz::FuzzGenerator(seed).Build();
}

}  // namespace lir::test
