// How `lir-opt slt` reads an .slt file into blocks (ParseSltFile): the same
// blocks whatever the line endings and with a byte-order mark, and records
// without their `EOF` ending where Materialize's runner ends a record, so
// that they hide no plan block after them.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "tools/lir-opt/slt_file.h"

namespace lir::cli::slt {
namespace {

// The block of `EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT n` (a
// fast-path constant) up to its output's last plan line, without the EOF.
std::string SelectQuery(int n) {
  return absl::StrCat(
      "query T multiline\n"
      "EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT ",
      n, "\n----\nExplained Query (fast path):\n  Constant\n    - (", n, ")\n");
}

constexpr char kBom[] = "\xEF\xBB\xBF";

// Two plan blocks with non-plan records between them, every line ending in
// `\n`. The first line is a block's directive, which a byte-order mark
// before it would hide.
constexpr char kFile[] =
    "query T multiline\n"
    "EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR\n"
    "SELECT 1\n"
    "----\n"
    "Explained Query (fast path):\n"
    "  Constant\n"
    "    - (1)\n"
    "\n"
    "Target cluster: quickstart\n"
    "\n"
    "EOF\n"
    "\n"
    "statement ok\n"
    "CREATE TABLE t (a int)\n"
    "\n"
    "query T multiline\n"
    "SELECT 'a'\n"
    "----\n"
    "a\n"
    "EOF\n"
    "\n"
    "query T multiline\n"
    "EXPLAIN SELECT 2\n"
    "----\n"
    "Explained Query (fast path):\n"
    "  →Constant (1 rows)\n"
    "\n"
    "EOF\n";

/// A block's position and reading, comparable across files.
std::string Describe(const SltFile& file, const ExplainBlock& block) {
  return absl::StrCat("query line ", block.query_line, ", output [",
                      block.output_begin, ", ", block.plan_end, ", ",
                      block.output_end, "), statement '", block.statement,
                      "', error '", block.error.value_or(""), "', plan:\n",
                      PlanText(file, block));
}

std::vector<std::string> Blocks(const std::string& content) {
  SltFile file;
  file.name = "t.slt";
  file.content = content;
  ParseSltFile(&file);
  EXPECT_EQ(RenderWithReplacements(file, {}), content)
      << "rendering without a replacement changed a byte";
  std::vector<std::string> out;
  for (const ExplainBlock& block : file.blocks) {
    out.push_back(Describe(file, block));
  }
  return out;
}

TEST(SltFile, LineEndingsAndAByteOrderMarkLeaveTheSameBlocks) {
  const std::vector<std::string> lf = Blocks(kFile);
  ASSERT_EQ(lf.size(), 2u);
  EXPECT_EQ(Blocks(absl::StrReplaceAll(kFile, {{"\n", "\r\n"}})), lf);
  EXPECT_EQ(Blocks(absl::StrReplaceAll(kFile, {{"\n", "\r"}})), lf)
      << "a lone CR ends a line";
  EXPECT_EQ(Blocks(absl::StrCat(kBom, kFile)), lf)
      << "a byte-order mark is not part of the first line";
  EXPECT_EQ(
      Blocks(absl::StrCat(kBom, absl::StrReplaceAll(kFile, {{"\n", "\r"}}))),
      lf);
}

TEST(SltFile, AReplacedPlanKeepsTheByteOrderMarkAndLoneCrs) {
  SltFile file;
  file.name = "t.slt";
  file.content = absl::StrCat(kBom, absl::StrReplaceAll(kFile, {{"\n", "\r"}}));
  ParseSltFile(&file);
  ASSERT_EQ(file.blocks.size(), 2u);
  const std::string rendered = RenderWithReplacements(
      file, {{&file.blocks[0],
              "Explained Query (fast path):\n  Constant\n\n"
              "Target cluster: quickstart\n"}});
  EXPECT_EQ(
      rendered,
      absl::StrCat(kBom, absl::StrReplaceAll(
                             absl::StrReplaceAll(kFile, {{"    - (1)\n", ""}}),
                             {{"\n", "\r"}})));
}

TEST(SltFile, ANonPlanOutputWithoutEofHidesNoPlanAfterIt) {
  // The runner would read the first output up to the next `EOF`, the plan
  // block's own; a blank line and a new record end it here.
  const std::vector<std::string> blocks =
      Blocks(absl::StrCat("query T multiline\n"
                          "SELECT 'a'\n"
                          "----\n"
                          "a\n"
                          "\n"
                          "# a comment\n",
                          SelectQuery(1),
                          "\n"
                          "EOF\n"));
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0],
            "query line 6, output [9, 12, 13), statement 'EXPLAIN PHYSICAL "
            "PLAN AS VERBOSE TEXT FOR SELECT 1', error '', plan:\n"
            "Explained Query (fast path):\n  Constant\n    - (1)\n");
}

TEST(SltFile, APlanOutputWithoutEofIsALocatedErrorAndTheNextBlockIsFound) {
  const std::vector<std::string> blocks =
      Blocks(absl::StrCat(SelectQuery(1),
                          "\n"
                          "Target cluster: quickstart\n"
                          "\n"
                          "\n"
                          "statement ok\n"
                          "CREATE TABLE t (a int)\n"
                          "\n",
                          SelectQuery(2),
                          "\n"
                          "EOF\n"));
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_NE(blocks[0].find("error 't.slt:9: expected a line 'EOF' ending the "
                           "expected output begun at line 4"),
            std::string::npos)
      << blocks[0];
  EXPECT_EQ(blocks[1].substr(0, 31), "query line 13, output [16, 19, ")
      << blocks[1];
  EXPECT_NE(blocks[1].find("error ''"), std::string::npos) << blocks[1];
}

TEST(SltFile, AnOutputWithoutEofAtTheEndOfTheFileIsALocatedError) {
  const std::vector<std::string> blocks = Blocks(SelectQuery(1));
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_NE(blocks[0].find("error 't.slt:7: expected a line 'EOF' ending the "
                           "expected output begun at line 4'"),
            std::string::npos)
      << blocks[0];
}

}  // namespace
}  // namespace lir::cli::slt
