// interp::InferPartialFacts on partial plans read from concise text: which
// unknown-fact marks each rule clears, which it must leave (the plan does
// not imply them), the values it fills in, and that a complete plan is left
// untouched. Every plan is small and written here; LirIds are post-order
// from 1 (no node_id annotations).
#include "lir/interp/partial_inference.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/arity.h"
#include "lir/node.h"
#include "lir/partial.h"
#include "lir/unknown_facts.h"
#include "lir/validate.h"

namespace lir::interp {
namespace {

using Arities = std::map<std::string, int>;

// Parses concise `text` (ParseText detects the syntax) and validates it.
Document ReadConcise(std::string_view text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << text;
  if (!doc.ok()) return Document{};
  EXPECT_EQ(doc->syntax, TextSyntax::kConcise) << text;
  const absl::Status valid = Validate(*doc);
  EXPECT_TRUE(valid.ok()) << valid << "\n" << text;
  return *std::move(doc);
}

// ReadConcise, then InferPartialFacts(doc, arities); the result must still
// validate (an inferred fact that contradicts a shown one would not).
Document Inferred(std::string_view text, const Arities& arities = {}) {
  Document doc = ReadConcise(text);
  const absl::Status inferred = InferPartialFacts(doc, arities);
  EXPECT_TRUE(inferred.ok()) << inferred;
  const absl::Status valid = Validate(doc);
  EXPECT_TRUE(valid.ok()) << "invalid after inference: " << valid;
  return doc;
}

// The node with LirId `id` in any object of `doc`, or null.
const Node* Find(const Document& doc, LirId id) {
  const Node* found = nullptr;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      if (node.id == id) found = &node;
    });
  }
  return found;
}

// `Kind: Fact,Fact` for node `id`: its header name and the facts it still
// lacks, in declaration order (`Kind: ` alone when it lacks none).
std::string Marks(const Document& doc, LirId id) {
  const Node* node = Find(doc, id);
  if (node == nullptr) return absl::StrCat("no LirId(", id, ")");
  std::vector<std::string> facts;
  node->unknown.ForEach(
      [&](UnknownFact fact) { facts.emplace_back(UnknownFactName(fact)); });
  return absl::StrCat(HeaderName(*node), ": ", absl::StrJoin(facts, ","));
}

std::vector<ScalarExpr> Key(const std::vector<int>& columns) {
  return ColumnKey(columns);
}

// ---- ArrangeBy input_key --------------------------------------------------

