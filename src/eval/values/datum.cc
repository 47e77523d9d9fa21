// Datums, rows and multisets of the evaluator.
#include "lir/eval/datum.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"
#include "src/eval/values/bytea.h"
#include "src/explain/text_primitives.h"

namespace lir::eval {

namespace {

// Floats sort NaN last and NaN equal to NaN (PostgreSQL's order), -0 = 0.
std::strong_ordering CompareFloats(double a, double b) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan && b_nan) return std::strong_ordering::equal;
  if (a_nan) return std::strong_ordering::greater;
  if (b_nan) return std::strong_ordering::less;
  if (a < b) return std::strong_ordering::less;
  if (a > b) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

absl::Status DiffOverflow() {
  return absl::OutOfRangeError("multiplicity out of 64-bit range");
}

// Shortest text that reads back as the same double.
std::string FloatText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), d);
  return std::string(buffer, end);
}

Literal ToLiteral(const Datum& datum);

// `[a, b]` for lists (and records), `{a, b}` for arrays: how Materialize's
// EXPLAIN prints such datums (../shared/reference/TEXT-FORMAT.md 5.5).
std::string NestedText(const Datum& datum) {
  const bool is_array = datum.is_array();
  std::string out(1, is_array ? '{' : '[');
  bool first = true;
  for (const Datum& element : datum.elements()) {
    if (!first) out += ", ";
    first = false;
    explain::AppendLiteral(out, ToLiteral(element));
  }
  out += is_array ? '}' : ']';
  return out;
}

Literal ToLiteral(const Datum& datum) {
  switch (datum.value.index()) {
    case 5: {
      Literal literal;
      literal.kind = LiteralKind::kOther;
      literal.text = NestedText(datum);
      return literal;
    }
    case 1: return Literal::Bool(datum.as_bool());
    case 2: return Literal::Int(datum.as_int());
    case 3: {
      Literal literal;
      literal.kind = LiteralKind::kNumber;
      literal.text = FloatText(datum.as_float());
      return literal;
    }
    case 4: return Literal::String(datum.as_string());
    case 6: {
      Literal literal;
      literal.kind = LiteralKind::kTimestamp;
      literal.text = FormatTimestamp(datum.as_timestamp());
      return literal;
    }
    case 7: {
      Literal literal;
      literal.kind = LiteralKind::kInterval;
      literal.text = FormatInterval(datum.as_interval());
      return literal;
    }
    case 8: {
      // Unquoted `\x0a1b`: no other literal prints so, and the text is
      // PostgreSQL's and Materialize's own output for a bytea.
      Literal literal;
      literal.kind = LiteralKind::kOther;
      literal.text = FormatBytea(datum.as_bytea());
      return literal;
    }
    case 9: {
      Literal literal;
      literal.kind = LiteralKind::kDate;
      literal.text = FormatDate(datum.as_date());
      return literal;
    }
    default: return Literal::Null();
  }
}

// A decimal number as its sign, its significant digits (no leading or
// trailing zeros) and the power of ten of the first of them: equal for
// texts of equal value (`1.50` and `1.5e+00`).
struct DecimalDigits {
  bool negative = false;
  std::string digits;
  int64_t exponent = 0;
  friend bool operator==(const DecimalDigits&, const DecimalDigits&) = default;
};

// `text` is `[-]digits[.digits][e[+-]digits]` (a plan literal or to_chars'
// scientific form).
DecimalDigits ToDecimalDigits(std::string_view text) {
  DecimalDigits out;
  size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    out.negative = true;
    ++i;
  }
  int64_t point = -1;  // digits before the decimal point
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      point = static_cast<int64_t>(out.digits.size());
    } else {
      out.digits += text[i];
    }
  }
  if (point < 0) point = static_cast<int64_t>(out.digits.size());
  int64_t exponent = 0;
  if (i < text.size()) {
    const std::string_view e = text.substr(i + 1);
    std::from_chars(e.data() + (!e.empty() && e[0] == '+' ? 1 : 0),
                    e.data() + e.size(), exponent);
  }
  const size_t first = out.digits.find_first_not_of('0');
  if (first == std::string::npos) return DecimalDigits{};  // zero, any sign
  const size_t last = out.digits.find_last_not_of('0');
  out.digits = out.digits.substr(first, last - first + 1);
  out.exponent = point - static_cast<int64_t>(first) + exponent;
  return out;
}

