// `lir-opt spine` end to end: its output is the library's (the golden
// files in testdata/spine/ print through the same functions), its JSON has
// exactly the members the issue names, bad flags are usage errors that
// name the flag, and the limits on a run's turns and trace bytes (exit 1)
// and on --close (exit 2) refuse what they bound and accept the documented
// examples.
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

using testing_util::LirOptTest;
using testing_util::RunResult;

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

TEST_F(SpineCliTest, BadFlagsAreUsageErrorsNamingTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string names;
  };
  const std::vector<Case> cases = {
      {{"spine", "--policy=fast"}, "policy"},
      {{"spine", "--policy=idle_merge:0"}, "policy"},
      {{"spine", "--policy=proportional:"}, "policy"},
      {{"spine", "--exertion=lavish"}, "exertion"},
      {{"spine", "--batches=-1"}, "batches"},
      {{"spine", "--batches=0"}, "--batches"},
      {{"spine", "--batch_size=0"}, "--batch_size"},
      {{"spine", "--snapshot=x"}, "snapshot"},
      {{"spine", "--snapshot=2000000000000"}, "--snapshot"},
      {{"spine", "--idle_turns=1.5"}, "idle_turns"},
      {{"spine", "--batches=100000", "--idle_turns=100000"}, "--idle_turns"},
      {{"spine", "--trace", "--format=json"}, "--trace"},
      {{"spine", "--max_spine_turns=0"}, "--max_spine_turns"},
      {{"spine", "--trace", "--max_trace_bytes=0"}, "--max_trace_bytes"},
      {{"spine", "extra"}, "operands"},
  };
  for (const Case& c : cases) {
    RunResult r = Run(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args.back();
    EXPECT_TRUE(absl::StrContains(r.err, c.names))
        << c.args.back() << ": " << r.err;
  }
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

TEST_F(SpineCliTest, TooManyActivationsAreRefusedBeforeRunning) {
  // 2^26 + 1 activations: past the default limit, refused at once.
  RunResult r =
      Run({"spine", "--policy=none", "--batches=67108865", "--batch_size=1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing ran";
  EXPECT_TRUE(absl::StrContains(r.err, "at least 67108865 activations"))
      << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "--max_spine_turns=N")) << r.err;
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

TEST_F(SpineCliTest, ACloseThatCannotSettleIsAUsageError) {
  // idle_merge:1 merges 8 records a turn; one batch of 2^40 + 2^20 updates
  // needs about 2^37 idle turns after close.
  RunResult r =
      Run({"spine", "--policy=idle_merge:1", "--snapshot=1099511627776",
           "--batch_size=1048576", "--close"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(absl::StrContains(r.err, "--close cannot settle")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "idle_merge:1")) << r.err;
  // The same data with an effort of 2^30 settles.
  RunResult ok =
      Run({"spine", "--policy=idle_merge:1073741824",
           "--snapshot=1099511627776", "--batch_size=1048576", "--close"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// The examples of README.md, `lir-opt --help` and docs/spine.md run within
// the default limits, with the output the README shows.
TEST_F(SpineCliTest, DefaultLimitsAcceptTheDocumentedExamples) {
  RunResult stock =
      Run({"spine", "--policy=idle_merge:1000", "--snapshot=1048576",
           "--batches=64", "--batch_size=1024", "--idle_turns=4096"});
  ASSERT_EQ(stock.exit_code, 0) << stock.err;
  EXPECT_TRUE(absl::StartsWith(
      stock.out, "merge_work 66441456\nwork_per_update 1013.82\n"))
      << stock.out;
  RunResult funded =
      Run({"spine", "--policy=idle_merge:1000", "--exertion=funded",
           "--snapshot=1048576", "--batches=64", "--batch_size=1024",
           "--idle_turns=4096"});
  ASSERT_EQ(funded.exit_code, 0) << funded.err;
  EXPECT_TRUE(absl::StartsWith(funded.out,
                               "merge_work 328704\nwork_per_update 5.01562\n"))
      << funded.out;
  RunResult help =
      Run({"spine", "--policy=idle_merge:1000", "--exertion=funded",
           "--snapshot=1048576", "--batches=64", "--batch_size=1024",
           "--idle_turns=256"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  RunResult traced = Run(kWorkedExample);
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_TRUE(absl::StrContains(
      traced.out,
      "batch 1 idle 4: fuel | 12:P(3000+1000,done=1000) | work 1000\n"))
      << traced.out;
}

}  // namespace
}  // namespace lir
