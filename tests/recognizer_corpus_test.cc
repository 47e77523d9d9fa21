// The rewrite passes over every plan of the Materialize corpus: results stay
// valid and serializable, the passes are idempotent, a disabled pass changes
// nothing, the savings they report add up, and docs/corpus-report.md is
// current.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/recognizer/antijoin.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "lir/validate.h"
#include "tests/support/corpus_util.h"
#include "tests/support/recognizer_test_util.h"
#include "tools/corpus-report/corpus_report.h"

namespace lir {
namespace {

using test::recognizer::OptimizeCopy;
using test::recognizer::WellFormedProblems;

using test::CorpusDir;
using test::ReadFile;

TEST(RecognizerCorpus, EveryPlanStaysWellFormedIdempotentAndUntouchedWhenOff) {
  std::vector<std::filesystem::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  EXPECT_EQ(files.size(), 134u);
  size_t plans_with_candidates = 0, candidates = 0, fired = 0;
  std::map<std::string, size_t> declined;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    const std::string text = ReadFile(path);
    absl::StatusOr<Document> doc = explain::ParseText(text);
    ASSERT_TRUE(doc.ok()) << doc.status();
    ASSERT_TRUE(Validate(*doc).ok()) << "input plan does not validate";

    absl::StatusOr<OptimizeResult> off = OptimizeCopy(*doc, false);
    ASSERT_TRUE(off.ok()) << off.status();
    EXPECT_EQ(explain::PrintText(off->document), text);

    absl::StatusOr<OptimizeResult> on = OptimizeCopy(*doc, true);
    ASSERT_TRUE(on.ok()) << on.status();
    EXPECT_EQ(WellFormedProblems(on->document), "");
    const std::string optimized = explain::PrintText(on->document);

    absl::StatusOr<OptimizeResult> twice = OptimizeCopy(on->document, true);
    ASSERT_TRUE(twice.ok()) << twice.status();
    EXPECT_EQ(explain::PrintText(twice->document), optimized)
        << "not idempotent";

    // The disabled pass predicts the enabled one, candidate by candidate.
    ASSERT_EQ(off->report.candidates.size(), on->report.candidates.size());
    bool changed = false;
    for (size_t i = 0; i < on->report.candidates.size(); ++i) {
      const Candidate& d = off->report.candidates[i];
      const Candidate& e = on->report.candidates[i];
      EXPECT_EQ(d.outcome, CandidateOutcome::kDisabled);
      EXPECT_EQ(d.would_fire, e.outcome == CandidateOutcome::kFired);
      EXPECT_EQ(d.reason, e.reason);
      EXPECT_EQ(d.arm, e.arm);
      EXPECT_NE(e.outcome, CandidateOutcome::kDisabled);
      ++candidates;
      if (e.outcome == CandidateOutcome::kFired) {
        ++fired;
        changed = true;
      } else {
        EXPECT_NE(e.reason, "");
        ++declined[e.reason];
      }
    }
    for (const Candidate& c : twice->report.candidates) {
      EXPECT_NE(c.outcome, CandidateOutcome::kFired) << "fired again";
    }
    // Only a firing candidate changes the text.
    EXPECT_EQ(optimized != text, changed);
    if (!on->report.candidates.empty()) ++plans_with_candidates;
  }
  std::cout << files.size() << " plans, " << plans_with_candidates
            << " with candidates; " << candidates << " candidates: " << fired
            << " fired, " << candidates - fired << " declined\n";
  for (const auto& [code, n] : declined) {
    std::cout << "  declined " << code << ": " << n << "\n";
  }
  EXPECT_GT(fired, 0u);
}

// With both rewrites on, what each fired candidate's record says it saves
// adds up, per object, to the accounting's totals before and after the
// passes; and a dry run (features off) reports the same savings as the
// real run.
TEST(RecognizerCorpus, CandidateSavingsAddUpToTheObjectTotals) {
  std::vector<std::filesystem::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  OptimizerFeatures both;
  both.enable_fused_set_difference = true;
  both.enable_antijoin_rendering = true;
  int64_t total_saved = 0;
  size_t objects = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    absl::StatusOr<Document> doc = explain::ParseText(ReadFile(path));
    ASSERT_TRUE(doc.ok()) << doc.status();
    absl::StatusOr<OptimizeResult> on = Optimize(Clone(*doc), both);
    ASSERT_TRUE(on.ok()) << on.status();
    std::map<std::string, int64_t> saved;
    for (const Candidate& c : on->report.candidates) {
      if (c.outcome != CandidateOutcome::kFired) continue;
      ASSERT_TRUE(c.details.contains(kSavesField)) << c.pass << " " << c.lir_id;
      saved[c.object] += c.details[kSavesField].get<int64_t>();
    }
    for (const ObjectArrangements& o : on->report.objects) {
      ASSERT_TRUE(o.before.has_value() && o.after.has_value()) << o.object;
      EXPECT_EQ(saved[o.object], static_cast<int64_t>(o.before->built) -
                                     static_cast<int64_t>(o.after->built))
          << o.object;
      total_saved += saved[o.object];
      ++objects;
    }
    // The antijoin pass runs first; off, the fused pass also sees the
    // candidates the antijoin would take, so compare the antijoin's only.
    absl::StatusOr<OptimizeResult> off =
        Optimize(Clone(*doc), OptimizerFeatures());
    ASSERT_TRUE(off.ok()) << off.status();
    std::vector<nlohmann::json> fired_details, would_fire_details;
    for (const Candidate& c : on->report.candidates) {
      if (c.pass == AntiJoinPass::kName &&
          c.outcome == CandidateOutcome::kFired)
        fired_details.push_back(c.details);
    }
    for (const Candidate& c : off->report.candidates) {
      if (c.pass == AntiJoinPass::kName && c.would_fire)
        would_fire_details.push_back(c.details);
    }
    EXPECT_EQ(fired_details, would_fire_details);
  }
  std::cout << "corpus: " << objects << " objects; the rewrites save "
            << total_saved << " arrangements in all\n";
  // outer_join-L100 alone saves 2 (its AntiJoin).
  EXPECT_GE(total_saved, 2);
}

