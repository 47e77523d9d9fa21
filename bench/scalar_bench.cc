// Per-row cost of a scalar-heavy MFP (arithmetic, comparisons, literals,
// coalesce, case when, a text concatenation) over N rows of (int, int or
// NULL, text):
//   compile_per_row  EvalMfp (scalar_eval.h): the MFP lowered again for
//                    every row, as the engines evaluated before
//                    compiled_scalar.h (each call classified by name, each
//                    literal parsed, the filters sorted, per row)
//   compiled         CompiledMfp::Compile once, then Eval per row: what both
//                    engines do now
// Both produce the same rows (checked once, untimed). Reported per run:
//   ns_per_row   wall time per input row, in nanoseconds (the console
//                prints it with an SI prefix and an `s`: 794s is 794 ns)
//   kept         rows the filters kept
// Argument: rows N.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/eval/scalar_eval.h"
#include "lir/explain/text.h"
#include "lir/node.h"

namespace {

using lir::eval::CompiledMfp;
using lir::eval::DataRow;
using lir::eval::Datum;

constexpr char kPlan[] = R"(Explained Query:
  Mfp
    project=(#0, #3, #4, #5, #6)
    filter=((#3 > 10) AND ((#0 % 7) != 3) AND ((#2 || "-x") != "skip-x"))
    map=(((#0 * 3) + (coalesce(#1, 0) / 2)), case when (#0 > 500) then "big" else "small" end, coalesce(#1, (#0 - 1), 0), case when ((#1) IS NULL OR (#1 < 0)) then -(#0) else (#0 + #1) end)
    Get::Collection materialize.public.t
      raw=true
)";

lir::MapFilterProject BenchMfp() {
  absl::StatusOr<lir::Document> doc = lir::explain::ParseText(kPlan);
  if (!doc.ok()) return {};
  return doc->objects.at(0).plan->As<lir::MfpOp>().mfp;
}

std::vector<DataRow> Rows(int64_t n) {
  std::vector<DataRow> rows;
  rows.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    rows.push_back({Datum::Int(i % 1000),
                    i % 5 == 0 ? Datum::Null() : Datum::Int(i % 97 - 20),
                    Datum::String(i % 11 == 0 ? "skip" : "row")});
  }
  return rows;
}

void Report(benchmark::State& state, int64_t rows, int64_t kept) {
  state.counters["ns_per_row"] =
      benchmark::Counter(static_cast<double>(rows) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  state.counters["kept"] = static_cast<double>(kept);
}

// Times `eval` over `rows`; reports the rows the MFP kept.
template <typename Eval>
void TimeRows(benchmark::State& state, const std::vector<DataRow>& rows,
              Eval eval) {
  int64_t kept = 0;
  for (auto _ : state) {
    kept = 0;
    for (const DataRow& row : rows) {
      absl::StatusOr<std::optional<DataRow>> out = eval(row);
      if (!out.ok()) {
        state.SkipWithError(std::string(out.status().message()).c_str());
        return;
      }
      kept += out->has_value() ? 1 : 0;
      benchmark::DoNotOptimize(out);
    }
  }
  Report(state, state.range(0), kept);
}

void BM_ScalarMfp_CompilePerRow(benchmark::State& state) {
  const lir::MapFilterProject mfp = BenchMfp();
  TimeRows(state, Rows(state.range(0)),
           [&](const DataRow& row) { return lir::eval::EvalMfp(mfp, row); });
}

void BM_ScalarMfp_Compiled(benchmark::State& state) {
  const lir::MapFilterProject mfp = BenchMfp();
  const std::vector<DataRow> rows = Rows(state.range(0));
  absl::StatusOr<CompiledMfp> compiled = CompiledMfp::Compile(mfp);
  if (!compiled.ok()) {
    state.SkipWithError(std::string(compiled.status().message()).c_str());
    return;
  }
  // Untimed: the two paths agree on every row.
  for (const DataRow& row : rows) {
    if (compiled->Eval(row).value_or(std::nullopt) !=
        lir::eval::EvalMfp(mfp, row).value_or(std::nullopt)) {
      state.SkipWithError("compiled and per-row results differ");
      return;
    }
  }
  TimeRows(state, rows,
           [&](const DataRow& row) { return compiled->Eval(row); });
}

BENCHMARK(BM_ScalarMfp_CompilePerRow)
    ->ArgName("rows")
    ->Arg(1000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScalarMfp_Compiled)
    ->ArgName("rows")
    ->Arg(1000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
