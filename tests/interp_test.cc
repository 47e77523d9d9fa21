// The abstract-interpretation framework: the driver's Let and LetRec
// handling (binding, shadowing, fixpoint rounds, limits, the recursive
// flag), its errors, the mutable Transform variant, and the lattices and
// input parsers of the three analyses.
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/interp/arrangements_built.h"
#include "lir/interp/driver.h"
#include "lir/interp/inputs.h"
#include "lir/interp/monotonicity.h"
#include "lir/interp/unique_keys.h"
#include "lir/plan_builder.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_generator.h"

namespace lir::interp {
namespace {

using ::lir::test::ParseOrDie;

/// A toy lattice: integers 0 (bottom) .. cap (top), join = max. A read of a
/// local is its binding plus one (capped), so a LetRec value that reads
/// itself climbs one step per round: it converges after cap + 1 rounds.
/// Every visit records whether the context was recursive.
struct Steps {
  int n = 0;
  friend bool operator==(const Steps&, const Steps&) = default;
};

class StepInterpreter {
 public:
  using Domain = Steps;
  explicit StepInterpreter(int cap) : cap_(cap) {}

  Domain Top() const { return {cap_}; }
  Domain Bottom() const { return {0}; }
  Domain Join(const Domain& a, const Domain& b) const {
    return {std::max(a.n, b.n)};
  }
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  Domain VisitConstant(const Context<Domain>& ctx, const Node& node,
                       const ConstantOp&) const {
    return Note(ctx, node, {1});
  }
  Domain VisitGet(const Context<Domain>& ctx, const Node& node,
                  const GetOp& op) const {
    if (!op.id.is_local) return Note(ctx, node, {0});
    const Binding<Domain>* binding = ctx.Find(op.id.local);
    return Note(ctx, node, {std::min(binding->value.n + 1, cap_)});
  }
  Domain VisitMfp(const Context<Domain>& ctx, const Node& node, const MfpOp&,
                  const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitFlatMap(const Context<Domain>& ctx, const Node& node,
                      const FlatMapOp&, const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitJoin(const Context<Domain>& ctx, const Node& node, const JoinOp&,
                   std::span<const Domain> in) const {
    return Note(ctx, node, Max(in));
  }
  Domain VisitReduce(const Context<Domain>& ctx, const Node& node,
                     const ReduceOp&, const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitTopK(const Context<Domain>& ctx, const Node& node, const TopKOp&,
                   const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitNegate(const Context<Domain>& ctx, const Node& node,
                     const NegateOp&, const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitThreshold(const Context<Domain>& ctx, const Node& node,
                        const ThresholdOp&, const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitUnion(const Context<Domain>& ctx, const Node& node,
                    const UnionOp&, std::span<const Domain> in) const {
    return Note(ctx, node, Max(in));
  }
  Domain VisitArrangeBy(const Context<Domain>& ctx, const Node& node,
                        const ArrangeByOp&, const Domain& in) const {
    return Note(ctx, node, in);
  }
  Domain VisitSetDifference(const Context<Domain>& ctx, const Node& node,
                            const SetDifferenceOp&, const Domain& base,
                            const Domain& subtract) const {
    return Note(ctx, node, {std::max(base.n, subtract.n)});
  }
  Domain VisitAntiJoin(const Context<Domain>& ctx, const Node& node,
                       const AntiJoinOp&, const Domain& base,
                       const Domain& keys) const {
    return Note(ctx, node, {std::max(base.n, keys.n)});
  }

  /// Whether the context was recursive at the last visit of each LirId.
  mutable std::map<LirId, bool> recursive;

 private:
  static Domain Max(std::span<const Domain> in) {
    Domain out;
    for (const Domain& d : in) out.n = std::max(out.n, d.n);
    return out;
  }
  Domain Note(const Context<Domain>& ctx, const Node& node, Domain d) const {
    recursive[node.id] = ctx.recursive();
    return d;
  }
  int cap_;
};

static_assert(Interpreter<StepInterpreter>);
static_assert(Interpreter<MonotonicityInterpreter>);
static_assert(Interpreter<ArityInterpreter>);
static_assert(Interpreter<ArrangementsInterpreter>);

/// The node with LirId `id` in `root`.
const Node& ById(const Node& root, LirId id) {
  const Node* found = nullptr;
  ForEachPostOrder(root, [&](const Node& node) {
    if (node.id == id) found = &node;
  });
  EXPECT_NE(found, nullptr) << "no LirId(" << id << ")";
  return *found;
}

// l0 = Union(Constant, Get l0): the read climbs one step per round.
std::string SelfLoopPlan() {
  return test::FixtureText("letrec_self_loop.plan");
}

// The plan with `limit` after its `cte` (` [recursion_limit=...]`).
std::string SelfLoop(const std::string& limit = "") {
  std::string text = SelfLoopPlan();
  return text.replace(text.find("cte l0"), 3, "cte" + limit);
}

TEST(Driver, LetBindsTheValueForTheBody) {
  Document doc = test::FixtureOrDie("let_chain_l0_l1.plan");
  StepInterpreter interp(100);
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *doc.objects[0].plan);
  ASSERT_TRUE(a.ok()) << a.status();
  // Constant 1, l0 read: 2, l1 read: 3; Lets return their body's value.
  EXPECT_EQ(a->root.n, 3);
  EXPECT_EQ(a->Find(ById(*doc.objects[0].plan, 2))->n, 2);
  EXPECT_EQ(a->evaluations, 3u);
  EXPECT_TRUE(a->let_recs.empty());
  for (const auto& [id, recursive] : interp.recursive) EXPECT_FALSE(recursive);
}

TEST(Driver, LetRecIteratesUntilNothingChanges) {
  Document doc = ParseOrDie(SelfLoop());
  StepInterpreter interp(5);
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *doc.objects[0].plan);
  ASSERT_TRUE(a.ok()) << a.status();
  const Node& let_rec = *doc.objects[0].plan;
  ASSERT_EQ(a->let_recs.count(&let_rec), 1u);
  const LetRecOutcome outcome = a->let_recs.at(&let_rec);
  // Rounds 1..5 raise l0 to 1..5; round 6 changes nothing.
  EXPECT_EQ(outcome.rounds, 6u);
  EXPECT_FALSE(outcome.hit_limit);
  EXPECT_EQ(outcome.limit, kMaxLetRecRounds);
  EXPECT_EQ(a->root.n, 5);
  // The values' nodes hold their last evaluation (l0 = 5 read as min(6, 5)).
  EXPECT_EQ(a->Find(ById(let_rec, 2))->n, 5);
  // Each round evaluates the three value nodes; the body two.
  EXPECT_EQ(a->evaluations, 6u * 3u + 1u);
  // Value nodes are visited in a recursive context, the body's are not.
  EXPECT_TRUE(interp.recursive.at(1));
  EXPECT_TRUE(interp.recursive.at(2));
  EXPECT_TRUE(interp.recursive.at(3));
  EXPECT_FALSE(interp.recursive.at(4));
}

TEST(Driver, LetRecGivesUpAfterOneHundredRounds) {
  Document doc = ParseOrDie(SelfLoop());
  StepInterpreter interp(1000);
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *doc.objects[0].plan);
  ASSERT_TRUE(a.ok()) << a.status();
  const LetRecOutcome outcome = a->let_recs.at(doc.objects[0].plan.get());
  EXPECT_TRUE(outcome.hit_limit);
  EXPECT_EQ(outcome.rounds, 100u);
  // Every binding is top; the body reads it.
  EXPECT_EQ(a->root.n, 1000);
  // The values were evaluated once more with top: 100 rounds + 1 pass.
  EXPECT_EQ(a->evaluations, 101u * 3u + 1u);
  EXPECT_EQ(a->Find(ById(*doc.objects[0].plan, 2))->n, 1000);
}

TEST(Driver, TheSmallestRecursionLimitBoundsTheRounds) {
  Document doc = ParseOrDie(SelfLoop(" [recursion_limit=3]"));
  StepInterpreter interp(5);
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *doc.objects[0].plan);
  ASSERT_TRUE(a.ok()) << a.status();
  const LetRecOutcome outcome = a->let_recs.at(doc.objects[0].plan.get());
  EXPECT_TRUE(outcome.hit_limit);
  EXPECT_EQ(outcome.rounds, 3u);
  EXPECT_EQ(outcome.limit, 3u);
  EXPECT_EQ(a->root.n, 5);  // top

  // A limit the fixpoint does not reach changes nothing.
  Document loose =
      ParseOrDie(SelfLoop(" [recursion_limit=7, return_at_limit]"));
  a = Analyze(interp, *loose.objects[0].plan);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(a->let_recs.at(loose.objects[0].plan.get()).hit_limit);
  EXPECT_EQ(a->let_recs.at(loose.objects[0].plan.get()).rounds, 6u);
}

TEST(Driver, TheRecursiveFlagCoversNestedValuesOnly) {
  // An outer LetRec whose body holds an inner LetRec: the inner values are
  // recursive, the inner body is not (it is in the outer body).
  Document doc = test::FixtureOrDie("letrec_nested.plan");
  StepInterpreter interp(10);
  ASSERT_TRUE(Analyze(interp, *doc.objects[0].plan).ok());
  EXPECT_TRUE(interp.recursive.at(1));   // Constant in l0's value
  EXPECT_TRUE(interp.recursive.at(2));   // Get l0 in l1's value
  EXPECT_FALSE(interp.recursive.at(3));  // Get l1 in the inner body
  EXPECT_FALSE(interp.recursive.at(4));  // Negate
}

TEST(Driver, RejectsShadowingAndUnboundIds) {
  // Validation would reject these plans too; the driver must not rely on it.
  Document shadow = test::FixtureOrDie("let_shadows_let.plan");
  StepInterpreter interp(10);
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *shadow.objects[0].plan);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(a.status().message(), "l0 is already bound"))
      << a.status();

