// Values the evaluator computes with: SQL datums, rows, and consolidated
// multisets of rows (collections at one round, or the changes of a round).
#ifndef LIR_EVAL_DATUM_H_
#define LIR_EVAL_DATUM_H_

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "lir/eval/time_values.h"
#include "lir/scalar.h"

namespace lir::eval {

struct Nested;

/// A `bytea` value: a byte string. Its own type (not a std::string alone) so
/// that bytes and text stay different datums, as in Materialize, where
/// `'abc'::bytea` and `'abc'` are different values of different types.
struct Bytes {
  std::string data;
  friend std::strong_ordering operator<=>(const Bytes&, const Bytes&) = default;
  friend bool operator==(const Bytes&, const Bytes&) = default;
};

/// One SQL value: NULL, a boolean, a 64-bit integer, a floating-point number,
/// a string, a nested value (a list or an array of datums, see Nested), a
/// timestamp or an interval (time_values.h; what temporal filters compute
/// with), a bytea (Bytes) or a date. Plan literals of other kinds (times,
/// timestamps with time zone, ...) are rejected with an error. An
/// `mz_timestamp` is an integer (milliseconds).
///
/// Nested values are boxed behind a shared pointer to an immutable Nested, so
/// they cost the scalar kinds nothing (sizeof(Datum) is that of the string
/// alternative) and copying a record that is passed through is a reference
/// count increment.
struct Datum {
  std::variant<std::monostate, bool, int64_t, double, std::string,
               std::shared_ptr<const Nested>, Timestamp, Interval, Bytes, Date>
      value;

  static Datum Null() { return Datum{}; }
  static Datum Bool(bool b) { return Datum{b}; }
  static Datum Int(int64_t i) { return Datum{i}; }
  static Datum Float(double d) { return Datum{d}; }
  static Datum String(std::string s) { return Datum{std::move(s)}; }
  static Datum Time(Timestamp ts) { return Datum{ts}; }
  static Datum Span(Interval iv) { return Datum{iv}; }
  /// A bytea holding `bytes` (any bytes, not necessarily UTF-8).
  static Datum Bytea(std::string bytes) {
    return Datum{Bytes{std::move(bytes)}};
  }
  /// A date (time_values.h).
  static Datum Day(Date date) { return Datum{date}; }
  /// A list: what Materialize's `row(...)` (a record), `list[...]` and the
  /// list-valued aggregates build (Materialize stores records and lists
  /// alike, as `Datum::List`; only the SQL type tells them apart).
  static Datum List(std::vector<Datum> elements);
  /// An array (`array[...]`, `array_agg`), one-dimensional.
  static Datum Array(std::vector<Datum> elements);

  bool is_null() const { return value.index() == 0; }
  bool is_bool() const { return value.index() == 1; }
  bool is_int() const { return value.index() == 2; }
  bool is_float() const { return value.index() == 3; }
  bool is_string() const { return value.index() == 4; }
  bool is_nested() const { return value.index() == 5; }
  bool is_timestamp() const { return value.index() == 6; }
  bool is_interval() const { return value.index() == 7; }
  bool is_bytea() const { return value.index() == 8; }
  bool is_date() const { return value.index() == 9; }
  bool is_list() const;
  bool is_array() const;
  bool as_bool() const { return std::get<bool>(value); }
  int64_t as_int() const { return std::get<int64_t>(value); }
  double as_float() const { return std::get<double>(value); }
  const std::string& as_string() const { return std::get<std::string>(value); }
  Timestamp as_timestamp() const { return std::get<Timestamp>(value); }
  const Interval& as_interval() const { return std::get<Interval>(value); }
  /// The bytes of a bytea; only for is_bytea().
  const std::string& as_bytea() const { return std::get<Bytes>(value).data; }
  /// The date; only for is_date().
  Date as_date() const { return std::get<Date>(value); }
  /// The nested value; only for is_nested().
  const Nested& as_nested() const { return *std::get<5>(value); }
  /// The elements of a list or array; only for is_nested().
  const std::vector<Datum>& elements() const;

  /// A total order used for sorting and grouping (not SQL comparison):
  /// NULL < booleans < integers < floats < strings < nested values <
  /// timestamps < intervals < byteas < dates (intervals field-wise, byteas
  /// bytewise as unsigned bytes, as Materialize orders them); floats order NaN
  /// last and equal to itself, as PostgreSQL sorts them; nested values order
  /// lists before arrays, then element-wise lexicographically (a proper prefix
  /// first).
  friend std::strong_ordering operator<=>(const Datum& a, const Datum& b) {
    // Integers are the common case of keys: compare them inline.
    const int64_t* x = std::get_if<int64_t>(&a.value);
    const int64_t* y = std::get_if<int64_t>(&b.value);
    if (x != nullptr && y != nullptr) return *x <=> *y;
    return Compare(a, b);
  }
  friend bool operator==(const Datum& a, const Datum& b) {
    return (a <=> b) == 0;
  }

