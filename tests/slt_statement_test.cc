// Which sqllogictest statements print a physical plan, and in which syntax
// (ClassifyStatement, ../shared/reference/CONCISE-FORMAT.md section 1):
// the rule `lir-opt slt` selects blocks by. A wrong answer makes slt skip a
// plan, or check MIR text as a plan.
#include <string>

#include "gtest/gtest.h"
#include "tools/lir-opt/slt_file.h"

namespace lir::cli::slt {
namespace {

StatementKind Kind(const std::string& statement,
                   std::string* reason = nullptr) {
  std::string ignored;
  return ClassifyStatement(statement, reason != nullptr ? reason : &ignored);
}

TEST(SltStatement, WithoutAStageTheDefaultPrintsConcise) {
  EXPECT_EQ(Kind("EXPLAIN SELECT 1"), StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN WITH(humanized expressions) SELECT * FROM t"),
            StatementKind::kConcise);
  EXPECT_EQ(Kind("explain with (no fast path) (SELECT 1) UNION ALL (SELECT 2)"),
            StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN WITH(humanized expressions) INDEX t_a_idx"),
            StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN MATERIALIZED VIEW mv"), StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN WITH(humanized expressions) SUBSCRIBE t1"),
            StatementKind::kConcise);
  // A query that starts with a CTE, not the options list.
  EXPECT_EQ(Kind("EXPLAIN WITH x AS (SELECT 1) SELECT * FROM x"),
            StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN PLAN FOR SELECT 1"), StatementKind::kConcise);
}

TEST(SltStatement, AnExplicitPhysicalStagePrintsVerboseUnlessAsText) {
  EXPECT_EQ(Kind("EXPLAIN PHYSICAL PLAN FOR SELECT 1"),
            StatementKind::kVerbose);
  EXPECT_EQ(
      Kind("EXPLAIN PHYSICAL PLAN WITH(humanized expressions) FOR SELECT 1"),
      StatementKind::kVerbose);
  EXPECT_EQ(Kind("EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT 1"),
            StatementKind::kVerbose);
  EXPECT_EQ(Kind("explain physical plan as verbose   text for select 1"),
            StatementKind::kVerbose);
  EXPECT_EQ(Kind("EXPLAIN PHYSICAL PLAN AS TEXT FOR SELECT 1"),
            StatementKind::kConcise);
  EXPECT_EQ(Kind("EXPLAIN AS VERBOSE TEXT FOR SELECT 1"),
            StatementKind::kVerbose);
}

TEST(SltStatement, OtherFormatsAreSkippedWithTheReason) {
  std::string reason;
  EXPECT_EQ(Kind("EXPLAIN PHYSICAL PLAN AS JSON FOR SELECT 1", &reason),
            StatementKind::kSkipped);
  EXPECT_EQ(reason, "AS JSON is not a text format");
  EXPECT_EQ(Kind("EXPLAIN PHYSICAL PLAN WITH(no fast path) AS DOT FOR SELECT 1",
                 &reason),
            StatementKind::kSkipped);
  EXPECT_EQ(reason, "AS DOT is not a text format");
}

TEST(SltStatement, MirStagesAndOtherExplainsAreNotPlans) {
  EXPECT_EQ(Kind("EXPLAIN RAW PLAN FOR SELECT 1"), StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN DECORRELATED PLAN WITH(arity) FOR SELECT 1"),
            StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN LOCALLY OPTIMIZED PLAN AS VERBOSE TEXT FOR SELECT 1"),
            StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN OPTIMIZED PLAN AS VERBOSE TEXT FOR SELECT 1"),
            StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN TIMESTAMP FOR SELECT 1"), StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN FILTER PUSHDOWN FOR SELECT 1"),
            StatementKind::kNotPlan);
  EXPECT_EQ(Kind("EXPLAIN ANALYZE MEMORY FOR INDEX i"),
            StatementKind::kNotPlan);
  EXPECT_EQ(Kind("SELECT 1"), StatementKind::kNotPlan);
}

TEST(SltStatement, OptimizedPlanIsAPlanOnlyAsAConciseFastPath) {
  // ParseSltFile then keeps the block only when its output is
  // `Explained Query (fast path):` over a `→` line.
  EXPECT_EQ(Kind("EXPLAIN OPTIMIZED PLAN FOR SELECT 1"),
            StatementKind::kConciseIfFastPath);
  EXPECT_EQ(Kind("EXPLAIN OPTIMIZED PLAN AS TEXT FOR SELECT 1"),
            StatementKind::kConciseIfFastPath);
}

}  // namespace
}  // namespace lir::cli::slt
