// The spine a trace keeps beside itself (`lir-opt run --spine`,
// SpineOptions in dataflow.h): each round's updates, fingerprinted, are one
// batch of a fueled spine (spine.h), so the merge work and the batches
// differential would keep for this arrangement can be reported. Nothing
// here changes what the trace holds or what any operator reads.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "src/eval/trace.h"

namespace lir::eval {
namespace {

// Salts of the fingerprint's two halves: any two distinct constants.
constexpr uint64_t kFingerprintSaltHigh = 0x9e3779b97f4a7c15;
constexpr uint64_t kFingerprintSaltLow = 0xc2b2ae3d27d4eb4f;

// `records` with every time set to 0, consolidated: the updates summed over
// time, which is what a spine and a trace compacted differently share.
std::vector<spine::Record> SummedOverTime(std::vector<spine::Record> records) {
  for (spine::Record& r : records) r.time = 0;
  spine::Consolidate(records);
  return records;
}

// The first difference between two sorted, consolidated record lists.
std::string FirstRecordDifference(const std::vector<spine::Record>& spine,
                                  const std::vector<spine::Record>& trace) {
  size_t i = 0;
  while (i < spine.size() && i < trace.size() && spine[i] == trace[i]) ++i;
  const auto show = [](const std::vector<spine::Record>& records, size_t at) {
    if (at >= records.size()) return std::string("nothing");
    const spine::Record& r = records[at];
    return absl::StrCat("fingerprint ", absl::Hex(r.fp_hi, absl::kZeroPad16),
                        absl::Hex(r.fp_lo, absl::kZeroPad16), " diff ", r.diff);
  };
  return absl::StrCat("the spine holds ", spine.size(),
                      " distinct updates summed over time, the trace ",
                      trace.size(), "; at position ", i, " the spine has ",
                      show(spine, i), ", the trace ", show(trace, i));
}

// Up to `k` idle turns, each taken only while the spine requests one.
void IdleTurns(spine::Spine& spine, uint64_t k) {
  for (uint64_t turn = 0; turn < k; ++turn) {
    if (!spine.IdleTurn()) return;
  }
}

}  // namespace

std::pair<uint64_t, uint64_t> UpdateFingerprint(const DataRow& key,
                                                const DataRow& val) {
  // absl::Hash of a row agrees with `==` (Datum's AbslHashValue), so equal
  // updates get equal fingerprints, as the trace consolidates them.
  return {absl::HashOf(kFingerprintSaltHigh, key, val),
          absl::HashOf(kFingerprintSaltLow, key, val)};
}

void Trace::EnableSpine(const SpineOptions& options) {
  spine_ = std::make_unique<SpineState>(
      spine::Spine(options.policy, options.exertion), options);
}

std::vector<spine::Record> Trace::RoundRecords(uint64_t round) const {
  std::vector<spine::Record> out;
  // Only a key touched this round holds an update at this round.
  const Batch& b = round_batch_;
  for (size_t k = 0; k < b.keys.size(); ++k) {
    for (size_t u = b.Begin(k); u < b.ends[k]; ++u) {
      const Update& up = b.updates[u];
      if (up.round != round) continue;
      const auto [high, low] = UpdateFingerprint(b.keys[k], b.ValOf(k, up));
      out.push_back(spine::Record{high, low, round, up.diff});
    }
  }
  spine::Consolidate(out);
  return out;
}

void Trace::FeedSpine(uint64_t round, Compaction compaction,
                      std::vector<spine::Record> batch) {
  SpineState& state = *spine_;
  if (state.spine.closed()) return;  // no round follows a close
  // The arrangement's logical frontier: eager compaction consolidates to the
  // round, so the spine's merges may advance times to it; kNone keeps every
  // time (frontier 0).
  if (compaction == Compaction::kEager) {
    state.spine.set_compaction_frontier(round);
  }
  state.spine.Activate(spine::Batch::Real(std::move(batch)));
  IdleTurns(state.spine, state.options.idle_turns);
  state.last_round = round;
}

void Trace::CloseSpine() {
  if (spine_ == nullptr || spine_->spine.closed()) return;
  SpineState& state = *spine_;
  state.spine.ActivateClose();
  IdleTurns(state.spine, state.options.idle_turns);
  if (!state.options.verify) return;
  // A round that failed before its EndRound left updates the spine never
  // saw: compare through the last round fed.
  std::vector<spine::Record> trace;
  if (state.last_round.has_value()) {
    trace = SummedOverTime(SpineRecords(*state.last_round));
  }
  const std::vector<spine::Record> held =
      SummedOverTime(state.spine.Contents());
  state.verified = true;
  if (held != trace) state.mismatch = FirstRecordDifference(held, trace);
}

std::vector<spine::Record> Trace::SpineRecords(uint64_t through) const {
  std::vector<spine::Record> out;
  (void)Seal();
  auto add = [&](const Batch& b) {
    for (size_t k = 0; k < b.keys.size(); ++k) {
      for (size_t u = b.Begin(k); u < b.ends[k]; ++u) {
        const Update& up = b.updates[u];
        if (up.round > through) continue;
        const auto [high, low] = UpdateFingerprint(b.keys[k], b.ValOf(k, up));
        out.push_back(spine::Record{high, low, up.round, up.diff});
      }
    }
  };
  for (const Batch& b : history_) add(b);
  add(round_batch_);
  spine::Consolidate(out);
  return out;
}

}  // namespace lir::eval
