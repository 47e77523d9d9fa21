// LIR plan nodes: the physical plan layer of Materialize (compute-types
// `PlanNode` at commit 30e4b1d2) plus the fused SetDifference and AntiJoin
// nodes.
#ifndef LIR_LIR_NODE_H_
#define LIR_LIR_NODE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "lir/arrangement.h"
#include "lir/box.h"
#include "lir/mfp.h"
#include "lir/scalar.h"
#include "lir/unknown_facts.h"

namespace lir {

/// Identifier of a plan node, unique within one object of a document.
/// 0 means "not assigned yet"; written ids lie in [kMinLirId, kMaxLirId].
using LirId = uint64_t;

/// The smallest LirId a document may carry (0 marks an unassigned node).
inline constexpr LirId kMinLirId = 1;
/// The largest LirId a document may carry: 2^64 - 2. The text and JSON
/// readers reject ids outside [kMinLirId, kMaxLirId] where they are written,
/// and numbering unannotated nodes fails instead of wrapping around.
inline constexpr LirId kMaxLirId = ~LirId{0} - 1;

/// A reference to a collection: a local binding `l<n>` or a global object
/// named as EXPLAIN humanizes it (`materialize.public.t`, or `u5`).
struct CollectionId {
  bool is_local = false;
  uint64_t local = 0;  ///< n of `l<n>` when is_local
  std::string global;  ///< the printed name when !is_local

  static CollectionId Local(uint64_t n);
  static CollectionId Global(std::string name);
  /// `l3` or the global name.
  std::string ToString() const;
  friend bool operator==(const CollectionId&, const CollectionId&) = default;
};

/// Constant: literal rows with multiplicities, or an error.
struct ConstantOp {
  struct Entry {
    Row row;
    int64_t diff = 1;
    friend bool operator==(const Entry&, const Entry&) = default;
  };
  std::vector<Entry> rows;
  /// Set when the constant is an error collection.
  std::optional<std::string> error;
  bool error_redacted = false;  ///< `Error █`
  /// When a printed constant was cut to its first 20 rows: the printed
  /// `total_rows (diffs absed)` value; `rows` then holds only those 20.
  std::optional<int64_t> elided_total_rows;
  /// When the rows are unknown (UnknownFact::kConstantRows: read from the
  /// concise form, which prints only `(N rows)`): the number of `(row,
  /// diff)` entries. `rows` is then empty.
  std::optional<uint64_t> entry_count;
  friend bool operator==(const ConstantOp&, const ConstantOp&) = default;
};

/// How a Get reads its collection.
enum class GetKind { kPassArrangements, kArrangement, kCollection };

/// Get: read a bound collection.
struct GetOp {
  CollectionId id;
  /// The forms in which the collection is available.
  AvailableCollections keys;
  GetKind kind = GetKind::kPassArrangements;
  /// kArrangement: the arrangement read.
  std::vector<ScalarExpr> key;
  /// kArrangement: the single value sought (`val=`), if any.
  std::optional<Row> seek;
  /// kArrangement, kCollection: applied to what is read.
  MapFilterProject mfp;
};

/// Let: bind local `id` to inputs[0] within inputs[1].
struct LetOp {
  uint64_t id = 0;
};

/// Iteration bound of one recursive binding.
struct LetRecLimit {
  uint64_t max_iters = 0;
  bool return_at_limit = false;
  friend bool operator==(const LetRecLimit&, const LetRecLimit&) = default;
};

/// LetRec: mutually recursive bindings; inputs are the values in `ids`
/// order followed by the body.
struct LetRecOp {
  std::vector<uint64_t> ids;
  std::vector<std::optional<LetRecLimit>> limits;  ///< one per id
};

/// Mfp: apply a map-filter-project to the single input.
struct MfpOp {
  MapFilterProject mfp;
  /// The input arrangement read (`input_key=`), if any.
  std::optional<std::vector<ScalarExpr>> input_key;
  /// The single value sought in that arrangement (`input_val=`).
  std::optional<Row> input_val;
};

/// FlatMap: a table function per input row, then `mfp_after`.
struct FlatMapOp {
  /// The function as printed, including any parameters
  /// (`generate_series`, `regexp_extract("re", _)`).
  std::string func;
  std::vector<ScalarExpr> exprs;
  std::optional<std::vector<ScalarExpr>> input_key;
  MapFilterProject mfp_after;
};

/// Closure applied between join stages: a safe MFP plus equivalences that
/// become checkable at this point.
struct JoinClosure {
  MapFilterProject mfp;
  /// `ready_equivalences=`: each class is a list of equal expressions.
  std::vector<std::vector<ScalarExpr>> ready_equivalences;
  friend bool operator==(const JoinClosure&, const JoinClosure&) = default;
};

/// One lookup stage of a linear join or a delta path.
struct JoinStage {
  std::optional<JoinClosure> closure;
  int lookup_relation = 0;
  std::vector<ScalarExpr> lookup_key;
  std::vector<ScalarExpr> stream_key;
  std::vector<int> stream_thinning;
  friend bool operator==(const JoinStage&, const JoinStage&) = default;
};

/// A linear join plan or one delta path: start from `source_relation` (raw,
/// or arranged by `source_key`), then look up each stage in order.
struct JoinPath {
  int source_relation = 0;
  /// nullopt: `raw`.
  std::optional<std::vector<ScalarExpr>> source_key;
  std::optional<JoinClosure> initial_closure;
  std::vector<JoinStage> stages;  ///< in execution order
  std::optional<JoinClosure> final_closure;
  friend bool operator==(const JoinPath&, const JoinPath&) = default;
};

/// Join::Linear (one path) or Join::Delta (one path per input).
struct JoinOp {
  bool delta = false;
  /// Linear: exactly one path. Delta: `plan_path[i]` for each i.
  std::vector<JoinPath> paths;
};

/// An aggregate call: `sum(#1)`, `count(distinct #0)`, `count(*)` (which is
/// `count` over the literal `true`), `array_agg[order_by=[...]](...)`.
struct AggregateExpr {
  std::string func;
  std::optional<std::string> params;  ///< raw text inside `[...]`
  bool distinct = false;
  ScalarExpr expr;
  friend bool operator==(const AggregateExpr&, const AggregateExpr&) = default;
};

/// The reduction strategy.
enum class ReduceKind {
  kDistinct,
  kAccumulable,
  kHierarchicalMonotonic,
  kHierarchicalBucketed,
  kBasicSingle,
  kBasicMultiple,
};

/// Reduce: group by `key_plan`, aggregate `val_plan`, then `mfp_after`.
struct ReduceOp {
  ReduceKind kind = ReduceKind::kDistinct;
  /// kAccumulable: `(position in the output aggregates, aggregate)`.
  std::vector<std::pair<int, AggregateExpr>> simple_aggrs;
  std::vector<std::pair<int, AggregateExpr>> distinct_aggrs;
  /// kHierarchical*: the bare function names (`min`, `max`).
  std::vector<std::string> aggr_funcs;
  /// kHierarchicalMonotonic: whether the input must be consolidated first.
  bool must_consolidate = false;
  /// kHierarchicalBucketed: bucket sizes.
  std::vector<uint64_t> buckets;
  /// kBasicSingle (exactly one) and kBasicMultiple.
  std::vector<AggregateExpr> aggrs;
  /// kBasicSingle: `fused_unnest_list=true`.
  bool fused_unnest_list = false;