// The double a number literal denotes when it holds the literal's value to
// the digit, as a double prints (its shortest form): `0.1`, `1.50`, and
// `100000000000000000000`, which is how Materialize prints the double 1e20.
// nullopt when rounding to a double would change the digits (a numeric of
// 17 or more significant digits) or the value is beyond a double's range.
std::optional<double> ExactDouble(const std::string& text) {
  double value = 0;
  // Out of range reads as an infinity or a zero, which the comparison of
  // digits below refuses.
  if (!absl::SimpleAtod(text, &value) || !std::isfinite(value)) {
    return std::nullopt;
  }
  char buffer[64];
  const auto printed = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                     std::chars_format::scientific);
  if (ToDecimalDigits(text) !=
      ToDecimalDigits(std::string_view(buffer, printed.ptr - buffer))) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::strong_ordering Datum::Compare(const Datum& a, const Datum& b) {
  if (a.value.index() != b.value.index()) {
    return a.value.index() <=> b.value.index();
  }
  switch (a.value.index()) {
    case 1: return a.as_bool() <=> b.as_bool();
    case 2: return a.as_int() <=> b.as_int();
    case 3: return CompareFloats(a.as_float(), b.as_float());
    case 4: return a.as_string().compare(b.as_string()) <=> 0;
    case 5: {
      const Nested& x = a.as_nested();
      const Nested& y = b.as_nested();
      if (x.kind != y.kind) return x.kind <=> y.kind;
      return std::lexicographical_compare_three_way(
          x.elements.begin(), x.elements.end(), y.elements.begin(),
          y.elements.end());
    }
    case 6: return a.as_timestamp() <=> b.as_timestamp();
    case 7: return a.as_interval() <=> b.as_interval();
    case 8: return std::get<Bytes>(a.value) <=> std::get<Bytes>(b.value);
    case 9: return a.as_date() <=> b.as_date();
    default: return std::strong_ordering::equal;
  }
}

size_t Datum::NestedHash(const Datum& d) {
  const Nested& nested = d.as_nested();
  return absl::HashOf(static_cast<int>(nested.kind), nested.elements);
}

namespace {

// a + b, or the largest count when that overflows (a value counted past
// 2^64 bytes is past any budget anyway).
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum;
  return __builtin_add_overflow(a, b, &sum)
             ? std::numeric_limits<uint64_t>::max()
             : sum;
}

Datum MakeNested(Nested::Kind kind, std::vector<Datum> elements) {
  uint64_t bytes = 0;
  for (const Datum& element : elements) {
    bytes = SaturatingAdd(bytes, DatumBytes(element));
  }
  return Datum{
      std::make_shared<const Nested>(Nested{kind, std::move(elements), bytes})};
}

}  // namespace

Datum Datum::List(std::vector<Datum> elements) {
  return MakeNested(Nested::Kind::kList, std::move(elements));
}

Datum Datum::Array(std::vector<Datum> elements) {
  return MakeNested(Nested::Kind::kArray, std::move(elements));
}

uint64_t DatumBytes(const Datum& datum) {
  uint64_t bytes = sizeof(Datum);
  if (datum.is_string()) bytes += datum.as_string().size();
  if (datum.is_bytea()) bytes += datum.as_bytea().size();
  if (datum.is_nested()) {
    bytes = SaturatingAdd(bytes + sizeof(Nested), datum.as_nested().bytes);
  }
  return bytes;
}

uint64_t RowBytes(const DataRow& row) {
  uint64_t bytes = sizeof(RowDiff);
  for (const Datum& datum : row)
    bytes = SaturatingAdd(bytes, DatumBytes(datum));
  return bytes;
}

int MzCompare(const Datum& a, const Datum& b) {
  if (a.is_null() || b.is_null()) {
    if (a.is_null() && b.is_null()) return 0;
    return a.is_null() ? 1 : -1;
  }
  if (a.is_nested() && b.is_nested() &&
      a.as_nested().kind == b.as_nested().kind) {
    const std::vector<Datum>& x = a.elements();
    const std::vector<Datum>& y = b.elements();
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (int c = MzCompare(x[i], y[i]); c != 0) return c;
    }
    return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
  }
  const std::strong_ordering c = a <=> b;
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

