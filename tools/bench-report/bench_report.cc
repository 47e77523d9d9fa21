// bench-report: turns Google Benchmark JSON outputs (one per bench binary,
// from --benchmark_format=json --benchmark_out=FILE) into docs/BENCHMARKS.md,
// plus gnuplot data files and a script; renders the charts when gnuplot is on
// PATH so the report never depends on it.
//
// Usage: bench-report --out=docs/BENCHMARKS.md [--charts=docs/] FILE.json...
//        bench-report --update --out=docs/BENCHMARKS.md [--charts=docs/]
//                     FILE.json...
// The first writes the whole report; the second replaces (or adds) only the
// sections of the given benches in an existing report, so one bench can be
// rerun without rerunning the others (scripts/bench.sh --only); its
// --charts draws only the charts those sections show themselves
// (spine_bench's), leaving the shared ones as they are.
//
// Benchmark names are "<operation>/<workload...>" (explain, analysis,
// recognizer benches), "BM_X/keys:N/fused:F/sched:S/eager:E/real_time"
// (eval_bench, whose section is in eval_report.cc),
// "BM_X/rows:N/rewrite:R/real_time" (antijoin_bench, antijoin_report.cc),
// "BM_SpinePlan/keys:N/policy:P/funded:F/idle:K/..." (spine_plan_bench,
// spine_plan_report.cc) or "BM_SpineCell/<policy>/<exertion>/B:../k:../E:.."
// (spine_bench, spine_report.cc).
// Per-node counters are registered with kInvert, so the JSON holds seconds per
// node; they are shown as ns/node. Repetitions of one benchmark are grouped:
// tables show the median repetition (eval_bench also min and median times).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"
#include "tools/bench-report/report.h"
#include "tools/bench-report/spine_plan_report.h"

