// The scoped walker (include/lir/walk.h) and node errors
// (include/lir/node_error.h): hook order, Let/LetRec scoping, the recursive
// flag, LetRec rounds, depth.
#include "lir/walk.h"

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "lir/node.h"
#include "lir/node_error.h"

namespace lir {
namespace {

NodePtr Constant() { return MakeNode(ConstantOp{}); }

NodePtr LocalGet(uint64_t id) {
  GetOp get;
  get.id = CollectionId::Local(id);
  get.keys.raw = true;
  return MakeNode(std::move(get));
}

NodePtr GlobalGet(std::string name) {
  GetOp get;
  get.id = CollectionId::Global(std::move(name));
  get.keys.raw = true;
  return MakeNode(std::move(get));
}

NodePtr Negate(NodePtr input) {
  std::vector<NodePtr> inputs;
  inputs.push_back(std::move(input));
  return MakeNode(NegateOp{}, std::move(inputs));
}

NodePtr Let(uint64_t id, NodePtr value, NodePtr body) {
  std::vector<NodePtr> inputs;
  inputs.push_back(std::move(value));
  inputs.push_back(std::move(body));
  return MakeNode(LetOp{id}, std::move(inputs));
}

NodePtr LetRec(std::vector<uint64_t> ids, std::vector<NodePtr> values,
               NodePtr body) {
  LetRecOp op;
  op.limits.resize(ids.size());
  op.ids = std::move(ids);
  values.push_back(std::move(body));
  return MakeNode(std::move(op), std::move(values));
}

NodePtr Union(std::vector<NodePtr> inputs) {
  return MakeNode(UnionOp{}, std::move(inputs));
}

/// Records every hook call as text; a node's result is its LirId.
struct TracingVisitor : ScopedVisitorBase<LirId> {
  std::vector<std::string> events;

  absl::Status Enter(const Node& node, const WalkContext& ctx) {
    events.push_back(
        absl::StrCat("enter ", node.id, ctx.recursive() ? "r" : ""));
    return absl::OkStatus();
  }
  absl::Status Bind(const Node& binder, uint64_t id, LirId* value) {
    events.push_back(absl::StrCat(
        "bind l", id, "=", value == nullptr ? "-" : absl::StrCat(*value)));
    return absl::OkStatus();
  }
  void Unbind(const Node& binder, uint64_t id) {
    events.push_back(absl::StrCat("unbind l", id));
  }
  absl::StatusOr<LirId> Leave(const Node& node, const WalkContext& ctx,
                              std::span<LirId> inputs) {
    events.push_back(absl::StrCat("leave ", node.id, "(",
                                  absl::StrJoin(inputs, ","), ")",
                                  ctx.recursive() ? "r" : ""));
    return node.id;
  }
};

static_assert(ScopedVisitor<TracingVisitor, const Node>);

TEST(Walk, LetBindsTheValueForTheBodyOnly) {
  // With l0 = Constant(1) Return Union(Get l0 (2), Constant(3)) (4); (5).
  std::vector<NodePtr> parts;
  parts.push_back(LocalGet(0));
  parts.push_back(Constant());
  NodePtr plan = Let(0, Constant(), Union(std::move(parts)));
  AssignPostOrderIds(*plan);
  TracingVisitor visitor;
  absl::StatusOr<LirId> root =
      WalkScoped(static_cast<const Node&>(*plan), visitor);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(*root, 5u);
  EXPECT_EQ(absl::StrJoin(visitor.events, "; "),
            "enter 5; enter 1; leave 1(); bind l0=1; enter 4; enter 2; "
            "leave 2(); enter 3; leave 3(); leave 4(2,3); unbind l0; "
            "leave 5(1,4)");
}

TEST(Walk, LetRecValuesAreRecursiveAndTheBodyIsNot) {
  // LetRec l0 = Negate(Get l0); l1 = Get l0; Return Get l1.
  std::vector<NodePtr> values;
  values.push_back(Negate(LocalGet(0)));
  values.push_back(LocalGet(0));
  NodePtr plan = LetRec({0, 1}, std::move(values), LocalGet(1));
  AssignPostOrderIds(*plan);  // 1 Get, 2 Negate, 3 Get, 4 Get, 5 LetRec
  TracingVisitor visitor;
  absl::StatusOr<LirId> root =
      WalkScoped(static_cast<const Node&>(*plan), visitor);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(absl::StrJoin(visitor.events, "; "),
            "enter 5; bind l0=-; bind l1=-; enter 2r; enter 1r; leave 1()r; "
            "leave 2(1)r; enter 3r; leave 3()r; enter 4; leave 4(); "
            "unbind l0; unbind l1; leave 5(2,3,4)");
}

/// Iterates a LetRec until its single binding reaches `target` rounds.
struct CountingVisitor : ScopedVisitorBase<int> {
  struct LetRecState {
    int binding = 0;
    std::vector<uint64_t> rounds_begun;
  };
  int target = 3;
  int value_evaluations = 0;
  std::vector<uint64_t> rounds;

