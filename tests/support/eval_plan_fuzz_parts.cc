// Typed expressions, MFPs and text helpers for the general-plan generator.
#include "tests/support/eval_plan_fuzz_parts.h"

#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace lir::test::fuzz {

std::vector<int> ColumnsOf(const Schema& schema, Type type) {
  std::vector<int> out;
  for (size_t c = 0; c < schema.size(); ++c) {
    if (schema[c] == type) out.push_back(static_cast<int>(c));
  }
  return out;
}

std::string Render(const Expr& e, const std::vector<int>* remap) {
  auto arg = [&](size_t i) { return Render(e.args[i], remap); };
  switch (e.kind) {
    case Expr::Kind::kColumn:
      return absl::StrCat("#",
                          remap != nullptr ? (*remap)[e.column] : e.column);
    case Expr::Kind::kLiteral: return e.text;
    case Expr::Kind::kInfix: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < e.args.size(); ++i) parts.push_back(arg(i));
      return absl::StrCat(
          "(", absl::StrJoin(parts, absl::StrCat(" ", e.text, " ")), ")");
    }
    case Expr::Kind::kIsNull: return absl::StrCat("(", arg(0), ") IS NULL");
    case Expr::Kind::kIsNotNull:
      return absl::StrCat("(", arg(0), ") IS NOT NULL");
    case Expr::Kind::kNot: return absl::StrCat("NOT(", arg(0), ")");
    case Expr::Kind::kCall: {
      std::vector<std::string> parts;
      for (size_t i = 0; i < e.args.size(); ++i) parts.push_back(arg(i));
      return absl::StrCat(e.text, "(", absl::StrJoin(parts, ", "), ")");
    }
    case Expr::Kind::kCase:
      return absl::StrCat("case when ", arg(0), " then ", arg(1), " else ",
                          arg(2), " end");
  }
  return "";
}

void CollectColumns(const Expr& e, std::set<int>* out) {
  if (e.kind == Expr::Kind::kColumn) out->insert(e.column);
  for (const Expr& a : e.args) CollectColumns(a, out);
}

namespace {

Expr Unary(Expr::Kind kind, Expr a) {
  Expr e;
  e.kind = kind;
  e.args = {std::move(a)};
  return e;
}

Expr Call(std::string name, std::vector<Expr> args) {
  Expr e;
  e.kind = Expr::Kind::kCall;
  e.text = std::move(name);
  e.args = std::move(args);
  return e;
}

Expr Case(Expr when, Expr then, Expr otherwise) {
  Expr e;
  e.kind = Expr::Kind::kCase;
  e.args = {std::move(when), std::move(then), std::move(otherwise)};
  return e;
}

}  // namespace

Expr ExprGen::Literal(Type type) {
  switch (type) {
    case Type::kInt:
      // Inside the data's range mostly: `#0 > 4` keeps nothing.
      return Expr::Literal(absl::StrCat(
          dice_.Chance(10) ? 4 * dice_.Below(2) - 1 : dice_.Below(4)));
    case Type::kStr:
      return Expr::Literal(dice_.Pick(
          std::vector<std::string>{"\"a\"", "\"b\"", "\"c\"", "\"\""}));
    case Type::kBool: return Expr::Literal(dice_.Chance(50) ? "true" : "false");
  }
  return Expr::Literal("null");
}

