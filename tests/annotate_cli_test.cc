// End-to-end tests of lir-opt's --annotate that feed one run's output to
// another run (the annotated text and JSON read back), which a golden cannot
// say; every single-run case is in testdata/cli/annotate.txt.
#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/support/cli_test_util.h"

namespace {

using lir::test::ReadFile;
using lir::test::RunResult;

// The plan of the goldens, read from its fixture.
std::string Plan() {
  return ReadFile(std::filesystem::path(LIR_SOURCE_DIR) /
                  "testdata/plans/topk_monotonic.plan");
}

class AnnotateCliTest : public lir::test::LirOptTest {
 protected:
  void SetUp() override {
    LirOptTest::SetUp();
    if (IsSkipped()) return;
    Temp("plan.txt", Plan());
  }
};

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

TEST_F(AnnotateCliTest, AnnotatedJsonReadsBackAsThePlan) {
  RunResult r =
      Run({"explain", "--format=json",
           "--annotate=node_id,arity,monotonic,arrangements", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The reader ignores the annotations.
  RunResult back = Run({"explain", "-"}, r.out);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, Plan());
}

}  // namespace
