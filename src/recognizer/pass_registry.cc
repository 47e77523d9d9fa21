// The pass registry: one row per rewrite pass, in pipeline order. It sits
// above the passes it lists; each pass's file knows nothing of the others.
#include <vector>

#include "lir/recognizer/antijoin.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/relax_must_consolidate.h"

namespace lir {

const std::vector<PassEntry>& AllPasses() {
  // Adding a rewrite: one file with its pass class and decline codes, plus
  // one row here (see the pass_driver.h header comment).
  static const auto* const kPasses = new std::vector<PassEntry>{
      // Before the fused set difference: an anti-side the antijoin declines
      // (its arms are not sets, or its output arrangement is read) can
      // still fuse (SEMANTICS 7.2).
      {AntiJoinPass::kName, "enable_antijoin_rendering",
       &OptimizerFeatures::enable_antijoin_rendering, &AntiJoinRenderingPass},
      {FusedSetDifference::kName, "enable_fused_set_difference",
       &OptimizerFeatures::enable_fused_set_difference,
       &FusedSetDifferencePass},
      {RelaxMustConsolidate::kName, "enable_relax_must_consolidate",
       &OptimizerFeatures::enable_relax_must_consolidate,
       &RelaxMustConsolidatePass},
  };
  return *kPasses;
}

}  // namespace lir
