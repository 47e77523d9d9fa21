// The arity (number of columns) of every node's output, as an abstract
// interpretation. Nothing is guessed: a global collection's arity comes from
// the caller or from what the plan text reveals (the layout of an advertised
// arrangement); where nothing reveals it, it stays unknown.
#ifndef LIR_INTERP_ARITY_H_
#define LIR_INTERP_ARITY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "src/interp/interpreter.h"
#include "src/lir/arrangement.h"
#include "src/lir/mfp.h"
#include "src/lir/node.h"

namespace lir::interp {

/// The arity lattice: unknown (bottom) < known n < conflict (top). Two
/// different known arities join to a conflict.
struct Arity {
  enum class State : uint8_t { kUnknown, kKnown, kConflict };
  State state = State::kUnknown;
  int value = 0;  ///< meaningful when kKnown; 0 otherwise

  static Arity Unknown() { return {}; }
  static Arity Known(int n) { return {State::kKnown, n}; }
  static Arity Conflict() { return {State::kConflict, 0}; }
  bool known() const { return state == State::kKnown; }
  /// The arity when known, else nullopt (InferArities' convention).
  std::optional<int> ToOptional() const {
    return known() ? std::optional<int>(value) : std::nullopt;
  }
  friend bool operator==(const Arity&, const Arity&) = default;
};

/// The least upper bound of `a` and `b`.
Arity JoinArity(Arity a, Arity b);

/// `2`, `?` (unknown) or `conflict`.
std::string FormatArity(Arity arity);

/// The arity the layout of `form` (key and thinning) describes, or conflict
/// when the layout is inconsistent.
Arity DescribedArity(const ArrangementForm& form);

/// The output arity of `mfp` applied to `input` columns.
Arity MfpOutputArity(const MapFilterProject& mfp, Arity input);

/// Arities a plan reveals about the collections it reads: for each global
/// name and each local id, the join of the arities its Gets' advertised
/// arrangements describe.
struct RevealedArities {
  std::map<std::string, Arity> globals;
  std::map<uint64_t, Arity> locals;
};

/// Adds what the Gets of `plan` reveal to `*revealed`. Iterative.
void CollectRevealedArities(const Node& plan, RevealedArities* revealed);

/// The arity interpreter. Gets take their collection's arity (a local
/// binding's value, or for a global the caller's `given` arity), joined with
/// what `revealed` and their own advertised arrangements describe; Mfp,
/// FlatMap (for table functions of fixed shape), Join (following the plan's
/// stages and closures), Reduce (key + aggregates, then mfp_after) compute
/// it; ArrangeBy, Threshold and SetDifference join their input with the
/// layouts they carry; Union joins its inputs.
class ArityInterpreter {
 public:
  using Domain = Arity;

  /// `given`: global arities the caller knows; `revealed`: what the plan (or
  /// its document) reveals. Both must outlive the interpreter.
  ArityInterpreter(const std::map<std::string, int>& given,
                   const RevealedArities& revealed)
      : given_(given), revealed_(revealed) {}

  /// The lattice (see the Domain type).
  Domain Top() const { return Arity::Conflict(); }
  Domain Bottom() const { return Arity::Unknown(); }
  Domain Join(const Domain& a, const Domain& b) const { return JoinArity(a, b); }
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  /// Transfer functions, one per node kind (rules in the class comment).
  Domain VisitConstant(const Context<Domain>& ctx, const Node& node,
                       const ConstantOp& op) const;
  Domain VisitGet(const Context<Domain>& ctx, const Node& node,
                  const GetOp& op) const;
  Domain VisitMfp(const Context<Domain>& ctx, const Node& node,
                  const MfpOp& op, const Domain& input) const;
  Domain VisitFlatMap(const Context<Domain>& ctx, const Node& node,
                      const FlatMapOp& op, const Domain& input) const;
  Domain VisitJoin(const Context<Domain>& ctx, const Node& node,
                   const JoinOp& op, std::span<const Domain> inputs) const;
  Domain VisitReduce(const Context<Domain>& ctx, const Node& node,
                     const ReduceOp& op, const Domain& input) const;
  Domain VisitTopK(const Context<Domain>& ctx, const Node& node,
                   const TopKOp& op, const Domain& input) const;
  Domain VisitNegate(const Context<Domain>& ctx, const Node& node,
                     const NegateOp& op, const Domain& input) const;
  Domain VisitThreshold(const Context<Domain>& ctx, const Node& node,
                        const ThresholdOp& op, const Domain& input) const;
  Domain VisitUnion(const Context<Domain>& ctx, const Node& node,
                    const UnionOp& op, std::span<const Domain> inputs) const;
  Domain VisitArrangeBy(const Context<Domain>& ctx, const Node& node,
                        const ArrangeByOp& op, const Domain& input) const;
  Domain VisitSetDifference(const Context<Domain>& ctx, const Node& node,
                            const SetDifferenceOp& op, const Domain& base,
                            const Domain& subtract) const;

 private:
  const std::map<std::string, int>& given_;
  const RevealedArities& revealed_;
};

/// Runs the arity analysis over `plan`, with the given global arities and
/// what `plan` itself reveals.
absl::StatusOr<Analysis<Arity>> AnalyzeArity(
    const Node& plan, const std::map<std::string, int>& given = {});

}  // namespace lir::interp

#endif  // LIR_INTERP_ARITY_H_