absl::StatusOr<Multiset> Consolidate(std::vector<RowDiff> updates) {
  auto less = [](const RowDiff& a, const RowDiff& b) {
    return a.first < b.first;
  };
  // Changes usually arrive consolidated already (each row once, in order,
  // none zero): one comparison per row checks it.
  bool consolidated = true;
  for (size_t i = 0; i < updates.size() && consolidated; ++i) {
    consolidated = updates[i].second != 0 &&
                   (i == 0 || updates[i - 1].first < updates[i].first);
  }
  if (consolidated) return updates;
  // Or in row order: sorting is then only a check.
  if (!std::is_sorted(updates.begin(), updates.end(), less)) {
    std::sort(updates.begin(), updates.end(), less);
  }
  // Merge each run of equal rows in place (its first keeps the row). The
  // run is summed in 128 bits, so only a total out of the 64-bit range is
  // an overflow, whatever order the sort left the diffs in.
  size_t n = 0;
  for (size_t i = 0; i < updates.size();) {
    __int128 sum = updates[i].second;
    size_t j = i + 1;
    for (; j < updates.size() && updates[j].first == updates[i].first; ++j) {
      sum += updates[j].second;
    }
    if (sum < std::numeric_limits<int64_t>::min() ||
        sum > std::numeric_limits<int64_t>::max()) {
      return DiffOverflow();
    }
    if (sum != 0) {
      if (n != i) updates[n] = std::move(updates[i]);
      updates[n].second = static_cast<int64_t>(sum);
      ++n;
    }
    i = j;
  }
  updates.erase(updates.begin() + static_cast<ptrdiff_t>(n), updates.end());
  return updates;
}

absl::StatusOr<Multiset> AddMultisets(const Multiset& a, const Multiset& b) {
  Multiset out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      out.push_back(b[j++]);
    } else {
      int64_t sum;
      if (__builtin_add_overflow(a[i].second, b[j].second, &sum)) {
        return DiffOverflow();
      }
      if (sum != 0) out.emplace_back(a[i].first, sum);
      ++i;
      ++j;
    }
  }
  return out;
}