  void BeginLetRecRound(const Node&, LetRecState& state, uint64_t round) {
    state.rounds_begun.push_back(round);
  }
  absl::StatusOr<bool> UpdateLetRec(const Node&, size_t, int& value,
                                    LetRecState& state) {
    if (value == state.binding) return false;
    state.binding = value;
    return true;
  }
  absl::StatusOr<LetRecNext> EndLetRecRound(const Node&, LetRecState& state,
                                            bool changed) {
    if (changed && state.binding < target) return LetRecNext::kRepeat;
    rounds = state.rounds_begun;
    return LetRecNext::kBody;
  }
  absl::StatusOr<int> Leave(const Node& node, const WalkContext& ctx,
                            std::span<int> inputs) {
    if (node.Is<GetOp>() || node.Is<ConstantOp>()) return 0;
    if (node.Is<NegateOp>()) {
      ++value_evaluations;
      return inputs[0] + 1;  // the value grows by one per round
    }
    return inputs.back();
  }
};

TEST(Walk, LetRecRoundsReEnterTheValuesUntilTheVisitorStops) {
  std::vector<NodePtr> values;
  values.push_back(Negate(Constant()));
  NodePtr plan = LetRec({0}, std::move(values), LocalGet(0));
  AssignPostOrderIds(*plan);
  CountingVisitor visitor;
  absl::StatusOr<int> root =
      WalkScoped(static_cast<const Node&>(*plan), visitor);
  ASSERT_TRUE(root.ok()) << root.status();
  // Constant gives 0, Negate 1: the value is 1 every round; the first round
  // changes the binding from 0 to 1, the second changes nothing.
  EXPECT_EQ(visitor.value_evaluations, 2);
  EXPECT_EQ(visitor.rounds, (std::vector<uint64_t>{0, 1}));
}

/// A LetRec whose value reads its own binding grows by one each round.
struct GrowingVisitor : CountingVisitor {
  absl::StatusOr<int> Leave(const Node& node, const WalkContext& ctx,
                            std::span<int> inputs) {
    if (node.Is<GetOp>()) return current;
    if (node.Is<ConstantOp>()) return 0;
    if (node.Is<NegateOp>()) return inputs[0] + 1;
    return inputs.back();
  }
  absl::StatusOr<bool> UpdateLetRec(const Node& node, size_t index, int& value,
                                    LetRecState& state) {
    current = value;
    return CountingVisitor::UpdateLetRec(node, index, value, state);
  }
  int current = 0;
};

/// Walks `plan` (ids assigned here) with a GrowingVisitor of `target`; the
/// visitor, to read its rounds, and the root's value.
struct GrowingWalk {
  GrowingVisitor visitor;
  absl::StatusOr<int> root;
};
GrowingWalk WalkGrowing(Node& plan, int target) {
  AssignPostOrderIds(plan);
  GrowingWalk walk;
  walk.visitor.target = target;
  walk.root = WalkScoped(static_cast<const Node&>(plan), walk.visitor);
  return walk;
}

TEST(Walk, LetRecFixpointSeesTheUpdatedBinding) {
  std::vector<NodePtr> values;
  values.push_back(Negate(LocalGet(0)));
  NodePtr plan = LetRec({0}, std::move(values), LocalGet(0));
  const GrowingWalk walk = WalkGrowing(*plan, 4);
  ASSERT_TRUE(walk.root.ok()) << walk.root.status();
  EXPECT_EQ(*walk.root, 4);
  EXPECT_EQ(walk.visitor.rounds, (std::vector<uint64_t>{0, 1, 2, 3}));
}

TEST(Walk, NestedLetRecsKeepTheirOwnState) {
  // The inner LetRec sits in the outer one's values and runs to its own
  // fixpoint in every outer round.
  std::vector<NodePtr> inner_values;
  inner_values.push_back(Negate(LocalGet(1)));
  NodePtr inner = LetRec({1}, std::move(inner_values), LocalGet(1));
  std::vector<NodePtr> outer_values;
  outer_values.push_back(std::move(inner));
  NodePtr plan = LetRec({0}, std::move(outer_values), LocalGet(0));
  const GrowingWalk walk = WalkGrowing(*plan, 2);
  ASSERT_TRUE(walk.root.ok()) << walk.root.status();
}

std::string ErrorOf(const Node& plan) {
  TracingVisitor visitor;
  return std::string(WalkScoped(plan, visitor).status().message());
}

TEST(Walk, ScopingRulesAreChecked) {
  NodePtr unbound = Negate(LocalGet(4));
  AssignPostOrderIds(*unbound);
  EXPECT_EQ(ErrorOf(*unbound),
            "LirId(1) Get::PassArrangements: l4 is not bound here");

  // A Let's id is not visible in its own value.
  NodePtr own_value = Let(0, LocalGet(0), Constant());
  AssignPostOrderIds(*own_value);
  EXPECT_EQ(ErrorOf(*own_value),
            "LirId(1) Get::PassArrangements: l0 is not bound here");

  NodePtr shadow = Let(0, Constant(), Let(0, Constant(), LocalGet(0)));
  AssignPostOrderIds(*shadow);
  EXPECT_EQ(ErrorOf(*shadow),
            "LirId(4) With: l0 is already bound by an enclosing binding");

  std::vector<NodePtr> values;
  values.push_back(Constant());
  values.push_back(Constant());
  NodePtr twice = LetRec({1, 1}, std::move(values), Constant());
  AssignPostOrderIds(*twice);
  EXPECT_EQ(ErrorOf(*twice),
            "LirId(4) With Mutually Recursive: binds the same id twice");

  std::vector<NodePtr> inner;
  inner.push_back(Constant());
  NodePtr rec_shadow =
      Let(2, Constant(), LetRec({2}, std::move(inner), LocalGet(2)));
  AssignPostOrderIds(*rec_shadow);
  EXPECT_EQ(ErrorOf(*rec_shadow),
            "LirId(4) With Mutually Recursive: l2 is already bound by an "
            "enclosing binding");

  // Sequential Lets may reuse an id.
  std::vector<NodePtr> parts;
  parts.push_back(Let(0, Constant(), LocalGet(0)));
  parts.push_back(Let(0, Constant(), LocalGet(0)));
  NodePtr reuse = Union(std::move(parts));
  AssignPostOrderIds(*reuse);
  EXPECT_EQ(ErrorOf(*reuse), "");
}

TEST(Walk, InputCountsAreChecked) {
  NodePtr negate = MakeNode(NegateOp{});
  negate->id = 4;
  EXPECT_EQ(ErrorOf(*negate), "LirId(4) Negate: has 0 inputs, expected 1");
  NodePtr empty_union = Union({});
  empty_union->id = 1;
  EXPECT_EQ(ErrorOf(*empty_union), "LirId(1) Union: has no inputs");
  std::vector<NodePtr> with_null;
  with_null.push_back(Constant());
  with_null.push_back(nullptr);
  NodePtr union_node = Union(std::move(with_null));
  union_node->id = 9;
  EXPECT_EQ(ErrorOf(*union_node), "LirId(9) Union: input 1 is null");
}

/// Words scope errors itself and knows a free local.
struct CustomScopeVisitor : TracingVisitor {
  bool BoundOutside(uint64_t id) const { return id == 7; }
  absl::Status ScopeError(const Node& node, ScopeViolation violation,
                          uint64_t id) const {
    return NodeError(
        node, absl::StatusCode::kFailedPrecondition,
        absl::StrCat("custom ", static_cast<int>(violation), " l", id));
  }
};

TEST(Walk, VisitorsWordScopeErrorsAndBindFreeLocals) {
  NodePtr free_read = Negate(LocalGet(7));
  AssignPostOrderIds(*free_read);
  CustomScopeVisitor visitor;
  EXPECT_TRUE(WalkScoped(static_cast<const Node&>(*free_read), visitor).ok());

  NodePtr rebind = Let(7, Constant(), Constant());
  AssignPostOrderIds(*rebind);
  absl::Status status =
      WalkScoped(static_cast<const Node&>(*rebind), visitor).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "LirId(3) With: custom 1 l7");
}

/// Skips LetRec subtrees, as an engine that runs a LetRec whole does.
struct SkippingVisitor : TracingVisitor {
  bool Descend(const Node& node) const { return !node.Is<LetRecOp>(); }
};

TEST(Walk, DescendFalseSkipsInputsAndBindings) {
  std::vector<NodePtr> values;
  values.push_back(LocalGet(3));  // unbound, but never entered
  NodePtr plan = Negate(LetRec({0}, std::move(values), LocalGet(0)));
  AssignPostOrderIds(*plan);
  SkippingVisitor visitor;
  absl::StatusOr<LirId> root =
      WalkScoped(static_cast<const Node&>(*plan), visitor);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(absl::StrJoin(visitor.events, "; "),
            "enter 4; enter 3; leave 3(); leave 4(3)");
}

/// Errors from hooks reach the caller unchanged.
struct FailingVisitor : ScopedVisitorBase<int> {
  absl::StatusOr<int> Leave(const Node& node, const WalkContext&,
                            std::span<int>) {
    if (node.Is<NegateOp>()) {
      return NodeError(node, absl::StatusCode::kOutOfRange, "boom");
    }
    return 0;
  }
};

TEST(Walk, HookErrorsStopTheWalk) {
  NodePtr plan = Negate(Negate(GlobalGet("t")));
  AssignPostOrderIds(*plan);
  FailingVisitor visitor;
  absl::Status status =
      WalkScoped(static_cast<const Node&>(*plan), visitor).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), "LirId(2) Negate: boom");
}

