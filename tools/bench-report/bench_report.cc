// bench-report: turns Google Benchmark JSON outputs (one per bench binary,
// from --benchmark_format=json --benchmark_out=FILE) into docs/BENCHMARKS.md,
// plus gnuplot data files and a script; renders the charts when gnuplot is on
// PATH so the report never depends on it.
//
// Usage: bench-report --out=docs/BENCHMARKS.md [--charts=docs/] FILE.json...
//
// Benchmark names are "<operation>/<workload...>" (explain, analysis,
// recognizer benches) or "BM_X/keys:N/fused:F/sched:S/eager:E/real_time"
// (eval_bench). Per-node counters are registered with kInvert, so the JSON
// holds seconds per node; they are shown as ns/node.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"

namespace {

using Json = nlohmann::json;

// One benchmark run (iteration row; aggregates are skipped because the
// tables show one number per cell).
struct Run {
  std::string operation;  // first name component, "BM_" stripped
  std::string workload;   // the rest, e.g. "mixed/1000" or "corpus"
  std::map<std::string, std::string> args;  // "keys:100000" style parts
  double cpu_ns = 0;                        // CPU time per iteration, ns
  std::map<std::string, double> counters;
  std::string error;
};

struct Family {
  std::string name;  // the bench binary, e.g. "explain_bench"
  std::string file;
  Json context;
  std::vector<Run> runs;
};

double ToNs(double value, const std::string& unit) {
  if (unit == "ms") return value * 1e6;
  if (unit == "us") return value * 1e3;
  if (unit == "s") return value * 1e9;
  return value;
}

// Counters that are plain numbers in the JSON: everything not a standard
// field.
const std::set<std::string>& StandardFields() {
  static const auto* fields = new std::set<std::string>{
      "name", "family_index", "per_family_instance_index", "run_name",
      "run_type", "repetitions", "repetition_index", "threads", "iterations",
      "real_time", "cpu_time", "time_unit", "label", "error_occurred",
      "error_message", "aggregate_name", "aggregate_unit", "skipped",
      "skip_message"};
  return *fields;
}

absl::StatusOr<Family> ReadFamily(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  Json j = Json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not a JSON object (is it a --benchmark_out file?)"));
  }
  if (!j.contains("benchmarks") || !j["benchmarks"].is_array()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": no \"benchmarks\" array"));
  }
  Family f;
  f.file = path;
  f.context = j.value("context", Json::object());
  std::string exe = f.context.value("executable", "");
  f.name = exe.empty() ? std::filesystem::path(path).stem().string()
                       : std::filesystem::path(exe).filename().string();
  for (const Json& b : j["benchmarks"]) {
    if (!b.is_object() || !b.contains("name")) continue;
    if (b.value("run_type", "iteration") != "iteration") continue;
    Run r;
    std::vector<std::string> parts = absl::StrSplit(
        b["name"].get<std::string>(), '/');
    r.operation = parts[0];
    if (absl::StartsWith(r.operation, "BM_")) r.operation.erase(0, 3);
    std::vector<std::string> rest;
    for (size_t i = 1; i < parts.size(); ++i) {
      const std::string& p = parts[i];
      // Benchmark's own suffixes say how it ran, not what it ran.
      if (p == "real_time" || absl::StartsWith(p, "min_time:") ||
          absl::StartsWith(p, "iterations:") ||
          absl::StartsWith(p, "repeats:") || absl::StartsWith(p, "threads:")) {
        continue;
      }
      std::pair<std::string, std::string> kv = absl::StrSplit(p, ':');
      if (!kv.second.empty()) r.args[kv.first] = kv.second;
      rest.push_back(p);
    }
    r.workload = rest.empty() ? "-" : absl::StrJoin(rest, "/");
    if (b.value("error_occurred", false)) {
      r.error = b.value("error_message", "error");
    }
    if (b.contains("cpu_time") && b["cpu_time"].is_number()) {
      r.cpu_ns = ToNs(b["cpu_time"].get<double>(), b.value("time_unit", "ns"));
    }
    for (const auto& [key, value] : b.items()) {
      if (value.is_number() && !StandardFields().contains(key)) {
        r.counters[key] = value.get<double>();
      }
    }
    f.runs.push_back(std::move(r));
  }
  if (f.runs.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": no benchmark runs (filter matched nothing?)"));
  }
  return f;
}