absl::Status AddInto(Multiset& into, const Multiset& changes) {
  // Merging copies every row; inserting shifts (moves) the rows after each
  // change. Shifting wins while the changes are few.
  if (changes.size() * 16 > into.size()) {
    LIR_ASSIGN_OR_RETURN(Multiset sum, AddMultisets(into, changes));
    into = std::move(sum);
    return absl::OkStatus();
  }
  auto from = into.begin();
  for (const auto& [row, diff] : changes) {
    from = std::lower_bound(
        from, into.end(), row,
        [](const RowDiff& entry, const DataRow& r) { return entry.first < r; });
    if (from != into.end() && from->first == row) {
      int64_t sum;
      if (__builtin_add_overflow(from->second, diff, &sum)) {
        return DiffOverflow();
      }
      if (sum == 0) {
        from = into.erase(from);
      } else {
        from->second = sum;
        ++from;
      }
    } else {
      from = into.insert(from, RowDiff(row, diff)) + 1;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Multiset> DiffMultisets(const Multiset& after,
                                       const Multiset& before) {
  Multiset negated;
  negated.reserve(before.size());
  for (const RowDiff& entry : before) {
    if (entry.second == std::numeric_limits<int64_t>::min()) {
      return DiffOverflow();
    }
    negated.emplace_back(entry.first, -entry.second);
  }
  return AddMultisets(after, negated);
}

namespace {

/// Reads the nested literal (`[...]` or `{...}`) starting at `pos` of
/// `text`, leaving `pos` after it. Elements are literals as EXPLAIN prints
/// them, separated by `, `.
absl::StatusOr<Datum> ParseNested(std::string_view text, size_t& pos,
                                  int depth) {
  auto bad = [&]() {
    return absl::UnimplementedError(
        absl::StrCat("unsupported literal ", std::string(text)));
  };
  if (depth > explain::kMaxExprDepth) return bad();
  const char open = text[pos];
  const char close = open == '[' ? ']' : '}';
  ++pos;
  std::vector<Datum> elements;
  if (pos < text.size() && text[pos] == close) {
    ++pos;
  } else {
    while (true) {
      if (pos >= text.size()) return bad();
      if (text[pos] == '[' || text[pos] == '{') {
        LIR_ASSIGN_OR_RETURN(Datum element, ParseNested(text, pos, depth + 1));
        elements.push_back(std::move(element));
      } else {
        // A scalar literal ends at the first `,` or closing bracket outside
        // a string.
        size_t end = pos;
        bool in_string = false;
        for (; end < text.size(); ++end) {
          const char c = text[end];
          if (in_string) {
            if (c == '\\') {
              ++end;
            } else if (c == '"') {
              in_string = false;
            }
          } else if (c == '"') {
            in_string = true;
          } else if (c == ',' || c == ']' || c == '}') {
            break;
          }
        }
        size_t error_pos = 0;
        absl::StatusOr<Literal> literal =
            explain::ParseLiteral(text.substr(pos, end - pos), &error_pos);
        if (!literal.ok()) return bad();
        LIR_ASSIGN_OR_RETURN(Datum element, FromLiteral(*literal));
        elements.push_back(std::move(element));
        pos = end;
      }
      if (pos < text.size() && text[pos] == close) {
        ++pos;
        break;
      }
      if (text.substr(pos, 2) != ", ") return bad();
      pos += 2;
    }
  }
  return open == '[' ? Datum::List(std::move(elements))
                     : Datum::Array(std::move(elements));
}

}  // namespace

absl::StatusOr<Datum> FromLiteral(const Literal& literal) {
  switch (literal.kind) {
    case LiteralKind::kOther:
      if (!literal.text.empty() &&
          (literal.text[0] == '[' || literal.text[0] == '{')) {
        size_t pos = 0;
        LIR_ASSIGN_OR_RETURN(Datum nested, ParseNested(literal.text, pos, 0));
        if (pos == literal.text.size()) return nested;
      }
      break;
    case LiteralKind::kNull: return Datum::Null();
    case LiteralKind::kBool: return Datum::Bool(literal.text == "true");
    case LiteralKind::kString: return Datum::String(literal.text);
    case LiteralKind::kTimestamp: {
      absl::StatusOr<Timestamp> ts = ParseTimestamp(literal.text);
      if (ts.ok()) return Datum::Time(*ts);
      break;
    }
    case LiteralKind::kDate: {
      absl::StatusOr<Date> date = ParseDate(literal.text);
      if (date.ok()) return Datum::Day(*date);
      break;
    }
    case LiteralKind::kInterval: {
      absl::StatusOr<Interval> iv = ParseInterval(literal.text);
      if (iv.ok()) return Datum::Span(*iv);
      break;
    }
    case LiteralKind::kNumber: {
      if (literal.IsInteger()) return Datum::Int(literal.AsInteger());
      if (literal.text == "NaN") {
        return Datum::Float(std::numeric_limits<double>::quiet_NaN());
      }
      if (literal.text == "inf") {
        return Datum::Float(std::numeric_limits<double>::infinity());
      }
      if (literal.text == "-inf") {
        return Datum::Float(-std::numeric_limits<double>::infinity());
      }
      if (std::optional<double> exact = ExactDouble(literal.text)) {
        return Datum::Float(*exact);
      }
      // An integer past 64 bits or a decimal with more digits than a double
      // holds (a numeric or uint8 in Materialize): the evaluator has no
      // exact numeric, and rounding would change the value silently.
      return absl::UnimplementedError(
          absl::StrCat("unsupported literal ", literal.text,
                       ": the evaluator holds numbers as 64-bit integers (",
                       std::numeric_limits<int64_t>::min(), " to ",
                       std::numeric_limits<int64_t>::max(),
                       ") or doubles, and a double would not keep its digits"));
    }
    default: break;
  }
  return absl::UnimplementedError(
      absl::StrCat("unsupported literal ", literal.text));
}

std::string FormatDatum(const Datum& datum) {
  return explain::PrintExpr(ScalarExpr::Lit(ToLiteral(datum)));
}

std::string FormatRow(const DataRow& row) {
  Row literals;
  literals.reserve(row.size());
  for (const Datum& datum : row) literals.push_back(ToLiteral(datum));
  return explain::PrintRow(literals);
}

}  // namespace lir::eval
