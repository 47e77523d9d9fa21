// The operations of scalar expressions (scalar_ops.h): the classifier of
// calls and what each strict operation computes.
#include "src/eval/values/scalar_ops.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/eval/budget.h"
#include "lir/status_macros.h"
#include "src/eval/values/bytea.h"
#include "src/eval/values/float_ops.h"
#include "src/eval/values/time_ops.h"

namespace lir::eval::scalar_ops {
namespace {

struct FunctionEntry {
  const char* name;
  Op op;
  int arity;  ///< -1: any number >= 1
};

// Named functions (CallStyle::kFunction) whose meaning fits the datum
// kinds. Casts whose input and output both map to int64 are identities.
constexpr FunctionEntry kFunctions[] = {
    {"-", Op::kNeg, 1},
    {"abs", Op::kAbs, 1},
    {"coalesce", Op::kCoalesce, -1},
    {"greatest", Op::kGreatest, -1},
    {"least", Op::kLeast, -1},
    {"smallint_to_integer", Op::kIdentityInt, 1},
    {"smallint_to_bigint", Op::kIdentityInt, 1},
    {"integer_to_bigint", Op::kIdentityInt, 1},
    {"smallint_to_numeric", Op::kIdentityInt, 1},
    {"integer_to_numeric", Op::kIdentityInt, 1},
    {"bigint_to_numeric", Op::kIdentityInt, 1},
    {"integer_to_smallint", Op::kToInt16, 1},
    {"bigint_to_smallint", Op::kToInt16, 1},
    {"bigint_to_integer", Op::kToInt32, 1},
    {"smallint_to_double", Op::kIntToFloat, 1},
    {"integer_to_double", Op::kIntToFloat, 1},
    {"bigint_to_double", Op::kIntToFloat, 1},
    {"numeric_to_double", Op::kIntToFloat, 1},
    {"smallint_to_real", Op::kIntToReal, 1},
    {"integer_to_real", Op::kIntToReal, 1},
    {"bigint_to_real", Op::kIntToReal, 1},
    {"real_to_double", Op::kIntToFloat, 1},
    {"double_to_real", Op::kFloatToReal, 1},
    {"smallint_to_text", Op::kIntToText, 1},
    {"integer_to_text", Op::kIntToText, 1},
    {"bigint_to_text", Op::kIntToText, 1},
    {"jsonbable_to_jsonb", Op::kJsonbable, 1},
    {"timestamp_to_mz_timestamp", Op::kTsToMz, 1},
    {"step_mz_timestamp", Op::kStepMz, 1},
    {"date_to_timestamp", Op::kDateToTs, 1},
    {"text_to_bytea", Op::kTextToBytea, 1},
    {"bytea_to_text", Op::kByteaToText, 1},
    {"digest", Op::kDigest, 2},
};

struct InfixEntry {
  const char* name;
  Op op;
};

constexpr InfixEntry kInfix[] = {
    {"+", Op::kAdd},     {"-", Op::kSub},    {"*", Op::kMul},
    {"/", Op::kDiv},     {"%", Op::kMod},    {"=", Op::kEq},
    {"!=", Op::kNotEq},  {"<>", Op::kNotEq}, {"<", Op::kLt},
    {"<=", Op::kLte},    {">", Op::kGt},     {">=", Op::kGte},
    {"||", Op::kConcat},
};

}  // namespace

/// The field index of `record_get[i]`, or nullopt when the parameter is not
/// a non-negative integer.
std::optional<size_t> RecordGetField(const ScalarExpr& e) {
  if (!e.params.has_value() || e.params->empty() || e.params->size() > 9) {
    return std::nullopt;
  }
  size_t field = 0;
  for (char c : *e.params) {
    if (c < '0' || c > '9') return std::nullopt;
    field = field * 10 + static_cast<size_t>(c - '0');
  }
  return field;
}

/// The operation a kCall denotes, or nullopt when unsupported.
std::optional<Op> Classify(const ScalarExpr& e) {
  const size_t n = e.args.size();
  switch (e.style) {
    case CallStyle::kInfix:
      if (e.func == "AND") return Op::kAnd;
      if (e.func == "OR") return Op::kOr;
      if (n != 2) return std::nullopt;
      for (const InfixEntry& entry : kInfix) {
        if (e.func == entry.name) return entry.op;
      }
      return std::nullopt;
    case CallStyle::kPostfixIs:
      if (n != 1) return std::nullopt;
      if (e.func == "IS NULL") return Op::kIsNull;
      if (e.func == "IS TRUE") return Op::kIsTrue;
      if (e.func == "IS FALSE") return Op::kIsFalse;
      return std::nullopt;
    case CallStyle::kNot:
      if (n != 1) return std::nullopt;
      return Op::kNot;
    case CallStyle::kFunction:
      if (e.func == "row" && !e.params.has_value()) return Op::kRow;
      if (e.func == "record_get") {
        if (n != 1 || !RecordGetField(e).has_value()) return std::nullopt;
        return Op::kRecordGet;
      }
      if (e.params.has_value()) return std::nullopt;
      for (const FunctionEntry& entry : kFunctions) {
        if (e.func != entry.name) continue;
        if (entry.arity < 0 ? n >= 1 : static_cast<int>(n) == entry.arity) {
          return entry.op;
        }
        return std::nullopt;
      }
      return std::nullopt;
    case CallStyle::kBracketList:
      if (e.func == "list") return Op::kListBuild;
      if (e.func == "array") return Op::kArrayBuild;
      return std::nullopt;
  }
  return std::nullopt;
}

absl::Status Unsupported(const std::string& what) {
  return absl::UnimplementedError(absl::StrCat("unsupported function ", what));
}

absl::Status UnsupportedCall(const ScalarExpr& e) {
  if (e.style == CallStyle::kFunction && e.params.has_value()) {
    return Unsupported(absl::StrCat(e.func, "[", *e.params, "]"));
  }
  return Unsupported(e.func);
}

namespace {

absl::Status Overflow() {
  return absl::OutOfRangeError("integer out of range");
}

absl::Status DivisionByZero() {
  return absl::OutOfRangeError("division by zero");
}

const char* KindName(const Datum& d) {
  switch (d.value.index()) {
    case 0: return "null";
    case 1: return "boolean";
    case 2: return "integer";
    case 3: return "float";
    case 4: return "string";
    case 6: return "timestamp";
    case 7: return "interval";
    case 8: return "bytea";
    case 9: return "date";
    default: return d.is_array() ? "array" : "record or list";
  }
}

}  // namespace

absl::Status TypeError(const char* op, const Datum& a) {
  return absl::InvalidArgumentError(
      absl::StrCat("operator ", op, " does not apply to a ", KindName(a)));
}

absl::Status TypeError(const char* op, const Datum& a, const Datum& b) {
  return absl::InvalidArgumentError(
      absl::StrCat("operator ", op, " does not apply to a ", KindName(a),
                   " and a ", KindName(b)));
}

namespace {

bool IsNumber(const Datum& d) { return d.is_int() || d.is_float(); }

double AsDouble(const Datum& d) {
  return d.is_int() ? static_cast<double>(d.as_int()) : d.as_float();
}

/// Orders doubles as SQL does: NaN equal to itself and above everything,
/// -0 equal to 0.
int CompareDoubles(double a, double b) {
  bool a_nan = std::isnan(a);
  bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

/// Exact comparison of an integer with a double (no rounding of large
/// integers).
int CompareIntDouble(int64_t i, double d) {
  if (std::isnan(d)) return -1;
  constexpr double kTwo63 = 9223372036854775808.0;
  if (d >= kTwo63) return -1;
  if (d < -kTwo63) return 1;
  double truncated = std::trunc(d);
  int64_t t = static_cast<int64_t>(truncated);
  if (i != t) return i < t ? -1 : 1;
  double frac = d - truncated;
  return frac > 0 ? -1 : (frac < 0 ? 1 : 0);
}

}  // namespace

/// SQL comparison of two non-NULL datums: numbers numerically, strings
/// bytewise, booleans false < true, times (time_ops.h), byteas bytewise,
/// lists and arrays element-wise. Other pairs are type errors.
absl::StatusOr<int> CompareValues(const char* op, const Datum& a,
                                  const Datum& b) {
  if (a.is_int() && b.is_int()) {
    return a.as_int() < b.as_int() ? -1 : (a.as_int() > b.as_int() ? 1 : 0);
  }
  if (a.is_int() && b.is_float())
    return CompareIntDouble(a.as_int(), b.as_float());
  if (a.is_float() && b.is_int())
    return -CompareIntDouble(b.as_int(), a.as_float());
  if (a.is_float() && b.is_float())
    return CompareDoubles(a.as_float(), b.as_float());
  if (a.is_string() && b.is_string()) {
    int c = a.as_string().compare(b.as_string());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if (a.is_bool() && b.is_bool()) {
    return static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool());
  }
  if (std::optional<int> c = CompareTimes(a, b)) return *c;
  // Records, lists and arrays: Materialize's comparison operators order
  // them as its datums order (element-wise, NULL elements last and equal
  // to each other), not with SQL's NULL logic inside.
  if ((a.is_list() && b.is_list()) || (a.is_array() && b.is_array())) {
    return MzCompare(a, b);
  }
  if (a.is_bytea() && b.is_bytea()) {
    // Unsigned bytes, as memcmp (and Materialize's &[u8] order) compare.
    int c = a.as_bytea().compare(b.as_bytea());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return TypeError(op, a, b);
}

namespace {

absl::StatusOr<Datum> Arithmetic(Op op, const char* name, const Datum& a,
                                 const Datum& b) {
  if (a.is_null() || b.is_null()) return Datum::Null();
  // Timestamps, dates and intervals with intervals (time_ops.h).
  const int sign = op == Op::kAdd ? 1 : (op == Op::kSub ? -1 : 0);
  if (std::optional<absl::StatusOr<Datum>> t = TimeArithmetic(sign, a, b)) {
    return *std::move(t);
  }
  if (!IsNumber(a) || !IsNumber(b)) return TypeError(name, a, b);
  if (a.is_int() && b.is_int()) {
    int64_t x = a.as_int();
    int64_t y = b.as_int();
    int64_t r = 0;
    switch (op) {
      case Op::kAdd:
        if (__builtin_add_overflow(x, y, &r)) return Overflow();
        return Datum::Int(r);
      case Op::kSub:
        if (__builtin_sub_overflow(x, y, &r)) return Overflow();
        return Datum::Int(r);
      case Op::kMul:
        if (__builtin_mul_overflow(x, y, &r)) return Overflow();
        return Datum::Int(r);
      case Op::kDiv:
        if (y == 0) return DivisionByZero();
        if (x == std::numeric_limits<int64_t>::min() && y == -1) {
          return Overflow();
        }
        return Datum::Int(x / y);
      case Op::kMod:
        if (y == 0) return DivisionByZero();
        if (y == -1) return Datum::Int(0);  // avoids INT64_MIN % -1 trapping
        return Datum::Int(x % y);
      default: break;
    }
    return absl::InternalError("not an arithmetic operator");
  }
  const char symbol = op == Op::kAdd   ? '+'
                      : op == Op::kSub ? '-'
                      : op == Op::kMul ? '*'
                      : op == Op::kDiv ? '/'
                                       : '%';
  return FloatArithmetic(symbol, AsDouble(a), AsDouble(b));
}

absl::StatusOr<Datum> Compare(Op op, const char* name, const Datum& a,
                              const Datum& b) {
  if (a.is_null() || b.is_null()) return Datum::Null();
  LIR_ASSIGN_OR_RETURN(int c, CompareValues(name, a, b));
  switch (op) {
    case Op::kEq: return Datum::Bool(c == 0);
    case Op::kNotEq: return Datum::Bool(c != 0);
    case Op::kLt: return Datum::Bool(c < 0);
    case Op::kLte: return Datum::Bool(c <= 0);
    case Op::kGt: return Datum::Bool(c > 0);
    case Op::kGte: return Datum::Bool(c >= 0);
    default: break;
  }
  return absl::InternalError("not a comparison");
}

absl::StatusOr<Datum> CastInt(Op op, const char* name, const Datum& a) {
  if (a.is_null()) return Datum::Null();
  switch (op) {
    case Op::kIdentityInt:
      if (!a.is_int()) return TypeError(name, a);
      return a;
    case Op::kToInt32:
    case Op::kToInt16: {
      if (!a.is_int()) return TypeError(name, a);
      int64_t bound = op == Op::kToInt32 ? std::numeric_limits<int32_t>::max()
                                         : std::numeric_limits<int16_t>::max();
      if (a.as_int() > bound || a.as_int() < -bound - 1) {
        return absl::OutOfRangeError(op == Op::kToInt32
                                         ? "integer out of range"
                                         : "smallint out of range");
      }
      return a;
    }
    case Op::kIntToFloat:
      if (!IsNumber(a)) return TypeError(name, a);
      return Datum::Float(AsDouble(a));
    case Op::kIntToReal:
    case Op::kFloatToReal:
      if (!IsNumber(a)) return TypeError(name, a);
      return ToReal(AsDouble(a));
    case Op::kIntToText:
      if (!a.is_int()) return TypeError(name, a);
      return Datum::String(absl::StrCat(a.as_int()));
    default: break;
  }
  return absl::InternalError("not a cast");
}

/// The bytea functions: NULL in, NULL out (Materialize's propagates_nulls).
/// `digest` hashes a bytea or a text (its UTF-8 bytes), as Materialize's
/// digest_bytes and digest_string do.
absl::StatusOr<Datum> ByteaFunction(Op op, const char* name,
                                    std::span<Datum> args) {
  for (const Datum& arg : args) {
    if (arg.is_null()) return Datum::Null();
  }
  const Datum& a = args[0];
  switch (op) {
    case Op::kTextToBytea: {
      if (!a.is_string()) return TypeError(name, a);
      LIR_ASSIGN_OR_RETURN(std::string bytes, ParseBytea(a.as_string()));
      return Datum::Bytea(std::move(bytes));
    }
    case Op::kByteaToText:
      if (!a.is_bytea()) return TypeError(name, a);
      return Datum::String(FormatBytea(a.as_bytea()));
    case Op::kDigest: {
      if (!(a.is_bytea() || a.is_string()) || !args[1].is_string()) {
        return TypeError(name, a, args[1]);
      }
      LIR_ASSIGN_OR_RETURN(std::string hash,
                           Digest(a.is_bytea() ? a.as_bytea() : a.as_string(),
                                  args[1].as_string()));
      return Datum::Bytea(std::move(hash));
    }
    default: break;
  }
  return absl::InternalError("not a bytea function");
}

}  // namespace

absl::StatusOr<Datum> ApplyStrict(Op op, const char* name, size_t record_field,
                                  std::span<Datum> args) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kMod: return Arithmetic(op, name, args[0], args[1]);
    case Op::kEq:
    case Op::kNotEq:
    case Op::kLt:
    case Op::kLte:
    case Op::kGt:
    case Op::kGte: return Compare(op, name, args[0], args[1]);
    case Op::kConcat:
      if (args[0].is_null() || args[1].is_null()) return Datum::Null();
      if (!args[0].is_string() || !args[1].is_string()) {
        return TypeError(name, args[0], args[1]);
      }
      // Checked before allocating: doubling a string stops at the limit.
      LIR_RETURN_IF_ERROR(CheckValueBytes(args[0].as_string().size() +
                                          args[1].as_string().size()));
      return Datum::String(
          absl::StrCat(args[0].as_string(), args[1].as_string()));
    case Op::kNeg: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (a.is_float()) return Datum::Float(-a.as_float());
      if (!a.is_int()) return TypeError(name, a);
      if (a.as_int() == std::numeric_limits<int64_t>::min()) return Overflow();
      return Datum::Int(-a.as_int());
    }
    case Op::kAbs: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (a.is_float()) return Datum::Float(std::fabs(a.as_float()));
      if (!a.is_int()) return TypeError(name, a);
      if (a.as_int() == std::numeric_limits<int64_t>::min()) return Overflow();
      return Datum::Int(a.as_int() < 0 ? -a.as_int() : a.as_int());
    }
    case Op::kNot: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (!a.is_bool()) return TypeError("NOT", a);
      return Datum::Bool(!a.as_bool());
    }
    case Op::kRow:
    case Op::kListBuild:
    case Op::kArrayBuild: {
      // Copies share nested values, so memory stays small while the value
      // (and its printed form) doubles: count what it stands for.
      std::vector<Datum> elements(std::make_move_iterator(args.begin()),
                                  std::make_move_iterator(args.end()));
      Datum built = op == Op::kArrayBuild ? Datum::Array(std::move(elements))
                                          : Datum::List(std::move(elements));
      LIR_RETURN_IF_ERROR(CheckValueBytes(built.as_nested().bytes));
      return built;
    }
    case Op::kRecordGet: {
      const Datum& r = args[0];
      if (r.is_null()) return Datum::Null();
      if (!r.is_list()) return TypeError("record_get", r);
      const size_t field = record_field;
      if (field >= r.elements().size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("record_get[", field, "] of a record with ",
                         r.elements().size(), " fields"));
      }
      return r.elements()[field];
    }
    case Op::kJsonbable: {
      // Materialize keeps jsonb values as ordinary datums (strings, numbers,
      // booleans, lists); only non-finite numbers become strings, as JSON
      // has no such numbers.
      const Datum& a = args[0];
      if (a.is_float() && !std::isfinite(a.as_float())) {
        if (std::isnan(a.as_float())) return Datum::String("NaN");
        return Datum::String(a.as_float() > 0 ? "Infinity" : "-Infinity");
      }
      return a;
    }
    case Op::kTsToMz: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (!a.is_timestamp()) return TypeError(name, a);
      LIR_ASSIGN_OR_RETURN(int64_t ms,
                           TimestampToMzTimestamp(a.as_timestamp()));
      return Datum::Int(ms);
    }
    case Op::kDateToTs: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (!a.is_date()) return TypeError(name, a);
      return Datum::Time(DateToTimestamp(a.as_date()));
    }
    case Op::kStepMz: {
      // mz_timestamps are integers here (milliseconds).
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Null();
      if (!a.is_int()) return TypeError(name, a);
      if (a.as_int() == std::numeric_limits<int64_t>::max()) {
        return absl::OutOfRangeError("step mz_timestamp overflow");
      }
      return Datum::Int(a.as_int() + 1);
    }
    case Op::kIsNull: return Datum::Bool(args[0].is_null());
    case Op::kIsTrue:
    case Op::kIsFalse: {
      const Datum& a = args[0];
      if (a.is_null()) return Datum::Bool(false);
      if (!a.is_bool()) return TypeError(name, a);
      return Datum::Bool(a.as_bool() == (op == Op::kIsTrue));
    }
    case Op::kIdentityInt:
    case Op::kToInt32:
    case Op::kToInt16:
    case Op::kIntToFloat:
    case Op::kIntToReal:
    case Op::kFloatToReal:
    case Op::kIntToText: return CastInt(op, name, args[0]);
    case Op::kTextToBytea:
    case Op::kByteaToText:
    case Op::kDigest: return ByteaFunction(op, name, args);
    case Op::kAnd:
    case Op::kOr:
    case Op::kCoalesce:
    case Op::kGreatest:
    case Op::kLeast: break;  // not strict: the evaluator walks their operands
  }
  return absl::InternalError(absl::StrCat("not a strict operation: ", name));
}

}  // namespace lir::eval::scalar_ops