Expr ExprGen::Comparison(const Schema& cols, int depth) {
  // Equality with a literal keeps a quarter of the rows; weight the
  // others up.
  static const std::vector<std::string> kOps = {
      "=", "!=", "!=", "<", "<=", "<=", ">", ">=", ">="};
  // Compare like with like: a column of some type against a column or an
  // expression of the same type.
  Type type = Type::kInt;
  const std::vector<int> strs = ColumnsOf(cols, Type::kStr);
  if (!strs.empty() &&
      (ColumnsOf(cols, Type::kInt).empty() || dice_.Chance(30))) {
    type = Type::kStr;
  }
  // Mostly a column on the left: a comparison of literals alone is
  // constant, and a constant filter makes the rest of the plan vacuous.
  const std::vector<int> same = ColumnsOf(cols, type);
  Expr a = !same.empty() && dice_.Chance(80) ? Expr::Column(dice_.Pick(same))
                                             : Of(type, cols, depth - 1);
  Expr b = dice_.Chance(50) ? Literal(type) : Of(type, cols, depth - 1);
  if (b.kind == Expr::Kind::kColumn && a.kind == Expr::Kind::kColumn &&
      a.column == b.column) {
    b = Literal(type);  // `#2 > #2` is constant too
  }
  return Expr::Infix(dice_.Pick(kOps), std::move(a), std::move(b));
}

Expr ExprGen::Predicate(const Schema& cols, int depth) {
  const int pick = dice_.Below(10);
  if (pick < 5 || depth <= 0) return Comparison(cols, depth);
  if (pick < 7) {
    // Of a column: `("b") IS NULL` is constant.
    Expr x = cols.empty()
                 ? Literal(Type::kInt)
                 : Expr::Column(dice_.Below(static_cast<int>(cols.size())));
    return Unary(
        dice_.Chance(30) ? Expr::Kind::kIsNull : Expr::Kind::kIsNotNull,
        std::move(x));
  }
  if (pick < 9) {
    Expr e =
        Expr::Infix(dice_.Chance(50) ? "AND" : "OR", Predicate(cols, depth - 1),
                    Predicate(cols, depth - 1));
    return e;
  }
  const std::vector<int> bools = ColumnsOf(cols, Type::kBool);
  if (!bools.empty() && dice_.Chance(50)) {
    return Expr::Infix("=", Expr::Column(dice_.Pick(bools)),
                       Literal(Type::kBool));
  }
  return Unary(Expr::Kind::kNot, Comparison(cols, depth));
}

Expr ExprGen::Of(Type type, const Schema& cols, int depth) {
  const std::vector<int> same = ColumnsOf(cols, type);
  // Mostly columns: an expression of literals alone is a constant, and a
  // constant compared with data mostly keeps all rows or none.
  int pick = dice_.Below(depth <= 0 ? 7 : 16);
  if (pick < 6) {
    if (!same.empty()) return Expr::Column(dice_.Pick(same));
    // No column of this type: derive one from the others when the depth
    // allows (integer_to_text, a comparison, arithmetic).
    pick = depth <= 0 ? 6 : 10;
  }
  if (pick < 7 || depth <= 0) {
    if (type == Type::kBool && !cols.empty() && dice_.Chance(70)) {
      return Comparison(cols, 1);
    }
    return Literal(type);
  }
  if (pick < 9) {
    Expr when = Predicate(cols, depth - 1);
    return Case(std::move(when), Of(type, cols, depth - 1),
                Of(type, cols, depth - 1));
  }
  if (pick < 10) {
    return Call("coalesce", {Of(type, cols, depth - 1), Literal(type)});
  }
  switch (type) {
    case Type::kInt: {
      const int op = dice_.Below(5);
      if (op == 0) {
        // Multiplying by a small literal only: values stay far from the
        // 64-bit range at every depth, so no plan fails with overflow.
        return Expr::Infix("*", Of(type, cols, depth - 1),
                           Expr::Literal(absl::StrCat(dice_.Below(4) - 1)));
      }
      if (op == 1) return Call("abs", {Of(type, cols, depth - 1)});
      if (op == 2) {
        return Call(dice_.Chance(50) ? "greatest" : "least",
                    {Of(type, cols, depth - 1), Of(type, cols, depth - 1)});
      }
      return Expr::Infix(dice_.Chance(50) ? "+" : "-",
                         Of(type, cols, depth - 1), Of(type, cols, depth - 1));
    }
    case Type::kStr:
      if (dice_.Chance(50)) {
        return Call("integer_to_text", {Of(Type::kInt, cols, depth - 1)});
      }
      return Expr::Infix("||", Of(type, cols, depth - 1), Literal(type));
    case Type::kBool: return Predicate(cols, depth - 1);
  }
  return Literal(type);
}

