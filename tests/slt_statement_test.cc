// Which sqllogictest statements print a physical plan, and in which syntax
// (ClassifyStatement, ../shared/reference/CONCISE-FORMAT.md section 1):
// the rule `lir-opt slt` selects blocks by. A wrong answer makes slt skip a
// plan, or check MIR text as a plan.
#include <initializer_list>
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

// Expects every statement of `statements` to classify as `kind`.
void ExpectKind(StatementKind kind,
                std::initializer_list<const char*> statements) {
  for (const char* statement : statements) {
    EXPECT_EQ(Kind(statement), kind) << statement;
  }
}

TEST(SltStatement, WithoutAStageTheDefaultPrintsConcise) {
  ExpectKind(StatementKind::kConcise,
             {"EXPLAIN SELECT 1",
              "EXPLAIN WITH(humanized expressions) SELECT * FROM t",
              "explain with (no fast path) (SELECT 1) UNION ALL (SELECT 2)",
              "EXPLAIN WITH(humanized expressions) INDEX t_a_idx",
              "EXPLAIN MATERIALIZED VIEW mv",
              "EXPLAIN WITH(humanized expressions) SUBSCRIBE t1",
              // A query that starts with a CTE, not the options list.
              "EXPLAIN WITH x AS (SELECT 1) SELECT * FROM x",
              "EXPLAIN PLAN FOR SELECT 1"});
}

TEST(SltStatement, AnExplicitPhysicalStagePrintsVerboseUnlessAsText) {
  ExpectKind(StatementKind::kVerbose,
             {"EXPLAIN PHYSICAL PLAN FOR SELECT 1",
              "EXPLAIN PHYSICAL PLAN WITH(humanized expressions) FOR SELECT 1",
              "EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT 1",
              "explain physical plan as verbose   text for select 1",
              "EXPLAIN AS VERBOSE TEXT FOR SELECT 1"});
  ExpectKind(StatementKind::kConcise,
             {"EXPLAIN PHYSICAL PLAN AS TEXT FOR SELECT 1"});
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
  ExpectKind(
      StatementKind::kNotPlan,
      {"EXPLAIN RAW PLAN FOR SELECT 1",
       "EXPLAIN DECORRELATED PLAN WITH(arity) FOR SELECT 1",
       "EXPLAIN LOCALLY OPTIMIZED PLAN AS VERBOSE TEXT FOR SELECT 1",
       "EXPLAIN OPTIMIZED PLAN AS VERBOSE TEXT FOR SELECT 1",
       "EXPLAIN TIMESTAMP FOR SELECT 1", "EXPLAIN FILTER PUSHDOWN FOR SELECT 1",
       "EXPLAIN ANALYZE MEMORY FOR INDEX i", "SELECT 1"});
}

TEST(SltStatement, OptimizedPlanIsAPlanOnlyAsAConciseFastPath) {
  // ParseSltFile then keeps the block only when its output is
  // `Explained Query (fast path):` over a `→` line.
  ExpectKind(StatementKind::kConciseIfFastPath,
             {"EXPLAIN OPTIMIZED PLAN FOR SELECT 1",
              "EXPLAIN OPTIMIZED PLAN AS TEXT FOR SELECT 1"});
}

}  // namespace
}  // namespace lir::cli::slt
