// The evaluator's equivalence harness: the proof that the fused
// set-difference and antijoin rewrites preserve results.
//
// Thousands of generated EXCEPT-shaped plans (tests/support/eval_case_gen.h)
// run on generated multi-round data with retractions and nulls, some of
// their collections keyed (sets, declared so to the analyses as a catalog
// would), and every configuration must compute the same contents at every
// round as the oracle (rewrites off, snapshot engine):
//   rewrites off / SetDifference / AntiJoin / both
//     x  snapshot / incremental  x  fuel unlimited / 1,
// with the compaction policy varied. Every case also runs incremental
// configurations that keep every arrangement as a fueled spine
// (RunOptions::spine; stock and funded, a few policies and idle turns, both
// compactions): their contents must equal the oracle's too, and at the end
// every spine must hold exactly its trace's updates summed over time
// (SpineOptions::verify), so merges lose nothing. Seeded and reproducible: a
// failure prints its seed, and LIR_EQUIV_SEED=<seed> LIR_EQUIV_CASES=1
// replays it (LIR_EQUIV_SPINE_EVERY=1 runs the spine configurations on
// every case).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/interp/inputs.h"
#include "lir/recognizer/optimize.h"
#include "lir/validate.h"
#include "tests/support/eval_case_gen.h"
#include "tests/support/random.h"

