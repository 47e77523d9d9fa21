// Abstract interpretation of LIR plans: what an interpreter is (a lattice
// domain plus one transfer function per node kind), the context the driver
// hands to transfer functions, and the per-node results it returns.
//
// The driver (include/lir/interp/driver.h) owns Let and LetRec: it binds,
// unbinds and iterates recursive bindings to a fixpoint
// (../shared/reference/SEMANTICS.md section 5), so an interpreter only says
// what every other node kind computes from its inputs.
#ifndef LIR_INTERP_INTERPRETER_H_
#define LIR_INTERP_INTERPRETER_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "lir/node.h"

namespace lir::interp {

/// LetRec fixpoints give up after this many rounds (Materialize's
/// MAX_LET_REC_ITERATIONS), or earlier at the smallest `recursion_limit`.
inline constexpr uint64_t kMaxLetRecRounds = 100;

/// A local binding visible to a transfer function.
template <typename D>
struct Binding {
  D value;
  /// Bound by a LetRec (in its values and its body): the value is an
  /// iterate of a fixpoint, not a finished collection.
  bool recursive = false;
};

/// What a transfer function may ask about where its node sits.
template <typename D>
class Context {
 public:
  /// True inside the values of a LetRec (at any depth): the node's output
  /// changes from round to round. A LetRec body is outside (unless the LetRec
  /// itself is inside another LetRec's values).
  bool recursive() const { return recursive_; }

  /// The binding of local `l<id>`, or null when it is not bound here.
  const Binding<D>* Find(uint64_t id) const {
    auto it = bindings_.find(id);
    return it == bindings_.end() ? nullptr : &it->second;
  }

 private:
  template <typename I>
  friend class Driver;

  absl::flat_hash_map<uint64_t, Binding<D>> bindings_;
  bool recursive_ = false;
};

// The transfer function each input shape (include/lir/node_kinds.def) implies:
// `Visit<Kind>(ctx, node, payload, ...)` followed by nothing for a leaf, the
// input's value for a unary node, both values for a binary one and a span of
// values for a variadic one. Let and LetRec are scopes: no transfer function.
#define LIR_INTERP_REQUIRE_kLeaf(Kind, Payload)       \
  {                                                   \
    interp.Visit##Kind(ctx, node, node.As<Payload>()) \
    } -> std::same_as<typename I::Domain>;
#define LIR_INTERP_REQUIRE_kUnary(Kind, Payload)         \
  {                                                      \
    interp.Visit##Kind(ctx, node, node.As<Payload>(), d) \
    } -> std::same_as<typename I::Domain>;
#define LIR_INTERP_REQUIRE_kBinary(Kind, Payload)           \
  {                                                         \
    interp.Visit##Kind(ctx, node, node.As<Payload>(), d, d) \
    } -> std::same_as<typename I::Domain>;
#define LIR_INTERP_REQUIRE_kVariadic(Kind, Payload)       \
  {                                                       \
    interp.Visit##Kind(ctx, node, node.As<Payload>(), ds) \
    } -> std::same_as<typename I::Domain>;
#define LIR_INTERP_REQUIRE_kLet(Kind, Payload)
#define LIR_INTERP_REQUIRE_kLetRec(Kind, Payload)

// The declarations of those transfer functions, for an interpreter class
// with a `Domain` type: inside the class, defining LIR_NODE_KIND(Kind,
// Payload, JsonName, Shape) as LIR_INTERP_DECLARE_##Shape(Kind, Payload) and
// including include/lir/node_kinds.def declares one `Visit<Kind>` per kind, so
// a new kind is declared everywhere at once and the linker names each
// interpreter that lacks its definition.
#define LIR_INTERP_DECLARE_kLeaf(Kind, Payload)                    \
  Domain Visit##Kind(const Context<Domain>& ctx, const Node& node, \
                     const Payload& op) const;
#define LIR_INTERP_DECLARE_kUnary(Kind, Payload)                   \
  Domain Visit##Kind(const Context<Domain>& ctx, const Node& node, \
                     const Payload& op, const Domain& input) const;
#define LIR_INTERP_DECLARE_kBinary(Kind, Payload)                  \
  Domain Visit##Kind(const Context<Domain>& ctx, const Node& node, \
                     const Payload& op, const Domain& first,       \
                     const Domain& second) const;
#define LIR_INTERP_DECLARE_kVariadic(Kind, Payload)                \
  Domain Visit##Kind(const Context<Domain>& ctx, const Node& node, \
                     const Payload& op, std::span<const Domain> inputs) const;
#define LIR_INTERP_DECLARE_kLet(Kind, Payload)
#define LIR_INTERP_DECLARE_kLetRec(Kind, Payload)

/// An abstract interpreter: a bounded lattice `Domain` (Top, Bottom, Join,
/// Equal) and one transfer function `Visit<Kind>` per node kind other than
/// Let and LetRec, which the driver handles; its arguments follow the kind's
/// input shape (above). Transfer functions receive the node too, so they may
/// read its payload and look at its input nodes.
template <typename I>
concept Interpreter = requires(const I& interp,
                               const Context<typename I::Domain>& ctx,
                               const Node& node, const typename I::Domain& d,
                               std::span<const typename I::Domain> ds) {
  typename I::Domain;
  { interp.Top() } -> std::same_as<typename I::Domain>;
  { interp.Bottom() } -> std::same_as<typename I::Domain>;
  { interp.Join(d, d) } -> std::same_as<typename I::Domain>;
  { interp.Equal(d, d) } -> std::convertible_to<bool>;
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_REQUIRE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"
};

/// How the fixpoint of one LetRec ended (for the last time it was evaluated,
/// when it sits inside another LetRec's values).
struct LetRecOutcome {
  /// Evaluation rounds of the values before the fixpoint ended (not counting
  /// the extra pass after a give-up, see `hit_limit`).
  uint64_t rounds = 0;
  /// The values were still changing after `limit` rounds: every binding was
  /// set to top and the values evaluated once more with those bindings.
  bool hit_limit = false;
  /// min(kMaxLetRecRounds, smallest recursion_limit).
  uint64_t limit = 0;
};

/// The result of interpreting a plan: the root's value and every node's.
/// A node inside LetRec values holds its value from the final evaluation
/// (with the converged bindings, or with top after a give-up). Node pointers
/// identify nodes, so the results of every object of a document can share
/// one map.
template <typename D>
struct Analysis {
  D root{};
  absl::flat_hash_map<const Node*, D> nodes;
  absl::flat_hash_map<const Node*, LetRecOutcome> let_recs;
  /// Transfer-function calls, counting re-evaluations inside fixpoints.
  uint64_t evaluations = 0;

  /// The value of `node`, or null if it is not part of the analyzed plan.
  const D* Find(const Node& node) const {
    auto it = nodes.find(&node);
    return it == nodes.end() ? nullptr : &it->second;
  }
};

}  // namespace lir::interp

#endif  // LIR_INTERP_INTERPRETER_H_