  Document letrec_shadow = test::FixtureOrDie("letrec_shadows_let.plan");
  a = Analyze(interp, *letrec_shadow.objects[0].plan);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(absl::StrContains(a.status().message(), "l0 is already bound"));

  Document unbound = test::FixtureOrDie("negate_unbound_l3.plan");
  a = Analyze(interp, *unbound.objects[0].plan);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(),
            "LirId(1) Get::PassArrangements: l3 is not bound here");
}

TEST(Driver, RejectsMalformedNodes) {
  StepInterpreter interp(10);
  NodePtr negate = MakeNode(NegateOp{});
  negate->id = 4;
  absl::StatusOr<Analysis<Steps>> a = Analyze(interp, *negate);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(), "LirId(4) Negate: has 0 inputs, expected 1");

  std::vector<NodePtr> inputs;
  inputs.push_back(nullptr);
  NodePtr with_null = MakeNode(UnionOp{}, std::move(inputs));
  a = Analyze(interp, *with_null);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(absl::StrContains(a.status().message(), "input 0 is null"));

  LetRecOp twice;
  twice.ids = {1, 1};
  twice.limits = {std::nullopt, std::nullopt};
  std::vector<NodePtr> parts;
  for (int i = 0; i < 3; ++i) parts.push_back(MakeNode(ConstantOp{}));
  NodePtr let_rec = MakeNode(twice, std::move(parts));
  a = Analyze(interp, *let_rec);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(
      absl::StrContains(a.status().message(), "binds the same id twice"));
}

