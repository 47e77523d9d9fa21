// The spine_bench section of docs/BENCHMARKS.md (bench/spine_bench.cc):
// merge work per inserted update over the grid of batch sizes B, idle
// turns k, policies and exertions, with and without empty batches; the two
// claims of issue 15 checked against the measured numbers; the spine's own
// speed; and a log-log chart of work per update against k.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "tools/bench-report/report.h"

namespace bench_report {
namespace {

// The claims of issue 15 item 5, as stated there: under idle_merge:1000 the
// stock curve approaches N/B as k grows; the funded curve stays flat in k,
// at most kFundedFuel / B + kFundedSlack.
constexpr char kIdleMerge[] = "idle_merge:1000";
constexpr double kFundedFuel = 8192;
constexpr double kFundedSlack = 16;
// How the report judges them (fixed before any run): "approaches" holds
// when the value at the largest k is within kApproach of N/B; "flat" holds
// when the largest value over k is at most kFlat times the smallest.
constexpr double kApproach = 0.10;
constexpr double kFlat = 1.25;

// One grid cell: E, policy, exertion, B, k.
using Key = std::tuple<uint64_t, std::string, std::string, uint64_t, uint64_t>;

struct Grid {
  std::map<Key, const Run*> cells;
  std::vector<std::string> policies;  // first-seen (registration) order
  std::set<uint64_t> empties, sizes, turns;
  const Run* total = nullptr;
  std::vector<const Run*> real;
};

// `BM_SpineCell/<policy>/<exertion>/B:<B>/k:<k>/E:<E>`.
std::optional<Key> CellKey(const Run& r) {
  std::vector<std::string> parts = absl::StrSplit(r.name, '/');
  if (parts.size() < 6 || parts[0] != "BM_SpineCell") return std::nullopt;
  uint64_t b = 0, k = 0, e = 0;
  if (!absl::SimpleAtoi(absl::StripPrefix(parts[3], "B:"), &b) ||
      !absl::SimpleAtoi(absl::StripPrefix(parts[4], "k:"), &k) ||
      !absl::SimpleAtoi(absl::StripPrefix(parts[5], "E:"), &e)) {
    return std::nullopt;
  }
  return Key{e, parts[1], parts[2], b, k};
}

Grid Collect(const Family& f) {
  Grid g;
  for (const Run& r : f.runs) {
    if (r.operation == "SpineGrid") g.total = &r;
    if (r.operation == "SpineReal") g.real.push_back(&r);
    std::optional<Key> key = CellKey(r);
    if (!key) continue;
    g.cells[*key] = &r;
    const std::string& policy = std::get<1>(*key);
    if (std::find(g.policies.begin(), g.policies.end(), policy) ==
        g.policies.end()) {
      g.policies.push_back(policy);
    }
    g.empties.insert(std::get<0>(*key));
    g.sizes.insert(std::get<3>(*key));
    g.turns.insert(std::get<4>(*key));
  }
  return g;
}

std::optional<double> Value(const Run* r, const char* counter) {
  if (!Usable(r)) return std::nullopt;
  return Counter(*r, counter);
}

std::optional<double> Wpu(const Grid& g, uint64_t e, const std::string& policy,
                          const std::string& exertion, uint64_t b, uint64_t k) {
  auto it = g.cells.find(Key{e, policy, exertion, b, k});
  return it == g.cells.end() ? std::nullopt
                             : Value(it->second, "work_per_update");
}

std::string Cell(const std::optional<double>& v) { return v ? Num(*v) : "-"; }

// A counter as an integer, "-" when absent.
std::string Int(const Run* r, const char* counter) {
  std::optional<double> v = Value(r, counter);
  return v ? absl::StrFormat("%.0f", *v) : "-";
}

// N and n as the runs report them (the first cell that has them).
std::pair<double, double> SnapshotAndBatches(const Grid& g) {
  for (const auto& [key, r] : g.cells) {
    std::optional<double> n = Value(r, "snapshot");
    std::optional<double> batches = Value(r, "batches");
    if (n && batches) return {*n, *batches};
  }
  return {0, 0};
}

// Rows B x k, columns policy x {stock, funded}.
void WorkTable(const Grid& g, uint64_t e, std::ostream& md) {
  md << "\nMerge work per inserted update, E = " << e
     << " empty batches after each batch:\n\n| B | k |";
  for (const std::string& p : g.policies)
    md << " " << p << " stock | " << p << " funded |";
  md << "\n|---:|---:|";
  for (size_t i = 0; i < g.policies.size(); ++i) md << "---:|---:|";
  md << "\n";
  for (uint64_t b : g.sizes) {
    for (uint64_t k : g.turns) {
      md << "| " << b << " | " << k << " |";
      for (const std::string& p : g.policies) {
        md << " " << Cell(Wpu(g, e, p, "stock", b, k)) << " | "
           << Cell(Wpu(g, e, p, "funded", b, k)) << " |";
      }
      md << "\n";
    }
  }
}

// The headline cells with the counters behind them.
void HeadlineTable(const Grid& g, uint64_t e, std::ostream& md) {
  const std::vector<uint64_t> sizes = {1024, 16384};
  const std::vector<uint64_t> turns = {0, 256, 4096};
  md << "\nHeadline cells (E = " << e
     << "), stock vs funded, with the counters of each run (idle turns "
        "used, virtual batches, grants from credit + bank, unfunded "
        "continuations, declines, non-empty batches left):\n\n"
        "| policy | B | k | stock | funded | funded / stock | idle turns "
        "stock / funded | virtual stock / funded | grants funded | unfunded "
        "| declines | batches stock / funded |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const std::string& p : g.policies) {
    for (uint64_t b : sizes) {
      for (uint64_t k : turns) {
        auto s = g.cells.find(Key{e, p, "stock", b, k});
        auto f = g.cells.find(Key{e, p, "funded", b, k});
        if (s == g.cells.end() || f == g.cells.end()) continue;
        std::optional<double> sw = Value(s->second, "work_per_update");
        std::optional<double> fw = Value(f->second, "work_per_update");
        std::optional<double> credit = Value(f->second, "grants_credit");
        std::optional<double> bank = Value(f->second, "grants_bank");
        md << "| " << p << " | " << b << " | " << k << " | " << Cell(sw)
           << " | " << Cell(fw) << " | "
           << (sw && fw && *sw > 0 ? absl::StrFormat("%.3f", *fw / *sw) : "-")
           << " | " << Int(s->second, "idle_turns_used") << " / "
           << Int(f->second, "idle_turns_used") << " | "
           << Int(s->second, "virtual_batches") << " / "
           << Int(f->second, "virtual_batches") << " | "
           << (credit && bank ? absl::StrFormat("%.0f + %.0f", *credit, *bank)
                              : "-")
           << " | " << Int(f->second, "unfunded_continuations") << " | "
           << Int(f->second, "declines") << " | "
           << Int(s->second, "nonempty_batches") << " / "
           << Int(f->second, "nonempty_batches") << " |\n";
      }
    }
  }
}

// Claim 1: the stock idle_merge:1000 curve approaches N/B as k grows.
void StockClaim(const Grid& g, std::ostream& md) {
  const auto [n, batches] = SnapshotAndBatches(g);
  if (g.turns.empty() || n <= 0) return;
  const uint64_t k_max = *g.turns.rbegin();
  const uint64_t k_min = *g.turns.begin();
  md << "\n**Claim 1: under " << kIdleMerge
     << " the stock curve approaches N/B as k grows** (judged: the value "
        "at the largest k, "
     << k_max << ", within " << absl::StrFormat("%.0f", kApproach * 100)
     << "% of N/B; N = " << absl::StrFormat("%.0f", n)
     << "). For reference, a run in which every batch is merged into the "
        "largest layer writes, per update, that layer's size over B averaged "
        "over the run, N/B + (n + 1)/2 with n = "
     << absl::StrFormat("%.0f", batches)
     << " (the largest layer grows by B per batch).\n\n"
        "| E | B | N/B | N/B + (n+1)/2 | k = "
     << k_min << " | k = " << k_max << " | k = " << k_max
     << " / (N/B) | k = " << k_max
     << " / (N/B + (n+1)/2) | non-decreasing in k | holds |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
  int held = 0, judged = 0;
  for (uint64_t e : g.empties) {
    for (uint64_t b : g.sizes) {
      const double nb = n / static_cast<double>(b);
      std::optional<double> first = Wpu(g, e, kIdleMerge, "stock", b, k_min);
      std::optional<double> last = Wpu(g, e, kIdleMerge, "stock", b, k_max);
      bool monotone = true;
      std::optional<double> prev;
      for (uint64_t k : g.turns) {
        std::optional<double> v = Wpu(g, e, kIdleMerge, "stock", b, k);
        if (!v) continue;
        if (prev && *v < *prev) monotone = false;
        prev = v;
      }
      std::string verdict = "not measured";
      if (last) {
        const bool ok = std::abs(*last / nb - 1) <= kApproach;
        verdict = ok ? "yes" : "**no**";
        held += ok ? 1 : 0;
        ++judged;
      }
      md << "| " << e << " | " << b << " | " << Num(nb) << " | "
         << Num(nb + (batches + 1) / 2) << " | " << Cell(first) << " | "
         << Cell(last) << " | "
         << (last ? absl::StrFormat("%.3f", *last / nb) : "-") << " | "
         << (last ? absl::StrFormat("%.3f", *last / (nb + (batches + 1) / 2))
                  : "-")
         << " | " << (monotone ? "yes" : "no") << " | " << verdict << " |\n";
    }
  }
  md << "\nClaim 1 holds in " << held << " of " << judged
     << " (E, B) rows and is false in " << judged - held << ".\n";
}

// Claim 2: the funded curve stays flat in k, at most 8192/B + 16.
void FundedClaim(const Grid& g, std::ostream& md) {
  md << "\n**Claim 2: the funded curve stays flat in k, at most "
     << absl::StrFormat("%.0f", kFundedFuel) << "/B + "
     << absl::StrFormat("%.0f", kFundedSlack)
     << "** (judged: flat when the largest value over k is at most "
     << absl::StrFormat("%.2f", kFlat)
     << " times the smallest; bounded when the largest is at most the "
        "bound).\n\n"
        "| policy | E | B | k = "
     << (g.turns.empty() ? 0 : *g.turns.begin())
     << " | k = " << (g.turns.empty() ? 0 : *g.turns.rbegin())
     << " | min over k | max over k (at k) | max / min | flat | bound | max "
        "<= bound | holds |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|\n";
  int flat_count = 0, bounded_count = 0, both = 0, judged = 0;
  for (const std::string& p : g.policies) {
    for (uint64_t e : g.empties) {
      for (uint64_t b : g.sizes) {
        std::optional<double> lo, hi;
        uint64_t at = 0;
        for (uint64_t k : g.turns) {
          std::optional<double> v = Wpu(g, e, p, "funded", b, k);
          if (!v) continue;
          if (!lo || *v < *lo) lo = v;
          if (!hi || *v > *hi) {
            hi = v;
            at = k;
          }
        }
        if (!hi) continue;
        const double bound =
            kFundedFuel / static_cast<double>(b) + kFundedSlack;
        const bool flat = *hi <= kFlat * *lo;
        const bool bounded = *hi <= bound;
        ++judged;
        flat_count += flat ? 1 : 0;
        bounded_count += bounded ? 1 : 0;
        both += flat && bounded ? 1 : 0;
        md << "| " << p << " | " << e << " | " << b << " | "
           << Cell(Wpu(g, e, p, "funded", b, *g.turns.begin())) << " | "
           << Cell(Wpu(g, e, p, "funded", b, *g.turns.rbegin())) << " | "
           << Num(*lo) << " | " << Num(*hi) << " (" << at << ") | "
           << (*lo > 0 ? absl::StrFormat("%.3f", *hi / *lo) : "-") << " | "
           << (flat ? "yes" : "**no**") << " | " << Num(bound) << " | "
           << (bounded ? "yes" : "**no**") << " | "
           << (flat && bounded ? "yes" : "**no**") << " |\n";
      }
    }
  }
  md << "\nClaim 2 holds in " << both << " of " << judged
     << " (policy, E, B) rows and is false in " << judged - both << ": flat in "
     << flat_count << ", within the bound in " << bounded_count << ".\n";
}

// ns per merged record and per turn, over the cells and the whole grid;
// and on real batches.
void SpeedTables(const Grid& g, std::ostream& md) {
  md << "\nThe model's own speed, wall and CPU time (the spine is "
        "single-threaded, so wall above CPU is the host's other load; a "
        "cell's time includes settling its snapshot, and a synthetic merge "
        "step is arithmetic, so ns per merged record is mostly the cost of "
        "the turns around it):\n\n"
        "| runs | cells | wall s | CPU s | merge work | turns | ns per merged "
        "record, wall / CPU | ns per turn, wall / CPU |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n";
  // `ns / count` with `decimals` decimals ("-" when count is 0); the format
  // string is a literal, as clang's absl::StrFormat checking requires.
  const auto per = [](double ns, double count, int decimals) {
    return count > 0 ? absl::StrFormat("%.*f", decimals, ns / count)
                     : std::string("-");
  };
  const auto row = [&md, &per](const std::string& what, double cells,
                               double wall, double cpu, double work,
                               double turns) {
    md << "| " << what << " | " << absl::StrFormat("%.0f", cells) << " | "
       << absl::StrFormat("%.2f", wall / 1e9) << " | "
       << absl::StrFormat("%.2f", cpu / 1e9) << " | " << Num(work) << " | "
       << Num(turns) << " | " << per(wall, work, 3) << " / "
       << per(cpu, work, 3) << " | " << per(wall, turns, 1) << " / "
       << per(cpu, turns, 1) << " |\n";
  };
  for (uint64_t e : g.empties) {
    double wall = 0, cpu = 0, work = 0, turns = 0, cells = 0;
    for (const auto& [key, r] : g.cells) {
      if (std::get<0>(key) != e || !Usable(r)) continue;
      wall += Median(r->real_samples);
      cpu += r->cpu_ns();
      work += Value(r, "merge_work").value_or(0);
      turns += Value(r, "turns").value_or(0);
      ++cells;
    }
    row(absl::StrCat("cells with E = ", e, " (sum)"), cells, wall, cpu, work,
        turns);
  }
  if (Usable(g.total)) {
    row("BM_SpineGrid: the whole grid in one run",
        Value(g.total, "cells").value_or(0), Median(g.total->real_samples),
        g.total->cpu_ns(), Value(g.total, "merge_work").value_or(0),
        Value(g.total, "turns").value_or(0));
    md << "\nThe whole grid ("
       << absl::StrFormat("%.0f", Value(g.total, "cells").value_or(0))
       << " cells) runs in "
       << absl::StrFormat("%.1f", Median(g.total->real_samples) / 1e9)
       << " s of wall time, "
       << absl::StrFormat("%.1f", g.total->cpu_ns() / 1e9)
       << " s of CPU (BM_SpineGrid).\n";
  } else {
    md << "\nBM_SpineGrid (the whole grid in one run) was not run.\n";
  }
  if (g.real.empty()) return;
  md << "\nReal batches (Batch::Real, random 128-bit fingerprints, one time "
        "per batch, the compaction frontier at the batch's time; n = 64 "
        "batches, up to 16 idle turns each, then closed and drained; timed "
        "from the first batch through the drain). A real merge is computed "
        "when it begins, so this is the cost `lir-opt run --spine` pays per "
        "record its arrangements' spines write:\n\n"
        "| run | wall ms | CPU ms | merge work | work per update | ns per "
        "merged record, wall / CPU | merged records per CPU second |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const Run* r : g.real) {
    md << "| " << r->workload << " |";
    if (!Usable(r)) {
      md << " " << (r->error.empty() ? "" : "error: " + r->error)
         << " | | | | | |\n";
      continue;
    }
    const double wall = Median(r->real_samples);
    const double cpu = r->cpu_ns();
    const double work = Value(r, "merge_work").value_or(0);
    md << " " << Ms(wall) << " | " << Ms(cpu) << " | " << Num(work) << " | "
       << Cell(Value(r, "work_per_update")) << " | " << per(wall, work, 1)
       << " / " << per(cpu, work, 1) << " | "
       << (cpu > 0 ? Num(work / (cpu / 1e9)) : "-") << " |\n";
  }
}

