// Running a whole plan document on input data, round by round: Source
// blocks are applied to their collections, objects are built in dependency
// order (a later object may read an earlier one by name), and every object's
// contents are recorded after every round.
#ifndef LIR_EVAL_RUN_H_
#define LIR_EVAL_RUN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "src/eval/data.h"
#include "src/eval/dataflow.h"
#include "src/lir/document.h"

namespace lir::eval {

/// Which engine runs the dataflows.
enum class Engine {
  kIncremental,  ///< operators consume each round's changes (incremental.h)
  kSnapshot,     ///< recompute everything every round (snapshot.h)
};

/// How RunDocument runs.
struct RunOptions {
  Engine engine = Engine::kIncremental;
  Compaction compaction = Compaction::kEager;
  /// Keys per SetDifference activation; 0 is unlimited.
  uint64_t fuel = 0;
  /// Run rounds 0..last_round; nullopt: up to the data's last round.
  std::optional<uint64_t> last_round;
};

/// One object's contents at the end of one round.
struct RoundContents {
  uint64_t round = 0;
  /// Consolidated and sorted.
  Multiset contents;
  /// Set when the round failed (division by zero, ...): the run stops there.
  std::optional<std::string> error;
};

/// One object's history.
struct ObjectRun {
  std::string name;
  std::vector<RoundContents> rounds;
};

/// What RunDocument computed.
struct RunResult {
  /// In document order (fast-path objects included: fast_path.h).
  std::vector<ObjectRun> objects;
  /// Every maintained arrangement at the end, objects in build order.
  std::vector<ArrangementStats> arrangements;
  /// Operator activations, summed over the dataflows.
  uint64_t activations = 0;
  /// The first round error, if any (also recorded in its round).
  std::optional<std::string> error;
};

/// Runs every object of `doc` on `data`: LIR objects as dataflows,
/// fast-path objects as peeks answered each round (fast_path.h). Errors that
/// prevent running at all (a Get of a global with no data, an unsupported
/// function, a data arity that contradicts the plan, objects reading each
/// other in a cycle, a fast-path index read whose index the data file does
/// not declare) are returned as a status; an error while running a round is
/// recorded in that round and ends the run.
absl::StatusOr<RunResult> RunDocument(const Document& doc,
                                      const InputData& data,
                                      const RunOptions& options);

/// The text form: per object, per round, the rows as Constant rows print
/// (`- (1, "x")`, `- ((2) x 3)`), and with `arrangement_sizes` a table of
/// arrangements.
std::string FormatRunText(const RunResult& result, bool arrangement_sizes);

/// The JSON form: {"objects": [{"name", "rounds": [{"round", "contents":
/// [[row, diff], ...]} or {"round", "error"}]}], "arrangements": [...]}.
nlohmann::json RunToJson(const RunResult& result, bool arrangement_sizes);

/// Whether two runs computed the same contents for every object and round
/// (and failed at the same rounds); when not, a description of the first
/// difference.
std::optional<std::string> FirstDifference(const RunResult& a,
                                           const RunResult& b);

}  // namespace lir::eval

#endif  // LIR_EVAL_RUN_H_
