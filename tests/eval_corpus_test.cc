// Runs the corpus's plans on generated data with the fused rewrite off and
// on, with both engines, and checks that every configuration computes the
// same contents at every round.
//
// The data comes from tests/support/corpus_data.h (schemas from
// ../shared/corpus, else arities the plans reveal or need). Plans that
// cannot run are counted by reason: an unsupported function, a collection of
// unknown shape, a column type the generator cannot draw.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/recognizer/optimize.h"
#include "tests/support/corpus_data.h"
#include "tests/support/corpus_util.h"

namespace lir {
namespace {

namespace fs = std::filesystem;

fs::path SqlDir() { return test::SqlDir(test::SharedDir()); }

TEST(EvalCorpus, PlansAgreeWithTheRewriteOffAndOnAndWithBothEngines) {
  const std::vector<fs::path> paths = test::PlanFiles();
  std::error_code ec;
  LIR_SKIP_WITHOUT_CORPUS(paths.empty() ||
                          !fs::exists(SqlDir() / "MAP.tsv", ec));
  const std::map<std::string, test::PlanSchema> schemas =
      test::LoadSchemas(test::SharedDir());
  std::map<std::string, std::vector<std::string>> not_run;  // reason -> plans
  int ran = 0, fired = 0, with_round_error = 0, fast_paths_ran = 0;
  std::vector<std::string> fired_in, round_errors;
  std::set<std::string> with_error;  // plan files that stopped at a round error
  // Collections shaped by a derived arity (MakeData), named in the log.
  std::vector<std::string> derived;
  for (const fs::path& path : paths) {
    const std::string name = path.filename().string();
    absl::StatusOr<Document> doc = explain::ParseText(test::ReadFile(path));
    ASSERT_TRUE(doc.ok()) << name << ": " << doc.status();
    if (doc->objects.empty()) {
      not_run["no objects (only Source blocks)"].push_back(name);
      continue;
    }
    absl::StatusOr<eval::InputData> data =
        test::MakeData(name, *doc, schemas, &derived);
    if (!data.ok()) {
      not_run[std::string(data.status().message())].push_back(name);
      continue;
    }
    OptimizerFeatures on_features;
    on_features.enable_fused_set_difference = true;
    absl::StatusOr<OptimizeResult> on = Optimize(Clone(*doc), on_features);
    ASSERT_TRUE(on.ok()) << name;
    eval::RunOptions oracle_options;
    oracle_options.engine = eval::Engine::kSnapshot;
    absl::StatusOr<eval::RunResult> oracle =
        eval::RunDocument(*doc, *data, oracle_options);
    if (!oracle.ok()) {
      // The reason without the object name and node: `unsupported function
      // date_trunc`.
      std::string reason(oracle.status().message());
      if (size_t at = reason.find("unsupported"); at != std::string::npos) {
        reason = reason.substr(at);
      }
      not_run[reason].push_back(name);
      continue;
    }
    ++ran;
    if (std::any_of(doc->objects.begin(), doc->objects.end(),
                    [](const Object& o) { return o.fast_path.has_value(); })) {
      ++fast_paths_ran;
    }
    if (oracle->error.has_value()) {
      ++with_round_error;
      round_errors.push_back(absl::StrCat(name, ": ", *oracle->error));
      with_error.insert(name);
    }
    for (const Candidate& candidate : on->report.candidates) {
      if (candidate.outcome == CandidateOutcome::kFired) {
        ++fired;
        fired_in.push_back(
            absl::StrCat(name, " LirId(", candidate.lir_id, ")"));
      }
    }
    const struct {
      const char* name;
      const Document* doc;
      eval::Engine engine;
      uint64_t fuel;
    } configs[] = {
        {"off/incremental", &*doc, eval::Engine::kIncremental, 0},
        {"on/snapshot", &on->document, eval::Engine::kSnapshot, 0},
        {"on/incremental", &on->document, eval::Engine::kIncremental, 0},
        {"on/incremental/fuel=1", &on->document, eval::Engine::kIncremental, 1},
    };
    for (const auto& config : configs) {
      eval::RunOptions options;
      options.engine = config.engine;
      options.fuel = config.fuel;
      absl::StatusOr<eval::RunResult> run =
          eval::RunDocument(*config.doc, *data, options);
      ASSERT_TRUE(run.ok())
          << name << " " << config.name << ": " << run.status();
      std::optional<std::string> difference =
          eval::FirstDifference(*oracle, *run);
      EXPECT_FALSE(difference.has_value())
          << name << " " << config.name
          << " differs from off/snapshot: " << difference.value_or("")
          << "\ndata: " << eval::InputDataToJson(*data);
    }
  }
  std::cout << "corpus: " << paths.size() << " plans, " << ran
            << " ran with the rewrite off and on (" << fast_paths_ran
            << " with fast-path objects; " << fired << " fused rewrites; "
            << with_round_error << " stopped at a round error), "
            << paths.size() - ran << " could not run:\n";
  for (const auto& [reason, plans] : not_run) {
    std::cout << "  " << plans.size() << "  " << reason << ": "
              << absl::StrJoin(plans, ", ") << "\n";
  }
  std::cout << "fused rewrites that ran:\n";
  for (const std::string& where : fired_in) std::cout << "  " << where << "\n";
  std::cout << "arities derived from the plan's reads (no schema, none "
               "revealed; every column an integer):\n";
  for (const std::string& line : derived) std::cout << "  " << line << "\n";
  std::cout << "round errors (the same in every configuration):\n";
  for (const std::string& error : round_errors)
    std::cout << "  " << error << "\n";
  // Temporal filters run: no plan is left out for mz_now, and the
  // corpus's temporal SetDifference candidate fires and runs without a
  // round error (its rows expire within the generated rounds), so the
  // comparisons above compared real contents.
  for (const auto& [reason, plans] : not_run) {
    EXPECT_EQ(reason.find("mz_now"), std::string::npos) << reason;
  }
  // Every plan runs but redacted ones (literals print as █) and the one with
  // no objects. A new reason is a regression.
  const std::set<std::string> known = {"unsupported literal \xE2\x96\x88",
                                       "no objects (only Source blocks)"};
  for (const auto& [reason, plans] : not_run) {
    EXPECT_TRUE(known.count(reason) > 0)
        << reason << ": " << absl::StrJoin(plans, ", ");
  }
  const std::string temporal_candidate = "temporal_bucketing-L237.plan";
  if (std::any_of(paths.begin(), paths.end(), [&](const fs::path& p) {
        return p.filename() == temporal_candidate;
      })) {
    EXPECT_TRUE(std::any_of(
        fired_in.begin(), fired_in.end(), [&](const std::string& where) {
          return absl::StartsWith(where, temporal_candidate);
        }));
    EXPECT_EQ(with_error.count(temporal_candidate), 0u);
  }
  // Floors, so that a change that stops plans from running is noticed.
  // github-2746-L45 runs with its .slt schema (dates in lineitem and
  // orders), not a derived arity.
  EXPECT_GE(ran, 113);
  EXPECT_FALSE(
      std::any_of(derived.begin(), derived.end(), [](const std::string& line) {
        return absl::StartsWith(line, "github-2746-L45");
      }));
  EXPECT_GE(fired, 1);
  // The three fast-path plans: two empty constants and an index lookup
  // (physical_plan_as_text-L132, key from its .slt).
  EXPECT_GE(fast_paths_ran, 3);
}

}  // namespace
}  // namespace lir
