// Input data for the evaluator: each global collection's arity and its
// updates `[row, round, diff]`, read from JSON (docs/evaluator.md):
//
//   {"collections": {"materialize.public.t": {"arity": 2, "updates": [
//       [[1, "x"], 0, 1], [[1, "x"], 2, -1]]}},
//    "indexes": {"materialize.public.t_a_idx": {
//       "on": "materialize.public.t", "key": [0]}}}
#ifndef LIR_EVAL_DATA_H_
#define LIR_EVAL_DATA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/interp/catalog.h"
#include "lir/interp/inputs.h"
#include "nlohmann/json.hpp"

namespace lir::eval {

/// A declared index: the data file's `"indexes"` has the catalog's form
/// (interp/catalog.h).
using interp::InputIndex;

/// One update of an input collection.
struct InputUpdate {
  DataRow row;
  uint64_t round = 0;
  int64_t diff = 0;
};

/// The largest round a data file may give an update: 2^53 - 1, the largest
/// integer every JSON reader holds exactly (rounds are printed in `run`'s
/// JSON output), and the largest round a temporal filter may move an update
/// to (temporal.h, kMaxTemporalRound).
inline constexpr uint64_t kMaxDataRound = (uint64_t{1} << 53) - 1;

/// One input collection.
struct InputCollection {
  int arity = 0;
  /// In file order.
  std::vector<InputUpdate> updates;
  /// Line and column (1-based, in bytes) of the collection's name in the
  /// data file, for messages (InputData::LocationOf); 0 for data not read
  /// from a file.
  size_t line = 0;
  size_t column = 0;
};

/// Every input collection, by global name.
struct InputData {
  std::map<std::string, InputCollection> collections;
  /// Declared indexes by qualified name (`materialize.public.t_a_idx`).
  std::map<std::string, InputIndex> indexes;
  /// The data file's name, for messages (empty for data not read from a
  /// file).
  std::string source;

  /// `file:line:column` of the name of collection `name` in the data file,
  /// or empty when it was not read from one.
  std::string LocationOf(const std::string& name) const;

  /// The largest round of any update (0 when there are none).
  uint64_t LastRound() const;
};

/// Parses the data file's text as it is read (no tree of the whole file is
/// built: memory is the rows read plus one update's tree). Errors are
/// InvalidArgument starting with
/// `filename:line:column:` of the value at fault; after the location, all
/// but JSON syntax errors name the collection, the update index and what is
/// wrong (wrong arity, a value that is not null/boolean/64-bit
/// integer/number/string/`{"list": [...]}`/`{"array": [...]}`/
/// `{"timestamp": ...}`/`{"interval": ...}`/`{"bytea": ...}`/
/// `{"date": ...}`, a round that is not an integer from 0 to kMaxDataRound,
/// a diff that is 0 or not an integer, or diffs of one row that sum past
/// the 64-bit range, in one round or accumulated over rounds).
absl::StatusOr<InputData> ParseInputData(std::string_view text,
                                         std::string_view filename);

/// Checks the catalog's arities against the data's collections (a catalog
/// may name collections the data does not hold) and adds its indexes to
/// `data` (AddIndexes, the catalog's name as the source).
absl::Status CheckCatalogAgainstData(const interp::Catalog& catalog,
                                     InputData* data);

/// Adds `indexes` (from `source`, for messages) to `data`'s declarations;
/// InvalidArgument when both declare one name differently.
absl::Status AddIndexes(const std::map<std::string, InputIndex>& indexes,
                        std::string_view source, InputData* data);

/// A datum as a JSON value: null, boolean, integer, float, string, or for
/// nested datums `{"list": [...]}` / `{"array": [...]}` (records are lists);
/// timestamps, intervals, byteas and dates tagged with their text form
/// (`{"bytea": "\\x0a1b"}`, `{"date": "1997-07-06"}`), as the data file
/// reads them back.
nlohmann::json DatumToJson(const Datum& datum);

/// The data as JSON text in the same format (floats keep a fraction or an
/// exponent so they read back as floats).
std::string InputDataToJson(const InputData& data);

}  // namespace lir::eval

#endif  // LIR_EVAL_DATA_H_
