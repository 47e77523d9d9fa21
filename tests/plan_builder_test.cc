// PlanBuilder (include/lir/plan_builder.h): corpus plans (EXCEPT ALL, EXCEPT
// with temporal buckets, an EXCEPT ALL lookup join printed with Materialize's
// node ids, and the LEFT JOIN of outer_join.slt) built in code print byte
// for byte as the files Materialize produced, ids are post-order, every node
// kind of node_kinds.def can be built, and mistakes come back from Build()
// located by LirId and kind.
#include "lir/plan_builder.h"

#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/node_error.h"
#include "tests/support/corpus_util.h"
#include "tests/support/ir_helpers.h"

namespace lir {
namespace {

using B = PlanBuilder;

CollectionId Global(std::string name) {
  return CollectionId::Global(std::move(name));
}

using test::Col;
ScalarExpr Lit(Literal literal) { return ScalarExpr::Lit(std::move(literal)); }
// `(e) IS NULL`.
ScalarExpr IsNull(ScalarExpr e) {
  return ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {std::move(e)});
}
// `case when #flag then null else #column end`.
ScalarExpr NullIf(int flag, int column) {
  return ScalarExpr::If(Col(flag), Lit(Literal::Null()), Col(column));
}

// The index `t_a_idx` on column a of a two-column table, as Materialize
// prints it: `{ key=[#0{a}], permutation=id, thinning=(#1) }`.
AvailableCollections IndexOnA() {
  return B::Arranged({MakeArrangement({ScalarExpr::Column(0, "a")}, 2)});
}

// `Get::Arrangement t project=(#0) key=#0{a}`: a full scan of that index.
PlanBuilder ScanIndexOnA(std::string table) {
  return B::GetArrangement(Global(std::move(table)), IndexOnA(),
                           {ScalarExpr::Column(0, "a")}, B::Project({0}));
}

// Threshold::Basic(ArrangeBy(Union(base, Negate(subtract)))), the lowering
// of EXCEPT ALL over one column.
PlanBuilder ExceptAll(PlanBuilder base, PlanBuilder subtract) {
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  return B::Union(B::Inputs(std::move(base), std::move(subtract).Negate()),
                  {.consolidate_output = true})
      .ArrangeBy(B::Arranged({by_0}))
      .Threshold(by_0);
}

// EXCEPT's arms: SELECT DISTINCT, then arranged by the row (`input_key`).
PlanBuilder DistinctArranged(PlanBuilder input) {
  return std::move(input).Distinct().ArrangeBy(B::Raw(), ColumnKey({0}));
}

// A document of one object, `name`, on cluster quickstart.
Document OneObject(std::string name, NodePtr plan) {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = std::move(name);
  object.plan = std::move(plan);
  doc.target_cluster = "quickstart";
  return doc;
}

// The EXCEPT documents: `Explained Query` reading `source` (projected to
// `source_column`) and a full scan of `index`.
Document Wrap(NodePtr plan, std::string source, int source_column,
              std::string index) {
  Document doc = OneObject("Explained Query", std::move(plan));
  SourceBlock& block = doc.sources.emplace_back();
  block.name = std::move(source);
  block.mfp.project = std::vector<int>{source_column};
  doc.used_indexes =
      std::vector<UsedIndex>{{std::move(index), {"*** full scan ***"}}};
  return doc;
}

std::string ReadOrEmpty(const std::filesystem::path& path) {
  return test::ReadFile(path);
}

// `doc` prints as `expected`; on a difference, shows it as a diff.
void ExpectPrints(const Document& doc, const std::string& expected) {
  const std::string printed = explain::PrintText(doc);
  EXPECT_EQ(printed, expected) << explain::UnifiedDiff(expected, printed);
}

// ---- The LEFT JOIN of outer_join.slt --------------------------------------

constexpr char kLeft[] = "materialize.public.left";
constexpr char kRight1[] = "materialize.public.right1";
constexpr char kRight2[] = "materialize.public.right2";

// The right side of `left LEFT JOIN right ON left.x = right.x` for a
// two-column `right`, as the delta join reads it (arranged by #0, raw too):
// its rows with a third column `true` (matched), plus (x, null, null) for
// every distinct left x (l1) that `right` lacks, an antijoin written as
// Threshold(l1 - keys of right). `read(mfp)` reads `right` through `mfp`;
// `key_columns` are the columns of `right` its keys arm keeps ({0}: x).
template <typename Read>
PlanBuilder PaddedRightSide(Read read, std::vector<int> key_columns) {
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  PlanBuilder left_keys = B::Get(CollectionId::Local(1), B::Arranged({by_0}))
                              .ArrangeBy(B::Raw(), ColumnKey({0}));
  PlanBuilder unmatched =
      B::Union(B::Inputs(read(B::Project(std::move(key_columns))).Negate(),
                         std::move(left_keys)),
               {.consolidate_output = true})
          .ArrangeBy(B::Arranged({by_0}))
          .Threshold(by_0)
          .Mfp(B::MapProject({Lit(Literal::Null()), Lit(Literal::Null())},
                             B::Columns(0, 2)),
               ColumnKey({0}));
  return B::Union(B::Inputs(read(B::MapProject({Lit(Literal::Bool(true))},
                                               B::Columns(0, 2))),
                            std::move(unmatched)))
      .ArrangeBy(B::Arranged({MakeColumnArrangement({0}, 3)}, /*raw=*/true));
}

// The join's closure after looking up a padded right side: with the stream's
// `width` columns first and the side's (y, matched) after them, maps
// `matched IS NULL`, then the right side's x and y (null when unmatched), and
// keeps the stream's columns and those two.
JoinClosure PadClosure(int width) {
  const int matched = width + 1;
  const int is_null = width + 2;
  std::vector<int> keep = B::Columns(0, width - 1);
  keep.push_back(width + 3);
  keep.push_back(width + 4);
  return B::Closure(B::MapProject(
      {IsNull(Col(matched)), NullIf(is_null, 0), NullIf(is_null, width)},
      std::move(keep)));
}

// select * from left LEFT JOIN right1_keyed ON left.x = right1_keyed.x LEFT
// JOIN right2 ON left.x = right2.x (outer_join-L100.plan), every table of
// two columns. `right2_keys` projects right2 for its keys arm ({0}; another
// projection makes a plan that does not validate).
PlanBuilder LeftJoinPlan(std::vector<int> right2_keys = {0}) {
  // l0: right1 keyed by x; l1: the distinct x of left, and null.
  PlanBuilder l0 = B::GetCollection(Global(kRight1), B::Raw())
                       .MonotonicTop1({0}, {}, /*must_consolidate=*/true);
  PlanBuilder l1 = B::Union(B::Inputs(B::GetCollection(Global(kLeft), B::Raw(),
                                                       B::Project({0})),
                                      B::Constant({Row{Literal::Null()}})))
                       .Distinct();
  const AvailableCollections l0_forms =
      B::Arranged({MakeColumnArrangement({0}, 2)});
  auto read_l0 = [&](MapFilterProject mfp) {
    return B::GetArrangement(CollectionId::Local(0), l0_forms, ColumnKey({0}),
                             std::move(mfp));
  };
  auto read_right2 = [](MapFilterProject mfp) {
    return B::GetCollection(Global(kRight2), B::Raw(), std::move(mfp));
  };
  // From left's rows: look up right1, pad; then right2, pad.
  JoinPath path =
      B::Path(0, std::nullopt,
              {B::Lookup(1, ColumnKey({0}), ColumnKey({0}), {1}, PadClosure(2)),
               B::Lookup(2, ColumnKey({0}), ColumnKey({0}), B::Columns(1, 3),
                         PadClosure(4))});
  PlanBuilder join = B::DeltaJoin(
      B::Inputs(B::Get(Global(kLeft), B::Raw()).ArrangeBy(B::Raw()),
                PaddedRightSide(read_l0, {0}),
                PaddedRightSide(read_right2, std::move(right2_keys))),
      {std::move(path)});
  return B::Let(0, std::move(l0), B::Let(1, std::move(l1), std::move(join)));
}

const ValidateOptions kLeftJoinArities = {
    .global_arity = {{kLeft, 2}, {kRight1, 2}, {kRight2, 2}}};

Document LeftJoinDocument(NodePtr plan) {
  Document doc = OneObject("Explained Query", std::move(plan));
  const ScalarExpr x_not_null =
      ScalarExpr::Call(CallStyle::kNot, "NOT", {IsNull(Col(0))});
  doc.sources.push_back({kLeft, {}, std::nullopt});
  doc.sources.push_back({kRight1, B::Filter({x_not_null}), std::nullopt});
  doc.sources.push_back({kRight2, B::Filter({x_not_null}), std::nullopt});
  return doc;
}

TEST(PlanBuilder, BuildsCorpusLeftJoinPlanByteForByte) {
  const std::string expected =
      ReadOrEmpty(test::CorpusDir() / "outer_join-L100.plan");
  LIR_SKIP_WITHOUT_CORPUS(expected.empty());
  absl::StatusOr<NodePtr> plan = LeftJoinPlan().Build(kLeftJoinArities);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ExpectPrints(LeftJoinDocument(*std::move(plan)), expected);
}

// The node of `root` with LirId `id`, or null.
const Node* FindId(const Node& root, LirId id) {
  const Node* found = nullptr;
  ForEachPostOrder(root, [&](const Node& node) {
    if (node.id == id) found = &node;
  });
  return found;
}

TEST(PlanBuilder, LeftJoinIdsArePostOrder) {
  // Materialize allocates a LirId as it finishes lowering each node, inputs
  // first (compute-types' lowering.rs): post-order, l0's value first.
  absl::StatusOr<NodePtr> plan = LeftJoinPlan().Build(kLeftJoinArities);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Node& root = **plan;
  const std::pair<LirId, std::string> expected[] = {
      {1, "Get::Collection"},  // right1, in l0's value
      {2, "TopK::MonotonicTop1"},
      {3, "Get::Collection"},  // left, in l1's value
      {4, "Constant"},
      {5, "Union"},
      {6, "Reduce::Distinct"},
      {7, "Get::PassArrangements"},  // left, the join's input 0
      {8, "ArrangeBy"},
      {9, "Get::Arrangement"},  // l0's matched rows
      {14, "Union"},            // l1 - keys of right1
      {16, "Threshold::Basic"},
      {17, "Mfp"},
      {19, "ArrangeBy"},  // the join's input 1
      {25, "Union"},      // l1 - keys of right2
      {30, "ArrangeBy"},  // the join's input 2
      {31, "Join::Delta"},
      {32, "With"},  // the Let of l1
      {33, "With"},  // the Let of l0: the root
  };
  for (const auto& [id, header] : expected) {
    const Node* node = FindId(root, id);
    ASSERT_NE(node, nullptr) << "no LirId(" << id << ")";
    EXPECT_EQ(HeaderName(*node), header) << "LirId(" << id << ")";
  }
  EXPECT_EQ(root.id, 33u);
  EXPECT_EQ(CountNodes(root), 33u);
  EXPECT_EQ(root.inputs[1]->inputs[1]->id, 31u);  // the Let's body: the join

  // With node identifiers the text shows them (a With's on its Return).
  Document doc = LeftJoinDocument(*std::move(plan));
  explain::PrintOptions options;
  options.node_identifiers = true;
  const std::string text = explain::PrintText(doc, options);
  EXPECT_TRUE(absl::StrContains(text, "\n  Return // { node_id: LirId(33) }\n"))
      << text;
  EXPECT_TRUE(
      absl::StrContains(text, "\n    Join::Delta // { node_id: LirId(31) }\n"))
      << text;
  EXPECT_TRUE(absl::StrContains(
      text,
      "\n      TopK::MonotonicTop1 group_by=[#0] must_consolidate // { "
      "node_id: LirId(2) }\n"))
      << text;

  // The text parser numbers an unannotated plan the same way: the corpus
  // file, parsed, has the same id on every node.
  const std::string corpus_text =
      ReadOrEmpty(test::CorpusDir() / "outer_join-L100.plan");
  LIR_SKIP_WITHOUT_CORPUS(corpus_text.empty());
  absl::StatusOr<Document> parsed = explain::ParseText(corpus_text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  std::vector<std::pair<LirId, std::string>> built_ids, parsed_ids;
  ForEachPreOrder(*doc.objects[0].plan, [&](const Node& node, int) {
    built_ids.push_back({node.id, HeaderName(node)});
  });
  ForEachPreOrder(*parsed->objects[0].plan, [&](const Node& node, int) {
    parsed_ids.push_back({node.id, HeaderName(node)});
  });
  EXPECT_EQ(built_ids, parsed_ids);
}

// ---- Other corpus plans ---------------------------------------------------

TEST(PlanBuilder, BuildsExamplesExceptPlanByteForByte) {
  // SELECT a FROM t1 EXCEPT SELECT a FROM t2 (examples/except.plan).
  absl::StatusOr<NodePtr> plan =
      ExceptAll(DistinctArranged(ScanIndexOnA("materialize.public.t1")),
                DistinctArranged(B::GetCollection(
                    Global("materialize.public.t2"), B::Raw())))
          .Build({.global_arity = {{"materialize.public.t1", 2}}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*plan)->id, 10u);  // ten nodes, the root last in post-order
  const std::string expected = ReadOrEmpty(
      std::filesystem::path(LIR_SOURCE_DIR) / "examples" / "except.plan");
  ASSERT_FALSE(expected.empty());
  ExpectPrints(Wrap(*std::move(plan), "materialize.public.t2", 0,
                    "materialize.public.t1_a_idx"),
               expected);
}

TEST(PlanBuilder, BuildsCorpusExceptAllPlanByteForByte) {
  const std::string expected =
      ReadOrEmpty(test::CorpusDir() / "physical_plan_as_text-L268.plan");
  LIR_SKIP_WITHOUT_CORPUS(expected.empty());
  // SELECT a FROM t EXCEPT ALL SELECT b FROM mv.
  absl::StatusOr<NodePtr> plan =
      ExceptAll(ScanIndexOnA("materialize.public.t"),
                B::GetCollection(Global("materialize.public.mv"), B::Raw()))
          .Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  ExpectPrints(Wrap(*std::move(plan), "materialize.public.mv", 1,
                    "materialize.public.t_a_idx"),
               expected);
}

TEST(PlanBuilder, BuildsCorpusExceptAllLookupWithMaterializesNodeIds) {
  // WITH cte(x) as (SELECT a FROM t EXCEPT ALL SELECT b FROM mv) SELECT x * 5
  // FROM cte WHERE x = 5, printed WITH (node identifiers): the ids are
  // Materialize's own, and the builder's post-order ids print the same.
  const std::string expected =
      ReadOrEmpty(test::CorpusDir() / "physical_plan_as_text-L1530.plan");
  LIR_SKIP_WITHOUT_CORPUS(expected.empty());
  const ArrangementForm by_0 = MakeColumnArrangement({0}, 1);
  // The rows of t whose a is 5: the constant (5), arranged, looks up the
  // index on a.
  PlanBuilder lookup = B::LinearJoin(
      B::Inputs(B::Get(Global("materialize.public.t"), IndexOnA()),
                B::Constant({Row{Literal::Int(5)}})
                    .ArrangeBy(B::Arranged({by_0}, /*raw=*/true))),
      B::Path(1, ColumnKey({0}),
              {B::Lookup(0, {ScalarExpr::Column(0, "a")}, ColumnKey({0}), {},
                         B::Closure(B::Project({0})))}));
  absl::StatusOr<NodePtr> plan =
      ExceptAll(std::move(lookup),
                B::GetCollection(Global("materialize.public.mv"), B::Raw()))
          .Mfp(B::MapProject({Lit(Literal::Int(25))}, {1}), ColumnKey({0}))
          .Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  Document doc = OneObject("Explained Query", *std::move(plan));
  doc.node_identifiers = true;
  SourceBlock& mv = doc.sources.emplace_back();
  mv.name = "materialize.public.mv";
  mv.mfp = B::Filter(
      {ScalarExpr::Call(CallStyle::kInfix, "=",
                        {ScalarExpr::Column(1, "x"), Lit(Literal::Int(5))})},
      std::vector<int>{1});
  doc.used_indexes =
      std::vector<UsedIndex>{{"materialize.public.t_a_idx", {"lookup"}}};
  ExpectPrints(doc, expected);
}

// SELECT DISTINCT k FROM events WHERE event_time + INTERVAL '<days> days' >
// mz_now(), its distinct reduction bucketed (the rows have future
// timestamps), arranged back into rows.
PlanBuilder RecentKeys(const std::string& days) {
  MapFilterProject read = B::Project({0});
  const ScalarExpr expires = ScalarExpr::Call(
      CallStyle::kInfix, "+",
      {ScalarExpr::Column(1, "event_time"),
       Lit(Literal{LiteralKind::kInterval, absl::StrCat(days, " days")})});
  read.temporal = TemporalFilter{
      {},
      {ScalarExpr::Call(CallStyle::kFunction, "timestamp_to_mz_timestamp",
                        {expires})}};
  ReduceOp distinct = B::DistinctOp();
  distinct.temporal_bucketing = true;
  return B::GetCollection(Global("materialize.public.events"), B::Raw(),
                          std::move(read))
      .Reduce(std::move(distinct))
      .ArrangeBy(B::Raw(), ColumnKey({0}));
}

TEST(PlanBuilder, BuildsCorpusExceptWithTemporalBucketsByteForByte) {
  const std::string expected =
      ReadOrEmpty(test::CorpusDir() / "temporal_bucketing-L237.plan");
  LIR_SKIP_WITHOUT_CORPUS(expected.empty());
  // CREATE MATERIALIZED VIEW ... AS SELECT k FROM events WHERE event_time +
  // INTERVAL '45 day' > mz_now() EXCEPT SELECT k ... '90 day' ...
  absl::StatusOr<NodePtr> plan =
      ExceptAll(RecentKeys("45"), RecentKeys("90")).Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  ExpectPrints(OneObject("materialize.public.mv_except_distinct_buckets_at_"
                         "reduce",
                         *std::move(plan)),
               expected);
}
TEST(PlanBuilder, AssignsPostOrderIds) {
  absl::StatusOr<NodePtr> plan =
      B::Union(B::Inputs(B::Constant({Row{Literal::Int(1)}}),
                         B::Constant({Row{Literal::Int(2)}}).Negate()))
          .Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Node& root = **plan;
  EXPECT_EQ(root.inputs[0]->id, 1u);
  EXPECT_EQ(root.inputs[1]->inputs[0]->id, 2u);
  EXPECT_EQ(root.inputs[1]->id, 3u);
  EXPECT_EQ(root.id, 4u);
}

// Every kind of include/lir/node_kinds.def with its name: a kind added there
// makes BuildsEveryNodeKind fail until its plan builds one.
constexpr std::pair<NodeKind, const char*> kEveryKind[] = {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  {NodeKind::k##Kind, #Kind},
#include "lir/node_kinds.def"
};
static_assert(std::size(kEveryKind) == kNodeKindCount);

TEST(PlanBuilder, BuildsEveryNodeKind) {
  // A Let and a LetRec around a Union of every other kind; validation
  // passes. Every arm has two columns.
  const CollectionId t = Global("materialize.public.t");
  const CollectionId u = Global("materialize.public.u");
  const ArrangementForm t_by_0 = MakeColumnArrangement({0}, 2);
  const ArrangementForm t_row = MakeColumnArrangement({0, 1}, 2);
  const AvailableCollections indexed = B::Arranged({t_by_0}, /*raw=*/true);
  JoinPath linear = B::Path(
      0, std::nullopt, {B::Lookup(1, ColumnKey({0}), ColumnKey({0}), {1})});
  std::vector<JoinPath> delta;
  for (int source = 0; source < 2; ++source) {
    delta.push_back(
        B::Path(source, ColumnKey({0}),
                {B::Lookup(1 - source, ColumnKey({0}), ColumnKey({0}), {1})}));
  }
  ReduceOp count;
  count.kind = ReduceKind::kAccumulable;
  count.key_plan.project = std::vector<int>{0};
  count.val_plan.project = std::vector<int>{1};
  count.simple_aggrs.push_back(
      {0, AggregateExpr{"count", std::nullopt, false, ScalarExpr::Column(1)}});
  TopKOp top;
  top.group_by = {0};
  top.limit = ScalarExpr::Lit(Literal::Int(3));
  PlanBuilder arms = B::Union(B::Inputs(
      B::Constant({Row{Literal::Int(1), Literal::Int(2)}}),
      B::LinearJoin(B::Inputs(B::GetCollection(t, indexed), B::Get(t, indexed)),
                    std::move(linear))
          .Mfp(B::Project({0, 1})),
      B::DeltaJoin(B::Inputs(B::Get(t, indexed), B::Get(t, indexed)),
                   std::move(delta))
          .Mfp(B::Project({0, 1})),
      B::Get(CollectionId::Local(0), B::Raw()).Negate(),
      B::GetCollection(CollectionId::Local(1), B::Raw())
          .FlatMap("generate_series", {ScalarExpr::Column(0)},
                   B::Project({0, 1})),
      B::SetDifference(B::Get(t, B::Arranged({t_row})),
                       B::Get(t, B::Arranged({t_row})),
                       SetDifferenceOp{t_row, {0, 1}, {0, 1}}),
      B::AntiJoin(B::Get(t, B::Arranged({t_by_0})),
                  B::Get(u, B::Arranged({MakeColumnArrangement({0}, 1)})),
                  AntiJoinOp{{0}, {0}, {0}})));
  PlanBuilder body = std::move(arms)
                         .Reduce(std::move(count))
                         .TopK(std::move(top))
                         .ArrangeBy(B::Arranged({t_row}))
                         .Threshold(t_row);
  std::vector<LetRecBinding> bindings;
  bindings.push_back(
      {1,
       B::GetArrangement(t, indexed, ColumnKey({0}), {}, Row{Literal::Int(5)}),
       LetRecLimit{10, false}});
  absl::StatusOr<NodePtr> plan =
      B::Let(0, B::Get(t, indexed),
             B::LetRec(std::move(bindings), std::move(body)))
          .Build({.global_arity = {{"materialize.public.t", 2},
                                   {"materialize.public.u", 1}}});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*plan)->kind(), NodeKind::kLet);
  std::set<NodeKind> kinds;
  std::set<std::string> headers;
  ForEachPostOrder(**plan, [&](const Node& node) {
    kinds.insert(node.kind());
    headers.insert(HeaderName(node));
  });
  for (const auto& [kind, name] : kEveryKind) {
    EXPECT_TRUE(kinds.count(kind) > 0)
        << "node_kinds.def has " << name
        << ", which this plan does not build: build one here";
  }
  // The variants of the kinds that have several.
  for (const char* header :
       {"Get::PassArrangements", "Get::Arrangement", "Get::Collection",
        "Join::Linear", "Join::Delta", "With", "With Mutually Recursive"}) {
    EXPECT_TRUE(headers.count(header) > 0) << header;
  }
}

TEST(PlanBuilder, ValidationErrorsNameTheLirId) {
  // Projecting column #3 of a two-column input: the Mfp (LirId 2) is wrong.
  absl::StatusOr<NodePtr> plan =
      B::Get(Global("materialize.public.t"), B::Raw())
          .Mfp(B::Project({3}))
          .Negate()
          .Build({.global_arity = {{"materialize.public.t", 2}}});
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(absl::StrContains(plan.status().message(), "LirId(2)"))
      << plan.status();
}

TEST(PlanBuilder, ValidationErrorsNameTheDeepNodeByPostOrderId) {
  // The LEFT JOIN, right2's keys arm keeping two columns instead of one: the
  // Union that subtracts them from l1's one-column keys (LirId 25, in the
  // join's third input) has inputs of different arities.
  absl::StatusOr<NodePtr> plan = LeftJoinPlan({0, 1}).Build(kLeftJoinArities);
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(absl::StartsWith(plan.status().message(), "LirId(25) Union: "))
      << plan.status();
  EXPECT_EQ(NodeErrorOf(plan.status()), (NodeErrorInfo{25, NodeKind::kUnion}))
      << plan.status();
}

TEST(PlanBuilder, MisuseIsReportedByBuild) {
  PlanBuilder plan = B::Union(B::Inputs(B::Constant(std::vector<Row>{}),
                                        PlanBuilder()))  // never started
                         .Negate();
  EXPECT_FALSE(plan.status().ok());
  absl::StatusOr<NodePtr> built = std::move(plan).Build();
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().message(), "PlanBuilder: input 1 of Union is empty");
  EXPECT_FALSE(PlanBuilder().Build().ok());

  // Deep in a plan, and the first misuse wins over a later one.
  PlanBuilder join = B::DeltaJoin(
      B::Inputs(B::Get(Global(kLeft), B::Raw()), PlanBuilder()), {});
  built =
      B::Let(0, std::move(join), B::FromOp(UnionOp{}, B::Inputs(PlanBuilder())))
          .Mfp(B::Project({0}))
          .Build();
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().message(),
            "PlanBuilder: input 1 of Join::Delta is empty");

  // A builder moved from is empty, so reusing it is an empty input.
  PlanBuilder leaf = B::Constant({Row{Literal::Int(1)}});
  PlanBuilder negated = std::move(leaf).Negate();
  EXPECT_TRUE(leaf.empty());  // NOLINT(bugprone-use-after-move): the point
  built = B::Union(B::Inputs(std::move(negated), std::move(leaf))).Build();
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().message(), "PlanBuilder: input 1 of Union is empty");
}

}  // namespace
}  // namespace lir
