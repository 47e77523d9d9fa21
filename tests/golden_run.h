// The `run` command of the golden tests: runs a plan on data with the
// reference evaluator and prints every object's contents per round.
#ifndef LIR_TESTS_GOLDEN_RUN_H_
#define LIR_TESTS_GOLDEN_RUN_H_

#include <cstdint>
#include <string>

namespace lir::test {

/// The directive's arguments.
struct RunArgs {
  /// `off`, `on` or `both` (run twice, print both, require equal contents).
  std::string fused = "both";
  std::string engine = "incremental";
  std::string compaction = "eager";
  uint64_t fuel = 0;
  bool arrangement_sizes = true;
  /// `off`, `stock` or `funded` (RunOptions::spine; `lir-opt run --spine`),
  /// with the policy and idle turns of `--spine_policy`, `--idle_turns`.
  std::string spine = "off";
  std::string spine_policy = "proportional:16";
  uint64_t idle_turns = 0;
};

/// `input` is a plan (verbose EXPLAIN text), a line `====`, and the data as
/// JSON. Besides printing, checks that the other engine, and the
/// incremental engine under both compactions with fuel 0, 1 and 2, compute
/// the same contents (round errors included), and with a spine that every
/// spine holds exactly its trace's updates (a failure is reported through
/// gtest).
std::string RunGolden(const std::string& input, const RunArgs& args);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_RUN_H_