// Read t (1) -> Arrange (#0) (2) -> Arrange (#1) (3).
constexpr char kArrangeOverArrange[] = R"(Explained Query:
  →Arrange (#1)
    →Arrange (#0)
      →Read materialize.public.t
)";

// Catches: an ArrangeBy over an input offering exactly one arrangement not
// reading it (input_key left unknown, or set to none), and one over a raw
// input getting a key; also a rule clearing marks it does not infer (raw
// flag, strategy) or layouts inferred without an arity.
TEST(PartialInference, ArrangeByReadsTheOneArrangementItsInputOffers) {
  const Document doc = Inferred(kArrangeOverArrange);
  EXPECT_EQ(Marks(doc, 1), "Get::Collection: ");
  EXPECT_EQ(Marks(doc, 2),
            "ArrangeBy: ArrangementLayouts,RawFlag,ArrangeStrategy");
  EXPECT_EQ(Marks(doc, 3),
            "ArrangeBy: ArrangementLayouts,RawFlag,ArrangeStrategy");
  // Over the raw collection only: none.
  EXPECT_FALSE(Find(doc, 2)->As<ArrangeByOp>().input_key.has_value());
  // Over raw + [#0]: the one arrangement.
  const ArrangeByOp& outer = Find(doc, 3)->As<ArrangeByOp>();
  ASSERT_TRUE(outer.input_key.has_value());
  EXPECT_EQ(*outer.input_key, Key({0}));
  // The layouts stay the reader's placeholders.
  EXPECT_TRUE(outer.forms.arranged[0].thinning.empty());
  EXPECT_TRUE(IsPartial(doc));
}

// Catches: the layouts not being filled in once a catalog gives the arity,
// or filled in from the input's arity rather than MakeArrangement's rule;
// and the second round (the outer ArrangeBy's arity only follows from the
// inner one's inferred input key) not running.
TEST(PartialInference, ACatalogArityGivesTheLayoutsOfAChainOfArrangeBys) {
  const Document doc =
      Inferred(kArrangeOverArrange, {{"materialize.public.t", 2}});
  EXPECT_EQ(Marks(doc, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  EXPECT_EQ(Marks(doc, 3), "ArrangeBy: RawFlag,ArrangeStrategy");
  const ArrangeByOp& inner = Find(doc, 2)->As<ArrangeByOp>();
  ASSERT_EQ(inner.forms.arranged.size(), 1u);
  EXPECT_EQ(inner.forms.arranged[0], MakeArrangement(Key({0}), 2));
  const ArrangeByOp& outer = Find(doc, 3)->As<ArrangeByOp>();
  ASSERT_EQ(outer.forms.arranged.size(), 1u);
  // Key #1 of two columns: #0 moves to the value, a non-trivial layout.
  EXPECT_EQ(outer.forms.arranged[0], MakeArrangement(Key({1}), 2));
  EXPECT_FALSE(outer.forms.arranged[0].permutation.empty());
  EXPECT_EQ(outer.forms.arranged[0].thinning, std::vector<int>{0});
  ASSERT_TRUE(outer.input_key.has_value());
  EXPECT_EQ(*outer.input_key, Key({0}));
}

// Catches: picking one of several arrangements (the first, say) when the
// plan does not say which one Materialize read.
TEST(PartialInference, TwoArrangementsLeaveTheInputKeyUnknown) {
  const Document doc = Inferred(R"(Explained Query:
  →Arrange (#0, #1)
    →Arrange (#0) (#1)
      →Read materialize.public.t
)",
                                {{"materialize.public.t", 2}});
  // The inner one reads the raw collection; its two layouts follow.
  EXPECT_EQ(Marks(doc, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  const ArrangeByOp& inner = Find(doc, 2)->As<ArrangeByOp>();
  ASSERT_EQ(inner.forms.arranged.size(), 2u);
  EXPECT_EQ(inner.forms.arranged[0], MakeArrangement(Key({0}), 2));
  EXPECT_EQ(inner.forms.arranged[1], MakeArrangement(Key({1}), 2));
  // The outer one's input offers [#0] and [#1]: which it reads is unknown,
  // and with it the row its identity input MFP passes on (the arity
  // analysis reads it as unknown), so its layout stays unknown too.
  EXPECT_EQ(Marks(doc, 3),
            "ArrangeBy: ArrangementLayouts,RawFlag,InputKey,ArrangeStrategy");
  EXPECT_FALSE(Find(doc, 3)->As<ArrangeByOp>().input_key.has_value());
}

// Catches: treating an arrangement by a key the plan does not show (a
// global `→Arranged` Get's, a Reduce's group key of unknown width) as no
// arrangement, which would infer input_key none.
TEST(PartialInference, AnUnknownKeyLeavesTheInputKeyUnknown) {
  const Document global = Inferred(R"(Explained Query:
  →Arrange (#0)
    →Arranged materialize.public.t
)",
                                   {{"materialize.public.t", 2}});
  EXPECT_EQ(Marks(global, 1), "Get::PassArrangements: AvailableForms");
  EXPECT_EQ(Marks(global, 2),
            "ArrangeBy: ArrangementLayouts,RawFlag,InputKey,ArrangeStrategy");

  // Read t (1) -> Distinct (2) -> Arrange (#1) (3).
  constexpr char kOverReduce[] = R"(Explained Query:
  →Arrange (#1)
    →Distinct GroupAggregate
      →Read materialize.public.t
)";
  // Without t's arity the group key is `[?]`.
  const Document unknown_width = Inferred(kOverReduce);
  EXPECT_EQ(Marks(unknown_width, 2), "Reduce::Distinct: ValPlan");
  EXPECT_FALSE(Find(unknown_width, 2)->As<ReduceOp>().input_key.has_value());
  EXPECT_EQ(Marks(unknown_width, 3),
            "ArrangeBy: ArrangementLayouts,RawFlag,InputKey,ArrangeStrategy");

  // With it the Reduce is arranged by [#0, #1] (found in a later round:
  // the Reduce's own input key comes first), and the layout follows.
  const Document known_width =
      Inferred(kOverReduce, {{"materialize.public.t", 2}});
  EXPECT_EQ(Marks(known_width, 3), "ArrangeBy: RawFlag,ArrangeStrategy");
  const ArrangeByOp& arrange = Find(known_width, 3)->As<ArrangeByOp>();
  ASSERT_TRUE(arrange.input_key.has_value());
  EXPECT_EQ(*arrange.input_key, Key({0, 1}));
  EXPECT_EQ(arrange.forms.arranged[0], MakeArrangement(Key({1}), 2));
}

// ---- Mfp, FlatMap and Reduce input keys ---------------------------------

struct ReaderCase {
  const char* name;
  const char* text;
  LirId node;  // the Mfp, FlatMap or Reduce
  bool input_key_known;
  const char* marks;  // what Marks(doc, node) gives after inference
};

// The three one-input readers over a raw-only input (Read, Stream) and over
// an arranged one (ArrangeBy, a global `→Arranged`).
const ReaderCase kReaderCases[] = {
    {"mfp over read", R"(Explained Query:
  →Map/Filter/Project
    Project: #1, #0
      →Read materialize.public.t
)",
     2, true, "Mfp: "},
    {"mfp over stream", R"(Explained Query:
  →Map/Filter/Project
    Project: #1, #0
    Filter: (#0 > 1)
      →Stream materialize.public.t
)",
     2, true, "Mfp: "},
    {"mfp over arrange", R"(Explained Query:
  →Map/Filter/Project
    Project: #1, #0
      →Arrange (#0)
        →Read materialize.public.t
)",
     3, false, "Mfp: InputKey"},
    {"mfp over global arrangements", R"(Explained Query:
  →Map/Filter/Project
    Project: #1, #0
      →Arranged materialize.public.t
)",
     2, false, "Mfp: InputKey"},
    {"flat map over read", R"(Explained Query:
  →Table Function generate_series(#0, 3, 1)
    →Read materialize.public.t
)",
     2, true, "FlatMap: "},
    {"flat map over arrange", R"(Explained Query:
  →Table Function generate_series(#0, 3, 1)
    →Arrange (#0)
      →Read materialize.public.t
)",
     3, false, "FlatMap: InputKey"},
    {"reduce over read", R"(Explained Query:
  →Distinct GroupAggregate
    →Read materialize.public.t
)",
     2, true, "Reduce::Distinct: ValPlan"},
    {"reduce over arrange", R"(Explained Query:
  →Distinct GroupAggregate
    →Arrange (#0)
      →Read materialize.public.t
)",
     3, false, "Reduce::Distinct: InputKey,ValPlan"},
};

// Catches: an Mfp, FlatMap or Reduce keeping its input-key mark over a
// raw-only input (the key is none there), or losing it over an input with
// an arrangement (Materialize may read that arrangement: the concise form
// does not say).
TEST(PartialInference, OneInputReadersOfARawInputReadNoArrangement) {
  for (const ReaderCase& c : kReaderCases) {
    SCOPED_TRACE(c.name);
    const Document doc = Inferred(c.text, {{"materialize.public.t", 2}});
    EXPECT_EQ(Marks(doc, c.node), c.marks);
    const Node* node = Find(doc, c.node);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->unknown.Has(UnknownFact::kInputKey), !c.input_key_known);
    // Inferred or not, no key is made up.
    if (node->Is<MfpOp>()) {
      EXPECT_FALSE(node->As<MfpOp>().input_key.has_value());
      EXPECT_FALSE(node->As<MfpOp>().input_val.has_value());
    } else if (node->Is<FlatMapOp>()) {
      EXPECT_FALSE(node->As<FlatMapOp>().input_key.has_value());
    } else {
      ASSERT_TRUE(node->Is<ReduceOp>());
      EXPECT_FALSE(node->As<ReduceOp>().input_key.has_value());
    }
  }
}

// ---- Get forms ------------------------------------------------------------

// Catches: a Get::Collection (plain or with a fused MFP) left without its
// forms, or given an arrangement; and the rule reaching Gets of other kinds,
// whose forms the concise form does not imply.
TEST(PartialInference, AGetCollectionIsTheRawCollectionOnly) {
  // Read (1), fused Read (2), Get::Arrangement (3), PassArrangements (4),
  // Stream (5), Union (6).
  const Document doc = Inferred(R"(Explained Query:
  →Union
    →Read materialize.public.t
    →Fused with Child Map/Filter/Project
      Filter: (#0 > 1)
        →Read materialize.public.t
    →Arranged materialize.public.t
      Key: (#0)
    →Arranged materialize.public.t
    →Stream materialize.public.t
)");
  EXPECT_EQ(Marks(doc, 1), "Get::Collection: ");
  EXPECT_EQ(Marks(doc, 2), "Get::Collection: ");
  EXPECT_EQ(Marks(doc, 3), "Get::Arrangement: AvailableForms");
  EXPECT_EQ(Marks(doc, 4), "Get::PassArrangements: AvailableForms");
  EXPECT_EQ(Marks(doc, 5), "Get::PassArrangements: ");
  EXPECT_EQ(Marks(doc, 6), "Union: ");
  const AvailableCollections raw_only{.raw = true, .arranged = {}};
  EXPECT_EQ(Find(doc, 1)->As<GetOp>().keys, raw_only);
  EXPECT_EQ(Find(doc, 2)->As<GetOp>().keys, raw_only);
  EXPECT_EQ(Find(doc, 2)->As<GetOp>().mfp.filter.size(), 1u);
  EXPECT_EQ(Find(doc, 5)->As<GetOp>().keys, raw_only);
  EXPECT_TRUE(Find(doc, 3)->As<GetOp>().keys.arranged.empty());
  EXPECT_FALSE(IsPartial(*Find(doc, 1)));
}

// ---- Layouts ----------------------------------------------------------------

// Read t (1) -> Arrange (#0, #1) (2) -> Threshold Diffs #0, #1 (3). A
// Threshold's key is its full row, so t has two columns.
constexpr char kThreshold[] = R"(Explained Query:
  →Threshold Diffs #0, #1
    →Arrange (#0, #1)
      →Read materialize.public.t
)";

// Catches: layouts made up without an arity (MakeArrangement of a guessed
// width), and, with a catalog, a Threshold's ensure_arrangement not filled
// in (it needs a second round: the ArrangeBy's arity follows from its
// inferred input key) or built for the wrong width.
TEST(PartialInference, LayoutsNeedTheArityOfTheArrangedRows) {
  const Document unknown = Inferred(kThreshold);
  EXPECT_EQ(Marks(unknown, 2),
            "ArrangeBy: ArrangementLayouts,RawFlag,ArrangeStrategy");
  EXPECT_EQ(Marks(unknown, 3), "Threshold::Basic: ArrangementLayouts");

  const Document known = Inferred(kThreshold, {{"materialize.public.t", 2}});
  EXPECT_EQ(Marks(known, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  EXPECT_EQ(Marks(known, 3), "Threshold::Basic: ");
  const ArrangementForm expected = MakeArrangement(Key({0, 1}), 2);
  EXPECT_EQ(Find(known, 2)->As<ArrangeByOp>().forms.arranged[0], expected);
  EXPECT_EQ(Find(known, 3)->As<ThresholdOp>().ensure_arrangement, expected);
  EXPECT_FALSE(IsPartial(*Find(known, 3)->inputs[0]->inputs[0]));
}

// Catches: an ArrangeBy's arity taken from its input rather than from its
// fused input MFP, or arity that the plan's own text shows (a projection)
// ignored in favour of a catalog.
TEST(PartialInference, AProjectionInThePlanGivesTheArity) {
  const Document doc = Inferred(R"(Explained Query:
  →Arrange (#1)
    →Fused with Parent Map/Filter/Project
      Project: #2, #0
      →Read materialize.public.t
)",
                                {});
  EXPECT_EQ(Marks(doc, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  const ArrangeByOp& arrange = Find(doc, 2)->As<ArrangeByOp>();
  EXPECT_FALSE(arrange.input_key.has_value());
  EXPECT_EQ(arrange.forms.arranged[0], MakeArrangement(Key({1}), 2));
}

// Read a (1) -> Arrange (2); Read b (3) -> Arrange (4); Set Difference (5).
constexpr char kSetDifference[] = R"(Explained Query:
  →Set Difference #0
    →Arrange (#0)
      →Read materialize.public.a
    →Arrange (#0)
      →Read materialize.public.b
)";

// Catches: SetDifference layouts made up without an arity, not filled in
// when one arm's arity is known (both arms have the same), and the arm
// keys (not implied) cleared along with them.
TEST(PartialInference, SetDifferenceLayoutsFollowEitherArmsArity) {
  const Document unknown = Inferred(kSetDifference);
  EXPECT_EQ(Marks(unknown, 5), "SetDifference: ArrangementLayouts,ArmKeys");

  const Document known =
      Inferred(kSetDifference, {{"materialize.public.a", 3}});
  EXPECT_EQ(Marks(known, 5), "SetDifference: ArmKeys");
  EXPECT_EQ(Find(known, 5)->As<SetDifferenceOp>().ensure_arrangement,
            MakeArrangement(Key({0}), 3));
  EXPECT_EQ(Marks(known, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  // b's arity is not given: its own ArrangeBy's layout stays unknown.
  EXPECT_EQ(Marks(known, 4),
            "ArrangeBy: ArrangementLayouts,RawFlag,ArrangeStrategy");
}

// ---- Arities through Source blocks ------------------------------------------

// Read t (1) -> Arrange (#1) (2).
constexpr char kArrangeByOne[] = R"(Explained Query:
  →Arrange (#1)
    →Read materialize.public.t
)";

// Catches: the Document overload ignoring Source blocks (a Get sees the
// projected rows, not the collection's own), or a Source block's filter
// taken for a projection.
TEST(PartialInference, SourceBlocksGiveTheArityGetsSee) {
  auto layout = [](const Document& doc) {
    return Find(doc, 2)->As<ArrangeByOp>().forms.arranged[0];
  };
  const std::string projected = absl::StrCat(kArrangeByOne, R"(
Source materialize.public.t
  project=(#0, #2)
)");
  // The projection alone gives the arity: 2.
  const Document alone = Inferred(projected);
  EXPECT_EQ(Marks(alone, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  EXPECT_EQ(layout(alone), MakeArrangement(Key({1}), 2));
  // The catalog's 5 columns go through the projection: still 2.
  const Document through = Inferred(projected, {{"materialize.public.t", 5}});
  EXPECT_EQ(layout(through), MakeArrangement(Key({1}), 2));
  // The Node overload sees no Source block: its arities are what Gets see.
  Document bare = ReadConcise(projected);
  ASSERT_TRUE(
      InferPartialFacts(*bare.objects[0].plan, {{"materialize.public.t", 5}})
          .ok());
  EXPECT_EQ(layout(bare), MakeArrangement(Key({1}), 5));

  const std::string filtered = absl::StrCat(kArrangeByOne, R"(
Source materialize.public.t
  filter=((#0 > 1))
)");
  const Document no_arity = Inferred(filtered);
  EXPECT_EQ(Marks(no_arity, 2),
            "ArrangeBy: ArrangementLayouts,RawFlag,ArrangeStrategy");
  const Document given = Inferred(filtered, {{"materialize.public.t", 3}});
  EXPECT_EQ(Marks(given, 2), "ArrangeBy: RawFlag,ArrangeStrategy");
  EXPECT_EQ(layout(given), MakeArrangement(Key({1}), 3));
}

// ---- Complete plans ---------------------------------------------------------

// A complete plan that disagrees with what the rules would infer: the
// outer ArrangeBy reads no arrangement though its input offers [#1].
constexpr char kComplete[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0, #1], permutation=id, thinning=() }
    ArrangeBy
      raw=true
      arrangements[0]={ key=[#0, #1], permutation=id, thinning=() }
      ArrangeBy
        raw=false
        arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, thinning=(#0) }
        Get::Collection materialize.public.t
          raw=true

Source materialize.public.t
  project=(#0, #1)

Target cluster: quickstart
)";

// Catches: inference touching a plan that lacks nothing (rewriting an
// input_key or a layout, or a Get's forms, that the verbose text states).
TEST(PartialInference, ACompletePlanIsLeftByteIdentical) {
  absl::StatusOr<Document> doc = explain::ParseText(kComplete);
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_EQ(doc->syntax, TextSyntax::kVerbose);
  ASSERT_TRUE(Validate(*doc).ok()) << Validate(*doc);
  ASSERT_EQ(explain::PrintText(*doc), kComplete);
  EXPECT_FALSE(IsPartial(*doc));
  ASSERT_TRUE(InferPartialFacts(*doc, {{"materialize.public.t", 2}}).ok());
  EXPECT_EQ(explain::PrintText(*doc), kComplete);
  ASSERT_TRUE(
      InferPartialFacts(*doc->objects[0].plan, {{"materialize.public.t", 7}})
          .ok());
  EXPECT_EQ(explain::PrintText(*doc), kComplete);
  EXPECT_FALSE(
      doc->objects[0].plan->inputs[0]->As<ArrangeByOp>().input_key.has_value());
}

// Read (1) -> Distinct (2) -> Arrange (#1) (3) -> Negate (4) -> Distinct
// (5) -> Arrange (#1) (6) -> Negate (7) -> Distinct (8) -> Arrange (#1) (9)
// -> Negate (10) -> Distinct (11) -> Arrange (#1) (12). Each ArrangeBy's
// input key follows from the arity of the Reduce below it, which follows
// from the ArrangeBy two levels down: one more round per level (the k-th
// ArrangeBy settles in round k + 1).
constexpr char kReduceChain[] = R"(Explained Query:
  →Arrange (#1)
    →Distinct GroupAggregate
      →Negate Diffs
        →Arrange (#1)
          →Distinct GroupAggregate
            →Negate Diffs
              →Arrange (#1)
                →Distinct GroupAggregate
                  →Negate Diffs
                    →Arrange (#1)
                      →Distinct GroupAggregate
                        →Read materialize.public.t
)";

// Catches: inference stopping after one round (only the lowest ArrangeBy
// would be filled in).
TEST(PartialInference, LaterRoundsUseWhatEarlierOnesInferred) {
  const Document doc = Inferred(kReduceChain, {{"materialize.public.t", 2}});
  for (LirId id : {3, 6, 9}) {
    SCOPED_TRACE(absl::StrCat("LirId(", id, ")"));
    EXPECT_EQ(Marks(doc, id), "ArrangeBy: RawFlag,ArrangeStrategy");
    const ArrangeByOp& arrange = Find(doc, id)->As<ArrangeByOp>();
    ASSERT_TRUE(arrange.input_key.has_value());
    EXPECT_EQ(*arrange.input_key, Key({0, 1}));
    EXPECT_EQ(arrange.forms.arranged[0], MakeArrangement(Key({1}), 2));
  }
  for (LirId id : {2, 5, 8, 11}) {
    EXPECT_EQ(Marks(doc, id), "Reduce::Distinct: ValPlan");
  }
}

// ---- Fixed findings ---------------------------------------------------------

// Regression: an ArrangeBy whose input key is unknown once skipped its
// layouts even when its fused input MFP projects, though the arity of the
// rows it arranges is then known whatever arrangement it reads (1 here).
TEST(PartialInference, LayoutsFollowFromAProjectionWhateverArrangementIsRead) {
  const Document doc = Inferred(R"(Explained Query:
  →Arrange (#0)
    →Fused with Parent Map/Filter/Project
      Project: #1
      →Arrange (#0) (#1)
        →Read materialize.public.t
)");
  absl::StatusOr<Analysis<Arity>> arities = AnalyzeArity(*doc.objects[0].plan);
  ASSERT_TRUE(arities.ok()) << arities.status();
  const Arity* arity = arities->Find(*Find(doc, 3));
  ASSERT_NE(arity, nullptr);
  EXPECT_EQ(*arity, Arity::Known(1));
  EXPECT_EQ(Marks(doc, 3), "ArrangeBy: RawFlag,InputKey,ArrangeStrategy");
  EXPECT_EQ(Find(doc, 3)->As<ArrangeByOp>().forms.arranged[0],
            MakeArrangement(Key({0}), 1));
}

// Regression: inference once stopped after four rounds even when the last
// still changed something. In kReduceChain the fourth ArrangeBy (LirId 12)
// needs a fifth: its input key [#0, #1] and its layout follow from the plan
// and the catalog.
TEST(PartialInference, InferenceRunsUntilNothingMoreFollows) {
  const Document doc = Inferred(kReduceChain, {{"materialize.public.t", 2}});
  EXPECT_EQ(Marks(doc, 12), "ArrangeBy: RawFlag,ArrangeStrategy");
  const ArrangeByOp& top = Find(doc, 12)->As<ArrangeByOp>();
  ASSERT_TRUE(top.input_key.has_value());
  EXPECT_EQ(*top.input_key, Key({0, 1}));
  EXPECT_EQ(top.forms.arranged[0], MakeArrangement(Key({1}), 2));
}

}  // namespace
}  // namespace lir::interp
