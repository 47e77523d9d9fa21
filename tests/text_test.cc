// Tests of the verbose EXPLAIN text parser and printer through its API: the
// whole corpus round trip and the annotation callback. Ids, With folding,
// node syntax and located parse errors are goldens: testdata/explain/
// (node_ids.txt, nodes.txt) and testdata/errors/text.txt.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "tests/support/corpus_util.h"
#include "tests/support/parse_or_die.h"

namespace lir::explain {
namespace {

using test::ReadFile;

TEST(TextCorpus, EveryPlanRoundTripsByteForByte) {
  std::vector<std::filesystem::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  int identical = 0;
  for (const auto& path : files) {
    std::string text = ReadFile(path);
    ParseOptions options;
    options.filename = path.filename().string();
    absl::StatusOr<Document> doc = ParseText(text, options);
    ASSERT_TRUE(doc.ok()) << doc.status();
    std::string printed = PrintText(*doc);
    EXPECT_EQ(printed, text) << path.filename();
    if (printed == text) ++identical;
  }
  std::cout << identical << "/" << files.size() << " byte-identical\n";
  EXPECT_EQ(identical, static_cast<int>(files.size()));
  EXPECT_EQ(files.size(), 134u);
}

std::string ExceptPlan() {
  return test::FixtureText("except_all_negated_first.plan");
}

TEST(TextAnnotate, ExtraFieldsFollowTheNodeId) {
  absl::StatusOr<Document> doc = ParseText(ExceptPlan());
  ASSERT_TRUE(doc.ok()) << doc.status();
  PrintOptions options;
  options.annotate = [](const Node& node) -> std::string {
    return node.Is<NegateOp>() ? "monotonic: false" : "";
  };
  std::string plain = PrintText(*doc, options);
  EXPECT_NE(plain.find("        Negate // { monotonic: false }\n"),
            std::string::npos)
      << plain;
  EXPECT_NE(plain.find("      Union consolidate_output=true\n"),
            std::string::npos);
  options.node_identifiers = true;
  std::string with_ids = PrintText(*doc, options);
  EXPECT_NE(
      with_ids.find("Negate // { node_id: LirId(2), monotonic: false }\n"),
      std::string::npos)
      << with_ids;
  // Computed fields are not trusted on input: they are dropped, ids kept.
  absl::StatusOr<Document> again = ParseText(with_ids);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(PrintText(*again), PrintText(*doc, PrintOptions{true, nullptr}));
}

}  // namespace
}  // namespace lir::explain
