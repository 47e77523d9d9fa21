// Tests for the EXPLAIN text primitives (src/explain/text_primitives.h):
// targeted rules of ../shared/reference/TEXT-FORMAT.md sections 4, 5 and 7,
// error messages and offsets. The corpus round trip is in
// text_primitives_corpus_test.cc.
#include "src/explain/text_primitives.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/ir_helpers.h"

namespace lir::explain {
namespace {

// ---- Helpers ----------------------------------------------------------------

using test::Col;
ScalarExpr Col(int i, std::string name) {
  return ScalarExpr::Column(i, std::move(name));
}
ScalarExpr Num(int64_t v) { return ScalarExpr::Lit(Literal::Int(v)); }

ScalarExpr ParseExprOrDie(const std::string& text) {
  size_t pos = 12345;
  absl::StatusOr<ScalarExpr> e = ParseExpr(text, &pos);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status() << " at " << pos;
  return e.ok() ? *e : ScalarExpr::Opaque("<parse failed>");
}

// Parses `text` as one expression and checks it prints back byte for byte.
void ExpectExprRoundTrip(const std::string& text) {
  EXPECT_EQ(PrintExpr(ParseExprOrDie(text)), text);
}

// Checks that `status` failed with exactly `message` at offset `pos`.
template <typename T>
void ExpectError(const absl::StatusOr<T>& result, const size_t& actual_pos,
                 size_t pos, const std::string& message) {
  ASSERT_FALSE(result.ok()) << "expected failure: " << message;
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(result.status().message()), message);
  EXPECT_EQ(actual_pos, pos) << message;
}

void ExpectExprError(const std::string& text, size_t pos,
                     const std::string& message) {
  size_t actual = 99999;
  ExpectError(ParseExpr(text, &actual), actual, pos, message);
}

// ---- Column references ------------------------------------------------------

TEST(ColumnRefTest, BareNamedAndQuoted) {
  ScalarExpr plain = ParseExprOrDie("#12");
  EXPECT_EQ(plain.kind, ScalarKind::kColumn);
  EXPECT_EQ(plain.column, 12);
  EXPECT_FALSE(plain.name.has_value());

  ScalarExpr named = ParseExprOrDie("#3{l_name2}");
  EXPECT_EQ(named.column, 3);
  EXPECT_EQ(named.name, "l_name2");

  ScalarExpr quoted = ParseExprOrDie(R"(#0{"My col"})");
  EXPECT_EQ(quoted.name, "My col");
  ScalarExpr doubled = ParseExprOrDie(R"(#0{"a""b}"})");
  EXPECT_EQ(doubled.name, "a\"b}");

  for (const char* text :
       {"#0", "#3{l_name2}", R"(#0{"My col"})", R"(#0{"a""b}"})", "#7{_x}",
        R"(#1{"9lives"})", R"(#1{"é"})"}) {
    ExpectExprRoundTrip(text);
  }
}

