// The spine_plan_bench section of docs/BENCHMARKS.md: eval_bench's EXCEPT
// plan loaded in 64 rounds with every arrangement kept as a fueled spine
// (bench/spine_plan_bench.cc), stock against funded exertion, per policy
// and idle turns per round: merge work and the batches left, in total and
// per arrangement, and what that means for a user, worded from the numbers.
#include "tools/bench-report/spine_plan_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"

namespace bench_report {
namespace {

constexpr int kPolicies = 2;
// By the bench's `policy` argument.
constexpr const char* kPolicyNames[kPolicies] = {"proportional:16",
                                                 "idle_merge:1000"};
constexpr int kProportional = 0;
constexpr int kIdleMerge = 1;

// Stock and funded runs of one (keys, policy, idle turns).
using Pair = std::array<const Run*, 2>;
// (keys, policy, idle turns) -> the pair.
using Grid = std::map<std::tuple<int64_t, int, int64_t>, Pair>;

Grid Collect(const Family& f) {
  Grid grid;
  for (const Run& r : f.runs) {
    if (r.operation != "SpinePlan") continue;
    int64_t keys = 0, policy = 0, funded = 0, idle = 0;
    if (!r.args.contains("keys") || !r.args.contains("policy") ||
        !r.args.contains("funded") || !r.args.contains("idle") ||
        !absl::SimpleAtoi(r.args.at("keys"), &keys) ||
        !absl::SimpleAtoi(r.args.at("policy"), &policy) ||
        !absl::SimpleAtoi(r.args.at("funded"), &funded) ||
        !absl::SimpleAtoi(r.args.at("idle"), &idle) || policy < 0 ||
        policy >= kPolicies || funded < 0 || funded > 1) {
      continue;
    }
    auto [it, fresh] =
        grid.emplace(std::make_tuple(keys, static_cast<int>(policy), idle),
                     Pair{nullptr, nullptr});
    it->second[funded] = &r;
  }
  return grid;
}

double Get(const Run* r, const char* key) {
  return Usable(r) ? Counter(*r, key).value_or(0) : 0;
}

// What a cell shows for a run that did not produce numbers.
std::string Missing(const Run* r) {
  if (r == nullptr) return "-";
  return r->error.empty() ? "" : "error: " + r->error;
}

// One arrangement of a run's label:
// `role: <merge work>w/<batches left>b/<spine records>r/<idle turns>t`.
struct SpineEntry {
  std::string role;
  uint64_t work = 0;
  uint64_t batches = 0;
  uint64_t records = 0;
  uint64_t turns = 0;
};

std::vector<SpineEntry> ParseSpineLabel(const std::string& label) {
  std::vector<SpineEntry> out;
  for (absl::string_view part : absl::StrSplit(label, "; ")) {
    const size_t colon = part.rfind(": ");
    if (colon == absl::string_view::npos) continue;
    std::vector<absl::string_view> nums =
        absl::StrSplit(part.substr(colon + 2), '/');
    SpineEntry e;
    e.role = std::string(part.substr(0, colon));
    if (nums.size() != 4 ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[0], "w"), &e.work) ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[1], "b"), &e.batches) ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[2], "r"), &e.records) ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[3], "t"), &e.turns)) {
      continue;
    }
    out.push_back(std::move(e));
  }
  return out;
}

const SpineEntry* Find(const std::vector<SpineEntry>& entries,
                       const std::string& role) {
  for (const SpineEntry& e : entries) {
    if (e.role == role) return &e;
  }
  return nullptr;
}

// `x / base` with two decimals, empty when base is 0.
std::string Ratio(double x, double base) {
  return base > 0 ? absl::StrFormat("%.2f", x / base) : "";
}

// The idle-turn settings measured at (keys, policy), ascending.
std::vector<int64_t> IdleSettings(const Grid& grid, int64_t keys, int policy) {
  std::vector<int64_t> out;
  for (const auto& [key, pair] : grid) {
    if (std::get<0>(key) == keys && std::get<1>(key) == policy) {
      out.push_back(std::get<2>(key));
    }
  }
  return out;
}