Schema MfpSpec::Output(const Schema& in) const {
  // Without a projection the map columns only feed filters
  // (../shared/reference/SEMANTICS.md 8.1).
  if (!project.has_value()) return in;
  Schema widened = in;
  widened.insert(widened.end(), map_types.begin(), map_types.end());
  Schema out;
  for (int c : *project) out.push_back(widened[c]);
  return out;
}

Lines MfpSpec::ToLines() const {
  Lines out;
  if (project.has_value())
    out.push_back(absl::StrCat("project=(", Positions(*project), ")"));
  if (!filter.empty()) {
    std::vector<std::string> parts;
    for (const Expr& e : filter) parts.push_back(Render(e));
    out.push_back(absl::StrCat("filter=(", absl::StrJoin(parts, " AND "), ")"));
  }
  if (!map.empty()) {
    std::vector<std::string> parts;
    for (const Expr& e : map) parts.push_back(Render(e));
    out.push_back(absl::StrCat("map=(", absl::StrJoin(parts, ", "), ")"));
  }
  return out;
}

MfpSpec RandomMfp(Dice& dice, ExprGen& exprs, const Schema& in,
                  const MfpShape& shape) {
  MfpSpec spec;
  Schema widened = in;
  const int maps = dice.Below(shape.max_map + 1);
  for (int i = 0; i < maps; ++i) {
    const int t = dice.Below(10);
    const Type type = t < 6 ? Type::kInt : (t < 8 ? Type::kStr : Type::kBool);
    spec.map.push_back(exprs.Of(type, widened, 2));
    spec.map_types.push_back(type);
    widened.push_back(type);
  }
  // Filters compound down a plan: keep them rare enough that most plans
  // still produce rows.
  int filters = 0;
  while (filters < shape.max_filter && dice.Chance(filters == 0 ? 35 : 15)) {
    ++filters;
  }
  for (int i = 0; i < filters; ++i) {
    spec.filter.push_back(exprs.Predicate(widened, 1));
  }
  if (dice.Chance(shape.project_percent)) {
    std::vector<int> project;
    const int n = static_cast<int>(widened.size());
    if (dice.Chance(40)) {
      // A permutation of a subset: the common shape of Materialize's
      // projections.
      for (int c = 0; c < n; ++c) {
        if (dice.Chance(65)) project.push_back(c);
      }
      dice.Shuffle(project);
    } else {
      const int width = 1 + dice.Below(std::min(n, 4));
      for (int i = 0; i < width; ++i) project.push_back(dice.Below(n));
    }
    if (project.empty()) project.push_back(dice.Below(n));
    // `project=` is printed unless it is #0..#in-1
    // (../shared/reference/SEMANTICS.md 8.1).
    const int inputs = static_cast<int>(in.size());
    bool identity = static_cast<int>(project.size()) == inputs;
    for (int c = 0; identity && c < inputs; ++c) identity = project[c] == c;
    if (!identity) spec.project = std::move(project);
  }
  return spec;
}

Schema LayoutSchema(const std::vector<int>& key, const Schema& row) {
  Schema out;
  std::vector<bool> in_key(row.size(), false);
  for (int c : key) {
    out.push_back(row[c]);
    in_key[c] = true;
  }
  for (size_t c = 0; c < row.size(); ++c) {
    if (!in_key[c]) out.push_back(row[c]);
  }
  return out;
}

std::string Positions(const std::vector<int>& columns) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < columns.size();) {
    size_t j = i;
    while (j + 1 < columns.size() && columns[j + 1] == columns[j] + 1) ++j;
    if (j - i >= 2) {
      parts.push_back(absl::StrCat("#", columns[i], "..=#", columns[j]));
      i = j + 1;
    } else {
      parts.push_back(absl::StrCat("#", columns[i]));
      ++i;
    }
  }
  return absl::StrJoin(parts, ", ");
}

