// The evaluator's equivalence harness: the proof that the fused
// set-difference rewrite preserves results.
//
// Thousands of generated EXCEPT-shaped plans (tests/support/eval_case_gen.h)
// run on generated multi-round data with retractions, and every configuration
// must compute the same contents at every round as the oracle (rewrite off,
// snapshot engine):
//   rewrite off / on  x  snapshot / incremental  x  fuel unlimited / 1,
// with the compaction policy varied. Seeded and reproducible: a failure
// prints its seed, and LIR_EQUIV_SEED=<seed> LIR_EQUIV_CASES=1 replays it.
#include <cstdlib>
#include <map>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/eval/run.h"
#include "src/explain/text.h"
#include "src/lir/validate.h"
#include "src/recognizer/pass.h"
#include "tests/support/eval_case_gen.h"

namespace lir {
namespace {

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  uint64_t parsed = 0;
  if (value != nullptr && absl::SimpleAtoi(value, &parsed)) return parsed;
  return fallback;
}

// The document after the optimizer with the fused rewrite on or off, and
// how many candidates fired.
absl::StatusOr<OptimizeResult> OptimizeWith(const Document& doc, bool fused) {
  OptimizerFeatures features;
  features.enable_fused_set_difference = fused;
  return Optimize(Clone(doc), features);
}

int Fired(const RewriteReport& report) {
  int fired = 0;
  for (const Candidate& candidate : report.candidates) {
    if (candidate.outcome == CandidateOutcome::kFired) ++fired;
  }
  return fired;
}

struct Config {
  const char* name;
  bool fused;
  eval::Engine engine;
  uint64_t fuel;
  eval::Compaction compaction;
};

constexpr Config kConfigs[] = {
    {"off/incremental", false, eval::Engine::kIncremental, 0,
     eval::Compaction::kEager},
    {"off/incremental/no-compaction", false, eval::Engine::kIncremental, 0,
     eval::Compaction::kNone},
    {"on/snapshot", true, eval::Engine::kSnapshot, 0, eval::Compaction::kEager},
    {"on/incremental", true, eval::Engine::kIncremental, 0,
     eval::Compaction::kEager},
    {"on/incremental/fuel=1", true, eval::Engine::kIncremental, 1,
     eval::Compaction::kNone},
};

TEST(EvalEquivalence, RewriteAndEnginesAgreeOnGeneratedPlans) {
  const uint64_t first_seed = EnvOr("LIR_EQUIV_SEED", 1);
  const uint64_t cases = EnvOr("LIR_EQUIV_CASES", 5000);
  uint64_t plans = 0, rounds = 0, updates = 0, mismatches = 0, fired = 0,
           plans_with_fired = 0, round_errors = 0, runs = 0;
  std::map<std::string, int> fire_counts;
  for (uint64_t seed = first_seed; seed < first_seed + cases; ++seed) {
    const testing::EvalCase c = testing::GenerateEvalCase(seed);
    const std::string where =
        absl::StrCat("seed ", seed, " (replay: LIR_EQUIV_SEED=", seed,
                     " LIR_EQUIV_CASES=1) ", c.description, "\n", c.plan_text);
    absl::StatusOr<Document> doc = explain::ParseText(c.plan_text);
    ASSERT_TRUE(doc.ok()) << doc.status() << "\n" << where;
    ValidateOptions validate;
    for (const auto& [name, collection] : c.data.collections) {
      validate.global_arity[name] = collection.arity;
    }
    ASSERT_TRUE(Validate(*doc->objects[0].plan, validate).ok())
        << Validate(*doc->objects[0].plan, validate) << "\n"
        << where;
    absl::StatusOr<OptimizeResult> off = OptimizeWith(*doc, false);
    absl::StatusOr<OptimizeResult> on = OptimizeWith(*doc, true);
    ASSERT_TRUE(off.ok() && on.ok()) << where;
    const int fired_here = Fired(on->report);
    fired += fired_here;
    if (fired_here > 0) ++plans_with_fired;

    eval::RunOptions oracle_options;
    oracle_options.engine = eval::Engine::kSnapshot;
    absl::StatusOr<eval::RunResult> oracle =
        eval::RunDocument(off->document, c.data, oracle_options);
    ASSERT_TRUE(oracle.ok()) << oracle.status() << "\n" << where;
    ++plans;
    rounds += c.data.LastRound() + 1;
    for (const auto& [name, collection] : c.data.collections) {
      updates += collection.updates.size();
    }
    if (oracle->error.has_value()) ++round_errors;
    for (const Config& config : kConfigs) {
      eval::RunOptions options;
      options.engine = config.engine;
      options.fuel = config.fuel;
      options.compaction = config.compaction;
      const Document& plan = config.fused ? on->document : off->document;
      absl::StatusOr<eval::RunResult> run =
          eval::RunDocument(plan, c.data, options);
      ++runs;
      ASSERT_TRUE(run.ok()) << config.name << ": " << run.status() << "\n"
                            << where;
      std::optional<std::string> difference =
          eval::FirstDifference(*oracle, *run);
      if (difference.has_value()) {
        ++mismatches;
        ADD_FAILURE() << config.name
                      << " differs from off/snapshot: " << *difference << "\n"
                      << where << "\ndata: " << eval::InputDataToJson(c.data);
      }
    }
    if (mismatches > 5) break;  // enough to debug; keep the log readable
  }
  std::cout << "equivalence: " << plans << " plans, " << runs
            << " runs beside the oracle, " << rounds << " rounds, " << updates
            << " input updates, " << fired << " fused rewrites in "
            << plans_with_fired << " plans, " << round_errors
            << " plans with a round error, " << mismatches << " mismatches\n";
  EXPECT_EQ(mismatches, 0u);
  // The generator must exercise the rewrite, or the harness proves nothing.
  EXPECT_GT(plans_with_fired, plans / 3);
}

}  // namespace
}  // namespace lir
