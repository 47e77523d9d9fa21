// The golden tests' `run` command.
#include "tests/golden_run.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/recognizer/optimize.h"
#include "lir/validate.h"

namespace lir::test {

namespace {

std::string Error(const absl::Status& status) {
  return absl::StrCat("error: ", status.message(), "\n");
}

}  // namespace

std::string RunGolden(const std::string& input, const RunArgs& args) {
  const size_t split = input.find("\n====\n");
  if (split == std::string::npos) {
    return "error: the input needs a plan, a line ====, and the data\n";
  }
  absl::StatusOr<Document> doc = explain::ParseText(input.substr(0, split + 1));
  if (!doc.ok()) return Error(doc.status());
  absl::StatusOr<eval::InputData> data =
      eval::ParseInputData(input.substr(split + 6), "data");
  if (!data.ok()) return Error(data.status());

  eval::RunOptions options;
  options.engine = args.engine == "snapshot" ? eval::Engine::kSnapshot
                                             : eval::Engine::kIncremental;
  options.compaction = args.compaction == "none" ? eval::Compaction::kNone
                                                 : eval::Compaction::kEager;
  options.fuel = args.fuel;
  if (args.spine != "off") {
    if (args.spine != "stock" && args.spine != "funded") {
      return "error: spine must be off, stock or funded\n";
    }
    absl::StatusOr<eval::spine::Policy> policy =
        eval::spine::Policy::Parse(args.spine_policy);
    if (!policy.ok()) return Error(policy.status());
    eval::SpineOptions spine;
    spine.policy = *policy;
    spine.exertion = args.spine == "funded" ? eval::spine::Exertion::kFunded
                                            : eval::spine::Exertion::kStock;
    spine.idle_turns = args.idle_turns;
    spine.verify = true;
    options.spine = spine;
  }
  std::string out;
  std::optional<eval::RunResult> first;
  for (const bool fused : {false, true}) {
    if ((fused && args.fused == "off") || (!fused && args.fused == "on")) {
      continue;
    }
    OptimizerFeatures features;
    features.enable_fused_set_difference = fused;
    absl::StatusOr<OptimizeResult> optimized = Optimize(Clone(*doc), features);
    if (!optimized.ok()) return Error(optimized.status());
    absl::StatusOr<eval::RunResult> result =
        eval::RunDocument(optimized->document, *data, options);
    if (!result.ok()) return out + Error(result.status());
    if (args.fused == "both") {
      absl::StrAppend(&out, "-- rewrite ", fused ? "on" : "off", " --\n");
    }
    absl::StrAppend(&out, eval::FormatRunText(*result, args.arrangement_sizes));
    for (const eval::ArrangementStats& stats : result->arrangements) {
      if (!stats.spine.has_value()) continue;
      EXPECT_TRUE(stats.spine->verified) << stats.operator_name;
      EXPECT_FALSE(stats.spine->mismatch.has_value())
          << stats.operator_name << ": " << *stats.spine->mismatch;
    }

    // Every golden is also a cross-check of the engines, the compactions,
    // the fuel, the spines (which change nothing) and the rewrite.
    eval::RunOptions other = options;
    other.engine = options.engine == eval::Engine::kSnapshot
                       ? eval::Engine::kIncremental
                       : eval::Engine::kSnapshot;
    other.spine.reset();  // the snapshot engine keeps no arrangements
    // The incremental engine under both compactions and fuels 0, 1 and 2
    // (a fuel splits the fused operators' work into activations).
    std::vector<eval::RunOptions> checks = {other};
    for (const eval::Compaction compaction :
         {eval::Compaction::kEager, eval::Compaction::kNone}) {
      for (const uint64_t fuel : {0, 1, 2}) {
        // The main run itself need not run again.
        if (options.engine == eval::Engine::kIncremental &&
            options.compaction == compaction && options.fuel == fuel) {
          continue;
        }
        eval::RunOptions check = options;
        check.engine = eval::Engine::kIncremental;
        check.compaction = compaction;
        check.fuel = fuel;
        checks.push_back(check);
      }
    }
    for (const eval::RunOptions& check : checks) {
      absl::StatusOr<eval::RunResult> again =
          eval::RunDocument(optimized->document, *data, check);
      if (!again.ok()) {
        ADD_FAILURE() << "cross-check failed to run: " << again.status();
        continue;
      }
      std::optional<std::string> difference =
          eval::FirstDifference(*result, *again);
      if (difference.has_value()) {
        ADD_FAILURE() << "engines or fuel disagree: " << *difference;
      }
    }
    if (first.has_value()) {
      std::optional<std::string> difference =
          eval::FirstDifference(*first, *result);
      if (difference.has_value()) {
        absl::StrAppend(
            &out, "MISMATCH between rewrite off and on: ", *difference, "\n");
        ADD_FAILURE() << "rewrite changed the results: " << *difference;
      }
    } else {
      first = *std::move(result);
    }
  }
  return out;
}

}  // namespace lir::test
