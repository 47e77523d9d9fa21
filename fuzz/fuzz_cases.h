// Inputs the fuzz targets start from, read from the source tree at run time
// (nothing is copied into fuzz/): the inputs of the golden cases in
// testdata/**/*.txt, the plans of examples/, and for the `run` target the
// plans with data of the `run` golden cases.
#ifndef LIR_FUZZ_FUZZ_CASES_H_
#define LIR_FUZZ_FUZZ_CASES_H_

#include <filesystem>
#include <string>
#include <vector>

#include "lir/document.h"
#include "nlohmann/json.hpp"

namespace lir::fuzz {

/// The source tree: $LIR_SOURCE_DIR, else the directory it was built from.
std::filesystem::path SourceDir();

/// The input of one golden case (tests/golden_test.cc's file format).
struct GoldenInput {
  std::string origin;   ///< `testdata/eval/reduce.txt:12`
  std::string command;  ///< `explain`, `run`, ...
  std::string input;
};

/// Every case input of testdata/**/*.txt, in path order.
std::vector<GoldenInput> ReadGoldenInputs();

/// Every `examples/*.plan` file's text, in path order.
std::vector<std::string> ReadExamplePlans();

/// One input collection of a run plan: its arity and, per column, the
/// values its seed data uses (the fuzzer picks from these, so that rows
/// have the types the plan expects).
struct RunCollection {
  std::string name;
  int arity = 0;
  std::vector<std::vector<nlohmann::json>> column_values;
};

/// A plan the `run` target feeds fuzzed data: it parses, validates and
/// runs on its own seed data with both engines.
struct RunPlan {
  std::string origin;
  Document doc;
  std::vector<RunCollection> collections;
  /// The seed data's "indexes" (null when it has none).
  nlohmann::json indexes;
};

/// examples/*.plan with their `.data.json` and the `run` golden cases.
std::vector<RunPlan> LoadRunPlans();

}  // namespace lir::fuzz

#endif  // LIR_FUZZ_FUZZ_CASES_H_
