// The incremental engine's AntiJoin (../shared/reference/SEMANTICS.md 7.1):
// on plans (parsed, or built with PlanBuilder) whose arms read their
// arrangements every way the node allows (Get::PassArrangements of an index,
// Get::Arrangement through a projection of a permuted layout, ArrangeBy
// forms, an ArrangeBy reading its input's arrangement through input_mfp, Let
// bindings, projecting Mfp wrappers with and without input_key), over rounds
// with insertions and retractions, null keys, composite keys and keys in the
// middle of wide rows, the incremental engine computes what the snapshot
// engine computes for every fuel and compaction, fails at the same round with
// the same key-count error, and keeps no arrangement of its own.
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

std::string RunBothEngines(const std::string& plan, const std::string& data) {
  return RunBothEngines(Case(plan, data));
}

// base l(k, v) by #0, keys r(k) by #0: the anti-side of a LEFT JOIN.
constexpr char kPassArrangements[] = R"(Explained Query:
  AntiJoin key=[#0]
    base_key=[#0]
    keys_key=[#0]
    Get::PassArrangements materialize.public.l
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
    Get::PassArrangements materialize.public.r
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";

TEST(AntiJoinIncremental, InsertionsRetractionsAndNullKeys) {
  // l: r0 (1,10) (2,20)x2 (null,30) (3,30); r1 -(2,20) +(4,40);
  //    r2 +(1,11); r3 -(null,30).
  // r: r0 1; r1 +null -1; r2 +1 +4; r3 -4 -null.
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[1, 10], 0, 1], [[2, 20], 0, 2], [[null, 30], 0, 1], [[3, 30], 0, 1],
      [[2, 20], 1, -1], [[4, 40], 1, 1], [[1, 11], 2, 1],
      [[null, 30], 3, -1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[1], 0, 1], [[null], 1, 1], [[1], 1, -1], [[1], 2, 1], [[4], 2, 1],
      [[4], 3, -1], [[null], 3, -1]]}}})";
  EXPECT_EQ(RunBothEngines(kPassArrangements, data),
            R"(Explained Query:
  round 0:
    - (null, 30)
    - ((2, 20) x 2)
    - (3, 30)
  round 1:
    - (1, 10)
    - (2, 20)
    - (3, 30)
    - (4, 40)
  round 2:
    - (2, 20)
    - (3, 30)
  round 3:
    - (2, 20)
    - (3, 30)
    - (4, 40)
)");
}

TEST(AntiJoinIncremental, BaseAndKeysChangeTheSameKeyInOneRound) {
  // Round 1 retracts key 1 from r while adding a second row for it to l
  // and retracting one of l's (2, 20): ΔB ⋉ K_old and B_new ⋉ ΔK both
  // contribute. Round 2 does the reverse for key 1.
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[1, 10], 0, 1], [[2, 20], 0, 2], [[1, 12], 1, 1], [[2, 20], 1, -1],
      [[1, 10], 2, -1], [[2, 21], 2, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[1], 0, 1], [[1], 1, -1], [[2], 1, 1], [[1], 2, 1], [[2], 2, -1]]}}})";
  EXPECT_EQ(RunBothEngines(kPassArrangements, data),
            R"(Explained Query:
  round 0:
    - ((2, 20) x 2)
  round 1:
    - (1, 10)
    - (1, 12)
  round 2:
    - (2, 20)
    - (2, 21)
)");
}

// The key in the middle of wide rows: l(a, k, b) indexed by #1 (a permuted
// layout), keys read through a projecting Get::Arrangement of r(x, k)
// indexed by #1, whose layout is (k, x): `project=(#0)` selects r's #1.
constexpr char kWideRows[] = R"(Explained Query:
  AntiJoin key=[#1]
    base_key=[#1]
    keys_key=[#1]
    Get::PassArrangements materialize.public.l
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
    Get::Arrangement materialize.public.r
      project=(#0)
      key=#1
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
)";

constexpr char kWideData[] = R"({"collections": {
  "materialize.public.l": {"arity": 3, "updates": [
    [[1, 5, 100], 0, 1], [[2, 6, 200], 0, 1], [[3, null, 300], 0, 1],
    [[4, 5, 400], 1, 1], [[2, 6, 200], 2, -1], [[5, 7, 500], 2, 1]]},
  "materialize.public.r": {"arity": 2, "updates": [
    [[50, 5], 0, 1], [[60, null], 1, 1], [[50, 5], 2, -1], [[70, 7], 2, 1],
    [[51, 6], 3, 1]]}}})";

