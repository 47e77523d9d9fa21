// `lir-opt spine` end to end: its output is the library's (the golden
// files in testdata/spine/ print through the same functions), its JSON has
// exactly the members the issue names, and bad flags are usage errors that
// name the flag.
#include <string>
#include <vector>

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

}  // namespace
}  // namespace lir