namespace bench_report {

using Json = nlohmann::json;

double Run::cpu_ns() const { return Median(cpu_samples); }

std::string LoadAverages(const nlohmann::json& context) {
  std::vector<std::string> loads;
  if (context.contains("load_avg") && context["load_avg"].is_array()) {
    for (const nlohmann::json& l : context["load_avg"]) {
      if (l.is_number()) {
        loads.push_back(absl::StrFormat("%.2f", l.get<double>()));
      }
    }
  }
  return absl::StrJoin(loads, " ");
}

double Min(const std::vector<double>& samples) {
  return samples.empty() ? 0
                         : *std::min_element(samples.begin(), samples.end());
}

double Max(const std::vector<double>& samples) {
  return samples.empty() ? 0
                         : *std::max_element(samples.begin(), samples.end());
}

double Median(const std::vector<double>& samples) {
  if (samples.empty()) return 0;
  std::vector<double> v = samples;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

double ToNs(double value, const std::string& unit) {
  if (unit == "ms") return value * 1e6;
  if (unit == "us") return value * 1e3;
  if (unit == "s") return value * 1e9;
  return value;
}

// Counters that are plain numbers in the JSON: everything not a standard
// field.
const std::set<std::string>& StandardFields() {
  static const auto* fields =
      new std::set<std::string>{"name",
                                "family_index",
                                "per_family_instance_index",
                                "run_name",
                                "run_type",
                                "repetitions",
                                "repetition_index",
                                "threads",
                                "iterations",
                                "real_time",
                                "cpu_time",
                                "time_unit",
                                "label",
                                "error_occurred",
                                "error_message",
                                "aggregate_name",
                                "aggregate_unit",
                                "skipped",
                                "skip_message"};
  return *fields;
}

// Google Benchmark writes a non-finite counter value (the coefficient of
// variation of a counter that is 0 in every repetition) as a bare NaN, Inf,
// -NaN or -Inf, which is not JSON: they become null, which no table reads.
std::string NullNonFinite(std::string text) {
  for (const char* token : {": -NaN", ": NaN", ": -Inf", ": Inf"}) {
    const size_t length = std::strlen(token);
    for (size_t at = text.find(token); at != std::string::npos;
         at = text.find(token, at + 1)) {
      const size_t end = at + length;
      if (end < text.size() &&
          (text[end] == ',' || text[end] == '\n' || text[end] == '}')) {
        text.replace(at, length, ": null");
      }
    }
  }
  return text;
}

absl::StatusOr<Family> ReadFamily(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  Json j = Json::parse(NullNonFinite(buffer.str()), nullptr,
                       /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a JSON object (is it a --benchmark_out file?)"));
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
  // Repetitions of one name, in order of first appearance; each sample
  // keeps its counters and label so the median one can speak for all.
  struct Sample {
    double cpu_ns = 0, real_ns = 0;
    std::map<std::string, double> counters;
    std::string label;
  };
  std::vector<std::pair<Run, std::vector<Sample>>> grouped;
  std::map<std::string, size_t> by_name;
  for (const Json& b : j["benchmarks"]) {
    if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) {
      continue;
    }
    if (b.value("run_type", "iteration") != "iteration") continue;
    const std::string name = b["name"].get<std::string>();
    auto [it, fresh] = by_name.emplace(name, grouped.size());
    if (fresh) {
      Run r;
      r.name = name;
      std::vector<std::string> parts = absl::StrSplit(name, '/');
      r.operation = parts[0];
      if (absl::StartsWith(r.operation, "BM_")) r.operation.erase(0, 3);
      std::vector<std::string> rest;
      for (size_t i = 1; i < parts.size(); ++i) {
        const std::string& p = parts[i];
        // Benchmark's own suffixes say how it ran, not what it ran.
        if (p == "real_time" || absl::StartsWith(p, "min_time:") ||
            absl::StartsWith(p, "iterations:") ||
            absl::StartsWith(p, "repeats:") ||
            absl::StartsWith(p, "threads:")) {
          continue;
        }
        std::pair<std::string, std::string> kv = absl::StrSplit(p, ':');
        if (!kv.second.empty()) r.args[kv.first] = kv.second;
        rest.push_back(p);
      }
      r.workload = rest.empty() ? "-" : absl::StrJoin(rest, "/");
      grouped.emplace_back(std::move(r), std::vector<Sample>());
    }
    Run& r = grouped[it->second].first;
    if (b.value("error_occurred", false)) {
      r.error = b.value("error_message", "error");
      continue;
    }
    Sample s;
    const std::string unit = b.value("time_unit", "ns");
    if (b.contains("cpu_time") && b["cpu_time"].is_number()) {
      s.cpu_ns = ToNs(b["cpu_time"].get<double>(), unit);
    }
    if (b.contains("real_time") && b["real_time"].is_number()) {
      s.real_ns = ToNs(b["real_time"].get<double>(), unit);
    }
    for (const auto& [key, value] : b.items()) {
      if (value.is_number() && !StandardFields().contains(key)) {
        s.counters[key] = value.get<double>();
      }
    }
    if (b.contains("label") && b["label"].is_string()) {
      s.label = b["label"].get<std::string>();
    }
    grouped[it->second].second.push_back(std::move(s));
  }
  for (auto& [r, samples] : grouped) {
    if (!samples.empty()) {
      std::sort(
          samples.begin(), samples.end(),
          [](const Sample& a, const Sample& b) { return a.cpu_ns < b.cpu_ns; });
      for (const Sample& s : samples) {
        r.cpu_samples.push_back(s.cpu_ns);
        r.real_samples.push_back(s.real_ns);
      }
      const Sample& median = samples[(samples.size() - 1) / 2];
      r.counters = median.counters;
      r.label = median.label;
    } else if (r.error.empty()) {
      r.error = "no samples";
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

}  // namespace

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

bool Usable(const Run* r) { return r != nullptr && r->error.empty(); }

std::string Ms(double ns) { return absl::StrFormat("%.1f", ns / 1e6); }

std::string Mb(uint64_t bytes) {
  return absl::StrFormat("%.1f MB", static_cast<double>(bytes) / 1e6);
}

std::vector<Arrangement> ParseLabel(const std::string& label) {
  std::vector<Arrangement> out;
  for (absl::string_view part : absl::StrSplit(label, "; ")) {
    const size_t colon = part.rfind(": ");
    if (colon == absl::string_view::npos) continue;
    std::vector<absl::string_view> nums =
        absl::StrSplit(part.substr(colon + 2), '/');
    Arrangement a;
    a.role = std::string(part.substr(0, colon));
    if (nums.size() != 3 ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[0], "r"), &a.records) ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[1], "b"), &a.batches) ||
        !absl::SimpleAtoi(absl::StripSuffix(nums[2], "B"), &a.bytes)) {
      continue;  // not an arrangement entry
    }
    out.push_back(std::move(a));
  }
  return out;
}

const Arrangement* FindRole(const std::vector<Arrangement>& arrangements,
                            const std::string& role) {
  for (const Arrangement& a : arrangements) {
    if (a.role == role) return &a;
  }
  return nullptr;
}

namespace {

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
  md << "\n"
     << title << "\n\n| workload | " << absl::StrJoin(ops, " | ")
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

}  // namespace

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