TEST(AntiJoinIncremental, KeyInTheMiddleOfWideRows) {
  EXPECT_EQ(RunBothEngines(kWideRows, kWideData), R"(Explained Query:
  round 0:
    - (2, 6, 200)
    - (3, null, 300)
  round 1:
    - (2, 6, 200)
  round 2:
    - (1, 5, 100)
    - (4, 5, 400)
  round 3:
    - (1, 5, 100)
    - (4, 5, 400)
)");
}

// A composite key with nulls in either column: l(a, b, c) on (#0, #2),
// r(x, y) on both columns.
TEST(AntiJoinIncremental, CompositeKeyWithNulls) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#0, #2]
    base_key=[#0, #2]
    keys_key=[#0, #1]
    Get::PassArrangements materialize.public.l
      raw=false
      arrangements[0]={ key=[#0, #2], permutation={#1: #2, #2: #1}, thinning=(#1) }
    Get::PassArrangements materialize.public.r
      raw=false
      arrangements[0]={ key=[#0, #1], permutation=id, thinning=() }
)";
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, "a", null], 0, 1], [[null, "b", 2], 0, 1], [[null, "c", null], 0, 1],
      [[1, "d", 2], 0, 1], [[1, "e", null], 1, 1]]},
    "materialize.public.r": {"arity": 2, "updates": [
      [[1, null], 0, 1], [[null, null], 1, 1], [[1, null], 2, -1],
      [[null, 2], 2, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - (null, "b", 2)
    - (null, "c", null)
    - (1, "d", 2)
  round 1:
    - (null, "b", 2)
    - (1, "d", 2)
  round 2:
    - (1, "a", null)
    - (1, "d", 2)
    - (1, "e", null)
)");
}

// A projecting Mfp wrapper over the base: the arrangement holds l's rows
// (k, x, y), the arm outputs (y, k), so two stored rows that differ only in
// x are one arm row (with their multiplicities summed). The keys arm is an
// ArrangeBy building its own form over r's raw collection.
TEST(AntiJoinIncremental, ProjectingWrapperOverTheBase) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#1]
    base_key=[#0]
    keys_key=[#0]
    Mfp
      project=(#2, #0)
      Get::PassArrangements materialize.public.l
        raw=false
        arrangements[0]={ key=[#0], permutation=id, thinning=(#1, #2) }
    ArrangeBy
      raw=true
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Get::Collection materialize.public.r
        raw=true
)";
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, 10, 7], 0, 1], [[1, 11, 7], 0, 1], [[2, 20, 8], 0, 1],
      [[null, 30, 9], 0, 1], [[1, 11, 7], 3, -1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[1], 1, 1], [[null], 1, 1], [[1], 2, -1], [[2], 3, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - ((7, 1) x 2)
    - (8, 2)
    - (9, null)
  round 1:
    - (8, 2)
  round 2:
    - ((7, 1) x 2)
    - (8, 2)
  round 3:
    - (7, 1)
)");
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

// The base arm is an ArrangeBy reading l's index by #1 (layout (k, v, w))
// through input_key, its input_mfp projecting the layout to (v, k) and
// arranging that by #0: the operator reads l's index, whose rows become
// the arm's through the layout and the projection (which merges rows that
// differ only in w). The keys arm is a Reduce::Distinct read through
// ArrangeBy input_key (EXCEPT's shape).
TEST(AntiJoinIncremental, ArrangeByReadingItsInputsArrangement) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#1]
    base_key=[#1]
    keys_key=[#0]
    ArrangeBy
      input_key=[#1]
      project=(#1, #0)
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
      Get::PassArrangements materialize.public.l
        raw=false
        arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
    ArrangeBy
      input_key=[#0]
      raw=true
      Reduce::Distinct
        key_plan=id
        val_plan
          project=()
        Get::Collection materialize.public.r
          raw=true
)";
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[10, 1, 100], 0, 1], [[20, 2, 200], 0, 1], [[30, null, 300], 0, 1],
      [[11, 1, 100], 1, 1], [[20, 2, 201], 1, 1], [[20, 2, 200], 2, -1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[1], 0, 3], [[null], 1, 2], [[1], 2, -3], [[2], 2, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - (20, 2)
    - (30, null)
  round 1:
    - ((20, 2) x 2)
  round 2:
    - (10, 1)
    - (11, 1)
)");
}

// The base arm reads l's index through a Get::Arrangement whose projection
// of the layout (k, a, b) drops b; the keys arm is a projecting
// Get::Collection of r, for which the operator imports r's index itself.
TEST(AntiJoinIncremental, GetArrangementAndGetCollectionArms) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#1]
    base_key=[#1]
    keys_key=[#1]
    Get::Arrangement materialize.public.l
      project=(#1, #0)
      key=#1
      raw=false
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
    Get::Collection materialize.public.r
      project=(#1)
      raw=true
      arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
)";
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, 5, 100], 0, 1], [[1, 5, 101], 0, 1], [[2, 6, 200], 0, 1]]},
    "materialize.public.r": {"arity": 2, "updates": [
      [[0, 5], 1, 1], [[0, 5], 2, -1], [[0, 6], 2, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - ((1, 5) x 2)
    - (2, 6)
  round 1:
    - (2, 6)
  round 2:
    - ((1, 5) x 2)
)");
}

// A wrapper with input_key selects positions of the layout (k, v) of the
// ArrangeBy form it reads: its `project=(#0, #1)` puts l's #1 first, so
// the key #0 of the arm is the form's key column #1.
TEST(AntiJoinIncremental, WrapperReadingAnArrangeByFormsLayout) {
  const std::string plan = R"(Explained Query:
  AntiJoin key=[#0]
    base_key=[#1]
    keys_key=[#0]
    Mfp
      project=(#0, #1)
      input_key=#1
      ArrangeBy
        raw=false
        arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
        Get::Collection materialize.public.l
          raw=true
    Get::PassArrangements materialize.public.r
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
)";
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[10, 1], 0, 1], [[20, 2], 0, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[1], 1, 1], [[1], 2, -1], [[2], 2, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - (1, 10)
    - (2, 20)
  round 1:
    - (2, 20)
  round 2:
    - (1, 10)
)");
}

// Arms bound by Let: the base is an ArrangeBy form of a projection of l
// (read through a Get of the binding and a projecting Mfp wrapper), the
// keys a projecting Mfp with input_key over r's index (the wrapper reads
// the layout (k, x), `project=(#0)` selects r's #1).
TEST(AntiJoinIncremental, LetBindingsAndWrappersReadingLayouts) {
  const std::string plan = R"(Explained Query:
  With
    cte l0 =
      ArrangeBy
        project=(#1, #0, #2)
        raw=false
        arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
        Get::Collection materialize.public.l
          raw=true
  Return
    AntiJoin key=[#0]
      base_key=[#1]
      keys_key=[#1]
      Mfp
        project=(#1, #2)
        Get::PassArrangements l0
          raw=false
          arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0, #2) }
      Mfp
        project=(#0)
        input_key=#1
        Get::PassArrangements materialize.public.r
          raw=false
          arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
)";
  // l(k, v, w) is projected to (v, k, w) and arranged by k; the arm outputs
  // (k, w).
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, 10, 100], 0, 1], [[1, 11, 100], 0, 1], [[2, 20, 200], 0, 1],
      [[null, 30, 300], 1, 1], [[1, 10, 100], 2, -1]]},
    "materialize.public.r": {"arity": 2, "updates": [
      [[0, 2], 0, 1], [[0, null], 1, 1], [[0, 2], 2, -1], [[0, 1], 3, 1]]}}})";
  EXPECT_EQ(RunBothEngines(plan, data), R"(Explained Query:
  round 0:
    - ((1, 100) x 2)
  round 1:
    - ((1, 100) x 2)
  round 2:
    - (1, 100)
    - (2, 200)
  round 3:
    - (2, 200)
)");
}

std::string ErrorOf(const std::string& text) {
  const size_t at = text.find("error: ");
  return at == std::string::npos ? "" : text.substr(at);
}

TEST(AntiJoinIncremental, KeyCountedTwiceArrivesInKeys) {
  // Round 1: key 2 a second time while l holds (2, 20): both engines fail
  // there, naming the key.
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[1, 10], 0, 1], [[2, 20], 0, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[2], 0, 1], [[2], 1, 1]]}}})";
  const std::string text = RunBothEngines(kPassArrangements, data);
  EXPECT_TRUE(absl::StrContains(text,
                                "  round 1:\n    error: "
                                "LirId(3) AntiJoin: key (2) "
                                "has count 2 in the keys input"))
      << text;
}