std::string Slug(const std::string& s) {
  return absl::StrReplaceAll(s, {{":", "_"}});
}

}  // namespace

bool IsSpineBench(const Family& f) {
  for (const Run& r : f.runs) {
    if (CellKey(r)) return true;
  }
  return false;
}

void SpineSection(const Family& f, std::ostream& md) {
  const Grid g = Collect(f);
  const auto [n, batches] = SnapshotAndBatches(g);
  const nlohmann::json& c = f.context;
  md << "\nThe fueled spine of ../shared/reference/SPINE.md under idle "
        "scheduling (bench/spine_bench.cc; the workload of its section 6, "
        "what `lir-opt spine` runs): a snapshot of N = "
     << absl::StrFormat("%.0f", n)
     << " updates settled, then n = " << absl::StrFormat("%.0f", batches)
     << " batches of B updates, each followed by up to k idle turns (taken "
        "while the spine requests them), optionally E empty batches after "
        "each, each with its own activation and idle turns. Merge work is "
        "records written by merges, counted after the snapshot settled, per "
        "inserted update (n x B). Stock grants every request; funded pays "
        "for them from the input (SPINE.md section 5). Each cell is "
        "deterministic and ran once. Measured "
     << c.value("date", "?") << " on " << c.value("host_name", "?") << " ("
     << c.value("num_cpus", 0) << " CPUs, load average at start "
     << LoadAverages(c) << ").\n";
  for (uint64_t e : g.empties) WorkTable(g, e, md);
  md << "\n![merge work per update against idle turns]"
        "(./benchmarks-spine.png)\n\n"
        "Chart: docs/benchmarks-spine.png, drawn by `bench-report --charts` "
        "when gnuplot is on PATH (data and script: "
        "docs/benchmarks-data/benchmarks-spine_bench-*.dat, spine_bench.gp); "
        "log-log, k = 0 drawn at 0.5; one colour per B, solid stock, dashed "
        "funded.\n";
  for (uint64_t e : g.empties) HeadlineTable(g, e, md);
  StockClaim(g, md);
  FundedClaim(g, md);
  SpeedTables(g, md);
}

