#include "lir/eval/spine_workload.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/lir/string_view_compat.h"

namespace lir::eval::spine {
namespace {

using u128 = unsigned __int128;

/// Takes the turns of one run and counts them against `max_turns`; the
/// first turn past the limit is not taken, and the run stops with an error
/// that names the limit and the turn.
class Runner {
 public:
  Runner(Spine& spine, const Workload& workload, const TraceFn& trace)
      : spine_(spine), max_turns_(workload.max_turns), trace_(trace) {}

  uint64_t turns() const { return turns_; }

  /// An activation inserting `batch`; `label` names it in the trace.
  absl::Status Activate(Batch batch, absl::string_view label) {
    if (!Count()) return OverLimit(label);
    spine_.Activate(std::move(batch));
    return Trace(label);
  }
  /// Closing the input as an activation.
  absl::Status ActivateClose(absl::string_view label) {
    if (!Count()) return OverLimit(label);
    spine_.ActivateClose();
    return Trace(label);
  }
  /// Idle turns while requested, at most `limit`; `*taken` counts them.
  /// `label` prefixes each trace line's `idle N` (built only when needed:
  /// a turn itself costs less than a string).
  absl::Status IdleTurns(uint64_t limit, absl::string_view label,
                         uint64_t* taken) {
    *taken = 0;
    while (*taken < limit && spine_.activation_requested()) {
      if (!Count()) {
        return OverLimit(absl::StrCat(label, " idle ", *taken + 1));
      }
      spine_.IdleTurn();
      ++*taken;
      if (trace_) {
        if (absl::Status s = Trace(absl::StrCat(label, " idle ", *taken));
            !s.ok()) {
          return s;
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  /// Counts one more turn; false (and not counted) past the limit.
  bool Count() {
    if (turns_ >= max_turns_) return false;
    ++turns_;
    return true;
  }
  absl::Status OverLimit(absl::string_view label) const {
    return absl::ResourceExhaustedError(absl::StrCat(
        "stopped before ", label, ": the workload needs more than ", max_turns_,
        " activations and idle turns (the limit; raise it with "
        "--max_spine_turns=N)"));
  }
  absl::Status Trace(absl::string_view label) {
    return trace_ ? trace_(ToStd(label), spine_) : absl::OkStatus();
  }

  Spine& spine_;
  const uint64_t max_turns_;
  const TraceFn& trace_;
  uint64_t turns_ = 0;
};

}  // namespace

uint64_t CertainActivations(const Workload& w) {
  // Within CheckWorkload's limits this is below 2^33.
  const u128 n = static_cast<u128>(w.batches) * (u128{w.empty_batches} + 1) +
                 (w.snapshot > 0 ? 1 : 0) + (w.close ? 1 : 0);
  return n > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(n);
}

uint64_t MinDrainTurns(const Workload& w) {
  if (!w.close || w.policy.kind != Policy::Kind::kIdleMerge) return 0;
  const u128 total = static_cast<u128>(w.batches) * w.batch_size + w.snapshot;
  // One batch and no snapshot: the data already sits in one batch.
  if (total <= w.batch_size || total > kMaxWorkloadUpdates * 2) return 0;
  const uint64_t updates = static_cast<uint64_t>(total);
  // The merge that writes all `updates` sits at a layer i with
  // 2^(i+1) >= updates (a layer i holds batches of at most 2^i). Inserts
  // complete merges unfueled up to level(B) (empty batches: level 0),
  // virtual batches up to level(E); above both, only fuel moves it.
  const int final_layer = Level(updates) - 1;
  const int effort_level = Level(w.policy.parameter);
  if (final_layer <= std::max(Level(w.batch_size), effort_level)) return 0;
  // The most fuel one apply_fuel gives a layer: an exert's E, or a virtual
  // batch's 8 << level(E), which is larger.
  const u128 fuel_per_step = u128{kFuelPerLevelUnit} << effort_level;
  // The merge completes only with fuel left over: more than `updates` in all.
  const u128 steps_needed = (u128{updates} + fuel_per_step) / fuel_per_step;
  // apply_fuel calls after the last batch's insert, before the drain: its
  // exert and up to k idle turns; per empty batch, its insert, its exert
  // and up to k idle turns; the close's insert and exert.
  const u128 k = w.idle_turns;
  const u128 before_drain = 1 + k + u128{w.empty_batches} * (2 + k) + 2;
  if (steps_needed <= before_drain) return 0;
  const u128 drain = steps_needed - before_drain;
  return drain > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(drain);
}

absl::Status CheckWorkload(const Workload& w) {
  const auto too_big = [](absl::string_view name, uint64_t value,
                          uint64_t limit) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, "=", value, " is over the limit of ", limit));
  };
  if (w.snapshot > kMaxWorkloadUpdates) {
    return too_big("snapshot", w.snapshot, kMaxWorkloadUpdates);
  }
  if (w.batch_size > kMaxWorkloadUpdates) {
    return too_big("batch_size", w.batch_size, kMaxWorkloadUpdates);
  }
  if (w.batches == 0) {
    return absl::InvalidArgumentError("--batches must be at least 1");
  }
  if (w.batch_size == 0) {
    return absl::InvalidArgumentError("--batch_size must be at least 1");
  }
  if (w.max_turns == 0) {
    return absl::InvalidArgumentError("--max_spine_turns must be at least 1");
  }
  // Activations and idle turns: n * (1 + E) * (1 + k), computed without
  // overflow (each factor is below 2^64).
  const u128 turns = static_cast<u128>(w.batches) *
                     (static_cast<u128>(w.empty_batches) + 1) *
                     (static_cast<u128>(w.idle_turns) + 1);
  if (turns > kMaxWorkloadTurns) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--batches x (1 + --empty_batches) x (1 + --idle_turns) is over the "
        "limit of ",
        kMaxWorkloadTurns, " activations and idle turns"));
  }
  if (static_cast<u128>(w.batches) * w.batch_size > kMaxWorkloadUpdates) {
    return absl::InvalidArgumentError(
        absl::StrCat("--batches x --batch_size is over the limit of ",
                     kMaxWorkloadUpdates, " updates"));
  }
  // Idle turns are taken only while the spine asks, so only activations
  // are certain; the run counts the rest as it goes.
  const uint64_t activations = CertainActivations(w);
  if (activations > w.max_turns) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the workload takes at least ", activations,
        " activations (the snapshot's, --batches x (1 + --empty_batches) and "
        "--close's), more than the limit of ",
        w.max_turns,
        " activations and idle turns (raise it with --max_spine_turns=N)"));
  }
  if (const uint64_t drain = MinDrainTurns(w);
      drain > w.max_turns - activations) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--close cannot settle within the limit of ", w.max_turns,
        " activations and idle turns (--max_spine_turns): under --policy=",
        w.policy.ToString(), " the spine is quiet only once all ",
        w.snapshot + w.batches * w.batch_size,
        " updates sit in one batch, a merge that large is fueled at most ",
        kFuelPerLevelUnit << Level(w.policy.parameter),
        " records per turn, so the drain takes at least ", drain,
        " idle turns; raise the effort E, lower --snapshot, --batches or "
        "--batch_size, drop --close, or raise "
        "--max_spine_turns"));
  }
  return absl::OkStatus();
}