TEST(RecognizerCorpus, OuterJoinL100FiresOnceAndDeclinesOnce) {
  const std::filesystem::path path = CorpusDir() / "outer_join-L100.plan";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " not found (../shared is absent)";
  }
  absl::StatusOr<Document> doc = explain::ParseText(ReadFile(path));
  ASSERT_TRUE(doc.ok()) << doc.status();
  absl::StatusOr<OptimizeResult> on = OptimizeCopy(*doc, true);
  ASSERT_TRUE(on.ok());
  const std::vector<Candidate>& c = on->report.candidates;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].outcome, CandidateOutcome::kFired);
  EXPECT_EQ(FusedKeysOf(c[0]).base_key, std::vector<int>{0});
  EXPECT_EQ(FusedKeysOf(c[0]).subtract_key, std::vector<int>{0});
  EXPECT_EQ(c[1].outcome, CandidateOutcome::kDeclined);
  EXPECT_EQ(c[1].reason,
            DeclineName(FusedSetDifferenceDecline::kNotCoArranged));
  EXPECT_EQ(c[1].arm, "subtract");
  EXPECT_EQ(c[1].message,
            "subtract arm: Get::Collection materialize.public.right2 has no "
            "arrangement on [#0]");
  // The fused node replaced the first Threshold: its arms are the ArrangeBy
  // over l1 (base) and the projecting Get::Arrangement of l0 (subtract).
  const std::string printed = explain::PrintText(on->document);
  const std::string fused =
      "            SetDifference ensure_arrangement={ key=[#0], "
      "permutation=id, "
      "thinning=() }\n"
      "              base_key=[#0]\n"
      "              subtract_key=[#0]\n"
      "              ArrangeBy\n"
      "                input_key=[#0]\n"
      "                raw=true\n"
      "                Get::PassArrangements l1\n"
      "                  raw=false\n"
      "                  arrangements[0]={ key=[#0], permutation=id, "
      "thinning=() }\n"
      "              Get::Arrangement l0\n"
      "                project=(#0)\n"
      "                key=#0\n";
  EXPECT_NE(printed.find(fused), std::string::npos) << printed;
  EXPECT_EQ(printed.find("SetDifference"), printed.rfind("SetDifference"));
  EXPECT_NE(printed.find("Threshold::Basic"), std::string::npos);
}

TEST(RecognizerCorpus, CommittedCorpusReportIsCurrent) {
  LIR_SKIP_WITHOUT_CORPUS(test::PlanFiles().empty());
  absl::StatusOr<std::vector<NamedDocument>> docs =
      ReadPlanDirectory(CorpusDir().string());
  ASSERT_TRUE(docs.ok()) << docs.status();
  absl::StatusOr<std::string> report = CorpusReportMarkdown(*docs);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::filesystem::path committed =
      std::filesystem::path(LIR_SOURCE_DIR) / "docs" / "corpus-report.md";
  ASSERT_TRUE(std::filesystem::exists(committed))
      << committed
      << " is missing; regenerate it with: " << kCorpusReportCommand;
  const std::string expected = ReadFile(committed);
  EXPECT_EQ(*report, expected)
      << "docs/corpus-report.md is stale; regenerate it with: "
      << kCorpusReportCommand << "\n"
      << explain::UnifiedDiff(expected, *report);
}

TEST(RecognizerCorpus, ReportNamesEveryCodeAndIsDeterministic) {
  std::vector<std::filesystem::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  absl::StatusOr<std::vector<NamedDocument>> docs =
      ReadPlanDirectory(CorpusDir().string());
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), files.size());
  EXPECT_EQ((*docs)[0].first, files[0].filename().string());
  absl::StatusOr<std::string> a = CorpusReportMarkdown(*docs);
  absl::StatusOr<std::string> b = CorpusReportMarkdown(*docs);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  // Each pass's section lists every code of its own.
  const size_t antijoin = a->find("## Antijoin rendering");
  const size_t fused = a->find("## Fused SetDifference");
  ASSERT_NE(antijoin, std::string::npos);
  ASSERT_NE(fused, std::string::npos);
  ASSERT_LT(antijoin, fused);
  for (const DeclineEntry<AntiJoinDecline>& code : kAllAntiJoinDeclines) {
    const size_t at =
        a->find(absl::StrCat("| declined | `", std::string(code.name), "` |"),
                antijoin);
    EXPECT_LT(at, fused) << code.name;
  }
  for (const DeclineEntry<FusedSetDifferenceDecline>& code :
       kAllFusedSetDifferenceDeclines) {
    EXPECT_NE(
        a->find(absl::StrCat("| declined | `", std::string(code.name), "` |"),
                fused),
        std::string::npos)
        << code.name;
  }
  EXPECT_NE(a->find("| outer_join-L100.plan | Explained Query | "),
            std::string::npos);
  EXPECT_NE(a->find(kCorpusReportCommand), std::string::npos);
}

TEST(RecognizerCorpus, ReadPlanDirectoryReportsAMissingDirectory) {
  absl::StatusOr<std::vector<NamedDocument>> docs =
      ReadPlanDirectory("/nonexistent/lir/plans");
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("/nonexistent/lir/plans"),
            std::string_view::npos);
}

}  // namespace
}  // namespace lir
