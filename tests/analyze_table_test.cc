// The EXPLAIN ANALYZE table's value formats and layout
// (lir/explain/analyze.h); the operator strings and whole tables are
// goldens in testdata/analyze/.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lir/explain/analyze.h"

namespace lir::explain {
namespace {

// Materialize's test/sqllogictest/pg_size_pretty.slt (from PostgreSQL's
// dbsize.out) at the unit boundaries, and the negative mirror.
TEST(PgSizePretty, MatchesMaterializeAndPostgresAtEveryBoundary) {
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {0, "0 bytes"},
      {10, "10 bytes"},
      {1000, "1000 bytes"},
      {10239, "10239 bytes"},
      {10240, "10 kB"},
      {1000000, "977 kB"},
      {10485247, "10239 kB"},
      {10485248, "10 MB"},
      {1000000000, "954 MB"},
      {10736893951, "10239 MB"},
      {10736893952, "10 GB"},
      {10994579406848, "10 TB"},
      {11258449312612352, "10 PB"},
      {INT64_MAX, "8192 PB"},
      {-10239, "-10239 bytes"},
      {-10240, "-10 kB"},
      {-10485248, "-10 MB"},
      {INT64_MIN, "-8192 PB"},
  };
  for (const auto& [bytes, text] : cases) {
    EXPECT_EQ(PgSizePretty(bytes), text) << bytes;
  }
  // Half up: 1.5 kB is 1536 bytes, which is under 10240 and so prints in
  // bytes; 15872 bytes is 15.5 kB and rounds to 16.
  EXPECT_EQ(PgSizePretty(15872), "16 kB");
  EXPECT_EQ(PgSizePretty(15871), "15 kB");
}

// sc.total_ns / 1000 * '1 microsecond'::interval: whole microseconds,
// trailing zeros of the fraction trimmed, hours past 24 kept.
TEST(FormatElapsed, PrintsMaterializesIntervals) {
  EXPECT_EQ(FormatElapsed(0), "00:00:00");
  EXPECT_EQ(FormatElapsed(999), "00:00:00");
  EXPECT_EQ(FormatElapsed(161341000), "00:00:00.161341");
  EXPECT_EQ(FormatElapsed(500000000), "00:00:00.5");
  EXPECT_EQ(FormatElapsed(15153963000), "00:00:15.153963");
  EXPECT_EQ(FormatElapsed(100000000000000), "27:46:40");
  EXPECT_EQ(FormatElapsed(3600000001000), "01:00:00.000001");
}

TEST(ParseAnalyzeColumns, TakesEachColumnOnceInTheOrderGiven) {
  auto parsed = ParseAnalyzeColumns("cpu,memory");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed,
            (std::vector{AnalyzeColumn::kCpu, AnalyzeColumn::kMemory}));
  EXPECT_FALSE(ParseAnalyzeColumns("").ok());
  EXPECT_FALSE(ParseAnalyzeColumns("memory,").ok());
  EXPECT_FALSE(ParseAnalyzeColumns("MEMORY").ok());
  EXPECT_FALSE(ParseAnalyzeColumns("memory,memory").ok());
}

// psql's aligned format: a centred header (extra space on the right), a
// right-aligned numeric column, `»` one column wide, NULL empty, the last
// column unpadded when left-aligned.
TEST(PrintAnalyzeTable, IsPsqlsAlignedFormat) {
  AnalyzeRow join{5, 0, "Differential Join %0 \xC2\xBB %1", {}};
  AnalyzeRow arrange{4, 1, "Arrange (#0)", {}};
  arrange.measure.memory_bytes = 12345678;
  arrange.measure.records = 731975;
  arrange.measure.elapsed_ns = 161341000;
  const std::vector<AnalyzeRow> rows = {join, arrange};
  EXPECT_EQ(PrintAnalyzeTable(rows, {AnalyzeColumn::kMemory}),
            "         operator          | total_memory | total_records \n"
            "---------------------------+--------------+---------------\n"
            " Differential Join %0 \xC2\xBB %1 |              |              \n"
            "   Arrange (#0)            | 12 MB        |        731975\n"
            "(2 rows)\n\n");
  EXPECT_EQ(PrintAnalyzeTable({arrange}, {AnalyzeColumn::kCpu}),
            "    operator    |  total_elapsed  \n"
            "----------------+-----------------\n"
            "   Arrange (#0) | 00:00:00.161341\n"
            "(1 row)\n\n");
  EXPECT_EQ(PrintAnalyzeTable({join}, {AnalyzeColumn::kCpu}),
            "         operator          | total_elapsed \n"
            "---------------------------+---------------\n"
            " Differential Join %0 \xC2\xBB %1 | \n"
            "(1 row)\n\n");
}

// Rows pair by LirId and operator; a node the rewrite replaced at the same
// LirId shows twice, the removed one first.
TEST(CompareAnalyzeRows, PairsByLirIdAndOperator) {
  const std::vector<AnalyzeRow> off = {{10, 0, "Threshold Diffs", {}},
                                       {9, 1, "Arrange (#0)", {}},
                                       {5, 2, "Distinct GroupAggregate", {}}};
  const std::vector<AnalyzeRow> on = {{10, 0, "Set Difference", {}},
                                      {5, 1, "Distinct GroupAggregate", {}},
                                      {3, 1, "Read t", {}}};
  const std::vector<AnalyzeCompareRow> rows = CompareAnalyzeRows(off, on);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].op, "Threshold Diffs");
  EXPECT_TRUE(rows[0].off.has_value() && !rows[0].on.has_value());
  EXPECT_EQ(rows[1].op, "Set Difference");
  EXPECT_TRUE(!rows[1].off.has_value() && rows[1].on.has_value());
  EXPECT_EQ(rows[2].op, "Arrange (#0)");
  EXPECT_FALSE(rows[2].on.has_value());
  EXPECT_EQ(rows[3].op, "Distinct GroupAggregate");
  EXPECT_TRUE(rows[3].off.has_value() && rows[3].on.has_value());
  EXPECT_EQ(rows[3].nesting, 1);  // the on side's place
  EXPECT_EQ(rows[4].op, "Read t");
  EXPECT_FALSE(rows[4].off.has_value());
}

}  // namespace
}  // namespace lir::explain