absl::StatusOr<WorkloadResult> RunWorkload(const Workload& w,
                                           const TraceFn& trace) {
  if (absl::Status s = CheckWorkload(w); !s.ok()) return s;
  Spine spine(w.policy, w.exertion);
  Runner run(spine, w, trace);
  uint64_t taken = 0;
  if (w.snapshot > 0) {
    // Settled with unlimited idle turns: only max_turns bounds them.
    if (absl::Status s =
            run.Activate(Batch::Synthetic(w.snapshot),
                         absl::StrCat("snapshot insert ", w.snapshot));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = run.IdleTurns(UINT64_MAX, "snapshot", &taken);
        !s.ok()) {
      return s;
    }
  }
  spine.ResetAccounting();
  for (uint64_t b = 1; b <= w.batches; ++b) {
    const std::string label = absl::StrCat("batch ", b);
    if (absl::Status s =
            run.Activate(Batch::Synthetic(w.batch_size),
                         absl::StrCat(label, " insert ", w.batch_size));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = run.IdleTurns(w.idle_turns, label, &taken); !s.ok()) {
      return s;
    }
    for (uint64_t e = 1; e <= w.empty_batches; ++e) {
      const std::string empty = absl::StrCat(label, " empty ", e);
      if (absl::Status s = run.Activate(Batch::Synthetic(0),
                                        absl::StrCat(empty, " insert 0"));
          !s.ok()) {
        return s;
      }
      if (absl::Status s = run.IdleTurns(w.idle_turns, empty, &taken);
          !s.ok()) {
        return s;
      }
    }
  }
  uint64_t drain_turns = 0;
  if (w.close) {
    if (absl::Status s = run.ActivateClose("close insert 0"); !s.ok()) {
      return s;
    }
    if (absl::Status s = run.IdleTurns(UINT64_MAX, "close", &drain_turns);
        !s.ok()) {
      return s;
    }
  }
  WorkloadResult result;
  result.turns = run.turns();
  result.drain_turns = drain_turns;
  result.counters = spine.counters();
  result.inserted_updates = w.batches * w.batch_size;
  result.work_per_update = static_cast<double>(result.counters.merge_work) /
                           static_cast<double>(result.inserted_updates);
  result.nonempty_batches = spine.NonEmptyBatches();
  for (const LayerView& layer : spine.Layers()) {
    if (layer.state != LayerView::State::kVacant)
      result.layers.push_back(layer);
  }
  result.described = spine.Describe();
  return result;
}