// Totals at one size: a row per policy and idle turns.
void TotalsTable(const Grid& grid, int64_t keys, std::ostream& md) {
  md << "\n| policy | idle turns per round | merge work stock | merge work "
        "funded | funded / stock | per update stock | per update funded "
        "| batches left stock | batches left funded | idle turns taken "
        "stock | idle turns taken funded | wall ms stock | wall ms funded "
        "|\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        "\n";
  for (int p = 0; p < kPolicies; ++p) {
    for (int64_t idle : IdleSettings(grid, keys, p)) {
      const Pair& pair = grid.at({keys, p, idle});
      md << "| " << kPolicyNames[p] << " | " << idle << " |";
      if (!Usable(pair[0]) || !Usable(pair[1])) {
        md << " " << Missing(pair[0]) << " | " << Missing(pair[1])
           << " | | | | | | | | | |\n";
        continue;
      }
      const double work[2] = {Get(pair[0], "merge_work"),
                              Get(pair[1], "merge_work")};
      md << " " << Num(work[0]) << " | " << Num(work[1]) << " | "
         << Ratio(work[1], work[0]) << " |";
      for (const Run* r : pair) {
        md << " " << absl::StrFormat("%.1f", Get(r, "merge_work_per_update"))
           << " |";
      }
      for (const char* counter : {"batches_left", "idle_turns"}) {
        for (const Run* r : pair) md << " " << Num(Get(r, counter)) << " |";
      }
      for (const Run* r : pair)
        md << " " << Ms(Median(r->real_samples)) << " |";
      md << "\n";
    }
  }
}

// Per arrangement at one size and policy: merge work and batches left,
// each cell "stock / funded", a column per idle-turn setting.
void ArrangementTable(const Grid& grid, int64_t keys, int policy,
                      std::ostream& md) {
  const std::vector<int64_t> idles = IdleSettings(grid, keys, policy);
  std::vector<std::string> roles;
  std::map<int64_t, std::array<std::vector<SpineEntry>, 2>> entries;
  for (int64_t idle : idles) {
    const Pair& pair = grid.at({keys, policy, idle});
    for (int e = 0; e < 2; ++e) {
      if (!Usable(pair[e])) continue;
      entries[idle][e] = ParseSpineLabel(pair[e]->label);
      for (const SpineEntry& s : entries[idle][e]) {
        if (std::find(roles.begin(), roles.end(), s.role) == roles.end()) {
          roles.push_back(s.role);
        }
      }
    }
  }
  if (roles.empty()) return;
  md << "\nPer arrangement, " << kPolicyNames[policy] << ", N = " << keys
     << " (each cell stock / funded):\n\n| arrangement |";
  for (int64_t idle : idles) md << " merge work, k = " << idle << " |";
  for (int64_t idle : idles) md << " batches left, k = " << idle << " |";
  md << "\n|---|";
  for (size_t i = 0; i < 2 * idles.size(); ++i) md << "---:|";
  md << "\n";
  for (const std::string& role : roles) {
    md << "| " << role << " |";
    for (const bool work : {true, false}) {
      for (int64_t idle : idles) {
        std::string cell[2];
        for (int e = 0; e < 2; ++e) {
          const SpineEntry* s = Find(entries[idle][e], role);
          cell[e] = s == nullptr
                        ? "-"
                        : Num(static_cast<double>(work ? s->work : s->batches));
        }
        md << " " << cell[0] << " / " << cell[1] << " |";
      }
    }
    md << "\n";
  }
}

// Every size: the totals, briefly.
void SizesTable(const Grid& grid, std::ostream& md) {
  md << "\nAll sizes (totals over the six arrangements):\n\n| keys | policy | "
        "idle turns per round | merge work stock | merge work funded | "
        "per update stock | per update funded | batches left stock | "
        "batches left funded |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|"
        "\n";
  for (const auto& [key, pair] : grid) {
    const auto& [keys, policy, idle] = key;
    md << "| " << keys << " | " << kPolicyNames[policy] << " | " << idle
       << " |";
    if (!Usable(pair[0]) || !Usable(pair[1])) {
      md << " " << Missing(pair[0]) << " | " << Missing(pair[1])
         << " | | | | |\n";
      continue;
    }
    for (const Run* r : pair) md << " " << Num(Get(r, "merge_work")) << " |";
    for (const Run* r : pair) {
      md << " " << absl::StrFormat("%.1f", Get(r, "merge_work_per_update"))
         << " |";
    }
    for (const Run* r : pair) md << " " << Num(Get(r, "batches_left")) << " |";
    md << "\n";
  }
}

