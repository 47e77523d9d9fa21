// Differential test of the evaluator's two engines on generated general
// plans (tests/support/eval_plan_fuzz_gen.h): every node kind the evaluator
// runs, composed a few levels deep over 2-4 typed input collections, on
// multi-round data with insertions and retractions. The incremental engine
// (eager and no compaction) must compute exactly what the snapshot engine
// (the oracle) computes at every round, and fail in exactly the rounds it
// fails (a Reduce or TopK reading a negative count, a recursion limit, an
// AntiJoin key counted twice while the base holds it).
//
// Seeded and reproducible: a failure prints its seed, the plan and the data;
// LIR_FUZZ_SEED=<seed> LIR_FUZZ_CASES=1 replays it, and the printed plan and
// data run with `lir-opt run --engine=snapshot|incremental --data=...`.
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/validate.h"
#include "tests/support/eval_plan_fuzz_gen.h"
#include "tests/support/random.h"

namespace lir {
namespace {

using ::lir::test::EnvOr;

struct Config {
  const char* name;
  eval::Compaction compaction;
};

constexpr Config kConfigs[] = {
    {"incremental/eager", eval::Compaction::kEager},
    {"incremental/no-compaction", eval::Compaction::kNone},
};

// Node kinds every run of the default size must cover (the generator's
// coverage is part of what this test proves).
constexpr const char* kRequiredKinds[] = {
    "Constant",
    "Get::Collection",
    "Get::PassArrangements (index)",
    "Get::Arrangement",
    "Get::Arrangement seek (val)",
    "Get::PassArrangements (local)",
    "Get::Collection (local)",
    "Get::Arrangement (local)",
    "Mfp",
    "Mfp seek (input_val)",
    "FlatMap",
    "Join::Linear",
    "Join::Linear cross stage",
    "Join::Delta",
    "Join::Delta single path (adapter)",
    "Reduce::Distinct",
    "Reduce::Accumulable",
    "Reduce::Hierarchical",
    "Reduce::Hierarchical monotonic",
    "Reduce::Hierarchical buckets",
    "Reduce::Basic",
    "Reduce::Basic aggrs[i]",
    "TopK::Basic",
    "TopK::MonotonicTop1",
    "TopK::MonotonicTopK",
    "Negate",
    "Threshold::Basic",
    "Union",
    "Union consolidate_output=true",
    "ArrangeBy",
    "ArrangeBy mfp/expression key",
    "Let",
    "LetRec",
    "LetRec counting",
    "LetRec transitive closure",
    "LetRec recursion_limit",
    "AntiJoin",
    "AntiJoin base index",
    "AntiJoin base ArrangeBy form",
    "AntiJoin base ArrangeBy input_key",
    "AntiJoin base Mfp wrapper",
    "AntiJoin base Mfp wrapper input_key",
    "AntiJoin base Get::Arrangement",
    "AntiJoin keys not distinct",
};

TEST(EvalEnginesFuzz, IncrementalMatchesSnapshotOnGeneratedPlans) {
  const uint64_t first_seed = EnvOr("LIR_FUZZ_SEED", 1);
  const uint64_t cases = EnvOr("LIR_FUZZ_CASES", 1500);
  const bool full_run = cases >= 1000;
  uint64_t plans = 0, runs = 0, rounds = 0, updates = 0, mismatches = 0,
           round_errors = 0, output_rows = 0, empty_plans = 0;
  std::map<std::string, int> kinds;
  for (uint64_t seed = first_seed; seed < first_seed + cases; ++seed) {
    const test::FuzzCase c = test::GenerateFuzzCase(seed);
    const std::string where =
        absl::StrCat("seed ", seed, " (replay: LIR_FUZZ_SEED=", seed,
                     " LIR_FUZZ_CASES=1)\n", c.plan_text);
    absl::StatusOr<Document> doc = explain::ParseText(c.plan_text);
    ASSERT_TRUE(doc.ok()) << doc.status() << "\n" << where;
    ValidateOptions validate;
    for (const auto& [name, collection] : c.data.collections) {
      validate.global_arity[name] = collection.arity;
    }
    const absl::Status valid = Validate(*doc, validate);
    ASSERT_TRUE(valid.ok()) << valid << "\n" << where;
    for (const auto& [kind, count] : c.kinds) kinds[kind] += count;

    eval::RunOptions oracle_options;
    oracle_options.engine = eval::Engine::kSnapshot;
    absl::StatusOr<eval::RunResult> oracle =
        eval::RunDocument(*doc, c.data, oracle_options);
    ASSERT_TRUE(oracle.ok())
        << oracle.status() << "\n"
        << where << "\ndata: " << eval::InputDataToJson(c.data);
    ++plans;
    rounds += c.data.LastRound() + 1;
    for (const auto& [name, collection] : c.data.collections) {
      updates += collection.updates.size();
    }
    if (oracle->error.has_value()) ++round_errors;
    uint64_t rows_here = 0;
    absl::StatusOr<std::vector<eval::Multiset>> contents =
        eval::ContentsByRound(oracle->objects[0]);
    ASSERT_TRUE(contents.ok()) << contents.status();
    for (const eval::Multiset& round : *contents) {
      output_rows += round.size();
      rows_here += round.size();
    }
    if (rows_here == 0) ++empty_plans;

    for (const Config& config : kConfigs) {
      eval::RunOptions options;
      options.engine = eval::Engine::kIncremental;
      options.compaction = config.compaction;
      absl::StatusOr<eval::RunResult> run =
          eval::RunDocument(*doc, c.data, options);
      ++runs;
      if (!run.ok()) {
        ++mismatches;
        ADD_FAILURE() << config.name
                      << " cannot run what the snapshot runs: " << run.status()
                      << "\n"
                      << where << "\ndata: " << eval::InputDataToJson(c.data);
        continue;
      }
      std::optional<std::string> difference =
          eval::FirstDifference(*oracle, *run);
      if (difference.has_value()) {
        ++mismatches;
        ADD_FAILURE() << config.name
                      << " differs from snapshot: " << *difference << "\n"
                      << where << "\ndata: " << eval::InputDataToJson(c.data);
      }
    }
    if (mismatches > 5) break;  // enough to debug; keep the log readable
  }
  std::vector<std::string> covered;
  for (const auto& [kind, count] : kinds) {
    covered.push_back(absl::StrCat(kind, "=", count));
  }
  std::cout << "engines fuzz: " << plans << " plans, " << runs
            << " incremental runs beside the snapshot oracle, " << rounds
            << " rounds, " << updates << " input updates, " << output_rows
            << " output rows, " << round_errors << " plans with a round error, "
            << empty_plans << " plans that never output a row, " << mismatches
            << " mismatches; kinds: " << absl::StrJoin(covered, ", ") << "\n";
  EXPECT_EQ(mismatches, 0u);
  if (full_run) {
    // A generator that stopped producing a kind, or whose plans mostly fail
    // or compute nothing, would prove little.
    for (const char* kind : kRequiredKinds) {
      EXPECT_GE(kinds[kind], 20) << kind;
    }
    EXPECT_LT(round_errors, plans / 10);
    EXPECT_LT(empty_plans, plans / 2);
    EXPECT_GT(output_rows, plans * 5);
  }
}

}  // namespace
}  // namespace lir
