// Scalar expression helpers.
#include "lir/scalar.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace lir {

Literal Literal::Null() { return Literal{LiteralKind::kNull, "null"}; }

Literal Literal::Bool(bool value) {
  return Literal{LiteralKind::kBool, value ? "true" : "false"};
}

Literal Literal::Int(int64_t value) {
  return Literal{LiteralKind::kNumber, absl::StrCat(value)};
}

Literal Literal::String(std::string value) {
  return Literal{LiteralKind::kString, std::move(value)};
}

Literal Literal::Redacted() { return Literal{LiteralKind::kRedacted, "█"}; }

bool Literal::IsInteger() const {
  if (kind != LiteralKind::kNumber || text.empty()) return false;
  // Only an optional '-' and digits: SimpleAtoi alone would also accept a
  // leading '+' or surrounding whitespace, which EXPLAIN never prints for
  // integers.
  size_t start = text[0] == '-' ? 1 : 0;
  if (start == text.size()) return false;
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  int64_t value = 0;
  return absl::SimpleAtoi(text, &value);
}

int64_t Literal::AsInteger() const {
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value)) return 0;
  return value;
}

ScalarExpr ScalarExpr::Column(int index, std::optional<std::string> name) {
  ScalarExpr e;
  e.kind = ScalarKind::kColumn;
  e.column = index;
  e.name = std::move(name);
  return e;
}

ScalarExpr ScalarExpr::Lit(Literal literal) {
  ScalarExpr e;
  e.kind = ScalarKind::kLiteral;
  e.literal = std::move(literal);
  return e;
}

ScalarExpr ScalarExpr::Call(CallStyle style, std::string func,
                            std::vector<ScalarExpr> args) {
  ScalarExpr e;
  e.kind = ScalarKind::kCall;
  e.style = style;
  e.func = std::move(func);
  e.args = std::move(args);
  return e;
}

ScalarExpr ScalarExpr::If(ScalarExpr cond, ScalarExpr then_expr,
                          ScalarExpr else_expr) {
  ScalarExpr e;
  e.kind = ScalarKind::kIf;
  e.args.push_back(std::move(cond));
  e.args.push_back(std::move(then_expr));
  e.args.push_back(std::move(else_expr));
  return e;
}

ScalarExpr ScalarExpr::Opaque(std::string text) {
  ScalarExpr e;
  e.kind = ScalarKind::kOpaque;
  e.opaque = std::move(text);
  return e;
}

bool SameIgnoringNames(const ScalarExpr& a, const ScalarExpr& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ScalarKind::kColumn: return a.column == b.column;
    case ScalarKind::kLiteral: return a.literal == b.literal;
    case ScalarKind::kOpaque: return a.opaque == b.opaque;
    case ScalarKind::kCall:
      if (a.style != b.style || a.func != b.func || a.params != b.params) {
        return false;
      }
      break;
    case ScalarKind::kIf:
    case ScalarKind::kCaseLookup: break;
  }
  return SameIgnoringNames(a.args, b.args);
}

bool SameIgnoringNames(const std::vector<ScalarExpr>& a,
                       const std::vector<ScalarExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameIgnoringNames(a[i], b[i])) return false;
  }
  return true;
}

int MaxColumn(const ScalarExpr& expr) {
  int max_column = -1;
  ForEachColumn(expr, [&](int c) { max_column = std::max(max_column, c); });
  return max_column;
}

int Depth(const ScalarExpr& expr) {
  int deepest_child = 0;
  for (const ScalarExpr& arg : expr.args) {
    deepest_child = std::max(deepest_child, Depth(arg));
  }
  return deepest_child + 1;
}

}  // namespace lir
