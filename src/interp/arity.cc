// The arity interpreter's transfer functions: the rules of include/lir/arity.h.
#include "lir/interp/arity.h"

#include <utility>
#include <vector>

#include "lir/interp/driver.h"

namespace lir::interp {

void CollectRevealedArities(const Node& plan, RevealedArities* revealed) {
  // Null inputs are skipped here; the driver reports them.
  ForEachPreOrder(plan, [&](const Node& node, int) {
    const GetOp* get = node.If<GetOp>();
    if (get == nullptr || get->keys.arranged.empty()) return;
    Arity described = Arity::Unknown();
    for (const ArrangementForm& form : get->keys.arranged) {
      described = JoinArity(described, DescribedArity(form));
    }
    Arity& slot = get->id.is_local ? revealed->locals[get->id.local]
                                   : revealed->globals[get->id.global];
    slot = JoinArity(slot, described);
  });
}

Arity ArityInterpreter::VisitConstant(const Context<Arity>&, const Node& node,
                                      const ConstantOp&) const {
  return NodeOutputArity(node, {});
}

Arity ArityInterpreter::VisitGet(const Context<Arity>& ctx, const Node&,
                                 const GetOp& op) const {
  Arity arity = Arity::Unknown();
  if (op.id.is_local) {
    if (const Binding<Arity>* binding = ctx.Find(op.id.local)) {
      arity = binding->value;
    }
    auto it = revealed_.locals.find(op.id.local);
    if (it != revealed_.locals.end()) arity = JoinArity(arity, it->second);
  } else {
    auto given = given_.find(op.id.global);
    if (given != given_.end()) arity = Arity::Known(given->second);
    auto it = revealed_.globals.find(op.id.global);
    if (it != revealed_.globals.end()) arity = JoinArity(arity, it->second);
  }
  return GetOutputArity(op, arity);
}

Arity ArityInterpreter::VisitMfp(const Context<Arity>&, const Node& node,
                                 const MfpOp&, const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitFlatMap(const Context<Arity>&, const Node& node,
                                     const FlatMapOp&,
                                     const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitJoin(const Context<Arity>&, const Node& node,
                                  const JoinOp&,
                                  std::span<const Arity> inputs) const {
  return NodeOutputArity(node, inputs);
}

Arity ArityInterpreter::VisitReduce(const Context<Arity>&, const Node& node,
                                    const ReduceOp&, const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitTopK(const Context<Arity>&, const Node& node,
                                  const TopKOp&, const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitNegate(const Context<Arity>&, const Node& node,
                                    const NegateOp&, const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitThreshold(const Context<Arity>&, const Node& node,
                                       const ThresholdOp&,
                                       const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitUnion(const Context<Arity>&, const Node& node,
                                   const UnionOp&,
                                   std::span<const Arity> inputs) const {
  return NodeOutputArity(node, inputs);
}

Arity ArityInterpreter::VisitArrangeBy(const Context<Arity>&, const Node& node,
                                       const ArrangeByOp&,
                                       const Arity& input) const {
  return NodeOutputArity(node, {&input, 1});
}

Arity ArityInterpreter::VisitSetDifference(const Context<Arity>&,
                                           const Node& node,
                                           const SetDifferenceOp&,
                                           const Arity& base,
                                           const Arity& subtract) const {
  const Arity inputs[] = {base, subtract};
  return NodeOutputArity(node, inputs);
}

Arity ArityInterpreter::VisitAntiJoin(const Context<Arity>&, const Node& node,
                                      const AntiJoinOp&, const Arity& base,
                                      const Arity& keys) const {
  const Arity inputs[] = {base, keys};
  return NodeOutputArity(node, inputs);
}

std::map<std::string, int> GlobalAritiesSeenByGets(
    const Document& doc, const std::map<std::string, int>& given) {
  std::map<std::string, int> seen = given;
  for (const SourceBlock& block : doc.sources) {
    auto it = seen.find(block.name);
    if (it != seen.end()) {
      it->second = block.mfp.OutputArity(it->second);
    } else if (block.mfp.project.has_value()) {
      // The projection alone fixes what Gets see, whatever the
      // collection's own arity.
      seen[block.name] = static_cast<int>(block.mfp.project->size());
    }
  }
  return seen;
}

absl::StatusOr<Analysis<Arity>> AnalyzeArity(
    const Node& plan, const std::map<std::string, int>& given) {
  RevealedArities revealed;
  CollectRevealedArities(plan, &revealed);
  return Analyze(ArityInterpreter(given, std::move(revealed)), plan);
}

}  // namespace lir::interp
