// Unit tests of the concise EXPLAIN reader (ParseConciseText): the
// placeholders left in the fields of a partial plan, the inference of
// accumulable positions, deep and wide plans, and fast paths. Which facts
// each node is marked as lacking, and node ids, are goldens
// (testdata/concise/marks.txt); so are located errors
// (testdata/errors/concise.txt).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/concise.h"
#include "lir/explain/text.h"
#include "lir/unknown_facts.h"
#include "lir/validate.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"

namespace lir::explain {
namespace {

Document ReadConciseOrDie(const std::string& text) {
  absl::StatusOr<Document> doc = ParseConciseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << text;
  if (!doc.ok()) return Document{};
  EXPECT_EQ(doc->syntax, TextSyntax::kConcise);
  return *std::move(doc);
}

// Every node kind, with the facts the concise form drops marked.
std::string EveryKindPlan() {
  return test::FixtureText("every_kind.concise.plan");
}

TEST(ConciseReader, PlaceholdersAndShownFacts) {
  Document doc = ReadConciseOrDie(EveryKindPlan());
  const Node& with = *doc.objects[0].plan;
  ASSERT_TRUE(with.Is<LetOp>());
  const ArrangeByOp& arrange = with.inputs[0]->As<ArrangeByOp>();
  ASSERT_EQ(arrange.forms.arranged.size(), 2u);
  EXPECT_TRUE(arrange.forms.arranged[1].key.empty());  // (empty key)
  EXPECT_TRUE(arrange.forms.arranged[0].permutation.empty());
  EXPECT_FALSE(arrange.input_key.has_value());
  EXPECT_EQ(arrange.input_mfp.filter.size(), 1u);
  const Node& get_t = *with.inputs[0]->inputs[0];
  EXPECT_EQ(get_t.As<GetOp>().kind, GetKind::kCollection);

  const Node& union_node = *with.inputs[1];
  const UnionOp& u = union_node.As<UnionOp>();
  EXPECT_TRUE(u.consolidate_output);
  EXPECT_EQ(u.strategies,
            std::vector<UnionStrategy>(4, UnionStrategy::kTemporalBucketing));
  // `→Stream` shows its forms: raw, no arrangement.
  const GetOp& stream = union_node.inputs[0]->inputs[0]->inputs[0]->As<GetOp>();
  EXPECT_TRUE(stream.keys.raw);
  EXPECT_TRUE(stream.keys.arranged.empty());

  const ReduceOp& reduce = union_node.inputs[1]->As<ReduceOp>();
  EXPECT_EQ(reduce.kind, ReduceKind::kAccumulable);
  EXPECT_TRUE(reduce.mfp_after.project.has_value());
  EXPECT_TRUE(reduce.key_plan.project.has_value());
  EXPECT_TRUE(reduce.val_plan.IsIdentity());  // placeholder
  ASSERT_EQ(reduce.distinct_aggrs.size(), 1u);
  EXPECT_TRUE(reduce.distinct_aggrs[0].second.distinct);

  const Node& join = *union_node.inputs[2]->inputs[0]->inputs[0];
  const JoinPath& path = join.As<JoinOp>().paths[0];
  EXPECT_EQ(path.source_relation, 0);
  ASSERT_TRUE(path.source_key.has_value());
  ASSERT_EQ(path.stages.size(), 1u);
  EXPECT_EQ(path.stages[0].lookup_relation, 1);
  ASSERT_TRUE(path.stages[0].closure.has_value());
  EXPECT_EQ(path.stages[0].closure->mfp.filter.size(), 1u);
  EXPECT_TRUE(path.stages[0].stream_key.empty());
  EXPECT_FALSE(path.final_closure.has_value());
  const GetOp& arranged_t = join.inputs[1]->As<GetOp>();
  EXPECT_EQ(arranged_t.kind, GetKind::kArrangement);
  EXPECT_EQ(arranged_t.mfp.project, std::vector<int>{0});

  const Node& set_difference = *union_node.inputs[3]->inputs[0]->inputs[0];
  const ConstantOp& two = set_difference.inputs[0]->As<ConstantOp>();
  EXPECT_TRUE(two.rows.empty());
  EXPECT_EQ(two.entry_count, 2u);
  const AntiJoinOp& anti = set_difference.inputs[1]->As<AntiJoinOp>();
  EXPECT_EQ(anti.key, std::vector<int>{0});
  EXPECT_TRUE(anti.base_key.empty());
  // `→Arrange` alone: raw=false with no arrangement, both shown.
  const Node& bare = *set_difference.inputs[1]->inputs[1];
  EXPECT_FALSE(bare.As<ArrangeByOp>().forms.raw);
  EXPECT_FALSE(bare.unknown.Has(UnknownFact::kRawFlag));
  const ConstantOp& error = bare.inputs[0]->As<ConstantOp>();
  EXPECT_EQ(error.error, "x");
  EXPECT_FALSE(error.entry_count.has_value());
}

// With one kind of accumulable aggregate, the positions are 0..n-1:
// Materialize numbers the aggregates in query order and splits them into
// the simple and distinct lists (reduce.rs), so one list is all of them.
TEST(ConciseReader, AccumulablePositionsOfOneKindAreInferred) {
  Document doc = ReadConciseOrDie(
      test::FixtureText("accumulable_distinct_three.concise.plan"));
  const Node& node = *doc.objects[0].plan;
  const ReduceOp& r = node.As<ReduceOp>();
  ASSERT_EQ(r.distinct_aggrs.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r.distinct_aggrs[i].first, i);
  EXPECT_FALSE(node.unknown.Has(UnknownFact::kAggregatePositions));
  EXPECT_TRUE(node.unknown.Has(UnknownFact::kValPlan));
}

TEST(ConciseReader, FastPathFacts) {
  Document doc = ReadConciseOrDie(
      test::FixtureText("fast_path_index_lookup.concise.plan"));
  const FastPath& fp = *doc.objects[0].fast_path;
  EXPECT_EQ(fp.kind, FastPath::Kind::kReadIndex);
  EXPECT_EQ(fp.collection, "materialize.public.t");
  EXPECT_EQ(fp.index, "t_a_idx");
  EXPECT_EQ(fp.qualified_index, "materialize.public.t_a_idx");
  ASSERT_TRUE(fp.project.has_value());
  EXPECT_EQ(fp.project->size(), 2u);
  EXPECT_EQ(fp.project_is_input_identity, false);
  ASSERT_TRUE(fp.lookup.has_value());
  EXPECT_EQ(fp.lookup->size(), 2u);
  EXPECT_TRUE(fp.unknown.empty());

  Document constant =
      ReadConciseOrDie(test::FixtureText("fast_path_constant.concise.plan"));
  const FastPath& c = *constant.objects[0].fast_path;
  EXPECT_EQ(c.kind, FastPath::Kind::kConstant);
  EXPECT_TRUE(c.unknown.Has(UnknownFact::kConstantRows));
  EXPECT_EQ(c.constant.entry_count, 1u);

  Document persist = ReadConciseOrDie(
      test::FixtureText("fast_path_read_storage.concise.plan"));
  const FastPath& p = *persist.objects[0].fast_path;
  EXPECT_EQ(p.kind, FastPath::Kind::kPeekPersist);
  EXPECT_FALSE(p.project.has_value());
  EXPECT_EQ(p.project_is_input_identity, true);
}

// Deep plans are read without recursion over their depth; wide ones too.
TEST(ConciseReader, DeepAndWidePlans) {
  constexpr int kDepth = 5000;
  std::string text(test::kQueryHeader);
  text.reserve(static_cast<size_t>(kDepth) * (kDepth + 40));
  for (int i = 0; i < kDepth; ++i) {
    absl::StrAppend(&text, std::string(2 * (i + 1), ' '),
                    "\xE2\x86\x92Negate Diffs\n");
  }
  absl::StrAppend(&text, std::string(2 * (kDepth + 1), ' '),
                  "\xE2\x86\x92"
                  "Constant (1 row)\n");
  Document deep = ReadConciseOrDie(text);
  ASSERT_EQ(deep.objects.size(), 1u);
  EXPECT_EQ(CountNodes(*deep.objects[0].plan), static_cast<size_t>(kDepth + 1));

  std::string wide = absl::StrCat(test::kQueryHeader, "  \xE2\x86\x92Union\n");
  for (int i = 0; i < 50000; ++i) {
    absl::StrAppend(&wide,
                    "    \xE2\x86\x92"
                    "Constant (",
                    i, i == 1 ? " row)\n" : " rows)\n");
  }
  Document doc = ReadConciseOrDie(wide);
  EXPECT_EQ(doc.objects[0].plan->inputs.size(), 50000u);
}

// A partial plan validates (the validator skips what the marks name).
TEST(ConciseReader, PartialPlansValidate) {
  Document doc = ReadConciseOrDie(EveryKindPlan());
  EXPECT_TRUE(Validate(doc).ok()) << Validate(doc);
}

// ParseText reads concise documents through this reader.
TEST(ConciseReader, ParseTextDispatches) {
  absl::StatusOr<Document> doc =
      ParseText(absl::StrCat(test::kQueryHeader, "  \xE2\x86\x92Stream l0\n"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->syntax, TextSyntax::kConcise);
}

}  // namespace
}  // namespace lir::explain