namespace {

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
  // Records per arrangement, rewrite off vs on (the first eval family).
  for (const Family& f : families) {
    if (!IsEvalAB(f)) continue;
    absl::StatusOr<std::string> chart =
        EvalChart(f, dir, "../benchmarks-arrangements.png");
    if (!chart.ok()) return chart.status();
    bars << *chart;
    have_bars = !chart->empty();
    break;
  }
  // ns/node vs plan size: one panel per family, one line per operation,
  // over the generated size sweeps (workload "N" or "mixed/N"); the floors
  // dashed.
  std::vector<std::string> panels;
  for (const Family& f : families) {
    std::map<std::string, std::map<double, double>> series;
    for (const Run& r : f.runs) {
      std::optional<double> ns = NsPerNode(r);
      std::optional<double> nodes = Counter(r, "nodes");
      if (!ns || !nodes || !r.error.empty()) continue;
      std::vector<std::string> parts = absl::StrSplit(r.workload, '/');
      const bool sweep =
          (parts.size() == 1 || (parts.size() == 2 && parts[0] == "mixed")) &&
          !parts.back().empty() &&
          parts.back().find_first_not_of("0123456789") == std::string::npos;
      if (sweep) series[r.operation][*nodes] = *ns;
    }
    std::vector<std::string> plots;
    for (const auto& [op, points] : series) {
      if (points.size() < 2) continue;  // a line needs two sizes
      std::ostringstream dat;
      dat << "# nodes ns_per_node\n";
      for (const auto& [n, ns] : points) dat << n << " " << ns << "\n";
      std::string name = absl::StrCat("benchmarks-", f.name, "-", op, ".dat");
      if (absl::Status s = WriteFile(dir / name, dat.str()); !s.ok()) return s;
      const std::string lower = absl::AsciiStrToLower(op);
      const bool floor = absl::StrContains(lower, "travers") ||
                         (absl::StrContains(lower, "nlohmann") &&
                          absl::StrContains(lower, "parse"));
      plots.push_back(absl::StrCat("'", name, "' using 1:2 with linespoints ",
                                   floor ? "dt 2 lw 2 " : "lw 1.5 ", "title '",
                                   op, floor ? " (floor)" : "", "'"));
    }
    if (plots.empty()) continue;
    panels.push_back(absl::StrCat("set title '", f.name, "'\nplot ",
                                  absl::StrJoin(plots, ", \\\n     "), "\n"));
  }
  if (!panels.empty()) {
    lines << "set terminal pngcairo size " << 700 * panels.size()
          << ",650 noenhanced\n"
             "set output '../benchmarks-ns-per-node.png'\n"
             "set key inside top left font ',9'\n"
             "set logscale xy\nset xlabel 'plan nodes'\nset ylabel "
             "'CPU ns per node'\nset xrange [500:2000000]\n"
             "set yrange [1:200000]\n"
             "set multiplot layout 1,"
          << panels.size()
          << " title 'CPU ns per plan node vs plan size (dashed: floors)'\n"
          << absl::StrJoin(panels, "") << "unset multiplot\n";
    have_lines = true;
  }
  gp << bars.str() << lines.str();
  if (absl::Status s = WriteFile(dir / "benchmarks.gp", gp.str()); !s.ok()) {
    return s;
  }
  std::vector<std::string> rendered;
  if (!(have_bars || have_lines) || !HaveGnuplot()) return rendered;
  std::string cmd =
      absl::StrCat("cd '", dir.string(), "' && gnuplot benchmarks.gp");
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "bench-report: gnuplot failed on "
              << (dir / "benchmarks.gp").string() << "; charts skipped\n";
    return rendered;
  }
  if (have_bars) rendered.push_back("benchmarks-arrangements.png");
  if (have_lines) rendered.push_back("benchmarks-ns-per-node.png");
  return rendered;
}

// What each bench binary measures, shown under its heading.
const std::map<std::string, std::string> kFamilyTitles = {
    {"explain_bench",
     "Reading and writing plans: text parse, validate, text print, JSON "
     "write and read (and the corpus, every file a document)."},
    {"recognizer_bench",
     "The fused set-difference pass (one EXCEPT candidate per 25 nodes, half "
     "of them firing): DryRun decides every candidate, Apply also rewrites; "
     "FreshClone variants run on a just-made clone, with their own floor."},
    {"analysis_bench",
     "The three analyses (arity, monotonicity, available arrangements), "
     "and document_all_five: everything `lir-opt explain --annotate` runs "
     "over a document (those three, unique keys and the arrangements "
     "built); deep = one chain, letrec/K = a LetRec whose arity fixpoint "
     "takes K + 1 rounds."},
};

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
    md << "- load average at start: " << LoadAverages(c) << "\n";
  }
  md << "- Google Benchmark library build (not lir's): "
     << c.value("library_build_type", "?") << "\n- inputs:";
  for (const Family& f : families) md << " `" << f.name << "`";
  md << "\n";
}

