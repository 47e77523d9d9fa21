// What the readers of JSON input files share (catalogs here, data files in
// src/eval): located errors, integers, and the "indexes" object both kinds
// of file may hold. Internal.
#ifndef LIR_INTERP_JSON_INPUT_H_
#define LIR_INTERP_JSON_INPUT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/interp/catalog.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_locate.h"

namespace lir::interp::json_input {

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

/// The arity of a collection a data file holds, or nullopt when it holds
/// none of that name.
using ArityOf = std::function<std::optional<int>(const std::string&)>;

/// Reads `"indexes": {"<name>": {"on": "<collection>", "key": [<column>,
/// ...]}}` into `out`. With `arity_of` (a data file) the collection must be
/// one it holds and the columns within its arity; without (a catalog) the
/// columns need only be non-negative (AddIndexes checks them against the
/// data).
absl::Status ReadIndexes(const nlohmann::json& indexes,
                         const DataErrors& errors, const ArityOf* arity_of,
                         std::map<std::string, InputIndex>* out);

}  // namespace lir::interp::json_input

#endif  // LIR_INTERP_JSON_INPUT_H_
