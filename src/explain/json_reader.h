// Building blocks of the strict JSON reader (internal): located errors,
// field bookkeeping and readers for the pieces shared by many node kinds.
//
// Every reader has the shape `absl::Status Read(const json& value,
// const JsonPath& path, T& out)`, where `path` is the JSON pointer of
// `value` used in error messages. Readers check a value's type before
// touching it, so nlohmann never throws out of them.
#ifndef LIR_EXPLAIN_JSON_READER_H_
#define LIR_EXPLAIN_JSON_READER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/mfp.h"
#include "lir/scalar.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {

using nlohmann::json;

/// Where a value sits in the document, as a JSON pointer built lazily: each
/// step points to its parent's step and is only spelled out for an error
/// message, so reading valid input allocates no path strings. A step must
/// not outlive its parent (they live on the reader's call stack).
class JsonPath {
 public:
  /// The whole document (pointer "").
  JsonPath() = default;
  /// Member `key` (which must outlive the step) under this value.
  JsonPath Key(std::string_view key) const { return JsonPath(this, key, 0); }
  /// Element `index` under this value.
  JsonPath Index(size_t index) const { return JsonPath(this, {}, index + 1); }
  /// The RFC 6901 pointer, e.g. `/objects/0/plan/3/kind`.
  std::string ToString() const;

 private:
  JsonPath(const JsonPath* parent, std::string_view key, size_t index_plus_one)
      : parent_(parent), key_(key), index_plus_one_(index_plus_one) {}

  const JsonPath* parent_ = nullptr;  // null: the document itself
  std::string_view key_;              // a member step when index_plus_one_ == 0
  size_t index_plus_one_ = 0;
};

/// InvalidArgument `<path>: <message>` (`<root>` for the empty pointer).
absl::Status JsonError(const JsonPath& path, absl::string_view message);

/// `<path>: expected <what>, got <description of value>`.
absl::Status JsonExpected(const JsonPath& path, absl::string_view what,
                          const json& value);

/// The members of one JSON object. Remembers which members were looked up,
/// so that Finish() can reject the ones no reader knows (typos would
/// otherwise be dropped silently).
class Fields {
 public:
  /// Fails unless `value` is an object.
  static absl::StatusOr<Fields> Of(const json& value, const JsonPath& path);

  /// The member `key` (a string literal), or null when absent. Marks `key`
  /// as known.
  const json* Find(std::string_view key);
  /// The location of member `key`; valid while this Fields lives.
  JsonPath PathOf(std::string_view key) const { return path_.Key(key); }
  const JsonPath& path() const { return path_; }
  /// Fails on the first member that was never looked up; `owner` names what
  /// the object is (`a Get node`).
  absl::Status Finish(absl::string_view owner) const;

 private:
  Fields(const json& value, const JsonPath& path)
      : value_(&value), path_(path) {}

  const json* value_;
  JsonPath path_;
  // The keys looked up; objects of this format have fewer members than the
  // array holds, `more_known_` only guards against a future bigger one.
  std::array<std::string_view, 32> known_{};
  size_t known_count_ = 0;
  std::vector<std::string_view> more_known_;
  size_t found_ = 0;  // how many looked-up members were present
};

// ---- Field access ----------------------------------------------------------

/// Reads member `key` with `read`; a missing member is an error.
template <typename T, typename Fn>
absl::Status Required(Fields& fields, std::string_view key, T& out, Fn read) {
  const json* value = fields.Find(key);
  if (value == nullptr) {
    return JsonError(fields.PathOf(key), "missing required field");
  }
  return read(*value, fields.PathOf(key), out);
}

/// Reads member `key` with `read` when present and not null; otherwise
/// leaves `out` (the default) alone.
template <typename T, typename Fn>
absl::Status Optional(Fields& fields, std::string_view key, T& out, Fn read) {
  const json* value = fields.Find(key);
  if (value == nullptr || value->is_null()) return absl::OkStatus();
  return read(*value, fields.PathOf(key), out);
}

/// Like Optional, for a field whose absence is itself meaningful.
template <typename T, typename Fn>
absl::Status OptionalValue(Fields& fields, std::string_view key,
                           std::optional<T>& out, Fn read) {
  const json* value = fields.Find(key);
  if (value == nullptr || value->is_null()) {
    out.reset();
    return absl::OkStatus();
  }
  T item{};
  LIR_RETURN_IF_ERROR(read(*value, fields.PathOf(key), item));
  out = std::move(item);
  return absl::OkStatus();
}

/// Reads an array whose elements are read by `read`.
template <typename T, typename Fn>
absl::Status ReadList(const json& value, const JsonPath& path,
                      std::vector<T>& out, Fn read) {
  if (!value.is_array()) return JsonExpected(path, "an array", value);
  out.clear();
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    T item{};
    LIR_RETURN_IF_ERROR(read(value[i], path.Index(i), item));
    out.push_back(std::move(item));
  }
  return absl::OkStatus();
}