/// Renumbers nodes in place: the walker also walks mutable plans.
struct RenumberingVisitor : ScopedVisitorBase<int, Node> {
  absl::StatusOr<int> Leave(Node& node, const WalkContext&, std::span<int>) {
    node.id += 100;
    return 0;
  }
};

static_assert(ScopedVisitor<RenumberingVisitor, Node>);

TEST(Walk, MutableWalk) {
  NodePtr plan = Let(0, Constant(), LocalGet(0));
  AssignPostOrderIds(*plan);
  RenumberingVisitor visitor;
  ASSERT_TRUE(WalkScoped(*plan, visitor).ok());
  EXPECT_EQ(plan->id, 103u);
  EXPECT_EQ(plan->inputs[1]->id, 102u);
}

/// Counts nodes; the result is the subtree size.
struct SizeVisitor : ScopedVisitorBase<size_t> {
  absl::StatusOr<size_t> Leave(const Node&, const WalkContext&,
                               std::span<size_t> inputs) {
    size_t size = 1;
    for (size_t input : inputs) size += input;
    return size;
  }
};

TEST(Walk, DeepPlansDoNotOverflowTheStack) {
  constexpr size_t kDepth = 200'000;
  // Alternating nested Lets and Negates, each Let's body reading its id:
  // scopes nest 10^5 deep.
  NodePtr node = GlobalGet("t");
  for (size_t i = 0; i < kDepth / 2; ++i) {
    std::vector<NodePtr> parts;
    parts.push_back(Negate(std::move(node)));
    parts.push_back(LocalGet(i));
    node = Let(i, Constant(), Union(std::move(parts)));
  }
  SizeVisitor visitor;
  absl::StatusOr<size_t> size =
      WalkScoped(static_cast<const Node&>(*node), visitor);
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, CountNodes(*node));
}

