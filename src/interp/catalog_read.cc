// Reading catalog files (catalog.h: ParseCatalog) and what they add to the
// analyses' inputs.
#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/json.h"
#include "lir/interp/catalog.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_locate.h"
#include "src/interp/json_input.h"

namespace lir::interp {

using namespace json_input;  // NOLINT: the readers' shared helpers

namespace {

// Columns of a collection the catalog describes.
constexpr int64_t kMaxCatalogArity = 100000;

// What a column of collection `name` of `arity` columns must be.
std::string ExpectedColumn(const std::string& name, int64_t arity) {
  if (arity == 0) return absl::StrCat("\"", name, "\" has no columns");
  return absl::StrCat("expected a column of \"", name, "\" (0 to ", arity - 1,
                      ")");
}

// `"collections": {"<name>": {"arity": N, "unique_keys": [[<column>, ...],
// ...], "monotonic": B}}`, every field optional.
absl::Status ReadCatalogCollections(const json& collections,
                                    const DataErrors& errors,
                                    Catalog* catalog) {
  if (!collections.is_object()) {
    return errors.At({"collections"}, "collections",
                     "expected an object keyed by collection name");
  }
  for (const auto& [name, collection] : collections.items()) {
    const std::string where = absl::StrCat("collections[\"", name, "\"]");
    const Path path = {"collections", name};
    if (!collection.is_object()) {
      return errors.At(path, where,
                       "expected {\"arity\": N, \"unique_keys\": [[<column>, "
                       "...], ...], \"monotonic\": true|false}, every field "
                       "optional");
    }
    for (const auto& [field, value] : collection.items()) {
      if (field != "arity" && field != "unique_keys" && field != "monotonic") {
        return errors.At({"collections", name, field}, where,
                         absl::StrCat("unknown field \"", field,
                                      "\" (expected \"arity\", "
                                      "\"unique_keys\" or \"monotonic\")"));
      }
    }
    CatalogCollection parsed;
    if (collection.contains("arity")) {
      const std::optional<int64_t> arity = ReadInteger(collection["arity"]);
      if (!arity.has_value() || *arity < 0 || *arity > kMaxCatalogArity) {
        return errors.At({"collections", name, "arity"},
                         absl::StrCat(where, ".arity"),
                         absl::StrCat("expected a column count (0 to ",
                                      kMaxCatalogArity, ")"));
      }
      parsed.arity = static_cast<int>(*arity);
    }
    if (collection.contains("monotonic")) {
      if (!collection["monotonic"].is_boolean()) {
        return errors.At({"collections", name, "monotonic"},
                         absl::StrCat(where, ".monotonic"),
                         "expected true or false");
      }
      parsed.monotonic = collection["monotonic"].get<bool>();
    }
    if (collection.contains("unique_keys")) {
      const json& keys = collection["unique_keys"];
      if (!keys.is_array()) {
        return errors.At({"collections", name, "unique_keys"},
                         absl::StrCat(where, ".unique_keys"),
                         "expected a list of keys, each a list of columns");
      }
      const int64_t arity = parsed.arity.value_or(kMaxCatalogArity);
      for (size_t k = 0; k < keys.size(); ++k) {
        const std::string key_where =
            absl::StrCat(where, ".unique_keys[", k, "]");
        if (!keys[k].is_array()) {
          return errors.At({"collections", name, "unique_keys", k}, key_where,
                           "expected a list of columns ([] for a collection "
                           "of at most one row)");
        }
        std::vector<int> key;
        for (size_t i = 0; i < keys[k].size(); ++i) {
          const std::optional<int64_t> column = ReadInteger(keys[k][i]);
          if (!column.has_value() || *column < 0 || *column >= arity) {
            return errors.At(
                {"collections", name, "unique_keys", k, i},
                absl::StrCat(key_where, "[", i, "]"),
                parsed.arity.has_value()
                    ? ExpectedColumn(name, arity)
                    : std::string("expected a column number (0 or more)"));
          }
          key.push_back(static_cast<int>(*column));
        }
        parsed.unique_keys.push_back(std::move(key));
      }
    }
    catalog->collections.emplace(name, std::move(parsed));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Catalog> ParseCatalog(std::string_view text,
                                     std::string_view filename) {
  LIR_ASSIGN_OR_RETURN(json root, explain::ParseJsonText(text, filename));
  const DataErrors errors(text, filename);
  if (!root.is_object()) {
    return errors.At({}, "top level",
                     "expected an object with \"collections\" and/or "
                     "\"indexes\"");
  }
  for (const auto& [key, value] : root.items()) {
    if (key != "indexes" && key != "collections") {
      return errors.At({key}, "top level",
                       absl::StrCat("unknown field \"", key,
                                    "\" (expected \"collections\" or "
                                    "\"indexes\")"));
    }
  }
  Catalog catalog;
  catalog.name = std::string(filename);
  if (root.contains("collections")) {
    LIR_RETURN_IF_ERROR(
        ReadCatalogCollections(root["collections"], errors, &catalog));
    // Where each collection's name is, for errors found when the catalog
    // meets the command line or the data (one walk over "collections").
    const JsonLocator locator(text);
    for (const auto& [name, key_at] :
         locator.Members(locator.Find({"collections"}))) {
      auto it = catalog.collections.find(name);
      if (it != catalog.collections.end()) {
        it->second.location = locator.Where(filename, key_at);
      }
    }
  }
  if (root.contains("indexes")) {
    LIR_RETURN_IF_ERROR(
        ReadIndexes(root["indexes"], errors, nullptr, &catalog.indexes));
  }
  // An index on a collection the catalog gives an arity must fit it.
  for (const auto& [name, index] : catalog.indexes) {
    auto on = catalog.collections.find(index.on);
    if (on == catalog.collections.end() || !on->second.arity.has_value()) {
      continue;
    }
    const int arity = *on->second.arity;
    for (size_t i = 0; i < index.key.size(); ++i) {
      if (index.key[i] >= arity) {
        return errors.At({"indexes", name, "key", i},
                         absl::StrCat("indexes[\"", name, "\"].key[", i, "]"),
                         ExpectedColumn(index.on, arity));
      }
    }
  }
  return catalog;
}

absl::Status AddCatalogToAnalysisInputs(const Catalog& catalog,
                                        AnalysisInputs* inputs) {
  for (const auto& entry : catalog.collections) {
    // Named references, not structured bindings: clang 14 cannot capture
    // those in a lambda.
    const std::string& name = entry.first;
    const auto& collection = entry.second;
    auto at = [&](std::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat(collection.location, ": collections[\"", name,
                       "\"]: ", std::string(what)));
    };
    std::optional<int> arity = collection.arity;
    auto given = inputs->global_arity.find(name);
    if (given != inputs->global_arity.end()) {
      if (arity.has_value() && *arity != given->second) {
        return at(absl::StrCat("the catalog gives arity ", *arity,
                               ", --arity gives ", given->second));
      }
      arity = given->second;
    }
    if (collection.monotonic == false && inputs->monotonic_ids.count(name)) {
      return at(
          "the catalog says \"monotonic\": false, --monotonic_ids lists it");
    }
    if (arity.has_value()) {
      for (const std::vector<int>& key : collection.unique_keys) {
        for (int c : key) {
          if (c >= *arity) {
            return at(absl::StrCat("unique key column ", c,
                                   " is not below its arity ", *arity,
                                   " (--arity)"));
          }
        }
      }
      inputs->global_arity[name] = *arity;
    }
    // Where the facts came from, for CheckGlobalFacts' errors: an arity the
    // catalog gives is named there (--arity, if it gave one, agrees).
    const std::string where =
        absl::StrCat(collection.location, ": collections[\"", name, "\"]");
    if (collection.arity.has_value()) {
      inputs->global_arity_origin[name] =
          absl::StrCat(where, ": the catalog gives arity ", *collection.arity);
    }
    if (collection.monotonic == true) inputs->monotonic_ids.insert(name);
    if (!collection.unique_keys.empty()) {
      std::vector<std::vector<int>>& keys = inputs->global_unique_keys[name];
      keys.insert(keys.end(), collection.unique_keys.begin(),
                  collection.unique_keys.end());
      inputs->global_keys_origin.emplace(name, where);
    }
  }
  return absl::OkStatus();
}

}  // namespace lir::interp
