// Every SQL comparison operator on every kind of datum the evaluator has:
// equal, ordered (both ways) and NULL operands. A kind added to Datum
// without a row here fails ComparisonsCoverEveryDatumKind.
#include <cstddef>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "lir/eval/time_values.h"
#include "tests/support/eval_scalar_test_util.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

/// Two non-NULL values of one kind, `low` below `high` in SQL's order.
struct OrderedPair {
  const char* kind;
  Datum low;
  Datum high;
};

std::vector<OrderedPair> Pairs() {
  return {
      {"boolean", B(false), B(true)},
      {"integer", I(-5), I(3)},
      {"integer (64-bit bounds)", I(INT64_MIN), I(INT64_MAX)},
      {"float", F(-0.5), F(2.25)},
      {"float (NaN above infinity)", F(INFINITY), F(NAN)},
      {"integer and float", I(1), F(1.5)},
      {"float and integer", F(0.5), I(1)},
      {"string", S("ab"), S("abc")},
      {"string (unsigned bytes)", S("z"), S("\xC3\xA9")},
      {"list", Datum::List({I(1), S("b")}), Datum::List({I(1), S("c")})},
      {"list (prefix first)", Datum::List({I(1)}), Datum::List({I(1), I(0)})},
      {"array", Datum::Array({I(1), I(2)}), Datum::Array({I(2)})},
      {"timestamp", Datum::Time(*ParseTimestamp("2024-01-01 00:00:00")),
       Datum::Time(*ParseTimestamp("2024-01-01 00:00:01"))},
      {"interval", Datum::Span(*ParseInterval("1 day")),
       Datum::Span(*ParseInterval("1 mon"))},
      {"bytea", Datum::Bytea("\x7f"), Datum::Bytea("\x80")},
      {"date", Datum::Day(*ParseDate("1997-07-06")),
       Datum::Day(*ParseDate("2024-02-29"))},
  };
}

/// The evaluator's comparison operators (kInfix calls) and what each is on
/// the order of its operands (-1, 0, 1).
struct Operator {
  const char* name;
  bool (*holds)(int);
};

const Operator kOperators[] = {
    {"=", [](int c) { return c == 0; }},  {"<>", [](int c) { return c != 0; }},
    {"!=", [](int c) { return c != 0; }}, {"<", [](int c) { return c < 0; }},
    {"<=", [](int c) { return c <= 0; }}, {">", [](int c) { return c > 0; }},
    {">=", [](int c) { return c >= 0; }},
};

Datum Compare(const char* op, const Datum& a, const Datum& b) {
  const ScalarExpr e = ScalarExpr::Call(
      CallStyle::kInfix, op, {ScalarExpr::Column(0), ScalarExpr::Column(1)});
  absl::StatusOr<Datum> d = EvalScalar(e, {a, b});
  EXPECT_TRUE(d.ok()) << op << ": " << d.status();
  return d.ok() ? *d : Datum::String("<error>");
}

TEST(EvalCompare, EveryOperatorOnEveryDatumKind) {
  for (const OrderedPair& pair : Pairs()) {
    struct Operands {
      const char* what;
      Datum a, b;
      int order;
    };
    const Operands operands[] = {
        {"low, low", pair.low, pair.low, 0},
        {"high, high", pair.high, pair.high, 0},
        {"low, high", pair.low, pair.high, -1},
        {"high, low", pair.high, pair.low, 1},
    };
    for (const Operator& op : kOperators) {
      for (const Operands& o : operands) {
        EXPECT_EQ(Compare(op.name, o.a, o.b), B(op.holds(o.order)))
            << pair.kind << ": " << op.name << " on " << o.what << " ("
            << FormatDatum(o.a) << ", " << FormatDatum(o.b) << ")";
      }
      // NULL on either side (or both) is NULL, never false.
      EXPECT_EQ(Compare(op.name, pair.low, N), N) << pair.kind << op.name;
      EXPECT_EQ(Compare(op.name, N, pair.high), N) << pair.kind << op.name;
      EXPECT_EQ(Compare(op.name, N, N), N) << op.name;
    }
  }
}

TEST(EvalCompare, ComparisonsCoverEveryDatumKind) {
  // One alternative per datum kind; index 0 is NULL, tested with each pair.
  std::set<size_t> covered = {0};
  bool list = false;
  bool array = false;
  for (const OrderedPair& pair : Pairs()) {
    for (const Datum* d : {&pair.low, &pair.high}) {
      covered.insert(d->value.index());
      list = list || d->is_list();
      array = array || d->is_array();
    }
  }
  constexpr size_t kKinds = std::variant_size_v<decltype(Datum::value)>;
  for (size_t kind = 0; kind < kKinds; ++kind) {
    EXPECT_TRUE(covered.count(kind))
        << "no comparison row for datum alternative " << kind;
  }
  EXPECT_TRUE(list && array);
}

}  // namespace
}  // namespace lir::eval
