// Printing and parsing of scalar expressions and literals
// (../shared/reference/TEXT-FORMAT.md section 5).
//
// Representation choices (the printer and parser agree on them, so both
// text -> IR -> text and IR -> text -> IR round trips hold):
// * `(a op b)` is a kInfix call; `(a AND b AND c)` is one kInfix call with
//   func "AND" and all operands. Materialize prints AND/OR with fewer than
//   two operands as a function (`AND(x)`, `AND()`); those are kept as kInfix
//   calls too (the operation is the same, only the spelling differs), and
//   the printer spells any kInfix call with fewer than two operands that way.
// * `(x) IS NULL` is kPostfixIs "IS NULL"; `(x) IS NOT NULL` is kNot over it;
//   every other negation is `NOT(x)`.
// * Unary functions named by symbols (`-(#0)`, `~(#0)`) are kFunction calls.
// * Literals keep their printed text; their kind is read from its shape.
//   An unsigned `HH:MM:SS[.frac]` with two-digit hours is kTime; a signed or
//   longer one can only be an interval's time part and is kInterval.
// * A few non-canonical spellings are accepted and print canonically:
//   `NOT((x) IS NULL)` prints `(x) IS NOT NULL`, `#0{"a"}` prints `#0{a}`.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"
#include "src/explain/text_cursor.h"
#include "src/explain/text_primitives.h"

namespace lir::explain {
namespace {

using internal::IsDigit;
using internal::IsIdentChar;
using internal::IsIdentStart;
using internal::kRedactedMark;
using internal::PrimitiveCursor;

/// Characters of symbolic function names such as `-` in `-(#0)`.
bool IsOperatorChar(char c) {
  return std::string_view("+-*/%<>=!~&|^?@#").find(c) != std::string_view::npos;
}

/// Column names Materialize never prints (the SQL placeholder).
constexpr std::string_view kPlaceholderName = "?column?";

void AppendColumnName(std::string& out, const std::string& name) {
  if (internal::IsBareColumnName(name)) {
    out += name;
    return;
  }
  out += '"';
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void AppendJoined(std::string& out, const std::vector<ScalarExpr>& exprs,
                  std::string_view separator) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) out += separator;
    AppendExpr(out, exprs[i]);
  }
}

void AppendCall(std::string& out, const ScalarExpr& e) {
  switch (e.style) {
    case CallStyle::kFunction: break;
    case CallStyle::kInfix:
      if (e.args.size() < 2) break;
      out += '(';
      AppendJoined(out, e.args, absl::StrCat(" ", e.func, " "));
      out += ')';
      return;
    case CallStyle::kPostfixIs:
      out += '(';
      AppendJoined(out, e.args, ", ");
      absl::StrAppend(&out, ") ", e.func);
      return;
    case CallStyle::kNot:
      if (e.args.size() == 1 && e.args[0].kind == ScalarKind::kCall &&
          e.args[0].style == CallStyle::kPostfixIs &&
          e.args[0].func.substr(0, 3) == "IS ") {
        const ScalarExpr& test = e.args[0];
        out += '(';
        AppendJoined(out, test.args, ", ");
        absl::StrAppend(&out, ") IS NOT ", test.func.substr(3));
        return;
      }
      out += "NOT(";
      AppendJoined(out, e.args, ", ");
      out += ')';
      return;
    case CallStyle::kBracketList:
      absl::StrAppend(&out, e.func, "[");
      AppendJoined(out, e.args, ", ");
      out += ']';
      return;
  }
  out += e.func;
  if (e.params.has_value()) absl::StrAppend(&out, "[", *e.params, "]");
  out += '(';
  AppendJoined(out, e.args, ", ");
  out += ')';
}

}  // namespace

// ---- Printing -------------------------------------------------------------

