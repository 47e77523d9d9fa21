// End-to-end tests of lir-opt's analysis flags: --annotate (text and JSON),
// --monotonic_ids, --arity, --single_time with the relaxation pass.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tests/support/cli_test_util.h"

namespace {

namespace fs = std::filesystem;

using lir::testing_util::ReadFile;
using lir::testing_util::RunResult;

constexpr char kPlan[] =
    "Explained Query:\n"
    "  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first] "
    "must_consolidate\n"
    "    ArrangeBy\n"
    "      raw=true\n"
    "      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n"
    "      Get::Collection materialize.public.m\n"
    "        raw=true\n"
    "\n"
    "Target cluster: quickstart\n";

class AnnotateCliTest : public lir::testing_util::LirOptTest {
 protected:
  void SetUp() override {
    LirOptTest::SetUp();
    if (IsSkipped()) return;
    Temp("plan.txt", kPlan);
  }
};

TEST_F(AnnotateCliTest, AppendsTheAskedFieldsInTheirFixedOrder) {
  RunResult r =
      Run({"explain", "--annotate=arrangements,monotonic,node_id,arity",
           "--monotonic_ids=materialize.public.m", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "    ArrangeBy // { node_id: LirId(2), arity: 2, monotonic: true, "
      "arrangements: \"raw, [#0]\" }\n"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "      Get::Collection materialize.public.m // { node_id: LirId(1), "
      "arity: ?, monotonic: true, arrangements: \"raw\" }\n"))
      << r.out;

  // Only what is asked for: no node_id. Nothing in the plan reveals m's
  // arity (the ArrangeBy's layout is its own); the caller can give it.
  r = Run({"explain", "--annotate=arity",
           "--arity=materialize.public.x=5,materialize.public.m=2",
           "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "    ArrangeBy // { arity: 2 }\n"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(
      r.out, "      Get::Collection materialize.public.m // { arity: 2 }\n"))
      << r.out;

  // Without --monotonic_ids the source is not monotonic.
  r = Run({"explain", "--annotate=monotonic", "plan.txt"});
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "      Get::Collection materialize.public.m // { monotonic: false }\n"))
      << r.out;
}

TEST_F(AnnotateCliTest, AnnotatedTextParsesBackWithoutTheComputedFields) {
  RunResult annotated =
      Run({"explain", "--annotate=node_id,arity,monotonic,arrangements",
           "plan.txt"});
  ASSERT_EQ(annotated.exit_code, 0) << annotated.err;
  RunResult reread = Run({"explain", "-"}, annotated.out);
  ASSERT_EQ(reread.exit_code, 0) << reread.err;
  RunResult ids = Run({"explain", "--node_identifiers", "plan.txt"});
  EXPECT_EQ(reread.out, ids.out);
}

TEST_F(AnnotateCliTest, JsonCarriesTheSameFields) {
  RunResult r =
      Run({"explain", "--format=json",
           "--annotate=node_id,arity,monotonic,arrangements", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out,
                                "\"annotations\": {\n"
                                "            \"arity\": 2,\n"
                                "            \"arrangements\": \"raw, [#0]\",\n"
                                "            \"monotonic\": false\n"
                                "          }"))
      << r.out;
  // The reader ignores the annotations.
  RunResult back = Run({"explain", "-"}, r.out);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, kPlan);
  // Asking only for node_id adds nothing to JSON (ids are always there).
  RunResult plain = Run({"explain", "--format=json", "plan.txt"});
  RunResult ids =
      Run({"explain", "--format=json", "--annotate=node_id", "plan.txt"});
  EXPECT_EQ(ids.out, plain.out);
}

TEST_F(AnnotateCliTest, SingleTimeRelaxation) {
  RunResult r =
      Run({"explain", "--single_time", "--enable_relax_must_consolidate",
           "--monotonic_ids=materialize.public.m", "--explain_declines",
           "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first]\n"))
      << r.out;
  EXPECT_TRUE(
      absl::StrContains(r.out, "relax_must_consolidate LirId(3): fired"))
      << r.out;

  r = Run({"explain", "--enable_relax_must_consolidate",
           "--monotonic_ids=materialize.public.m", "--explain_declines",
           "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StartsWith(r.out, kPlan)) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "declined not_single_time")) << r.out;
}

TEST_F(AnnotateCliTest, BadValuesAreUsageErrors) {
  RunResult r = Run({"explain", "--annotate=arity,colour", "plan.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StrContains(r.err, "unknown field 'colour'")) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.err,
      "node_id|arity|monotonic|arrangements|arrangements_built|unique_keys"))
      << r.err;
  r = Run({"explain", "--arity=materialize.public.t", "plan.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(
      r.err, "--arity: expected name=ARITY, got 'materialize.public.t'"))
      << r.err;
}

TEST_F(AnnotateCliTest, HelpDescribesTheFlags) {
  RunResult r = Run({"--help"});
  ASSERT_EQ(r.exit_code, 0);
  // Help text is wrapped: compare with its words joined by single spaces.
  const std::string flat = absl::StrJoin(
      absl::StrSplit(r.out, absl::ByAnyChar(" \n"), absl::SkipEmpty()), " ");
  for (const char* needle :
       {"--annotate=FIELD,...",
        "FIELDs node_id, arity, monotonic, arrangements, arrangements_built "
        "and unique_keys",
        "--catalog=VALUE", "--[no]single_time", "--monotonic_ids=VALUE",
        "--arity=VALUE", "--[no]enable_relax_must_consolidate"}) {
    EXPECT_TRUE(absl::StrContains(flat, needle)) << needle << "\n" << r.out;
  }
}

}  // namespace
