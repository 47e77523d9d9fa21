// The generator's stateful nodes: the four Reduce kinds, the three TopK
// kinds, and LetRec templates that converge (bounded counting, transitive
// closure) or stop at a recursion limit.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/support/eval_plan_fuzz_internal.h"

namespace lir::test::fuzz {

namespace {

// Up to `max` distinct columns of `arity`, in random order.
std::vector<int> SomeColumns(Dice& dice, size_t arity, int max) {
  std::vector<int> columns = AllColumns(arity);
  dice.Shuffle(columns);
  columns.resize(std::min<size_t>(columns.size(), dice.Below(max + 1)));
  return columns;
}

// One aggregate: its text, the val_plan column it reads, its output type.
struct Aggregate {
  std::string text;
  bool distinct = false;
  int val_column = 0;
  Type type = Type::kInt;
};

}  // namespace

Sub FuzzGenerator::Reduce(int depth) {
  Sub input = NonNegative(Gen(depth - 1));
  // With input_key the plans read the input arrangement's layout row
  // (../shared/reference/SEMANTICS.md 8.3), whose column types LayoutSchema
  // gives.
  std::optional<std::vector<int>> input_key;
  if (!input.offered.empty() && dice_.Chance(30)) {
    input_key = dice_.Pick(input.offered);
  }
  const Schema in = input_key.has_value()
                        ? LayoutSchema(*input_key, input.schema)
                        : input.schema;
  const int arity = static_cast<int>(in.size());
  std::vector<int> key = SomeColumns(dice_, in.size(), 2);
  if (dice_.Chance(15)) key = AllColumns(in.size());
  MfpSpec key_plan;
  if (key != AllColumns(in.size())) key_plan.project = key;

  // The val_plan maps what the aggregates need (`true` for count(*),
  // predicates for any/all) and projects one column per aggregate.
  MfpSpec val_plan;
  std::vector<int> val_project;
  std::vector<Aggregate> aggregates;
  auto mapped = [&](Expr e, Type t) {
    val_plan.map.push_back(std::move(e));
    val_plan.map_types.push_back(t);
    return arity + static_cast<int>(val_plan.map.size()) - 1;
  };
  const std::vector<int> ints = ColumnsOf(in, Type::kInt);
  std::vector<int> ordered;  // Int and Str columns: min/max compare them
  for (int c = 0; c < arity; ++c) {
    if (in[c] != Type::kBool) ordered.push_back(c);
  }
  const int kind = dice_.Below(100);
  Lines plan_lines;
  std::string header;
  if (kind < 22 && !key.empty()) {
    header = "Reduce::Distinct";
  } else if (kind < 52 || ordered.empty()) {
    header = "Reduce::Accumulable";
    const int count = 1 + dice_.Below(3);
    for (int i = 0; i < count; ++i) {
      Aggregate a;
      const int pick = dice_.Below(5);
      if (pick == 0 || (pick >= 3 && ints.empty())) {
        a.text = "count(*)";
        a.val_column = mapped(Expr::Literal("true"), Type::kBool);
      } else if (pick == 1) {
        a.val_column = dice_.Below(arity);
        a.text = absl::StrCat("count(#", a.val_column, ")");
      } else if (pick == 2) {
        a.distinct = true;
        a.val_column = dice_.Below(arity);
        a.text = absl::StrCat("count(distinct #", a.val_column, ")");
      } else {
        a.distinct = pick == 4;
        a.val_column = dice_.Pick(ints);
        a.text = absl::StrCat("sum(", a.distinct ? "distinct " : "", "#",
                              a.val_column, ")");
      }
      aggregates.push_back(std::move(a));
    }
    // Positions: aggregate p is output column p; the simple ones are
    // listed first, then the distinct ones, as Materialize prints them.
    int simple = 0, distinct = 0;
    for (size_t p = 0; p < aggregates.size(); ++p) {
      if (aggregates[p].distinct) continue;
      plan_lines.push_back(absl::StrCat("simple_aggrs[", simple++, "]=(", p,
                                        ", ", aggregates[p].text, ")"));
    }
    for (size_t p = 0; p < aggregates.size(); ++p) {
      if (!aggregates[p].distinct) continue;
      plan_lines.push_back(absl::StrCat("distinct_aggrs[", distinct++, "]=(", p,
                                        ", ", aggregates[p].text, ")"));
    }
  } else if (kind < 78) {
    header = "Reduce::Hierarchical";
    const int count = 1 + dice_.Below(2);
    std::vector<std::string> funcs;
    for (int i = 0; i < count; ++i) {
      Aggregate a;
      a.val_column = dice_.Pick(ordered);
      a.type = in[a.val_column];
      funcs.push_back(dice_.Chance(50) ? "min" : "max");
      aggregates.push_back(std::move(a));
    }
    plan_lines.push_back(
        absl::StrCat("aggr_funcs=[", absl::StrJoin(funcs, ", "), "]"));
    if (dice_.Chance(50)) {
      Count("Reduce::Hierarchical monotonic");
      plan_lines.push_back("monotonic");
      if (dice_.Chance(50)) plan_lines.push_back("must_consolidate");
    } else {
      Count("Reduce::Hierarchical buckets");
      plan_lines.push_back(
          dice_.Chance(70) ? "buckets=[268435456, 16777216, 1048576, 65536, "
                             "4096, 256, 16]"
                           : "buckets=[]");
    }
  } else {
    header = "Reduce::Basic";
    const int count = dice_.Chance(65) ? 1 : 2;
    for (int i = 0; i < count; ++i) {
      Aggregate a;
      const int pick = dice_.Below(4);
      if (pick == 0) {
        // any/all over a predicate the val_plan computes.
        const Expr predicate = exprs_.Predicate(in, 1);
        a.text = absl::StrCat(dice_.Chance(50) ? "any" : "all", "(",
                              Render(predicate), ")");
        a.val_column = mapped(predicate, Type::kBool);
        a.type = Type::kBool;
      } else if (pick == 1 && !ints.empty()) {
        a.val_column = dice_.Pick(ints);
        a.text = absl::StrCat("sum(#", a.val_column, ")");
      } else if (pick == 2) {
        a.val_column = dice_.Below(arity);
        a.text = absl::StrCat("count(#", a.val_column, ")");
      } else {
        a.val_column = dice_.Pick(ordered);
        a.type = in[a.val_column];
        a.text = absl::StrCat(dice_.Chance(50) ? "min" : "max", "(#",
                              a.val_column, ")");
      }
      aggregates.push_back(std::move(a));
    }
    if (count == 1) {
      plan_lines.push_back(absl::StrCat("aggr=(", aggregates[0].text, ")"));
    } else {
      Count("Reduce::Basic aggrs[i]");
      for (size_t i = 0; i < aggregates.size(); ++i) {
        plan_lines.push_back(
            absl::StrCat("aggrs[", i, "]=", aggregates[i].text));
      }
    }
  }
  Count(header);
  for (const Aggregate& a : aggregates) val_project.push_back(a.val_column);
  val_plan.project = val_project;
  if (val_plan.map.empty() && val_project == AllColumns(in.size())) {
    val_plan.project.reset();
  }

  Schema reduced;
  for (int c : key) reduced.push_back(in[c]);
  for (const Aggregate& a : aggregates) reduced.push_back(a.type);
  MfpSpec after;
  if (dice_.Chance(30)) after = RandomMfp(dice_, exprs_, reduced, {1, 1, 50});

  Sub out;
  out.lines = {header};
  Append(out.lines, Indent(plan_lines, 2));
  if (input_key.has_value()) {
    out.lines.push_back(absl::StrCat("  input_key=", Positions(*input_key)));
  }
  Append(out.lines, Indent(PlanBlock("key_plan", key_plan), 2));
  Append(out.lines, Indent(PlanBlock("val_plan", val_plan), 2));
  if (!after.IsIdentity()) {
    out.lines.push_back("  mfp_after");
    Append(out.lines, Indent(after.ToLines(), 4));
  }
  Append(out.lines, Indent(input.lines, 2));
  out.schema = after.Output(reduced);
  if (!key.empty() && after.IsIdentity()) {
    out.offered = {AllColumns(key.size())};
  }
  return out;
}

Sub FuzzGenerator::TopK(int depth) {
  Sub input = NonNegative(Gen(depth - 1));
  const size_t arity = input.schema.size();
  std::vector<int> group = SomeColumns(dice_, arity, 2);
  std::vector<std::string> order;
  const int keys = dice_.Chance(10) ? 0 : 1 + dice_.Below(2);
  for (int i = 0; i < keys; ++i) {
    order.push_back(
        absl::StrCat("#", dice_.Below(static_cast<int>(arity)),
                     dice_.Chance(50) ? " asc" : " desc",
                     dice_.Chance(50) ? " nulls_last" : " nulls_first"));
  }
  std::string header;
  std::string attributes;
  if (!group.empty())
    absl::StrAppend(&attributes, " group_by=[", Positions(group), "]");
  if (!order.empty()) {
    absl::StrAppend(&attributes, " order_by=[", absl::StrJoin(order, ", "),
                    "]");
  }
  const int kind = dice_.Below(100);
  if (kind < 45) {
    header = "TopK::Basic";
    if (dice_.Chance(80)) {
      // limit=0 keeps nothing: rare.
      absl::StrAppend(&attributes,
                      " limit=", dice_.Chance(5) ? 0 : 1 + dice_.Below(3));
    }
    if (dice_.Chance(30))
      absl::StrAppend(&attributes, " offset=", 1 + dice_.Below(2));
  } else if (kind < 70) {
    header = "TopK::MonotonicTop1";
    if (dice_.Chance(50)) absl::StrAppend(&attributes, " must_consolidate");
  } else {
    header = "TopK::MonotonicTopK";
    absl::StrAppend(&attributes, " limit=", 1 + dice_.Below(3));
    if (dice_.Chance(50)) absl::StrAppend(&attributes, " must_consolidate");
  }
  Count(header);
  Sub out;
  out.lines = {absl::StrCat(header, attributes)};
  Append(out.lines, Indent(input.lines, 2));
  out.schema = input.schema;
  return out;
}

Sub FuzzGenerator::LetRecBody(const Local& local) {
  Sub read = GetLocal(local);
  if (!dice_.Chance(30)) return read;
  MfpSpec spec = RandomMfp(dice_, exprs_, read.schema, {1, 1, 60});
  if (spec.IsIdentity()) return read;
  return WrapMfp(std::move(read), spec);
}

Sub FuzzGenerator::LetRec(int depth) {
  Count("LetRec");
  // Everything generated until the body is inside the values.
  ++recursive_values_;
  // The adapter runs the whole LetRec subtree with the snapshot engine, so
  // its inputs stay small: the differential value is in the plumbing (free
  // locals, globals, changes in and out), and in the nodes above it.
  const int inner = std::min(depth - 1, 1);
  const int pick = dice_.Below(100);
  Sub out;
  Lines& lines = out.lines;
  lines = {"With Mutually Recursive"};
  Local result;
  if (pick < 40) {
    // Counting up to a bound from seeds: converges once every value has
    // reached it.
    Count("LetRec counting");
    Sub seed = NonNegative(Conform(Gen(inner), {Type::kInt}));
    result = Local{next_local_++, {Type::kInt}, {{0}}};
    std::string limit;
    const int mode = dice_.Below(10);
    if (mode >= 7) {
      Count("LetRec recursion_limit");
      limit = absl::StrCat("[recursion_limit=", 1 + dice_.Below(8),
                           mode < 9 ? ", return_at_limit" : "", "] ");
    }
    const std::string name = LocalName(result.id);
    lines.push_back(absl::StrCat("  cte ", limit, name, " ="));
    Append(lines, {"    Reduce::Distinct", "      key_plan=id",
                   "      val_plan", "        project=()", "      Union"});
    Append(lines, Indent(seed.lines, 8));
    Append(lines, {"        Mfp", "          project=(#1)",
                   absl::StrCat("          filter=((#0 < ", 2 + dice_.Below(5),
                                ") AND (#0 > -3))"),
                   "          map=((#0 + 1))",
                   absl::StrCat("          Get::PassArrangements ", name),
                   "            raw=true"});
  } else if (pick < 75) {
    // Transitive closure of an edge relation: at most |V|^2 rows.
    Count("LetRec transitive closure");
    const Type t = dice_.Chance(75) ? Type::kInt : Type::kStr;
    Sub edges = NonNegative(Conform(Gen(inner), {t, t}));
    const uint64_t edge_id = next_local_++;
    result = Local{next_local_++, {t, t}, {{0, 1}}};
    const std::string e = LocalName(edge_id);
    const std::string x = LocalName(result.id);
    lines.push_back(absl::StrCat("  cte ", e, " ="));
    Append(lines, Indent(edges.lines, 4));
    lines.push_back(absl::StrCat("  cte ", x, " ="));
    Append(lines, {"    Reduce::Distinct",
                   "      key_plan=id",
                   "      val_plan",
                   "        project=()",
                   "      Union",
                   absl::StrCat("        Get::PassArrangements ", e),
                   "          raw=true",
                   "        Join::Linear",
                   "          linear_stage[0]",
                   "            closure",
                   "              project=(#1, #2)",
                   "            lookup={ relation=1, key=[#0] }",
                   "            stream={ key=[#1], thinning=(#0) }",
                   "          source={ relation=0, raw }",
                   absl::StrCat("          Get::PassArrangements ", x),
                   "            raw=true",
                   "          ArrangeBy",
                   "            raw=true",
                   "            arrangements[0]={ key=[#0], permutation=id, "
                   "thinning=(#1) }",
                   absl::StrCat("            Get::PassArrangements ", e),
                   "              raw=true"});
  } else {
    // Never converges within the limit: returns the current value (or the
    // round fails, in both engines alike).
    Count("LetRec recursion_limit");
    Sub seed = Conform(Gen(inner), {Type::kInt});
    result = Local{next_local_++, {Type::kInt}, {}};
    const std::string name = LocalName(result.id);
    lines.push_back(absl::StrCat("  cte [recursion_limit=", 1 + dice_.Below(4),
                                 dice_.Chance(80) ? ", return_at_limit" : "",
                                 "] ", name, " ="));
    lines.push_back("    Union");
    Append(lines, Indent(seed.lines, 6));
    Append(lines, {"      Mfp", "        project=(#1)",
                   "        filter=((#0 < 40))", "        map=((#0 + 1))",
                   absl::StrCat("        Get::PassArrangements ", name),
                   "          raw=true"});
    out.may_be_negative = seed.may_be_negative;
  }
  --recursive_values_;
  lines.push_back("Return");
  Sub body = LetRecBody(result);
  Append(lines, Indent(body.lines, 2));
  out.schema = body.schema;
  out.may_be_negative = out.may_be_negative || body.may_be_negative;
  return out;
}

}  // namespace lir::test::fuzz
