// Shared types of bench-report: benchmark runs read from Google Benchmark
// JSON, grouped by benchmark name over repetitions.
#ifndef LIR_TOOLS_BENCH_REPORT_REPORT_H_
#define LIR_TOOLS_BENCH_REPORT_REPORT_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace bench_report {

/// One benchmark (one name) over its repetitions.
struct Run {
  std::string name;       ///< the full benchmark name
  std::string operation;  ///< first name component, "BM_" stripped
  std::string workload;   ///< the rest, e.g. "mixed/1000" or "corpus"
  std::map<std::string, std::string> args;  ///< "keys:100000" style parts
  /// Per repetition, ns per iteration.
  std::vector<double> cpu_samples, real_samples;
  /// Counters of the repetition with the median CPU time.
  std::map<std::string, double> counters;
  /// Label of that repetition.
  std::string label;
  std::string error;

  /// Median CPU ns per iteration.
  double cpu_ns() const;
};

/// The runs of one bench binary.
struct Family {
  std::string name;  ///< the bench binary, e.g. "explain_bench"
  std::string file;
  nlohmann::json context;
  std::vector<Run> runs;
};

/// The load averages a run's context recorded at its start, `"4.10 5.28
/// 5.94"` (empty when it recorded none).
std::string LoadAverages(const nlohmann::json& context);

/// The smallest sample (0 when there is none).
double Min(const std::vector<double>& samples);
/// The largest sample (0 when there is none).
double Max(const std::vector<double>& samples);
/// The median sample (the mean of the middle two for an even count).
double Median(const std::vector<double>& samples);

/// A counter of `r`, when present.
std::optional<double> Counter(const Run& r, const std::string& key);

/// A number in 3-4 significant digits with k/M/G suffixes.
std::string Num(double v);

/// A run that has samples and no error.
bool Usable(const Run* r);

/// Nanoseconds as milliseconds, one decimal.
std::string Ms(double ns);

/// Bytes as decimal megabytes, one decimal: "12.5 MB".
std::string Mb(uint64_t bytes);

/// One arrangement as the A/B benches' labels list it:
/// `role: <records>r/<batches>b/<bytes>B`.
struct Arrangement {
  std::string role;
  uint64_t records = 0;
  uint64_t batches = 0;
  uint64_t bytes = 0;
};

/// The arrangements of a label, entries separated by "; "; the role is
/// everything before the entry's last ": " (a role may hold ": " itself,
/// as in `Arranged MonotonicTop1 partial [val: empty]`). Entries that are
/// not arrangements are skipped.
std::vector<Arrangement> ParseLabel(const std::string& label);

/// The arrangement named `role`, or null.
const Arrangement* FindRole(const std::vector<Arrangement>& arrangements,
                            const std::string& role);

/// Writes `text` to `path`.
absl::Status WriteFile(const std::filesystem::path& path,
                       const std::string& text);

/// Whether `f` is eval_bench's set-difference A/B.
bool IsEvalAB(const Family& f);

/// The eval_bench section: time and throughput, arrangements per
/// configuration, Materialize's measurement beside ours, and the goals.
void EvalSection(const Family& f, std::ostream& md);

/// Whether `f` is antijoin_bench's A/B (runs with `rows` and `rewrite`).
bool IsAntiJoinAB(const Family& f);

/// The antijoin_bench section: arrangements per plan (off, SetDifference,
/// AntiJoin) and the CPU time of loading and of the retraction round.
void AntiJoinSection(const Family& f, std::ostream& md);

/// Whether `f` is spine_bench's grid (runs named `BM_SpineCell/...`).
bool IsSpineBench(const Family& f);

/// The spine_bench section: merge work per inserted update over the grid,
/// the headline cells, the two claims checked against the numbers,
/// the model's speed; it shows the chart SpineChart draws.
void SpineSection(const Family& f, std::ostream& md);

/// Writes the spine chart's data and gnuplot script into
/// `out_dir`/benchmarks-data and draws `out_dir`/benchmarks-spine.png when
/// gnuplot is on PATH; returns whether it was drawn.
absl::StatusOr<bool> SpineChart(const Family& f,
                                const std::filesystem::path& out_dir);

/// Writes gnuplot data for the chart of records per arrangement, rewrite
/// off vs on, into `data_dir` and returns the gnuplot commands that draw it
/// into `png` (a path relative to `data_dir`); empty when `f` has nothing
/// to draw.
absl::StatusOr<std::string> EvalChart(const Family& f,
                                      const std::filesystem::path& data_dir,
                                      const std::string& png);

}  // namespace bench_report

#endif  // LIR_TOOLS_BENCH_REPORT_REPORT_H_
