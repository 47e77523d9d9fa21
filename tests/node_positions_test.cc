// Where a text read places each node (explain::NodePositions) and how a
// validation error finds its node there: the object index and node the
// error carries (lir/node_error.h). The messages callers build from them are
// testdata/errors/located.txt's and the CLI tests'.
#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/node_error.h"
#include "lir/validate.h"

namespace lir {
namespace {

// A validation error carries the failing object's index and node, and the
// positions a text read records place that node: at its header line, counted
// from ParseOptions::first_line as an slt block's plan is.
TEST(ValidateLocation, ErrorsNameTheObjectAndPositionsPlaceTheNode) {
  const std::string text =
      "materialize.public.v1:\n"
      "  Union\n"
      "    Constant\n"
      "      - (1)\n"
      "    Constant\n"
      "      - (2)\n"
      "\n"
      "materialize.public.v2:\n"
      "  Negate\n"
      "    Union\n"
      "      Constant\n"
      "        - (1)\n"
      "      Constant\n"
      "        - (1, 2)\n";
  explain::NodePositions positions;
  explain::ParseOptions options;
  options.first_line = 10;
  options.positions = &positions;
  absl::StatusOr<Document> doc = explain::ParseText(text, options);
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_EQ(positions.objects.size(), 2u);
  // Post-order ids in each object: Union is LirId(3) in both.
  EXPECT_EQ(positions.objects[0].at(3), (explain::SourcePosition{11, 3}));
  EXPECT_EQ(positions.objects[1].at(3), (explain::SourcePosition{19, 5}));
  EXPECT_EQ(positions.objects[1].at(4), (explain::SourcePosition{18, 3}));

  const absl::Status status = Validate(*doc);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(ObjectErrorOf(status), std::optional<size_t>(1));
  EXPECT_EQ(NodeErrorOf(status), (NodeErrorInfo{3, NodeKind::kUnion}));
  EXPECT_EQ(positions.Of(status), (explain::SourcePosition{19, 5}));

  // Without the object index the node is ambiguous between two plans.
  const absl::Status bare = Validate(*doc->objects[1].plan);
  EXPECT_FALSE(ObjectErrorOf(bare).has_value());
  EXPECT_FALSE(positions.Of(bare).has_value());
  // With one plan it is not.
  positions.objects[0].clear();
  EXPECT_EQ(positions.Of(bare), (explain::SourcePosition{19, 5}));
  // An error naming no node has no position.
  EXPECT_FALSE(positions.Of(absl::InvalidArgumentError("x")).has_value());
}

// Concise headers are the operator lines; a With block's Lets are at its
// `→With` line.
TEST(ValidateLocation, ConcisePositionsAreOperatorLines) {
  const std::string text =
      "Explained Query:\n"
      "  →With\n"
      "    cte l0 =\n"
      "      →Fused with Child Map/Filter/Project\n"
      "        Project: #0\n"
      "          →Read materialize.public.t\n"
      "  →Return\n"
      "    →Negate Diffs\n"
      "      →Arranged l0\n";
  explain::NodePositions positions;
  explain::ParseOptions options;
  options.positions = &positions;
  absl::StatusOr<Document> doc = explain::ParseText(text, options);
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_EQ(positions.objects.size(), 1u);
  std::map<LirId, explain::SourcePosition> by_id(positions.objects[0].begin(),
                                                 positions.objects[0].end());
  // Read (with the fused MFP) 1, Arranged 2, Negate 3, Let 4.
  EXPECT_EQ(by_id, (std::map<LirId, explain::SourcePosition>{
                       {1, {6, 11}}, {2, {9, 7}}, {3, {8, 5}}, {4, {2, 3}}}));
}

}  // namespace
}  // namespace lir