TEST(AntiJoinIncremental, BaseRowArrivesForAKeyCountedTwice) {
  // r holds 5 twice from round 0 while l has no row for it (no error);
  // round 1 retracts a 3 that was never there (count -1) while l has no
  // row for it either; round 2 brings (5, 50).
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[1, 10], 0, 1], [[5, 50], 2, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[5], 0, 2], [[3], 1, -1]]}}})";
  const std::string text = RunBothEngines(kPassArrangements, data);
  EXPECT_TRUE(absl::StrContains(text, R"(  round 1:
    - (1, 10)
  round 2:
    error: )"))
      << text;
  EXPECT_TRUE(absl::StrContains(ErrorOf(text), "key (5) has count 2")) << text;
}

TEST(AntiJoinIncremental, NegativeCountWhileTheBaseHoldsTheKey) {
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [[[3, 30], 0, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [[[3], 1, -1]]}}})";
  const std::string text = RunBothEngines(kPassArrangements, data);
  EXPECT_TRUE(absl::StrContains(ErrorOf(text), "key (3) has count -1")) << text;
}

TEST(AntiJoinIncremental, NoErrorWhenTheBaseLeavesAsTheKeyRepeats) {
  // Round 1 retracts l's only row for key 2 as r gets 2 a second time.
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [
      [[1, 10], 0, 1], [[2, 20], 0, 1], [[2, 20], 1, -1]]},
    "materialize.public.r": {"arity": 1, "updates": [
      [[2], 0, 1], [[2], 1, 1]]}}})";
  EXPECT_EQ(RunBothEngines(kPassArrangements, data), R"(Explained Query:
  round 0:
    - (1, 10)
  round 1:
    - (1, 10)
)");
}