// The first line of the paragraph that introduces the library benches.
constexpr char kLibraryIntro[] = "Library operations on generated plans";

// Marks around one family's section, so bench-report --update can replace
// it.
std::string BeginMarker(const std::string& family) {
  return absl::StrCat("<!-- bench-report:begin ", family, " -->");
}
std::string EndMarker(const std::string& family) {
  return absl::StrCat("<!-- bench-report:end ", family, " -->");
}

// One family's section: its heading, its tables, between its markers.
std::string Section(const Family& f) {
  std::ostringstream md;
  md << BeginMarker(f.name) << "\n## " << f.name << "\n";
  if (auto it = kFamilyTitles.find(f.name); it != kFamilyTitles.end()) {
    md << "\n" << it->second << "\n";
  }
  if (IsEvalAB(f)) {
    EvalSection(f, md);
  } else if (IsAntiJoinAB(f)) {
    AntiJoinSection(f, md);
  } else if (IsSpinePlanAB(f)) {
    SpinePlanSection(f, md);
  } else if (IsSpineBench(f)) {
    SpineSection(f, md);
  } else {
    PivotTable(
        f, "CPU ns per plan node:",
        [](const Run& r) {
          std::optional<double> ns = NsPerNode(r);
          return ns ? std::optional<std::string>(absl::StrFormat("%.1f", *ns))
                    : std::nullopt;
        },
        md);
    PivotTable(
        f, "Throughput, MB/s:",
        [](const Run& r) {
          std::optional<double> bps = Counter(r, "bytes_per_second");
          return bps ? std::optional<std::string>(
                           absl::StrFormat("%.1f", *bps / 1e6))
                     : std::nullopt;
        },
        md);
    // Raw time only when the family reports neither rate: otherwise it
    // repeats the ns/node table scaled by the plan size.
    bool has_rate = false;
    for (const Run& r : f.runs) {
      has_rate |= NsPerNode(r).has_value() ||
                  Counter(r, "bytes_per_second").has_value();
    }
    if (!has_rate) {
      PivotTable(
          f, "CPU time per iteration, us:",
          [](const Run& r) {
            return std::optional<std::string>(
                absl::StrFormat("%.1f", r.cpu_ns() / 1e3));
          },
          md);
    }
  }
  md << "\n" << EndMarker(f.name) << "\n";
  return md.str();
}

absl::StatusOr<std::vector<Family>> ReadFamilies(
    const std::vector<std::string>& inputs) {
  std::vector<Family> families;
  for (const std::string& path : inputs) {
    absl::StatusOr<Family> f = ReadFamily(path);
    if (!f.ok()) return f.status();
    families.push_back(*std::move(f));
  }
  return families;
}

// The charts a family's own section shows (spine_bench's), drawn into
// `charts_dir`; the shared charts (benchmarks.gp) are WriteCharts'.
absl::Status SectionCharts(const std::vector<Family>& families,
                           const std::string& charts_dir) {
  for (const Family& f : families) {
    if (!IsSpineBench(f)) continue;
    absl::StatusOr<bool> drawn = SpineChart(f, charts_dir);
    if (!drawn.ok()) return drawn.status();
  }
  return absl::OkStatus();
}

