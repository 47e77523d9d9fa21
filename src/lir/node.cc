// Plan node helpers: construction, iterative copy/destruction, names, ids.
#include "lir/node.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace lir {

CollectionId CollectionId::Local(uint64_t n) {
  CollectionId id;
  id.is_local = true;
  id.local = n;
  return id;
}

CollectionId CollectionId::Global(std::string name) {
  CollectionId id;
  id.global = std::move(name);
  return id;
}

std::string CollectionId::ToString() const {
  return is_local ? absl::StrCat("l", local) : global;
}

Node::~Node() {
  // Detach the whole subtree into a work list so that each node dies with no
  // inputs left: recursion depth stays constant whatever the plan depth.
  std::vector<NodePtr> pending = std::move(inputs);
  while (!pending.empty()) {
    NodePtr node = std::move(pending.back());
    pending.pop_back();
    if (node == nullptr) continue;  // a slot whose input was moved out
    for (NodePtr& input : node->inputs) {
      if (input != nullptr) pending.push_back(std::move(input));
    }
    node->inputs.clear();
  }
}

NodePtr MakeNode(NodeOp op, std::vector<NodePtr> inputs) {
  auto node = std::make_unique<Node>(std::move(op));
  node->inputs = std::move(inputs);
  return node;
}

NodePtr Clone(const Node& node) {
  auto root = std::make_unique<Node>(node.op);
  root->id = node.id;
  root->unknown = node.unknown;
  // Pairs of (original, copy) whose inputs still have to be copied.
  std::vector<std::pair<const Node*, Node*>> pending = {{&node, root.get()}};
  while (!pending.empty()) {
    auto [from, to] = pending.back();
    pending.pop_back();
    to->inputs.reserve(from->inputs.size());
    for (const NodePtr& input : from->inputs) {
      if (input == nullptr) {
        to->inputs.push_back(nullptr);
        continue;
      }
      auto copy = std::make_unique<Node>(input->op);
      copy->id = input->id;
      copy->unknown = input->unknown;
      pending.push_back({input.get(), copy.get()});
      to->inputs.push_back(std::move(copy));
    }
  }
  return root;
}

std::string_view KindName(NodeKind kind) {
  switch (kind) {
// clang-format 14 folds the #include into this one-line case's macro.
// clang-format off
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  case NodeKind::k##Kind:                             \
    return #Kind;
#include "lir/node_kinds.def"
    // clang-format on
  }
  return "Unknown";
}

InputShape ShapeOf(NodeKind kind) {
  switch (kind) {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  case NodeKind::k##Kind:                             \
    return InputShape::Shape;
#include "lir/node_kinds.def"
  }
  return InputShape::kUnary;
}

InputCountRange RequiredInputs(const NodeOp& op) {
  switch (ShapeOf(KindOf(op))) {
    case InputShape::kLeaf: return {0, 0};
    case InputShape::kUnary: return {1, 1};
    case InputShape::kBinary:
    case InputShape::kLet: return {2, 2};
    case InputShape::kVariadic: return {1, std::numeric_limits<size_t>::max()};
    case InputShape::kLetRec: {
      const size_t count = OpAs<LetRecOp>(op).ids.size() + 1;
      return {count, count};
    }
  }
  return {1, 1};
}

std::string HeaderName(const Node& node) {
  switch (node.kind()) {
    case NodeKind::kGet:
      switch (node.As<GetOp>().kind) {
        case GetKind::kPassArrangements: return "Get::PassArrangements";
        case GetKind::kArrangement: return "Get::Arrangement";
        case GetKind::kCollection: return "Get::Collection";
      }
      break;
    case NodeKind::kLet: return "With";
    case NodeKind::kLetRec: return "With Mutually Recursive";
    case NodeKind::kJoin:
      return node.As<JoinOp>().delta ? "Join::Delta" : "Join::Linear";
    case NodeKind::kReduce:
      switch (node.As<ReduceOp>().kind) {
        case ReduceKind::kDistinct: return "Reduce::Distinct";
        case ReduceKind::kAccumulable: return "Reduce::Accumulable";
        case ReduceKind::kHierarchicalMonotonic:
        case ReduceKind::kHierarchicalBucketed: return "Reduce::Hierarchical";
        case ReduceKind::kBasicSingle:
        case ReduceKind::kBasicMultiple: return "Reduce::Basic";
      }
      break;
    case NodeKind::kTopK:
      switch (node.As<TopKOp>().kind) {
        case TopKKind::kMonotonicTop1: return "TopK::MonotonicTop1";
        case TopKKind::kMonotonicTopK: return "TopK::MonotonicTopK";
        case TopKKind::kBasic: return "TopK::Basic";
      }
      break;
    case NodeKind::kThreshold: return "Threshold::Basic";
    // Printed under their short name.
    case NodeKind::kConstant:
    case NodeKind::kMfp:
    case NodeKind::kFlatMap:
    case NodeKind::kNegate:
    case NodeKind::kUnion:
    case NodeKind::kArrangeBy:
    case NodeKind::kSetDifference:
    case NodeKind::kAntiJoin: break;
  }
  return std::string(KindName(node.kind()));
}

void AssignPostOrderIds(Node& root) {
  LirId next = 1;
  ForEachPostOrder(root, [&](Node& node) { node.id = next++; });
}

size_t CountNodes(const Node& root) {
  size_t count = 0;
  ForEachPreOrder(root, [&](const Node&, int) { ++count; });
  return count;
}

}  // namespace lir
