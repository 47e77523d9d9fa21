#include "lir/eval/spine_workload.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "src/lir/string_view_compat.h"

namespace lir::eval::spine {
namespace {

/// Exerts idle turns while requested, at most `limit`; returns how many
/// were taken. `label` prefixes each trace line's `idle N`.
uint64_t IdleTurns(Spine& spine, uint64_t limit, absl::string_view label,
                   const TraceFn& trace) {
  uint64_t taken = 0;
  while (taken < limit && spine.IdleTurn()) {
    ++taken;
    if (trace) trace(absl::StrCat(label, " idle ", taken), spine);
  }
  return taken;
}

/// Idle turns until quiet; an error if the spine is still asking after
/// kMaxSettleTurns.
absl::Status Settle(Spine& spine, absl::string_view label,
                    const TraceFn& trace) {
  IdleTurns(spine, kMaxSettleTurns, label, trace);
  if (spine.activation_requested()) {
    return absl::InternalError(
        absl::StrCat(label, ": the spine still requests activations after ",
                     kMaxSettleTurns, " idle turns"));
  }
  return absl::OkStatus();
}

}  // namespace

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
  // Activations and idle turns: n * (1 + E) * (1 + k), computed without
  // overflow (each factor is below 2^64).
  const unsigned __int128 turns =
      static_cast<unsigned __int128>(w.batches) *
      (static_cast<unsigned __int128>(w.empty_batches) + 1) *
      (static_cast<unsigned __int128>(w.idle_turns) + 1);
  if (turns > kMaxWorkloadTurns) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--batches x (1 + --empty_batches) x (1 + --idle_turns) is over the "
        "limit of ",
        kMaxWorkloadTurns, " activations and idle turns"));
  }
  if (static_cast<unsigned __int128>(w.batches) * w.batch_size >
      kMaxWorkloadUpdates) {
    return absl::InvalidArgumentError(
        absl::StrCat("--batches x --batch_size is over the limit of ",
                     kMaxWorkloadUpdates, " updates"));
  }
  return absl::OkStatus();
}

absl::StatusOr<WorkloadResult> RunWorkload(const Workload& w,
                                           const TraceFn& trace) {
  if (absl::Status s = CheckWorkload(w); !s.ok()) return s;
  Spine spine(w.policy, w.exertion);
  if (w.snapshot > 0) {
    spine.Activate(Batch::Synthetic(w.snapshot));
    if (trace) trace(absl::StrCat("snapshot insert ", w.snapshot), spine);
    if (absl::Status s = Settle(spine, "snapshot", trace); !s.ok()) return s;
  }
  spine.ResetAccounting();
  for (uint64_t b = 1; b <= w.batches; ++b) {
    const std::string label = absl::StrCat("batch ", b);
    spine.Activate(Batch::Synthetic(w.batch_size));
    if (trace) trace(absl::StrCat(label, " insert ", w.batch_size), spine);
    IdleTurns(spine, w.idle_turns, label, trace);
    for (uint64_t e = 1; e <= w.empty_batches; ++e) {
      const std::string empty = absl::StrCat(label, " empty ", e);
      spine.Activate(Batch::Synthetic(0));
      if (trace) trace(absl::StrCat(empty, " insert 0"), spine);
      IdleTurns(spine, w.idle_turns, empty, trace);
    }
  }
  if (w.close) {
    spine.ActivateClose();
    if (trace) trace("close insert 0", spine);
    if (absl::Status s = Settle(spine, "close", trace); !s.ok()) return s;
  }
  WorkloadResult result;
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