void AppendLiteral(std::string& out, const Literal& lit) {
  if (lit.kind != LiteralKind::kString) {
    out += lit.text;
    return;
  }
  out += '"';
  for (char c : lit.text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
}

void AppendExpr(std::string& out, const ScalarExpr& e) {
  switch (e.kind) {
    case ScalarKind::kColumn:
      absl::StrAppend(&out, "#", e.column);
      if (e.name.has_value() && *e.name != kPlaceholderName) {
        out += '{';
        AppendColumnName(out, *e.name);
        out += '}';
      }
      return;
    case ScalarKind::kLiteral: AppendLiteral(out, e.literal); return;
    case ScalarKind::kOpaque: out += e.opaque; return;
    case ScalarKind::kCall: AppendCall(out, e); return;
    case ScalarKind::kIf: {
      static constexpr std::string_view kWords[] = {"case when ", " then ",
                                                    " else "};
      for (size_t i = 0; i < e.args.size(); ++i) {
        out += kWords[i < 3 ? i : 2];
        AppendExpr(out, e.args[i]);
      }
      out += " end";
      return;
    }
    case ScalarKind::kCaseLookup: {
      // args = {input, lit1, result1, ..., default}.
      out += "case_lookup ";
      if (!e.args.empty()) AppendExpr(out, e.args[0]);
      size_t i = 1;
      for (; i + 2 < e.args.size(); i += 2) {
        out += " when ";
        AppendExpr(out, e.args[i]);
        out += " then ";
        AppendExpr(out, e.args[i + 1]);
      }
      for (; i < e.args.size(); ++i) {
        out += " else ";
        AppendExpr(out, e.args[i]);
      }
      out += " end";
      return;
    }
  }
}

std::string PrintExpr(const ScalarExpr& e) {
  std::string out;
  AppendExpr(out, e);
  return out;
}

// ---- Cursor basics --------------------------------------------------------

namespace internal {

bool IsBareColumnName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || c == '_' || (i > 0 && IsDigit(c));
    if (!ok) return false;
  }
  return true;
}

bool PrimitiveCursor::Consume(std::string_view s) {
  if (!LookingAt(s)) return false;
  pos_ += s.size();
  return true;
}

absl::Status PrimitiveCursor::Expect(std::string_view s) {
  if (Consume(s)) return absl::OkStatus();
  return Error(absl::StrCat("`", ToAbsl(s), "`"));
}

absl::Status PrimitiveCursor::ExpectEnd(std::string_view what) {
  if (AtEnd()) return absl::OkStatus();
  return Error(what);
}

absl::Status PrimitiveCursor::Error(std::string_view what) {
  return ErrorAt(pos_, what);
}

absl::Status PrimitiveCursor::ErrorAt(size_t pos, std::string_view what) {
  error_pos_ = pos;
  return absl::InvalidArgumentError(absl::StrCat("expected ", ToAbsl(what)));
}

size_t PrimitiveCursor::DigitsEnd(size_t start) const {
  while (IsDigit(CharAt(start))) ++start;
  return start;
}

absl::StatusOr<int64_t> PrimitiveCursor::ParseInteger(std::string_view what) {
  size_t start = pos_;
  size_t digits = CharAt(start) == '-' ? start + 1 : start;
  size_t end = DigitsEnd(digits);
  int64_t value = 0;
  if (end == digits ||
      !absl::SimpleAtoi(ToAbsl(text_.substr(start, end - start)), &value)) {
    return Error(what);
  }
  pos_ = end;
  return value;
}

