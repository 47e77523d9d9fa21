// Tests of Validate / InferArities on failing plans: one per class of error,
// each checking the message.
#include "lir/validate.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/node.h"
#include "tests/support/ir_helpers.h"
#include "tests/support/validate_plans.h"

namespace lir {
namespace {

using test::Col;
using test::validate_plans::Build;
using test::validate_plans::Constant;
using test::validate_plans::ErrorOf;
using test::validate_plans::Global;
using test::validate_plans::In;
using test::validate_plans::LinearPath;
using test::validate_plans::Local;
using test::validate_plans::Mfp;
using test::validate_plans::Negate;
using test::validate_plans::Project;

// ---------------------------------------------------------------------------
// One failing plan per error class.

TEST(ValidateErrorTest, ProjectionOutOfRange) {
  NodePtr plan = Mfp(Constant(3), Project({0, 5}));
  EXPECT_EQ(
      ErrorOf(plan),
      "LirId(2) Mfp: projection column #5 out of range for input arity 3");
  MapFilterProject mapped = Project({4});
  mapped.map = {Col(0)};
  NodePtr with_map = Mfp(Constant(3), mapped);
  EXPECT_EQ(ErrorOf(with_map),
            "LirId(2) Mfp: projection column #4 out of range for arity 4 "
            "(input arity 3 + 1 mapped)");
}

TEST(ValidateErrorTest, MapReadsALaterColumn) {
  MapFilterProject mfp;
  mfp.map = {Col(2)};  // only #0, #1 exist when the first map runs
  NodePtr plan = Mfp(Constant(2), mfp);
  EXPECT_EQ(ErrorOf(plan),
            "LirId(2) Mfp: map expression 0 references column #2 out of range "
            "for arity 2");
}

TEST(ValidateErrorTest, FilterOutOfRange) {
  MapFilterProject mfp;
  mfp.filter = {ScalarExpr::Call(CallStyle::kPostfixIs, "IS NULL", {Col(7)})};
  NodePtr plan = Mfp(Constant(2), mfp);
  EXPECT_EQ(ErrorOf(plan),
            "LirId(2) Mfp: filter predicate 0 references column #7 out of "
            "range for arity 2");
}

TEST(ValidateErrorTest, NegativeColumn) {
  NodePtr plan = Mfp(Global("t", 2), Project({-1}));
  EXPECT_EQ(ErrorOf(plan), "LirId(2) Mfp: projection column #-1 is negative");
}

TEST(ValidateErrorTest, PermutationDoesNotMatchKey) {
  ArrangeByOp op;
  ArrangementForm form = MakeColumnArrangement({1}, 2);
  form.permutation.clear();
  op.forms.arranged.push_back(form);
  NodePtr plan = Build(op, In(Constant(2)));
  EXPECT_EQ(
      ErrorOf(plan),
      "LirId(2) ArrangeBy: arrangements[0]: permutation id does not match "
      "key and thinning (expected {#0: #1, #1: #0})");
}

TEST(ValidateErrorTest, ThinningMissesAColumn) {
  GetOp get;
  get.id = CollectionId::Global("t");
  get.keys.arranged.push_back(ArrangementForm{{Col(0)}, {}, {2}});
  NodePtr plan = Build(get);
  EXPECT_EQ(ErrorOf(plan),
            "LirId(1) Get::PassArrangements: arrangements[0]: column #1 is "
            "neither a key column nor in the thinning (#2)");
  get.keys.arranged[0] = ArrangementForm{{Col(0)}, {}, {0, 1}};
  NodePtr overlap = Build(get);
  EXPECT_EQ(ErrorOf(overlap),
            "LirId(1) Get::PassArrangements: arrangements[0]: column #0 is "
            "both a key column and in the thinning");
}

TEST(ValidateErrorTest, ArrangementArityDisagreesWithCollection) {
  ValidateOptions options;
  options.global_arity["t"] = 3;
  NodePtr plan = Global("t", 2, {{0}});
  EXPECT_EQ(ErrorOf(plan, options),
            "LirId(1) Get::PassArrangements: arrangements[0]: key and thinning "
            "describe arity 2, but the collection has arity 3");
}

TEST(ValidateErrorTest, GetArrangementReadsAnUnlistedKey) {
  GetOp get;
  get.id = CollectionId::Global("t");
  get.kind = GetKind::kArrangement;
  get.keys.arranged.push_back(MakeColumnArrangement({0}, 2));
  get.key = {Col(1)};
  NodePtr plan = Build(get);
  EXPECT_EQ(ErrorOf(plan),
            "LirId(1) Get::Arrangement: reads an arrangement that is not among "
            "the collection's arrangements");
}

TEST(ValidateErrorTest, GlobalArityLearnedFromAnotherRead) {
  // The raw scan comes first in post-order, yet the arranged read of the
  // same collection elsewhere in the plan fixes its arity at 2.
  GetOp scan;
  scan.id = CollectionId::Global("t");
  scan.kind = GetKind::kCollection;
  scan.keys.raw = true;
  scan.mfp = Project({5});
  NodePtr plan = Build(
      UnionOp{}, In(Build(scan), Mfp(Global("t", 2, {{0}}), Project({0}))));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(1) Get::Collection: projection column #5 out of range for "
            "input arity 2");
  // Two reads that disagree about the arity.
  NodePtr conflict =
      Build(UnionOp{}, In(Global("t", 2, {{0}}), Global("t", 3, {{0}})));
  EXPECT_EQ(ErrorOf(conflict),
            "LirId(2) Get::PassArrangements: arrangements[0]: key and thinning "
            "describe arity 3, but the collection has arity 2");
}

TEST(ValidateErrorTest, LetLearnsUnknownArityFromAnArrangedRead) {
  GetOp read;
  read.id = CollectionId::Local(0);
  read.keys.arranged.push_back(MakeColumnArrangement({0}, 2));
  NodePtr body = Build(UnionOp{}, In(Build(read), Mfp(Local(0), Project({2}))));
  NodePtr plan = Build(LetOp{0}, In(Global("t", 2), std::move(body)));
  EXPECT_EQ(
      ErrorOf(plan),
      "LirId(4) Mfp: projection column #2 out of range for input arity 2");
}

TEST(ValidateErrorTest, UnboundLocal) {
  NodePtr plan = Negate(Local(4));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(1) Get::PassArrangements: l4 is not bound here");
  // A Let's value cannot read its own id.
  NodePtr self = Build(LetOp{1}, In(Local(1), Local(1)));
  EXPECT_EQ(ErrorOf(self),
            "LirId(1) Get::PassArrangements: l1 is not bound here");
}

TEST(ValidateErrorTest, ShadowedBinding) {
  NodePtr inner = Build(LetOp{0}, In(Constant(1), Local(0)));
  NodePtr plan = Build(LetOp{0}, In(Constant(1), std::move(inner)));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(4) With: l0 is already bound by an enclosing binding");
}

TEST(ValidateErrorTest, LetRecShape) {
  LetRecOp duplicate;
  duplicate.ids = {3, 3};
  duplicate.limits = {std::nullopt, std::nullopt};
  NodePtr dup = Build(duplicate, In(Constant(1), Constant(1), Local(3)));
  EXPECT_EQ(ErrorOf(dup),
            "LirId(4) With Mutually Recursive: binds the same id twice");

  LetRecOp limits;
  limits.ids = {3};
  NodePtr lim = Build(limits, In(Constant(1), Local(3)));
  EXPECT_EQ(
      ErrorOf(lim),
      "LirId(3) With Mutually Recursive: 1 bindings but 0 recursion limits");

  LetRecOp inputs;
  inputs.ids = {3};
  inputs.limits = {std::nullopt};
  NodePtr count = Build(inputs, In(Local(3)));
  EXPECT_EQ(ErrorOf(count),
            "LirId(2) With Mutually Recursive: has 1 inputs, expected 2");
}

TEST(ValidateErrorTest, LetRecValueDisagreesWithReads) {
  LetRecOp op;
  op.ids = {0};
  op.limits = {std::nullopt};
  GetOp read;
  read.id = CollectionId::Local(0);
  read.keys.arranged.push_back(MakeColumnArrangement({0}, 2));
  // l0 is read as a 2-column arrangement but its value has 1 column.
  NodePtr value = Build(UnionOp{}, In(Constant(1), Build(read)));
  NodePtr plan = Build(op, In(std::move(value), Local(0)));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Union: input 1 has arity 2, but input 0 has arity 1");
  NodePtr value2 = Mfp(Build(read), Project({0, 1, 0}));
  NodePtr plan2 = Build(op, In(std::move(value2), Local(0)));
  EXPECT_EQ(ErrorOf(plan2),
            "LirId(4) With Mutually Recursive: l0 has arity 3, but is read "
            "with arity 2");
}

TEST(ValidateErrorTest, InputCountPerKind) {
  NodePtr negate = Build(NegateOp{}, In(Constant(1), Constant(1)));
  EXPECT_EQ(ErrorOf(negate), "LirId(3) Negate: has 2 inputs, expected 1");
  NodePtr let = Build(LetOp{0}, In(Constant(1)));
  EXPECT_EQ(ErrorOf(let), "LirId(2) With: has 1 inputs, expected 2");
  NodePtr get = Build(Global("t", 1)->op, In(Constant(1)));
  EXPECT_EQ(ErrorOf(get),
            "LirId(2) Get::PassArrangements: has 1 inputs, expected 0");
  NodePtr empty_union = Build(UnionOp{});
  EXPECT_EQ(ErrorOf(empty_union), "LirId(1) Union: has no inputs");
  NodePtr set_difference = Build(SetDifferenceOp{}, In(Constant(1)));
  EXPECT_EQ(ErrorOf(set_difference),
            "LirId(2) SetDifference: has 1 inputs, expected 2");
}

TEST(ValidateErrorTest, NullInputIsReportedNotFollowed) {
  std::vector<NodePtr> inputs;
  inputs.push_back(Constant(1));
  inputs.push_back(nullptr);
  NodePtr plan = Build(UnionOp{}, std::move(inputs));
  plan->id = 9;
  plan->inputs[0]->id = 8;
  EXPECT_EQ(Validate(*plan).message(), "LirId(9) Union: input 1 is null");
  Document doc;
  doc.objects.emplace_back().name = "q";
  doc.objects[0].plan = std::move(plan);
  EXPECT_EQ(Validate(doc).message(), "q: LirId(9) Union: input 1 is null");
}

TEST(ValidateErrorTest, UnionArmsDisagree) {
  NodePtr plan = Build(UnionOp{}, In(Constant(1), Global("t", 3), Constant(2)));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(4) Union: input 2 has arity 2, but input 0 has arity 1");
  NodePtr strategies = Build(UnionOp{false, {UnionStrategy::kDirect}},
                             In(Constant(1), Constant(1)));
  EXPECT_EQ(ErrorOf(strategies),
            "LirId(3) Union: 1 temporal bucketing strategies for 2 inputs");
}

TEST(ValidateErrorTest, ConstantRowsDiffer) {
  ConstantOp op;
  op.rows = {{Row{Literal::Int(1)}, 1},
             {Row{Literal::Int(1), Literal::Int(2)}, 1}};
  NodePtr plan = Build(op);
  EXPECT_EQ(ErrorOf(plan),
            "LirId(1) Constant: row 1 has 2 columns, but row 0 has 1");
}

TEST(ValidateErrorTest, JoinRelations) {
  JoinOp out_of_range;
  out_of_range.paths.push_back(LinearPath());
  out_of_range.paths[0].stages[0].lookup_relation = 2;
  NodePtr plan =
      Build(out_of_range, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Join::Linear: linear_stage[0] lookup relation 2 out of "
            "range for 2 inputs");

  JoinOp missing;
  missing.paths.push_back(LinearPath());
  NodePtr three = Build(missing, In(Global("t", 2, {{0}}),
                                    Global("u", 2, {{0}}), Global("v", 1)));
  EXPECT_EQ(ErrorOf(three),
            "LirId(4) Join::Linear: relation 2 is never joined on this path");

  JoinOp twice;
  twice.paths.push_back(LinearPath());
  twice.paths[0].stages[0].lookup_relation = 0;
  NodePtr repeated =
      Build(twice, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(repeated),
            "LirId(3) Join::Linear: linear_stage[0] lookup relation 0 is "
            "already joined earlier on this path");
}

TEST(ValidateErrorTest, JoinStreamThinning) {
  JoinOp join;
  join.paths.push_back(LinearPath());
  join.paths[0].stages[0].stream_thinning = {1, 2};
  NodePtr plan = Build(join, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Join::Linear: linear_stage[0]: stream thinning (#1, #2) "
            "does not match the stream key for stream arity 2 (expected (#1))");
}

TEST(ValidateErrorTest, JoinKeyLengths) {
  JoinOp join;
  join.paths.push_back(LinearPath());
  join.paths[0].stages[0].lookup_key.push_back(Col(1));
  NodePtr plan = Build(join, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Join::Linear: linear_stage[0]: stream key has 1 entries "
            "but lookup key has 2");
}

TEST(ValidateErrorTest, JoinFinalClosureOutOfRange) {
  JoinOp join;
  join.paths.push_back(LinearPath());
  join.paths[0].final_closure = JoinClosure{Project({3}), {}};
  NodePtr plan = Build(join, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Join::Linear: final_closure: projection column #3 out of "
            "range for input arity 3");
}

TEST(ValidateErrorTest, DeltaPathsDisagree) {
  JoinOp join;
  join.delta = true;
  join.paths.push_back(LinearPath());
  JoinPath second = LinearPath();
  second.source_relation = 1;
  second.stages[0].lookup_relation = 0;
  second.final_closure.reset();  // 3 columns instead of 4
  join.paths.push_back(second);
  NodePtr plan = Build(join, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(3) Join::Delta: plan_path[1] produces arity 3, but an "
            "earlier path produces arity 4");
  join.paths[1].source_relation = 0;
  NodePtr misordered =
      Build(join, In(Global("t", 2, {{0}}), Global("u", 2, {{0}})));
  EXPECT_EQ(
      ErrorOf(misordered),
      "LirId(3) Join::Delta: plan_path[1] starts from relation 0, expected 1");
}

TEST(ValidateErrorTest, ReduceShapes) {
  ReduceOp reduce;
  reduce.kind = ReduceKind::kHierarchicalMonotonic;
  reduce.aggr_funcs = {"max"};
  reduce.key_plan = Project({});
  NodePtr plan = Build(reduce, In(Constant(2)));  // val_plan=id: 2 columns
  EXPECT_EQ(ErrorOf(plan),
            "LirId(2) Reduce::Hierarchical: val_plan produces 2 columns for 1 "
            "aggregates");

  ReduceOp accumulable;
  accumulable.kind = ReduceKind::kAccumulable;
  accumulable.simple_aggrs = {
      {1, AggregateExpr{"sum", std::nullopt, false, Col(0)}},
      {1, AggregateExpr{"sum", std::nullopt, false, Col(0)}}};
  accumulable.val_plan = Project({0, 0});
  NodePtr positions = Build(accumulable, In(Constant(1)));
  EXPECT_EQ(ErrorOf(positions),
            "LirId(2) Reduce::Accumulable: aggregate position 1 is used twice");

  ReduceOp key;
  key.kind = ReduceKind::kDistinct;
  key.key_plan = Project({4});
  key.val_plan = Project({});
  NodePtr key_plan = Build(key, In(Constant(2)));
  EXPECT_EQ(ErrorOf(key_plan),
            "LirId(2) Reduce::Distinct: key_plan: projection column #4 out of "
            "range for input arity 2");

  ReduceOp basic;
  basic.kind = ReduceKind::kBasicSingle;
  basic.aggrs = {AggregateExpr{"string_agg", std::nullopt, false, Col(5)}};
  basic.val_plan = Project({0});
  NodePtr aggregate = Build(basic, In(Constant(2)));
  EXPECT_EQ(
      ErrorOf(aggregate),
      "LirId(2) Reduce::Basic: aggrs[0] references column #5 out of range "
      "for arity 2");
}

TEST(ValidateErrorTest, TopKColumns) {
  TopKOp topk;
  topk.group_by = {2};
  NodePtr plan = Build(topk, In(Constant(2)));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(2) TopK::Basic: group_by references column #2 out of range "
            "for arity 2");
  topk.group_by.clear();
  topk.order_by = {OrderKey{3, false, true}};
  NodePtr order = Build(topk, In(Constant(2)));
  EXPECT_EQ(ErrorOf(order),
            "LirId(2) TopK::Basic: order_by references column #3 out of range "
            "for arity 2");
}

TEST(ValidateErrorTest, ThresholdKeyIsTheFullRow) {
  ThresholdOp partial{MakeColumnArrangement({0}, 2)};
  NodePtr plan = Build(partial, In(Constant(2)));
  EXPECT_EQ(ErrorOf(plan),
            "LirId(2) Threshold::Basic: ensure_arrangement key must name every "
            "column, but the thinning is (#1)");
  ThresholdOp narrow{MakeColumnArrangement({0}, 1)};
  NodePtr narrow_plan = Build(narrow, In(Constant(2)));
  EXPECT_EQ(ErrorOf(narrow_plan),
            "LirId(2) Threshold::Basic: ensure_arrangement: key and thinning "
            "describe arity 1, but the collection has arity 2");
  ThresholdOp swapped{MakeColumnArrangement({1, 0}, 2)};
  NodePtr swapped_plan = Build(swapped, In(Constant(2)));
  EXPECT_EQ(ErrorOf(swapped_plan),
            "LirId(2) Threshold::Basic: ensure_arrangement key entry 0 must be "
            "#0 (the key is the full row)");
}

TEST(ValidateErrorTest, SetDifferenceArms) {
  SetDifferenceOp op;
  op.ensure_arrangement = MakeColumnArrangement({0}, 1);
  op.base_key = {0};
  op.subtract_key = {0};
  NodePtr plan = Build(op, In(Constant(1), Constant(2)));
  EXPECT_EQ(
      ErrorOf(plan),
      "LirId(3) SetDifference: base has arity 1, but subtract has arity 2");
  op.subtract_key = {};
  NodePtr keys = Build(op, In(Constant(1), Constant(1)));
  EXPECT_EQ(ErrorOf(keys),
            "LirId(3) SetDifference: base_key and subtract_key must have 1 "
            "columns like the arrangement");
}

TEST(ValidateErrorTest, DocumentPrefixesObjectAndNeedsUniqueIds) {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "materialize.public.mv";
  object.plan = Mfp(Constant(1), Project({1}));
  AssignPostOrderIds(*object.plan);
  absl::Status status = Validate(doc);
  EXPECT_EQ(status.message(),
            "materialize.public.mv: LirId(2) Mfp: projection column #1 out of "
            "range for input arity 1");
  object.plan->As<MfpOp>().mfp = Project({0});
  EXPECT_TRUE(Validate(doc).ok());
  object.plan->inputs[0]->id = 2;
  EXPECT_EQ(Validate(doc).message(),
            "materialize.public.mv: LirId(2) is used by more than one node");
}

}  // namespace
}  // namespace lir
