// The per-row semantics of the reference evaluator: scalar expressions
// (three-valued logic, NULLs, arithmetic, comparisons, casts, unsupported
// constructs), MFPs and keys. The per-group operators are in
// eval_operators_test.cc.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "lir/node.h"
#include "src/explain/text_primitives.h"
#include "tests/support/eval_scalar_test_util.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

// ---- Helpers -------------------------------------------------------------

/// Evaluates `text` on `row`, expecting success.
Datum Eval(std::string_view text, const DataRow& row = {}) {
  absl::StatusOr<Datum> d = EvalScalar(E(text), row);
  EXPECT_TRUE(d.ok()) << text << ": " << d.status();
  return d.ok() ? *d : Datum::String("<error>");
}

absl::Status EvalError(std::string_view text, const DataRow& row = {}) {
  return EvalScalar(E(text), row).status();
}

// ---- Three-valued logic --------------------------------------------------

const char* Lit(const Datum& d) {
  if (d.is_null()) return "null";
  return d.as_bool() ? "true" : "false";
}

/// SQL's AND / OR on {true, false, NULL}, spelled out.
Datum And3(const Datum& a, const Datum& b) {
  if ((a.is_bool() && !a.as_bool()) || (b.is_bool() && !b.as_bool()))
    return B(false);
  if (a.is_null() || b.is_null()) return N;
  return B(true);
}
Datum Or3(const Datum& a, const Datum& b) {
  if ((a.is_bool() && a.as_bool()) || (b.is_bool() && b.as_bool()))
    return B(true);
  if (a.is_null() || b.is_null()) return N;
  return B(false);
}

TEST(EvalScalar, AndOrTruthTables) {
  const std::vector<Datum> values = {B(true), B(false), N};
  for (const Datum& a : values) {
    for (const Datum& b : values) {
      DataRow row = {a, b};
      EXPECT_EQ(Eval("(#0 AND #1)", row), And3(a, b))
          << Lit(a) << " AND " << Lit(b);
      EXPECT_EQ(Eval("(#0 OR #1)", row), Or3(a, b))
          << Lit(a) << " OR " << Lit(b);
      for (const Datum& c : values) {
        DataRow row3 = {a, b, c};
        EXPECT_EQ(Eval("(#0 AND #1 AND #2)", row3), And3(And3(a, b), c));
        EXPECT_EQ(Eval("(#0 OR #1 OR #2)", row3), Or3(Or3(a, b), c));
      }
    }
  }
}

TEST(EvalScalar, NotAndPostfixTests) {
  EXPECT_EQ(Eval("NOT(#0)", {B(true)}), B(false));
  EXPECT_EQ(Eval("NOT(#0)", {B(false)}), B(true));
  EXPECT_EQ(Eval("NOT(#0)", {N}), N);
  struct Case {
    Datum in;
    bool is_null, is_true, is_false;
  };
  for (const Case& c :
       {Case{B(true), false, true, false}, Case{B(false), false, false, true},
        Case{N, true, false, false}}) {
    DataRow row = {c.in};
    EXPECT_EQ(Eval("(#0) IS NULL", row), B(c.is_null));
    EXPECT_EQ(Eval("(#0) IS NOT NULL", row), B(!c.is_null));
    EXPECT_EQ(Eval("(#0) IS TRUE", row), B(c.is_true));
    EXPECT_EQ(Eval("(#0) IS NOT TRUE", row), B(!c.is_true));
    EXPECT_EQ(Eval("(#0) IS FALSE", row), B(c.is_false));
    EXPECT_EQ(Eval("(#0) IS NOT FALSE", row), B(!c.is_false));
  }
  EXPECT_EQ(Eval("(#0) IS NULL", {I(3)}), B(false));
}

TEST(EvalScalar, FalseDominatesErrorsInAnd) {
  // The result does not depend on the operand order.
  EXPECT_EQ(Eval("(((1 / #0) = 1) AND false)", {I(0)}), B(false));
  EXPECT_EQ(Eval("(false AND ((1 / #0) = 1))", {I(0)}), B(false));
  EXPECT_EQ(Eval("(((1 / #0) = 1) OR true)", {I(0)}), B(true));
  absl::Status s = EvalError("(true AND ((1 / #0) = 1))", {I(0)});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
  s = EvalError("(null AND ((1 / #0) = 1))", {I(0)});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << s;
}

// ---- NULLs, arithmetic, errors -------------------------------------------

