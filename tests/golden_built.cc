// The `built` golden command (golden_built.h).
#include "tests/golden_built.h"

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arrangements_built.h"
#include "lir/node.h"
#include "tests/support/arrangements_compare.h"

namespace lir::test {
namespace {

// The evaluator's check: run `doc` on empty collections of the given
// arities (which arrangements a dataflow keeps does not depend on the data)
// and compare its listing with `analysis`.
std::string CompareWithEvaluator(const Document& doc,
                                 const interp::DocumentAnalysis& analysis,
                                 const interp::AnalysisInputs& inputs) {
  eval::InputData data;
  for (const auto& [name, arity] : inputs.global_arity) {
    data.collections[name].arity = arity;
  }
  absl::StatusOr<eval::RunResult> run =
      eval::RunDocument(doc, data, eval::RunOptions());
  if (!run.ok()) {
    ADD_FAILURE() << "the evaluator failed: " << run.status();
    return absl::StrCat("evaluator: failed: ", run.status().message(), "\n");
  }
  const test::Comparison comparison =
      test::Compare(doc, analysis, run->arrangements);
  std::string out;
  for (const std::string& line : comparison.adapted) {
    absl::StrAppend(&out, "evaluator recomputes: ", line, "\n");
  }
  if (!comparison.differences.empty()) {
    ADD_FAILURE() << "the accounting and the evaluator disagree:\n"
                  << absl::StrJoin(comparison.differences, "\n");
    for (const std::string& line : comparison.differences) {
      absl::StrAppend(&out, "evaluator differs: ", line, "\n");
    }
    return out;
  }
  absl::StrAppend(&out, "evaluator agrees: ", comparison.arrangements,
                  " arrangements, ", comparison.imports, " imports\n");
  return out;
}

}  // namespace

std::string RunBuiltGolden(const Document& doc,
                           const interp::AnalysisInputs& inputs, bool run) {
  absl::StatusOr<interp::DocumentAnalysis> analysis =
      interp::DocumentAnalysis::Run(doc, inputs);
  if (!analysis.ok()) {
    return absl::StrCat("error: ", analysis.status().message(), "\n");
  }
  std::string out;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    absl::StrAppend(&out, object.name, ":\n");
    std::set<std::string> imported;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      const interp::ArrangementsBuilt& own = analysis->BuiltBy(node);
      imported.insert(own.imported.begin(), own.imported.end());
      if (own.built.empty()) return;
      absl::StrAppend(&out, "  LirId(", node.id, ") ", HeaderName(node), ": ",
                      absl::StrJoin(own.built, ", "), "\n");
    });
    if (!imported.empty()) {
      absl::StrAppend(&out, "  imports: ", absl::StrJoin(imported, ", "), "\n");
    }
    absl::StatusOr<interp::ArrangementCount> count =
        interp::CountArrangementsBuilt(*object.plan, inputs);
    if (!count.ok()) {
      absl::StrAppend(&out, "  count: error: ", count.status().message(), "\n");
    } else {
      absl::StrAppend(&out, "  count: ", count->built, " built, ",
                      count->imported, " imported\n");
    }
  }
  if (run) absl::StrAppend(&out, CompareWithEvaluator(doc, *analysis, inputs));
  return out;
}

}  // namespace lir::test