  std::optional<std::vector<ScalarExpr>> input_key;
  bool temporal_bucketing = false;
  MapFilterProject key_plan;
  MapFilterProject val_plan;
  MapFilterProject mfp_after;
};

/// The TopK strategy.
enum class TopKKind { kMonotonicTop1, kMonotonicTopK, kBasic };

/// TopK: per group, rows `offset .. offset+limit` in `order_by` order.
struct TopKOp {
  TopKKind kind = TopKKind::kBasic;
  std::vector<int> group_by;
  std::vector<OrderKey> order_by;
  /// kMonotonicTopK, kBasic: the limit expression (absent = unlimited).
  std::optional<ScalarExpr> limit;
  /// kBasic only.
  int64_t offset = 0;
  /// kMonotonic*: whether the input must be consolidated first.
  bool must_consolidate = false;
  bool temporal_bucketing = false;
};

/// Negate: every diff negated.
struct NegateOp {};

/// Threshold::Basic: rows with a positive accumulated count.
struct ThresholdOp {
  ArrangementForm ensure_arrangement;
};

/// Per-input rendering strategy of a Union.
enum class UnionStrategy { kDirect, kTemporalBucketing };

/// Union: multiset sum of the inputs.
struct UnionOp {
  bool consolidate_output = false;
  /// One per input, or empty (all Direct).
  std::vector<UnionStrategy> strategies;
};

/// ArrangeBy: make the input available in `forms` too.
struct ArrangeByOp {
  std::optional<std::vector<ScalarExpr>> input_key;
  bool temporal_bucketing = false;  ///< `strategy=TemporalBucketing`
  MapFilterProject input_mfp;
  AvailableCollections forms;
};

/// SetDifference (this project's fused node, ../shared/reference/SEMANTICS.md
/// section 3): inputs = {base, subtract}; output multiplicity max(0,
/// count_base(r) - count_subtract(r)).
struct SetDifferenceOp {
  ArrangementForm ensure_arrangement;
  std::vector<int> base_key;
  std::vector<int> subtract_key;
};

/// AntiJoin (differential's antijoin, ../shared/reference/SEMANTICS.md 7.1):
/// inputs = {base, keys}; for every base row r,
/// out(r) = base(r) * (1 - sum of keys(s) over rows s = r[key]), with nulls
/// equal to nulls. The keys arm has one column per `key` column.
struct AntiJoinOp {
  /// Base output columns compared with the keys arm's columns, in order.
  std::vector<int> key;
  /// The key of the arrangement the operator reads from each arm, in that
  /// arm's underlying columns (computed as SetDifference's, section 4.3).
  std::vector<int> base_key;
  std::vector<int> keys_key;
};

/// Node kinds, in the order of include/lir/node_kinds.def.
enum class NodeKind {
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) k##Kind,
#include "lir/node_kinds.def"
};

