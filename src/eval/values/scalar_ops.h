// The operations of scalar expressions, apart from how an expression is
// walked: which operation a call denotes (Classify, used once per call when
// an expression is compiled) and what each operation computes from its
// operands. scalar_compile.cc lowers expressions onto these; nothing here
// looks at names per row. Not part of the evaluator's interface.
#ifndef LIR_EVAL_VALUES_SCALAR_OPS_H_
#define LIR_EVAL_VALUES_SCALAR_OPS_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/scalar.h"

namespace lir::eval::scalar_ops {

/// The operations a call can denote.
enum class Op {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kNeg,
  kAbs,
  kEq,
  kNotEq,
  kLt,
  kLte,
  kGt,
  kGte,
  kAnd,
  kOr,
  kNot,
  kIsNull,
  kIsTrue,
  kIsFalse,
  kCoalesce,
  kGreatest,
  kLeast,
  kConcat,
  kIdentityInt,  ///< widening integer casts (every integer is 64-bit here)
  kToInt32,      ///< narrowing casts with a range check
  kToInt16,
  kIntToFloat,   ///< integer or numeric to double
  kIntToReal,    ///< integer to real (float32 rounding)
  kFloatToReal,  ///< double to real (float32 rounding)
  kIntToText,
  kRow,          ///< `row(a, b)`: a record (a list datum)
  kListBuild,    ///< `list[a, b]`
  kArrayBuild,   ///< `array[a, b]`
  kRecordGet,    ///< `record_get[i](r)`: field i of a record
  kJsonbable,    ///< `jsonbable_to_jsonb`: jsonb values are plain datums
  kTsToMz,       ///< `timestamp_to_mz_timestamp`: milliseconds since the epoch
  kStepMz,       ///< `step_mz_timestamp`: the next mz_timestamp (+1)
  kDateToTs,     ///< `date_to_timestamp`: the date's midnight
  kTextToBytea,  ///< `text_to_bytea`: bytea input syntax (bytea.h)
  kByteaToText,  ///< `bytea_to_text`: the hex form `\x0a1b`
  kDigest,       ///< `digest(data, algorithm)`: a hash, as a bytea
};

/// The operation the kCall `e` denotes, or nullopt when unsupported (an
/// unknown name, a wrong number of operands, a parameter it does not take).
std::optional<Op> Classify(const ScalarExpr& e);

/// The field index of `record_get[i]`, or nullopt when the parameter is not
/// a non-negative integer.
std::optional<size_t> RecordGetField(const ScalarExpr& e);

/// Unimplemented `unsupported function NAME` for the call `e` (with its
/// parameters, `record_get[x]`, when it has some).
absl::Status UnsupportedCall(const ScalarExpr& e);

/// Unimplemented `unsupported function WHAT`.
absl::Status Unsupported(const std::string& what);

/// InvalidArgument: operator `op` does not apply to a value of `a`'s kind.
absl::Status TypeError(const char* op, const Datum& a);

/// InvalidArgument: operator `op` does not apply to `a`'s and `b`'s kinds.
absl::Status TypeError(const char* op, const Datum& a, const Datum& b);

/// SQL comparison of two non-NULL datums (-1, 0, 1); a type error naming
/// `op` for kinds SQL cannot compare.
absl::StatusOr<int> CompareValues(const char* op, const Datum& a,
                                  const Datum& b);

/// The value of a strict operation (every operand evaluated first, `args`
/// in order; AND, OR, coalesce, greatest and least are not strict and are
/// Internal here). `name` is the call's printed name, for messages;
/// `record_field` the parsed `record_get` field. May move from `args`.
absl::StatusOr<Datum> ApplyStrict(Op op, const char* name, size_t record_field,
                                  std::span<Datum> args);

}  // namespace lir::eval::scalar_ops

#endif  // LIR_EVAL_VALUES_SCALAR_OPS_H_
