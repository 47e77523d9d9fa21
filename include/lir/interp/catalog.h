// Catalog files (`lir-opt --catalog=FILE`): what the catalog knows about
// global collections that a plan does not print (arities, unique keys,
// monotonicity, indexes), read for the analyses and the passes. In
// lir_interp, beside the analysis inputs they become, so that explaining
// with a catalog needs no evaluator.
#ifndef LIR_INTERP_CATALOG_H_
#define LIR_INTERP_CATALOG_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/interp/inputs.h"

namespace lir::interp {

/// A declared index (`"indexes"` in the data file): a plan names an index
/// but not its key, which a fast-path index read needs (to look values up
/// and to lay out the arranged row `key ++ other columns`).
struct InputIndex {
  /// The collection the index is on.
  std::string on;
  /// The key's columns of that collection, in key order.
  std::vector<int> key;
};

/// What a catalog file says about one collection (every field optional):
/// facts a plan does not print, for the analyses and the passes.
struct CatalogCollection {
  /// The number of columns.
  std::optional<int> arity;
  /// Sets of columns on which no value has a count above 1 (nor below 0)
  /// at any time, as written; an empty set: at most one row.
  std::vector<std::vector<int>> unique_keys;
  /// Insert-only (true), known not to be (false), or unsaid.
  std::optional<bool> monotonic;
  /// `file:line:column` of the collection's name in the catalog file, for
  /// messages (empty when not read from a file).
  std::string location;
};

/// A catalog file (`lir-opt --catalog=FILE`).
struct Catalog {
  /// The file's name, for messages.
  std::string name;
  /// Declared indexes, as the data file's `"indexes"`.
  std::map<std::string, InputIndex> indexes;
  /// Facts about collections, by global name.
  std::map<std::string, CatalogCollection> collections;
};

/// Parses a catalog file: what the catalog knows that a plan does not
/// print, `{"collections": {NAME: {"arity": N, "unique_keys": [[COLUMN, ...],
/// ...], "monotonic": B}}, "indexes": {NAME: {"on": COLLECTION, "key":
/// [COLUMN, ...]}}}`, both members and every collection field optional; the
/// indexes in the same form as the data file's `"indexes"`. Unknown fields,
/// a negative column or one not below the entry's own arity are errors;
/// errors as ParseInputData's (`file:line:column: collections["t"]...`).
absl::StatusOr<Catalog> ParseCatalog(std::string_view text,
                                     std::string_view filename);

/// Adds the catalog's collection facts to `inputs` (arities, unique keys,
/// monotonic ids). `inputs` may already hold what `--arity` and
/// `--monotonic_ids` said, shorthands for the same entries: an arity that
/// differs from the catalog's, an id listed monotonic that the catalog says
/// is not, or a unique key column not below the arity given there is an
/// InvalidArgument error at the collection's name in the catalog.
absl::Status AddCatalogToAnalysisInputs(const Catalog& catalog,
                                        AnalysisInputs* inputs);

}  // namespace lir::interp

#endif  // LIR_INTERP_CATALOG_H_