TEST(EvalScalar, NullPropagation) {
  for (const char* e :
       {"(#0 + 1)", "(#0 - 1)", "(#0 * 2)", "(#0 / 2)", "(#0 % 2)", "-(#0)",
        "abs(#0)", "(#0 = 1)", "(#0 != 1)", "(#0 < 1)", "(1 >= #0)",
        "(#0 || \"x\")", "integer_to_bigint(#0)", "integer_to_text(#0)",
        "integer_to_double(#0)"}) {
    EXPECT_EQ(Eval(e, {N}), N) << e;
  }
  // Division by a NULL is NULL, not an error, even for a zero dividend.
  EXPECT_EQ(Eval("(0 / #0)", {N}), N);
  EXPECT_EQ(Eval("(#0 = #0)", {N}), N);
}

TEST(EvalScalar, IntegerArithmetic) {
  EXPECT_EQ(Eval("(#0 + #1)", {I(2), I(3)}), I(5));
  EXPECT_EQ(Eval("(#0 - #1)", {I(2), I(3)}), I(-1));
  EXPECT_EQ(Eval("(#0 * #1)", {I(-4), I(3)}), I(-12));
  EXPECT_EQ(Eval("(#0 / #1)", {I(7), I(2)}), I(3));
  EXPECT_EQ(Eval("(#0 / #1)", {I(-7), I(2)}), I(-3));  // truncates to zero
  EXPECT_EQ(Eval("(#0 % #1)", {I(-7), I(2)}), I(-1));  // dividend's sign
  EXPECT_EQ(Eval("(#0 % #1)", {I(7), I(-2)}), I(1));
  EXPECT_EQ(Eval("-(#0)", {I(5)}), I(-5));
  EXPECT_EQ(Eval("abs(#0)", {I(-5)}), I(5));
  EXPECT_EQ(Eval("(#0 - 2)", {I(1)}), I(-1));
  EXPECT_EQ(Eval("(-5 + 2)"), I(-3));
}

TEST(EvalScalar, OverflowAndDivisionByZero) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  for (auto [text, row] : std::vector<std::pair<std::string, DataRow>>{
           {"(#0 + 1)", {I(max)}},
           {"(#0 - 1)", {I(min)}},
           {"(#0 * 2)", {I(max / 2 + 1)}},
           {"(#0 * #0)", {I(min)}},
           {"-(#0)", {I(min)}},
           {"abs(#0)", {I(min)}},
           {"(#0 / -1)", {I(min)}},
           {"bigint_to_integer(#0)", {I(int64_t{1} << 31)}},
       }) {
    absl::Status s = EvalError(text, row);
    EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << text << ": " << s;
    EXPECT_TRUE(absl::StrContains(s.message(), "out of range")) << s;
  }
  EXPECT_EQ(Eval("(#0 % -1)", {I(min)}), I(0));
  EXPECT_EQ(Eval("(#0 + -1)", {I(max)}), I(max - 1));
  for (auto [text, row] : std::vector<std::pair<std::string, DataRow>>{
           {"(#0 / 0)", {I(1)}},
           {"(#0 % 0)", {I(1)}},
           {"(#0 / #1)", {F(1.5), I(0)}},
           {"(#0 / #1)", {I(1), F(0.0)}},
           {"(#0 % #1)", {F(1.5), F(0.0)}},
           {"(1 / 0)", {}},
       }) {
    absl::Status s = EvalError(text, row);
    EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << text << ": " << s;
    EXPECT_EQ(s.message(), "division by zero") << text;
  }
}

TEST(EvalScalar, FloatArithmeticPromotes) {
  EXPECT_EQ(Eval("(#0 + #1)", {I(1), F(0.5)}), F(1.5));
  EXPECT_EQ(Eval("(#0 * #1)", {F(2.5), I(2)}), F(5.0));
  EXPECT_EQ(Eval("(#0 / #1)", {I(1), F(4)}), F(0.25));
  EXPECT_EQ(Eval("(#0 + 1.5)", {I(1)}), F(2.5));
  EXPECT_EQ(Eval("(#0 % #1)", {F(5.5), I(2)}), F(1.5));
  EXPECT_EQ(Eval("-(#0)", {F(2.5)}), F(-2.5));
}

