// `lir-opt run --analyze` and `--analyze_compare`: Materialize's EXPLAIN
// ANALYZE table from a run, and the same plan run with features off and on
// side by side (docs/analyze.md).
#include "tools/lir-opt/run_analyze.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "lir/eval/analyze_measures.h"
#include "lir/explain/analyze.h"
#include "lir/explain/dot.h"
#include "lir/recognizer/pass.h"
#include "lir/status_macros.h"
#include "tools/lir-opt/flags.h"

ABSL_FLAG(std::string, analyze, "",
          "run: instead of the contents, print Materialize's EXPLAIN ANALYZE "
          "table of every object: memory (total_memory, total_records of the "
          "arrangements each LIR node maintains), cpu (total_elapsed, the "
          "node's own time), or both in the order given (memory,cpu).");
ABSL_FLAG(std::optional<uint64_t>, analyze_round, std::nullopt,
          "run (with --analyze or --analyze_compare): stop after this round "
          "and report the state then.");
ABSL_FLAG(std::string, analyze_compare, "",
          "run: run the plan with the listed features (FEATURE[,FEATURE...]) "
          "off and then on, same data and evaluator settings, and print one "
          "table per object: each operator's memory and records off, on and "
          "their change, rows one rewrite removed or created marked, and a "
          "total.");

ABSL_FLAG(lir::cli::AnalyzeFormat, analyze_format,
          lir::cli::AnalyzeFormat::kTable,
          "run (with --analyze): table (Materialize's EXPLAIN ANALYZE table, "
          "or JSON with --format=json) or dot (the plan as a Graphviz graph, "
          "as explain --format=dot draws it, each node with its measures and "
          "each arrangement with its records and bytes).");