std::string KeyText(const std::vector<Expr>& key) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < key.size();) {
    if (key[i].kind != Expr::Kind::kColumn) {
      parts.push_back(Render(key[i]));
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < key.size() && key[j + 1].kind == Expr::Kind::kColumn &&
           key[j + 1].column == key[j].column + 1) {
      ++j;
    }
    if (j - i >= 2) {
      parts.push_back(absl::StrCat("#", key[i].column, "..=#", key[j].column));
      i = j + 1;
    } else {
      parts.push_back(absl::StrCat("#", key[i].column));
      ++i;
    }
  }
  return absl::StrJoin(parts, ", ");
}

std::string ArrangementText(const std::vector<Expr>& key, int arity) {
  // MakeArrangement's layout: a column the key names plainly sits at its
  // (last) key position, the others follow the key in column order.
  std::map<int, int> key_position;
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i].kind == Expr::Kind::kColumn) {
      key_position[key[i].column] = static_cast<int>(i);
    }
  }
  std::vector<int> thinning;
  std::vector<std::string> moved;
  int next = static_cast<int>(key.size());
  for (int c = 0; c < arity; ++c) {
    auto it = key_position.find(c);
    int position = it != key_position.end() ? it->second : next++;
    if (it == key_position.end()) thinning.push_back(c);
    if (position != c) moved.push_back(absl::StrCat("#", c, ": #", position));
  }
  const std::string permutation =
      moved.empty() ? "id" : absl::StrCat("{", absl::StrJoin(moved, ", "), "}");
  return absl::StrCat("{ key=[", KeyText(key), "], permutation=", permutation,
                      ", thinning=(", Positions(thinning), ") }");
}

std::string ColumnArrangementText(const std::vector<int>& key, int arity) {
  std::vector<Expr> exprs;
  for (int c : key) exprs.push_back(Expr::Column(c));
  return ArrangementText(exprs, arity);
}

std::vector<int> ValueColumns(const std::vector<int>& key, int arity) {
  std::vector<int> out;
  for (int c = 0; c < arity; ++c) {
    bool in_key = false;
    for (int k : key) in_key = in_key || k == c;
    if (!in_key) out.push_back(c);
  }
  return out;
}

eval::Datum RandomDatum(Dice& dice, Type type, bool nullable) {
  if (nullable && dice.Chance(8)) return eval::Datum::Null();
  switch (type) {
    case Type::kInt:
      return eval::Datum::Int(dice.Chance(4) ? -1 : dice.Below(4));
    case Type::kStr:
      return eval::Datum::String(
          std::string(1, static_cast<char>('a' + dice.Below(3))));
    case Type::kBool: return eval::Datum::Bool(dice.Chance(50));
  }
  return eval::Datum::Null();
}

std::string DatumText(const eval::Datum& datum) {
  if (datum.is_null()) return "null";
  if (datum.is_bool()) return datum.as_bool() ? "true" : "false";
  if (datum.is_int()) return absl::StrCat(datum.as_int());
  return absl::StrCat("\"", datum.as_string(), "\"");
}

std::vector<int> AllColumns(size_t arity) {
  std::vector<int> out;
  for (size_t c = 0; c < arity; ++c) out.push_back(static_cast<int>(c));
  return out;
}

std::string LocalName(uint64_t id) { return absl::StrCat("l", id); }

Lines PlanBlock(const std::string& label, const MfpSpec& spec) {
  if (spec.IsIdentity()) return {absl::StrCat(label, "=id")};
  Lines out = {label};
  Append(out, Indent(spec.ToLines(), 2));
  return out;
}

Lines Indent(const Lines& lines, int spaces) {
  Lines out;
  out.reserve(lines.size());
  const std::string pad(spaces, ' ');
  for (const std::string& line : lines) out.push_back(pad + line);
  return out;
}

void Append(Lines& out, const Lines& more) {
  out.insert(out.end(), more.begin(), more.end());
}

}  // namespace lir::test::fuzz
