// Plans far deeper or wider than any real EXPLAIN output: parsing,
// validation, printing, JSON and destruction must all be iterative. A
// recursive step would overflow the stack (100,000 levels on the main
// thread, 3,000 levels on a 256 KiB thread) and crash the test.
#include <pthread.h>

#include <cstddef>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/plan_builder.h"
#include "lir/validate.h"
#include "tests/support/plan_generator.h"
#include "tests/support/plan_text_gen.h"

namespace lir {
namespace {

using explain::ParseText;
using explain::PrintText;
using explain::ReadJson;
using explain::WriteJson;

constexpr size_t kDeep = 100'000;
/// Text indents two spaces per level, so a chain's text grows with the
/// square of its depth: 3,000 levels is ~9 MB, 100,000 would be ~10 GB.
constexpr size_t kTextDeep = 3'000;

ValidateOptions GlobalT(int arity) {
  ValidateOptions options;
  options.global_arity["materialize.public.t"] = arity;
  return options;
}

/// `Get::PassArrangements materialize.public.t` under `depth - 1` Negates,
/// built bottom-up without recursion.
NodePtr NegateChain(size_t depth) {
  PlanBuilder plan = PlanBuilder::Get(
      CollectionId::Global("materialize.public.t"), PlanBuilder::Raw());
  for (size_t i = 1; i < depth; ++i) plan = std::move(plan).Negate();
  // Not Build(): the tests validate (or not) themselves.
  NodePtr node = std::move(plan).Release();
  AssignPostOrderIds(*node);
  return node;
}

/// The text NegateChain(depth) must print as, written out independently of
/// the printer.
std::string NegateChainText(size_t depth) {
  return absl::StrCat(
      test::NegateChainText(depth - 1,
                            "Get::PassArrangements materialize.public.t\n"
                            "  raw=true\n"),
      "\nTarget cluster: quickstart\n");
}

/// Number of nodes on the path that always follows the last input.
size_t RightSpineLength(const Node& root) {
  size_t length = 1;
  for (const Node* node = &root; !node->inputs.empty();
       node = node->inputs.back().get()) {
    ++length;
  }
  return length;
}

// (i) A With of 100,000 ctes, each reading the previous one: in the IR a
// Let chain 100,000 deep.
TEST(DeepPlanTest, HundredThousandCteWithRoundTrips) {
  const std::string text =
      absl::StrCat(test::CteChainText(kDeep), "\nTarget cluster: quickstart\n");

  absl::StatusOr<Document> doc = ParseText(text);
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_EQ(doc->objects.size(), 1u);
  const Node& root = *doc->objects[0].plan;
  EXPECT_EQ(CountNodes(root), 2 * kDeep + 1);
  // The ctes nest in order: each Let's body is the next Let.
  const Node* node = &root;
  for (size_t i = 0; i < kDeep; ++i) {
    ASSERT_TRUE(node->Is<LetOp>()) << "level " << i;
    ASSERT_EQ(node->As<LetOp>().id, i);
    node = node->inputs[1].get();
  }
  EXPECT_TRUE(node->Is<GetOp>());
  EXPECT_EQ(root.id, 2 * kDeep + 1) << "post-order ids end at the root";

  ASSERT_TRUE(Validate(*doc, GlobalT(2)).ok()) << Validate(*doc, GlobalT(2));
  ASSERT_EQ(PrintText(*doc), text);

  std::string json = WriteJson(*doc);
  absl::StatusOr<Document> back = ReadJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(PrintText(*back), text);
  EXPECT_EQ(WriteJson(*back), json);
}

// A validator that really walks the 100,000 levels notices a Get of an
// unbound local at the bottom.
TEST(DeepPlanTest, ValidateSeesTheBottomOfADeepChain) {
  NodePtr plan = NegateChain(kDeep);
  Node* bottom = plan.get();
  while (!bottom->inputs.empty()) bottom = bottom->inputs[0].get();
  bottom->As<GetOp>().id = CollectionId::Local(7);
  absl::Status status = Validate(*plan, GlobalT(1));
  EXPECT_FALSE(status.ok()) << "l7 is not bound";
}

// (ii) A Negate chain 100,000 deep built in memory: validates and goes
// through JSON unchanged.
TEST(DeepPlanTest, HundredThousandNegateChainThroughJson) {
  Document doc = test::WrapInDocument(NegateChain(kDeep));
  ASSERT_TRUE(Validate(doc, GlobalT(1)).ok()) << Validate(doc, GlobalT(1));

  std::string json = WriteJson(doc);
  absl::StatusOr<Document> back = ReadJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->objects.size(), 1u);
  const Node& root = *back->objects[0].plan;
  EXPECT_EQ(CountNodes(root), kDeep);
  EXPECT_EQ(RightSpineLength(root), kDeep) << "still a single chain";
  EXPECT_EQ(root.id, kDeep);
  EXPECT_EQ(WriteJson(*back), json);
  EXPECT_TRUE(Validate(*back, GlobalT(1)).ok());
}

// (ii) Text of a 3,000-deep Negate chain: exactly the expected bytes, and
// back.
TEST(DeepPlanTest, ThreeThousandNegateChainThroughText) {
  Document doc = test::WrapInDocument(NegateChain(kTextDeep));
  std::string text = PrintText(doc);
  ASSERT_EQ(text, NegateChainText(kTextDeep));
  absl::StatusOr<Document> parsed = ParseText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(CountNodes(*parsed->objects[0].plan), kTextDeep);
  EXPECT_EQ(PrintText(*parsed), text);
}

// The generator's deep chain mixes ArrangeBy, Threshold, Mfp and Negate,
// whose attribute lines interleave with the nesting.
TEST(DeepPlanTest, ThreeThousandMixedChainThroughText) {
  test::PlanGeneratorOptions options;
  options.shape = test::PlanShape::kDeepChain;
  options.node_count = kTextDeep;
  test::GeneratedPlan generated = test::GeneratePlan(options);
  Document doc = test::WrapInDocument(std::move(generated.plan));
  ASSERT_TRUE(Validate(doc, generated.validate_options).ok());
  std::string text = PrintText(doc);
  absl::StatusOr<Document> parsed = ParseText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(RightSpineLength(*parsed->objects[0].plan), kTextDeep);
  EXPECT_EQ(PrintText(*parsed), text);
  EXPECT_TRUE(Validate(*parsed, generated.validate_options).ok());
}

// (iii) Everything at 3,000 levels on a thread with a 256 KiB stack. Even
// ~90 bytes of stack per level would overflow it.
struct SmallStackRun {
  bool chain_round_trips = false;
  bool lets_round_trip = false;
  std::string error;
};

/// Parse, validate, print and JSON-convert `doc`'s text; true when every
/// step succeeds and every form agrees.
bool RoundTripAll(const Document& doc, const ValidateOptions& options,
                  std::string& error) {
  std::string text = PrintText(doc);
  absl::StatusOr<Document> parsed = ParseText(text);
  if (!parsed.ok()) {
    error = parsed.status().ToString();
    return false;
  }
  if (absl::Status s = Validate(*parsed, options); !s.ok()) {
    error = s.ToString();
    return false;
  }
  if (PrintText(*parsed) != text) {
    error = "text changed";
    return false;
  }
  std::string json = WriteJson(*parsed);
  absl::StatusOr<Document> back = ReadJson(json);
  if (!back.ok()) {
    error = back.status().ToString();
    return false;
  }
  if (PrintText(*back) != text || WriteJson(*back) != json) {
    error = "JSON round trip changed the document";
    return false;
  }
  return true;
}

void* RunOnSmallStack(void* arg) {
  auto* run = static_cast<SmallStackRun*>(arg);
  for (test::PlanShape shape :
       {test::PlanShape::kDeepChain, test::PlanShape::kLetChain}) {
    test::PlanGeneratorOptions options;
    options.shape = shape;
    // The Let chain's IR depth is half its node count.
    options.node_count =
        shape == test::PlanShape::kLetChain ? 2 * kTextDeep + 1 : kTextDeep;
    test::GeneratedPlan generated = test::GeneratePlan(options);
    Document doc = test::WrapInDocument(std::move(generated.plan));
    bool ok = RoundTripAll(doc, generated.validate_options, run->error);
    (shape == test::PlanShape::kDeepChain ? run->chain_round_trips
                                          : run->lets_round_trip) = ok;
    if (!ok) break;
  }
  return nullptr;
}

TEST(DeepPlanTest, ThreeThousandLevelsOnA256KiBStack) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  SmallStackRun run;
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, &RunOnSmallStack, &run), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
  EXPECT_TRUE(run.chain_round_trips) << run.error;
  EXPECT_TRUE(run.lets_round_trip) << run.error;
}

// (iv) A Union of 999,999 inputs: counted, validated and destroyed.
TEST(DeepPlanTest, MillionNodeWideUnionDestroys) {
  constexpr size_t kWide = 1'000'000;
  test::PlanGeneratorOptions options;
  options.shape = test::PlanShape::kWideUnion;
  options.node_count = kWide;
  test::GeneratedPlan generated = test::GeneratePlan(options);
  ASSERT_TRUE(generated.plan->Is<UnionOp>());
  EXPECT_EQ(generated.plan->inputs.size(), kWide - 1);
  EXPECT_EQ(CountNodes(*generated.plan), kWide);
  EXPECT_EQ(generated.plan->id, kWide);
  EXPECT_TRUE(Validate(*generated.plan, generated.validate_options).ok());
  generated.plan.reset();
  EXPECT_EQ(generated.plan, nullptr);
}

// A million-node chain also destroys without recursion.
TEST(DeepPlanTest, MillionNodeChainDestroys) {
  NodePtr plan = NegateChain(1'000'000);
  EXPECT_EQ(plan->id, 1'000'000u);
  plan.reset();
  EXPECT_EQ(plan, nullptr);
}

}  // namespace
}  // namespace lir
