#include "lir/eval/spine.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "src/lir/string_view_compat.h"

namespace lir::eval::spine {
namespace {

constexpr uint64_t kUnlimitedFuel = std::numeric_limits<uint64_t>::max();

bool RecordLess(const Record& a, const Record& b) {
  return std::tie(a.fp_hi, a.fp_lo, a.time) <
         std::tie(b.fp_hi, b.fp_lo, b.time);
}

bool SameUpdate(const Record& a, const Record& b) {
  return a.fp_hi == b.fp_hi && a.fp_lo == b.fp_lo && a.time == b.time;
}

/// Appends `r` (time already advanced) to `out`, which is sorted and
/// consolidated except possibly for its last record: merges with an equal
/// last record, dropping it when the diffs cancel.
void AppendConsolidating(std::vector<Record>& out, const Record& r) {
  if (!out.empty() && SameUpdate(out.back(), r)) {
    out.back().diff += r.diff;
    if (out.back().diff == 0) out.pop_back();
    return;
  }
  if (r.diff != 0) out.push_back(r);
}

/// The merge of two consolidated real batches with times advanced to
/// `frontier`. Advancing is monotone in time, so the (fingerprint, time)
/// order of a two-way merge survives it and equal updates are adjacent.
std::vector<Record> MergeRecords(const std::vector<Record>& a,
                                 const std::vector<Record>& b,
                                 uint64_t frontier) {
  std::vector<Record> out;
  out.reserve(a.size() + b.size());
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a =
        j == b.size() || (i < a.size() && !RecordLess(b[j], a[i]));
    Record r = take_a ? a[i++] : b[j++];
    r.time = std::max(r.time, frontier);
    // A cancelled record may have exposed an equal one below it only if
    // consolidation were not adjacent; with sorted inputs it is.
    AppendConsolidating(out, r);
  }
  return out;
}

}  // namespace

int Level(uint64_t n) {
  if (n <= 1) return 0;
  return static_cast<int>(std::bit_width(n - 1));
}

void Consolidate(std::vector<Record>& records) {
  std::sort(records.begin(), records.end(), RecordLess);
  std::vector<Record> out;
  out.reserve(records.size());
  for (const Record& r : records) AppendConsolidating(out, r);
  records = std::move(out);
}

Batch Batch::Synthetic(uint64_t length) {
  Batch b;
  b.length_ = length;
  return b;
}

Batch Batch::Real(std::vector<Record> records) {
  Batch b;
  b.length_ = records.size();
  b.records_ = std::make_shared<const std::vector<Record>>(std::move(records));
  return b;
}

absl::StatusOr<Policy> Policy::Parse(std::string_view text_view) {
  const absl::string_view text = ToAbsl(text_view);
  const auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "expected none, idle_merge:E (E an integer from 1 to ",
        kMaxIdleMergeEffort,
        ") or proportional:P (P a non-negative integer), got '", text, "'"));
  };
  // Digits only: SimpleAtoi would also take a sign and spaces.
  const auto number = [](absl::string_view digits, uint64_t* value) {
    return !digits.empty() &&
           std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit) &&
           absl::SimpleAtoi(digits, value);
  };
  Policy policy;
  if (text == "none") return policy;
  absl::string_view rest = text;
  uint64_t value = 0;
  if (absl::ConsumePrefix(&rest, "idle_merge:")) {
    // level(E) sizes a virtual batch, whose fuel 8 << level must not
    // overflow.
    if (!number(rest, &value) || value == 0 || value > kMaxIdleMergeEffort) {
      return bad();
    }
    policy.kind = Kind::kIdleMerge;
  } else if (absl::ConsumePrefix(&rest, "proportional:")) {
    if (!number(rest, &value)) return bad();
    policy.kind = Kind::kProportional;
  } else {
    return bad();
  }
  policy.parameter = value;
  return policy;
}

std::string Policy::ToString() const {
  switch (kind) {
    case Kind::kNone: return "none";
    case Kind::kIdleMerge: return absl::StrCat("idle_merge:", parameter);
    case Kind::kProportional: return absl::StrCat("proportional:", parameter);
  }
  return "?";
}

