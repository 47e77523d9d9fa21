// `lir-opt spine`: the synthetic workload of ../shared/reference/SPINE.md
// section 6 on one spine (include/lir/eval/spine_workload.h), with its metrics.
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/spine_workload.h"
#include "lir/explain/json.h"
#include "src/lir/string_view_compat.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"

namespace {
// The default policy: Materialize's compute setting.
lir::cli::SpinePolicyFlag DefaultSpinePolicy() {
  return {{lir::eval::spine::Policy::Kind::kProportional, 16}};
}
}  // namespace

ABSL_FLAG(lir::cli::SpinePolicyFlag, policy, DefaultSpinePolicy(),
          "spine: the exertion policy. none: no idle merging; idle_merge:E: "
          "differential's own (effort E while a merge is in progress or two "
          "layers hold data); proportional:P: Materialize's (effort 1000 "
          "while a merge is in progress or data sits within log2(P) levels "
          "below the largest batch; compute uses 16, storage 1337).");
ABSL_FLAG(lir::cli::ExertionChoice, exertion, lir::cli::ExertionChoice::kStock,
          "spine: stock (every exertion request is granted) or funded "
          "(requests are paid from the input: credit of 8 per inserted "
          "update, 8 grants banked per inserted batch up to 64; unbounded "
          "again once the input closes).");
ABSL_FLAG(uint64_t, snapshot, 0,
          "spine: N, updates inserted as one batch and settled with "
          "unlimited idle turns before counting starts.");
ABSL_FLAG(uint64_t, batches, 1, "spine: n, the batches inserted. At least 1.");
ABSL_FLAG(uint64_t, batch_size, 1000,
          "spine: B, the updates in each batch. At least 1.");
ABSL_FLAG(uint64_t, idle_turns, 0,
          "spine: k, the idle turns after each activation, taken while the "
          "spine requests them; run (with --spine): the same, after each "
          "round's batch of every arrangement.");
ABSL_FLAG(uint64_t, empty_batches, 0,
          "spine: E, empty batches (frontier ticks) after each batch, each "
          "an activation with its own idle turns.");
ABSL_FLAG(bool, close, false,
          "spine: after the last batch, close the input and exert until "
          "quiet; the drain is counted. A drain that provably cannot end "
          "within --max_spine_turns (idle_merge:E with E small for the "
          "data) is a usage error.");
ABSL_FLAG(bool, trace, false,
          "spine: print the layers after every activation and idle turn "
          "(text output only).");
ABSL_FLAG(uint64_t, max_spine_turns, lir::eval::spine::kDefaultMaxSpineTurns,
          "spine: the most activations and idle turns one run may take, "
          "the snapshot's settling and the --close drain included; this "
          "bounds its time (the default, 2^26, is under a minute at worst). "
          "More activations than this are refused before running; a run "
          "needing more idle turns stops with an error at the limit (exit "
          "1). At least 1.");
ABSL_FLAG(uint64_t, max_trace_bytes, lir::eval::spine::kDefaultMaxTraceBytes,
          "spine: the most bytes --trace prints (default 64 MiB); the line "
          "that would pass it is not printed and the run stops with an "
          "error (exit 1). At least 1.");

namespace lir::cli {

int RunSpine(const CommandArgs& args) {
  if (!args.operands.empty()) {
    return UsageError(absl::StrCat(args.command, ": takes no operands, got '",
                                   args.operands[0], "'"));
  }
  if (int exit_code = RequireReportFormat(args.command); exit_code != kExitOk) {
    return exit_code;
  }
  const bool json = absl::GetFlag(FLAGS_format) == OutputFormat::kJson;
  const bool trace = absl::GetFlag(FLAGS_trace);
  if (json && trace) {
    return UsageError(absl::StrCat(
        args.command, ": --trace prints text; drop it or --format=json"));
  }
  eval::spine::Workload workload;
  workload.policy = absl::GetFlag(FLAGS_policy).policy;
  workload.exertion = absl::GetFlag(FLAGS_exertion) == ExertionChoice::kFunded
                          ? eval::spine::Exertion::kFunded
                          : eval::spine::Exertion::kStock;
  workload.snapshot = absl::GetFlag(FLAGS_snapshot);
  workload.batches = absl::GetFlag(FLAGS_batches);
  workload.batch_size = absl::GetFlag(FLAGS_batch_size);
  workload.idle_turns = absl::GetFlag(FLAGS_idle_turns);
  workload.empty_batches = absl::GetFlag(FLAGS_empty_batches);
  workload.close = absl::GetFlag(FLAGS_close);
  workload.max_turns = absl::GetFlag(FLAGS_max_spine_turns);
  const uint64_t max_trace_bytes = absl::GetFlag(FLAGS_max_trace_bytes);
  if (max_trace_bytes == 0) {
    return UsageError(
        absl::StrCat(args.command, ": --max_trace_bytes must be at least 1"));
  }
  if (absl::Status checked = eval::spine::CheckWorkload(workload);
      !checked.ok()) {
    // A limit passed is exit 1, as --max_rows_per_round's; a bad or
    // impossible combination of flags is a usage error.
    if (absl::IsResourceExhausted(checked)) {
      return InputError(
          absl::StrCat("lir-opt: ", args.command, ": ", checked.message()));
    }
    return UsageError(absl::StrCat(args.command, ": ", checked.message()));
  }
  eval::spine::TraceFn print_trace;
  uint64_t trace_bytes = 0;
  if (trace) {
    // Checked before each line is printed, so the output never passes the
    // limit and never ends in a partial line.
    print_trace = [&trace_bytes, max_trace_bytes](
                      std::string_view label,
                      const eval::spine::Spine& spine) -> absl::Status {
      const std::string line = eval::spine::FormatTraceLine(label, spine);
      if (line.size() > max_trace_bytes - trace_bytes) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "stopped at ", ToAbsl(label), ": --trace has printed ", trace_bytes,
            " bytes and the next line would pass the limit of ",
            max_trace_bytes,
            " bytes (raise it with --max_trace_bytes=N, or drop --trace)"));
      }
      trace_bytes += line.size();
      std::cout << line;
      return absl::OkStatus();
    };
  }
  absl::StatusOr<eval::spine::WorkloadResult> result =
      eval::spine::RunWorkload(workload, print_trace);
  if (!result.ok()) {
    std::cout << std::flush;
    return InputError(
        absl::StrCat("lir-opt: spine: ", result.status().message()));
  }
  if (json) {
    std::cout << explain::DumpJson(eval::spine::WorkloadResultToJson(*result),
                                   2)
              << "\n";
  } else {
    std::cout << eval::spine::WorkloadResultToText(*result);
  }
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace lir::cli
