// The `infer` command of the golden tests: what InferPartialFacts
// (include/lir/interp/partial_inference.h) fills in on a partial plan,
// node by node.
#ifndef LIR_TESTS_GOLDEN_INFER_H_
#define LIR_TESTS_GOLDEN_INFER_H_

#include <map>
#include <string>
#include <string_view>

namespace lir::test {

/// Which InferPartialFacts overload runs, if any.
enum class InferMode {
  kDocument,  ///< the Document overload (Source blocks give arities)
  kPlanOnly,  ///< the Node overload on each object's plan alone
  kNone,      ///< none: the plan as read
};

/// Reads `text` (either syntax), validates it, runs InferPartialFacts with
/// `global_arity` as `mode` says and validates again (an inferred fact that
/// contradicts a shown one would not).
///
/// The output starts with `node ids: annotated` when the text had node_id
/// annotations, then lists every node of every object in post-order (the
/// LirIds of a plan without annotations):
///
///     LirId(2) ArrangeBy arity=2 unknown=RawFlag,ArrangeStrategy
///       input_key=none
///       arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }
///
/// The second and later lines are the facts the inference rules fill in
/// (Get forms, input keys, layouts), `?` where the fact is still unknown
/// (`{ key=[#0], layout=? }` for an arrangement whose layout is), and the
/// last line says whether the plan is still partial. A plan that was
/// complete must print byte for byte as before; the output then says
/// `complete: unchanged` (or shows the difference, and the test fails).
std::string RunInferGolden(std::string_view text,
                           const std::map<std::string, int>& global_arity,
                           InferMode mode);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_INFER_H_