std::optional<double> NsPerNode(const Run& r) {
  for (const char* key : {"ns_per_node", "per_node"}) {
    auto it = r.counters.find(key);
    if (it != r.counters.end()) return it->second * 1e9;  // seconds/node
  }
  return std::nullopt;
}

std::optional<double> Counter(const Run& r, const std::string& key) {
  auto it = r.counters.find(key);
  if (it == r.counters.end()) return std::nullopt;
  return it->second;
}

std::string Num(double v) {
  if (v >= 1e9) return absl::StrFormat("%.2fG", v / 1e9);
  if (v >= 1e6) return absl::StrFormat("%.2fM", v / 1e6);
  if (v >= 1e4) return absl::StrFormat("%.1fk", v / 1e3);
  if (v >= 100) return absl::StrFormat("%.0f", v);
  return absl::StrFormat("%.3g", v);
}

// Operations and workloads in first-seen order, which is registration order.
template <typename Key>
std::vector<std::string> Ordered(const Family& f, Key key) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const Run& r : f.runs) {
    if (seen.insert(key(r)).second) out.push_back(key(r));
  }
  return out;
}

// Rows = workload, columns = operation; `cell` formats one run or returns
// nullopt when the metric does not apply.
template <typename Cell>
void PivotTable(const Family& f, const std::string& title, Cell cell,
                std::ostream& md) {
  std::vector<std::string> ops =
      Ordered(f, [](const Run& r) { return r.operation; });
  std::vector<std::string> loads =
      Ordered(f, [](const Run& r) { return r.workload; });
  std::map<std::pair<std::string, std::string>, std::string> cells;
  bool any = false;
  for (const Run& r : f.runs) {
    std::optional<std::string> c =
        r.error.empty() ? cell(r) : std::optional<std::string>("error");
    if (c) {
      cells[{r.workload, r.operation}] = *c;
      any = true;
    }
  }
  if (!any) return;
  md << "\n" << title << "\n\n| workload | " << absl::StrJoin(ops, " | ")
     << " |\n|---|";
  for (size_t i = 0; i < ops.size(); ++i) md << "---:|";
  md << "\n";
  for (const std::string& w : loads) {
    md << "| " << w << " |";
    for (const std::string& op : ops) {
      auto it = cells.find({w, op});
      md << " " << (it == cells.end() ? "" : it->second) << " |";
    }
    md << "\n";
  }
}

bool IsEvalAB(const Family& f) {
  for (const Run& r : f.runs) {
    if (r.args.contains("fused") && r.args.contains("keys")) return true;
  }
  return false;
}

