// The golden tests' `operators` and `analyze-table` commands
// (golden_analyze.h).
#include "tests/golden_analyze.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/eval/analyze_measures.h"
#include "lir/eval/run.h"
#include "lir/explain/analyze.h"
#include "lir/interp/arrangements_built.h"
#include "lir/interp/driver.h"
#include "lir/recognizer/optimize.h"

namespace lir::test {
namespace {

std::string ErrorText(const absl::Status& status) {
  return absl::StrCat("error: ", status.message(), "\n");
}

// The rows of `object`, checked against the run's listing: each of its
// arrangements is charged to the row of its node (or, for a LetRec's
// adapter, of the LetRec's `With Recursive` row), and the rows' memory
// and records add up to the listing's.
std::vector<explain::AnalyzeRow> CheckedRows(const Object& object,
                                             const eval::RunResult& run) {
  const auto measures = eval::AnalyzeMeasures(run);
  auto it = measures.find(object.name);
  const std::vector<explain::AnalyzeRow> rows = explain::AnalyzeRows(
      *object.plan, it == measures.end() ? eval::NodeMeasures() : it->second);
  uint64_t listed_bytes = 0, listed_records = 0, listed_count = 0;
  for (const eval::ArrangementStats& s : run.arrangements) {
    if (s.object != object.name) continue;
    listed_bytes += s.bytes;
    listed_records += s.records;
    ++listed_count;
  }
  uint64_t row_bytes = 0, row_records = 0, row_count = 0;
  for (const explain::AnalyzeRow& row : rows) {
    row_bytes += row.measure.memory_bytes.value_or(0);
    row_records += row.measure.records.value_or(0);
    row_count += row.measure.arrangements;
    EXPECT_EQ(row.measure.memory_bytes.has_value(),
              row.measure.arrangements > 0)
        << object.name << ": " << row.op;
  }
  EXPECT_EQ(row_count, listed_count)
      << object.name << ": arrangements charged to no row (or twice)";
  EXPECT_EQ(row_bytes, listed_bytes) << object.name;
  EXPECT_EQ(row_records, listed_records) << object.name;
  return rows;
}

absl::StatusOr<eval::RunResult> OptimizeAndRun(const Document& doc,
                                               const eval::InputData& data,
                                               const OptimizerFeatures& f,
                                               Document* optimized_out) {
  absl::StatusOr<OptimizeResult> optimized = Optimize(Clone(doc), f);
  if (!optimized.ok()) return optimized.status();
  *optimized_out = std::move(optimized->document);
  return eval::RunDocument(*optimized_out, data, eval::RunOptions());
}

std::string CompareTables(const Document& doc, const eval::InputData& data,
                          const std::string& compare) {
  OptimizerFeatures sides[2];
  for (absl::string_view feature : absl::StrSplit(compare, ',')) {
    absl::Status off = SetFeature(sides[0], std::string(feature), "false");
    if (!off.ok()) return ErrorText(off);
    (void)SetFeature(sides[1], std::string(feature), "true");
  }
  Document docs[2];
  eval::RunResult runs[2];
  for (int side = 0; side < 2; ++side) {
    absl::StatusOr<eval::RunResult> run =
        OptimizeAndRun(doc, data, sides[side], &docs[side]);
    if (!run.ok()) return ErrorText(run.status());
    runs[side] = *std::move(run);
  }
  std::string out;
  for (size_t i = 0; i < docs[0].objects.size(); ++i) {
    const Object& off = docs[0].objects[i];
    const Object& on = docs[1].objects[i];
    if (off.plan == nullptr || on.plan == nullptr) continue;
    const std::vector<explain::AnalyzeCompareRow> rows =
        explain::CompareAnalyzeRows(CheckedRows(off, runs[0]),
                                    CheckedRows(on, runs[1]));
    absl::StrAppend(&out, off.name, ":\n",
                    explain::PrintAnalyzeCompareTable(rows));
    // The arrangements the table shows gone and added are the ones the
    // accounting says the rewrite saves.
    int64_t shown_saved = 0;
    for (const explain::AnalyzeCompareRow& row : rows) {
      if (row.off.has_value()) shown_saved += row.off->arrangements;
      if (row.on.has_value()) shown_saved -= row.on->arrangements;
    }
    interp::AnalysisInputs inputs;
    for (const auto& [name, collection] : data.collections) {
      inputs.global_arity[name] = collection.arity;
    }
    absl::StatusOr<interp::ArrangementCount> before =
        interp::CountArrangementsBuilt(*off.plan, inputs);
    absl::StatusOr<interp::ArrangementCount> after =
        interp::CountArrangementsBuilt(*on.plan, inputs);
    if (!before.ok() || !after.ok()) {
      ADD_FAILURE() << "the accounting failed";
      continue;
    }
    EXPECT_EQ(shown_saved, interp::ArrangementsSaved(*before, *after))
        << off.name;
    absl::StrAppend(&out, "arrangements saved: ", shown_saved, "\n");
  }
  return out;
}

}  // namespace

std::string RunOperatorsGolden(const Document& doc) {
  std::string out;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    absl::StrAppend(
        &out, object.name, ":\n",
        explain::PrintAnalyzeTable(explain::AnalyzeRows(*object.plan, {}), {}));
  }
  return out;
}

std::string RunAnalyzeTableGolden(const Document& doc,
                                  const eval::InputData& data,
                                  const std::string& compare) {
  if (!compare.empty()) return CompareTables(doc, data, compare);
  absl::StatusOr<eval::RunResult> run =
      eval::RunDocument(doc, data, eval::RunOptions());
  if (!run.ok()) return ErrorText(run.status());
  std::string out;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    absl::StrAppend(
        &out, object.name, ":\n",
        explain::PrintAnalyzeTable(CheckedRows(object, *run),
                                   {explain::AnalyzeColumn::kMemory}));
  }
  if (run->error.has_value()) {
    absl::StrAppend(&out, "round error: ", *run->error, "\n");
  }
  return out;
}

}  // namespace lir::test