TEST(AntiJoinIncremental, SeveralBadKeysNameTheFirstBaseRowsKey) {
  // Rows (1, 9, 0) and (2, 8, 0) of the wide plan: in row order the first
  // bad row has key 9, though key 8 sorts first.
  const std::string data = R"({"collections": {
    "materialize.public.l": {"arity": 3, "updates": [
      [[1, 9, 0], 0, 1], [[2, 8, 0], 0, 1]]},
    "materialize.public.r": {"arity": 2, "updates": [
      [[50, 8], 1, 1], [[51, 8], 1, 1], [[50, 9], 1, 1], [[51, 9], 1, 1],
      [[52, 9], 1, 1]]}}})";
  const std::string text = RunBothEngines(kWideRows, data);
  EXPECT_TRUE(absl::StrContains(ErrorOf(text), "key (9) has count 3")) << text;
}

TEST(AntiJoinIncremental, KeepsNoArrangementOfItsOwn) {
  Case c(kPassArrangements, R"({"collections": {
    "materialize.public.l": {"arity": 2, "updates": [[[1, 10], 0, 1]]},
    "materialize.public.r": {"arity": 1, "updates": [[[2], 0, 1]]}}})");
  eval::RunOptions options;
  absl::StatusOr<eval::RunResult> result =
      eval::RunDocument(c.doc, c.data, options);
  ASSERT_TRUE(result.ok()) << result.status();
  std::vector<std::string> names;
  for (const eval::ArrangementStats& stats : result->arrangements) {
    names.push_back(stats.operator_name);
  }
  // Only the two indexes it reads.
  EXPECT_EQ(names, (std::vector<std::string>{
                       "Index materialize.public.l[[Column(0)]]",
                       "Index materialize.public.r[[Column(0)]]"}));
}

TEST(AntiJoinIncremental, ArmWithoutTheRecordedArrangementFailsToBuild) {
  // keys_key names #0, but r is only arranged by nothing useful.
  std::string text = kPassArrangements;
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