std::string DescribeLastExert(const Spine& spine) {
  std::string out;
  switch (spine.last_action()) {
    case ExertAction::kNothing: out = "none"; break;
    case ExertAction::kFuel: out = "fuel"; break;
    case ExertAction::kVirtual: out = "virtual"; break;
    case ExertAction::kDecline: out = "decline"; break;
  }
  switch (spine.last_payment()) {
    case Payment::kFree: break;
    case Payment::kCredit: out += "/credit"; break;
    case Payment::kBank: out += "/bank"; break;
    case Payment::kUnfunded: out += "/unfunded"; break;
  }
  return out;
}

std::string FormatTraceLine(std::string_view label, const Spine& spine) {
  return absl::StrCat(ToAbsl(label), ": ", DescribeLastExert(spine), " | ",
                      spine.Describe(), " | work ", spine.counters().merge_work,
                      "\n");
}

nlohmann::json WorkloadResultToJson(const WorkloadResult& r) {
  nlohmann::json layers = nlohmann::json::array();
  for (const LayerView& layer : r.layers) {
    layers.push_back({{"level", layer.level},
                      {"state", StateName(layer.state)},
                      {"length", layer.length}});
  }
  const Counters& c = r.counters;
  return {{"merge_work", c.merge_work},
          {"work_per_update", r.work_per_update},
          {"idle_turns_used", c.idle_turns_used},
          {"virtual_batches", c.virtual_batches},
          {"grants_credit", c.grants_credit},
          {"grants_bank", c.grants_bank},
          {"unfunded_continuations", c.unfunded_continuations},
          {"declines", c.declines},
          {"nonempty_batches", r.nonempty_batches},
          {"layers", std::move(layers)}};
}

std::string WorkloadResultToText(const WorkloadResult& r) {
  const Counters& c = r.counters;
  return absl::StrFormat(
      "merge_work %d\n"
      "work_per_update %.6g\n"
      "idle_turns_used %d\n"
      "virtual_batches %d\n"
      "grants_credit %d\n"
      "grants_bank %d\n"
      "unfunded_continuations %d\n"
      "declines %d\n"
      "nonempty_batches %d\n"
      "layers %s\n",
      c.merge_work, r.work_per_update, c.idle_turns_used, c.virtual_batches,
      c.grants_credit, c.grants_bank, c.unfunded_continuations, c.declines,
      r.nonempty_batches, r.described);
}

}  // namespace lir::eval::spine
