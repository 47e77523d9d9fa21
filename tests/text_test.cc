// Tests of the verbose EXPLAIN text parser and printer: the whole corpus
// round trip, ids, With folding, and located parse errors.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lir/explain/text.h"
#include "tests/support/corpus_util.h"

namespace lir::explain {
namespace {

using corpus::ReadFile;

TEST(TextCorpus, EveryPlanRoundTripsByteForByte) {
  std::vector<std::filesystem::path> files = corpus::PlanFiles();
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

constexpr char kExcept[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        Negate
          Get::Arrangement materialize.public.b
            project=(#0)
            key=#0
            raw=false
            arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
        Get::PassArrangements materialize.public.a
          raw=false
          arrangements[0]={ key=[#0], permutation=id, thinning=() }

Target cluster: quickstart
)";

TEST(TextIds, PostOrderWhenAbsent) {
  absl::StatusOr<Document> doc = ParseText(kExcept);
  ASSERT_TRUE(doc.ok()) << doc.status();
  const Node& threshold = *doc->objects[0].plan;
  EXPECT_EQ(threshold.id, 6u);
  const Node& arrange = *threshold.inputs[0];
  EXPECT_EQ(arrange.id, 5u);
  const Node& union_node = *arrange.inputs[0];
  EXPECT_EQ(union_node.id, 4u);
  EXPECT_EQ(union_node.inputs[0]->id, 2u);             // Negate
  EXPECT_EQ(union_node.inputs[0]->inputs[0]->id, 1u);  // Get b
  EXPECT_EQ(union_node.inputs[1]->id, 3u);             // Get a
  EXPECT_FALSE(doc->node_identifiers);
}

TEST(TextIds, PrintedOnRequestAndParsedBack) {
  absl::StatusOr<Document> doc = ParseText(kExcept);
  ASSERT_TRUE(doc.ok()) << doc.status();
  PrintOptions options;
  options.node_identifiers = true;
  std::string with_ids = PrintText(*doc, options);
  EXPECT_NE(
      with_ids.find(
          "Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, "
          "thinning=() } // { node_id: LirId(6) }\n"),
      std::string::npos)
      << with_ids;
  EXPECT_NE(with_ids.find("Negate // { node_id: LirId(2) }\n"),
            std::string::npos);
  absl::StatusOr<Document> again = ParseText(with_ids);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->node_identifiers);
  EXPECT_EQ(PrintText(*again), with_ids);
}

TEST(TextIds, AnnotatedIdsAreKeptNotRenumbered) {
  constexpr char kText[] = R"(Explained Query:
  Negate // { node_id: LirId(40) }
    Constant // { node_id: LirId(7), arity: 1 }
      - (1)
)";
  absl::StatusOr<Document> doc = ParseText(kText);
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->objects[0].plan->id, 40u);
  EXPECT_EQ(doc->objects[0].plan->inputs[0]->id, 7u);
  // Computed fields of the comment are dropped, the id is kept.
  EXPECT_EQ(PrintText(*doc), R"(Explained Query:
  Negate // { node_id: LirId(40) }
    Constant // { node_id: LirId(7) }
      - (1)
)");
}

TEST(TextWith, LetChainFoldsIntoOneBlock) {
  constexpr char kText[] = R"(Explained Query:
  With
    cte l0 =
      Constant
        - (1)
    cte l1 =
      Get::PassArrangements l0
        raw=true
  Return
    Union
      Get::PassArrangements l1
        raw=true
      Get::PassArrangements l0
        raw=true
)";
  absl::StatusOr<Document> doc = ParseText(kText);
  ASSERT_TRUE(doc.ok()) << doc.status();
  const Node& outer = *doc->objects[0].plan;
  ASSERT_TRUE(outer.Is<LetOp>());
  EXPECT_EQ(outer.As<LetOp>().id, 0u);
  const Node& inner = *outer.inputs[1];
  ASSERT_TRUE(inner.Is<LetOp>());
  EXPECT_EQ(inner.As<LetOp>().id, 1u);
  EXPECT_TRUE(inner.inputs[1]->Is<UnionOp>());
  EXPECT_EQ(PrintText(*doc), kText);
}

TEST(TextSetDifference, ParsesAndPrints) {
  constexpr char kText[] = R"(Explained Query:
  SetDifference ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    base_key=[#1]
    subtract_key=[#0]
    Get::PassArrangements materialize.public.a
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
    Get::PassArrangements materialize.public.b
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";
  absl::StatusOr<Document> doc = ParseText(kText);
  ASSERT_TRUE(doc.ok()) << doc.status();
  const Node& root = *doc->objects[0].plan;
  ASSERT_TRUE(root.Is<SetDifferenceOp>());
  EXPECT_EQ(root.As<SetDifferenceOp>().base_key, std::vector<int>{1});
  EXPECT_EQ(root.As<SetDifferenceOp>().subtract_key, std::vector<int>{0});
  EXPECT_EQ(PrintText(*doc), kText);
}

struct ErrorCase {
  const char* name;
  const char* text;
  const char* message;
};

class TextErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(TextErrors, ReportFileLineColumnAndWhatWasExpected) {
  ParseOptions options;
  options.filename = "bad.plan";
  absl::StatusOr<Document> doc = ParseText(GetParam().text, options);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(doc.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TextErrors,
    ::testing::Values(
        ErrorCase{"odd_indent", "Explained Query:\n   Negate\n",
                  "bad.plan:2:4: expected indentation by two spaces per level, "
                  "found 3 spaces"},
        ErrorCase{"missing_raw",
                  "Explained Query:\n  Get::PassArrangements t\n    "
                  "arrangements[0]={ key=[#0], permutation=id, thinning=() }\n",
                  "bad.plan:3:5: expected 'raw=true' or 'raw=false'"},
        ErrorCase{
            "unknown_node", "Explained Query:\n  Frobnicate\n",
            "bad.plan:2:3: expected a node (Constant, Error, Get::*, With, "
            "Mfp, FlatMap, Join::*, Reduce::*, TopK::*, Negate, "
            "Threshold::Basic, Union, ArrangeBy, SetDifference, AntiJoin)"},
        ErrorCase{"negate_without_child", "Explained Query:\n  Negate\n",
                  "bad.plan:2:3: expected 1 child plan under Negate, found 0"},
        ErrorCase{"child_too_deep",
                  "Explained Query:\n  Negate\n      Constant\n        - (1)\n",
                  "bad.plan:3:7: expected less indentation: an attribute of "
                  "Negate in the documented order, or a child plan"},
        ErrorCase{"bad_project",
                  "Explained Query:\n  Mfp\n    project=(#0, x)\n    Constant\n"
                  "      - (1)\n",
                  "bad.plan:3:18: expected column `#<n>`"},
        ErrorCase{"cte_without_value",
                  "Explained Query:\n  With\n    cte l0 =\n  Return\n    "
                  "Constant <empty>\n",
                  "bad.plan:4:3: expected the plan bound to l0"},
        ErrorCase{"two_roots",
                  "Explained Query:\n  Constant <empty>\n  Constant <empty>\n",
                  "bad.plan:3:3: expected end of plan (the plan has one root)"},
        ErrorCase{"stray_section",
                  "Explained Query:\n  Constant <empty>\n\nBogus\n",
                  "bad.plan:4:1: expected an object header '<name>:' or a "
                  "document section"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace lir::explain

namespace lir::explain {
namespace {

TEST(TextAnnotate, ExtraFieldsFollowTheNodeId) {
  absl::StatusOr<Document> doc = ParseText(kExcept);
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