// eval_bench: one row per (keys, sched, eager), rewrite off vs on.
void EvalTable(const Family& f, std::ostream& md) {
  std::map<std::tuple<int64_t, std::string, std::string>,
           std::pair<const Run*, const Run*>>
      rows;
  for (const Run& r : f.runs) {
    if (!r.args.contains("fused")) continue;
    auto key = std::make_tuple(std::atoll(r.args.at("keys").c_str()),
                               r.args.contains("sched") ? r.args.at("sched") : "",
                               r.args.contains("eager") ? r.args.at("eager") : "");
    (r.args.at("fused") == "0" ? rows[key].first : rows[key].second) = &r;
  }
  md << "\nSet-difference rewrite A/B (off = Threshold over the co-arranged "
        "Union, on = fused SetDifference). sched 0: a and b in round 0; "
        "1: b one round later. eager: Compaction::kEager.\n\n"
        "| keys | sched | eager | records off | records on | records on/off "
        "| bytes off | bytes on | bytes on/off | CPU ms off | CPU ms on "
        "| updates/s off | updates/s on |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  auto val = [](const Run* r, const char* key) -> std::string {
    if (r == nullptr) return "";
    if (!r->error.empty()) return "error";
    std::optional<double> v = Counter(*r, key);
    return v ? Num(*v) : "";
  };
  auto ratio = [](const Run* a, const Run* b, const char* key) -> std::string {
    if (a == nullptr || b == nullptr) return "";
    std::optional<double> x = Counter(*a, key), y = Counter(*b, key);
    if (!x || !y || *x == 0) return "";
    return absl::StrFormat("%.2f", *y / *x);
  };
  auto cpu = [](const Run* r) -> std::string {
    return r == nullptr || !r->error.empty()
               ? ""
               : absl::StrFormat("%.2f", r->cpu_ns / 1e6);
  };
  for (const auto& [key, pair] : rows) {
    const auto& [off, on] = pair;
    md << "| " << std::get<0>(key) << " | " << std::get<1>(key) << " | "
       << std::get<2>(key) << " | " << val(off, "records") << " | "
       << val(on, "records") << " | " << ratio(off, on, "records") << " | "
       << val(off, "bytes") << " | " << val(on, "bytes") << " | "
       << ratio(off, on, "bytes") << " | " << cpu(off) << " | " << cpu(on)
       << " | " << val(off, "updates_per_s") << " | "
       << val(on, "updates_per_s") << " |\n";
  }
}

absl::Status WriteFile(const std::filesystem::path& path,
                       const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) {
    return absl::UnavailableError(
        absl::StrCat(path.string(), ": cannot write"));
  }
  return absl::OkStatus();
}

bool HaveGnuplot() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}