/// The number of node kinds.
inline constexpr size_t kNodeKindCount = 0
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) +1
#include "lir/node_kinds.def"
    ;

/// The inputs a node kind takes (the Shape column of node_kinds.def).
enum class InputShape {
  kLeaf,      ///< no inputs
  kUnary,     ///< exactly one
  kBinary,    ///< exactly two, in order (SetDifference: {base, subtract};
              ///< AntiJoin: {base, keys})
  kVariadic,  ///< one or more (Join relations, Union arms)
  kLet,       ///< {value, body}
  kLetRec,    ///< {values..., body}: one value per bound id, then the body
};

/// Payloads up to this size sit inside the node; larger ones are boxed, so
/// that sizeof(Node) stays small and a walk over 10^6 nodes streams through
/// little memory. Where the payload lives never shows in the API: As<T>()
/// and Is<T>() take the payload type.
inline constexpr size_t kMaxInlinePayloadBytes = 32;

/// How payload T is held in a NodeOp: T itself, or Box<T> when it is large.
template <typename T>
using StoredPayload =
    std::conditional_t<(sizeof(T) > kMaxInlinePayloadBytes), Box<T>, T>;

namespace node_internal {
// Drops the leading placeholder, so that the list below can put a comma
// before every generated alternative.
template <typename Placeholder, typename... Payloads>
struct VariantOfRest {
  using type = std::variant<Payloads...>;
};
}  // namespace node_internal

/// One alternative per node kind, in NodeKind order; large payloads boxed.
using NodeOp = typename node_internal::VariantOfRest<void
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) , StoredPayload<Payload>
#include "lir/node_kinds.def"
                                                     >::type;
static_assert(std::variant_size_v<NodeOp> == kNodeKindCount);

/// The payload type of each kind (`PayloadOf<NodeKind::kReduce>` is ReduceOp).
template <NodeKind K>
struct PayloadOfKind;
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  template <>                                         \
  struct PayloadOfKind<NodeKind::k##Kind> {           \
    using type = Payload;                             \
  };
#include "lir/node_kinds.def"
template <NodeKind K>
using PayloadOf = typename PayloadOfKind<K>::type;

/// The kind of each payload type (`kKindOf<ReduceOp>` is NodeKind::kReduce);
/// undefined for any other type.
template <typename T>
struct KindOfPayload;
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape)    \
  template <>                                            \
  struct KindOfPayload<Payload> {                        \
    static constexpr NodeKind value = NodeKind::k##Kind; \
  };
#include "lir/node_kinds.def"
template <typename T>
inline constexpr NodeKind kKindOf = KindOfPayload<T>::value;

