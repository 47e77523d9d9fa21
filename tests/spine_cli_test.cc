// `lir-opt spine` end to end where a golden cannot say it: its output is
// the library's (the golden files in testdata/spine/ print through the same
// functions), its JSON has exactly the members the issue names, the defaults
// print as the spelled-out flags, and a run cut by its turn or trace-byte
// limit prints a prefix of the full run. Single runs (usage errors, the
// limits, the documented examples) are goldens in testdata/cli/spine.txt.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/eval/spine_workload.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"

namespace lir {
namespace {

using test::LirOptTest;
using test::RunResult;

class SpineCliTest : public LirOptTest {};

TEST_F(SpineCliTest, TextIsTheLibrarysOutput) {
  RunResult r = Run({"spine", "--policy=idle_merge:1000", "--snapshot=3000",
                     "--batch_size=1000", "--idle_turns=100", "--trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  eval::spine::Workload w;
  w.policy = {eval::spine::Policy::Kind::kIdleMerge, 1000};
  w.snapshot = 3000;
  w.idle_turns = 100;
  std::string expected;
  absl::StatusOr<eval::spine::WorkloadResult> result = eval::spine::RunWorkload(
      w, [&expected](std::string_view label, const eval::spine::Spine& s) {
        expected += eval::spine::FormatTraceLine(label, s);
        return absl::OkStatus();
      });
  ASSERT_TRUE(result.ok());
  expected += eval::spine::WorkloadResultToText(*result);
  EXPECT_EQ(r.out, expected);
  EXPECT_TRUE(absl::StrContains(r.out, "batch 1 idle 9: none | 12:S(4000)"))
      << r.out;
}

TEST_F(SpineCliTest, JsonHasExactlyTheIssuesMembers) {
  RunResult r =
      Run({"spine", "--policy=proportional:16", "--exertion=funded",
           "--snapshot=65536", "--batches=4", "--batch_size=300",
           "--idle_turns=50", "--empty_batches=2", "--close", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "declines", "grants_bank", "grants_credit",
                      "idle_turns_used", "layers", "merge_work",
                      "nonempty_batches", "unfunded_continuations",
                      "virtual_batches", "work_per_update"}));
  EXPECT_DOUBLE_EQ(j["work_per_update"].get<double>(),
                   j["merge_work"].get<double>() / 1200.0);
  int previous = -1;
  for (const nlohmann::json& layer : j["layers"]) {
    EXPECT_GT(layer["level"].get<int>(), previous) << "from level 0 up";
    previous = layer["level"].get<int>();
    const std::string state = layer["state"];
    EXPECT_TRUE(state == "single" || state == "virtual" ||
                state == "in_progress" || state == "complete")
        << state;
    EXPECT_TRUE(layer.contains("length"));
  }
  EXPECT_FALSE(j["layers"].empty());
}

TEST_F(SpineCliTest, DefaultsAreTheIssues) {
  // proportional:16, stock, N = 0, n = 1, B = 1000, k = 0, E = 0.
  RunResult defaults = Run({"spine"});
  RunResult spelled =
      Run({"spine", "--policy=proportional:16", "--exertion=stock",
           "--snapshot=0", "--batches=1", "--batch_size=1000", "--idle_turns=0",
           "--empty_batches=0"});
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_EQ(defaults.out, spelled.out);
  EXPECT_TRUE(absl::StrContains(defaults.out, "layers 10:S(1000)\n"))
      << defaults.out;
}

// The worked example of SPINE.md section 7 (docs/spine.md's trace line): 11
// turns, 11 trace lines.
const std::vector<std::string> kWorkedExample = {"spine",
                                                 "--policy=idle_merge:1000",
                                                 "--snapshot=3000",
                                                 "--batch_size=1000",
                                                 "--idle_turns=100",
                                                 "--trace"};

std::vector<std::string> With(std::vector<std::string> args,
                              const std::string& flag) {
  args.push_back(flag);
  return args;
}

TEST_F(SpineCliTest, ARunPastTheTurnLimitStopsThereWithExitOne) {
  RunResult full = Run(kWorkedExample);
  ASSERT_EQ(full.exit_code, 0) << full.err;
  ASSERT_TRUE(Run(With(kWorkedExample, "--max_spine_turns=11")).exit_code == 0);
  RunResult cut = Run(With(kWorkedExample, "--max_spine_turns=10"));
  EXPECT_EQ(cut.exit_code, 1) << cut.err;
  EXPECT_TRUE(absl::StrContains(cut.err, "stopped before batch 1 idle 9"))
      << cut.err;
  EXPECT_TRUE(absl::StrContains(cut.err, "raise it with --max_spine_turns=N"))
      << cut.err;
  // The ten turns taken are traced as in the full run, and nothing else.
  size_t at = 0;
  for (int line = 0; line < 10; ++line) at = full.out.find('\n', at) + 1;
  EXPECT_EQ(cut.out, full.out.substr(0, at));
}

TEST_F(SpineCliTest, TraceStopsBeforePassingItsByteLimit) {
  RunResult full = Run(kWorkedExample);
  ASSERT_EQ(full.exit_code, 0) << full.err;
  RunResult cut = Run(With(kWorkedExample, "--max_trace_bytes=200"));
  EXPECT_EQ(cut.exit_code, 1) << cut.err;
  EXPECT_TRUE(absl::StrContains(cut.err, "the limit of 200 bytes")) << cut.err;
  EXPECT_TRUE(absl::StrContains(cut.err, "--max_trace_bytes=N")) << cut.err;
  // Whole lines only, within the limit, as the full trace has them, and no
  // metrics after.
  EXPECT_LE(cut.out.size(), 200u);
  ASSERT_FALSE(cut.out.empty());
  EXPECT_EQ(cut.out.back(), '\n');
  EXPECT_TRUE(absl::StartsWith(full.out, cut.out)) << cut.out;
  EXPECT_GT(full.out.find('\n', cut.out.size()) + 1, 200u)
      << "the next line would have passed the limit";
  // The limit bounds the trace only.
  RunResult metrics =
      Run({"spine", "--policy=idle_merge:1000", "--snapshot=3000",
           "--idle_turns=100", "--max_trace_bytes=1"});
  EXPECT_EQ(metrics.exit_code, 0) << metrics.err;
}

}  // namespace
}  // namespace lir
