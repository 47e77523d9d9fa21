// Deterministic generation of valid LIR plans of a requested size and shape,
// for benchmarks and property tests.
#ifndef LIR_TESTS_SUPPORT_PLAN_GENERATOR_H_
#define LIR_TESTS_SUPPORT_PLAN_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lir/document.h"
#include "lir/node.h"
#include "lir/validate.h"

namespace lir::test {

/// The overall form of a generated plan.
enum class PlanShape {
  /// One chain of unary nodes over a single Get: ArrangeBy (all columns),
  /// Threshold::Basic, Mfp (a column permutation), Negate, repeated. Exactly
  /// `node_count` nodes; depth `node_count`.
  kDeepChain,
  /// One Union whose inputs are `node_count - 1` Get leaves.
  kWideUnion,
  /// `(node_count - 1) / 2` nested Lets `l0, l1, ...`, each value a single
  /// Get reading the previous binding (l0 reads a global), the innermost body
  /// reading the last binding. The printer folds them into one With.
  kLetChain,
  /// A bushy, realistic mix of every kind the lowering produces (Constant,
  /// Get of all three kinds, Mfp, Join::Linear and Join::Delta with stages
  /// and closures, every Reduce variant, every TopK variant, Negate,
  /// EXCEPT-shaped Threshold::Basic, Union, ArrangeBy, Let) with roughly
  /// `node_count` nodes and depth O(log node_count).
  kMixed,
};

/// Why a generated EXCEPT shape should or should not be fused into a
/// SetDifference (../shared/reference/SEMANTICS.md section 4); each variant
/// fails exactly one recognizer check, or none (ExpectedDeclineCode in
/// except_decline_codes.h names the code, at the recognizer's layer).
enum class ExceptVariant {
  kFires,                    ///< both arms co-arranged on the threshold key
  kNotCoArranged,            ///< one arm reads a collection raw
  kNonProjectionMfp,         ///< one arm is an Mfp with a filter
  kKeyRemappedByProjection,  ///< an arm's projection moves the key columns
  kArmNotGetOrArrangeBy,  ///< one arm is a Reduce (neither Get nor ArrangeBy)
  kNotTwoArmUnion,        ///< the Union has three arms
  kNotOneNegatedArm,      ///< no arm is negated
};

/// What to generate. Everything is a pure function of these fields.
struct PlanGeneratorOptions {
  uint64_t seed = 1;
  /// Requested number of nodes (at least 1; kLetChain needs 3 for one Let).
  /// Exact for kDeepChain and kWideUnion, within one for kLetChain, and
  /// within about 1% for kMixed (plus any EXCEPT shapes it had to append).
  size_t node_count = 1000;
  PlanShape shape = PlanShape::kMixed;
  /// kMixed: how many EXCEPT shapes, Threshold::Basic(ArrangeBy(Union(
  /// Negate(subtract), base))) and variants, to place. nullopt: about one per
  /// 150 nodes. Every Threshold::Basic of a kMixed plan is one of these.
  std::optional<size_t> except_candidates;
  /// kMixed: the fraction of EXCEPT shapes that are kFires; the others cycle
  /// through the declining variants.
  double except_fire_fraction = 0.5;
  /// Probability that a column reference in a map/filter/aggregate
  /// expression or a single-column key carries a name (`#0{a}`).
  double column_name_probability = 0.3;
  /// kMixed: holes this deep become leaves, so no node nests deeper than
  /// this plus the few levels of one join input or EXCEPT shape.
  int max_depth = 200;
};

/// One EXCEPT shape of a generated plan and the outcome it is built for.
struct ExceptCandidate {
  LirId threshold_id = 0;  ///< the Threshold::Basic node
  ExceptVariant variant = ExceptVariant::kFires;
};

/// A generated plan and what a validator needs to know about it.
struct GeneratedPlan {
  NodePtr plan;  ///< LirIds assigned in post-order
  /// Arities of every global collection the generator may read.
  ValidateOptions validate_options;
  /// kMixed: the EXCEPT shapes, in post-order of their Threshold nodes.
  std::vector<ExceptCandidate> except_candidates;
};

/// Generates a plan. Deterministic: equal options give equal plans on every
/// platform (std::mt19937_64 drawn through the generator's own integer
/// mapping, not the platform's distributions). Iterative: no recursion
/// proportional to plan depth.
GeneratedPlan GeneratePlan(const PlanGeneratorOptions& options);

/// A document with one object `Explained Query` holding `plan` and the line
/// `Target cluster: <target_cluster>`.
Document WrapInDocument(NodePtr plan,
                        std::string target_cluster = "quickstart");

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_PLAN_GENERATOR_H_