// As Materialize's add/sub/mul/div_float64 and double_to_real (and
// PostgreSQL's float8 operators): a finite computation past a double's
// range is `value out of range: overflow`, a non-zero product or quotient
// that rounds to 0 `value out of range: underflow`.
TEST(EvalScalar, FloatOverflowAndUnderflowAreErrors) {
  const double max = std::numeric_limits<double>::max();
  struct Case {
    const char* expr;
    DataRow row;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"(#0 + #1)", {F(max), F(max)}, "value out of range: overflow"},
      {"(#0 + #1)",
       {F(max), I(std::numeric_limits<int64_t>::max())},
       nullptr},  // rounds back to max: no overflow
      {"(#0 - #1)", {F(-max), F(max)}, "value out of range: overflow"},
      {"(#0 * #1)", {F(1e300), F(1e300)}, "value out of range: overflow"},
      {"(#0 * #1)", {F(1e300), I(-1000000000)}, "value out of range: overflow"},
      {"(#0 * #1)", {F(1e-300), F(1e-300)}, "value out of range: underflow"},
      {"(#0 / #1)", {F(1e300), F(1e-300)}, "value out of range: overflow"},
      {"(#0 / #1)", {F(1e-300), F(1e300)}, "value out of range: underflow"},
      {"(#0 / #1)", {I(1), F(1e-320)}, "value out of range: overflow"},
      {"double_to_real(#0)", {F(1e39)}, "value out of range: overflow"},
      {"double_to_real(#0)", {F(-1e39)}, "value out of range: overflow"},
      {"double_to_real(#0)", {F(1e-50)}, "value out of range: underflow"},
  };
  for (const Case& c : cases) {
    if (c.message == nullptr) {
      EXPECT_TRUE(EvalScalar(E(c.expr), c.row).ok()) << c.expr;
      continue;
    }
    absl::Status s = EvalError(c.expr, c.row);
    EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange) << c.expr << ": " << s;
    EXPECT_EQ(s.message(), c.message) << c.expr;
  }
}

// Infinities and NaN given as values are values: they propagate as in
// PostgreSQL, and exact zeros are not underflows.
TEST(EvalScalar, NonFiniteFloatValuesPropagate) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Eval("(#0 + 1)", {F(inf)}), F(inf));
  EXPECT_EQ(Eval("(#0 * #1)", {F(-inf), F(2)}), F(-inf));
  EXPECT_EQ(Eval("(#0 / #1)", {F(inf), F(1e-300)}), F(inf));
  EXPECT_EQ(Eval("(#0 / #1)", {F(1), F(inf)}), F(0));  // not an underflow
  EXPECT_EQ(Eval("(#0 * #1)", {F(0), F(1e-300)}), F(0));
  EXPECT_EQ(Eval("double_to_real(#0)", {F(inf)}), F(inf));
  EXPECT_EQ(Eval("double_to_real(#0)", {F(0)}), F(0));
  for (const char* expr :
       {"(#0 - #0)", "(#0 * 0)", "(#1 + 1)", "(#1 / 0)", "(#1 * #1)"}) {
    Datum d = Eval(expr, {F(inf), F(nan)});
    ASSERT_TRUE(d.is_float()) << expr;
    EXPECT_TRUE(std::isnan(d.as_float())) << expr;
  }
}

