// The arrangement accounting (include/lir/interp/arrangements_built.h) on every
// corpus plan the evaluator runs, with the fused rewrite off and on: the
// arrangements it says each node builds are the ones `lir-opt run
// --arrangement_sizes` lists.
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arrangements_built.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/arrangements_compare.h"
#include "tests/support/corpus_data.h"
#include "tests/support/corpus_util.h"

namespace lir::interp {
namespace {

namespace fs = std::filesystem;
using test::Compare;
using test::Comparison;

// The corpus: for every plan the evaluator runs (the data generator of
// eval_corpus_test), with the fused rewrite off and on, the analysis names
// exactly the arrangements the incremental engine lists, per object and
// LirId, and the same imported indexes. The nodes of a LetRec, which the
// engine runs whole through its recompute adapter, cannot be compared: they
// are logged with what the analysis says they build, and the engine must
// list no dataflow arrangement for them. (A Join::Delta the engine runs
// through an adapter is compared: it builds nothing either way.)
TEST(ArrangementsBuiltCorpus, EqualsTheEvaluatorsListing) {
  const std::vector<fs::path> paths = test::PlanFiles();
  std::error_code ec;
  LIR_SKIP_WITHOUT_CORPUS(
      paths.empty() ||
      !fs::exists(test::SqlDir(test::SharedDir()) / "MAP.tsv", ec));
  const std::map<std::string, test::PlanSchema> schemas =
      test::LoadSchemas(test::SharedDir());
  int compared = 0, compared_on = 0, not_run = 0;
  uint64_t nodes = 0, arrangements = 0, imports = 0, adapted_nodes = 0;
  std::vector<std::string> adapted;
  for (const fs::path& path : paths) {
    const std::string name = path.filename().string();
    absl::StatusOr<Document> doc = explain::ParseText(test::ReadFile(path));
    ASSERT_TRUE(doc.ok()) << name << ": " << doc.status();
    std::vector<std::string> derived;
    absl::StatusOr<eval::InputData> data =
        test::MakeData(name, *doc, schemas, &derived);
    if (doc->objects.empty() || !data.ok()) {
      ++not_run;
      continue;
    }
    OptimizerFeatures on_features;
    on_features.enable_fused_set_difference = true;
    absl::StatusOr<OptimizeResult> on = Optimize(Clone(*doc), on_features);
    ASSERT_TRUE(on.ok()) << name;
    AnalysisInputs inputs;
    for (const auto& entry : data->collections) {
      inputs.global_arity[entry.first] = entry.second.arity;
    }
    bool ran = false;
    for (const Document* version : {&*doc, &on->document}) {
      const bool fused = version != &*doc;
      absl::StatusOr<eval::RunResult> run =
          eval::RunDocument(*version, *data, eval::RunOptions());
      if (!run.ok()) {
        // eval_corpus_test runs every plan the snapshot engine runs with
        // the incremental one too; plans neither runs are not counted.
        EXPECT_FALSE(fused) << name << " runs only without the rewrite";
        break;
      }
      absl::StatusOr<DocumentAnalysis> analysis =
          DocumentAnalysis::Run(*version, inputs);
      ASSERT_TRUE(analysis.ok()) << name << ": " << analysis.status();
      const Comparison comparison =
          Compare(*version, *analysis, run->arrangements);
      EXPECT_TRUE(comparison.differences.empty())
          << name << (fused ? " (rewrite on)" : "") << ":\n  "
          << absl::StrJoin(comparison.differences, "\n  ");
      if (fused) {
        // Counted once: the rewrite changes few plans.
        ++compared_on;
        continue;
      }
      ran = true;
      ++compared;
      nodes += comparison.nodes;
      arrangements += comparison.arrangements;
      imports += comparison.imports;
      adapted_nodes += comparison.adapted_nodes;
      for (const std::string& line : comparison.adapted) {
        adapted.push_back(absl::StrCat(name, ": ", line));
      }
    }
    if (!ran) ++not_run;
  }
  std::cout << "arrangements built: " << compared << " of " << paths.size()
            << " corpus plans compared with the evaluator's listing ("
            << compared_on << " also with the fused rewrite on; " << not_run
            << " not run by the evaluator): " << nodes << " nodes, "
            << arrangements << " arrangements built, " << imports
            << " imported indexes\n"
            << adapted_nodes
            << " nodes not comparable (run by the evaluator's recompute "
               "adapter, which lists no dataflow arrangement), per adapter:\n";
  for (const std::string& line : adapted) std::cout << "  " << line << "\n";
  // eval_corpus_test's floor: a change that stops plans from running is
  // noticed here too.
  EXPECT_GE(compared, 113);
}

}  // namespace
}  // namespace lir::interp
