// The antijoin A/B: the incremental engine (include/lir/eval/incremental.h)
// maintaining the stacked LEFT JOIN
//   SELECT * FROM left LEFT JOIN right1 ON left.x = right1.x
//                      LEFT JOIN right2 ON left.x = right2.x
// with right1 keyed on x, under three plans from the same Materialize-style
// verbose EXPLAIN text (kPlanText, modelled on the plan Materialize prints
// for this query):
//   rewrite 0  off: both anti-sides are Threshold::Basic over the
//              co-arranged Union (trace T and the Threshold's output)
//   rewrite 1  SetDifference: lir::Optimize with enable_fused_set_difference
//              only; right1's anti-side becomes a SetDifference (drops T)
//   rewrite 2  AntiJoin: lir::Optimize with enable_antijoin_rendering only;
//              right1's anti-side becomes an AntiJoin (drops T and the
//              Threshold output). Both flags on give the same plan (antijoin
//              runs first and fused_set_difference finds no Threshold left
//              there): GetPlans checks it.
// right2's anti-side stays a Threshold in all three: right2 is read as a raw
// collection, so neither pass finds its keys arranged (not_co_arranged).
//
// right1 reaches the join through `TopK::MonotonicTop1 group_by=[#0]`, as in
// Materialize's plan: the TopK proves the keys arm a set. Materialize plans
// MonotonicTop1 only over an insert-only input, so the retraction round is
// outside what that plan promises; the evaluator's MonotonicTop1 recomputes
// each changed group from its accumulated input, so a retraction removes the
// group's row, which is the LEFT JOIN's answer (checked below). right1's
// unique key [#0] is also declared (AnalysisInputs::global_unique_keys, what
// `lir-opt --catalog` gives), though the TopK alone suffices here.
//
// Materialize prints the join as a Join::Delta with a single path (from
// `left`). The incremental engine runs such a join through its
// recompute-and-diff adapter (src/eval/incremental_adapter.cc), which
// re-evaluates the whole join every round and holds each input in a trace
// with an empty key; Trace::InsertAt's scan for a same-round update of the
// same value then makes a round quadratic in its rows (100K left rows: about
// 150 s to load in a RelWithDebInfo build). So kPlanText gives the delta join a
// path from each input (plan_path[1] and [2], with their closures written to
// produce the same rows) and arranges `left` by x for their lookups, which a
// delta join needs: the engine runs that join natively, and the three plans
// differ only in the anti-sides. That adds one arrangement (left by x), the
// same in all three.
//
// Data, one-integer-key rows with multiplicity 1, N = the argument `rows`:
//   left    N rows (i, i), i in [0, N)
//   right1  N/2 rows (x, x + 1), x the even keys: keyed on x
//   right2  N/2 rows (3 * (j mod K), j), j in [0, N/2), K = ceil(N/3): every
//           third key, the first N/2 - K of them twice (not keyed)
// so each anti-side (left keys missing from a right side) is non-trivial:
// the odd keys for right1, the keys not divisible by 3 for right2.
// Arguments: rows N; rewrite 0, 1, 2 as above. Compaction is eager.
// Two phases, each its own benchmark:
//   OuterJoinLoad     timed: building the dataflow and stepping round 0 with
//                     all three inputs (2N updates)
//   OuterJoinRetract  untimed: the same build and load; timed: round 1,
//                     which deletes 10% of right1 (the keys divisible by 20,
//                     N/20 updates), moving those left rows to null-extended
// Reading the output's checksum and the arrangement sizes and tearing the
// dataflow down are not timed.
// Reported per run:
//   updates, updates_per_s   input updates of the timed round, and per
//                            second of wall time
//   records, batches, bytes  sums over Dataflow::Arrangements() after the
//                            timed round, without recompute-adapter state
//                            (none with this plan; counted apart in
//                            adapter_records and adapter_bytes, reported
//                            only when there is some); the label lists
//                            each as
//                            `<operator> (<where>): <r>r/<b>b/<B>B`
//   arrangements             how many arrangements that is; a run where it
//                            is not what the rewrite report's accounting
//                            (include/lir/interp/arrangements_built.h) says is
//                            an error
//   output_rows              size of the accumulated output: N - K + N/2;
//                            a run whose accumulated output differs from the
//                            LEFT JOIN's answer (count and an
//                            order-independent hash of every row) is an error
//   output_changes           rows in the timed round's output changes
// CPU time is the benchmark's own column (the engine is single-threaded).
// Run with --benchmark_repetitions=N for min and median (scripts/bench.sh);
// small size for CI: --benchmark_filter='/rows:100000/'.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/datum.h"
#include "lir/eval/incremental.h"
#include "lir/explain/text.h"
#include "lir/interp/inputs.h"
#include "lir/node.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"

