// Differential dataflow's fueled spine and this project's funded exertion,
// as ../shared/reference/SPINE.md states them (sections 1-5): a list of
// layers of batches in size classes, merged a little at a time with fuel,
// with an exertion policy that turns idle activations into merge work, and
// the funded variant that pays for that work from the input.
//
// A batch is either a length (the synthetic model: every update distinct,
// a merge writes the sum of its inputs) or real updates (the evaluator's
// arrangements: a merge advances times to the compaction frontier and
// consolidates, writing the consolidated size). Work is records written,
// fueled or not.
#ifndef LIR_EVAL_SPINE_H_
#define LIR_EVAL_SPINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace lir::eval::spine {

/// Fuel per unit of a batch's size class when a batch is introduced: level L
/// brings `kFuelPerLevelUnit << L` (SPINE.md section 3).
inline constexpr uint64_t kFuelPerLevelUnit = 8;
/// Materialize's effort multiplier.
inline constexpr uint64_t kEffortMultiplier = 1;
/// The effort the proportional policy answers.
inline constexpr uint64_t kProportionalEffort = 1000;
/// Funded exertion (section 5): credit in fuel units per inserted update,
/// grants banked per inserted batch with data, and the bank's cap.
inline constexpr uint64_t kCreditPerUpdate = 8;
inline constexpr uint64_t kBankPerBatch = 8;
inline constexpr uint64_t kBankCap = 64;

/// The largest idle_merge effort accepted: level(E) <= 40 keeps the fuel of
/// the virtual batch it introduces, 8 << level, far from overflow.
inline constexpr uint64_t kMaxIdleMergeEffort = uint64_t{1} << 40;

/// `level(n)`: the exponent of the next power of two at or above `n`;
/// level(0) = level(1) = 0.
int Level(uint64_t n);

/// One real update: a 128-bit fingerprint of its (key, value), its time and
/// its diff. Batches keep them sorted by (fingerprint, time), consolidated.
struct Record {
  uint64_t fp_hi = 0;
  uint64_t fp_lo = 0;
  uint64_t time = 0;
  int64_t diff = 0;

  friend bool operator==(const Record&, const Record&) = default;
};

/// Sorts `records` by (fingerprint, time) and merges equal ones, dropping
/// zero diffs.
void Consolidate(std::vector<Record>& records);

/// An immutable batch: a length, and the records when it is real.
class Batch {
 public:
  /// A synthetic batch of `length` distinct updates.
  static Batch Synthetic(uint64_t length);
  /// A real batch; `records` must be consolidated (see Consolidate).
  static Batch Real(std::vector<Record> records);

  uint64_t length() const { return length_; }
  /// The records of a real batch; null for a synthetic one.
  const std::vector<Record>* records() const { return records_.get(); }

 private:
  uint64_t length_ = 0;
  std::shared_ptr<const std::vector<Record>> records_;
};

/// A layer's content: a batch, or nullopt for a virtual (structurally
/// empty) batch.
using MaybeBatch = std::optional<Batch>;

/// An exertion policy (section 4).
struct Policy {
  enum class Kind { kNone, kIdleMerge, kProportional };
  Kind kind = Kind::kNone;
  /// idle_merge: the effort E; proportional: the proportionality P.
  uint64_t parameter = 0;

  /// `none`, `idle_merge:E` (E >= 1) or `proportional:P`; the error names
  /// what was expected.
  static absl::StatusOr<Policy> Parse(std::string_view text);
  /// The spelling Parse accepts.
  std::string ToString() const;
};

/// How exertion is paid for (section 5).
enum class Exertion { kStock, kFunded };

/// What the policy sees of one layer: (index, count, length).
struct LayerSummary {
  int index = 0;
  int count = 0;
  uint64_t length = 0;
};

/// The policy's answer for layers given from the highest index down.
std::optional<uint64_t> PolicyEffort(const Policy& policy,
                                     const std::vector<LayerSummary>& layers);

/// A layer as reported: its state and length (section 6).
struct LayerView {
  enum class State { kVacant, kSingle, kVirtual, kInProgress, kComplete };
  int level = 0;
  State state = State::kVacant;
  /// Single: the batch's; in progress: both inputs'; complete: the
  /// result's (0 when virtual).
  uint64_t length = 0;
  /// In progress: the inputs' lengths and the records written so far.
  uint64_t first = 0;
  uint64_t second = 0;
  uint64_t done = 0;
  /// Complete: the result is virtual.
  bool virtual_result = false;
};

/// `single`, `virtual`, `in_progress`, `complete` (`vacant` for vacant).
std::string_view StateName(LayerView::State state);

/// The counters of section 6.
struct Counters {
  uint64_t merge_work = 0;
  uint64_t idle_turns_used = 0;
  uint64_t virtual_batches = 0;
  uint64_t grants_credit = 0;
  uint64_t grants_bank = 0;
  uint64_t unfunded_continuations = 0;
  uint64_t declines = 0;
};

