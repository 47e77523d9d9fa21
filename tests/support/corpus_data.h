// Input data for the Materialize corpus plans (../shared/corpus), shared by
// the tests that run them (eval_corpus_test, arrangements_built_test).
//
// Column counts and types come from the PostgreSQL schemas in
// ../shared/corpus/materialize-sql (MAP.tsv says which table each global
// collection is); for plans without one, from the CREATE TABLE statements
// before the EXPLAIN in its sqllogictest file (../shared/corpus/
// materialize-slt, located by materialize/INDEX.tsv), so that an aggregate
// over a text column gets text; otherwise from the arities the plan's own
// arrangements reveal, or failing that the fewest columns the plan's reads
// of the collection need (DerivedArity; such arities are reported as
// derived), and then every column is an integer. A fast-path index read
// needs its index's key, which the plan does not print: it is taken from the
// `CREATE INDEX` in the .slt file the plan came from.
#ifndef LIR_TESTS_SUPPORT_CORPUS_DATA_H_
#define LIR_TESTS_SUPPORT_CORPUS_DATA_H_

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/eval/data.h"

namespace lir::test {

// The column types of a table, lower-cased (`int`, `text`, `numeric`).
struct Table {
  std::vector<std::string> names;
  std::vector<std::string> types;
  std::vector<bool> not_null;
};

// What MAP.tsv says about one plan.
struct PlanSchema {
  std::map<std::string, std::string> reads;  // global -> table
  std::map<std::string, Table> tables;
  bool insert_only = false;
  bool dates_as_strings = false;
  /// The .slt file the plan came from (`-- source:`), for index keys.
  std::filesystem::path slt;
};

/// `<shared>/corpus/materialize-sql`, where MAP.tsv and the schemas are.
std::filesystem::path SqlDir(const std::filesystem::path& shared);

/// The schema of every plan, by plan file name: MAP.tsv's, else the tables
/// its .slt file creates before the EXPLAIN. `shared` is ../shared.
std::map<std::string, PlanSchema> LoadSchemas(
    const std::filesystem::path& shared);

/// Data for the inputs of plan file `plan_name` over three rounds (eight
/// rows at round 0, three more and two retractions at rounds 1 and 2),
/// drawn from a generator seeded by the name, or why there can be none
/// (Unimplemented: a collection of unknown arity, a column type the
/// generator cannot draw, a fast-path index whose key is unknown). Appends
/// to `derived` a line for each collection whose arity was derived from the
/// plan's reads (not known from a schema or an arrangement).
absl::StatusOr<eval::InputData> MakeData(
    const std::string& plan_name, const Document& doc,
    const std::map<std::string, PlanSchema>& schemas,
    std::vector<std::string>* derived);

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_CORPUS_DATA_H_
