// The `exec` golden command's own pieces (tests/golden_exec.h): word
// splitting, block escapes and how output bytes are shown.
#include "tests/golden_exec.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace lir::test {
namespace {

using Words = std::vector<std::string>;

TEST(GoldenExec, SplitsWordsAsTheShellQuotesThem) {
  std::string error;
  EXPECT_EQ(SplitShellWords("explain  --a=1\tplan.txt", &error),
            (Words{"explain", "--a=1", "plan.txt"}));
  EXPECT_EQ(SplitShellWords(R"(--config='{"a": 1}' "x y" a\ b "q\"q")", &error),
            (Words{R"(--config={"a": 1})", "x y", "a b", "q\"q"}));
  EXPECT_EQ(SplitShellWords("''", &error), (Words{""}));
  EXPECT_EQ(error, "");
  EXPECT_TRUE(SplitShellWords("explain 'open", &error).empty());
  EXPECT_EQ(error, "unclosed ' at column 9 of the argument line");
}

TEST(GoldenExec, DecodesTheEscapesOfEscapedBlocks) {
  std::string error;
  EXPECT_EQ(DecodeEscapes(R"(a\r\n\t\\\x41\0z)", &error),
            std::string("a\r\n\t\\A\0z", 8));
  EXPECT_EQ(error, "");
  DecodeEscapes(R"(\q)", &error);
  EXPECT_EQ(error, "unknown escape \\q");
  error.clear();
  DecodeEscapes(R"(\x4)", &error);
  EXPECT_EQ(error, "\\x needs two hex digits");
}

TEST(GoldenExec, ShowsUnprintableBytesEscaped) {
  EXPECT_EQ(PrintableBytes("plain\ttext\n"), "plain\ttext\n");
  EXPECT_EQ(PrintableBytes("crlf\r\n"), "crlf\\r\n");
  EXPECT_EQ(PrintableBytes(std::string("nul\0\x7f\n", 6)), "nul\\x00\\x7f\n");
  // Valid UTF-8 stays; a lone continuation byte, an overlong form and a
  // truncated sequence do not.
  EXPECT_EQ(PrintableBytes("caf\xc3\xa9 \xe2\x86\x92\n"),
            "caf\xc3\xa9 \xe2\x86\x92\n");
  EXPECT_EQ(PrintableBytes("\x80\xc0\xaf\xe2\x86\n"),
            "\\x80\\xc0\\xaf\\xe2\\x86\n");
  EXPECT_EQ(PrintableBytes("no end"), "no end\n\\ no line feed at end\n");
}

}  // namespace
}  // namespace lir::test