/// What the last exert() did, for traces.
enum class ExertAction {
  kNothing,  ///< the policy answered None (or there is no policy)
  kFuel,     ///< apply_fuel: a merge was in progress
  kVirtual,  ///< introduce(virtual, level(e))
  kDecline,  ///< funded, no funds, no merge in progress
};

/// Who paid for the last exert's action.
enum class Payment {
  kFree,      ///< stock, or funded with the input closed (or no action)
  kCredit,    ///< a grant from credit
  kBank,      ///< a grant from the bank
  kUnfunded,  ///< an unfunded continuation of a merge in progress
};

/// One spine.
class Spine {
 public:
  Spine(Policy policy, Exertion exertion);

  /// A spine of synthetic batches in the state `layers` describes, in
  /// Describe()'s notation (`0:S(1) 10:P(1000+1000,done=5) 12:C(-)`), for
  /// tests and what-if runs; the error names the token it could not read.
  static absl::StatusOr<Spine> FromDescription(Policy policy, Exertion exertion,
                                               std::string_view layers);

  /// `insert(batch)` (section 3): fuses an empty batch into a lowest empty
  /// Single, else introduces it at level(length); deposits funds for a
  /// batch with data; requests an activation when the policy would answer.
  void Insert(Batch batch);
  /// `exert()` (sections 3 and 5).
  void Exert();
  /// `tidy_layers()` alone, which every exert() begins with whatever the
  /// policy then answers (a decline included).
  void Tidy();
  /// `close()`: the input's last frontier, an empty batch; every request is
  /// granted from now on.
  void Close();

  /// An activation (section 6): clears the request, inserts, exerts.
  void Activate(Batch batch);
  /// Closing as an activation: clears the request, closes, exerts.
  void ActivateClose();
  /// An idle turn, taken only when an activation was requested: clears the
  /// request and exerts. Returns whether a turn was taken.
  bool IdleTurn();

  /// Whether another activation has been requested.
  bool activation_requested() const { return requested_; }
  bool closed() const { return closed_; }
  ExertAction last_action() const { return last_action_; }
  Payment last_payment() const { return last_payment_; }

  /// Real merges advance times below `frontier` to it before consolidating
  /// (the arrangement's logical compaction frontier).
  void set_compaction_frontier(uint64_t frontier) { frontier_ = frontier; }

  const Counters& counters() const { return counters_; }
  uint64_t credit() const { return credit_; }
  uint64_t bank() const { return bank_; }
  /// Resets the counters, credit and bank (section 6, after the snapshot
  /// settles).
  void ResetAccounting();

  /// Every layer from level 0 up (vacant ones included).
  std::vector<LayerView> Layers() const;
  /// Non-empty batches held: Singles and results with data, and each
  /// non-empty input of a merge in progress.
  uint64_t NonEmptyBatches() const;
  /// Updates held in all batches (a merge in progress counts its inputs).
  uint64_t RecordsHeld() const;
  /// The layers in section 7's notation (`10:C(1000) 12:S(3000)`), vacant
  /// layers left out; `(empty)` when there are none.
  std::string Describe() const;
  /// Every real record held, consolidated across batches (times kept):
  /// what the spine's batches add up to.
  std::vector<Record> Contents() const;

 private:
  struct Layer {
    enum class Kind : uint8_t { kVacant, kSingle, kInProgress, kComplete };
    Kind kind = Kind::kVacant;
    /// kSingle: the batch; kComplete: the result (nullopt: virtual).
    MaybeBatch batch;
    /// kInProgress: the inputs, the result (computed when the merge
    /// begins), and the records written so far of the result's length.
    std::optional<Batch> first;
    std::optional<Batch> second;
    std::optional<Batch> result;
    uint64_t done = 0;
  };

  Layer BeginMerge(MaybeBatch old_batch, MaybeBatch new_batch) const;
  /// One merge step with `fuel` (UINT64_MAX: unlimited) on a layer in
  /// progress; it becomes kComplete only when fuel is left over.
  void Work(Layer& layer, uint64_t fuel);
  void InsertAt(MaybeBatch batch, size_t index);
  MaybeBatch CompleteAt(size_t index);
  void ApplyFuel(uint64_t fuel);
  void RollUp(size_t level);
  void Introduce(MaybeBatch batch, size_t level);
  void TidyLayers();
  std::optional<uint64_t> Effort() const;
  bool AnyDouble() const;
  static uint64_t LayerLength(const Layer& layer);

  Policy policy_;
  Exertion exertion_;
  std::vector<Layer> layers_;
  uint64_t frontier_ = 0;
  bool requested_ = false;
  bool closed_ = false;
  ExertAction last_action_ = ExertAction::kNothing;
  Payment last_payment_ = Payment::kFree;
  uint64_t credit_ = 0;
  uint64_t bank_ = 0;
  Counters counters_;
};

}  // namespace lir::eval::spine

#endif  // LIR_EVAL_SPINE_H_