// The load without spines beside the spine runs' times.
void TimeTable(const Family& f, const Grid& grid, std::ostream& md) {
  std::map<int64_t, const Run*> plain;
  for (const Run& r : f.runs) {
    int64_t keys = 0;
    if (r.operation == "SpinePlanNoSpine" && r.args.contains("keys") &&
        absl::SimpleAtoi(r.args.at("keys"), &keys)) {
      plain[keys] = &r;
    }
  }
  if (plain.empty()) return;
  md << "\nWall time of one load (building, 64 rounds, the close), without "
        "spines and with them (the range over the 12 spine "
        "configurations). One run each: the first run at a size pays for "
        "fresh memory, so differences of a second are noise.\n\n| keys | "
        "no spines, ms | with spines, ms (min / max) |\n|---:|---:|---:|\n";
  for (const auto& [keys, run] : plain) {
    std::optional<double> low, high;
    for (const auto& [key, pair] : grid) {
      if (std::get<0>(key) != keys) continue;
      for (const Run* r : pair) {
        if (!Usable(r)) continue;
        const double ns = Median(r->real_samples);
        low = low.has_value() ? std::min(*low, ns) : ns;
        high = high.has_value() ? std::max(*high, ns) : ns;
      }
    }
    md << "| " << keys << " | "
       << (Usable(run) ? Ms(Median(run->real_samples)) : Missing(run)) << " | "
       << (low.has_value() ? absl::StrCat(Ms(*low), " / ", Ms(*high)) : "-")
       << " |\n";
  }
}

// Percent, no decimals.
std::string Percent(double fraction) {
  return absl::StrFormat("%.0f%%", 100 * fraction);
}

// The two sentences for a user, from the largest size's numbers; empty when
// a run they need is missing.
std::string Meaning(const Grid& grid, int64_t keys) {
  const std::vector<int64_t> idles[kPolicies] = {
      IdleSettings(grid, keys, kProportional),
      IdleSettings(grid, keys, kIdleMerge)};
  if (idles[0].empty() || idles[1].empty()) return "";
  for (int p = 0; p < kPolicies; ++p) {
    for (int64_t idle : idles[p]) {
      const Pair& pair = grid.at({keys, p, idle});
      if (!Usable(pair[0]) || !Usable(pair[1])) return "";
    }
  }
  const auto work = [&](int p, int64_t idle, int e) {
    return Get(grid.at({keys, p, idle})[e], "merge_work");
  };
  const auto batches = [&](int p, int64_t idle, int e) {
    return Get(grid.at({keys, p, idle})[e], "batches_left");
  };
  const auto per_update = [&](int p, int64_t idle, int e) {
    return Get(grid.at({keys, p, idle})[e], "merge_work_per_update");
  };
  // Idle merge: how stock grows with k, and funded against it at the most.
  const int64_t k0 = idles[kIdleMerge].front();
  const int64_t k1 = idles[kIdleMerge].back();
  const double s0 = work(kIdleMerge, k0, 0);
  const double s1 = work(kIdleMerge, k1, 0);
  const double f1 = work(kIdleMerge, k1, 1);
  // Each claim is worded from the comparison it states.
  const bool stock_grows = s1 > 1.5 * s0;
  const bool funded_saves = f1 < 0.9 * s1;
  std::string first = absl::StrCat(
      "With differential's idle_merge:1000, a stock spine's merge work ",
      stock_grows ? "follows" : "barely depends on",
      " how often its operator is scheduled: at ", k1,
      " idle turns per round it writes ", Num(s1), " records (",
      absl::StrFormat("%.1f", per_update(kIdleMerge, k1, 0)),
      " per input update, ", absl::StrFormat("%.1fx", s0 > 0 ? s1 / s0 : 0),
      " what it writes at ", k0, "), while a funded spine writes ", Num(f1),
      " (", Percent(s1 > 0 ? f1 / s1 : 0), " of stock, ",
      absl::StrFormat("%.1f", per_update(kIdleMerge, k1, 1)), " per update)",
      funded_saves ? ", because its idle turns spend only what its inputs "
                     "paid for."
                   : ".");
  // Proportional: up to which k the two agree, what funded saves at the
  // most, and the batches each leaves.
  int64_t agree = -1;
  for (int64_t idle : idles[kProportional]) {
    const double s = work(kProportional, idle, 0);
    if (s > 0 && std::abs(work(kProportional, idle, 1) - s) / s < 0.005) {
      agree = idle;
    } else {
      break;
    }
  }
  const int64_t p1 = idles[kProportional].back();
  const double ps = work(kProportional, p1, 0);
  const double pf = work(kProportional, p1, 1);
  std::string second = absl::StrCat(
      "With Materialize's own proportional:16, ",
      agree >= 0 ? absl::StrCat("stock and funded do the same merge work up "
                                "to ",
                                agree, " idle turns per round, and ")
                 : "",
      "at ", p1, " the funded spine writes ", Percent(ps > 0 ? pf / ps : 0),
      " of what the stock one does (", Num(pf), " against ", Num(ps),
      "); at the end the funded spines leave ",
      Num(batches(kProportional, p1, 1)), " and ",
      Num(batches(kIdleMerge, k1, 1)),
      " non-empty batches (proportional:16, idle_merge:1000) against "
      "stock's ",
      Num(batches(kProportional, p1, 0)), " and ",
      Num(batches(kIdleMerge, k1, 0)));
  double extra = 0;
  for (const auto& [p, k] :
       {std::pair(kProportional, p1), std::pair(kIdleMerge, k1)}) {
    extra += std::max(0.0, batches(p, k, 1) - batches(p, k, 0));
  }
  if (funded_saves || pf < 0.9 * ps) {
    absl::StrAppend(
        &second,
        ", so an operator scheduled often while idle costs much less merge "
        "work with the funded spine",
        extra > 0 ? absl::StrCat(", for ", Num(extra),
                                 " more batches left to merge later")
                  : "",
        ".");
  } else {
    absl::StrAppend(&second, ": on this plan the two cost about the same.");
  }
  return absl::StrCat(first, " ", second);
}

}  // namespace