absl::StatusOr<bool> SpineChart(const Family& f,
                                const std::filesystem::path& out_dir) {
  const Grid g = Collect(f);
  const std::filesystem::path dir = out_dir / "benchmarks-data";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat(dir.string(), ": cannot create: ", ec.message()));
  }
  const std::vector<std::string> colours = {"#1b9e77", "#d95f02", "#7570b3",
                                            "#e7298a", "#66a61e", "#a6761d"};
  std::vector<std::string> panels;
  for (uint64_t e : g.empties) {
    for (const std::string& p : g.policies) {
      std::vector<std::string> plots;
      for (const char* exertion : {"stock", "funded"}) {
        // Rows k, columns B (k = 0 at x = 0.5: a log axis has no 0).
        std::ostringstream dat;
        dat << "# k x";
        for (uint64_t b : g.sizes) dat << " B" << b;
        dat << "\n";
        for (uint64_t k : g.turns) {
          dat << k << " " << (k == 0 ? 0.5 : static_cast<double>(k));
          for (uint64_t b : g.sizes) {
            std::optional<double> v = Wpu(g, e, p, exertion, b, k);
            dat << " " << (v && *v > 0 ? absl::StrFormat("%.6g", *v) : "NaN");
          }
          dat << "\n";
        }
        const std::string name =
            absl::StrCat("benchmarks-", f.name, "-", Slug(p), "-", exertion,
                         "-E", e, ".dat");
        if (absl::Status s = WriteFile(dir / name, dat.str()); !s.ok()) {
          return s;
        }
        size_t column = 3, i = 0;
        for (uint64_t b : g.sizes) {
          plots.push_back(absl::StrCat(
              "'", name, "' using 2:", column++,
              " with linespoints lw 2 lc rgb '", colours[i++ % colours.size()],
              "' ",
              exertion == std::string("stock") ? "dt 1 pt 7" : "dt 2 pt 6",
              " ps 0.8 title 'B=", b, " ", exertion, "'"));
        }
      }
      panels.push_back(absl::StrCat("set title '", p, ", E = ", e, "'\nplot ",
                                    absl::StrJoin(plots, ", \\\n     "), "\n"));
    }
  }
  if (panels.empty()) return false;
  std::string xtics;
  for (uint64_t k : g.turns) {
    absl::StrAppend(&xtics, xtics.empty() ? "" : ", ", "\"", k, "\" ",
                    k == 0 ? 0.5 : static_cast<double>(k));
  }
  const size_t rows = g.empties.size();
  const size_t columns = g.policies.size();
  std::ostringstream gp;
  gp << "# Generated by bench-report; run from this directory (the chart "
        "goes to its parent).\n"
     << "set terminal pngcairo size " << 620 * columns << "," << 560 * rows
     << " noenhanced\nset output '../benchmarks-spine.png'\n"
     << "set logscale xy\nset grid\nset xrange [0.4:"
     << 1.5 * static_cast<double>(std::max<uint64_t>(*g.turns.rbegin(), 1))
     << "]\nset xtics (" << xtics << ")\n"
     << "set xlabel 'idle turns k'\nset ylabel 'merge work per inserted "
        "update'\nset key top left font ',8' spacing 0.9 maxrows 5\n"
     << "set multiplot layout " << rows << "," << columns
     << " title 'spine_bench: merge work per inserted update against idle "
        "turns (solid stock, dashed funded; N = "
     << static_cast<uint64_t>(SnapshotAndBatches(g).first) << ")'\n"
     << absl::StrJoin(panels, "") << "unset multiplot\n";
  const std::string script = "spine_bench.gp";
  if (absl::Status s = WriteFile(dir / script, gp.str()); !s.ok()) return s;
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::cerr << "bench-report: gnuplot not on PATH; "
              << (out_dir / "benchmarks-spine.png").string() << " not drawn\n";
    return false;
  }
  const std::string cmd =
      absl::StrCat("cd '", dir.string(), "' && gnuplot ", script);
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "bench-report: gnuplot failed on " << (dir / script).string()
              << "\n";
    return false;
  }
  return true;
}

}  // namespace bench_report
