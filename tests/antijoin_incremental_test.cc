// The incremental engine's AntiJoin (../shared/reference/SEMANTICS.md 7.1)
// where a golden cannot say it: a plan built with PlanBuilder (run by both
// engines under every compaction and fuel), and an arm without the
// arrangement the node records, refused when the dataflow is built. Plans
// read from text, over rounds with insertions, retractions, null and
// composite keys and key-count errors, are goldens:
// testdata/eval/antijoin_arms.txt and antijoin.txt.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/data.h"
#include "lir/eval/incremental.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/plan_builder.h"
#include "lir/validate.h"
#include "tests/support/parse_or_die.h"

namespace lir {
namespace {

using ::lir::test::ParseOrDie;

constexpr char kL[] = "materialize.public.l";
constexpr char kR[] = "materialize.public.r";

// Parses `plan` and `data` and checks the plan against the data's arities
// (Validate checks the recorded base_key/keys_key too).
struct Case {
  Case(const std::string& plan, const std::string& data_json)
      : Case(ParseOrDie(plan), data_json) {}
  Case(Document plan, const std::string& data_json) : doc(std::move(plan)) {
    absl::StatusOr<eval::InputData> parsed_data =
        eval::ParseInputData(data_json, "data");
    EXPECT_TRUE(parsed_data.ok()) << parsed_data.status();
    if (parsed_data.ok()) data = *std::move(parsed_data);
    ValidateOptions options;
    for (const auto& [name, collection] : data.collections) {
      options.global_arity[name] = collection.arity;
    }
    const absl::Status valid = Validate(doc, options);
    EXPECT_TRUE(valid.ok()) << valid;
  }
  Document doc;
  eval::InputData data;
};

std::string RunText(const Case& c, eval::Engine engine,
                    eval::Compaction compaction, uint64_t fuel) {
  eval::RunOptions options;
  options.engine = engine;
  options.compaction = compaction;
  options.fuel = fuel;
  absl::StatusOr<eval::RunResult> result =
      eval::RunDocument(c.doc, c.data, options);
  if (!result.ok()) {
    return absl::StrCat("cannot run: ", result.status().ToString());
  }
  return eval::FormatRunText(*result, false);
}

// The snapshot engine's text of every round (contents or the error), after
// checking that the incremental engine prints exactly the same under every
// compaction and fuel.
std::string RunBothEngines(const Case& c) {
  const std::string oracle =
      RunText(c, eval::Engine::kSnapshot, eval::Compaction::kEager, /*fuel=*/0);
  for (const eval::Compaction compaction :
       {eval::Compaction::kEager, eval::Compaction::kNone}) {
    for (const uint64_t fuel : {0, 1, 2}) {
      EXPECT_EQ(RunText(c, eval::Engine::kIncremental, compaction, fuel),
                oracle)
          << "compaction "
          << (compaction == eval::Compaction::kEager ? "eager" : "none")
          << ", fuel " << fuel << "\n"
          << explain::PrintText(c.doc);
    }
  }
  return oracle;
}

// base l(k, v) by #0, keys r(k) by #0: the anti-side of a LEFT JOIN.
std::string PassArrangementsPlan() {
  return test::FixtureText("antijoin_pass_arrangements.plan");
}

// The same kind of plan built with PlanBuilder: the base l(a, k, b) by #1
// read through a projection to (b, k), the keys an ArrangeBy of r's raw
// collection.
TEST(AntiJoinIncremental, PlanBuilderPlan) {
  const CollectionId l = CollectionId::Global(kL);
  const CollectionId r = CollectionId::Global(kR);
  AntiJoinOp op;
  op.key = {1};
  op.base_key = {1};
  op.keys_key = {0};
  absl::StatusOr<NodePtr> built =
      PlanBuilder::AntiJoin(
          PlanBuilder::Get(
              l, PlanBuilder::Arranged({MakeColumnArrangement({1}, 3)}))
              .Mfp(PlanBuilder::Project({2, 1})),
          PlanBuilder::GetCollection(r, PlanBuilder::Raw())
              .ArrangeBy(PlanBuilder::Arranged({MakeColumnArrangement({0}, 1)},
                                               /*raw=*/true)),
          op)
          .Build();
  ASSERT_TRUE(built.ok()) << built.status();
  Document doc;
  doc.objects.emplace_back().name = "Explained Query";
  doc.objects[0].plan = *std::move(built);
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, 5, 100], 0, 1], [[2, 5, 100], 0, 1], [[3, null, 300], 0, 1],
      [[2, 5, 100], 1, -1], [[4, 6, 100], 2, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[null], 0, 1], [[5], 1, 1], [[5], 2, -1], [[6], 2, 1]]}}})";
  EXPECT_EQ(RunBothEngines(Case(std::move(doc), data)), R"(Explained Query:
  round 0:
    - ((100, 5) x 2)
  round 1:
    (empty)
  round 2:
    - (100, 5)
)");
}

TEST(AntiJoinIncremental, ArmWithoutTheRecordedArrangementFailsToBuild) {
  // keys_key names #0, but r is only arranged by nothing useful.
  std::string text = PassArrangementsPlan();
  const std::string keyed = "key=[#0], permutation=id, thinning=() }";
  text.replace(text.rfind(keyed), keyed.size(),
               "key=[], permutation=id, thinning=(#0) }");
  absl::StatusOr<Document> doc = explain::ParseText(text);
  ASSERT_TRUE(doc.ok()) << doc.status();
  eval::DataflowOptions options;
  options.object = "test";
  options.globals = {{kL, 2}, {kR, 1}};
  absl::StatusOr<std::unique_ptr<eval::Dataflow>> dataflow =
      eval::MakeIncrementalDataflow(*doc->objects[0].plan, options);
  ASSERT_FALSE(dataflow.ok());
  EXPECT_TRUE(absl::StrContains(dataflow.status().message(),
                                "the keys arm is not co-arranged"))
      << dataflow.status();
}

}  // namespace
}  // namespace lir
