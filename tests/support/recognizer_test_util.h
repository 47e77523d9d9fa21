// Helpers shared by the recognizer tests: running the pipeline with the
// fused set-difference feature on or off, and checking that a rewritten
// document is still a well-formed, printable, serializable plan.
#ifndef LIR_TESTS_SUPPORT_RECOGNIZER_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_RECOGNIZER_TEST_UTIL_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/recognizer/optimize.h"
#include "lir/validate.h"

namespace lir::test::recognizer {

/// The features with only `enable_fused_set_difference` set as given.
inline OptimizerFeatures FusedFeatures(bool enabled) {
  OptimizerFeatures features;
  features.enable_fused_set_difference = enabled;
  return features;
}

/// The registered name of the fused set-difference pass.
inline constexpr char kFusedPass[] = "fused_set_difference";

/// Optimize on a copy of `doc`, so callers can compare before and after.
/// Only the fused set-difference pass's candidates are kept in the report
/// (the other passes are off and only report).
inline absl::StatusOr<OptimizeResult> OptimizeCopy(const Document& doc,
                                                   bool enabled) {
  absl::StatusOr<OptimizeResult> result =
      Optimize(Clone(doc), FusedFeatures(enabled));
  if (!result.ok()) return result;
  std::vector<Candidate> fused;
  for (Candidate& c : result->report.candidates) {
    if (c.pass == kFusedPass) fused.push_back(std::move(c));
  }
  result->report.candidates = std::move(fused);
  return result;
}

/// The report entry of the fused set-difference pass, or null.
/// Expects that no pass of `report` ran: each is listed (so a caller sees
/// what was off) but disabled, and none walked an object, decided a
/// candidate or ran an analysis.
inline void ExpectNoPassRan(const RewriteReport& report) {
  ASSERT_EQ(report.passes.size(), AllPasses().size());
  for (const PassRun& pass : report.passes) {
    SCOPED_TRACE(pass.name);
    EXPECT_FALSE(pass.enabled);
    EXPECT_EQ(pass.work.objects_walked, 0u);
    EXPECT_EQ(pass.work.candidates_decided, 0u);
    EXPECT_EQ(pass.work.analyses_run, 0u);
  }
}

inline const PassRun* FusedPassRun(const RewriteReport& report) {
  for (const PassRun& run : report.passes) {
    if (run.name == kFusedPass) return &run;
  }
  return nullptr;
}

/// Empty when `doc` validates and survives both serializations unchanged
/// (text: Print -> Parse -> Print; JSON: Write -> Read -> Print and
/// Write -> Read -> Write); otherwise what went wrong.
inline std::string WellFormedProblems(const Document& doc,
                                      const ValidateOptions& options = {}) {
  absl::Status valid = Validate(doc, options);
  if (!valid.ok()) return absl::StrCat("Validate: ", valid.ToString());
  const std::string text = explain::PrintText(doc);
  absl::StatusOr<Document> reparsed = explain::ParseText(text);
  if (!reparsed.ok()) {
    return absl::StrCat("ParseText(PrintText(doc)): ",
                        reparsed.status().ToString(), "\n", text);
  }
  const std::string reprinted = explain::PrintText(*reparsed);
  if (reprinted != text) {
    return absl::StrCat("text round trip changed the document:\n", text,
                        "---- became ----\n", reprinted);
  }
  const std::string json = explain::WriteJson(doc);
  absl::StatusOr<Document> from_json = explain::ReadJson(json);
  if (!from_json.ok()) {
    return absl::StrCat("ReadJson(WriteJson(doc)): ",
                        from_json.status().ToString());
  }
  if (explain::PrintText(*from_json) != text) {
    return absl::StrCat("JSON round trip changed the printed document:\n", text,
                        "---- became ----\n", explain::PrintText(*from_json));
  }
  if (explain::WriteJson(*from_json) != json) {
    return "JSON round trip changed the JSON";
  }
  return "";
}

}  // namespace lir::test::recognizer

#endif  // LIR_TESTS_SUPPORT_RECOGNIZER_TEST_UTIL_H_