// A number literal is an integer within 64 bits, else a double when the
// double holds its digits; never a double with digits silently rounded.
TEST(EvalScalar, NumberLiteralsKeepTheirDigits) {
  EXPECT_EQ(Eval("-9223372036854775808"), I(INT64_MIN));
  EXPECT_EQ(Eval("0.1"), F(0.1));
  EXPECT_EQ(Eval("1.50"), F(1.5));
  EXPECT_EQ(Eval("-0.000125"), F(-0.000125));
  // How Materialize prints the double 1e20, and the largest double.
  EXPECT_EQ(Eval("100000000000000000000"), F(1e20));
  EXPECT_EQ(Eval(absl::StrCat("17976931348623157", std::string(292, '0'))),
            F(std::numeric_limits<double>::max()));
  for (const char* text :
       {"9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "100000000000000000001", "3.14159265358979323846"}) {
    absl::Status s = EvalError(text);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << text;
    EXPECT_TRUE(absl::StrContains(
        s.message(),
        absl::StrCat("unsupported literal ", text,
                     ": the evaluator holds numbers as 64-bit integers "
                     "(-9223372036854775808 to 9223372036854775807) or "
                     "doubles, and a double would not keep its digits")))
        << s;
    EXPECT_EQ(CheckScalar(E(text)).code(), absl::StatusCode::kUnimplemented)
        << text;
  }
}

TEST(EvalScalar, TypeMismatchIsAnError) {
  EXPECT_EQ(EvalError("(#0 + 1)", {S("x")}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalError("(#0 = 1)", {S("1")}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalError("(#0 AND true)", {I(1)}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalError("#3", {I(1)}).code(), absl::StatusCode::kInvalidArgument);
}

// ---- Comparisons -----------------------------------------------------------

TEST(EvalScalar, ComparisonsAcrossIntAndFloat) {
  EXPECT_EQ(Eval("(#0 = #1)", {I(1), F(1.0)}), B(true));
  EXPECT_EQ(Eval("(#0 != #1)", {I(1), F(1.0)}), B(false));
  EXPECT_EQ(Eval("(#0 < #1)", {I(1), F(1.5)}), B(true));
  EXPECT_EQ(Eval("(#0 > #1)", {F(1.5), I(1)}), B(true));
  EXPECT_EQ(Eval("(#0 <= #1)", {I(2), F(1.5)}), B(false));
  EXPECT_EQ(Eval("(#0 >= #1)", {F(2.0), I(2)}), B(true));
  EXPECT_EQ(Eval("(#0 = 2.5)", {F(2.5)}), B(true));
  // 2^53 + 1 is not representable as a double: compare exactly.
  const int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_EQ(Eval("(#0 = #1)", {I(big), F(static_cast<double>(big))}), B(false));
  EXPECT_EQ(Eval("(#0 > #1)", {I(big), F(static_cast<double>(big))}), B(true));
  // NaN equals itself and sorts above every number.
  const Datum nan = F(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(Eval("(#0 = #1)", {nan, nan}), B(true));
  EXPECT_EQ(
      Eval("(#0 > #1)", {nan, F(std::numeric_limits<double>::infinity())}),
      B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {I(5), nan}), B(true));
  EXPECT_EQ(Eval("(#0 = #1)", {F(-0.0), F(0.0)}), B(true));
}

TEST(EvalScalar, ComparisonsOfStringsAndBools) {
  EXPECT_EQ(Eval("(#0 < #1)", {S("a"), S("b")}), B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {S("B"), S("a")}), B(true));  // bytewise
  EXPECT_EQ(Eval("(#0 < #1)", {S("ab"), S("abc")}), B(true));
  EXPECT_EQ(Eval("(#0 > #1)", {S("\xC3\xA9"), S("z")}),
            B(true));  // unsigned bytes
  EXPECT_EQ(Eval("(#0 = \"x\")", {S("x")}), B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {B(false), B(true)}), B(true));
  EXPECT_EQ(Eval("(#0 <> #1)", {I(1), I(2)}), B(true));
}

// ---- Functions, casts, case
// --------------------------------------------------

TEST(EvalScalar, Casts) {
  EXPECT_EQ(Eval("integer_to_bigint(#0)", {I(7)}), I(7));
  EXPECT_EQ(Eval("smallint_to_integer(#0)", {I(-7)}), I(-7));
  EXPECT_EQ(Eval("bigint_to_numeric(#0)", {I(7)}), I(7));
  EXPECT_EQ(Eval("integer_to_double(#0)", {I(7)}), F(7.0));
  EXPECT_TRUE(Eval("bigint_to_double(#0)", {I(7)}).is_float());
  EXPECT_EQ(Eval("integer_to_real(#0)", {I(16777217)}), F(16777216.0));
  EXPECT_EQ(Eval("bigint_to_integer(#0)", {I(-2147483648)}), I(-2147483648));
  EXPECT_EQ(EvalError("integer_to_smallint(#0)", {I(40000)}).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(Eval("integer_to_text(#0)", {I(-42)}), S("-42"));
  EXPECT_EQ(Eval("(integer_to_text(#0) || \"1\")", {I(4)}), S("41"));
  EXPECT_EQ(EvalError("integer_to_bigint(#0)", {S("x")}).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(EvalScalar, CaseCoalesceGreatestLeast) {
  EXPECT_EQ(Eval("case when #0 then 1 else 2 end", {B(true)}), I(1));
  EXPECT_EQ(Eval("case when #0 then 1 else 2 end", {B(false)}), I(2));
  EXPECT_EQ(Eval("case when #0 then 1 else 2 end", {N}), I(2));
  // Only the chosen branch is evaluated.
  EXPECT_EQ(Eval("case when (#0 = 0) then 0 else (10 / #0) end", {I(0)}), I(0));
  EXPECT_EQ(Eval("case when (#0 = 0) then 0 else (10 / #0) end", {I(5)}), I(2));
  EXPECT_EQ(Eval("coalesce(#0, #1, 3)", {N, I(2)}), I(2));
  EXPECT_EQ(Eval("coalesce(#0, #1)", {N, N}), N);
  EXPECT_EQ(Eval("coalesce(#0, (1 / 0))", {I(5)}), I(5));  // lazy
  EXPECT_EQ(Eval("greatest(#0, #1, #2)", {I(1), N, F(2.5)}), F(2.5));
  EXPECT_EQ(Eval("least(#0, #1, #2)", {I(1), N, F(2.5)}), I(1));
  EXPECT_EQ(Eval("least(#0, #1)", {N, N}), N);
}

TEST(EvalScalar, UnsupportedIsUnimplementedInCheckAndEval) {
  for (const char* text :
       {"md5(text_to_bytea(#0))", "record_get[x](#0)", "record_get[0](#0, #1)",
        "list_length(#0)", "mz_now()", "(#0 ~ \"x\")",
        "case_lookup #0 when 1 then 2 else 3 end", "(#0 + 12:00:00)",
        "(#0 + █)", "timestamp_tz_to_mz_timestamp(#0)"}) {
    size_t pos = 0;
    absl::StatusOr<ScalarExpr> e = explain::ParseExpr(text, &pos);
    ASSERT_TRUE(e.ok()) << text << ": " << e.status();
    absl::Status check = CheckScalar(*e);
    EXPECT_EQ(check.code(), absl::StatusCode::kUnimplemented)
        << text << ": " << check;
    absl::Status eval = EvalScalar(*e, {I(1), I(2), I(3)}).status();
    EXPECT_EQ(eval.code(), absl::StatusCode::kUnimplemented)
        << text << ": " << eval;
  }
  // Known operators with the wrong number of operands, opaque text.
  for (const ScalarExpr& e :
       {ScalarExpr::Call(CallStyle::kInfix, "=", {E("#0"), E("#1"), E("#2")}),
        ScalarExpr::Call(CallStyle::kFunction, "abs", {E("#0"), E("#1")}),
        ScalarExpr::Call(CallStyle::kFunction, "coalesce", {}),
        ScalarExpr::Opaque("#0 @@@ #1")}) {
    EXPECT_EQ(CheckScalar(e).code(), absl::StatusCode::kUnimplemented)
        << explain::PrintExpr(e);
    EXPECT_EQ(EvalScalar(e, {I(1), I(2), I(3)}).status().code(),
              absl::StatusCode::kUnimplemented);
  }
  EXPECT_EQ(CheckScalar(E("md5(#0)")).message(), "unsupported function md5");
  // digest takes the data and the algorithm's name.
  EXPECT_EQ(CheckScalar(E("digest(#0)")).message(),
            "unsupported function digest");
  // Times of day are not datums here (dates are, below).
  EXPECT_EQ(CheckScalar(E("(#0 + 12:00:00)")).message(),
            "unsupported literal 12:00:00");
  // Supported ones pass.
  for (const char* text :
       {"((#0 + 1) = #1)", "(#0) IS NOT NULL", "coalesce(#0, 1)",
        "case when (#0 > 1) then \"a\" else null end", "NOT((#0 AND #1))",
        "integer_to_text(#0)", "(1.5 * -(#0))", "abs(#0)"}) {
    EXPECT_TRUE(CheckScalar(E(text)).ok()) << text;
  }
}

// ---- bytea ---------------------------------------------------------------

/// The bytea whose bytes `hex` spells (two lowercase digits per byte),
/// decoded here rather than by the code under test.
Datum Hex(std::string_view hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    bytes += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
  }
  return Datum::Bytea(bytes);
}

TEST(EvalBytea, TextToByteaReadsMaterializesInputSyntax) {
  // The escape form: the text's own bytes, `\\` and `\NNN` escapes.
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("abc")}), Hex("616263"));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("")}), Hex(""));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("a\\\\b")}), Hex("615c62"));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("\\141\\377")}), Hex("61ff"));
  // The hex form: either case, whitespace between pairs.
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("\\x6162 63")}), Hex("616263"));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("\\xFF\n0a")}), Hex("ff0a"));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {S("\\x")}), Hex(""));
  // A bytea is not the text with the same bytes.
  EXPECT_NE(Eval("text_to_bytea(#0)", {S("abc")}), S("abc"));
  EXPECT_EQ(Eval("text_to_bytea(#0)", {N}), N);
  struct Bad {
    const char* text;
    const char* message;
  } bad[] = {
      {"\\x616",
       "invalid input syntax for type bytea: invalid hexadecimal data: odd "
       "number of digits: \"\\x616\""},
      {"\\x6g",
       "invalid input syntax for type bytea: invalid hexadecimal digit: "
       "\"g\": \"\\x6g\""},
      {"\\x6 1",
       "invalid input syntax for type bytea: invalid hexadecimal digit: "
       "\" \": \"\\x6 1\""},
      {"ab\\",
       "invalid input syntax for type bytea: ends with escape character: "
       "\"ab\\\""},
      {"\\400",
       "invalid input syntax for type bytea: invalid escape sequence: "
       "\"\\400\""},
      {"\\X61",
       "invalid input syntax for type bytea: invalid escape sequence: "
       "\"\\X61\""},
  };
  for (const Bad& b : bad) {
    absl::Status status = EvalError("text_to_bytea(#0)", {S(b.text)});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << b.text;
    EXPECT_EQ(status.message(), b.message) << b.text;
  }
  EXPECT_EQ(EvalError("text_to_bytea(#0)", {I(1)}).message(),
            "operator text_to_bytea does not apply to a integer");
}