TEST(ColumnRefTest, PrintQuotesOnlyNonBareNames) {
  EXPECT_EQ(PrintExpr(Col(0, "select")), "#0{select}");  // keywords are bare
  EXPECT_EQ(PrintExpr(Col(0, "Abc")), R"(#0{"Abc"})");
  EXPECT_EQ(PrintExpr(Col(0, "a b")), R"(#0{"a b"})");
  EXPECT_EQ(PrintExpr(Col(0, "say \"hi\"")), R"(#0{"say ""hi"""})");
  EXPECT_EQ(PrintExpr(Col(0, "1a")), R"(#0{"1a"})");
  EXPECT_EQ(PrintExpr(Col(5, "?column?")), "#5");
  // A needlessly quoted name is read and prints canonically.
  EXPECT_EQ(PrintExpr(ParseExprOrDie(R"(#0{"abc"})")), "#0{abc}");
}

TEST(ColumnRefTest, Errors) {
  ExpectExprError("#0{Abc}", 3,
                  "expected column name matching [a-z_][a-z0-9_]* or a "
                  "double-quoted name");
  ExpectExprError("#0{a", 4, "expected `}`");
  ExpectExprError(R"(#0{"a)", 5, "expected closing `\"` of the column name");
  ExpectExprError("#99999999999", 1,
                  "expected column index that fits in 32 bits");
}

// ---- Calls ------------------------------------------------------------------

TEST(ExprTest, InfixOperators) {
  ScalarExpr plus = ParseExprOrDie("(#0{a} + #1{b})");
  EXPECT_EQ(plus.kind, ScalarKind::kCall);
  EXPECT_EQ(plus.style, CallStyle::kInfix);
  EXPECT_EQ(plus.func, "+");
  ASSERT_EQ(plus.args.size(), 2u);
  EXPECT_EQ(plus.args[1], Col(1, "b"));

  ScalarExpr xor_op = ParseExprOrDie("(#0 # #1)");
  EXPECT_EQ(xor_op.func, "#");
  EXPECT_EQ(xor_op.args[1], Col(1));
  EXPECT_EQ(ParseExprOrDie(R"((#0 like "a%"))").func, "like");
  EXPECT_EQ(ParseExprOrDie(R"((#0 ilike "a%"))").func, "ilike");
  EXPECT_EQ(ParseExprOrDie("(#0 array_contains #1)").func, "array_contains");
  EXPECT_EQ(ParseExprOrDie(R"((#0 #>> "k"))").func, "#>>");

  for (const char* text :
       {"(#0{a} + #1{b})", "(#0 # #1)", R"((#0 like "a%"))",
        "(#0 array_contains #1)", "(1 = (#0{a} % 2))", "(#0 <@ #1)",
        "((#3 / integer_to_bigint((1 + #0{a}))) >= 1)", "(#2{c} != \"x\")",
        "((integer_to_text(#0{b}) || \"1\") || #1)", "(#0 ?| #1)"}) {
    ExpectExprRoundTrip(text);
  }
}

TEST(ExprTest, VariadicAndOr) {
  ScalarExpr conj = ParseExprOrDie("(#0 AND #1 AND (#2 OR #3))");
  EXPECT_EQ(conj.style, CallStyle::kInfix);
  EXPECT_EQ(conj.func, "AND");
  ASSERT_EQ(conj.args.size(), 3u);
  EXPECT_EQ(conj.args[2].func, "OR");
  ExpectExprRoundTrip("((#3 AND #5) OR (#4 AND #6))");
  ExpectExprRoundTrip("(#0 AND #1 AND #2 AND #3)");

  // One (or zero) operand AND/OR is printed as a function; it stays a kInfix
  // call so that IR -> text -> IR is stable too.
  ScalarExpr single = ParseExprOrDie("AND(#0)");
  EXPECT_EQ(single.style, CallStyle::kInfix);
  EXPECT_EQ(single.func, "AND");
  EXPECT_EQ(single.args.size(), 1u);
  ExpectExprRoundTrip("AND(#0)");
  ExpectExprRoundTrip("OR()");
  EXPECT_EQ(PrintExpr(ScalarExpr::Call(CallStyle::kInfix, "OR", {Col(1)})),
            "OR(#1)");

  ExpectExprError("(#0 AND #1 OR #2)", 10, "expected ` AND ` or `)`");
  ExpectExprError("(#0 + #1 + #2)", 8, "expected `)`");
}

TEST(ExprTest, PostfixIsAndNot) {
  ScalarExpr is_null = ParseExprOrDie("(#0) IS NULL");
  EXPECT_EQ(is_null.style, CallStyle::kPostfixIs);
  EXPECT_EQ(is_null.func, "IS NULL");
  ASSERT_EQ(is_null.args.size(), 1u);

  ScalarExpr not_null = ParseExprOrDie("(#1{b}) IS NOT NULL");
  EXPECT_EQ(not_null.style, CallStyle::kNot);
  ASSERT_EQ(not_null.args.size(), 1u);
  EXPECT_EQ(not_null.args[0].style, CallStyle::kPostfixIs);
  EXPECT_EQ(not_null.args[0].func, "IS NULL");
  EXPECT_EQ(not_null.args[0].args[0], Col(1, "b"));

  ScalarExpr negation = ParseExprOrDie("NOT(#0)");
  EXPECT_EQ(negation.style, CallStyle::kNot);
  EXPECT_EQ(negation.args[0], Col(0));

  for (const char* text :
       {"(#0) IS NULL", "(#1{b}) IS NOT NULL", "(#1) IS TRUE",
        "(#1) IS NOT FALSE", "NOT(#0)", "NOT((#0 = 5))", "((#0 + 1)) IS NULL",
        "NOT(NOT(#0))"}) {
    ExpectExprRoundTrip(text);
  }
  // NOT over an IS test has only one printed form.
  EXPECT_EQ(PrintExpr(ParseExprOrDie("NOT((#0) IS TRUE)")), "(#0) IS NOT TRUE");

  ExpectExprError(
      "(#0)", 4,
      "expected ` IS NULL`, ` IS TRUE` or ` IS FALSE` after `(...)`");
  ExpectExprError("(#0) IS MAYBE", 8, "expected `NULL`, `TRUE` or `FALSE`");
  ExpectExprError("(#0) IS NULLS", 8, "expected `NULL`, `TRUE` or `FALSE`");
  ExpectExprError("NOT(#0, #1)", 4,
                  "expected exactly one argument of `NOT(...)`");
}

TEST(ExprTest, FunctionsAndParams) {
  ScalarExpr get = ParseExprOrDie("record_get[0](#0)");
  EXPECT_EQ(get.style, CallStyle::kFunction);
  EXPECT_EQ(get.func, "record_get");
  EXPECT_EQ(get.params, "0");
  ASSERT_EQ(get.args.size(), 1u);

  ScalarExpr now = ParseExprOrDie("mz_now()");
  EXPECT_EQ(now.func, "mz_now");
  EXPECT_TRUE(now.args.empty());
  EXPECT_FALSE(now.params.has_value());

  const std::string fused =
      "fused_value_window_func[lag[order_by=[]], lag[order_by=[]] "
      "order_by=[]](row(row(row(#0, #1), row(row(#1{y}, 1, null), "
      "row(#0{x}, 1, null)))))";
  ScalarExpr window = ParseExprOrDie(fused);
  EXPECT_EQ(window.func, "fused_value_window_func");
  EXPECT_EQ(window.params, "lag[order_by=[]], lag[order_by=[]] order_by=[]");
  EXPECT_EQ(PrintExpr(window), fused);

  // A string inside the parameter group may contain brackets.
  ScalarExpr quoted = ParseExprOrDie(R"(f["]["](#0))");
  EXPECT_EQ(quoted.params, R"("][")");

  ScalarExpr negate = ParseExprOrDie("-(#0)");
  EXPECT_EQ(negate.style, CallStyle::kFunction);
  EXPECT_EQ(negate.func, "-");

  ScalarExpr row = ParseExprOrDie("row(#1{b}, 3, -5)");
  EXPECT_EQ(row.func, "row");
  ASSERT_EQ(row.args.size(), 3u);
  EXPECT_EQ(row.args[2].literal, Literal::Int(-5));

  for (const char* text :
       {"record_get[0](record_get[1](#0))", "mz_now()",
        "lead[ignore_nulls=true, order_by=[]](row(#0))",
        R"(digest(text_to_bytea(#1{b}), "sha256"))", "-(#0)", "~((#0 & 1))",
        "timestamp_to_mz_timestamp((#1{m} + 1 day))", "row()",
        "array_agg[order_by=[#0 desc nulls_first]](#0)"}) {
    ExpectExprRoundTrip(text);
  }

  ExpectExprError("foo", 3,
                  "expected `(` after function name `foo` (or a literal)");
  ExpectExprError("f[0]", 4, "expected `(` after the parameter group");
  ExpectExprError("f[0(#0)", 1, "expected balanced `[...]`");
  ExpectExprError("f(#0,#1)", 4, "expected `, ` or `)`");
}

TEST(ExprTest, BracketListsAndRow) {
  ScalarExpr array = ParseExprOrDie("array[#0{b}, 1]");
  EXPECT_EQ(array.style, CallStyle::kBracketList);
  EXPECT_EQ(array.func, "array");
  EXPECT_EQ(array.args.size(), 2u);
  ScalarExpr empty_list = ParseExprOrDie("list[]");
  EXPECT_EQ(empty_list.style, CallStyle::kBracketList);
  EXPECT_TRUE(empty_list.args.empty());
  // A parameter group followed by arguments is a function, even for `array`.
  ScalarExpr param_call = ParseExprOrDie("array[x](#0)");
  EXPECT_EQ(param_call.style, CallStyle::kFunction);
  EXPECT_EQ(param_call.params, "x");

  for (const char* text : {"array[#0{b}, 1]", "list[row(#0, #1)]", "list[]",
                           "row(array[#1{b}], #1{b})", "array[x](#0)",
                           "row(list[row(#0, #1)], #0{x})"}) {
    ExpectExprRoundTrip(text);
  }
  ExpectExprError("array[#0", 8, "expected `, ` or `]`");
  ExpectExprError("array[#0, ", 10, "expected expression");
  ExpectExprError("array[#0)", 8, "expected `, ` or `]`");
}

TEST(ExprTest, CaseForms) {
  ScalarExpr e = ParseExprOrDie("case when #4 then null else #0 end");
  EXPECT_EQ(e.kind, ScalarKind::kIf);
  ASSERT_EQ(e.args.size(), 3u);
  EXPECT_EQ(e.args[0], Col(4));
  EXPECT_EQ(e.args[1].literal, Literal::Null());

  ScalarExpr lookup = ParseExprOrDie(
      R"(case_lookup #0 when 1 then "a" when 2 then "b" else null end)");
  EXPECT_EQ(lookup.kind, ScalarKind::kCaseLookup);
  ASSERT_EQ(lookup.args.size(), 6u);
  EXPECT_EQ(lookup.args[3].literal, Literal::Int(2));
  EXPECT_EQ(lookup.args[4].literal, Literal::String("b"));

  for (const char* text :
       {"case when #4 then null else #0 end",
        "case when (#0{a} = 1) then \"ooo\" else #1{b} end",
        "case when #0 then case when #1 then 7 days else 1 day end else null "
        "end",
        R"(case_lookup #0 when 1 then "a" when 2 then "b" else null end)",
        "case_lookup (#0 + 1) else 0 end"}) {
    ExpectExprRoundTrip(text);
  }
  ExpectExprError("case when #0 then #1 end", 20, "expected ` else `");
  ExpectExprError("case_lookup #0 then 1 end", 14,
                  "expected ` when ` or ` else `");
}

// ---- Literals ---------------------------------------------------------------

struct LiteralCase {
  const char* text;
  LiteralKind kind;
  const char* stored;  // Literal::text
};

TEST(LiteralTest, KindsAndStoredText) {
  const LiteralCase cases[] = {
      {"null", LiteralKind::kNull, "null"},
      {"true", LiteralKind::kBool, "true"},
      {"false", LiteralKind::kBool, "false"},
      {"5", LiteralKind::kNumber, "5"},
      {"-5", LiteralKind::kNumber, "-5"},
      {"1.5", LiteralKind::kNumber, "1.5"},
      {"-0.25", LiteralKind::kNumber, "-0.25"},
      {"123456789012345678901234567890", LiteralKind::kNumber,
       "123456789012345678901234567890"},
      {"NaN", LiteralKind::kNumber, "NaN"},
      {"inf", LiteralKind::kNumber, "inf"},
      {"-inf", LiteralKind::kNumber, "-inf"},
      {R"("x\"y")", LiteralKind::kString, "x\"y"},
      {R"("a\nb\rc\td")", LiteralKind::kString, "a\nb\rc\td"},
      {R"("a\qb\\x")", LiteralKind::kString, "a\\qb\\\\x"},
      {R"(", ")", LiteralKind::kString, ", "},
      {R"("")", LiteralKind::kString, ""},
      {"1997-07-06", LiteralKind::kDate, "1997-07-06"},
      {"12:00:00", LiteralKind::kTime, "12:00:00"},
      {"12:00:00.5", LiteralKind::kTime, "12:00:00.5"},
      {"2020-01-01 00:00:00", LiteralKind::kTimestamp, "2020-01-01 00:00:00"},
      {"2020-01-01 00:00:00.123456", LiteralKind::kTimestamp,
       "2020-01-01 00:00:00.123456"},
      {"2020-01-01 00:00:00 UTC", LiteralKind::kTimestampTz,
       "2020-01-01 00:00:00 UTC"},
      {"7 days", LiteralKind::kInterval, "7 days"},
      {"1 day", LiteralKind::kInterval, "1 day"},
      {"2 mons", LiteralKind::kInterval, "2 mons"},
      {"1 year 2 mons 3 days 04:05:06", LiteralKind::kInterval,
       "1 year 2 mons 3 days 04:05:06"},
      {"-1 years -2 mons +3 days -04:05:06.5", LiteralKind::kInterval,
       "-1 years -2 mons +3 days -04:05:06.5"},
      {"-00:01:00", LiteralKind::kInterval, "-00:01:00"},
      {"100:00:00", LiteralKind::kInterval, "100:00:00"},
      {"\xE2\x96\x88", LiteralKind::kRedacted, "\xE2\x96\x88"},
      {"0x0aff", LiteralKind::kOther, "0x0aff"},
      {"{1, 2}", LiteralKind::kOther, "{1, 2}"},
      {"[1, [2]]", LiteralKind::kOther, "[1, [2]]"},
      {"{a: \"}\"}", LiteralKind::kOther, "{a: \"}\"}"},
      {"[1,5)", LiteralKind::kOther, "[1,5)"},
      {"(,5]", LiteralKind::kOther, "(,5]"},
      {"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", LiteralKind::kOther,
       "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
      {"json_null", LiteralKind::kOther, "json_null"},
      {"dummy", LiteralKind::kOther, "dummy"},
      {R"(error("division by zero"))", LiteralKind::kOther,
       R"(error("division by zero"))"},
      {"error(\xE2\x96\x88)", LiteralKind::kOther, "error(\xE2\x96\x88)"},
  };
  for (const LiteralCase& c : cases) {
    SCOPED_TRACE(c.text);
    size_t pos = 0;
    absl::StatusOr<Literal> lit = ParseLiteral(c.text, &pos);
    ASSERT_TRUE(lit.ok()) << lit.status() << " at " << pos;
    EXPECT_EQ(lit->kind, c.kind);
    EXPECT_EQ(lit->text, c.stored);
    std::string printed;
    AppendLiteral(printed, *lit);
    EXPECT_EQ(printed, c.text);
    // The same text is also an expression.
    ScalarExpr e = ParseExprOrDie(c.text);
    EXPECT_EQ(e.kind, ScalarKind::kLiteral);
    EXPECT_EQ(e.literal, *lit);
  }
}

TEST(LiteralTest, PrintEscapesStrings) {
  std::string out;
  AppendLiteral(out, Literal::String("q\"n\nr\rt\tb\\u\xC3\xA9"));
  EXPECT_EQ(out, "\"q\\\"n\\nr\\rt\\tb\\u\xC3\xA9\"");
  EXPECT_EQ(PrintExpr(ScalarExpr::Lit(Literal::Redacted())), "\xE2\x96\x88");
}

TEST(LiteralTest, TrailingBackslashIsLossy) {
  // ../shared/reference/TEXT-FORMAT.md 7.8: backslashes are not escaped, so a
  // string ending in
  // `\` prints with `\"` at its end, which reads as an escaped quote.
  std::string out;
  AppendLiteral(out, Literal::String("a\\"));
  EXPECT_EQ(out, "\"a\\\"");
  size_t pos = 0;
  EXPECT_FALSE(ParseLiteral(out, &pos).ok());
}

TEST(LiteralTest, LiteralsWithSpacesInsideExpressions) {
  ScalarExpr minus = ParseExprOrDie("(#3{o_orderdate} - 7 days)");
  EXPECT_EQ(minus.func, "-");
  EXPECT_EQ(minus.args[1].literal.kind, LiteralKind::kInterval);
  EXPECT_EQ(minus.args[1].literal.text, "7 days");

  ScalarExpr first = ParseExprOrDie("(1 year 2 mons + #0)");
  EXPECT_EQ(first.func, "+");
  EXPECT_EQ(first.args[0].literal.text, "1 year 2 mons");

  ScalarExpr ts = ParseExprOrDie("(#0 < 2020-01-01 00:00:00 UTC)");
  EXPECT_EQ(ts.args[1].literal.kind, LiteralKind::kTimestampTz);

  for (const char* text :
       {"(#3{o_orderdate} - 7 days)", "(1 year 2 mons + #0)",
        "(#0 < 2020-01-01 00:00:00 UTC)", "(#0 = 1997-07-06)",
        "(-00:01:00 > #1)", "(#1{b} + \xE2\x96\x88)", "(-5 - -5)",
        "case when #0 then 1 day 00:00:01 else 00:00:00 end"}) {
    ExpectExprRoundTrip(text);
  }
}

TEST(LiteralTest, Errors) {
  size_t pos = 0;
  ExpectError(ParseLiteral(R"("abc)", &pos), pos, 0,
              "expected string literal closed by `\"`");
  ExpectError(ParseLiteral("12:0", &pos), pos, 2,
              "expected time `HH:MM:SS[.frac]`");
  ExpectError(ParseLiteral("#0", &pos), pos, 0, "expected literal");
  ExpectError(ParseLiteral("5 ", &pos), pos, 1, "expected end of the literal");
  ExpectError(ParseLiteral("error(5)", &pos), pos, 6,
              "expected string message of the literal error");
  ExpectError(ParseLiteral("", &pos), pos, 0, "expected literal");
}

// ---- Expression errors and depth --------------------------------------------

TEST(ExprErrorTest, MessagesAndOffsets) {
  ExpectExprError("(#0 + ", 6, "expected expression");
  ExpectExprError("(#0 +", 5, "expected ` ` after the infix operator");
  ExpectExprError("(#0 + #1", 8, "expected `)`");
  ExpectExprError("(#0  + #1)", 4, "expected infix operator");
  ExpectExprError("(#0", 3, "expected ` <operator> ` or `)`");
  ExpectExprError("", 0, "expected expression");
  ExpectExprError("#0 ", 2, "expected end of the expression");
  ExpectExprError("#", 0, "expected expression");
  ExpectExprError("(#0 + $)", 6, "expected expression");
  ExpectExprError("row(#0, (#1 = ))", 14, "expected expression");
}

std::string Nested(int levels) {
  std::string text;
  for (int i = 0; i < levels; ++i) text += "NOT(";
  text += "#0";
  for (int i = 0; i < levels; ++i) text += ")";
  return text;
}

TEST(ExprErrorTest, DepthIsLimited) {
  // kMaxExprDepth levels are fine (the column is the innermost level).
  ExpectExprRoundTrip(Nested(kMaxExprDepth - 1));
  ExpectExprError(Nested(kMaxExprDepth), 4 * kMaxExprDepth,
                  "expected expression nested at most 1000 levels deep");
  std::string left_deep = "#0";
  for (int i = 1; i < kMaxExprDepth / 2; ++i) {
    left_deep = "(" + left_deep + " + 1)";
  }
  ExpectExprRoundTrip(left_deep);
  std::string postfix = "#0";
  for (int i = 1; i < kMaxExprDepth; ++i) postfix = "(" + postfix + ") IS NULL";
  ExpectExprRoundTrip(postfix);
  // Far deeper input fails cleanly instead of overflowing the stack.
  size_t pos = 0;
  EXPECT_FALSE(ParseExpr(Nested(200000), &pos).ok());
  std::string parens(200000, '(');
  EXPECT_FALSE(ParseExpr(parens, &pos).ok());
  EXPECT_FALSE(ParseExprList(parens, &pos).ok());
}

TEST(ExprTest, IrRoundTrip) {
  // IR -> text -> IR is the identity for every call style.
  std::vector<ScalarExpr> exprs = {
      ScalarExpr::Call(CallStyle::kInfix, "AND",
                       {Col(0), Col(1, "x y"), Col(2)}),
      ScalarExpr::Call(CallStyle::kInfix, "AND", {Col(0)}),
      ScalarExpr::Call(
          CallStyle::kNot, "NOT",
          {ScalarExpr::Call(CallStyle::kPostfixIs, "IS FALSE", {Col(0)})}),
      ScalarExpr::Call(CallStyle::kBracketList, "list", {Num(1), Num(-2)}),
      ScalarExpr::If(Col(0), ScalarExpr::Lit(Literal::String("a, b")),
                     ScalarExpr::Lit(Literal::Redacted())),
  };
  ScalarExpr with_params =
      ScalarExpr::Call(CallStyle::kFunction, "record_get", {Col(3, "r")});
  with_params.params = "1";
  exprs.push_back(with_params);
  for (const ScalarExpr& e : exprs) {
    std::string text = PrintExpr(e);
    EXPECT_EQ(ParseExprOrDie(text), e) << text;
  }
  EXPECT_EQ(PrintExpr(ScalarExpr::Opaque("some <thing>")), "some <thing>");
}

// ---- Lists ------------------------------------------------------------------

TEST(ListTest, StringsMayContainSeparators) {
  size_t pos = 0;
  auto list = ParseExprList(R"x("a, b", "(", "x AND y", ")")x", &pos);
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 4u);
  EXPECT_EQ((*list)[0].literal.text, "a, b");
  EXPECT_EQ((*list)[2].literal.text, "x AND y");

  auto preds = ParsePredicates(R"x((#0 = "a AND b") AND (#1 = ")"))x", &pos);
  ASSERT_TRUE(preds.ok()) << preds.status();
  EXPECT_EQ(preds->size(), 2u);

  auto keys = ParseCompactScalars(R"("a, b", #0)", &pos);
  ASSERT_TRUE(keys.ok()) << keys.status();
  EXPECT_EQ(keys->size(), 2u);

  auto row = ParseRow(R"x(("a, b", ")", "\"(, "))x", &pos);
  ASSERT_TRUE(row.ok()) << row.status();
  ASSERT_EQ(row->size(), 3u);
  EXPECT_EQ((*row)[2].text, "\"(, ");
}

TEST(ListTest, PredicatesSplitOnlyAtTopLevel) {
  size_t pos = 0;
  auto preds = ParsePredicates(
      "(#0{f1}) IS NOT NULL AND (#3 OR #4) AND ((#3 AND #5) OR (#4 AND #6))",
      &pos);
  ASSERT_TRUE(preds.ok()) << preds.status();
  ASSERT_EQ(preds->size(), 3u);
  EXPECT_EQ((*preds)[1].func, "OR");
  EXPECT_EQ(
      PrintPredicates(*preds),
      "(#0{f1}) IS NOT NULL AND (#3 OR #4) AND ((#3 AND #5) OR (#4 AND #6))");

  auto one = ParsePredicates("(#0 AND #1)", &pos);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 1u);  // a single AND expression
  auto two = ParsePredicates("#3 AND #4", &pos);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  auto none = ParsePredicates("", &pos);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  ExpectError(ParsePredicates("#0 AND ", &pos), pos, 7, "expected expression");
  ExpectError(ParsePredicates("#0 OR #1", &pos), pos, 2,
              "expected ` AND ` or the end of the predicates");
}

TEST(ListTest, ExprLists) {
  size_t pos = 0;
  auto exprs = ParseExprList("(#0{a} + #1{b}), \xE2\x96\x88, null", &pos);
  ASSERT_TRUE(exprs.ok()) << exprs.status();
  ASSERT_EQ(exprs->size(), 3u);
  EXPECT_EQ((*exprs)[1].literal.kind, LiteralKind::kRedacted);
  EXPECT_EQ(PrintExprList(*exprs), "(#0{a} + #1{b}), \xE2\x96\x88, null");
  auto empty = ParseExprList("", &pos);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(PrintExprList({}), "");
  ExpectError(ParseExprList("#0,#1", &pos), pos, 2,
              "expected `, ` or the end of the expression list");
  ExpectError(ParseExprList("#0, ", &pos), pos, 4, "expected expression");
}

TEST(IndicesTest, RunsCollapse) {
  EXPECT_EQ(PrintIndices({0, 1, 2, 2}), "#0..=#2, #2");
  EXPECT_EQ(PrintIndices({1, 2, 3, 5, 6, 0, 4}), "#1..=#3, #5, #6, #0, #4");
  EXPECT_EQ(PrintIndices({0, 1, 2, 4, 5, 6}), "#0..=#2, #4..=#6");
  EXPECT_EQ(PrintIndices({3, 2, 1}), "#3, #2, #1");
  EXPECT_EQ(PrintIndices({}), "");
  for (const char* text : {"#0..=#2, #2", "#1..=#3, #5, #6, #0, #4",
                           "#0..=#2, #4..=#6", "#7", ""}) {
    size_t pos = 0;
    auto columns = ParseIndices(text, &pos);
    ASSERT_TRUE(columns.ok()) << text << ": " << columns.status();
    EXPECT_EQ(PrintIndices(*columns), text);
  }
  size_t pos = 0;
  auto expanded = ParseIndices("#1..=#3, #5, #6, #0, #4", &pos);
  ASSERT_TRUE(expanded.ok());
  EXPECT_EQ(*expanded, (std::vector<int>{1, 2, 3, 5, 6, 0, 4}));

  ExpectError(ParseIndices("#0, #x", &pos), pos, 4, "expected column `#<n>`");
  ExpectError(ParseIndices("#0..=#1", &pos), pos, 5,
              "expected range end of at least #2 (`#a..=#b` spans three or "
              "more columns)");
  ExpectError(ParseIndices("#0{a}", &pos), pos, 2,
              "expected `, ` or the end of the list");
}

TEST(CompactScalarsTest, RunsCollapseAndKeepEndpointNames) {
  std::vector<ScalarExpr> named = {Col(0, "a"), Col(1, "b"), Col(2, "c")};
  EXPECT_EQ(PrintCompactScalars(named), "#0{a}..=#2{c}");
  EXPECT_EQ(PrintCompactScalars({Col(0), Col(1)}), "#0, #1");
  EXPECT_EQ(
      PrintCompactScalars(
          {Col(0), ScalarExpr::Call(CallStyle::kInfix, "+", {Col(1), Num(1)}),
           Col(2), Col(3), Col(4, "e")}),
      "#0, (#1 + 1), #2..=#4{e}");
  EXPECT_EQ(PrintCompactScalars({}), "");

  size_t pos = 0;
  auto parsed = ParseCompactScalars("#0{f0}..=#3{f3}, #9", &pos);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 5u);
  EXPECT_EQ((*parsed)[0], Col(0, "f0"));
  EXPECT_EQ((*parsed)[1], Col(1));
  EXPECT_EQ((*parsed)[2], Col(2));
  EXPECT_EQ((*parsed)[3], Col(3, "f3"));
  EXPECT_EQ((*parsed)[4], Col(9));

  for (const char* text : {"#0{a}..=#2{c}", "#0, #1", "#0{a}, (#0{a} + 1)",
                           "#2{d}, #0{a}", "", "#1..=#5, #0"}) {
    auto exprs = ParseCompactScalars(text, &pos);
    ASSERT_TRUE(exprs.ok()) << text << ": " << exprs.status();
    EXPECT_EQ(PrintCompactScalars(*exprs), text);
  }
  ExpectError(ParseCompactScalars("#2..=#0", &pos), pos, 5,
              "expected range end of at least #4 (`#a..=#b` spans three or "
              "more columns)");
  ExpectError(ParseCompactScalars("(#0 + 1)..=#3", &pos), pos, 8,
              "expected `, ` or the end of the list");
  ExpectError(ParseCompactScalars("#0, ", &pos), pos, 4, "expected expression");
}

TEST(OrderKeysTest, RoundTripAndErrors) {
  size_t pos = 0;
  auto keys = ParseOrderKeys("#1 asc nulls_last, #0 desc nulls_first", &pos);
  ASSERT_TRUE(keys.ok()) << keys.status();
  ASSERT_EQ(keys->size(), 2u);
  EXPECT_EQ((*keys)[0], (OrderKey{1, false, true}));
  EXPECT_EQ((*keys)[1], (OrderKey{0, true, false}));
  EXPECT_EQ(PrintOrderKeys(*keys), "#1 asc nulls_last, #0 desc nulls_first");
  EXPECT_EQ(PrintOrderKeys({OrderKey{2, false, false}}), "#2 asc nulls_first");
  auto empty = ParseOrderKeys("", &pos);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());

  ExpectError(ParseOrderKeys("#0 asc", &pos), pos, 2,
              "expected ` asc ` or ` desc `");
  ExpectError(ParseOrderKeys("#0 asc nulls", &pos), pos, 7,
              "expected `nulls_first` or `nulls_last`");
  ExpectError(ParseOrderKeys("#0 asc nulls_last #1", &pos), pos, 17,
              "expected `, ` or the end of the list");
}

TEST(ArrangementTest, RoundTripAndErrors) {
  const char* texts[] = {
      "{ key=[#0{a}], permutation=id, thinning=(#1) }",
      "{ key=[], permutation=id, thinning=() }",
      "{ key=[#1{balance}], permutation={#0: #1, #1: #0}, thinning=(#0) }",
      "{ key=[#0..=#2, (#3 + 1)], permutation={#0: #1, #1: #0}, "
      "thinning=(#0..=#2) }",
  };
  for (const char* text : texts) {
    size_t pos = 0;
    auto form = ParseArrangement(text, &pos);
    ASSERT_TRUE(form.ok()) << text << ": " << form.status() << " at " << pos;
    EXPECT_EQ(PrintArrangement(*form), text);
  }
  size_t pos = 0;
  auto perm = ParseArrangement(texts[2], &pos);
  ASSERT_TRUE(perm.ok());
  EXPECT_EQ(perm->permutation,
            (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(perm->key, std::vector<ScalarExpr>{Col(1, "balance")});
  EXPECT_EQ(perm->thinning, std::vector<int>{0});

  ExpectError(
      ParseArrangement(
          "{ key=[#0], permutation={#1: #0, #0: #1}, thinning=() }", &pos),
      pos, 33, "expected permutation entries in ascending column order");
  ExpectError(
      ParseArrangement("{ key=[#0], permutation={#0: #0}, thinning=() }", &pos),
      pos, 25, "expected a permutation entry that moves its column");
  ExpectError(
      ParseArrangement("{ key=[#0], permutation=id, thinning=()}", &pos), pos,
      38, "expected `) }`");
  ExpectError(ParseArrangement("{ key=[#0 }", &pos), pos, 9,
              "expected `, ` or `]`");
  ExpectError(ParseArrangement("{ key=[#0], permutation=x", &pos), pos, 24,
              "expected `id` or `{`");
}

TEST(AggregateTest, CountStarAndParams) {
  size_t pos = 0;
  auto count = ParseAggregate("count(*)", &pos);
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(count->func, "count");
  EXPECT_FALSE(count->distinct);
  EXPECT_EQ(count->expr, ScalarExpr::Lit(Literal::Bool(true)));
  // count over `true` is count(*): the printer cannot tell them apart.
  EXPECT_EQ(PrintAggregate(AggregateExpr{"count", std::nullopt, false,
                                         ScalarExpr::Lit(Literal::Bool(true))}),
            "count(*)");
  EXPECT_EQ(PrintAggregate(AggregateExpr{"count", std::nullopt, true,
                                         ScalarExpr::Lit(Literal::Bool(true))}),
            "count(distinct true)");

  auto distinct = ParseAggregate("count(distinct #0{b})", &pos);
  ASSERT_TRUE(distinct.ok());
  EXPECT_TRUE(distinct->distinct);
  EXPECT_EQ(distinct->expr, Col(0, "b"));

  auto agg = ParseAggregate(
      "array_agg[order_by=[#0 asc nulls_last]](row(array[#0{b}], #0{b}))",
      &pos);
  ASSERT_TRUE(agg.ok()) << agg.status();
  EXPECT_EQ(agg->func, "array_agg");
  EXPECT_EQ(agg->params, "order_by=[#0 asc nulls_last]");
  EXPECT_EQ(agg->expr.func, "row");

  for (const char* text :
       {"count(*)", "sum(1)", "count(distinct #1{b})", "sum(#0{a})",
        "string_agg[order_by=[]](row(row((integer_to_text(#0{b}) || "
        "\xE2\x96\x88), "
        "\xE2\x96\x88)))",
        "lag[ignore_nulls=true, order_by=[#0 asc nulls_last, #1 asc "
        "nulls_last]](#0)",
        "max(distinct (#0 + 1))"}) {
    auto parsed = ParseAggregate(text, &pos);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_EQ(PrintAggregate(*parsed), text);
  }

  ExpectError(ParseAggregate("sum(#0, #1)", &pos), pos, 6,
              "expected `)` (an aggregate takes exactly one argument)");
  ExpectError(ParseAggregate("sum(*)", &pos), pos, 4, "expected expression");
  ExpectError(ParseAggregate("count()", &pos), pos, 6, "expected expression");
  ExpectError(ParseAggregate("(#0)", &pos), pos, 0,
              "expected aggregate function name");
  ExpectError(ParseAggregate("count(*) ", &pos), pos, 8,
              "expected end of the aggregate");
}

TEST(RowTest, RowsAndConstantRows) {
  EXPECT_EQ(PrintRow({}), "()");
  EXPECT_EQ(PrintRow({Literal::Int(2), Literal::String("l2")}), "(2, \"l2\")");
  EXPECT_EQ(PrintConstantRow({Literal::Int(5)}, 1), "(5)");
  EXPECT_EQ(PrintConstantRow({Literal::Int(5)}, -2), "((5) x -2)");
  EXPECT_EQ(PrintConstantRow({}, 3), "(() x 3)");
  EXPECT_EQ(PrintConstantRow({Literal::Redacted(), Literal::Redacted()}, 2),
            "((\xE2\x96\x88, \xE2\x96\x88) x 2)");

  struct Case {
    const char* text;
    size_t columns;
    int64_t diff;
  } cases[] = {
      {"(5)", 1, 1},
      {"()", 0, 1},
      {"((1, 2) x 2)", 2, 2},
      {"((5) x -2)", 1, -2},
      {"(() x 3)", 0, 3},
      {"((\xE2\x96\x88, \xE2\x96\x88) x 2)", 2, 2},
      {"(\xE2\x96\x88)", 1, 1},
      {"(null)", 1, 1},
      {"(\"russet\")", 1, 1},
      {"((1,5], 3)", 2, 1},  // a range datum, not a multiplicity
      {"(((1,5]) x 4)", 1, 4},
  };
  for (const Case& c : cases) {
    size_t pos = 0;
    auto entry = ParseConstantRow(c.text, &pos);
    ASSERT_TRUE(entry.ok())
        << c.text << ": " << entry.status() << " at " << pos;
    EXPECT_EQ(entry->row.size(), c.columns) << c.text;
    EXPECT_EQ(entry->diff, c.diff) << c.text;
    EXPECT_EQ(PrintConstantRow(entry->row, entry->diff), c.text);
  }
  size_t pos = 0;
  auto redacted = ParseConstantRow("((\xE2\x96\x88, \xE2\x96\x88) x 2)", &pos);
  ASSERT_TRUE(redacted.ok());
  EXPECT_EQ(redacted->row[1], Literal::Redacted());

  ExpectError(ParseConstantRow("((5) x )", &pos), pos, 7,
              "expected row multiplicity");
  ExpectError(ParseConstantRow("((5) x 2", &pos), pos, 8, "expected `)`");
  ExpectError(ParseConstantRow("((5, ) x 2)", &pos), pos, 5, "expected datum");
  ExpectError(ParseConstantRow("(5", &pos), pos, 2, "expected `, ` or `)`");
  ExpectError(ParseConstantRow("5", &pos), pos, 0, "expected `(`");
  ExpectError(ParseRow("(#0)", &pos), pos, 1, "expected datum");
  ExpectError(ParseRow("(1) ", &pos), pos, 3, "expected end of the row");
}

}  // namespace
}  // namespace lir::explain