namespace {

using lir::eval::ArrangementStats;
using lir::eval::Compaction;
using lir::eval::DataRow;
using lir::eval::Datum;
using lir::eval::GlobalChanges;
using lir::eval::Multiset;

constexpr char kLeft[] = "materialize.public.left";
constexpr char kRight1[] = "materialize.public.right1";
constexpr char kRight2[] = "materialize.public.right2";

// Materialize's verbose physical plan for the stacked LEFT JOIN, in its
// shape: l0 keeps one right1 row per key, l1 is the distinct left keys (and
// the null key Materialize's outer-join lowering adds); each join input
// after `left` is a right side unioned with its anti-side (the left keys it
// lacks, null-extended), the anti-side a Threshold over trace T. Unlike
// Materialize's print, the delta join has a path from every input (see the
// header comment); each path ends in rows (left.x, left.y, right1.x,
// right1.v, right2.x, right2.v), the right side's columns null when it has
// no match (its `true` marker column is null).
constexpr char kPlanText[] = R"(Explained Query:
  With
    cte l0 =
      TopK::MonotonicTop1 group_by=[#0] must_consolidate
        Get::Collection materialize.public.right1
          raw=true
    cte l1 =
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Union
          Get::Collection materialize.public.left
            project=(#0)
            raw=true
          Constant
            - (null)
  Return
    Join::Delta
      plan_path[0]
        delta_stage[1]
          closure
            project=(#0..=#3, #7, #8)
            map=((#5) IS NULL, case when #6 then null else #0 end, case when #6 then null else #4 end)
          lookup={ relation=2, key=[#0] }
          stream={ key=[#0], thinning=(#1..=#3) }
        delta_stage[0]
          closure
            project=(#0, #1, #5, #6)
            map=((#3) IS NULL, case when #4 then null else #0 end, case when #4 then null else #2 end)
          lookup={ relation=1, key=[#0] }
          stream={ key=[#0], thinning=(#1) }
        source={ relation=0, raw }
      plan_path[1]
        delta_stage[1]
          closure
            project=(#0..=#3, #7, #8)
            map=((#5) IS NULL, case when #6 then null else #0 end, case when #6 then null else #4 end)
          lookup={ relation=2, key=[#0] }
          stream={ key=[#0], thinning=(#1..=#3) }
        delta_stage[0]
          closure
            project=(#0, #3, #5, #6)
            map=((#2) IS NULL, case when #4 then null else #0 end, case when #4 then null else #1 end)
          lookup={ relation=0, key=[#0] }
          stream={ key=[#0], thinning=(#1, #2) }
        source={ relation=1, raw }
      plan_path[2]
        delta_stage[1]
          closure
            project=(#0, #1, #8..=#11)
            map=((#5) IS NULL, (#3) IS NULL, case when #6 then null else #0 end, case when #6 then null else #4 end, case when #7 then null else #0 end, case when #7 then null else #2 end)
          lookup={ relation=1, key=[#0] }
          stream={ key=[#0], thinning=(#1..=#3) }
        delta_stage[0]
          closure
            project=(#0, #3, #1, #2)
          lookup={ relation=0, key=[#0] }
          stream={ key=[#0], thinning=(#1, #2) }
        source={ relation=2, raw }
      ArrangeBy
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
        Get::PassArrangements materialize.public.left
          raw=true
      ArrangeBy
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1, #2) }
        Union
          Get::Arrangement l0
            project=(#0..=#2)
            map=(true)
            key=#0
            raw=false
            arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
          Mfp
            project=(#0..=#2)
            map=(null, null)
            input_key=#0
            Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
              ArrangeBy
                raw=false
                arrangements[0]={ key=[#0], permutation=id, thinning=() }
                Union consolidate_output=true
                  Negate
                    Get::Arrangement l0
                      project=(#0)
                      key=#0
                      raw=false
                      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
                  ArrangeBy
                    input_key=[#0]
                    raw=true
                    Get::PassArrangements l1
                      raw=false
                      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      ArrangeBy
        raw=true
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1, #2) }
        Union
          Get::Collection materialize.public.right2
            project=(#0..=#2)
            map=(true)
            raw=true
          Mfp
            project=(#0..=#2)
            map=(null, null)
            input_key=#0
            Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
              ArrangeBy
                raw=false
                arrangements[0]={ key=[#0], permutation=id, thinning=() }
                Union consolidate_output=true
                  Negate
                    Get::Collection materialize.public.right2
                      project=(#0)
                      raw=true
                  ArrangeBy
                    input_key=[#0]
                    raw=true
                    Get::PassArrangements l1
                      raw=false
                      arrangements[0]={ key=[#0], permutation=id, thinning=() }

Source materialize.public.left
Source materialize.public.right1
  filter=((#0) IS NOT NULL)
Source materialize.public.right2
  filter=((#0) IS NOT NULL)

Target cluster: quickstart
)";

constexpr int kRewrites = 3;
const char* const kRewriteNames[kRewrites] = {"off", "SetDifference",
                                              "AntiJoin"};

// Where each node sits in the plan, for naming its arrangements: "trace T,
// right1 anti-side", "join input 2, right2 side", ...
class Places {
 public:
  explicit Places(const lir::Node& root) { Visit(root, nullptr, -1); }

  /// The place of node `id`, empty when it has none worth naming.
  std::string Of(lir::LirId id) const {
    auto it = places_.find(id);
    return it == places_.end() ? "" : it->second;
  }

 private:
  // The globals the subtree reads, locals resolved through their Lets.
  std::set<std::string> Reads(const lir::Node& n) {
    std::set<std::string> out;
    if (const auto* get = n.If<lir::GetOp>()) {
      if (!get->id.is_local) {
        out.insert(get->id.global);
      } else if (auto it = locals_.find(get->id.local); it != locals_.end()) {
        out = it->second;
      }
    }
    for (const lir::NodePtr& in : n.inputs) {
      std::set<std::string> below = Reads(*in);
      out.insert(below.begin(), below.end());
    }
    return out;
  }

  std::string Side(const lir::Node& n) {
    std::set<std::string> reads = Reads(n);
    if (reads.contains(kRight2)) return "right2";
    if (reads.contains(kRight1)) return "right1";
    return "left";
  }

  // `join_input`: the node's index among its Join parent's inputs, or -1.
  void Visit(const lir::Node& n, const lir::Node* parent, int join_input) {
    if (const auto* let = n.If<lir::LetOp>()) {
      locals_[let->id] = Reads(*n.inputs[0]);
    }
    if (n.Is<lir::TopKOp>()) {
      places_[n.id] = "l0: TopK of right1";
    } else if (n.Is<lir::ReduceOp>()) {
      places_[n.id] = "l1: Distinct of left keys";
    } else if (n.Is<lir::ThresholdOp>() || n.Is<lir::SetDifferenceOp>() ||
               n.Is<lir::AntiJoinOp>()) {
      places_[n.id] = absl::StrCat(Side(n), " anti-side");
    } else if (n.Is<lir::ArrangeByOp>() && parent != nullptr &&
               parent->Is<lir::ThresholdOp>()) {
      places_[n.id] = absl::StrCat("trace T, ", Side(n), " anti-side");
    } else if (join_input >= 0) {
      places_[n.id] =
          absl::StrCat("join input ", join_input, ", ", Side(n), " side");
    } else if (n.Is<lir::JoinOp>()) {
      places_[n.id] = "join";
    }
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      Visit(*n.inputs[i], &n, n.Is<lir::JoinOp>() ? static_cast<int>(i) : -1);
    }
  }

  std::map<uint64_t, std::set<std::string>> locals_;
  std::map<lir::LirId, std::string> places_;
};

// Nodes of each kind in `plan`.
std::map<lir::NodeKind, int> KindCounts(const lir::Node& plan) {
  std::map<lir::NodeKind, int> counts;
  std::vector<const lir::Node*> stack = {&plan};
  while (!stack.empty()) {
    const lir::Node* n = stack.back();
    stack.pop_back();
    ++counts[n->kind()];
    for (const lir::NodePtr& in : n->inputs) stack.push_back(in.get());
  }
  return counts;
}

// One configuration's plan, what the rewrite report says it builds, and its
// arrangements' places.
struct Plan {
  lir::Document doc;
  uint64_t arrangements_built = 0;
  std::unique_ptr<Places> places;
};

// The three plans, parsed and rewritten once.
struct Plans {
  Plan plan[kRewrites];
  std::string error;
};

lir::interp::AnalysisInputs Inputs() {
  lir::interp::AnalysisInputs inputs;
  inputs.global_arity = {{kLeft, 2}, {kRight1, 2}, {kRight2, 2}};
  inputs.global_unique_keys[kRight1] = {{0}};
  return inputs;
}

// `features` applied to the parsed plan; the error says which step failed.
absl::StatusOr<lir::OptimizeResult> Rewrite(
    const lir::Document& doc, const lir::OptimizerFeatures& features) {
  return lir::Optimize(lir::Clone(doc), features, Inputs());
}

// What each configuration must look like: its anti-side node kinds.
std::string CheckShape(int rewrite, const lir::Node& plan) {
  std::map<lir::NodeKind, int> k = KindCounts(plan);
  const int thresholds = k[lir::NodeKind::kThreshold];
  const int set_differences = k[lir::NodeKind::kSetDifference];
  const int antijoins = k[lir::NodeKind::kAntiJoin];
  const int want[kRewrites][3] = {{2, 0, 0}, {1, 1, 0}, {1, 0, 1}};
  if (thresholds != want[rewrite][0] || set_differences != want[rewrite][1] ||
      antijoins != want[rewrite][2]) {
    return absl::StrCat(kRewriteNames[rewrite], " plan has ", thresholds,
                        " Threshold, ", set_differences, " SetDifference, ",
                        antijoins, " AntiJoin nodes");
  }
  return "";
}

const Plans& GetPlans() {
  static const Plans* plans = [] {
    auto* p = new Plans;
    absl::StatusOr<lir::Document> doc = lir::explain::ParseText(kPlanText);
    if (!doc.ok()) {
      p->error = std::string(doc.status().message());
      return p;
    }
    lir::OptimizerFeatures features[kRewrites + 1];
    features[1].enable_fused_set_difference = true;
    features[2].enable_antijoin_rendering = true;
    features[3].enable_fused_set_difference = true;
    features[3].enable_antijoin_rendering = true;
    std::string texts[kRewrites + 1];
    for (int r = 0; r <= kRewrites; ++r) {
      absl::StatusOr<lir::OptimizeResult> result = Rewrite(*doc, features[r]);
      if (!result.ok()) {
        p->error = std::string(result.status().message());
        return p;
      }
      texts[r] = lir::explain::PrintText(result->document);
      if (r == kRewrites) break;
      const std::optional<lir::interp::ArrangementCount>& after =
          result->report.objects.at(0).after;
      if (!after.has_value()) {
        p->error = "the rewrite report has no arrangement count";
        return p;
      }
      Plan& plan = p->plan[r];
      plan.doc = std::move(result->document);
      plan.arrangements_built = after->built;
      const lir::Node& root = *plan.doc.objects.at(0).plan;
      p->error = CheckShape(r, root);
      if (!p->error.empty()) return p;
      plan.places = std::make_unique<Places>(root);
    }
    if (texts[kRewrites] != texts[2]) {
      p->error = "both rewrites on give another plan than antijoin alone";
    }
    return p;
  }();
  return *plans;
}

// An order-independent checksum of a multiset: the number of rows and the
// sum of each row's hash times its multiplicity (modulo 2^64).
struct Checksum {
  int64_t rows = 0;
  uint64_t hash = 0;

  void Add(const DataRow& row, int64_t diff) {
    rows += diff;
    hash += static_cast<uint64_t>(diff) * absl::HashOf(row);
  }
  friend bool operator==(const Checksum&, const Checksum&) = default;
};

// The rounds of one size, and the answers after each.
struct Workload {
  int64_t rows = -1;
  GlobalChanges load;
  GlobalChanges retract;
  uint64_t load_updates = 0;
  uint64_t retract_updates = 0;
  Checksum after_load;
  Checksum after_retract;
};

// The LEFT JOIN's answer over the workload's data: `retracted` says whether
// right1's keys divisible by 20 are gone.
Checksum Answer(int64_t n, int64_t k, bool retracted) {
  Checksum sum;
  for (int64_t i = 0; i < n; ++i) {
    const bool r1 = i % 2 == 0 && !(retracted && i % 20 == 0);
    const Datum r1x = r1 ? Datum::Int(i) : Datum::Null();
    const Datum r1v = r1 ? Datum::Int(i + 1) : Datum::Null();
    bool matched = false;
    if (i % 3 == 0) {
      for (int64_t j = i / 3; j < n / 2; j += k) {
        sum.Add({Datum::Int(i), Datum::Int(i), r1x, r1v, Datum::Int(i),
                 Datum::Int(j)},
                1);
        matched = true;
      }
    }
    if (!matched) {
      sum.Add({Datum::Int(i), Datum::Int(i), r1x, r1v, Datum::Null(),
               Datum::Null()},
              1);
    }
  }
  return sum;
}

// Kept for the last size asked for: benchmarks are registered size-major,
// so each is generated once.
const Workload& GetWorkload(int64_t n) {
  static Workload* current = new Workload;
  if (current->rows == n) return *current;
  *current = Workload();
  const int64_t k = (n + 2) / 3;
  Multiset left, right1, right2, retract;
  left.reserve(static_cast<size_t>(n));
  right1.reserve(static_cast<size_t>(n / 2 + 1));
  right2.reserve(static_cast<size_t>(n / 2));
  for (int64_t i = 0; i < n; ++i) {
    left.emplace_back(DataRow{Datum::Int(i), Datum::Int(i)}, 1);
    if (i % 2 == 0) {
      right1.emplace_back(DataRow{Datum::Int(i), Datum::Int(i + 1)}, 1);
    }
    if (i % 20 == 0) {
      retract.emplace_back(DataRow{Datum::Int(i), Datum::Int(i + 1)}, -1);
    }
  }
  for (int64_t j = 0; j < n / 2; ++j) {
    right2.emplace_back(DataRow{Datum::Int(3 * (j % k)), Datum::Int(j)}, 1);
  }
  // Step takes consolidated changes: sorted by row.
  std::sort(right2.begin(), right2.end());
  current->load_updates = left.size() + right1.size() + right2.size();
  current->retract_updates = retract.size();
  current->load[kLeft] = std::move(left);
  current->load[kRight1] = std::move(right1);
  current->load[kRight2] = std::move(right2);
  current->retract[kRight1] = std::move(retract);
  current->after_load = Answer(n, k, false);
  current->after_retract = Answer(n, k, true);
  current->rows = n;
  return *current;
}

enum class Phase { kLoad, kRetract };

// "<operator> (<place>)": the operator's introspection name, where it sits.
std::string Role(const ArrangementStats& s, const Places& places) {
  std::string place = places.Of(s.lir_id);
  if (s.adapter) place = place.empty() ? "adapter" : "adapter, " + place;
  return place.empty() ? s.operator_name
                       : absl::StrCat(s.operator_name, " (", place, ")");
}

void RunOuterJoin(benchmark::State& state, Phase phase) {
  const Plans& plans = GetPlans();
  if (!plans.error.empty()) {
    state.SkipWithError(plans.error.c_str());
    return;
  }
  const int64_t n = state.range(0);
  const int rewrite = static_cast<int>(state.range(1));
  const Workload& w = GetWorkload(n);
  const Plan& p = plans.plan[rewrite];
  const lir::Node& plan = *p.doc.objects.at(0).plan;
  lir::eval::DataflowOptions options;
  options.object = "bench";
  options.globals = {{kLeft, 2}, {kRight1, 2}, {kRight2, 2}};
  options.compaction = Compaction::kEager;

  std::vector<ArrangementStats> stats;
  Checksum output;
  int64_t output_changes = 0;
  for (auto _ : state) {
    if (phase == Phase::kRetract) state.PauseTiming();
    absl::StatusOr<std::unique_ptr<lir::eval::Dataflow>> df =
        lir::eval::MakeIncrementalDataflow(plan, options);
    absl::Status status = df.status();
    Multiset loaded, retracted;
    if (status.ok()) {
      absl::StatusOr<Multiset> out = (*df)->Step(0, w.load);
      status = out.status();
      if (status.ok()) loaded = *std::move(out);
    }
    if (phase == Phase::kRetract && status.ok()) {
      state.ResumeTiming();
      absl::StatusOr<Multiset> out = (*df)->Step(1, w.retract);
      status = out.status();
      if (status.ok()) retracted = *std::move(out);
    }
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
    state.PauseTiming();
    output = Checksum();
    for (const auto& [row, diff] : loaded) output.Add(row, diff);
    for (const auto& [row, diff] : retracted) output.Add(row, diff);
    output_changes = static_cast<int64_t>(
        phase == Phase::kLoad ? loaded.size() : retracted.size());
    stats = (*df)->Arrangements();
    Multiset().swap(loaded);
    Multiset().swap(retracted);
    df->reset();
    state.ResumeTiming();
  }
  const Checksum& expected =
      phase == Phase::kLoad ? w.after_load : w.after_retract;
  if (!(output == expected)) {
    state.SkipWithError(absl::StrCat("wrong result: ", output.rows,
                                     " output rows (checksum ", output.hash,
                                     "), expected ", expected.rows,
                                     " (checksum ", expected.hash, ")")
                            .c_str());
    return;
  }

  uint64_t records = 0, batches = 0, bytes = 0, arrangements = 0;
  uint64_t adapter_records = 0, adapter_bytes = 0;
  std::string label;
  for (const ArrangementStats& s : stats) {
    if (s.adapter) {
      adapter_records += s.records;
      adapter_bytes += s.bytes;
    } else {
      ++arrangements;
      records += s.records;
      batches += s.batches;
      bytes += s.bytes;
    }
    absl::StrAppend(&label, label.empty() ? "" : "; ", Role(s, *p.places), ": ",
                    s.records, "r/", s.batches, "b/", s.bytes, "B");
  }
  if (arrangements != p.arrangements_built) {
    state.SkipWithError(absl::StrCat(arrangements,
                                     " arrangements, the rewrite report says ",
                                     p.arrangements_built)
                            .c_str());
    return;
  }
  state.SetLabel(label);
  const uint64_t updates =
      phase == Phase::kLoad ? w.load_updates : w.retract_updates;
  state.counters["updates"] = static_cast<double>(updates);
  state.counters["updates_per_s"] =
      benchmark::Counter(static_cast<double>(updates),
                         benchmark::Counter::kIsIterationInvariantRate);
  state.counters["records"] = static_cast<double>(records);
  state.counters["batches"] = static_cast<double>(batches);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["arrangements"] = static_cast<double>(arrangements);
  // Only when there is adapter state: a counter that is 0 in every
  // repetition makes Google Benchmark write NaN (0/0) as its coefficient of
  // variation, which is not JSON.
  if (adapter_records > 0) {
    state.counters["adapter_records"] = static_cast<double>(adapter_records);
    state.counters["adapter_bytes"] = static_cast<double>(adapter_bytes);
  }
  state.counters["output_rows"] = static_cast<double>(output.rows);
  state.counters["output_changes"] = static_cast<double>(output_changes);
}

void BM_OuterJoinLoad(benchmark::State& state) {
  RunOuterJoin(state, Phase::kLoad);
}
void BM_OuterJoinRetract(benchmark::State& state) {
  RunOuterJoin(state, Phase::kRetract);
}

constexpr int64_t kSmall = 100000;
constexpr int64_t kLarge = 1000000;

// The three plans at `rows`.
void Plans(benchmark::internal::Benchmark* b, int64_t rows) {
  b->ArgNames({"rows", "rewrite"});
  for (int64_t rewrite = 0; rewrite < kRewrites; ++rewrite) {
    b->Args({rows, rewrite});
  }
}

// Size-major, so each workload is generated once per benchmark.
BENCHMARK(BM_OuterJoinLoad)
    ->Apply([](benchmark::internal::Benchmark* b) {
      Plans(b, kSmall);
      Plans(b, kLarge);
    })
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_OuterJoinRetract)
    ->Apply([](benchmark::internal::Benchmark* b) { Plans(b, kSmall); })
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// At 1M a retraction round takes about half a second, so Google Benchmark
// would time one or two per repetition, each behind an untimed load of
// 10-15 s; a fixed 4 averages out more of the host's noise at a known cost.
BENCHMARK(BM_OuterJoinRetract)
    ->Apply([](benchmark::internal::Benchmark* b) { Plans(b, kLarge); })
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