// The enum and the variant agree: each kind's alternative holds its payload.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape)                     \
  static_assert(                                                          \
      std::is_same_v<std::variant_alternative_t<                          \
                         static_cast<size_t>(NodeKind::k##Kind), NodeOp>, \
                     StoredPayload<Payload>>,                             \
      "NodeKind::k" #Kind " and NodeOp disagree");                        \
  static_assert(kKindOf<Payload> == NodeKind::k##Kind);
#include "lir/node_kinds.def"

/// The kind of the payload `op` holds.
inline NodeKind KindOf(const NodeOp& op) {
  return static_cast<NodeKind>(op.index());
}

/// The payload of kind T in `op` (which must hold one).
template <typename T>
T& OpAs(NodeOp& op) {
  auto& stored = std::get<StoredPayload<T>>(op);
  if constexpr (std::is_same_v<StoredPayload<T>, T>) {
    return stored;
  } else {
    return *stored;
  }
}
template <typename T>
const T& OpAs(const NodeOp& op) {
  const auto& stored = std::get<StoredPayload<T>>(op);
  if constexpr (std::is_same_v<StoredPayload<T>, T>) {
    return stored;
  } else {
    return *stored;
  }
}

/// Calls `fn(payload)` with the payload `op` holds, unboxed.
template <typename Fn>
decltype(auto) VisitPayload(const NodeOp& op, Fn&& fn) {
  return std::visit(
      [&](const auto& stored) -> decltype(auto) {
        if constexpr (requires { *stored; }) {
          return fn(*stored);
        } else {
          return fn(stored);
        }
      },
      op);
}

/// The input shape of `kind` (node_kinds.def).
InputShape ShapeOf(NodeKind kind);

/// How many inputs a node takes: `min` to `max` inclusive (max is SIZE_MAX
/// for kVariadic). A LetRec's count follows its payload's bound ids.
struct InputCountRange {
  size_t min = 0;
  size_t max = 0;
  /// Whether `count` inputs are allowed.
  bool Allows(size_t count) const { return count >= min && count <= max; }
  /// True when exactly one count is allowed.
  bool Exact() const { return min == max; }
};

/// The inputs a node with payload `op` must have: the one input-count rule,
/// shared by the parsers, Validate and the walkers.
InputCountRange RequiredInputs(const NodeOp& op);

struct Node;
using NodePtr = std::unique_ptr<Node>;

/// A plan node: its id, its payload and its inputs. Input order per kind:
/// Let {value, body}; LetRec {values..., body}; SetDifference {base,
/// subtract}; AntiJoin {base, keys}; Join/Union the relations in order;
/// others their one input.
/// Destruction is iterative, so arbitrarily deep plans can be dropped.
struct Node {
  LirId id = 0;
  /// The facts of this node that the text it was read from did not show;
  /// empty in a complete plan. A field named by an unknown fact holds a
  /// placeholder (empty, nullopt, false) that no consumer may read as a
  /// fact: RequireKnownFacts (include/lir/partial.h) refuses such plans.
  UnknownFacts unknown;
  NodeOp op;
  std::vector<NodePtr> inputs;

  Node() = default;
  explicit Node(NodeOp op_in) : op(std::move(op_in)) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  ~Node();

  /// The node's kind.
  NodeKind kind() const { return KindOf(op); }
  /// The payload, which must be of type T (check with Is<T>()).
  template <typename T>
  T& As() {
    return OpAs<T>(op);
  }
  template <typename T>
  const T& As() const {
    return OpAs<T>(op);
  }
  /// Whether the payload is of type T.
  template <typename T>
  bool Is() const {
    return kind() == kKindOf<T>;
  }
  /// The payload if it is of type T, else null.
  template <typename T>
  const T* If() const {
    return Is<T>() ? &As<T>() : nullptr;
  }
};

/// Plan nodes stay small: a walk over a big plan touches only the id, the
/// kind and the inputs of each node, and large payloads are boxed.
static_assert(sizeof(Node) <= 96, "box the payload that made Node grow");

/// A new node with `op` and `inputs`; id 0 until ids are assigned.
NodePtr MakeNode(NodeOp op, std::vector<NodePtr> inputs = {});

/// A deep copy of `node` (iterative).
NodePtr Clone(const Node& node);

/// Short human name of a kind: "Constant", "Get", "Threshold", ...
std::string_view KindName(NodeKind kind);

/// The header name as EXPLAIN prints it: "Get::Collection", "Reduce::Basic",
/// "Join::Delta", "With", "Threshold::Basic", ...
std::string HeaderName(const Node& node);

/// Assigns LirIds 1, 2, ... in post-order (inputs before the node, inputs in
/// order), as Materialize allocates them. Iterative.
void AssignPostOrderIds(Node& root);

/// Number of nodes in the tree rooted at `root`. Iterative.
size_t CountNodes(const Node& root);

/// Calls `fn(node)` for every node, inputs before parents. Iterative; null
/// inputs (which only an invalid plan has) are skipped.
template <typename N, typename Fn>
void ForEachPostOrder(N& root, Fn&& fn) {
  struct Frame {
    N* node;
    size_t next;
  };
  std::vector<Frame> stack;
  stack.push_back({&root, 0});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.node->inputs.size()) {
      N* child = top.node->inputs[top.next++].get();
      if (child != nullptr) stack.push_back({child, 0});
      continue;
    }
    N* done = top.node;
    stack.pop_back();
    fn(*done);
  }
}

/// Calls `fn(node, depth)` for every node, parents before inputs, inputs in
/// order. Iterative; null inputs (which only an invalid plan has) are
/// skipped.
template <typename N, typename Fn>
void ForEachPreOrder(N& root, Fn&& fn) {
  std::vector<std::pair<N*, int>> stack;
  stack.push_back({&root, 0});
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    fn(*node, depth);
    for (size_t i = node->inputs.size(); i-- > 0;) {
      if (node->inputs[i] != nullptr) {
        stack.push_back({node->inputs[i].get(), depth + 1});
      }
    }
  }
}

}  // namespace lir

#endif  // LIR_LIR_NODE_H_