/// Reads a string that must be one of `names`; the result is its index.
template <typename Enum, size_t N>
absl::Status ReadEnum(const json& value, const JsonPath& path,
                      const std::array<std::string_view, N>& names, Enum& out) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    for (size_t i = 0; i < N; ++i) {
      if (names[i] == text) {
        out = static_cast<Enum>(i);
        return absl::OkStatus();
      }
    }
  }
  std::string expected = "one of ";
  for (size_t i = 0; i < N; ++i) {
    absl::StrAppend(&expected, i == 0 ? "" : ", ", ToAbsl(names[i]));
  }
  return JsonExpected(path, expected, value);
}

// ---- Readers of shared pieces ---------------------------------------------

absl::Status ReadString(const json& value, const JsonPath& path,
                        std::string& out);
/// A name printed in the text form (object, collection, source, index):
/// non-empty, without control characters (text_names.h).
absl::Status ReadName(const json& value, const JsonPath& path,
                      std::string& out);
/// A string printed as (part of) one line: no newline or carriage return.
absl::Status ReadLineText(const json& value, const JsonPath& path,
                          std::string& out);
/// Fails (at `path`) if `text` holds a newline or carriage return.
absl::Status CheckLineText(const std::string& text, const JsonPath& path);
absl::Status ReadBool(const json& value, const JsonPath& path, bool& out);
/// Any integer that fits in 64 bits, signed.
absl::Status ReadInt64(const json& value, const JsonPath& path, int64_t& out);
/// An integer >= 0 that fits in int64 (counts, limits, offsets).
absl::Status ReadCount(const json& value, const JsonPath& path, int64_t& out);
/// An integer >= 0 that fits in uint64 (ids, bucket sizes).
absl::Status ReadUint64(const json& value, const JsonPath& path, uint64_t& out);
/// A column position or relation index: an integer in [0, INT_MAX].
absl::Status ReadPosition(const json& value, const JsonPath& path, int& out);
absl::Status ReadPositions(const json& value, const JsonPath& path,
                           std::vector<int>& out);
absl::Status ReadStrings(const json& value, const JsonPath& path,
                         std::vector<std::string>& out);

// ---- Node payloads (json_read_ops.cc) ---------------------------------------

/// The payload fields of a Join node.
absl::Status ReadJoin(Fields& fields, JoinOp& op);
/// The payload fields of a Reduce node.
absl::Status ReadReduce(Fields& fields, ReduceOp& op);

// ---- Text the text form must carry (json_text_checks.cc) ------------------
//
// Each fails at a JSON pointer under `path` when the piece would print as
// text that parses differently or not at all.

/// A call's style, function name and parameter group (`path`: the call).
absl::Status CheckCallText(const ScalarExpr& call, const JsonPath& path);
/// The text of an opaque expression: non-empty, one line (`path`: the
/// expression). It prints verbatim and is not read back as opaque.
absl::Status CheckOpaqueText(const std::string& text, const JsonPath& path);
/// An aggregate's name, parameters and `distinct` (`path`: the aggregate).
absl::Status CheckAggregateText(const AggregateExpr& agg, const JsonPath& path);
/// One name of a hierarchical reduction's `aggr_funcs` (`path`: the name).
absl::Status CheckAggregateFunctionName(const std::string& name,
                                        const JsonPath& path);
/// A FlatMap's table function name (`path`: the name).
absl::Status CheckTableFunctionName(const std::string& func,
                                    const JsonPath& path);
/// Reads a FlatMap's table function name and checks it.
absl::Status ReadTableFunctionName(const json& value, const JsonPath& path,
                                   std::string& out);
/// Reads `aggr_funcs` and checks each name.
absl::Status ReadAggregateNames(const json& value, const JsonPath& path,
                                std::vector<std::string>& out);

/// A datum `{"type": ..., "text": ...}` whose text reads back as the same
/// datum in the text form.
absl::Status ReadDatum(const json& value, const JsonPath& path, Literal& out);
/// An array of datums.
absl::Status ReadRow(const json& value, const JsonPath& path, Row& out);
/// An expression at the top of its tree (depth 1).
absl::Status ReadExpr(const json& value, const JsonPath& path, ScalarExpr& out);
/// An array of top-level expressions.
absl::Status ReadExprs(const json& value, const JsonPath& path,
                       std::vector<ScalarExpr>& out);
absl::Status ReadOrderKeys(const json& value, const JsonPath& path,
                           std::vector<OrderKey>& out);
absl::Status ReadMfp(const json& value, const JsonPath& path,
                     MapFilterProject& out);
absl::Status ReadArrangement(const json& value, const JsonPath& path,
                             ArrangementForm& out);
absl::Status ReadCollections(const json& value, const JsonPath& path,
                             AvailableCollections& out);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_JSON_READER_H_
