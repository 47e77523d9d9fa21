// The `run` command of the golden tests: runs a plan on data with the
// reference evaluator and prints every object's contents per round.
#ifndef LIR_TESTS_GOLDEN_RUN_H_
#define LIR_TESTS_GOLDEN_RUN_H_

#include <cstdint>
#include <string>

namespace lir::golden {

/// The directive's arguments.
struct RunArgs {
  /// `off`, `on` or `both` (run twice, print both, require equal contents).
  std::string fused = "both";
  std::string engine = "incremental";
  std::string compaction = "eager";
  uint64_t fuel = 0;
  bool arrangement_sizes = true;
};

/// `input` is a plan (verbose EXPLAIN text), a line `====`, and the data as
/// JSON. Besides printing, checks that the snapshot engine and the
/// incremental engine with fuel 1 compute the same contents (a failure is
/// reported through gtest).
std::string RunGolden(const std::string& input, const RunArgs& args);

}  // namespace lir::golden

#endif  // LIR_TESTS_GOLDEN_RUN_H_
