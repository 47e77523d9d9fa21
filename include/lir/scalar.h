// Scalar expressions and datums of LIR plans.
//
// The tree keeps exactly what Materialize's EXPLAIN prints (including the
// optional column names carried on column references), so that a parsed plan
// prints back byte for byte, while still being a real expression tree that an
// evaluator can walk.
#ifndef LIR_LIR_SCALAR_H_
#define LIR_LIR_SCALAR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lir {

/// The type family of a literal datum, as far as its printed form reveals it.
enum class LiteralKind {
  kNull,         ///< `null`
  kBool,         ///< `true` / `false`
  kNumber,       ///< integers, decimals, floats, `NaN`, `inf`, `-inf`
  kString,       ///< a double-quoted string
  kDate,         ///< `1997-07-06`
  kTime,         ///< `12:00:00[.frac]`
  kTimestamp,    ///< `2020-01-01 00:00:00[.frac]`
  kTimestampTz,  ///< `2020-01-01 00:00:00[.frac] UTC`
  kInterval,     ///< `7 days`, `1 year 2 mons 3 days 04:05:06`
  kRedacted,     ///< `█` (printed by `WITH(redacted)`)
  kOther,        ///< any other datum (bytes, arrays, maps, ...), kept verbatim
};

/// One datum of a row or expression.
struct Literal {
  LiteralKind kind = LiteralKind::kNull;
  /// For kString the decoded string value; for every other kind the exact
  /// printed text (e.g. "-5", "7 days", "true", "null", "█").
  std::string text = "null";

  static Literal Null();
  static Literal Bool(bool value);
  static Literal Int(int64_t value);
  static Literal String(std::string value);
  static Literal Redacted();

  /// True for kNumber literals whose text is a plain 64-bit integer.
  bool IsInteger() const;
  /// The integer value; only meaningful when IsInteger().
  int64_t AsInteger() const;

  friend bool operator==(const Literal&, const Literal&) = default;
};

/// A row of datums (Constant rows, seek values).
using Row = std::vector<Literal>;

/// The kind of a scalar expression node.
enum class ScalarKind {
  kColumn,      ///< `#3` or `#3{name}`
  kLiteral,     ///< a datum
  kCall,        ///< a function or operator application (see CallStyle)
  kIf,          ///< `case when c then a else b end`; args = {c, a, b}
  kCaseLookup,  ///< `case_lookup e when lit then r ... else d end`;
                ///< args = {e, lit1, r1, lit2, r2, ..., d}
  kOpaque,      ///< syntax the parser does not know; printed verbatim
};

/// How a call is written. Together with the function name this is also what
/// identifies the operation for evaluation.
enum class CallStyle {
  kFunction,   ///< `name[params](a, b, ...)`; includes `row(...)`, `mz_now()`
  kInfix,      ///< `(a op b)`; for `AND`/`OR` with 2+ args `(a AND b AND c)`
  kPostfixIs,  ///< `(a) IS NULL`, `(a) IS TRUE`, `(a) IS FALSE`;
               ///< func = "IS NULL" / "IS TRUE" / "IS FALSE"
  kNot,        ///< `NOT(a)`, or `(x) IS NOT NULL` when `a` is a kPostfixIs call
  kBracketList,  ///< `array[a, b]`, `list[a, b]`; func = "array" / "list"
};

/// A scalar expression tree node. Value type; children are held by value.
struct ScalarExpr {
  ScalarKind kind = ScalarKind::kLiteral;

  // kColumn
  int column = 0;
  /// The column name carried by the reference, if printed (`#0{a}`).
  std::optional<std::string> name;

  // kLiteral
  Literal literal;

  // kCall
  CallStyle style = CallStyle::kFunction;
  /// Function name or operator: "+", "AND", "integer_to_text", "IS NULL".
  std::string func;
  /// Raw text of a bracketed parameter group after the name, without the
  /// brackets (`record_get[0]` -> "0"); absent when not printed.
  std::optional<std::string> params;

  // kCall, kIf, kCaseLookup
  std::vector<ScalarExpr> args;

  // kOpaque
  std::string opaque;

  static ScalarExpr Column(int index,
                           std::optional<std::string> name = std::nullopt);
  static ScalarExpr Lit(Literal literal);
  static ScalarExpr Call(CallStyle style, std::string func,
                         std::vector<ScalarExpr> args);
  static ScalarExpr If(ScalarExpr cond, ScalarExpr then_expr,
                       ScalarExpr else_expr);
  static ScalarExpr Opaque(std::string text);

  bool IsColumn() const { return kind == ScalarKind::kColumn; }

  /// Structural equality including column names.
  friend bool operator==(const ScalarExpr&, const ScalarExpr&) = default;
};

/// Equality that ignores column names (the name is cosmetic: `#0{a}` and
/// `#0` denote the same column).
bool SameIgnoringNames(const ScalarExpr& a, const ScalarExpr& b);
bool SameIgnoringNames(const std::vector<ScalarExpr>& a,
                       const std::vector<ScalarExpr>& b);

/// Calls `fn(column_index)` for every column reference in `expr`.
template <typename Fn>
void ForEachColumn(const ScalarExpr& expr, Fn&& fn) {
  if (expr.kind == ScalarKind::kColumn) fn(expr.column);
  for (const ScalarExpr& arg : expr.args) ForEachColumn(arg, fn);
}

/// The largest column index referenced by `expr`, or -1 if none.
int MaxColumn(const ScalarExpr& expr);

/// Nesting depth of an expression tree (a leaf has depth 1).
int Depth(const ScalarExpr& expr);

/// A sort order on one column: `#2 desc nulls_first`.
struct OrderKey {
  int column = 0;
  bool desc = false;
  bool nulls_last = true;
  friend bool operator==(const OrderKey&, const OrderKey&) = default;
};

}  // namespace lir

#endif  // LIR_LIR_SCALAR_H_