namespace lir::cli {
namespace {

using MeasureMap = eval::NodeMeasures;

const MeasureMap& MeasuresOf(
    const absl::flat_hash_map<std::string, MeasureMap>& by_object,
    const std::string& name) {
  static const MeasureMap* const kNone = new MeasureMap;
  auto it = by_object.find(name);
  return it == by_object.end() ? *kNone : it->second;
}

constexpr char kFastPath[] = "a fast-path peek maintains no dataflow";

// Optimizes `doc` with `pipeline` and runs the result on a copy of `data`
// (the result may carry a round error); kExitOk, or the exit status after
// reporting why it could not start.
int OptimizeAndRun(const Pipeline& pipeline, Document doc,
                   const eval::InputData& data, const eval::RunOptions& options,
                   const std::string& input_name, OptimizeResult* optimized,
                   eval::RunResult* result) {
  absl::StatusOr<OptimizeResult> optimize =
      pipeline.Optimize(std::move(doc), input_name);
  if (!optimize.ok()) return InputError(optimize.status().message());
  *optimized = *std::move(optimize);
  absl::Status fits = eval::CheckDataForDocument(optimized->document, data);
  absl::StatusOr<eval::RunResult> run =
      fits.ok() ? eval::RunDocument(optimized->document, data, options)
                : absl::StatusOr<eval::RunResult>(fits);
  if (!run.ok()) {
    return InputError(absl::StrCat(input_name, ": ", run.status().message()));
  }
  *result = *std::move(run);
  return kExitOk;
}

// A fast-path object's entry: no table.
void FastPathObject(const AnalyzeRequest& request, const std::string& name,
                    nlohmann::json& objects) {
  if (request.json) {
    objects.push_back({{"name", name}, {"rows", nullptr}});
  } else {
    std::cout << name << ": " << kFastPath << "\n\n";
  }
}

// Prints a round error after the table, as `run` does; the exit status.
int Finish(const std::string& input_name, const eval::RunResult& result) {
  std::cout << std::flush;
  if (result.error.has_value()) {
    std::cerr << "lir-opt: " << input_name << ": " << *result.error << "\n";
    return kExitInvalidInput;
  }
  return kExitOk;
}

// The run as a graph: explain --format=dot's, each node labelled with its
// measures, each arrangement with its records and bytes, the nodes the
// passes rewrote highlighted.
std::string AnalyzeDot(const AnalyzeRequest& request,
                       const OptimizeResult& optimized,
                       const eval::RunResult& result) {
  const auto measures = eval::AnalyzeMeasures(result);
  absl::flat_hash_set<std::pair<std::string, LirId>> fired;
  for (const Candidate& c : optimized.report.candidates) {
    if (c.outcome == CandidateOutcome::kFired)
      fired.emplace(c.object, c.lir_id);
  }
  explain::DotOptions dot;
  dot.highlighted = [&fired](const Object& object, const Node& node) {
    return fired.contains(std::make_pair(object.name, node.id));
  };
  dot.arrangements = [&result](const Object& object, const Node& node) {
    std::vector<std::string> labels;
    for (const eval::ArrangementStats& s : result.arrangements) {
      if (s.object != object.name || s.lir_id != node.id) continue;
      labels.push_back(
          absl::StrCat(s.operator_name, "\n", s.records, " records, ",
                       explain::PgSizePretty(static_cast<int64_t>(s.bytes))));
    }
    return labels;
  };
  dot.measure = [&](const Object& object, const Node& node) -> std::string {
    const MeasureMap& map = MeasuresOf(measures, object.name);
    auto it = map.find(node.id);
    if (it == map.end()) return "";
    const explain::AnalyzeMeasure& m = it->second;
    std::vector<std::string> parts;
    for (explain::AnalyzeColumn c : request.columns) {
      if (c == explain::AnalyzeColumn::kMemory && m.memory_bytes.has_value()) {
        parts.push_back(absl::StrCat(
            "total_memory: ",
            explain::PgSizePretty(static_cast<int64_t>(*m.memory_bytes)),
            ", total_records: ", m.records.value_or(0)));
      }
      if (c == explain::AnalyzeColumn::kCpu && m.elapsed_ns.has_value()) {
        parts.push_back(absl::StrCat("total_elapsed: ",
                                     explain::FormatElapsed(*m.elapsed_ns)));
      }
    }
    return absl::StrJoin(parts, "\n");
  };
  return explain::PrintDot(optimized.document, dot);
}

int AnalyzeOne(const AnalyzeRequest& request, const Pipeline& pipeline,
               Document doc, const eval::InputData& data,
               eval::RunOptions options, const std::string& input_name) {
  OptimizeResult optimized;
  eval::RunResult result;
  if (int exit_code = OptimizeAndRun(pipeline, std::move(doc), data, options,
                                     input_name, &optimized, &result);
      exit_code != kExitOk) {
    return exit_code;
  }
  if (request.dot) {
    std::cout << AnalyzeDot(request, optimized, result);
    return Finish(input_name, result);
  }
  const auto measures = eval::AnalyzeMeasures(result);
  nlohmann::json objects = nlohmann::json::array();
  for (const Object& object : optimized.document.objects) {
    if (object.plan == nullptr) {
      FastPathObject(request, object.name, objects);
      continue;
    }
    const std::vector<explain::AnalyzeRow> rows =
        explain::AnalyzeRows(*object.plan, MeasuresOf(measures, object.name));
    if (request.json) {
      objects.push_back(
          {{"name", object.name},
           {"rows", explain::AnalyzeRowsJson(rows, request.columns)}});
    } else {
      std::cout << object.name << ":\n"
                << explain::PrintAnalyzeTable(rows, request.columns);
    }
  }
  if (request.json) std::cout << nlohmann::json{{"objects", objects}} << "\n";
  return Finish(input_name, result);
}

int AnalyzeCompare(const AnalyzeRequest& request,
                   const PipelineOptions& pipeline_options, Document doc,
                   const eval::InputData& data, const eval::RunOptions& options,
                   const std::string& input_name) {
  // The same document optimized twice: the listed features off, then on.
  PipelineOptions sides[2] = {pipeline_options, pipeline_options};
  for (const std::string& feature : request.compare) {
    // Checked by ParseAnalyzeRequest: every name is a boolean feature.
    (void)SetFeature(sides[0].features, feature, "false");
    (void)SetFeature(sides[1].features, feature, "true");
  }
  Document docs[2] = {Clone(doc), std::move(doc)};
  eval::RunResult results[2];
  std::vector<Document> optimized_docs;
  for (int side = 0; side < 2; ++side) {
    OptimizeResult optimized;
    if (int exit_code =
            OptimizeAndRun(Pipeline(sides[side]), std::move(docs[side]), data,
                           options, input_name, &optimized, &results[side]);
        exit_code != kExitOk) {
      return exit_code;
    }
    optimized_docs.push_back(std::move(optimized.document));
  }
  const auto off = eval::AnalyzeMeasures(results[0]);
  const auto on = eval::AnalyzeMeasures(results[1]);
  nlohmann::json objects = nlohmann::json::array();
  // Both sides hold the input's objects, in its order.
  for (size_t i = 0; i < optimized_docs[0].objects.size(); ++i) {
    const Object& a = optimized_docs[0].objects[i];
    const Object& b = optimized_docs[1].objects[i];
    if (a.plan == nullptr || b.plan == nullptr) {
      FastPathObject(request, a.name, objects);
      continue;
    }
    const std::vector<explain::AnalyzeCompareRow> rows =
        explain::CompareAnalyzeRows(
            explain::AnalyzeRows(*a.plan, MeasuresOf(off, a.name)),
            explain::AnalyzeRows(*b.plan, MeasuresOf(on, b.name)));
    if (request.json) {
      nlohmann::json j = explain::AnalyzeCompareJson(rows);
      j["name"] = a.name;
      objects.push_back(std::move(j));
    } else {
      std::cout << a.name << ":\n" << explain::PrintAnalyzeCompareTable(rows);
    }
  }
  if (request.json) {
    std::cout << nlohmann::json{{"features", request.compare},
                                {"objects", objects}}
              << "\n";
  }
  const int off_status = Finish(input_name, results[0]);
  const int on_status = Finish(input_name, results[1]);
  return off_status != kExitOk ? off_status : on_status;
}

}  // namespace

absl::StatusOr<std::optional<AnalyzeRequest>> ParseAnalyzeRequest(
    const eval::RunOptions& options, bool arrangement_sizes) {
  // Given at all, even empty (`--analyze=` is an error, not "off").
  std::optional<std::string> analyze, compare;
  if (FlagGiven("analyze")) analyze = absl::GetFlag(FLAGS_analyze);
  if (FlagGiven("analyze_compare")) {
    compare = absl::GetFlag(FLAGS_analyze_compare);
  }
  const std::optional<uint64_t> round = absl::GetFlag(FLAGS_analyze_round);
  if (!analyze.has_value() && !compare.has_value()) {
    if (FlagGiven("analyze_format")) {
      return absl::InvalidArgumentError(
          "--analyze_format draws --analyze's measures: give --analyze");
    }
    if (round.has_value()) {
      return absl::InvalidArgumentError(
          "--analyze_round needs --analyze or --analyze_compare");
    }
    return std::nullopt;
  }
  AnalyzeRequest request;
  request.json = absl::GetFlag(FLAGS_format) == OutputFormat::kJson;
  request.dot = absl::GetFlag(FLAGS_analyze_format) == AnalyzeFormat::kDot;
  if (request.dot && request.json) {
    return absl::InvalidArgumentError(
        "--analyze_format=dot writes a graph: drop --format=json");
  }
  if (request.dot && compare.has_value()) {
    return absl::InvalidArgumentError(
        "--analyze_format=dot draws one run: drop --analyze_compare");
  }
  request.last_round = round;
  if (analyze.has_value()) {
    LIR_ASSIGN_OR_RETURN(request.columns,
                         explain::ParseAnalyzeColumns(*analyze));
  } else {
    request.columns = {explain::AnalyzeColumn::kMemory};
  }
  if (compare.has_value()) {
    for (absl::string_view item : absl::StrSplit(*compare, ',')) {
      const std::string name(item);
      OptimizerFeatures probe;
      if (absl::Status known = SetFeature(probe, name, "true"); !known.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("--analyze_compare: ", known.message()));
      }
      request.compare.emplace_back(name);
    }
    if (request.columns != std::vector{explain::AnalyzeColumn::kMemory}) {
      return absl::InvalidArgumentError(
          "--analyze_compare compares memory and records only: drop "
          "--analyze or give --analyze=memory");
    }
  }
  if (options.engine != eval::Engine::kIncremental) {
    return absl::InvalidArgumentError(
        "--analyze and --analyze_compare measure the incremental engine's "
        "operators: drop --engine=snapshot");
  }
  if (arrangement_sizes) {
    return absl::InvalidArgumentError(
        "--analyze and --analyze_compare print a table instead of the "
        "contents: drop --arrangement_sizes");
  }
  return request;
}

int RunAnalyze(const AnalyzeRequest& request,
               const PipelineOptions& pipeline_options, Document doc,
               const eval::InputData& data, eval::RunOptions options,
               const std::string& input_name) {
  options.last_round = request.last_round;
  if (!request.compare.empty()) {
    return AnalyzeCompare(request, pipeline_options, std::move(doc), data,
                          options, input_name);
  }
  options.measure_elapsed =
      std::find(request.columns.begin(), request.columns.end(),
                explain::AnalyzeColumn::kCpu) != request.columns.end();
  PipelineOptions one = pipeline_options;
  // A graph highlights the nodes the passes rewrote: their fired candidates.
  one.report = request.dot;
  return AnalyzeOne(request, Pipeline(std::move(one)), std::move(doc), data,
                    options, input_name);
}

}  // namespace lir::cli