TEST(Driver, TransformVisitsBottomUpWithInputValues) {
  Document doc = test::FixtureOrDie("let_read_twice.plan");
  StepInterpreter interp(10);
  std::vector<LirId> order;
  std::map<LirId, std::vector<int>> seen_inputs;
  absl::StatusOr<Analysis<Steps>> a = Transform(
      interp, *doc.objects[0].plan,
      [&](Node& node, const Steps& own, std::span<const Steps> inputs) {
        order.push_back(node.id);
        for (const Steps& s : inputs) seen_inputs[node.id].push_back(s.n);
        // Mutations are allowed: mark Negates by turning them into Unions.
        if (node.Is<NegateOp>()) node.op = UnionOp{};
        EXPECT_EQ(own.n, node.id == 1 ? 1 : 2);
      });
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(order, (std::vector<LirId>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(seen_inputs[5], (std::vector<int>{2, 2}));  // Union
  EXPECT_EQ(seen_inputs[6], (std::vector<int>{1, 2}));  // Let {value, body}
  EXPECT_TRUE(ById(*doc.objects[0].plan, 4).Is<UnionOp>());
}

TEST(Driver, AnalysesWalkVeryDeepPlansWithoutRecursion) {
  // 100,000 nested Negates, then the same inside a LetRec value.
  PlanBuilder chain = PlanBuilder::Constant({Row{Literal::Int(1)}});
  for (int i = 0; i < 100000; ++i) chain = std::move(chain).Negate();
  NodePtr plan = std::move(chain).Release();
  AssignPostOrderIds(*plan);
  absl::StatusOr<Analysis<Arity>> arity = AnalyzeArity(*plan);
  ASSERT_TRUE(arity.ok());
  EXPECT_EQ(arity->root, Arity::Known(1));
  absl::StatusOr<Analysis<PhysicallyMonotonic>> monotonic =
      AnalyzeMonotonicity(*plan, {});
  ASSERT_TRUE(monotonic.ok());
  EXPECT_FALSE(monotonic->root.monotonic);
  absl::StatusOr<Analysis<AvailableForms>> forms =
      AnalyzeArrangements(*plan, &*arity);
  ASSERT_TRUE(forms.ok());
  EXPECT_EQ(FormatForms(forms->root), "raw");

  std::vector<LetRecBinding> bindings;
  bindings.push_back({0, PlanBuilder(std::move(plan)), std::nullopt});
  NodePtr let_rec = PlanBuilder::LetRec(std::move(bindings),
                                        PlanBuilder::Get(CollectionId::Local(0),
                                                         PlanBuilder::Raw()))
                        .Release();
  AssignPostOrderIds(*let_rec);
  size_t visited = 0;
  absl::StatusOr<Analysis<Steps>> steps = Transform(
      StepInterpreter(10), *let_rec,
      [&](Node&, const Steps&, std::span<const Steps>) { ++visited; });
  ASSERT_TRUE(steps.ok()) << steps.status();
  EXPECT_EQ(visited, 100003u);
  EXPECT_EQ(steps->let_recs.begin()->second.rounds, 2u);
}

TEST(Driver, AnalysesWalkDeepLetChains) {
  // 100,000 nested Lets, each value reading the previous binding.
  test::PlanGeneratorOptions options;
  options.shape = test::PlanShape::kLetChain;
  options.node_count = 200001;
  test::GeneratedPlan generated = test::GeneratePlan(options);
  absl::StatusOr<Analysis<Arity>> arity =
      AnalyzeArity(*generated.plan, generated.validate_options.global_arity);
  ASSERT_TRUE(arity.ok()) << arity.status();
  EXPECT_TRUE(arity->root.known());
  EXPECT_EQ(arity->nodes.size(), CountNodes(*generated.plan));
  std::set<std::string> all;
  for (const auto& [name, n] : generated.validate_options.global_arity) {
    all.insert(name);
  }
  absl::StatusOr<Analysis<PhysicallyMonotonic>> monotonic =
      AnalyzeMonotonicity(*generated.plan, all);
  ASSERT_TRUE(monotonic.ok()) << monotonic.status();
  // A chain of reads of a monotonic global stays monotonic to the end.
  EXPECT_TRUE(monotonic->root.monotonic);
  absl::StatusOr<Analysis<AvailableForms>> forms =
      AnalyzeArrangements(*generated.plan, &*arity);
  ASSERT_TRUE(forms.ok()) << forms.status();
}

// ---- Lattices and inputs ---------------------------------------------------

TEST(ArityLattice, JoinsToTheLeastUpperBound) {
  const Arity u = Arity::Unknown(), c = Arity::Conflict();
  const Arity two = Arity::Known(2), three = Arity::Known(3);
  EXPECT_EQ(JoinArity(u, u), u);
  EXPECT_EQ(JoinArity(u, two), two);
  EXPECT_EQ(JoinArity(two, u), two);
  EXPECT_EQ(JoinArity(two, two), two);
  EXPECT_EQ(JoinArity(two, three), c);
  EXPECT_EQ(JoinArity(c, u), c);
  EXPECT_EQ(JoinArity(two, c), c);
  EXPECT_EQ(FormatArity(u), "?");
  EXPECT_EQ(FormatArity(two), "2");
  EXPECT_EQ(FormatArity(c), "conflict");
  EXPECT_EQ(two.ToOptional(), std::optional<int>(2));
  EXPECT_EQ(c.ToOptional(), std::nullopt);
}

TEST(ArityLattice, MfpAndArrangementLayouts) {
  MapFilterProject mfp;
  mfp.map = {ScalarExpr::Lit(Literal::Int(1))};
  // ../shared/reference/SEMANTICS.md 8.1: the map column is output only through
  // a projection.
  EXPECT_EQ(MfpOutputArity(mfp, Arity::Known(2)), Arity::Known(2));
  EXPECT_EQ(MfpOutputArity(mfp, Arity::Unknown()), Arity::Unknown());
  mfp.project = std::vector<int>{0};
  EXPECT_EQ(MfpOutputArity(mfp, Arity::Unknown()), Arity::Known(1));
  EXPECT_EQ(DescribedArity(MakeColumnArrangement({1}, 3)), Arity::Known(3));
  ArrangementForm broken = MakeColumnArrangement({0}, 2);
  broken.thinning = {0};  // #0 both in the key and the value
  EXPECT_EQ(DescribedArity(broken), Arity::Conflict());
}

TEST(FormsLattice, JoinIsTheIntersection) {
  AvailableForms everything;
  everything.everything = true;
  AvailableForms a = AvailableForms::Raw();
  a.AddKey(OwnedKey(ColumnKey({0})));
  a.AddKey(OwnedKey(ColumnKey({1})));
  a.AddKey(OwnedKey({ScalarExpr::Column(0, "named")}));  // same key, ignored
  EXPECT_EQ(a.arranged.size(), 2u);
  AvailableForms b = AvailableForms::ArrangedBy(OwnedKey(ColumnKey({1})));
  EXPECT_EQ(FormatForms(JoinForms(a, b)), "[#1]");
  EXPECT_TRUE(SameForms(JoinForms(everything, a), a));
  EXPECT_TRUE(SameForms(JoinForms(b, everything), b));
  EXPECT_EQ(FormatForms(JoinForms(AvailableForms::Raw(), b)), "none");
  EXPECT_EQ(FormatForms(a), "raw, [#0], [#1]");
  EXPECT_EQ(FormatForms(everything), "*");
  EXPECT_FALSE(SameForms(a, b));
  AvailableForms reordered = AvailableForms::Raw();
  reordered.AddKey(OwnedKey(ColumnKey({1})));
  reordered.AddKey(OwnedKey(ColumnKey({0})));
  EXPECT_TRUE(SameForms(a, reordered));
  EXPECT_EQ(
      FormatForms(AvailableForms::ArrangedBy(OwnedKey(ColumnKey({0, 1, 2})))),
      "[#0..=#2]");
}

TEST(Monotonicity, TemporalPredicatesAndTableFunctions) {
  MapFilterProject mfp;
  EXPECT_FALSE(HasTemporalPredicates(mfp));
  mfp.filter = {
      ScalarExpr::Call(CallStyle::kInfix, "<",
                       {ScalarExpr::Call(CallStyle::kFunction, "mz_now", {}),
                        ScalarExpr::Column(0)})};
  EXPECT_TRUE(HasTemporalPredicates(mfp));
  MapFilterProject bounded;
  bounded.temporal = TemporalFilter{{}, {ScalarExpr::Column(0)}};
  EXPECT_TRUE(HasTemporalPredicates(bounded));
  EXPECT_TRUE(TableFunctionPreservesMonotonicity("generate_series(1, #0, 1)"));
  EXPECT_TRUE(TableFunctionPreservesMonotonicity("unnest_list(#1)"));
  EXPECT_TRUE(TableFunctionPreservesMonotonicity("wrap2(1, 2)"));
  EXPECT_FALSE(TableFunctionPreservesMonotonicity("repeat_row(#0)"));
  EXPECT_FALSE(TableFunctionPreservesMonotonicity("wrapper(#0)"));
  EXPECT_FALSE(TableFunctionPreservesMonotonicity("some_new_function(#0)"));
}

TEST(Inputs, ParseAnnotationFields) {
  absl::StatusOr<AnnotationFields> fields =
      ParseAnnotationFields("arrangements,node_id");
  ASSERT_TRUE(fields.ok());
  EXPECT_TRUE(fields->node_id && fields->arrangements);
  EXPECT_FALSE(fields->arity || fields->monotonic);
  EXPECT_TRUE(fields->AnyComputed());
  EXPECT_FALSE(ParseAnnotationFields("node_id")->AnyComputed());
  EXPECT_EQ(ParseAnnotationFields("arity,colour").status().message(),
            "unknown annotation 'colour'; expected node_id, arity, monotonic, "
            "arrangements, arrangements_built or unique_keys");
  fields = ParseAnnotationFields("unique_keys");
  ASSERT_TRUE(fields.ok());
  EXPECT_TRUE(fields->unique_keys && fields->AnyComputed());
  EXPECT_FALSE(fields->arity || fields->monotonic || fields->arrangements);
  fields = ParseAnnotationFields("arrangements_built");
  ASSERT_TRUE(fields.ok());
  EXPECT_TRUE(fields->arrangements_built && fields->AnyComputed());
  EXPECT_FALSE(fields->arrangements || fields->unique_keys);
}

TEST(DocumentAnalysis, FieldsPrintInTheirFixedOrder) {
  Document doc = test::FixtureOrDie("arranged_constant_pair.plan");
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, AnalysisInputs());
  ASSERT_TRUE(analysis.ok());
  AnnotationFields all{true, true, true, true};
  const Node& root = *doc.objects[0].plan;
  EXPECT_EQ(analysis->CommentFields(root, all),
            "arity: 2, monotonic: true, arrangements: \"raw, [#0]\"");
  EXPECT_EQ(analysis->JsonFields(root, all).dump(),
            R"({"arity":2,"arrangements":"raw, [#0]","monotonic":true})");
  explain::PrintOptions options;
  options.node_identifiers = true;
  options.annotate = [&](const Node& node) {
    return analysis->CommentFields(node,
                                   AnnotationFields{false, true, false, false});
  };
  EXPECT_TRUE(
      absl::StrContains(explain::PrintText(doc, options),
                        "  ArrangeBy // { node_id: LirId(2), arity: 2 }\n"));
}

// Interpreters own (or share) what they read, so one built from temporaries
// can run after they are gone (issue 17). A reference member would read freed
// memory here, which the sanitizer build (LIR_SANITIZE=ON) reports; a
// reference member would also make the interpreter unassignable.
static_assert(std::is_copy_assignable_v<ArityInterpreter>);
static_assert(std::is_copy_assignable_v<MonotonicityInterpreter>);
static_assert(std::is_copy_assignable_v<ArrangementsInterpreter>);
static_assert(std::is_copy_assignable_v<UniqueKeysInterpreter>);
static_assert(std::is_copy_assignable_v<ArrangementsBuiltInterpreter>);
// The driver borrows its interpreter for one walk and refuses a temporary.
static_assert(
    std::is_constructible_v<Driver<ArityInterpreter>, const ArityInterpreter&>);
static_assert(
    !std::is_constructible_v<Driver<ArityInterpreter>, ArityInterpreter&&>);

// ArrangeBy (LirId 3) over Reduce::Distinct (2) over Get t (1): t's arity
// (2) fixes the Reduce's key width, which fixes its arrangement [#0, #1],
// which the ArrangeBy then need not build.
std::string DistinctOfTPlan() {
  return test::FixtureText("distinct_of_t.plan");
}

constexpr char kT[] = "materialize.public.t";

// Every container is a temporary of the declaration, destroyed before the
// interpreter runs.
TEST(InterpreterInputs, ArityFromTemporaries) {
  const Document doc = ParseOrDie(DistinctOfTPlan());
  const Node& plan = *doc.objects[0].plan;
  const ArityInterpreter interp(
      std::map<std::string, int>{{kT, 2}},
      RevealedArities{{{"materialize.public.u", Arity::Known(5)}},
                      {{7, Arity::Known(1)}}});
  absl::StatusOr<Analysis<Arity>> arity = Analyze(interp, plan);
  ASSERT_TRUE(arity.ok()) << arity.status();
  EXPECT_EQ(arity->root, Arity::Known(2));
  EXPECT_EQ(*arity->Find(ById(plan, 1)), Arity::Known(2));
}

TEST(InterpreterInputs, MonotonicityFromTemporaries) {
  const Document doc = ParseOrDie(DistinctOfTPlan());
  const Node& plan = *doc.objects[0].plan;
  const MonotonicityInterpreter monotonic(std::set<std::string>{kT});
  const MonotonicityInterpreter other(
      std::set<std::string>{"materialize.public.u"});
  absl::StatusOr<Analysis<PhysicallyMonotonic>> yes = Analyze(monotonic, plan);
  absl::StatusOr<Analysis<PhysicallyMonotonic>> no = Analyze(other, plan);
  ASSERT_TRUE(yes.ok() && no.ok());
  EXPECT_TRUE(yes->Find(ById(plan, 1))->monotonic);
  EXPECT_FALSE(no->Find(ById(plan, 1))->monotonic);
}

TEST(InterpreterInputs, AnalysesOfAnalysesFromTemporaries) {
  const Document doc = ParseOrDie(DistinctOfTPlan());
  const Node& plan = *doc.objects[0].plan;
  // The arity analysis moves into a shared_ptr the interpreters keep alive.
  absl::StatusOr<Analysis<Arity>> arity_or = AnalyzeArity(plan, {{kT, 2}});
  ASSERT_TRUE(arity_or.ok()) << arity_or.status();
  std::shared_ptr<const Analysis<Arity>> arity =
      std::make_shared<const Analysis<Arity>>(*std::move(arity_or));
  const ArrangementsInterpreter arrangements(arity);
  const UniqueKeysInterpreter unique_keys(
      std::map<std::string, std::vector<UniqueKey>>{{kT, {{0}}}}, arity);
  arity.reset();  // the interpreters hold the only references now
  absl::StatusOr<Analysis<AvailableForms>> forms = Analyze(arrangements, plan);
  ASSERT_TRUE(forms.ok()) << forms.status();
  EXPECT_EQ(FormatForms(*forms->Find(ById(plan, 2))), "[#0, #1]");
  absl::StatusOr<Analysis<UniqueKeys>> keys = Analyze(unique_keys, plan);
  ASSERT_TRUE(keys.ok()) << keys.status();
  EXPECT_EQ(FormatUniqueKeys(*keys->Find(ById(plan, 1))), "[#0]");
  EXPECT_EQ(FormatUniqueKeys(*keys->Find(ById(plan, 2))), "[#0, #1]");

  // The forms analysis moves into the interpreter (a temporary, here).
  const ArrangementsBuiltInterpreter built_interp(*std::move(forms));
  absl::StatusOr<Analysis<ArrangementsBuilt>> built =
      Analyze(built_interp, plan);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(BuiltBy(*built, ById(plan, 2)).built,
            (std::vector<std::string>{"Arranged DistinctBy", "DistinctBy"}));
  // The Reduce already offers [#0, #1]: the ArrangeBy builds nothing.
  EXPECT_TRUE(BuiltBy(*built, ById(plan, 3)).built.empty());
  // An interpreter passed to Analyze as a temporary lives through the call.
  absl::StatusOr<Analysis<ArrangementsBuilt>> again = Analyze(
      ArrangementsBuiltInterpreter(*AnalyzeArrangements(plan, nullptr)), plan);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(BuiltBy(*again, ById(plan, 3)).built,
            (std::vector<std::string>{"ArrangeBy[[Column(0), Column(1)]]"}));
}

}  // namespace
}  // namespace lir::interp