namespace lir {
namespace {

using ::lir::test::EnvOr;

// Which rewrites a configuration turns on.
enum class Rewrites { kOff, kFused, kAntiJoin, kBoth };
constexpr int kRewriteSettings = 4;

// The document after the optimizer with `rewrites`, the unique keys of the
// keyed collections known to the analyses.
absl::StatusOr<OptimizeResult> OptimizeWith(const Document& doc,
                                            const test::EvalCase& c,
                                            Rewrites rewrites) {
  OptimizerFeatures features;
  features.enable_fused_set_difference =
      rewrites == Rewrites::kFused || rewrites == Rewrites::kBoth;
  features.enable_antijoin_rendering =
      rewrites == Rewrites::kAntiJoin || rewrites == Rewrites::kBoth;
  interp::AnalysisInputs inputs;
  inputs.global_unique_keys = c.unique_keys;
  return Optimize(Clone(doc), features, inputs);
}

int Fired(const RewriteReport& report, absl::string_view pass) {
  int fired = 0;
  for (const Candidate& candidate : report.candidates) {
    if (candidate.pass == pass && candidate.outcome == CandidateOutcome::kFired)
      ++fired;
  }
  return fired;
}

struct Config {
  const char* name;
  Rewrites rewrites;
  eval::Engine engine;
  uint64_t fuel;
  eval::Compaction compaction;
};

constexpr Config kConfigs[] = {
    {"off/incremental", Rewrites::kOff, eval::Engine::kIncremental, 0,
     eval::Compaction::kEager},
    {"off/incremental/no-compaction", Rewrites::kOff,
     eval::Engine::kIncremental, 0, eval::Compaction::kNone},
    {"setdifference/snapshot", Rewrites::kFused, eval::Engine::kSnapshot, 0,
     eval::Compaction::kEager},
    {"setdifference/incremental", Rewrites::kFused, eval::Engine::kIncremental,
     0, eval::Compaction::kEager},
    {"setdifference/incremental/fuel=1", Rewrites::kFused,
     eval::Engine::kIncremental, 1, eval::Compaction::kNone},
    {"antijoin/snapshot", Rewrites::kAntiJoin, eval::Engine::kSnapshot, 0,
     eval::Compaction::kEager},
    {"antijoin/incremental", Rewrites::kAntiJoin, eval::Engine::kIncremental, 0,
     eval::Compaction::kEager},
    {"antijoin/incremental/fuel=1/no-compaction", Rewrites::kAntiJoin,
     eval::Engine::kIncremental, 1, eval::Compaction::kNone},
    {"both/incremental/fuel=1", Rewrites::kBoth, eval::Engine::kIncremental, 1,
     eval::Compaction::kEager},
    {"both/snapshot", Rewrites::kBoth, eval::Engine::kSnapshot, 0,
     eval::Compaction::kNone},
};

// An incremental configuration with spines (RunOptions::spine).
struct SpineConfig {
  const char* name;
  Rewrites rewrites;
  uint64_t fuel;
  eval::Compaction compaction;
  eval::spine::Policy policy;
  eval::spine::Exertion exertion;
  uint64_t idle_turns;
};

constexpr eval::spine::Policy kProportional16{
    eval::spine::Policy::Kind::kProportional, 16};
constexpr eval::spine::Policy kIdleMerge1000{
    eval::spine::Policy::Kind::kIdleMerge, 1000};
// Effort 1: a merge takes one grant per record written, so many turns.
constexpr eval::spine::Policy kIdleMerge1{eval::spine::Policy::Kind::kIdleMerge,
                                          1};
constexpr eval::spine::Policy kNoPolicy{eval::spine::Policy::Kind::kNone, 0};

constexpr SpineConfig kSpineConfigs[] = {
    {"off/incremental/spine=stock/proportional:16/k=4", Rewrites::kOff, 0,
     eval::Compaction::kEager, kProportional16, eval::spine::Exertion::kStock,
     4},
    {"off/incremental/no-compaction/spine=funded/idle_merge:1/k=64",
     Rewrites::kOff, 0, eval::Compaction::kNone, kIdleMerge1,
     eval::spine::Exertion::kFunded, 64},
    {"setdifference/incremental/fuel=1/spine=funded/proportional:16/k=0",
     Rewrites::kFused, 1, eval::Compaction::kEager, kProportional16,
     eval::spine::Exertion::kFunded, 0},
    {"antijoin/incremental/no-compaction/spine=stock/idle_merge:1000/k=1024",
     Rewrites::kAntiJoin, 0, eval::Compaction::kNone, kIdleMerge1000,
     eval::spine::Exertion::kStock, 1024},
    {"both/incremental/spine=funded/idle_merge:1000/k=16", Rewrites::kBoth, 0,
     eval::Compaction::kEager, kIdleMerge1000, eval::spine::Exertion::kFunded,
     16},
    {"both/incremental/no-compaction/spine=stock/none", Rewrites::kBoth, 0,
     eval::Compaction::kNone, kNoPolicy, eval::spine::Exertion::kStock, 0},
};

TEST(EvalEquivalence, RewriteAndEnginesAgreeOnGeneratedPlans) {
  const uint64_t first_seed = EnvOr("LIR_EQUIV_SEED", 1);
  const uint64_t cases = EnvOr("LIR_EQUIV_CASES", 5000);
  // Every case by default: they add about half the harness's time (2.3 s
  // to 4.3 s in a RelWithDebInfo build); LIR_EQUIV_SPINE_EVERY=N thins them.
  const uint64_t spine_every =
      std::max<uint64_t>(1, EnvOr("LIR_EQUIV_SPINE_EVERY", 1));
  uint64_t plans = 0, rounds = 0, updates = 0, mismatches = 0, fired = 0,
           plans_with_fired = 0, antijoins = 0, plans_with_antijoin = 0,
           plans_with_both = 0, round_errors = 0, runs = 0, spine_runs = 0,
           spines_verified = 0, spine_merge_work = 0;
  std::map<std::string, int> fire_counts;
  for (uint64_t seed = first_seed; seed < first_seed + cases; ++seed) {
    const test::EvalCase c = test::GenerateEvalCase(seed);
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
    std::vector<Document> rewritten;
    for (int r = 0; r < kRewriteSettings; ++r) {
      absl::StatusOr<OptimizeResult> result =
          OptimizeWith(*doc, c, static_cast<Rewrites>(r));
      ASSERT_TRUE(result.ok()) << result.status() << "\n" << where;
      const absl::Status valid = Validate(result->document);
      ASSERT_TRUE(valid.ok()) << valid << "\n" << where;
      if (r == static_cast<int>(Rewrites::kFused)) {
        const int fired_here = Fired(result->report, "fused_set_difference");
        fired += fired_here;
        if (fired_here > 0) ++plans_with_fired;
      }
      if (r == static_cast<int>(Rewrites::kAntiJoin)) {
        const int antijoins_here = Fired(result->report, "antijoin");
        antijoins += antijoins_here;
        if (antijoins_here > 0) ++plans_with_antijoin;
      }
      if (r == static_cast<int>(Rewrites::kBoth) &&
          Fired(result->report, "antijoin") > 0 &&
          Fired(result->report, "fused_set_difference") > 0) {
        ++plans_with_both;
      }
      rewritten.push_back(std::move(result->document));
    }
    const Document& off = rewritten[static_cast<int>(Rewrites::kOff)];

    eval::RunOptions oracle_options;
    oracle_options.engine = eval::Engine::kSnapshot;
    absl::StatusOr<eval::RunResult> oracle =
        eval::RunDocument(off, c.data, oracle_options);
    ASSERT_TRUE(oracle.ok()) << oracle.status() << "\n" << where;
    ++plans;
    rounds += c.data.LastRound() + 1;
    for (const auto& [name, collection] : c.data.collections) {
      updates += collection.updates.size();
    }
    if (oracle->error.has_value()) ++round_errors;
    // Runs one configuration and reports a difference from the oracle.
    const auto run_against_oracle = [&](absl::string_view name,
                                        Rewrites rewrites,
                                        const eval::RunOptions& options) {
      absl::StatusOr<eval::RunResult> run = eval::RunDocument(
          rewritten[static_cast<int>(rewrites)], c.data, options);
      ++runs;
      if (!run.ok()) return run;
      std::optional<std::string> difference =
          eval::FirstDifference(*oracle, *run);
      if (difference.has_value()) {
        ++mismatches;
        ADD_FAILURE() << name << " differs from off/snapshot: " << *difference
                      << "\n"
                      << where << "\ndata: " << eval::InputDataToJson(c.data);
      }
      return run;
    };
    for (const Config& config : kConfigs) {
      eval::RunOptions options;
      options.engine = config.engine;
      options.fuel = config.fuel;
      options.compaction = config.compaction;
      absl::StatusOr<eval::RunResult> run =
          run_against_oracle(config.name, config.rewrites, options);
      ASSERT_TRUE(run.ok()) << config.name << ": " << run.status() << "\n"
                            << where;
    }
    if (seed % spine_every == 0) {
      for (const SpineConfig& config : kSpineConfigs) {
        eval::RunOptions options;
        options.engine = eval::Engine::kIncremental;
        options.fuel = config.fuel;
        options.compaction = config.compaction;
        eval::SpineOptions spine;
        spine.policy = config.policy;
        spine.exertion = config.exertion;
        spine.idle_turns = config.idle_turns;
        spine.verify = true;
        options.spine = spine;
        absl::StatusOr<eval::RunResult> run =
            run_against_oracle(config.name, config.rewrites, options);
        ++spine_runs;
        ASSERT_TRUE(run.ok()) << config.name << ": " << run.status() << "\n"
                              << where;
        for (const eval::ArrangementStats& stats : run->arrangements) {
          const bool held = stats.spine.has_value() && stats.spine->verified &&
                            !stats.spine->mismatch.has_value();
          if (!held) {
            ++mismatches;
            ADD_FAILURE() << config.name << ": the spine of "
                          << stats.operator_name << " (LirId(" << stats.lir_id
                          << ")) does not hold its trace's updates: "
                          << (stats.spine.has_value()
                                  ? stats.spine->mismatch.value_or(
                                        "not verified")
                                  : "no spine")
                          << "\n"
                          << where;
            continue;
          }
          ++spines_verified;
          spine_merge_work += stats.spine->merge_work;
        }
      }
    }
    if (mismatches > 5) break;  // enough to debug; keep the log readable
  }
  std::cout << "equivalence: " << plans << " plans, " << runs
            << " runs beside the oracle, " << rounds << " rounds, " << updates
            << " input updates, " << fired << " fused rewrites in "
            << plans_with_fired << " plans, " << antijoins
            << " antijoin rewrites in " << plans_with_antijoin << " plans, "
            << plans_with_both << " plans with both, " << round_errors
            << " plans with a round error, " << spine_runs
            << " runs with spines (" << spines_verified
            << " spines verified, merge work " << spine_merge_work << "), "
            << mismatches << " mismatches\n";
  EXPECT_EQ(mismatches, 0u);
  // The generator must exercise the rewrites, or the harness proves nothing.
  EXPECT_GT(plans_with_fired, plans / 3);
  EXPECT_GT(plans_with_antijoin, plans / 10);
  EXPECT_GT(plans_with_both, 0u);
  // And the spines must merge, or their check proves little.
  if (spine_runs > 0) EXPECT_GT(spine_merge_work, 0u);
}

}  // namespace
}  // namespace lir