bool IsSpinePlanAB(const Family& f) {
  for (const Run& r : f.runs) {
    if (r.operation == "SpinePlan") return true;
  }
  return false;
}

void SpinePlanSection(const Family& f, std::ostream& md) {
  const Grid grid = Collect(f);
  std::set<int64_t> sizes;
  for (const auto& [key, pair] : grid) sizes.insert(std::get<0>(key));
  md << "\nThe spine A/B on a plan: eval_bench's EXCEPT plan (Materialize's "
        "plan, rewrite off: two Distinct arrangements per input, trace T, the "
        "Threshold output) loaded in 64 rounds (each brings 1/64 of a = N "
        "keys and of b = the N/2 even keys), compaction eager, with every "
        "arrangement also kept as differential's fueled spine "
        "(`lir-opt run --spine`, docs/evaluator.md), stock against funded "
        "exertion (SPINE.md section 5), under proportional:16 and "
        "idle_merge:1000, with k idle turns allowed per round and after the "
        "close (each taken only while the spine requests it). Merge work is "
        "records written by merges over the whole load and close; batches "
        "left are the non-empty spine batches at the end; both are counts, "
        "the same on every run. The bench, its data and its counters: "
        "bench/spine_plan_bench.cc. ";
  const nlohmann::json& c = f.context;
  md << "Measured " << c.value("date", "?") << " on "
     << c.value("host_name", "?") << " (" << c.value("num_cpus", 0)
     << " CPUs, load average at start " << LoadAverages(c)
     << "), one run per configuration.\n";
  if (sizes.empty()) {
    md << "\nNo BM_SpinePlan runs.\n";
    return;
  }
  const int64_t largest = *sizes.rbegin();
  const std::string meaning = Meaning(grid, largest);
  if (!meaning.empty()) md << "\n**What it means.** " << meaning << "\n";
  md << "\nTotals over the six arrangements after the close, N = " << largest
     << " keys:\n";
  TotalsTable(grid, largest, md);
  for (int p = 0; p < kPolicies; ++p) ArrangementTable(grid, largest, p, md);
  SizesTable(grid, md);
  TimeTable(f, grid, md);
}

}  // namespace bench_report