// --update: replaces each family's section in the report at `out_path`
// (between its markers), or inserts it before the library benches'
// introduction (else before the charts, else before the bench-compare block,
// else at the end), leaving everything else as it was. The header's inputs
// line gains the families it did not list. With `charts_dir`, also draws
// the charts those sections show themselves.
absl::Status Update(const std::string& out_path, const std::string& charts_dir,
                    const std::vector<std::string>& inputs) {
  absl::StatusOr<std::vector<Family>> families = ReadFamilies(inputs);
  if (!families.ok()) return families.status();
  if (!charts_dir.empty()) {
    if (absl::Status s = SectionCharts(*families, charts_dir); !s.ok()) {
      return s;
    }
  }
  std::ifstream in(out_path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat(
        out_path, ": cannot open (--update edits an existing report)"));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string md = buffer.str();
  for (const Family& f : *families) {
    const std::string section = Section(f);
    const size_t begin = md.find(BeginMarker(f.name));
    const size_t end = begin == std::string::npos
                           ? std::string::npos
                           : md.find(EndMarker(f.name), begin);
    if (end != std::string::npos) {
      // The section ends with the end marker's line.
      md.replace(begin, end + EndMarker(f.name).size() + 1 - begin, section);
      continue;
    }
    size_t at = std::string::npos;
    for (const std::string& anchor :
         {absl::StrCat("\n", kLibraryIntro), std::string("\n## Charts"),
          std::string("\n<!-- bench-compare:begin -->")}) {
      at = md.find(anchor);
      if (at != std::string::npos) {
        ++at;  // the start of the anchor's line
        break;
      }
    }
    if (at == std::string::npos) {
      md += absl::StrCat("\n", section);
    } else {
      md.insert(at, absl::StrCat(section, "\n"));
    }
    const std::string listed = absl::StrCat("`", f.name, "`");
    const size_t line = md.find("\n- inputs:");
    if (line != std::string::npos) {
      const size_t eol = md.find('\n', line + 1);
      if (md.substr(line, eol - line).find(listed) == std::string::npos) {
        md.insert(eol, absl::StrCat(" ", listed,
                                    " (added by --update; its "
                                    "section says when it ran)"));
      }
    }
  }
  return WriteFile(out_path, md);
}

absl::Status Main(const std::string& out_path, const std::string& charts_dir,
                  const std::vector<std::string>& inputs) {
  absl::StatusOr<std::vector<Family>> read = ReadFamilies(inputs);
  if (!read.ok()) return read.status();
  const std::vector<Family>& families = *read;
  std::ostringstream md;
  Header(families, md);
  bool library_intro = false;
  for (const Family& f : families) {
    if (!IsEvalAB(f) && !IsAntiJoinAB(f) && !IsSpinePlanAB(f) &&
        !IsSpineBench(f) && !library_intro) {
      md << "\n"
         << kLibraryIntro
         << " (tests/support/"
            "plan_generator.h) of 10^3 to 10^6 nodes. Each table has two "
            "floors measured on the same plan in the same run: a bare "
            "traversal (Traversal, traverse) and nlohmann::json::parse of "
            "the plan's JSON form (NlohmannParse, nlohmann_parse). MB/s "
            "counts the bytes of the form an operation reads (text; JSON for "
            "the JSON operations and the nlohmann floor), and the plan's "
            "text size for passes and analyses.\n";
      library_intro = true;
    }
    md << "\n" << Section(f);
  }
  if (!charts_dir.empty()) {
    absl::StatusOr<std::vector<std::string>> charts =
        WriteCharts(families, charts_dir);
    if (!charts.ok()) return charts.status();
    if (absl::Status s = SectionCharts(families, charts_dir); !s.ok()) {
      return s;
    }
    std::filesystem::path rel = std::filesystem::relative(
        std::filesystem::absolute(charts_dir),
        std::filesystem::absolute(out_path).parent_path());
    if (charts->empty()) {
      std::filesystem::path script = std::filesystem::path(charts_dir) /
                                     "benchmarks-data" / "benchmarks.gp";
      md << "\n## Charts\n\nNot rendered (gnuplot not on PATH); data and "
            "script: `"
         << script.generic_string() << "`.\n";
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
}  // namespace bench_report

int main(int argc, char** argv) {
  std::string out, charts;
  bool update = false;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (absl::StartsWith(arg, "--out=")) {
      out = arg.substr(6);
    } else if (absl::StartsWith(arg, "--charts=")) {
      charts = arg.substr(9);
    } else if (arg == "--update") {
      update = true;
    } else if (absl::StartsWith(arg, "--")) {
      std::cerr << "bench-report: unknown flag " << arg << "\n";
      return 2;
    } else {
      inputs.push_back(arg);
    }
  }
  if (out.empty() || inputs.empty()) {
    std::cerr << "usage: bench-report --out=FILE.md [--charts=DIR] "
                 "BENCH.json...\n"
                 "       bench-report --update --out=FILE.md [--charts=DIR] "
                 "BENCH.json...\n";
    return 2;
  }
  absl::Status s = update ? bench_report::Update(out, charts, inputs)
                          : bench_report::Main(out, charts, inputs);
  if (!s.ok()) {
    std::cerr << "bench-report: " << s << "\n";
    return 1;
  }
  std::cout << "bench-report: wrote " << out << "\n";
  return 0;
}
