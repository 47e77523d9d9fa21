// The per-row and per-group semantics of the reference evaluator: scalar
// expressions, MFPs, aggregates, TopK, table functions, join stages,
// CheckNode, and a sweep of CheckNode over the corpus.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/explain/text.h"
#include "src/explain/text_primitives.h"
#include "src/interp/eval/datum.h"
#include "src/interp/eval/operators.h"
#include "src/interp/eval/scalar_eval.h"
#include "src/lir/document.h"
#include "src/lir/node.h"

namespace lir::eval {
namespace {

namespace fs = std::filesystem;

// ---- Helpers -------------------------------------------------------------

ScalarExpr E(std::string_view text) {
  size_t pos = 0;
  absl::StatusOr<ScalarExpr> e = explain::ParseExpr(text, &pos);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status();
  return e.ok() ? *e : ScalarExpr::Opaque(std::string(text));
}

Datum I(int64_t i) { return Datum::Int(i); }
Datum F(double d) { return Datum::Float(d); }
Datum S(std::string s) { return Datum::String(std::move(s)); }
Datum B(bool b) { return Datum::Bool(b); }
const Datum N = Datum::Null();

/// Evaluates `text` on `row`, expecting success.
Datum Eval(std::string_view text, const DataRow& row = {}) {
  absl::StatusOr<Datum> d = EvalScalar(E(text), row);
  EXPECT_TRUE(d.ok()) << text << ": " << d.status();
  return d.ok() ? *d : Datum::String("<error>");
}

absl::Status EvalError(std::string_view text, const DataRow& row = {}) {
  return EvalScalar(E(text), row).status();
}

/// Parses a one-object plan (`body` indented by two spaces per level,
/// starting at level 1) and returns its root.
NodePtr Plan(const std::string& body) {
  absl::StatusOr<Document> doc =
      explain::ParseText("Explained Query:\n" + body + "\nTarget cluster: q\n");
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << body;
  if (!doc.ok() || doc->objects.empty()) return nullptr;
  return std::move(doc->objects[0].plan);
}

MapFilterProject Mfp(std::vector<std::string> map,
                     std::vector<std::string> filter,
                     std::optional<std::vector<int>> project) {
  MapFilterProject mfp;
  for (const std::string& m : map) mfp.map.push_back(E(m));
  for (const std::string& f : filter) mfp.filter.push_back(E(f));
  mfp.project = std::move(project);
  return mfp;
}

// ---- Three-valued logic --------------------------------------------------

const char* Lit(const Datum& d) {
  if (d.is_null()) return "null";
  return d.as_bool() ? "true" : "false";
}

/// SQL's AND / OR on {true, false, NULL}, spelled out.
Datum And3(const Datum& a, const Datum& b) {
  if ((a.is_bool() && !a.as_bool()) || (b.is_bool() && !b.as_bool())) return B(false);
  if (a.is_null() || b.is_null()) return N;
  return B(true);
}
Datum Or3(const Datum& a, const Datum& b) {
  if ((a.is_bool() && a.as_bool()) || (b.is_bool() && b.as_bool())) return B(true);
  if (a.is_null() || b.is_null()) return N;
  return B(false);
}

TEST(EvalScalar, AndOrTruthTables) {
  const std::vector<Datum> values = {B(true), B(false), N};
  for (const Datum& a : values) {
    for (const Datum& b : values) {
      DataRow row = {a, b};
      EXPECT_EQ(Eval("(#0 AND #1)", row), And3(a, b)) << Lit(a) << " AND " << Lit(b);
      EXPECT_EQ(Eval("(#0 OR #1)", row), Or3(a, b)) << Lit(a) << " OR " << Lit(b);
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
  for (const Case& c : {Case{B(true), false, true, false},
                        Case{B(false), false, false, true},
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
  for (const char* e : {"(#0 + 1)", "(#0 - 1)", "(#0 * 2)", "(#0 / 2)", "(#0 % 2)",
                        "-(#0)", "abs(#0)", "(#0 = 1)", "(#0 != 1)", "(#0 < 1)",
                        "(1 >= #0)", "(#0 || \"x\")", "integer_to_bigint(#0)",
                        "integer_to_text(#0)", "integer_to_double(#0)"}) {
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
  // IEEE: overflow to infinity, not an error.
  EXPECT_EQ(Eval("(#0 * #0)", {F(1e300)}), F(std::numeric_limits<double>::infinity()));
  Datum nan = Eval("(#0 - #0)", {F(std::numeric_limits<double>::infinity())});
  ASSERT_TRUE(nan.is_float());
  EXPECT_TRUE(std::isnan(nan.as_float()));
}

TEST(EvalScalar, TypeMismatchIsAnError) {
  EXPECT_EQ(EvalError("(#0 + 1)", {S("x")}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalError("(#0 = 1)", {S("1")}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EvalError("(#0 AND true)", {I(1)}).code(), absl::StatusCode::kInvalidArgument);
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
  EXPECT_EQ(Eval("(#0 > #1)", {nan, F(std::numeric_limits<double>::infinity())}),
            B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {I(5), nan}), B(true));
  EXPECT_EQ(Eval("(#0 = #1)", {F(-0.0), F(0.0)}), B(true));
}

TEST(EvalScalar, ComparisonsOfStringsAndBools) {
  EXPECT_EQ(Eval("(#0 < #1)", {S("a"), S("b")}), B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {S("B"), S("a")}), B(true));  // bytewise
  EXPECT_EQ(Eval("(#0 < #1)", {S("ab"), S("abc")}), B(true));
  EXPECT_EQ(Eval("(#0 > #1)", {S("\xC3\xA9"), S("z")}), B(true));  // unsigned bytes
  EXPECT_EQ(Eval("(#0 = \"x\")", {S("x")}), B(true));
  EXPECT_EQ(Eval("(#0 < #1)", {B(false), B(true)}), B(true));
  EXPECT_EQ(Eval("(#0 <> #1)", {I(1), I(2)}), B(true));
}

// ---- Functions, casts, case --------------------------------------------------

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
       {"digest(text_to_bytea(#0), \"sha256\")", "record_get[0](#0)",
        "row(#0, #1)", "array[#0]", "mz_now()", "(#0 ~ \"x\")",
        "case_lookup #0 when 1 then 2 else 3 end", "(#0 + 7 days)",
        "(#0 + █)", "timestamp_to_mz_timestamp(#0)"}) {
    size_t pos = 0;
    absl::StatusOr<ScalarExpr> e = explain::ParseExpr(text, &pos);
    ASSERT_TRUE(e.ok()) << text << ": " << e.status();
    absl::Status check = CheckScalar(*e);
    EXPECT_EQ(check.code(), absl::StatusCode::kUnimplemented) << text << ": " << check;
    absl::Status eval = EvalScalar(*e, {I(1), I(2), I(3)}).status();
    EXPECT_EQ(eval.code(), absl::StatusCode::kUnimplemented) << text << ": " << eval;
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
  EXPECT_EQ(CheckScalar(E("digest(#0, \"x\")")).message(),
            "unsupported function digest");
  EXPECT_EQ(CheckScalar(E("(#0 + 7 days)")).message(), "unsupported literal 7 days");
  // Supported ones pass.
  for (const char* text :
       {"((#0 + 1) = #1)", "(#0) IS NOT NULL", "coalesce(#0, 1)",
        "case when (#0 > 1) then \"a\" else null end", "NOT((#0 AND #1))",
        "integer_to_text(#0)", "(1.5 * -(#0))", "abs(#0)"}) {
    EXPECT_TRUE(CheckScalar(E(text)).ok()) << text;
  }
}

// ---- MFP -------------------------------------------------------------------

TEST(EvalMfp, MapReadsEarlierMappedColumns) {
  MapFilterProject mfp = Mfp({"(#0 + 1)", "(#1 * 10)", "(#2 + #1)"}, {}, std::nullopt);
  absl::StatusOr<std::optional<DataRow>> out = EvalMfp(mfp, {I(2)});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_TRUE(out->has_value());
  EXPECT_EQ(**out, (DataRow{I(2), I(3), I(30), I(33)}));
  mfp.project = std::vector<int>{3, 0, 3};
  out = EvalMfp(mfp, {I(2)});
  ASSERT_TRUE(out.ok() && out->has_value());
  EXPECT_EQ(**out, (DataRow{I(33), I(2), I(33)}));
}

TEST(EvalMfp, FiltersDropFalseAndNull) {
  MapFilterProject mfp = Mfp({"(#0 * 2)"}, {"(#1 > 2)", "(#0 != 5)"}, std::vector<int>{1});
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
  absl::StatusOr<std::optional<DataRow>> id = EvalMfp(MapFilterProject{}, {I(1), N});
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
  EXPECT_EQ(EvalMfp(bad, {I(0)}).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(EvalMfp, TemporalFilterIsUnimplemented) {
  MapFilterProject mfp;
  mfp.temporal = TemporalFilter{{}, {E("#0")}};
  EXPECT_EQ(CheckMfp(mfp).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CheckMfp(mfp).message(), "unsupported function mz_now");
  EXPECT_EQ(EvalMfp(mfp, {I(1)}).status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CheckMfp(Mfp({"digest(#0)"}, {}, std::nullopt)).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(CheckMfp(Mfp({"(#0 + 1)"}, {"(#1 > 2)"}, std::vector<int>{1})).ok());
}

TEST(EvalKey, EvaluatesEachExpression) {
  absl::StatusOr<DataRow> key = EvalKey({E("#1"), E("(#0 + #1)")}, {I(1), I(2)});
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(*key, (DataRow{I(2), I(3)}));
}

// ---- Reduce ----------------------------------------------------------------

AggregateExpr Agg(std::string func, bool distinct = false) {
  AggregateExpr a;
  a.func = std::move(func);
  a.distinct = distinct;
  a.expr = E("#0");
  return a;
}

/// A Basic reduce over val columns with the given aggregates.
ReduceOp Basic(std::vector<AggregateExpr> aggrs) {
  ReduceOp op;
  op.kind = aggrs.size() == 1 ? ReduceKind::kBasicSingle : ReduceKind::kBasicMultiple;
  op.aggrs = std::move(aggrs);
  return op;
}

Multiset Vals(std::vector<RowDiff> updates) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(updates));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Multiset{};
}

std::optional<DataRow> Group(const ReduceOp& op, const DataRow& key,
                             const Multiset& vals) {
  absl::StatusOr<std::optional<DataRow>> out = ReduceGroup(op, key, vals);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::nullopt;
}

TEST(Reduce, CountSumMinMaxWithNullsAndMultiplicities) {
  ReduceOp op = Basic({Agg("count"), Agg("sum"), Agg("min"), Agg("max")});
  // Column p feeds aggregate p.
  Multiset vals = Vals({{{I(3), I(3), I(3), I(3)}, 2},
                        {{N, N, N, N}, 5},
                        {{I(-1), I(-1), I(-1), I(-1)}, 1}});
  EXPECT_EQ(Group(op, {S("k")}, vals), (DataRow{S("k"), I(3), I(5), I(-1), I(3)}));
  // Only NULLs: count 0, the others NULL; the group still exists.
  EXPECT_EQ(Group(op, {}, Vals({{{N, N, N, N}, 3}})), (DataRow{I(0), N, N, N}));
  // No rows: no group (global aggregates get their default row from the plan).
  EXPECT_EQ(Group(op, {}, {}), std::nullopt);
}

TEST(Reduce, CountStarReadsTrue) {
  ReduceOp op;
  op.kind = ReduceKind::kAccumulable;
  op.simple_aggrs = {{0, Agg("count")}};
  op.val_plan = Mfp({"true"}, {}, std::vector<int>{1});
  absl::StatusOr<std::optional<std::pair<DataRow, DataRow>>> kv =
      ReduceKeyVal(op, {I(9)});
  ASSERT_TRUE(kv.ok() && kv->has_value());
  EXPECT_EQ((*kv)->first, (DataRow{I(9)}));  // key_plan = id
  EXPECT_EQ((*kv)->second, (DataRow{B(true)}));
  EXPECT_EQ(Group(op, {I(9)}, Vals({{{B(true)}, 4}})), (DataRow{I(9), I(4)}));
}

TEST(Reduce, SumFloatsAndOverflow) {
  ReduceOp op = Basic({Agg("sum")});
  EXPECT_EQ(Group(op, {}, Vals({{{F(1.5)}, 2}, {{I(1)}, 1}})), (DataRow{F(4.0)}));
  absl::StatusOr<std::optional<DataRow>> out = ReduceGroup(
      op, {}, Vals({{{I(std::numeric_limits<int64_t>::max() / 2 + 1)}, 2}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange) << out.status();
  out = ReduceGroup(op, {}, Vals({{{I(std::numeric_limits<int64_t>::max())}, 1},
                                  {{I(1)}, 1}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(ReduceGroup(op, {}, Vals({{{S("x")}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Reduce, DistinctAggregates) {
  ReduceOp op;
  op.kind = ReduceKind::kAccumulable;
  // SELECT sum(b), count(DISTINCT b): distinct at position 1.
  op.simple_aggrs = {{0, Agg("sum")}};
  op.distinct_aggrs = {{1, Agg("count", true)}};
  Multiset vals = Vals({{{I(2), I(2)}, 3}, {{I(5), I(5)}, 1}, {{N, N}, 2}});
  EXPECT_EQ(Group(op, {}, vals), (DataRow{I(11), I(2)}));
  ReduceOp sums = Basic({Agg("sum", true), Agg("count", true), Agg("max", true)});
  // Distinct values may arrive in different val rows.
  Multiset spread = Vals({{{I(2), I(7), I(1)}, 3}, {{I(2), I(7), I(4)}, 1},
                          {{I(3), N, N}, 1}});
  EXPECT_EQ(Group(sums, {}, spread), (DataRow{I(5), I(1), I(4)}));
}

TEST(Reduce, AnyAll) {
  ReduceOp op = Basic({Agg("any"), Agg("all")});
  EXPECT_EQ(Group(op, {}, Vals({{{B(true), B(true)}, 1}, {{B(false), B(false)}, 1}})),
            (DataRow{B(true), B(false)}));
  EXPECT_EQ(Group(op, {}, Vals({{{B(false), B(true)}, 2}, {{N, N}, 1}})),
            (DataRow{B(false), B(true)}));
  EXPECT_EQ(Group(op, {}, Vals({{{N, N}, 1}})), (DataRow{N, N}));
  EXPECT_EQ(ReduceGroup(op, {}, Vals({{{I(1), I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Reduce, MinMaxOfStringsAndMixedNumbers) {
  ReduceOp op = Basic({Agg("min"), Agg("max")});
  EXPECT_EQ(Group(op, {}, Vals({{{S("b"), S("b")}, 1}, {{S("a"), S("a")}, 1},
                                {{S("c"), S("c")}, 1}})),
            (DataRow{S("a"), S("c")}));
  EXPECT_EQ(Group(op, {}, Vals({{{I(2), I(2)}, 1}, {{F(1.5), F(1.5)}, 1},
                                {{F(2.5), F(2.5)}, 1}})),
            (DataRow{F(1.5), F(2.5)}));
}

TEST(Reduce, HierarchicalReadsOneColumnPerFunction) {
  ReduceOp op;
  op.kind = ReduceKind::kHierarchicalMonotonic;
  op.aggr_funcs = {"min", "max"};
  op.key_plan = Mfp({}, {}, std::vector<int>{0});
  op.val_plan = Mfp({}, {}, std::vector<int>{1, 1});
  auto kv = ReduceKeyVal(op, {S("g"), I(4)});
  ASSERT_TRUE(kv.ok() && kv->has_value());
  EXPECT_EQ((*kv)->first, (DataRow{S("g")}));
  EXPECT_EQ((*kv)->second, (DataRow{I(4), I(4)}));
  EXPECT_EQ(Group(op, {S("g")}, Vals({{{I(4), I(4)}, 1}, {{I(9), I(9)}, 1}})),
            (DataRow{S("g"), I(4), I(9)}));
}

TEST(Reduce, DistinctKind) {
  ReduceOp op;
  op.kind = ReduceKind::kDistinct;
  op.val_plan = Mfp({}, {}, std::vector<int>{});
  EXPECT_EQ(Group(op, {I(1), I(2)}, Vals({{{}, 3}})), (DataRow{I(1), I(2)}));
  EXPECT_EQ(Group(op, {I(1)}, {}), std::nullopt);
  absl::StatusOr<std::optional<DataRow>> neg = ReduceGroup(op, {I(1)}, Vals({{{}, -1}}));
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(absl::StrContains(neg.status().message(), "negative multiplicity"));
}

TEST(Reduce, NegativeMultiplicityIsAnError) {
  ReduceOp op = Basic({Agg("count")});
  // Even when the group's total is positive.
  absl::StatusOr<std::optional<DataRow>> out =
      ReduceGroup(op, {}, Vals({{{I(1)}, 3}, {{I(2)}, -1}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(absl::StrContains(out.status().message(), "negative multiplicity"));
}

TEST(Reduce, FiltersOfPlansAndMfpAfter) {
  ReduceOp op = Basic({Agg("sum")});
  op.key_plan = Mfp({}, {"(#0 > 0)"}, std::vector<int>{0});
  op.val_plan = Mfp({}, {}, std::vector<int>{1});
  op.mfp_after = Mfp({}, {"(#1 > 10)"}, std::vector<int>{1});
  auto kv = ReduceKeyVal(op, {I(0), I(5)});
  ASSERT_TRUE(kv.ok());
  EXPECT_FALSE(kv->has_value());
  EXPECT_EQ(Group(op, {I(1)}, Vals({{{I(5)}, 3}})), (DataRow{I(15)}));
  EXPECT_EQ(Group(op, {I(1)}, Vals({{{I(5)}, 1}})), std::nullopt);
}

// ---- TopK ------------------------------------------------------------------

Multiset TopK(const TopKOp& op, std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> out = TopKGroup(op, Vals(std::move(rows)));
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : Multiset{};
}

TEST(TopK, OffsetLimitAndMultiplicities) {
  TopKOp op;
  op.order_by = {{0, false, true}};
  op.limit = E("3");
  op.offset = 1;
  // Sorted: 1 x2, 2 x1, 3 x3. Skip one 1, keep one 1, the 2 and one 3.
  Multiset out = TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}});
  EXPECT_EQ(out, (Multiset{{{I(1)}, 1}, {{I(2)}, 1}, {{I(3)}, 1}}));
  op.offset = 0;
  op.limit = E("4");
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}}),
            (Multiset{{{I(1)}, 2}, {{I(2)}, 1}, {{I(3)}, 1}}));
  op.limit = E("0");
  EXPECT_TRUE(TopK(op, {{{I(3)}, 3}}).empty());
  op.limit = E("null");  // unlimited
  op.offset = 4;
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}, {{I(2)}, 1}}),
            (Multiset{{{I(3)}, 2}}));
  op.limit.reset();
  op.offset = 0;
  EXPECT_EQ(TopK(op, {{{I(3)}, 3}, {{I(1)}, 2}}).size(), 2u);
}

TEST(TopK, OrderNullsAndDirection) {
  const std::vector<RowDiff> rows = {{{N, I(1)}, 1}, {{I(1), I(2)}, 1}, {{I(5), I(3)}, 1}};
  TopKOp op;
  op.limit = E("1");
  op.order_by = {{0, false, true}};  // asc nulls_last
  EXPECT_EQ(TopK(op, rows), (Multiset{{{I(1), I(2)}, 1}}));
  op.order_by = {{0, false, false}};  // asc nulls_first
  EXPECT_EQ(TopK(op, rows), (Multiset{{{N, I(1)}, 1}}));
  op.order_by = {{0, true, true}};  // desc nulls_last
  EXPECT_EQ(TopK(op, rows), (Multiset{{{I(5), I(3)}, 1}}));
  op.order_by = {{0, true, false}};  // desc nulls_first
  EXPECT_EQ(TopK(op, rows), (Multiset{{{N, I(1)}, 1}}));
  // Second key after a tie on the first.
  op.order_by = {{0, false, true}, {1, true, true}};
  EXPECT_EQ(TopK(op, {{{I(1), I(2)}, 1}, {{I(1), I(7)}, 1}}),
            (Multiset{{{I(1), I(7)}, 1}}));
  // Full ties broken by the whole row (ascending).
  op.order_by = {{0, false, true}};
  EXPECT_EQ(TopK(op, {{{I(1), S("b")}, 1}, {{I(1), S("a")}, 1}}),
            (Multiset{{{I(1), S("a")}, 1}}));
}

TEST(TopK, MonotonicTop1AndGroupKey) {
  TopKOp op;
  op.kind = TopKKind::kMonotonicTop1;
  op.group_by = {1};
  op.order_by = {{0, true, false}};
  EXPECT_EQ(TopKGroupKey(op, {I(3), S("g")}), (DataRow{S("g")}));
  EXPECT_EQ(TopK(op, {{{I(3), S("g")}, 2}, {{I(9), S("g")}, 4}}),
            (Multiset{{{I(9), S("g")}, 1}}));
}

TEST(TopK, Errors) {
  TopKOp op;
  op.order_by = {{0, false, true}};
  op.limit = E("-1");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  op.limit = E("1.5");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 1}})).status().code(),
            absl::StatusCode::kInvalidArgument);
  op.limit = E("2");
  EXPECT_EQ(TopKGroup(op, Vals({{{I(1)}, 2}, {{I(2)}, -1}})).status().code(),
            absl::StatusCode::kOutOfRange);
}

// ---- FlatMap -----------------------------------------------------------------

std::vector<DataRow> FlatMap(const FlatMapOp& op, const DataRow& row) {
  absl::StatusOr<std::vector<DataRow>> out = FlatMapRow(op, row);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<DataRow>{};
}

TEST(FlatMap, GenerateSeries) {
  FlatMapOp op;
  op.func = "generate_series";
  op.exprs = {E("#0"), E("#1")};
  EXPECT_EQ(FlatMap(op, {I(1), I(3)}),
            (std::vector<DataRow>{{I(1), I(3), I(1)}, {I(1), I(3), I(2)},
                                  {I(1), I(3), I(3)}}));
  EXPECT_TRUE(FlatMap(op, {I(3), I(1)}).empty());
  EXPECT_TRUE(FlatMap(op, {N, I(1)}).empty());
  op.exprs = {E("#0"), E("#1"), E("-2")};
  op.mfp_after = Mfp({}, {"(#2 != 3)"}, std::vector<int>{2});
  EXPECT_EQ(FlatMap(op, {I(5), I(0)}), (std::vector<DataRow>{{I(5)}, {I(1)}}));
  op.exprs = {E("#0"), E("#1"), E("0")};
  EXPECT_EQ(FlatMapRow(op, {I(1), I(2)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Stops at the end of the integer range instead of wrapping around.
  op.exprs = {E("#0"), E("#1"), E("2")};
  op.mfp_after = MapFilterProject{};
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(FlatMap(op, {I(max - 2), I(max)}).size(), 2u);
}

TEST(FlatMap, WrapAndUnsupported) {
  FlatMapOp op;
  op.func = "wrap2";
  op.exprs = {E("1"), E("#0"), E("3"), E("4")};
  EXPECT_EQ(FlatMap(op, {I(7)}),
            (std::vector<DataRow>{{I(7), I(1), I(7)}, {I(7), I(3), I(4)}}));
  op.func = "unnest_list";
  op.exprs = {E("#0")};
  Node node{op};
  EXPECT_EQ(CheckNode(node).code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(CheckNode(node).message(), "unsupported table function unnest_list");
  EXPECT_EQ(FlatMapRow(op, {I(1)}).status().code(), absl::StatusCode::kUnimplemented);
}

// ---- Joins -------------------------------------------------------------------

TEST(Join, JoinedRowLayout) {
  // Stream (a, b, c) keyed by #2, thinning (#0, #1); lookup (x, y, z) keyed
  // by [#1]: value columns x, z.
  DataRow joined = JoinedRow({I(30)}, {I(10), I(20), I(30)}, {0, 1},
                             {S("x"), I(30), S("z")}, {E("#1")});
  EXPECT_EQ(joined, (DataRow{I(30), I(10), I(20), S("x"), S("z")}));
  // An expression key removes no column from the lookup value.
  joined = JoinedRow({I(31)}, {I(1)}, {}, {I(30), I(1)}, {E("(#0 + #1)")});
  EXPECT_EQ(joined, (DataRow{I(31), I(30), I(1)}));
  // A two-column key.
  joined = JoinedRow({I(1), I(2)}, {I(1), I(2), I(3)}, {2},
                     {I(2), S("v"), I(1)}, {E("#2"), E("#0")});
  EXPECT_EQ(joined, (DataRow{I(1), I(2), I(3), S("v")}));
}

TEST(Join, ApplyClosureWithReadyEquivalences) {
  JoinClosure closure;
  closure.ready_equivalences = {{E("#0"), E("#1")}, {E("#2"), E("(#0 + 1)")}};
  closure.mfp = Mfp({"(#0 * 10)"}, {}, std::vector<int>{3});
  auto run = [&](DataRow row) {
    absl::StatusOr<std::optional<DataRow>> out = ApplyClosure(closure, std::move(row));
    EXPECT_TRUE(out.ok()) << out.status();
    return out.ok() ? *out : std::nullopt;
  };
  EXPECT_EQ(run({I(1), I(1), I(2)}), (DataRow{I(10)}));
  EXPECT_EQ(run({I(1), F(1.0), F(2.0)}), (DataRow{I(10)}));  // numeric equality
  EXPECT_EQ(run({I(1), I(2), I(2)}), std::nullopt);
  EXPECT_EQ(run({I(1), I(1), I(3)}), std::nullopt);
  EXPECT_EQ(run({N, N, I(2)}), std::nullopt);  // NULL = NULL is not true
  absl::StatusOr<std::optional<DataRow>> none = ApplyClosure(std::nullopt, {I(4)});
  ASSERT_TRUE(none.ok() && none->has_value());
  EXPECT_EQ(**none, (DataRow{I(4)}));
}

// ---- Constant, CheckNode -------------------------------------------------------

TEST(Constant, RowsAndErrors) {
  NodePtr root = Plan("  Constant\n    - ((1, \"a\") x 2)\n    - (1, \"a\")\n    - ((2, null) x -1)");
  ASSERT_NE(root, nullptr);
  ASSERT_TRUE(CheckNode(*root).ok()) << CheckNode(*root);
  absl::StatusOr<Multiset> rows = ConstantRows(root->As<ConstantOp>());
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(*rows, (Multiset{{{I(1), S("a")}, 3}, {{I(2), N}, -1}}));
  ConstantOp error;
  error.error = "division by zero";
  EXPECT_EQ(ConstantRows(error).status(), absl::InvalidArgumentError("division by zero"));
  ConstantOp elided;
  elided.rows = {{{Literal::Int(1)}, 1}};
  elided.elided_total_rows = 40;
  EXPECT_EQ(CheckNode(Node{elided}).code(), absl::StatusCode::kInvalidArgument);
  ConstantOp interval;
  Literal days;
  days.kind = LiteralKind::kInterval;
  days.text = "7 days";
  interval.rows = {{{days}, 1}};
  EXPECT_EQ(CheckNode(Node{interval}).code(), absl::StatusCode::kUnimplemented);
}

TEST(CheckNode, Payloads) {
  NodePtr reduce = Plan(
      "  Reduce::Basic\n"
      "    aggr=(array_agg[order_by=[]](row(array[#1{b}])))\n"
      "    key_plan\n      project=(#0)\n"
      "    val_plan\n      project=(#2)\n      map=(row(array[#1{b}]))\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(CheckNode(*reduce).message(), "unsupported aggregate array_agg");
  NodePtr accumulable = Plan(
      "  Reduce::Accumulable\n"
      "    simple_aggrs[0]=(1, sum(#1{b}))\n"
      "    distinct_aggrs[0]=(0, count(distinct #1{b}))\n"
      "    key_plan\n      project=(#0)\n"
      "    val_plan\n      project=(#1, #1)\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(accumulable, nullptr);
  EXPECT_TRUE(CheckNode(*accumulable).ok()) << CheckNode(*accumulable);
  // Output positions: count distinct first, then sum.
  EXPECT_EQ(Group(accumulable->As<ReduceOp>(), {I(1)},
                  Vals({{{I(4), I(4)}, 2}, {{I(5), I(5)}, 1}})),
            (DataRow{I(1), I(2), I(13)}));
  NodePtr mfp = Plan(
      "  Mfp\n    project=(#2)\n    map=(digest(#0, \"x\"))\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(mfp, nullptr);
  EXPECT_EQ(CheckNode(*mfp).message(), "unsupported function digest");
  NodePtr topk = Plan(
      "  TopK::Basic order_by=[#1 asc nulls_last] limit=5\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(topk, nullptr);
  EXPECT_TRUE(CheckNode(*topk).ok()) << CheckNode(*topk);
  NodePtr flat = Plan(
      "  FlatMap generate_series(#0{a}, #1{b}, 1)\n    mfp_after\n      project=(#2)\n"
      "    Get::PassArrangements materialize.public.t\n      raw=true");
  ASSERT_NE(flat, nullptr);
  EXPECT_TRUE(CheckNode(*flat).ok()) << CheckNode(*flat);
  ReduceOp hierarchical;
  hierarchical.kind = ReduceKind::kHierarchicalBucketed;
  hierarchical.aggr_funcs = {"min", "sum"};
  EXPECT_EQ(CheckNode(Node{hierarchical}).code(), absl::StatusCode::kUnimplemented);
  ReduceOp repeated;
  repeated.kind = ReduceKind::kAccumulable;
  repeated.simple_aggrs = {{0, Agg("sum")}, {0, Agg("count")}};
  EXPECT_EQ(CheckNode(Node{repeated}).code(), absl::StatusCode::kInvalidArgument);
  GetOp get;
  get.kind = GetKind::kCollection;
  get.mfp.temporal = TemporalFilter{{}, {E("#0")}};
  EXPECT_EQ(CheckNode(Node{get}).message(), "unsupported function mz_now");
  JoinOp join;
  join.paths.resize(1);
  join.paths[0].stages.resize(1);
  join.paths[0].stages[0].lookup_relation = 1;
  join.paths[0].stages[0].lookup_key = {E("#0")};
  join.paths[0].stages[0].stream_key = {E("#0")};
  join.paths[0].final_closure = JoinClosure{Mfp({"record_get[0](#0)"}, {}, std::nullopt), {}};
  NodePtr join_node = MakeNode(join);
  join_node->inputs.push_back(MakeNode(NegateOp{}));
  join_node->inputs.push_back(MakeNode(NegateOp{}));
  EXPECT_EQ(CheckNode(*join_node).code(), absl::StatusCode::kUnimplemented);
  join_node->As<JoinOp>().paths[0].final_closure.reset();
  EXPECT_TRUE(CheckNode(*join_node).ok()) << CheckNode(*join_node);
}

// ---- The corpus --------------------------------------------------------------

fs::path CorpusDir() { return fs::path(LIR_SHARED_DIR) / "corpus" / "materialize"; }

struct CorpusPlan {
  std::string name;
  Document doc;
};

const std::vector<CorpusPlan>& Corpus() {
  static const auto* corpus = [] {
    auto* plans = new std::vector<CorpusPlan>;
    std::error_code ec;
    if (!fs::is_directory(CorpusDir(), ec)) return plans;
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(CorpusDir())) {
      if (entry.path().extension() == ".plan") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    for (const fs::path& path : paths) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      absl::StatusOr<Document> doc = explain::ParseText(buffer.str());
      if (!doc.ok()) continue;  // text_test reports parse failures
      plans->push_back({path.filename().string(), std::move(*doc)});
    }
    return plans;
  }();
  return *corpus;
}

#define SKIP_WITHOUT_CORPUS()                                             \
  if (Corpus().empty()) {                                                 \
    GTEST_SKIP() << "corpus not found at " << CorpusDir()                 \
                 << " (set LIR_SHARED_DIR)";                              \
  }

TEST(EvalCorpus, CheckNodeSweep) {
  SKIP_WITHOUT_CORPUS();
  size_t supported = 0, nodes = 0;
  std::map<std::string, int> blockers;  // first failure per plan
  std::map<std::string, int> node_failures;
  std::map<std::string, bool> by_name;
  for (const CorpusPlan& plan : Corpus()) {
    std::optional<std::string> first;
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        ++nodes;
        absl::Status s = CheckNode(node);
        if (s.ok()) return;
        // Only gaps (Unimplemented) and unrunnable payloads (InvalidArgument).
        EXPECT_TRUE(s.code() == absl::StatusCode::kUnimplemented ||
                    s.code() == absl::StatusCode::kInvalidArgument)
            << plan.name << ": " << s;
        ++node_failures[std::string(s.message())];
        if (!first.has_value()) first = std::string(s.message());
      });
    }
    by_name[plan.name] = !first.has_value();
    if (first.has_value()) {
      ++blockers[*first];
    } else {
      ++supported;
    }
  }
  std::cout << "[ corpus ] " << supported << " of " << Corpus().size()
            << " plans fully supported (" << nodes << " nodes)\n";
  for (const auto& [why, count] : blockers) {
    std::cout << "[ blocks ] " << count << " plans: " << why << "\n";
  }
  for (const auto& [why, count] : node_failures) {
    std::cout << "[ nodes  ] " << count << " nodes: " << why << "\n";
  }
  EXPECT_GT(supported, Corpus().size() / 2);
  // Plans whose every construct is in the supported set.
  for (const char* name : {"physical_plan_as_text-L434.plan",   // sum, count distinct
                           "physical_plan_as_text-L391.plan",   // generate_series
                           "physical_plan_as_text-L247.plan",   // TopK
                           "physical_plan_as_text-L1253.plan",  // delta join
                           "physical_plan_as_text-L515.plan"}) {  // min/max
    EXPECT_TRUE(by_name[name]) << name;
  }
  EXPECT_FALSE(by_name["physical_plan_aggregates-L22.plan"]);  // array_agg
}

/// Every expression that CheckScalar accepts evaluates without
/// Unimplemented on arbitrary rows (data errors are fine).
TEST(EvalCorpus, CheckedExpressionsNeverHitUnimplemented) {
  SKIP_WITHOUT_CORPUS();
  std::vector<DataRow> rows;
  for (const Datum& d : {N, I(0), I(7), F(2.5), B(true), S("x")}) {
    rows.push_back(DataRow(64, d));
  }
  size_t checked = 0;
  auto visit = [&](const ScalarExpr& e) {
    if (!CheckScalar(e).ok()) return;
    ++checked;
    for (const DataRow& row : rows) {
      absl::Status s = EvalScalar(e, row).status();
      EXPECT_NE(s.code(), absl::StatusCode::kUnimplemented)
          << explain::PrintExpr(e) << ": " << s;
      EXPECT_NE(s.code(), absl::StatusCode::kInternal) << explain::PrintExpr(e);
    }
  };
  auto visit_mfp = [&](const MapFilterProject& mfp) {
    for (const ScalarExpr& e : mfp.map) visit(e);
    for (const ScalarExpr& e : mfp.filter) visit(e);
  };
  for (const CorpusPlan& plan : Corpus()) {
    for (const SourceBlock& source : plan.doc.sources) visit_mfp(source.mfp);
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        if (node.Is<MfpOp>()) visit_mfp(node.As<MfpOp>().mfp);
        if (node.Is<GetOp>()) visit_mfp(node.As<GetOp>().mfp);
        if (node.Is<ReduceOp>()) {
          visit_mfp(node.As<ReduceOp>().key_plan);
          visit_mfp(node.As<ReduceOp>().val_plan);
        }
        if (node.Is<JoinOp>()) {
          for (const JoinPath& path : node.As<JoinOp>().paths) {
            for (const JoinStage& stage : path.stages) {
              if (stage.closure.has_value()) visit_mfp(stage.closure->mfp);
            }
            if (path.final_closure.has_value()) visit_mfp(path.final_closure->mfp);
          }
        }
      });
    }
  }
  EXPECT_GT(checked, 50u);
}

}  // namespace
}  // namespace lir::eval
