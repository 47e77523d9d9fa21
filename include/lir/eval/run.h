// Running a whole plan document on input data, round by round: Source
// blocks are applied to their collections, objects are built in dependency
// order (a later object may read an earlier one by name), and every object's
// changes are recorded after every round that is run.
//
// Only rounds where something can happen are run: round 0 (Constants), the
// rounds at which the data has updates, and the rounds at which a temporal
// filter (of a Source block or of a dataflow) has an update due, so a run's
// cost follows its updates, not the span of their rounds (an update at round
// 10^8 is one step). Rounds run only because a temporal update was due are
// listed when some object's contents changed in them.
#ifndef LIR_EVAL_RUN_H_
#define LIR_EVAL_RUN_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/eval/budget.h"
#include "lir/eval/data.h"
#include "lir/eval/dataflow.h"
#include "nlohmann/json.hpp"

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
  /// Run no round after this one; nullopt: up to the data's last round and
  /// the temporal updates due after it.
  std::optional<uint64_t> last_round;
  /// Budgets (budget.h; `lir-opt run --max_rows_per_round`,
  /// `--max_iterations`): rows one operator may produce in one round, and
  /// iterations of one LetRec in one round. Passing either ends the run with
  /// a round error naming the operator. Both must be at least 1.
  uint64_t max_rows_per_round = kDefaultMaxRowsPerRound;
  uint64_t max_iterations = kDefaultMaxIterations;
  /// Bytes of rows one operator may produce in one round (RowBytes), bytes
  /// of one value, and rows produced by all operators over the whole run
  /// (`--max_bytes_per_round`, `--max_value_bytes`, `--max_work`; budget.h).
  /// Passing one ends the run with a round error naming the limit; each
  /// must be at least 1.
  uint64_t max_bytes_per_round = kDefaultMaxBytesPerRound;
  uint64_t max_value_bytes = kDefaultMaxValueBytes;
  uint64_t max_work = kDefaultMaxWork;
  /// When set (incremental engine only; `lir-opt run --spine`), every
  /// arrangement is also a fueled spine fed each round's updates, closed
  /// after the last round run; ArrangementStats::spine reports it. The
  /// contents computed are the same with or without it.
  std::optional<SpineOptions> spine;
  /// Measure each LIR node's own wall time (DataflowOptions::measure_elapsed;
  /// incremental engine only): RunResult::elapsed.
  bool measure_elapsed = false;
};

/// What one round changed in one object. A run keeps only changes, so what
/// it holds follows the rows it produced, not rounds times contents (a
/// 100,000-row collection with 2,000 one-row rounds after it holds about
/// 102,000 rows, not 200 million); the contents after a round are the sum
/// of the changes of that round and every round listed before it
/// (`ContentsReplay`).
struct RoundChanges {
  uint64_t round = 0;
  /// Consolidated and sorted; empty when the round changed nothing.
  Multiset changes;
  /// Set when the round failed (division by zero, ...): the run stops there.
  std::optional<std::string> error;
};

/// One object's history: the rounds listed, in order.
struct ObjectRun {
  std::string name;
  std::vector<RoundChanges> rounds;
};

/// Walks an object's rounds keeping the contents after each: what the
/// printers and comparisons use, holding one object's contents at a time.
class ContentsReplay {
 public:
  explicit ContentsReplay(const ObjectRun& object) : object_(object) {}
  /// Applies the next round's changes; false after the last round. Fails
  /// (OutOfRange) when a multiplicity overflows 64 bits.
  absl::StatusOr<bool> Next();
  /// The round just applied.
  const RoundChanges& round() const { return object_.rounds[next_ - 1]; }
  /// The contents after it (consolidated, sorted).
  const Multiset& contents() const { return contents_; }

 private:
  const ObjectRun& object_;
  size_t next_ = 0;
  Multiset contents_;
};

/// The contents after every round of `object` (for tests and small runs:
/// this holds them all).
absl::StatusOr<std::vector<Multiset>> ContentsByRound(const ObjectRun& object);

