// What the data-file readers share (data.cc, data_read.cc): one update of a
// collection, its checks, and (from src/interp/json_input.h, shared with the
// catalog reader) located errors, integers and the "indexes" object.
#ifndef LIR_EVAL_DATA_INTERNAL_H_
#define LIR_EVAL_DATA_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/data.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_locate.h"
#include "src/interp/json_input.h"

namespace lir::eval::data_internal {

using explain::JsonLocator;
using explain::JsonStep;
using interp::json_input::DataErrors;
using interp::json_input::Path;
using interp::json_input::ReadIndexes;
using interp::json_input::ReadInteger;
using interp::json_input::TypeName;
using nlohmann::json;

/// The message for an integer written past the 64-bit range.
std::string OutOfIntegerRange(std::string_view integer);

/// Reads one update `[row, round, diff]` of a collection of `arity`
/// columns, the value at `path` (named `at` in messages), into `out`.
absl::Status ReadUpdate(const nlohmann::json& update, const Path& path,
                        const std::string& at, const DataErrors& errors,
                        int arity, InputUpdate* out);

/// Checks that the diffs of every row of `collection` (at `path`, named
/// `where`) sum within 64 bits in each round and over the rounds.
absl::Status CheckDiffSums(const InputCollection& collection, const Path& path,
                           const std::string& where, const DataErrors& errors);

}  // namespace lir::eval::data_internal

#endif  // LIR_EVAL_DATA_INTERNAL_H_