TEST(EvalBytea, DigestMatchesKnownVectors) {
  // FIPS 180-2's "abc" vectors, RFC 1321's for md5.
  EXPECT_EQ(
      Eval("digest(text_to_bytea(#0), \"sha256\")", {S("abc")}),
      Hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  EXPECT_EQ(
      Eval("digest(text_to_bytea(#0), \"sha256\")", {S("")}),
      Hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  EXPECT_EQ(Eval("digest(#0, \"sha1\")", {Hex("616263")}),
            Hex("a9993e364706816aba3e25717850c26c9cd0d89d"));
  EXPECT_EQ(Eval("digest(#0, \"md5\")", {Hex("616263")}),
            Hex("900150983cd24fb0d6963f7d28e17f72"));
  // digest of a text hashes its bytes (Materialize's digest_string).
  EXPECT_EQ(Eval("digest(#0, \"sha256\")", {S("abc")}),
            Eval("digest(text_to_bytea(#0), \"sha256\")", {S("abc")}));
  const std::pair<const char*, int> lengths[] = {
      {"sha224", 28}, {"sha384", 48}, {"sha512", 64}};
  for (const auto& [algorithm, length] : lengths) {
    const Datum hash = Eval("digest(#0, #1)", {S("abc"), S(algorithm)});
    ASSERT_TRUE(hash.is_bytea()) << algorithm;
    EXPECT_EQ(hash.as_bytea().size(), static_cast<size_t>(length)) << algorithm;
  }
}

TEST(EvalBytea, DigestNullsAndBadAlgorithms) {
  EXPECT_EQ(Eval("digest(#0, \"sha256\")", {N}), N);
  EXPECT_EQ(Eval("digest(#0, #1)", {Hex("61"), N}), N);
  EXPECT_EQ(Eval("digest(text_to_bytea(#0), \"sha256\")", {N}), N);
  // Materialize matches the names exactly: no upper case, no `sha-256`.
  for (const char* algorithm : {"sha-256", "SHA256", "md4", ""}) {
    absl::Status status =
        EvalError("digest(#0, #1)", {Hex("61"), S(algorithm)});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << algorithm;
    EXPECT_EQ(status.message(),
              std::string("invalid hash algorithm '") + algorithm + "'");
  }
  EXPECT_EQ(EvalError("digest(#0, \"sha256\")", {I(1)}).code(),
            absl::StatusCode::kInvalidArgument);
  // A bad algorithm is a data error: the plan itself checks fine.
  EXPECT_TRUE(CheckScalar(E("digest(#0, \"sha-256\")")).ok());
}

TEST(EvalBytea, PrintsComparesAndCastsBack) {
  EXPECT_EQ(FormatDatum(Hex("0a1bff")), "\\x0a1bff");
  EXPECT_EQ(FormatDatum(Hex("")), "\\x");
  EXPECT_EQ(FormatDatum(Datum::Array({Hex("0a"), N})), "{\\x0a, null}");
  EXPECT_EQ(FormatRow({Hex("61"), S("a")}), "(\\x61, \"a\")");
  EXPECT_EQ(Eval("bytea_to_text(#0)", {Hex("0a1bff")}), S("\\x0a1bff"));
  EXPECT_EQ(Eval("bytea_to_text(text_to_bytea(#0))", {S("ab")}), S("\\x6162"));
  // Bytes compare unsigned, as in Materialize and PostgreSQL.
  EXPECT_EQ(Eval("(#0 < #1)", {Hex("7f"), Hex("80")}), B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {Hex("61"), Hex("6100")}), B(true));
  EXPECT_EQ(Eval("(#0 = #1)", {Hex("61"), Hex("61")}), B(true));
  EXPECT_LT(Hex("7f"), Hex("80"));
  EXPECT_EQ(EvalError("(#0 = #1)", {Hex("61"), S("a")}).message(),
            "operator = does not apply to a bytea and a string");
}

// ---- date ----------------------------------------------------------------

/// The date `text` (`YYYY-MM-DD`), read by the code under test's parser
/// (ParseDate has its own cases below).
Datum D(std::string_view text) {
  absl::StatusOr<Date> date = ParseDate(std::string(text));
  EXPECT_TRUE(date.ok()) << text << ": " << date.status();
  return Datum::Day(date.value_or(Date{}));
}

/// A timestamp datum, `YYYY-MM-DD HH:MM:SS`.
Datum T(std::string_view text) {
  absl::StatusOr<Timestamp> ts = ParseTimestamp(std::string(text));
  EXPECT_TRUE(ts.ok()) << text << ": " << ts.status();
  return Datum::Time(ts.value_or(Timestamp{}));
}

TEST(EvalDate, LiteralsReadAndPrint) {
  // The literal github-2746-L45 compares l_receiptdate with.
  EXPECT_EQ(Eval("1997-07-06"), D("1997-07-06"));
  EXPECT_EQ(D("1970-01-02").as_date().days, 1);
  EXPECT_EQ(D("1969-12-31").as_date().days, -1);
  EXPECT_EQ(FormatDatum(D("1997-07-06")), "1997-07-06");
  EXPECT_EQ(FormatDatum(D("0001-01-01")), "0001-01-01");
  EXPECT_EQ(FormatRow({D("2024-02-29"), N}), "(2024-02-29, null)");
  for (const char* bad : {"", "1997-7-6", "1997-02-29", "2023-13-01",
                          "0000-01-01", "1997-07-06 00:00:00", "1997-07-06x"}) {
    EXPECT_FALSE(ParseDate(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseDate("1997-02-29").status().message(),
            "invalid date \"1997-02-29\" (expected YYYY-MM-DD)");
}

TEST(EvalDate, Comparisons) {
  const DataRow row = {D("1997-07-06"), D("1997-07-05"), N};
  EXPECT_EQ(Eval("(#0 = 1997-07-06)", row), B(true));
  EXPECT_EQ(Eval("(#1 = 1997-07-06)", row), B(false));
  EXPECT_EQ(Eval("(#1 < #0)", row), B(true));
  EXPECT_EQ(Eval("(#0 >= #1)", row), B(true));
  EXPECT_EQ(Eval("(#0 != #1)", row), B(true));
  EXPECT_EQ(Eval("(#2 = 1997-07-06)", row), N);
  EXPECT_EQ(Eval("greatest(#0, #1)", row), D("1997-07-06"));
  // Before the epoch too (negative day numbers).
  EXPECT_EQ(Eval("(#0 < 1970-01-01)", {D("1969-12-31")}), B(true));
  // A date is not a timestamp: Materialize compares them only after
  // date_to_timestamp.
  EXPECT_EQ(EvalError("(#0 = #1)", {D("1997-07-06"), T("1997-07-06 00:00:00")})
                .message(),
            "operator = does not apply to a date and a timestamp");
}

TEST(EvalDate, DateToTimestamp) {
  EXPECT_EQ(Eval("date_to_timestamp(#0)", {D("1997-07-06")}),
            T("1997-07-06 00:00:00"));
  EXPECT_EQ(Eval("date_to_timestamp(#0)", {D("0001-01-01")}),
            T("0001-01-01 00:00:00"));
  EXPECT_EQ(Eval("date_to_timestamp(#0)", {N}), N);
  EXPECT_EQ(EvalError("date_to_timestamp(#0)", {I(1)}).message(),
            "operator date_to_timestamp does not apply to a integer");
}

TEST(EvalDate, PlusAndMinusIntervalGiveATimestamp) {
  auto eval = [](const char* text, const char* date) {
    return FormatDatum(Eval(text, {D(date)}));
  };
  // github-2746-L45's `o_orderdate - 7 days`, across a month end.
  EXPECT_EQ(eval("(#0 - 7 days)", "1997-07-03"), "1997-06-26 00:00:00");
  EXPECT_EQ(eval("(#0 + 7 days)", "1997-06-26"), "1997-07-03 00:00:00");
  // Across a leap day, and a month clamped to February's 29 days.
  EXPECT_EQ(eval("(#0 - 1 day)", "2024-03-01"), "2024-02-29 00:00:00");
  EXPECT_EQ(eval("(#0 - 1 day)", "2023-03-01"), "2023-02-28 00:00:00");
  EXPECT_EQ(eval("(#0 + 1 mon)", "2024-01-31"), "2024-02-29 00:00:00");
  EXPECT_EQ(eval("(#0 - 1 year)", "2024-02-29"), "2023-02-28 00:00:00");
  EXPECT_EQ(eval("(1 day + #0)", "2024-02-28"), "2024-02-29 00:00:00");
  // The filter of github-2746-L45 on a matching row.
  EXPECT_EQ(Eval("(date_to_timestamp(#0) = (#1 - 7 days))",
                 {D("1997-06-29"), D("1997-07-06")}),
            B(true));
  EXPECT_EQ(Eval("(#0 - 7 days)", {N}), N);
  EXPECT_EQ(EvalError("(#0 + 1 day)", {D("9999-12-31")}).message(),
            "timestamp out of range");
  // No `interval - date`, and a date plus an integer is not supported.
  EXPECT_EQ(EvalError("(1 day - #0)", {D("2024-02-28")}).message(),
            "operator - does not apply to a interval and a date");
}

// ---- MFP -------------------------------------------------------------------

TEST(EvalMfp, MapReadsEarlierMappedColumns) {
  MapFilterProject mfp =
      Mfp({"(#0 + 1)", "(#1 * 10)", "(#2 + #1)"}, {}, std::nullopt);
  absl::StatusOr<std::optional<DataRow>> out = EvalMfp(mfp, {I(2)});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_TRUE(out->has_value());
  // Without a projection the map columns are not output
  // (../shared/reference/SEMANTICS.md 8.1).
  EXPECT_EQ(**out, (DataRow{I(2)}));
  mfp.project = std::vector<int>{0, 1, 2, 3};
  out = EvalMfp(mfp, {I(2)});
  ASSERT_TRUE(out.ok() && out->has_value());
  EXPECT_EQ(**out, (DataRow{I(2), I(3), I(30), I(33)}));
  mfp.project = std::vector<int>{3, 0, 3};
  out = EvalMfp(mfp, {I(2)});
  ASSERT_TRUE(out.ok() && out->has_value());
  EXPECT_EQ(**out, (DataRow{I(33), I(2), I(33)}));
}

TEST(EvalMfp, FiltersDropFalseAndNull) {
  MapFilterProject mfp =
      Mfp({"(#0 * 2)"}, {"(#1 > 2)", "(#0 != 5)"}, std::vector<int>{1});
  auto run = [&](DataRow row) {
    absl::StatusOr<std::optional<DataRow>> out = EvalMfp(mfp, std::move(row));
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? *out : std::nullopt;
  };
  EXPECT_EQ(run({I(2)}), (DataRow{I(4)}));
  EXPECT_EQ(run({I(1)}), std::nullopt);  // false
  EXPECT_EQ(run({N}), std::nullopt);     // NULL
  EXPECT_EQ(run({I(5)}), std::nullopt);  // second filter
  // The identity.
  absl::StatusOr<std::optional<DataRow>> id =
      EvalMfp(MapFilterProject{}, {I(1), N});
  ASSERT_TRUE(id.ok() && id->has_value());
  EXPECT_EQ(**id, (DataRow{I(1), N}));
}

TEST(EvalMfp, FilterRunsBeforeMapsItDoesNotNeed) {
  // SELECT 10 / a FROM t WHERE a != 0: the filter must drop a = 0 before the
  // division is evaluated.
  MapFilterProject mfp = Mfp({"(10 / #0)"}, {"(#0 != 0)"}, std::vector<int>{1});
  absl::StatusOr<std::optional<DataRow>> out = EvalMfp(mfp, {I(0)});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FALSE(out->has_value());
  out = EvalMfp(mfp, {I(5)});
  ASSERT_TRUE(out.ok() && out->has_value());
  EXPECT_EQ(**out, (DataRow{I(2)}));
  // A filter on a mapped column waits for it; the error surfaces.
  MapFilterProject bad = Mfp({"(10 / #0)"}, {"(#1 > 0)"}, std::nullopt);
  EXPECT_EQ(EvalMfp(bad, {I(0)}).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(EvalMfp, TemporalFilterNeedsTheRound) {
  MapFilterProject mfp;
  mfp.temporal = TemporalFilter{{}, {E("#0")}};
  // Where Materialize evaluates without time (Reduce plans, closures) a
  // temporal filter is an error; where it allows one, it is accepted, and
  // EvalMfp (which has no round) refuses to evaluate it.
  EXPECT_EQ(CheckMfp(mfp).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(CheckTemporalMfp(mfp).ok());
  EXPECT_EQ(EvalMfp(mfp, {I(1)}).status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(CheckMfp(Mfp({}, {"(mz_now() < #0)"}, std::nullopt)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      CheckTemporalMfp(Mfp({}, {"(mz_now() < #0)"}, std::nullopt)).ok());
  EXPECT_EQ(CheckMfp(Mfp({"md5(#0)"}, {}, std::nullopt)).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(
      CheckMfp(Mfp({"(#0 + 1)"}, {"(#1 > 2)"}, std::vector<int>{1})).ok());
}

TEST(EvalKey, EvaluatesEachExpression) {
  absl::StatusOr<DataRow> key =
      EvalKey({E("#1"), E("(#0 + #1)")}, {I(1), I(2)});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, (DataRow{I(2), I(3)}));
}

}  // namespace
}  // namespace lir::eval