  template <typename H>
  friend H AbslHashValue(H h, const Datum& d) {
    h = H::combine(std::move(h), d.value.index());
    switch (d.value.index()) {
      case 1: return H::combine(std::move(h), d.as_bool());
      case 2: return H::combine(std::move(h), d.as_int());
      case 3: {
        double f = d.as_float();
        if (f != f) return H::combine(std::move(h), 0x7ff8);  // every NaN
        if (f == 0) f = 0;                                    // -0.0 == 0.0
        return H::combine(std::move(h), f);
      }
      case 4: return H::combine(std::move(h), d.as_string());
      // Out of line: Nested is incomplete here.
      case 5: return H::combine(std::move(h), NestedHash(d));
      case 6: return H::combine(std::move(h), d.as_timestamp().micros);
      case 7: {
        const Interval& iv = d.as_interval();
        return H::combine(std::move(h), iv.months, iv.days, iv.micros);
      }
      case 8: return H::combine(std::move(h), d.as_bytea());
      case 9: return H::combine(std::move(h), d.as_date().days);
      default: return h;
    }
  }

 private:
  // The order of operator<=> (out of line for the non-integer cases).
  static std::strong_ordering Compare(const Datum& a, const Datum& b);
  // A hash of a nested datum consistent with operator==.
  static size_t NestedHash(const Datum& d);
};

/// What a nested Datum points to: its kind and its elements. Immutable once
/// built (shared between copies of the Datum).
struct Nested {
  enum class Kind { kList, kArray };
  Kind kind = Kind::kList;
  std::vector<Datum> elements;
  /// DatumBytes of the elements, summed when built: copies of a nested value
  /// share it, so `row(x, x)` nested 40 times is 40 allocations whose
  /// printed size is 2^40 elements; this counts the latter without walking.
  uint64_t bytes = 0;
};

inline bool Datum::is_list() const {
  return is_nested() && as_nested().kind == Nested::Kind::kList;
}
inline bool Datum::is_array() const {
  return is_nested() && as_nested().kind == Nested::Kind::kArray;
}
inline const std::vector<Datum>& Datum::elements() const {
  return as_nested().elements;
}

/// Materialize's order of datums (its `Datum`'s `Ord`), which window
/// functions and ordered aggregates use for their order keys and to break
/// ties: as operator<=> except that NULL sorts after every other value, also
/// inside lists and arrays. Returns -1, 0 or 1.
int MzCompare(const Datum& a, const Datum& b);

/// A row of datums. A one-datum row (most keys) is stored inline: copying
/// or building it allocates nothing.
using DataRow = absl::InlinedVector<Datum, 1>;

/// Rows in lexicographic Datum order (a proper prefix first).
inline std::strong_ordering operator<=>(const DataRow& a, const DataRow& b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    if (const std::strong_ordering c = a[i] <=> b[i]; c != 0) return c;
  }
  return a.size() <=> b.size();
}

/// A row with its multiplicity (or multiplicity change).
using RowDiff = std::pair<DataRow, int64_t>;

/// The bytes `datum` stands for: its own size plus its string or bytea
/// bytes, or its elements' (nested values count every element as often as
/// it is printed, however its copies share memory). What the byte budgets
/// (budget.h) count.
uint64_t DatumBytes(const Datum& datum);

/// The bytes of a row with its multiplicity: DatumBytes of each datum plus
/// the row's own.
uint64_t RowBytes(const DataRow& row);

/// A consolidated multiset: rows in ascending order, each at most once,
/// none with diff 0.
using Multiset = std::vector<RowDiff>;

/// Sorts `updates` by row, sums the diffs of equal rows and drops zeros.
/// Fails (OutOfRange) when a sum overflows 64 bits.
absl::StatusOr<Multiset> Consolidate(std::vector<RowDiff> updates);

/// `a + b` as multisets (both consolidated), consolidated.
absl::StatusOr<Multiset> AddMultisets(const Multiset& a, const Multiset& b);

/// `into += changes` in place (both consolidated; `into` stays so). A few
/// changes to large contents move rows instead of copying them all, so a
/// round that changes little costs little. Fails (OutOfRange) when a sum
/// overflows 64 bits, leaving `into` partly updated.
absl::Status AddInto(Multiset& into, const Multiset& changes);

/// `after - before` (both consolidated): the changes that turn `before` into
/// `after`.
absl::StatusOr<Multiset> DiffMultisets(const Multiset& after,
                                       const Multiset& before);

/// The datum a plan literal denotes: null, true/false, integers (Int),
/// decimals and floats (Float, including NaN/inf), strings, lists `[1, "x"]`
/// and arrays `{1, 2}` of such literals, timestamps, intervals and dates
/// (`1997-07-06`). Other literal kinds are
/// Unimplemented `unsupported literal <text>`.
absl::StatusOr<Datum> FromLiteral(const Literal& literal);

/// The datum as EXPLAIN prints a literal: `null`, `true`, `42`, `1.5`,
/// `"text"` (quoted and escaped as in ../shared/reference/TEXT-FORMAT.md),
/// lists (and records)
/// `[1, "x"]`, arrays `{1, 2}` (../shared/reference/TEXT-FORMAT.md 5.5); a
/// bytea prints unquoted in PostgreSQL's hex form, `\x0a1b`, a date as
/// `1997-07-06`.
std::string FormatDatum(const Datum& datum);

/// `(1, "x", null)`.
std::string FormatRow(const DataRow& row);

}  // namespace lir::eval

#endif  // LIR_EVAL_DATUM_H_