absl::StatusOr<std::string> PrimitiveCursor::ParseIdentifier(
    std::string_view what) {
  if (!IsIdentStart(Peek())) return Error(what);
  size_t start = pos_;
  while (IsIdentChar(Peek())) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

absl::StatusOr<int> PrimitiveCursor::ParseColumnIndex() {
  if (Peek() != '#' || !IsDigit(Peek(1))) return Error("column `#<n>`");
  size_t start = ++pos_;
  size_t end = DigitsEnd(start);
  int value = 0;
  if (!absl::SimpleAtoi(ToAbsl(text_.substr(start, end - start)), &value)) {
    return Error("column index that fits in 32 bits");
  }
  pos_ = end;
  return value;
}

absl::StatusOr<ScalarExpr> PrimitiveCursor::ParseColumnRef() {
  ScalarExpr e;
  e.kind = ScalarKind::kColumn;
  LIR_ASSIGN_OR_RETURN(e.column, ParseColumnIndex());
  if (!Consume("{")) return e;
  std::string name;
  if (Consume("\"")) {
    // SQL quoting: `"` is doubled, everything else is raw.
    while (true) {
      if (AtEnd()) return Error("closing `\"` of the column name");
      if (Consume("\"\"")) {
        name += '"';
      } else if (Consume("\"")) {
        break;
      } else {
        name += text_[pos_++];
      }
    }
  } else {
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '}') ++pos_;
    name = std::string(text_.substr(start, pos_ - start));
    if (!IsBareColumnName(name)) {
      return ErrorAt(start,
                     "column name matching [a-z_][a-z0-9_]* or a "
                     "double-quoted name");
    }
  }
  LIR_RETURN_IF_ERROR(Expect("}"));
  e.name = std::move(name);
  return e;
}

size_t PrimitiveCursor::GroupEnd(size_t start) const {
  std::string stack;
  for (size_t p = start; p < text_.size(); ++p) {
    char c = text_[p];
    if (c == '"') {
      // Skip a string literal; `\"` does not end it.
      for (++p; p < text_.size() && text_[p] != '"'; ++p) {
        if (text_[p] == '\\' && p + 1 < text_.size()) ++p;
      }
      if (p >= text_.size()) return std::string_view::npos;
      continue;
    }
    if (c == '[' || c == '(' || c == '{') {
      stack += c == '[' ? ']' : c == '(' ? ')' : '}';
    } else if (c == ']' || c == ')' || c == '}') {
      if (stack.empty() || stack.back() != c) return std::string_view::npos;
      stack.pop_back();
      if (stack.empty()) return p + 1;
    }
  }
  return std::string_view::npos;
}

absl::StatusOr<std::string> PrimitiveCursor::ParseBracketGroup() {
  if (Peek() != '[') return Error("`[`");
  size_t end = GroupEnd(pos_);
  if (end == std::string_view::npos) return Error("balanced `[...]`");
  std::string inner(text_.substr(pos_ + 1, end - pos_ - 2));
  pos_ = end;
  return inner;
}

// ---- Expressions ----------------------------------------------------------
//
// The recursive functions fill an out-parameter and return a plain Status:
// keeping ScalarExpr values out of their frames keeps a kMaxExprDepth-deep
// parse within a small stack even in unoptimised builds.

absl::StatusOr<ScalarExpr> PrimitiveCursor::ParseExpr() {
  ScalarExpr e;
  LIR_RETURN_IF_ERROR(ParseExprInto(e));
  return e;
}

absl::Status PrimitiveCursor::ParseExprInto(ScalarExpr& out) {
  if (depth_ >= kMaxExprDepth) {
    return Error(absl::StrCat("expression nested at most ", kMaxExprDepth,
                              " levels deep"));
  }
  ++depth_;
  absl::Status status = ParseExprNoDepth(out);
  --depth_;
  return status;
}

