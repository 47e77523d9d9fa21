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

/// Limits that keep a workload's run time bounded: sizes up to 2^40 keep
/// levels and fuel far from overflow; the number of activations and idle
/// turns a workload may take bounds its time.
inline constexpr uint64_t kMaxWorkloadUpdates = uint64_t{1} << 40;
inline constexpr uint64_t kMaxWorkloadTurns = uint64_t{1} << 32;
/// Idle turns a settle or a drain may take before it is reported as not
/// converging (no policy takes more than a few hundred).
inline constexpr uint64_t kMaxSettleTurns = uint64_t{1} << 24;

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
};

/// Checks a workload's sizes against the limits above; the error names the
/// flag-like field (`batches`, `batch_size`, ...) and the limit.
absl::Status CheckWorkload(const Workload& workload);

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
};

/// Called after every activation and idle turn with a label (`batch 3
/// idle 2`) and the spine.
using TraceFn = std::function<void(std::string_view label, const Spine&)>;

/// Runs `workload` (CheckWorkload first); `trace` may be null.
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
