// The antijoin_bench section of docs/BENCHMARKS.md: the stacked LEFT JOIN
// (bench/antijoin_bench.cc) with the anti-side rewrites off, fused into a
// SetDifference, and rendered as an AntiJoin; arrangements per plan and the
// CPU time of loading and of a retraction round, each against the plan with
// the rewrites off.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "tools/bench-report/report.h"

namespace bench_report {
namespace {

constexpr int kPlans = 3;
// By the bench's `rewrite` argument.
constexpr const char* kPlanNames[kPlans] = {"off", "SetDifference", "AntiJoin"};

// One size's runs of one phase, by rewrite.
using Runs = std::array<const Run*, kPlans>;

// Rows (N) -> the runs of `operation`, e.g. "OuterJoinLoad".
std::map<int64_t, Runs> Collect(const Family& f, const std::string& operation) {
  std::map<int64_t, Runs> out;
  for (const Run& r : f.runs) {
    if (r.operation != operation || !r.args.contains("rows") ||
        !r.args.contains("rewrite")) {
      continue;
    }
    const int rewrite = std::atoi(r.args.at("rewrite").c_str());
    if (rewrite < 0 || rewrite >= kPlans) continue;
    auto [it, fresh] = out.emplace(std::atoll(r.args.at("rows").c_str()),
                                   Runs{nullptr, nullptr, nullptr});
    it->second[rewrite] = &r;
  }
  return out;
}

double CounterOr0(const Run* r, const char* key) {
  return Usable(r) ? Counter(*r, key).value_or(0) : 0;
}

// `x / base` with three decimals, empty when base is 0.
std::string Ratio(double x, double base) {
  return base > 0 ? absl::StrFormat("%.3f", x / base) : "";
}

// What a cell shows for a run that did not produce numbers.
std::string Missing(const Run* r) {
  if (r == nullptr) return "-";
  return r->error.empty() ? "" : "error: " + r->error;
}

// Per arrangement after `phase`, at one size: records and bytes per plan,
// the totals, each against off, and how many arrangements each plan keeps.
void ArrangementTable(const std::string& title, const Runs& runs,
                      std::ostream& md) {
  std::vector<Arrangement> arr[kPlans];
  std::vector<std::string> roles;
  for (int p = 0; p < kPlans; ++p) {
    if (!Usable(runs[p])) {
      md << "\n"
         << title << ": " << kPlanNames[p] << " " << Missing(runs[p]) << "\n";
      return;
    }
    arr[p] = ParseLabel(runs[p]->label);
    // Plan order: a role only this plan has goes right before the next of
    // its roles that is listed (a SetDifference output takes the place of
    // the Threshold output it replaces, after trace T).
    for (size_t i = 0; i < arr[p].size(); ++i) {
      if (std::find(roles.begin(), roles.end(), arr[p][i].role) !=
          roles.end()) {
        continue;
      }
      auto at = roles.end();
      for (size_t j = i + 1; j < arr[p].size() && at == roles.end(); ++j) {
        at = std::find(roles.begin(), roles.end(), arr[p][j].role);
      }
      roles.insert(at, arr[p][i].role);
    }
  }
  md << "\n" << title << ":\n\n| arrangement |";
  for (const char* name : kPlanNames) {
    md << " records " << name << " | bytes " << name << " |";
  }
  md << "\n|---|";
  for (int p = 0; p < kPlans; ++p) md << "---:|---:|";
  md << "\n";
  for (const std::string& role : roles) {
    md << "| " << role << " |";
    for (int p = 0; p < kPlans; ++p) {
      const Arrangement* a = FindRole(arr[p], role);
      md << " " << (a ? Num(static_cast<double>(a->records)) : "-") << " | "
         << (a ? Mb(a->bytes) : "-") << " |";
    }
    md << "\n";
  }
  const double records_off = CounterOr0(runs[0], "records");
  const double bytes_off = CounterOr0(runs[0], "bytes");
  md << "| **total** |";
  for (int p = 0; p < kPlans; ++p) {
    md << " " << Num(CounterOr0(runs[p], "records")) << " | "
       << Mb(static_cast<uint64_t>(CounterOr0(runs[p], "bytes"))) << " |";
  }
  md << "\n| saved vs off |";
  for (int p = 0; p < kPlans; ++p) {
    md << " " << Num(records_off - CounterOr0(runs[p], "records")) << " | "
       << Mb(static_cast<uint64_t>(bytes_off - CounterOr0(runs[p], "bytes")))
       << " |";
  }
  md << "\n| vs off |";
  for (int p = 0; p < kPlans; ++p) {
    md << " " << Ratio(CounterOr0(runs[p], "records"), records_off) << " | "
       << Ratio(CounterOr0(runs[p], "bytes"), bytes_off) << " |";
  }
  md << "\n| arrangements |";
  for (int p = 0; p < kPlans; ++p) {
    md << " " << Num(CounterOr0(runs[p], "arrangements")) << " | |";
  }
  md << "\n";
}

// Totals per plan after each phase, every size.
void TotalsTable(const std::map<int64_t, Runs>& load,
                 const std::map<int64_t, Runs>& retract, std::ostream& md) {
  md << "\nRecords and bytes after each phase, all sizes:\n\n"
        "| phase | left rows | plan | arrangements | records | bytes "
        "| records vs off | bytes vs off |\n"
        "|---|---:|---|---:|---:|---:|---:|---:|\n";
  for (const auto& [phase, table] : {std::make_pair("loading", &load),
                                     std::make_pair("retraction", &retract)}) {
    for (const auto& [rows, runs] : *table) {
      for (int p = 0; p < kPlans; ++p) {
        md << "| " << phase << " | " << rows << " | " << kPlanNames[p] << " |";
        if (!Usable(runs[p])) {
          md << " " << Missing(runs[p]) << " | | | | |\n";
          continue;
        }
        const double records = CounterOr0(runs[p], "records");
        const double bytes = CounterOr0(runs[p], "bytes");
        md << " " << Num(CounterOr0(runs[p], "arrangements")) << " | "
           << Num(records) << " | " << Mb(static_cast<uint64_t>(bytes)) << " | "
           << Ratio(records, CounterOr0(runs[0], "records")) << " | "
           << Ratio(bytes, CounterOr0(runs[0], "bytes")) << " |\n";
      }
    }
  }
}

// CPU (median repetition) and wall time (min / median / max) per plan and
// phase, the CPU against off's.
void TimeTable(const std::map<int64_t, Runs>& load,
               const std::map<int64_t, Runs>& retract, std::ostream& md) {
  md << "\nCPU time per phase (loading: building the dataflow and round 0, "
        "2N input updates; retraction: the round deleting 10% of right1, N/20 "
        "updates, after an untimed load):\n\n"
        "| phase | left rows | plan | CPU ms (median) | CPU vs off "
        "| wall ms (min / median / max) | updates/s (median wall) |\n"
        "|---|---:|---|---:|---:|---:|---:|\n";
  for (const auto& [phase, table] : {std::make_pair("loading", &load),
                                     std::make_pair("retraction", &retract)}) {
    for (const auto& [rows, runs] : *table) {
      for (int p = 0; p < kPlans; ++p) {
        const Run* r = runs[p];
        md << "| " << phase << " | " << rows << " | " << kPlanNames[p] << " |";
        if (!Usable(r)) {
          md << " " << Missing(r) << " | | | |\n";
          continue;
        }
        const double off = Usable(runs[0]) ? runs[0]->cpu_ns() : 0;
        const double wall = Median(r->real_samples);
        std::optional<double> updates = Counter(*r, "updates");
        md << " " << Ms(r->cpu_ns()) << " | "
           << (off > 0 ? absl::StrFormat("%.2f", r->cpu_ns() / off) : "")
           << " | " << Ms(Min(r->real_samples)) << " / " << Ms(wall) << " / "
           << Ms(Max(r->real_samples)) << " | "
           << (updates && wall > 0 ? Num(*updates / (wall / 1e9)) : "")
           << " |\n";
      }
    }
  }
}

// When and where the family ran: the section may be spliced into a report
// whose header describes another run (bench-report --update).
void RunLine(const Family& f, size_t reps, std::ostream& md) {
  const nlohmann::json& c = f.context;
  md << "Measured " << c.value("date", "?") << " on "
     << c.value("host_name", "?") << " (" << c.value("num_cpus", 0)
     << " CPUs, load average at start " << LoadAverages(c) << "), " << reps
     << " repetitions per configuration.\n";
}

}  // namespace

bool IsAntiJoinAB(const Family& f) {
  for (const Run& r : f.runs) {
    if (r.args.contains("rewrite") && r.args.contains("rows")) return true;
  }
  return false;
}

void AntiJoinSection(const Family& f, std::ostream& md) {
  std::map<int64_t, Runs> load = Collect(f, "OuterJoinLoad");
  std::map<int64_t, Runs> retract = Collect(f, "OuterJoinRetract");
  size_t reps = 0;
  for (const Run& r : f.runs) reps = std::max(reps, r.real_samples.size());
  md << "\nThe antijoin A/B on the stacked LEFT JOIN `SELECT * FROM left LEFT "
        "JOIN right1 ON left.x = right1.x LEFT JOIN right2 ON left.x = "
        "right2.x`, maintained by the incremental engine: left = N rows (N "
        "distinct keys), right1 = N/2 rows keyed on x (the even keys), right2 "
        "= N/2 rows over every third key (some twice: not keyed). Three plans "
        "from one EXPLAIN text: **off** (both anti-sides are Threshold::Basic "
        "over a co-arranged Union: trace T plus the Threshold's output), "
        "**SetDifference** (`enable_fused_set_difference` only: right1's "
        "anti-side fused, trace T dropped) and **AntiJoin** "
        "(`enable_antijoin_rendering` only: right1's anti-side an AntiJoin, "
        "trace T and the Threshold output dropped; both flags give this same "
        "plan). right2's anti-side stays a Threshold in all three: right2 is "
        "read raw, so neither pass finds its keys arranged "
        "(`not_co_arranged`). Compaction eager; every run's output is checked "
        "against the LEFT JOIN's answer. The plan, the data and why its "
        "delta join has a path from every input: bench/antijoin_bench.cc. "
        "CPU is the median repetition's, and its arrangement figures are "
        "that repetition's (they are the same in every repetition). ";
  RunLine(f, reps, md);
  if (!load.empty()) {
    const auto& [rows, runs] = *load.rbegin();
    ArrangementTable(absl::StrCat("Arrangements after loading, N = ", rows,
                                  " left rows (records, bytes)"),
                     runs, md);
  }
  if (!retract.empty()) {
    const auto& [rows, runs] = *retract.rbegin();
    ArrangementTable(absl::StrCat("Arrangements after the retraction round, "
                                  "N = ",
                                  rows, " left rows"),
                     runs, md);
  }
  TotalsTable(load, retract, md);
  TimeTable(load, retract, md);
  md << "\nBytes are the layout model of docs/evaluator.md (differential's "
        "ordered batches: keys and kept value columns as encoded rows with "
        "4-byte offsets, 16 bytes of time and diff per update that does not "
        "repeat the last one stored), not Materialize's allocations; compare "
        "records, and byte ratios within this table.\n";
}

}  // namespace bench_report