absl::Status PrimitiveCursor::ParseExprNoDepth(ScalarExpr& out) {
  size_t start = pos_;
  char c = Peek();
  if (c == '#' && IsDigit(Peek(1))) return ParseLeaf(out);
  if (c == '(' && RangeEnd(start) == std::string_view::npos) {
    return ParseParenthesized(out);
  }
  if (LookingAt("case when ")) return ParseIf(out);
  if (LookingAt("case_lookup ")) return ParseCaseLookup(out);
  out.kind = ScalarKind::kCall;
  if (Consume("NOT(")) {
    out.style = CallStyle::kNot;
    out.func = "NOT";
    LIR_RETURN_IF_ERROR(ParseArgs(')', out.args));
    if (out.args.size() != 1) {
      return ErrorAt(start + 4, "exactly one argument of `NOT(...)`");
    }
    return absl::OkStatus();
  }
  if (Consume("AND(") || Consume("OR(")) {
    out.style = CallStyle::kInfix;
    out.func = text_.substr(start, pos_ - start - 1);
    return ParseArgs(')', out.args);
  }
  // A function named by symbols (`-(#0)`, `~(#0)`) or by a word.
  size_t name_end = start;
  while (IsOperatorChar(CharAt(name_end))) ++name_end;
  if (name_end == start && IsIdentStart(c) &&
      UuidEnd(start) == std::string_view::npos) {
    while (IsIdentChar(CharAt(name_end))) ++name_end;
    char next = CharAt(name_end);
    bool literal_error =
        text_.substr(start, name_end - start) == "error" && next == '(' &&
        (CharAt(name_end + 1) == '"' ||
         text_.substr(name_end + 1, kRedactedMark.size()) == kRedactedMark);
    if (next == '[' || (next == '(' && !literal_error)) {
      return ParseNamedCall(name_end, out);
    }
    absl::Status word = ParseLeaf(out);
    if (!word.ok() && pos_ == start) {
      return ErrorAt(name_end,
                     absl::StrCat("`(` after function name `",
                                  ToAbsl(text_.substr(start, name_end - start)),
                                  "` (or a literal)"));
    }
    return word;
  }
  if (name_end > start && CharAt(name_end) == '(') {
    return ParseNamedCall(name_end, out);
  }
  return ParseLeaf(out);
}

// Not inlined: its StatusOr temporaries would enlarge the recursive frames.
ABSL_ATTRIBUTE_NOINLINE absl::Status PrimitiveCursor::ParseLeaf(
    ScalarExpr& out) {
  if (Peek() == '#' && IsDigit(Peek(1))) {
    LIR_ASSIGN_OR_RETURN(out, ParseColumnRef());
    return absl::OkStatus();
  }
  LIR_ASSIGN_OR_RETURN(out.literal, ParseLiteral("expression"));
  out.kind = ScalarKind::kLiteral;
  return absl::OkStatus();
}

/// Turns `e` into `NOT(e)`; kept out of the recursive frames.
ABSL_ATTRIBUTE_NOINLINE static void WrapInNot(ScalarExpr& e) {
  ScalarExpr negation;
  negation.kind = ScalarKind::kCall;
  negation.style = CallStyle::kNot;
  negation.func = "NOT";
  negation.args.push_back(std::move(e));
  e = std::move(negation);
}

absl::Status PrimitiveCursor::ParseParenthesized(ScalarExpr& out) {
  LIR_RETURN_IF_ERROR(Expect("("));
  out.kind = ScalarKind::kCall;
  out.args.emplace_back();
  LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
  if (Consume(")")) {
    // Only the postfix tests put a single operand in parentheses.
    if (!Consume(" IS ")) {
      return Error("` IS NULL`, ` IS TRUE` or ` IS FALSE` after `(...)`");
    }
    bool negated = Consume("NOT ");
    for (std::string_view test : {"NULL", "TRUE", "FALSE"}) {
      if (LookingAt(test) && !IsIdentChar(Peek(test.size()))) {
        pos_ += test.size();
        out.style = CallStyle::kPostfixIs;
        out.func = absl::StrCat("IS ", ToAbsl(test));
        if (negated) WrapInNot(out);
        return absl::OkStatus();
      }
    }
    return Error("`NULL`, `TRUE` or `FALSE`");
  }
  if (!Consume(" ")) return Error("` <operator> ` or `)`");
  size_t op_start = pos_;
  while (!AtEnd() && Peek() != ' ' && Peek() != '(' && Peek() != ')') ++pos_;
  std::string_view op = text_.substr(op_start, pos_ - op_start);
  if (op.empty()) return Error("infix operator");
  if (!Consume(" ")) return Error("` ` after the infix operator");
  out.style = CallStyle::kInfix;
  out.func = op;
  out.args.emplace_back();
  LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
  bool variadic = op == "AND" || op == "OR";
  if (variadic) {
    // ` AND ` / ` OR ` between further operands.
    while (Peek() == ' ' &&
           LookingAt(text_.substr(op_start - 1, op.size() + 2))) {
      pos_ += op.size() + 2;
      out.args.emplace_back();
      LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
    }
  }
  if (Consume(")")) return absl::OkStatus();
  return Error(variadic ? absl::StrCat("` ", ToAbsl(op), " ` or `)`")
                        : std::string("`)`"));
}