/// What RunDocument computed.
struct RunResult {
  /// In document order (fast-path objects included: fast_path.h).
  std::vector<ObjectRun> objects;
  /// Every maintained arrangement at the end, objects in build order.
  std::vector<ArrangementStats> arrangements;
  /// Operator activations, summed over the dataflows.
  uint64_t activations = 0;
  /// With RunOptions::measure_elapsed: each LIR node's own time, objects in
  /// build order, ascending by LirId within one.
  std::vector<OperatorElapsed> elapsed;
  /// The first round error, if any (also recorded in its round).
  std::optional<std::string> error;
  /// Rounds the dataflows were stepped (engine-dependent: the snapshot
  /// engine may step a round at which temporal updates cancel).
  uint64_t rounds_stepped = 0;
};

/// The rounds a run covered: 0 to `last` (the last round listed), of
/// which `listed` are listed; the others were skipped (no input change and
/// nothing due) or changed nothing.
struct RoundSpan {
  uint64_t last = 0;
  uint64_t listed = 0;
  uint64_t skipped() const { return listed == 0 ? 0 : last + 1 - listed; }
};
RoundSpan RoundsOf(const RunResult& result);

/// Fails when `data` gives updates for a collection `doc` computes itself
/// (an object's name): the run would ignore them, since later objects read
/// the object's output. InvalidArgument starting with the collection's
/// location in the data file (InputData::LocationOf) when known.
absl::Status CheckDataForDocument(const Document& doc, const InputData& data);

/// Runs every object of `doc` on `data`: LIR objects as dataflows,
/// fast-path objects as peeks answered each round (fast_path.h). Errors that
/// prevent running at all (a Get of a global with no data, an unsupported
/// function, a data arity that contradicts the plan, objects reading each
/// other in a cycle, a fast-path index read whose index the data file does
/// not declare, CheckDataForDocument, a budget of 0, spines asked of the
/// snapshot engine) are returned as a
/// status; an error while running a round (including a budget passed, and
/// memory running out) is recorded in that round and ends the run.
absl::StatusOr<RunResult> RunDocument(const Document& doc,
                                      const InputData& data,
                                      const RunOptions& options);

/// RunDocument that takes the data's rows rather than copying them: the
/// updates of the collections `doc` reads are moved out (and emptied) as
/// the run starts, so that a large input is not held twice. Collections
/// the document does not read are left as they were.
absl::StatusOr<RunResult> RunDocument(const Document& doc, InputData&& data,
                                      const RunOptions& options);

/// The text form, written to `out` as it is produced (nothing but one
/// object's contents is held): per object, per round, the rows as Constant
/// rows print (`- (1, "x")`, `- ((2) x 3)`); when rounds were skipped, a
/// line `Rounds 0 to L: N listed, M skipped (...)`; and with
/// `arrangement_sizes` a table of arrangements (each line, and the total,
/// followed by `spine: batches=B records=R merge_work=W idle_turns=T` when
/// the run kept spines).
void WriteRunText(const RunResult& result, bool arrangement_sizes,
                  std::ostream& out);
/// WriteRunText into a string.
std::string FormatRunText(const RunResult& result, bool arrangement_sizes);

/// The JSON form, written to `out` as it is produced, as nlohmann prints it
/// with an indent of 2: {"objects": [{"name", "rounds": [{"round",
/// "contents": [[row, diff], ...]} or {"round", "error"}]}], "rounds":
/// {"last", "listed", "skipped"}, "arrangements": [...]}; each arrangement
/// has a "spine" object {"batches", "records", "merge_work", "idle_turns"}
/// when the run kept spines. No newline after the closing brace.
void WriteRunJson(const RunResult& result, bool arrangement_sizes,
                  std::ostream& out);
/// WriteRunJson parsed back (for tests and small runs).
nlohmann::json RunToJson(const RunResult& result, bool arrangement_sizes);

/// Whether two runs computed the same contents for every object and round
/// (and failed at the same rounds); when not, a description of the first
/// difference.
std::optional<std::string> FirstDifference(const RunResult& a,
                                           const RunResult& b);

}  // namespace lir::eval

#endif  // LIR_EVAL_RUN_H_
