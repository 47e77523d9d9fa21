// The synthetic workload of ../shared/reference/SPINE.md section 6 on one
// spine (spine.h): a snapshot settled with unlimited idle turns, then
// batches each followed by idle turns (and optionally empty batches), and
// optionally closing the input and draining; with the metrics section 6
// asks for. `lir-opt spine` and bench/spine_bench run it.
#ifndef LIR_EVAL_SPINE_WORKLOAD_H_
#define LIR_EVAL_SPINE_WORKLOAD_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/spine.h"
#include "nlohmann/json.hpp"

namespace lir::eval::spine {

/// Limits on a workload's sizes: up to 2^40 keeps levels and fuel far from
/// overflow, and at most 2^32 activations and idle turns keeps the counts of
/// CheckWorkload's arithmetic in range. These are usage errors; the time a
/// run takes is bounded by `Workload::max_turns` below.
inline constexpr uint64_t kMaxWorkloadUpdates = uint64_t{1} << 40;
inline constexpr uint64_t kMaxWorkloadTurns = uint64_t{1} << 32;
/// Default of `Workload::max_turns` (`lir-opt spine --max_spine_turns`):
/// 2^26 activations and idle turns. A turn costs from about 0.25 to 0.75
/// microseconds of CPU at -O2 (the most when every turn rolls a virtual
/// batch up through some 40 layers), so the worst accepted run takes about
/// 50 seconds (docs/RELIABILITY.md has the measurement).
inline constexpr uint64_t kDefaultMaxSpineTurns = uint64_t{1} << 26;
/// Default of `lir-opt spine --max_trace_bytes`: 64 MiB of trace lines.
inline constexpr uint64_t kDefaultMaxTraceBytes = uint64_t{64} << 20;

/// The workload (defaults as `lir-opt spine`'s).
struct Workload {
  Policy policy{Policy::Kind::kProportional, 16};
  Exertion exertion = Exertion::kStock;
  /// N: the snapshot's updates (0: none).
  uint64_t snapshot = 0;
  /// n batches of B updates.
  uint64_t batches = 1;
  uint64_t batch_size = 1000;
  /// k: idle turns after each activation, taken while requested.
  uint64_t idle_turns = 0;
  /// E: empty batches after each batch, each an activation with its own
  /// idle turns.
  uint64_t empty_batches = 0;
  /// Close the input after the last batch and exert until quiet.
  bool close = false;
  /// The most turns (activations and idle turns, the snapshot's and the
  /// drain's included) the run may take: the bound on its time. At least 1.
  uint64_t max_turns = kDefaultMaxSpineTurns;
};

/// Checks a workload before it runs. A size past the limits above, or a
/// `close` that cannot settle within `max_turns` (MinDrainTurns), is
/// InvalidArgument naming the flag-like field (`--batches`, ...); more
/// activations than `max_turns` is ResourceExhausted naming the limit.
absl::Status CheckWorkload(const Workload& workload);

/// The activations a workload takes whatever the spine does: the snapshot's
/// (when N > 0), n x (1 + E), and the close.
uint64_t CertainActivations(const Workload& workload);

/// A lower bound on the idle turns the drain after `close` takes, 0 when
/// none can be proven. Only idle_merge:E has one: it is quiet only once all
/// updates sit in one batch, so the merge that writes that batch (which
/// contains the last batch, so begins after it is inserted) must write all
/// n x B + N updates. A merge at a layer above the levels where inserts and
/// virtual batches complete merges unfueled (level(B) and level(E)) gets at
/// most 8 << level(E) fuel per step, and the steps after the last insert
/// before the drain are known.
uint64_t MinDrainTurns(const Workload& workload);

/// What a run measured, counted from the moment the snapshot settled.
struct WorkloadResult {
  Counters counters;
  /// n x B.
  uint64_t inserted_updates = 0;
  /// merge_work / inserted_updates.
  double work_per_update = 0;
  uint64_t nonempty_batches = 0;
  /// The final layers, vacant ones left out.
  std::vector<LayerView> layers;
  /// The final layers in section 7's notation.
  std::string described;
  /// Turns taken (activations and idle turns, the snapshot's and the
  /// drain's included), and the drain's idle turns alone.
  uint64_t turns = 0;
  uint64_t drain_turns = 0;
};

/// Called after every activation and idle turn with a label (`batch 3
/// idle 2`) and the spine; an error stops the run and is returned (how
/// `lir-opt spine` bounds its trace's bytes).
using TraceFn =
    std::function<absl::Status(std::string_view label, const Spine&)>;

/// Runs `workload` (CheckWorkload first); `trace` may be null. A run that
/// needs more than `max_turns` turns stops before the next one with
/// ResourceExhausted naming the limit and where it stopped.
absl::StatusOr<WorkloadResult> RunWorkload(const Workload& workload,
                                           const TraceFn& trace = nullptr);

/// What the last exert did, as a trace shows it: `none`, `fuel`, `virtual`
/// or `decline`, with `/credit`, `/bank` or `/unfunded` for a funded spine
/// whose input is open.
std::string DescribeLastExert(const Spine& spine);

/// One line of `lir-opt spine --trace`: `<label>: <what the exert did> |
/// <layers> | work <merge work so far>` and a newline.
std::string FormatTraceLine(std::string_view label, const Spine& spine);

/// The JSON object of `lir-opt spine --format=json`: exactly merge_work,
/// work_per_update, idle_turns_used, virtual_batches, grants_credit,
/// grants_bank, unfunded_continuations, declines, nonempty_batches, layers.
nlohmann::json WorkloadResultToJson(const WorkloadResult& result);

/// The text form: one `name value` line per metric, then `layers ...`.
std::string WorkloadResultToText(const WorkloadResult& result);

}  // namespace lir::eval::spine

#endif  // LIR_EVAL_SPINE_WORKLOAD_H_