absl::Status PrimitiveCursor::ParseNamedCall(size_t name_end, ScalarExpr& out) {
  std::string_view name = text_.substr(pos_, name_end - pos_);
  pos_ = name_end;
  out.kind = ScalarKind::kCall;
  out.style = CallStyle::kFunction;
  out.func = name;
  if (Peek() == '[') {
    size_t group_end = GroupEnd(pos_);
    if ((name == "array" || name == "list") && CharAt(group_end) != '(') {
      // `array[a, b]` / `list[a, b]`: a constructor, not a parameter group.
      ++pos_;
      out.style = CallStyle::kBracketList;
      return ParseArgs(']', out.args);
    }
    LIR_ASSIGN_OR_RETURN(out.params, ParseBracketGroup());
    if (Peek() != '(') return Error("`(` after the parameter group");
  }
  if (!Consume("(")) return Error("`(` or `[` after the function name");
  return ParseArgs(')', out.args);
}

absl::Status PrimitiveCursor::ParseArgs(char close,
                                        std::vector<ScalarExpr>& args) {
  const char close_text[2] = {close, '\0'};
  if (Consume(close_text)) return absl::OkStatus();
  while (true) {
    args.emplace_back();
    LIR_RETURN_IF_ERROR(ParseExprInto(args.back()));
    if (Consume(close_text)) return absl::OkStatus();
    if (!Consume(", ")) {
      return Error(absl::StrCat("`, ` or `", close_text, "`"));
    }
  }
}

absl::Status PrimitiveCursor::ParseIf(ScalarExpr& out) {
  LIR_RETURN_IF_ERROR(Expect("case when "));
  out.kind = ScalarKind::kIf;
  for (std::string_view next_word : {" then ", " else ", " end"}) {
    out.args.emplace_back();
    LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
    LIR_RETURN_IF_ERROR(Expect(next_word));
  }
  return absl::OkStatus();
}

absl::Status PrimitiveCursor::ParseCaseLookup(ScalarExpr& out) {
  LIR_RETURN_IF_ERROR(Expect("case_lookup "));
  out.kind = ScalarKind::kCaseLookup;
  out.args.emplace_back();
  LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
  while (Consume(" when ")) {
    out.args.emplace_back();
    LIR_ASSIGN_OR_RETURN(out.args.back().literal, ParseLiteral());
    LIR_RETURN_IF_ERROR(Expect(" then "));
    out.args.emplace_back();
    LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
  }
  if (!Consume(" else ")) return Error("` when ` or ` else `");
  out.args.emplace_back();
  LIR_RETURN_IF_ERROR(ParseExprInto(out.args.back()));
  return Expect(" end");
}

}  // namespace internal

// ---- Public parsers -------------------------------------------------------

absl::StatusOr<ScalarExpr> ParseExpr(std::string_view text, size_t* error_pos) {
  return internal::RunPrimitiveParser<ScalarExpr>(
      text, error_pos,
      [](PrimitiveCursor& cursor) -> absl::StatusOr<ScalarExpr> {
        LIR_ASSIGN_OR_RETURN(ScalarExpr e, cursor.ParseExpr());
        LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the expression"));
        return e;
      });
}

absl::StatusOr<Literal> ParseLiteral(std::string_view text, size_t* error_pos) {
  return internal::RunPrimitiveParser<Literal>(
      text, error_pos, [](PrimitiveCursor& cursor) -> absl::StatusOr<Literal> {
        LIR_ASSIGN_OR_RETURN(Literal lit, cursor.ParseLiteral());
        LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the literal"));
        return lit;
      });
}

}  // namespace lir::explain