TEST(NodeErrorTest, CarriesTheNodeAsAPayload) {
  NodePtr get = GlobalGet("t");
  get->id = 7;
  absl::Status status =
      NodeError(*get, absl::StatusCode::kInvalidArgument, "bad read");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "LirId(7) Get::PassArrangements: bad read");
  std::optional<NodeErrorInfo> info = NodeErrorOf(status);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(*info, (NodeErrorInfo{7, NodeKind::kGet}));
  EXPECT_EQ(std::string(*status.GetPayload(std::string(kNodeErrorTypeUrl))),
            "7 Get");

  EXPECT_FALSE(
      NodeErrorOf(absl::InvalidArgumentError("LirId(7) Get: x")).has_value());
  EXPECT_FALSE(NodeErrorOf(absl::OkStatus()).has_value());
}

TEST(NodeErrorTest, AttachNodeKeepsTheInnermostNode) {
  NodePtr inner = Constant();
  inner->id = 1;
  NodePtr outer = Negate(Constant());
  outer->id = 2;
  absl::Status plain = absl::OutOfRangeError("overflow");
  plain.SetPayload("example.com/other", absl::Cord("x"));
  absl::Status named = AttachNode(*inner, plain);
  EXPECT_EQ(named.message(), "LirId(1) Constant: overflow");
  EXPECT_EQ(named.code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(named.GetPayload("example.com/other").has_value());
  // Already named: unchanged.
  EXPECT_EQ(AttachNode(*outer, named), named);
  EXPECT_EQ(NodeErrorOf(AttachNode(*outer, named))->id, 1u);
  EXPECT_TRUE(AttachNode(*outer, absl::OkStatus()).ok());

  absl::Status prefixed = PrefixStatus("q: ", named);
  EXPECT_EQ(prefixed.message(), "q: LirId(1) Constant: overflow");
  EXPECT_EQ(NodeErrorOf(prefixed)->kind, NodeKind::kConstant);
}

TEST(NodeErrorTest, EveryKindRoundTrips) {
  std::vector<NodePtr> nodes;
  nodes.push_back(MakeNode(ConstantOp{}));
  nodes.push_back(MakeNode(GetOp{}));
  nodes.push_back(MakeNode(LetOp{}));
  nodes.push_back(MakeNode(LetRecOp{}));
  nodes.push_back(MakeNode(MfpOp{}));
  nodes.push_back(MakeNode(FlatMapOp{}));
  nodes.push_back(MakeNode(JoinOp{}));
  nodes.push_back(MakeNode(ReduceOp{}));
  nodes.push_back(MakeNode(TopKOp{}));
  nodes.push_back(MakeNode(NegateOp{}));
  nodes.push_back(MakeNode(ThresholdOp{}));
  nodes.push_back(MakeNode(UnionOp{}));
  nodes.push_back(MakeNode(ArrangeByOp{}));
  nodes.push_back(MakeNode(SetDifferenceOp{}));
  nodes.push_back(MakeNode(AntiJoinOp{}));
  EXPECT_EQ(nodes.size(), std::variant_size_v<NodeOp>);
  for (size_t k = 0; k < nodes.size(); ++k) {
    Node& node = *nodes[k];
    node.id = k + 10;
    std::optional<NodeErrorInfo> info =
        NodeErrorOf(NodeError(node, absl::StatusCode::kInternal, "x"));
    ASSERT_TRUE(info.has_value()) << k;
    EXPECT_EQ(info->kind, node.kind());
    EXPECT_EQ(info->id, k + 10);
  }
}

}  // namespace
}  // namespace lir