// Writes .dat files and benchmarks.gp into `dir`/benchmarks-data (a
// subdirectory, so a dozen data files do not clutter docs/) and the charts
// into `dir`; returns the chart names (relative to `dir`) that gnuplot
// rendered, empty when it did not run.
absl::StatusOr<std::vector<std::string>> WriteCharts(
    const std::vector<Family>& families, const std::filesystem::path& out_dir) {
  const std::filesystem::path dir = out_dir / "benchmarks-data";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat(dir.string(), ": cannot create: ", ec.message()));
  }
  std::ostringstream gp;
  gp << "# Generated by bench-report; run from this directory (the charts go\n"
        "# to its parent).\n"
        "set terminal pngcairo size 1000,600 noenhanced\n"
        "set key outside right\nset grid\n";
  bool have_bars = false, have_lines = false;
  std::ostringstream bars, lines;
  // Arrangement records per eval configuration, rewrite off vs on.
  for (const Family& f : families) {
    if (!IsEvalAB(f)) continue;
    std::ostringstream dat;
    dat << "# config records_off records_on\n";
    std::map<std::string, std::pair<double, double>> by_config;
    std::vector<std::string> order;
    for (const Run& r : f.runs) {
      if (!r.args.contains("fused") || !r.error.empty()) continue;
      std::string config = absl::StrCat(
          "k", r.args.at("keys"), "_s", r.args.contains("sched") ? r.args.at("sched") : "",
          "_e", r.args.contains("eager") ? r.args.at("eager") : "");
      if (!by_config.contains(config)) order.push_back(config);
      double rec = Counter(r, "records").value_or(0);
      (r.args.at("fused") == "0" ? by_config[config].first
                                 : by_config[config].second) = rec;
    }
    for (const std::string& c : order) {
      dat << c << " " << by_config[c].first << " " << by_config[c].second
          << "\n";
    }
    std::string name = absl::StrCat("benchmarks-", f.name, "-records.dat");
    if (absl::Status s = WriteFile(dir / name, dat.str()); !s.ok()) return s;
    bars << "set output '../benchmarks-arrangements.png'\n"
            "set title 'Arrangement records after the last round'\n"
            "set style data histograms\nset style histogram clustered\n"
            "set style fill solid 0.8\nset xtics rotate by -30\n"
            "set yrange [0:*]\nset ylabel 'records'\n"
            "plot '" << name << "' using 2:xtic(1) title 'rewrite off', '' "
            "using 3 title 'rewrite on'\n"
            "set autoscale y\nset xtics norotate\n";
    have_bars = true;
    break;  // one eval family is all the chart shows
  }
  // ns/node vs numeric plan size, one line per family:operation.
  std::vector<std::string> plots;
  for (const Family& f : families) {
    std::map<std::string, std::map<double, double>> series;
    for (const Run& r : f.runs) {
      std::optional<double> ns = NsPerNode(r);
      std::optional<double> nodes = Counter(r, "nodes");
      if (!ns || !nodes || !r.error.empty()) continue;
      // Only generated size sweeps: the last workload part is the size.
      std::vector<std::string> parts = absl::StrSplit(r.workload, '/');
      if (parts.back().empty() ||
          parts.back().find_first_not_of("0123456789") != std::string::npos) {
        continue;
      }
      std::string series_name = r.operation;
      if (parts.size() > 1) absl::StrAppend(&series_name, "-", parts[0]);
      series[series_name][*nodes] = *ns;
    }
    for (const auto& [op, points] : series) {
      if (points.size() < 2) continue;  // a line needs two sizes
      std::ostringstream dat;
      dat << "# nodes ns_per_node\n";
      for (const auto& [n, ns] : points) dat << n << " " << ns << "\n";
      std::string name = absl::StrCat("benchmarks-", f.name, "-", op, ".dat");
      if (absl::Status s = WriteFile(dir / name, dat.str()); !s.ok()) return s;
      std::string fam = f.name;
      if (absl::EndsWith(fam, "_bench")) fam.resize(fam.size() - 6);
      plots.push_back(absl::StrCat("'", name, "' using 1:2 with linespoints title '",
                                   fam, ":", op, "'"));
    }
  }
  if (!plots.empty()) {
    lines << "set output '../benchmarks-ns-per-node.png'\n"
             "set title 'CPU ns per plan node vs plan size'\n"
             "set logscale xy\nset xlabel 'plan nodes'\nset ylabel 'ns/node'\n"
             "plot " << absl::StrJoin(plots, ", \\\n     ") << "\n";
    have_lines = true;
  }
  gp << bars.str() << lines.str();
  if (absl::Status s = WriteFile(dir / "benchmarks.gp", gp.str()); !s.ok()) {
    return s;
  }
  std::vector<std::string> rendered;
  if (!(have_bars || have_lines) || !HaveGnuplot()) return rendered;
  std::string cmd = absl::StrCat("cd '", dir.string(),
                                 "' && gnuplot benchmarks.gp");
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "bench-report: gnuplot failed on "
              << (dir / "benchmarks.gp").string() << "; charts skipped\n";
    return rendered;
  }
  if (have_bars) rendered.push_back("benchmarks-arrangements.png");
  if (have_lines) rendered.push_back("benchmarks-ns-per-node.png");
  return rendered;
}

void Header(const std::vector<Family>& families, std::ostream& md) {
  const Json& c = families.front().context;
  md << "# Benchmarks\n\n"
        "Generated by `scripts/bench.sh` (tools/bench-report) from Google "
        "Benchmark JSON; do not edit by hand.\n\n";
  md << "- date: " << c.value("date", "?") << "\n";
  md << "- host: " << c.value("host_name", "?") << ", "
     << c.value("num_cpus", 0) << " CPUs at " << c.value("mhz_per_cpu", 0)
     << " MHz, CPU scaling "
     << (c.value("cpu_scaling_enabled", false) ? "on" : "off") << "\n";
  if (c.contains("load_avg") && c["load_avg"].is_array()) {
    std::vector<std::string> loads;
    for (const Json& l : c["load_avg"]) {
      if (l.is_number()) loads.push_back(absl::StrFormat("%.2f", l.get<double>()));
    }
    md << "- load average at start: " << absl::StrJoin(loads, " ") << "\n";
  }
  md << "- Google Benchmark library build (not lir's): "
     << c.value("library_build_type", "?")
     << "\n- inputs:";
  for (const Family& f : families) md << " `" << f.name << "`";
  md << "\n";
}

