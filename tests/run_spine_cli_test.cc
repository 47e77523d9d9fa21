// End-to-end tests of `lir-opt run --spine` that compare runs or read its
// JSON, which a golden cannot say: keeping every arrangement as a fueled
// spine (src/eval/trace_spine.cc) never changes the contents, each spine's
// JSON members, idle turns counted. The text report and the usage errors
// are goldens in testdata/cli/run_spine.txt.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"

namespace {

using lir::test::RunResult;

class RunSpineCliTest : public lir::test::LirOptTest {
 protected:
  // `lir-opt run` of examples/except.plan on examples/except.data.json
  // (three rounds), with the fused rewrite so that a SetDifference output
  // is among the arrangements.
  RunResult RunExcept(std::vector<std::string> flags) {
    const std::string examples = absl::StrCat(LIR_SOURCE_DIR, "/examples/");
    std::vector<std::string> args = {
        "run", absl::StrCat("--data=", examples, "except.data.json"),
        "--enable_fused_set_difference"};
    args.insert(args.end(), flags.begin(), flags.end());
    args.push_back(absl::StrCat(examples, "except.plan"));
    return Run(args);
  }

  // The "objects" member of a JSON run: the contents of every round.
  static nlohmann::json Contents(const RunResult& r) {
    return nlohmann::json::parse(r.out)["objects"];
  }
};

TEST_F(RunSpineCliTest, ContentsAreTheSameWithAndWithoutSpines) {
  RunResult plain = RunExcept({"--format=json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{
           {"--spine=stock"},
           {"--spine=funded"},
           {"--spine=stock", "--spine_policy=idle_merge:1000",
            "--idle_turns=64", "--compaction=none"},
           {"--spine=funded", "--spine_policy=none", "--fuel=1"},
           {"--spine=off"}}) {
    std::vector<std::string> args = flags;
    args.push_back("--format=json");
    RunResult r = RunExcept(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Contents(r), Contents(plain)) << flags[0];
  }
}

TEST_F(RunSpineCliTest, ArrangementSizesReportEachSpine) {
  RunResult r =
      RunExcept({"--spine=stock", "--spine_policy=idle_merge:1000",
                 "--idle_turns=1000", "--arrangement_sizes", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  ASSERT_FALSE(json["arrangements"].empty());
  for (const nlohmann::json& a : json["arrangements"]) {
    ASSERT_TRUE(a.contains("spine")) << a.dump();
    const nlohmann::json& spine = a["spine"];
    std::vector<std::string> keys;
    for (const auto& [key, value] : spine.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"batches", "idle_turns",
                                              "merge_work", "records"}));
    // Merged and closed under idle_merge: at most one batch with data,
    // holding what the compacted trace holds.
    EXPECT_LE(spine["batches"].get<int>(), 1) << a.dump();
    EXPECT_EQ(spine["records"], a["records"]) << a.dump();
  }
}

TEST_F(RunSpineCliTest, WithoutSpinesNothingIsAdded) {
  RunResult off = RunExcept({"--arrangement_sizes", "--format=json"});
  RunResult explicit_off =
      RunExcept({"--spine=off", "--arrangement_sizes", "--format=json"});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(off.out, explicit_off.out);
  const nlohmann::json json = nlohmann::json::parse(off.out);
  for (const nlohmann::json& a : json["arrangements"]) {
    EXPECT_FALSE(a.contains("spine")) << a.dump();
  }
  RunResult text = RunExcept({"--arrangement_sizes"});
  EXPECT_FALSE(absl::StrContains(text.out, "spine:")) << text.out;
}

TEST_F(RunSpineCliTest, IdleTurnsAreCountedAndBounded) {
  const auto idle_turns = [](const RunResult& r) {
    int turns = 0;
    // Kept: a range-for over a member of a temporary would dangle.
    const nlohmann::json json = nlohmann::json::parse(r.out);
    for (const nlohmann::json& a : json["arrangements"]) {
      turns += a["spine"]["idle_turns"].get<int>();
    }
    return turns;
  };
  RunResult none = RunExcept({"--spine=stock", "--spine_policy=idle_merge:1",
                              "--arrangement_sizes", "--format=json"});
  RunResult some =
      RunExcept({"--spine=stock", "--spine_policy=idle_merge:1",
                 "--idle_turns=1000", "--arrangement_sizes", "--format=json"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  ASSERT_EQ(some.exit_code, 0) << some.err;
  EXPECT_EQ(idle_turns(none), 0);
  EXPECT_GT(idle_turns(some), 0);
}

}  // namespace
