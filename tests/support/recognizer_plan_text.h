// Hand-written plan text for the recognizer unit tests: the EXCEPT shape
// Threshold(ArrangeBy(Union(base, Negate(subtract)))) with a knob for every
// shape check, common arms, and helpers that run the pipeline on text and
// check one candidate's outcome.
#ifndef LIR_TESTS_SUPPORT_RECOGNIZER_PLAN_TEXT_H_
#define LIR_TESTS_SUPPORT_RECOGNIZER_PLAN_TEXT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"
#include "tests/support/recognizer_test_util.h"

namespace lir::test::recognizer {

// ---- building plan text -----------------------------------------------------

// `block` (lines at column 0, relative indentation kept) shifted right.
inline std::string Indent(absl::string_view block, int spaces) {
  std::string out;
  for (absl::string_view line :
       absl::StrSplit(block, '\n', absl::SkipEmpty())) {
    absl::StrAppend(&out, std::string(spaces, ' '), line, "\n");
  }
  return out;
}

// A one-object document around `plan` (at column 0).
inline std::string Doc(absl::string_view plan) {
  return absl::StrCat(test::kQueryHeader, Indent(plan, 2),
                      "\nTarget cluster: quickstart\n");
}

// `{ key=[...], permutation=id, thinning=() }` for a whole-row key.
inline std::string WholeRow(absl::string_view key) {
  return absl::StrCat("{ key=[", key, "], permutation=id, thinning=() }");
}

// An indexed global collection read as is.
inline std::string Indexed(absl::string_view name,
                           absl::string_view key = "#0") {
  return absl::StrCat("Get::PassArrangements materialize.public.", name,
                      "\n  raw=false\n  arrangements[0]=", WholeRow(key), "\n");
}

// A table read raw.
inline std::string Table(absl::string_view name) {
  return absl::StrCat("Get::Collection materialize.public.", name,
                      "\n  raw=true\n");
}

// The EXCEPT ALL shape Threshold(ArrangeBy(Union(base, Negate(subtract)))),
// with knobs for every shape check.
struct Except {
  std::string base;
  std::string subtract;
  bool negate_first = false;
  std::string key = "#0";
  std::string threshold_arrangement;  // default: WholeRow(key)
  std::string arrange_attrs;          // default: raw=false + WholeRow(key)
  std::string union_header = "Union consolidate_output=true";
  std::string union_attrs;  // e.g. temporal_bucketing_strategies

  std::string Plan() const {
    std::string arrangement =
        threshold_arrangement.empty() ? WholeRow(key) : threshold_arrangement;
    std::string attrs =
        arrange_attrs.empty()
            ? absl::StrCat("raw=false\narrangements[0]=", WholeRow(key))
            : arrange_attrs;
    std::string negated = absl::StrCat("Negate\n", Indent(subtract, 2));
    std::string arms = negate_first ? absl::StrCat(negated, base)
                                    : absl::StrCat(base, negated);
    return absl::StrCat(
        "Threshold::Basic ensure_arrangement=", arrangement, "\n",
        Indent(absl::StrCat(
                   "ArrangeBy\n", Indent(attrs, 2),
                   Indent(absl::StrCat(union_header, "\n",
                                       Indent(union_attrs, 2), Indent(arms, 2)),
                          2)),
               2));
  }
  std::string Text() const { return Doc(Plan()); }
};

// ---- running the pass
// ---------------------------------------------------------

/// A document after Optimize, its report (fused pass only) and its text.
struct Optimized {
  Document doc;
  RewriteReport report;
  std::string printed;
};

/// Plans are parsed with the shared helper (tests/support/parse_or_die.h).
using ::lir::test::ParseOrDie;

/// Parses `text` and optimizes it with the fused feature `enabled`.
inline Optimized OptimizeText(const std::string& text, bool enabled = true) {
  Document doc = ParseOrDie(text);
  absl::StatusOr<OptimizeResult> result = OptimizeCopy(doc, enabled);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return {};
  Optimized run{std::move(result->document), std::move(result->report), ""};
  run.printed = explain::PrintText(run.doc);
  return run;
}

/// The only candidate of `text` with the flag on; also checks that the result
/// is well formed.
inline Candidate OnlyCandidate(const std::string& text) {
  Optimized run = OptimizeText(text);
  EXPECT_EQ(WellFormedProblems(run.doc), "");
  EXPECT_EQ(run.report.candidates.size(), 1u) << text;
  if (run.report.candidates.size() != 1) return {};
  return run.report.candidates[0];
}

/// Expects `text`'s only candidate to decline with exactly this code, arm
/// and message, leaving the text unchanged.
inline void ExpectDecline(const std::string& text,
                          FusedSetDifferenceDecline code, absl::string_view arm,
                          absl::string_view message) {
  SCOPED_TRACE(text);
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.outcome, CandidateOutcome::kDeclined);
  EXPECT_EQ(c.reason, DeclineName(code));
  EXPECT_EQ(c.arm, arm);
  EXPECT_EQ(c.message, message);
  // A declined candidate leaves the document as it was.
  EXPECT_EQ(run.printed, text);
}

/// Expects `text`'s only candidate to fire with these keys, giving a
/// well-formed document.
inline void ExpectFires(const std::string& text,
                        const std::vector<int>& base_key,
                        const std::vector<int>& subtract_key) {
  SCOPED_TRACE(text);
  Optimized run = OptimizeText(text);
  ASSERT_EQ(run.report.candidates.size(), 1u);
  const Candidate& c = run.report.candidates[0];
  EXPECT_EQ(c.outcome, CandidateOutcome::kFired)
      << c.reason << ": " << c.message;
  EXPECT_EQ(c.reason, "");
  EXPECT_EQ(FusedKeysOf(c).base_key, base_key);
  EXPECT_EQ(FusedKeysOf(c).subtract_key, subtract_key);
  ASSERT_TRUE(run.doc.objects[0].plan->Is<SetDifferenceOp>()) << run.printed;
  const SetDifferenceOp& fused = run.doc.objects[0].plan->As<SetDifferenceOp>();
  EXPECT_EQ(fused.base_key, base_key);
  EXPECT_EQ(fused.subtract_key, subtract_key);
  EXPECT_EQ(WellFormedProblems(run.doc), "");
}

inline const std::string kA = Indexed("a");
inline const std::string kB = Indexed("b");

}  // namespace lir::test::recognizer

#endif  // LIR_TESTS_SUPPORT_RECOGNIZER_PLAN_TEXT_H_