absl::Status Main(const std::string& out_path, const std::string& charts_dir,
                  const std::vector<std::string>& inputs) {
  std::vector<Family> families;
  for (const std::string& path : inputs) {
    absl::StatusOr<Family> f = ReadFamily(path);
    if (!f.ok()) return f.status();
    families.push_back(*std::move(f));
  }
  std::ostringstream md;
  Header(families, md);
  for (const Family& f : families) {
    md << "\n## " << f.name << "\n";
    if (IsEvalAB(f)) {
      EvalTable(f, md);
      continue;
    }
    PivotTable(f, "CPU ns per plan node:", [](const Run& r) {
      std::optional<double> ns = NsPerNode(r);
      return ns ? std::optional<std::string>(absl::StrFormat("%.1f", *ns))
                : std::nullopt;
    }, md);
    PivotTable(f, "Throughput, MB/s:", [](const Run& r) {
      std::optional<double> bps = Counter(r, "bytes_per_second");
      return bps ? std::optional<std::string>(absl::StrFormat("%.1f", *bps / 1e6))
                 : std::nullopt;
    }, md);
    // Raw time only when the family reports neither rate: otherwise it
    // repeats the ns/node table scaled by the plan size.
    bool has_rate = false;
    for (const Run& r : f.runs) {
      has_rate |= NsPerNode(r).has_value() ||
                  Counter(r, "bytes_per_second").has_value();
    }
    if (!has_rate) {
      PivotTable(f, "CPU time per iteration, us:", [](const Run& r) {
        return std::optional<std::string>(
            absl::StrFormat("%.1f", r.cpu_ns / 1e3));
      }, md);
    }
  }
  if (!charts_dir.empty()) {
    absl::StatusOr<std::vector<std::string>> charts =
        WriteCharts(families, charts_dir);
    if (!charts.ok()) return charts.status();
    std::filesystem::path rel = std::filesystem::relative(
        std::filesystem::absolute(charts_dir),
        std::filesystem::absolute(out_path).parent_path());
    if (charts->empty()) {
      std::filesystem::path script =
          std::filesystem::path(charts_dir) / "benchmarks-data" / "benchmarks.gp";
      md << "\n## Charts\n\nNot rendered (gnuplot not on PATH); data and "
            "script: `" << script.generic_string() << "`.\n";
    } else {
      md << "\n## Charts\n";
      for (const std::string& png : *charts) {
        md << "\n![" << png << "](" << (rel / png).generic_string() << ")\n";
      }
    }
  }
  return WriteFile(out_path, md.str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, charts;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--out=")) {
      out = arg.substr(6);
    } else if (absl::StartsWith(arg, "--charts=")) {
      charts = arg.substr(9);
    } else if (absl::StartsWith(arg, "--")) {
      std::cerr << "bench-report: unknown flag " << arg << "\n";
      return 2;
    } else {
      inputs.push_back(arg);
    }
  }
  if (out.empty() || inputs.empty()) {
    std::cerr << "usage: bench-report --out=FILE.md [--charts=DIR] "
                 "BENCH.json...\n";
    return 2;
  }
  if (absl::Status s = Main(out, charts, inputs); !s.ok()) {
    std::cerr << "bench-report: " << s << "\n";
    return 1;
  }
  std::cout << "bench-report: wrote " << out << "\n";
  return 0;
}
