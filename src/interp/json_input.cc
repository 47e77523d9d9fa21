// Reading the parts of JSON input files that catalogs and data files share
// (json_input.h).
#include "src/interp/json_input.h"

#include <limits>
#include <utility>

namespace lir::interp::json_input {

// A JSON integer (signed or unsigned) as int64, or nullopt.
std::optional<int64_t> ReadInteger(const json& value) {
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    return value.get<int64_t>();
  }
  if (value.is_number_unsigned()) {
    const uint64_t u = value.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return static_cast<int64_t>(u);
    }
  }
  return std::nullopt;
}

absl::Status ReadIndexes(const json& indexes, const DataErrors& errors,
                         const ArityOf* arity_of,
                         std::map<std::string, InputIndex>* out) {
  const bool in_catalog = arity_of == nullptr;
  // Columns of a collection the catalog names but the data may not hold.
  constexpr int64_t kMaxCatalogColumns = 100000;
  if (!indexes.is_object()) {
    return errors.At({"indexes"}, "indexes",
                     "expected an object keyed by index name");
  }
  for (const auto& [name, index] : indexes.items()) {
    const std::string where = absl::StrCat("indexes[\"", name, "\"]");
    const Path path = {"indexes", name};
    if (!index.is_object() || !index.contains("on") ||
        !index["on"].is_string() || !index.contains("key") ||
        !index["key"].is_array()) {
      return errors.At(path, where,
                       "expected {\"on\": \"<collection>\", \"key\": "
                       "[<column>, ...]}");
    }
    for (const auto& [field, value] : index.items()) {
      if (field != "on" && field != "key") {
        return errors.At({"indexes", name, field}, where,
                         absl::StrCat("unknown field \"", field,
                                      "\" (expected \"on\" or \"key\")"));
      }
    }
    InputIndex parsed;
    parsed.on = index["on"].get<std::string>();
    const std::optional<int> held =
        in_catalog ? std::nullopt : (*arity_of)(parsed.on);
    if (!in_catalog && !held.has_value()) {
      return errors.At(
          {"indexes", name, "on"}, absl::StrCat(where, ".on"),
          absl::StrCat("no collection \"", parsed.on, "\" in \"collections\""));
    }
    const int64_t arity = in_catalog ? kMaxCatalogColumns : *held;
    const json& key = index["key"];
    for (size_t i = 0; i < key.size(); ++i) {
      const std::optional<int64_t> column = ReadInteger(key[i]);
      if (!column.has_value() || *column < 0 || *column >= arity) {
        const Path at = {"indexes", name, "key", i};
        if (in_catalog) {
          return errors.At(at, absl::StrCat(where, ".key[", i, "]"),
                           "expected a column number (0 or more)");
        }
        return errors.At(at, absl::StrCat(where, ".key[", i, "]"),
                         absl::StrCat("expected a column of \"", parsed.on,
                                      "\" (0 to ", arity - 1, ")"));
      }
      parsed.key.push_back(static_cast<int>(*column));
    }
    out->emplace(name, std::move(parsed));
  }
  return absl::OkStatus();
}

}  // namespace lir::interp::json_input