std::optional<uint64_t> PolicyEffort(const Policy& policy,
                                     const std::vector<LayerSummary>& layers) {
  switch (policy.kind) {
    case Policy::Kind::kNone: return std::nullopt;
    case Policy::Kind::kIdleMerge: {
      int non_empty = 0;
      for (const LayerSummary& layer : layers) {
        if (layer.count > 1) return policy.parameter;
        if (layer.length > 0 && ++non_empty > 1) return policy.parameter;
      }
      return std::nullopt;
    }
    case Policy::Kind::kProportional: {
      uint64_t p = policy.parameter;
      bool first = true;
      bool skipping = true;
      for (const LayerSummary& layer : layers) {
        if (skipping && layer.count == 0) continue;
        skipping = false;
        if (layer.count > 1) return kProportionalEffort;
        if (!first && p > 0 && layer.length > 0) return kProportionalEffort;
        first = false;
        p /= 2;
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string_view StateName(LayerView::State state) {
  switch (state) {
    case LayerView::State::kVacant: return "vacant";
    case LayerView::State::kSingle: return "single";
    case LayerView::State::kVirtual: return "virtual";
    case LayerView::State::kInProgress: return "in_progress";
    case LayerView::State::kComplete: return "complete";
  }
  return "?";
}

Spine::Spine(Policy policy, Exertion exertion)
    : policy_(policy), exertion_(exertion) {}

absl::StatusOr<Spine> Spine::FromDescription(Policy policy, Exertion exertion,
                                             std::string_view layers_view) {
  const absl::string_view layers = ToAbsl(layers_view);
  Spine spine(policy, exertion);
  if (layers == "(empty)") return spine;
  for (absl::string_view token :
       absl::StrSplit(layers, ' ', absl::SkipEmpty())) {
    const auto bad = [&] {
      return absl::InvalidArgumentError(absl::StrCat(
          "expected LEVEL:S(n), LEVEL:S(-), LEVEL:C(n), LEVEL:C(-) or "
          "LEVEL:P(a+b,done=w) with levels increasing, got '",
          token, "'"));
    };
    const size_t colon = token.find(':');
    uint64_t level = 0;
    if (colon == absl::string_view::npos || token.size() < colon + 4 ||
        token.back() != ')' || token[colon + 2] != '(' ||
        !absl::SimpleAtoi(token.substr(0, colon), &level) || level > 62 ||
        level < spine.layers_.size()) {
      return bad();
    }
    const char state = token[colon + 1];
    absl::string_view inside =
        token.substr(colon + 3, token.size() - colon - 4);
    Layer layer;
    uint64_t a = 0;
    uint64_t b = 0;
    if (state == 'P') {
      std::vector<absl::string_view> parts =
          absl::StrSplit(inside, absl::ByAnyChar("+,="));
      if (parts.size() != 4 || parts[2] != "done" ||
          !absl::SimpleAtoi(parts[0], &a) || !absl::SimpleAtoi(parts[1], &b) ||
          !absl::SimpleAtoi(parts[3], &layer.done) || layer.done > a + b) {
        return bad();
      }
      layer.kind = Layer::Kind::kInProgress;
      layer.first = Batch::Synthetic(a);
      layer.second = Batch::Synthetic(b);
      layer.result = Batch::Synthetic(a + b);
    } else if (state == 'S' || state == 'C') {
      layer.kind = state == 'S' ? Layer::Kind::kSingle : Layer::Kind::kComplete;
      if (inside != "-") {
        if (!absl::SimpleAtoi(inside, &a)) return bad();
        layer.batch = Batch::Synthetic(a);
      }
    } else {
      return bad();
    }
    spine.layers_.resize(level + 1);
    spine.layers_[level] = std::move(layer);
  }
  return spine;
}

uint64_t Spine::LayerLength(const Layer& layer) {
  switch (layer.kind) {
    case Layer::Kind::kVacant: return 0;
    case Layer::Kind::kSingle:
    case Layer::Kind::kComplete: return layer.batch ? layer.batch->length() : 0;
    case Layer::Kind::kInProgress:
      return layer.first->length() + layer.second->length();
  }
  return 0;
}

Spine::Layer Spine::BeginMerge(MaybeBatch old_batch,
                               MaybeBatch new_batch) const {
  Layer layer;
  if (old_batch && new_batch) {
    layer.kind = Layer::Kind::kInProgress;
    if (old_batch->records() != nullptr || new_batch->records() != nullptr) {
      // Real updates (an empty batch, such as the one close() inserts, may
      // be synthetic).
      static const std::vector<Record> kNoRecords;
      const auto records = [](const Batch& b) -> const std::vector<Record>& {
        return b.records() != nullptr ? *b.records() : kNoRecords;
      };
      layer.result = Batch::Real(
          MergeRecords(records(*old_batch), records(*new_batch), frontier_));
    } else {
      // Synthetic: every update distinct.
      layer.result =
          Batch::Synthetic(old_batch->length() + new_batch->length());
    }
    layer.first = std::move(old_batch);
    layer.second = std::move(new_batch);
    return layer;
  }
  layer.kind = Layer::Kind::kComplete;
  layer.batch = old_batch ? std::move(old_batch) : std::move(new_batch);
  return layer;
}

void Spine::Work(Layer& layer, uint64_t fuel) {
  if (layer.kind != Layer::Kind::kInProgress) return;
  const uint64_t remaining = layer.result->length() - layer.done;
  const uint64_t written = std::min(fuel, remaining);
  layer.done += written;
  counters_.merge_work += written;
  // The exact-equality rule: complete only with fuel left over.
  if (fuel - written > 0) {
    Layer complete;
    complete.kind = Layer::Kind::kComplete;
    complete.batch = std::move(layer.result);
    layer = std::move(complete);
  }
}

void Spine::InsertAt(MaybeBatch batch, size_t index) {
  if (layers_.size() <= index) layers_.resize(index + 1);
  Layer& layer = layers_[index];
  switch (layer.kind) {
    case Layer::Kind::kVacant:
      layer.kind = Layer::Kind::kSingle;
      layer.batch = std::move(batch);
      return;
    case Layer::Kind::kSingle: {
      MaybeBatch old_batch = std::move(layer.batch);
      layer = BeginMerge(std::move(old_batch), std::move(batch));
      return;
    }
    case Layer::Kind::kInProgress:
    case Layer::Kind::kComplete:
      // Differential panics here; the spine's invariants rule it out.
      std::abort();
  }
}

MaybeBatch Spine::CompleteAt(size_t index) {
  Layer& layer = layers_[index];
  if (layer.kind == Layer::Kind::kInProgress) Work(layer, kUnlimitedFuel);
  MaybeBatch out = std::move(layer.batch);
  layer = Layer();
  return out;
}

void Spine::ApplyFuel(uint64_t fuel) {
  const size_t at_entry = layers_.size();
  for (size_t i = 0; i < at_entry; ++i) {
    Work(layers_[i], fuel);
    if (layers_[i].kind == Layer::Kind::kComplete) {
      MaybeBatch done = CompleteAt(i);
      InsertAt(std::move(done), i + 1);
    }
  }
}

void Spine::RollUp(size_t level) {
  if (layers_.size() <= level) layers_.resize(level + 1);
  bool any_below = false;
  for (size_t i = 0; i < level; ++i) {
    if (layers_[i].kind != Layer::Kind::kVacant) any_below = true;
  }
  if (!any_below) return;
  MaybeBatch carry;  // starts virtual
  for (size_t i = 0; i < level; ++i) {
    InsertAt(std::move(carry), i);
    carry = CompleteAt(i);
  }
  InsertAt(std::move(carry), level);
  const Layer::Kind kind = layers_[level].kind;
  if (kind == Layer::Kind::kInProgress || kind == Layer::Kind::kComplete) {
    MaybeBatch merged = CompleteAt(level);
    InsertAt(std::move(merged), level + 1);
  }
}

void Spine::Introduce(MaybeBatch batch, size_t level) {
  ApplyFuel((kFuelPerLevelUnit << level) * kEffortMultiplier);
  RollUp(level);
  InsertAt(std::move(batch), level);
  TidyLayers();
}

void Spine::Tidy() { TidyLayers(); }

void Spine::TidyLayers() {
  if (layers_.empty() || layers_.back().kind != Layer::Kind::kSingle) return;
  const size_t target = static_cast<size_t>(Level(LayerLength(layers_.back())));
  while (target < layers_.size() - 1) {
    const size_t n = layers_.size();
    Layer& below = layers_[n - 2];
    if (below.kind == Layer::Kind::kVacant ||
        (below.kind == Layer::Kind::kSingle && !below.batch)) {
      layers_.erase(layers_.begin() + static_cast<ptrdiff_t>(n - 2));
      continue;
    }
    if (below.kind != Layer::Kind::kSingle) return;  // a merge: stop
    uint64_t smaller = 0;
    for (size_t j = 0; j + 2 < n; ++j) {
      switch (layers_[j].kind) {
        case Layer::Kind::kVacant: break;
        case Layer::Kind::kSingle: smaller += uint64_t{1} << j; break;
        case Layer::Kind::kInProgress:
        case Layer::Kind::kComplete: smaller += uint64_t{2} << j; break;
      }
    }
    if (smaller <= (uint64_t{1} << n) / 8) {
      MaybeBatch batch = std::move(below.batch);
      layers_.erase(layers_.begin() + static_cast<ptrdiff_t>(n - 2));
      InsertAt(std::move(batch), n - 2);
    }
    return;
  }
}

bool Spine::AnyDouble() const {
  for (const Layer& layer : layers_) {
    if (layer.kind == Layer::Kind::kInProgress ||
        layer.kind == Layer::Kind::kComplete) {
      return true;
    }
  }
  return false;
}

std::optional<uint64_t> Spine::Effort() const {
  if (policy_.kind == Policy::Kind::kNone) return std::nullopt;
  std::vector<LayerSummary> summary;
  summary.reserve(layers_.size());
  for (size_t i = layers_.size(); i-- > 0;) {
    const Layer& layer = layers_[i];
    int count = 0;
    switch (layer.kind) {
      case Layer::Kind::kVacant: count = 0; break;
      case Layer::Kind::kSingle: count = 1; break;
      case Layer::Kind::kInProgress:
      case Layer::Kind::kComplete: count = 2; break;
    }
    summary.push_back({static_cast<int>(i), count, LayerLength(layer)});
  }
  return PolicyEffort(policy_, summary);
}

void Spine::Insert(Batch batch) {
  const uint64_t length = batch.length();
  if (length > 0) {
    credit_ += kCreditPerUpdate * length;
    bank_ = std::min(kBankCap, bank_ + kBankPerBatch);
  }
  bool fused = false;
  if (length == 0) {
    for (size_t i = 0; i < layers_.size(); ++i) {
      if (layers_[i].kind == Layer::Kind::kVacant) continue;
      if (layers_[i].kind == Layer::Kind::kSingle &&
          LayerLength(layers_[i]) == 0) {
        InsertAt(std::move(batch), i);
        MaybeBatch merged = CompleteAt(i);
        layers_[i].kind = Layer::Kind::kSingle;
        layers_[i].batch = std::move(merged);
        fused = true;
      }
      break;
    }
  }
  if (!fused) Introduce(std::move(batch), static_cast<size_t>(Level(length)));
  if (Effort().has_value()) requested_ = true;
}

void Spine::Exert() {
  last_action_ = ExertAction::kNothing;
  last_payment_ = Payment::kFree;
  TidyLayers();
  const std::optional<uint64_t> effort = Effort();
  if (!effort) return;
  const bool any_double = AnyDouble();
  if (exertion_ == Exertion::kFunded && !closed_) {
    // A turn consumes at most one grant: credit first, then the bank.
    if (credit_ >= *effort) {
      credit_ -= *effort;
      ++counters_.grants_credit;
      last_payment_ = Payment::kCredit;
    } else if (bank_ > 0) {
      --bank_;
      ++counters_.grants_bank;
      last_payment_ = Payment::kBank;
    } else if (any_double) {
      // A merge in progress always finishes.
      ++counters_.unfunded_continuations;
      last_payment_ = Payment::kUnfunded;
      ApplyFuel(*effort);
      last_action_ = ExertAction::kFuel;
      requested_ = true;
      return;
    } else {
      ++counters_.declines;
      last_action_ = ExertAction::kDecline;
      return;
    }
  }
  if (any_double) {
    ApplyFuel(*effort);
    last_action_ = ExertAction::kFuel;
  } else {
    ++counters_.virtual_batches;
    Introduce(std::nullopt, static_cast<size_t>(Level(*effort)));
    last_action_ = ExertAction::kVirtual;
  }
  requested_ = true;
}

void Spine::Close() {
  closed_ = true;
  Insert(Batch::Synthetic(0));
}

void Spine::Activate(Batch batch) {
  requested_ = false;
  Insert(std::move(batch));
  Exert();
}

void Spine::ActivateClose() {
  requested_ = false;
  Close();
  Exert();
}

bool Spine::IdleTurn() {
  if (!requested_) return false;
  requested_ = false;
  ++counters_.idle_turns_used;
  Exert();
  return true;
}

void Spine::ResetAccounting() {
  counters_ = Counters();
  credit_ = 0;
  bank_ = 0;
}

std::vector<LayerView> Spine::Layers() const {
  std::vector<LayerView> out;
  out.reserve(layers_.size());
  for (size_t i = 0; i < layers_.size(); ++i) {
    const Layer& layer = layers_[i];
    LayerView view;
    view.level = static_cast<int>(i);
    view.length = LayerLength(layer);
    switch (layer.kind) {
      case Layer::Kind::kVacant: view.state = LayerView::State::kVacant; break;
      case Layer::Kind::kSingle:
        view.state = layer.batch ? LayerView::State::kSingle
                                 : LayerView::State::kVirtual;
        break;
      case Layer::Kind::kInProgress:
        view.state = LayerView::State::kInProgress;
        view.first = layer.first->length();
        view.second = layer.second->length();
        view.done = layer.done;
        break;
      case Layer::Kind::kComplete:
        view.state = LayerView::State::kComplete;
        view.virtual_result = !layer.batch.has_value();
        break;
    }
    out.push_back(view);
  }
  return out;
}

uint64_t Spine::NonEmptyBatches() const {
  uint64_t n = 0;
  for (const Layer& layer : layers_) {
    switch (layer.kind) {
      case Layer::Kind::kVacant: break;
      case Layer::Kind::kSingle:
      case Layer::Kind::kComplete:
        n += layer.batch && layer.batch->length() > 0 ? 1 : 0;
        break;
      case Layer::Kind::kInProgress:
        n += layer.first->length() > 0 ? 1 : 0;
        n += layer.second->length() > 0 ? 1 : 0;
        break;
    }
  }
  return n;
}

uint64_t Spine::RecordsHeld() const {
  uint64_t n = 0;
  for (const Layer& layer : layers_) n += LayerLength(layer);
  return n;
}

std::string Spine::Describe() const {
  std::vector<std::string> parts;
  for (const LayerView& v : Layers()) {
    switch (v.state) {
      case LayerView::State::kVacant: continue;
      case LayerView::State::kSingle:
        parts.push_back(absl::StrCat(v.level, ":S(", v.length, ")"));
        break;
      case LayerView::State::kVirtual:
        parts.push_back(absl::StrCat(v.level, ":S(-)"));
        break;
      case LayerView::State::kInProgress:
        parts.push_back(absl::StrCat(v.level, ":P(", v.first, "+", v.second,
                                     ",done=", v.done, ")"));
        break;
      case LayerView::State::kComplete:
        parts.push_back(v.virtual_result
                            ? absl::StrCat(v.level, ":C(-)")
                            : absl::StrCat(v.level, ":C(", v.length, ")"));
        break;
    }
  }
  return parts.empty() ? "(empty)" : absl::StrJoin(parts, " ");
}

std::vector<Record> Spine::Contents() const {
  std::vector<Record> all;
  const auto add = [&all](const MaybeBatch& batch) {
    if (batch && batch->records() != nullptr) {
      all.insert(all.end(), batch->records()->begin(), batch->records()->end());
    }
  };
  for (const Layer& layer : layers_) {
    switch (layer.kind) {
      case Layer::Kind::kVacant: break;
      case Layer::Kind::kSingle:
      case Layer::Kind::kComplete: add(layer.batch); break;
      case Layer::Kind::kInProgress:
        add(layer.first);
        add(layer.second);
        break;
    }
  }
  Consolidate(all);
  return all;
}

}  // namespace lir::eval::spine
