// What the data-file and catalog readers share (data.cc, data_read.cc,
// catalog_read.cc): located errors, integers, one update of a collection and
// the "indexes" object both files may hold.
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

namespace lir::eval::data_internal {

using explain::JsonLocator;
using explain::JsonStep;
using nlohmann::json;

using Path = std::vector<JsonStep>;

// Errors name where in the file they are: `file:4:7: collections["t"]
// .updates[3]: ...`, the line and column of the value at `path` (found in
// the text only when there is an error).
class DataErrors {
 public:
  DataErrors(std::string_view text, std::string_view filename)
      : locator_(text), filename_(filename) {}

  absl::Status At(const Path& path, std::string_view where,
                  std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        Where(path), ": ", std::string(where), ": ", std::string(what)));
  }

  // `file:line:column` of the value at `path` (of its key with `key`).
  std::string Where(const Path& path, bool key = false) const {
    return locator_.Where(filename_, locator_.Find(path, key));
  }

 private:
  JsonLocator locator_;
  std::string_view filename_;
};

inline std::string TypeName(const json& value) { return value.type_name(); }

/// A JSON integer (signed or unsigned) as int64, or nullopt.
std::optional<int64_t> ReadInteger(const nlohmann::json& value);

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

/// Reads `"indexes"` into `data` (data.cc says what each file allows).
absl::Status ReadIndexes(const nlohmann::json& indexes,
                         const DataErrors& errors, InputData* data,
                         bool in_catalog = false);

}  // namespace lir::eval::data_internal

#endif  // LIR_EVAL_DATA_INTERNAL_H_
