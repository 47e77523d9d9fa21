// Optimize: every registered pass over a document, and with the report on
// the dry runs of disabled passes and the arrangement accounting before
// and after.
#include "lir/recognizer/optimize.h"

#include <optional>
#include <utility>
#include <vector>

#include "lir/interp/arrangements_built.h"
#include "lir/status_macros.h"

namespace lir {

namespace {

// The accounting of every object's plan, as its Gets read the collections.
std::vector<std::optional<interp::ArrangementCount>> CountArrangements(
    const Document& doc, const interp::AnalysisInputs& inputs) {
  interp::AnalysisInputs seen = inputs;
  seen.global_arity = interp::GlobalAritiesSeenByGets(doc, inputs.global_arity);
  std::vector<std::optional<interp::ArrangementCount>> counts;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    absl::StatusOr<interp::ArrangementCount> count =
        interp::CountArrangementsBuilt(*object.plan, seen);
    counts.push_back(count.ok() ? std::optional(*count) : std::nullopt);
  }
  return counts;
}

}  // namespace

absl::StatusOr<OptimizeResult> Optimize(Document doc,
                                        const OptimizerFeatures& features,
                                        const interp::AnalysisInputs& inputs,
                                        const OptimizeOptions& options) {
  OptimizeResult result;
  std::vector<std::optional<interp::ArrangementCount>> before;
  if (options.report) before = CountArrangements(doc, inputs);
  for (const PassEntry& entry : AllPasses()) {
    const bool enabled = features.*(entry.enabled);
    // Every registered pass is listed, so a report always shows what could
    // have run and whether it did.
    PassRun& run = result.report.passes.emplace_back();
    run.name = std::string(entry.name);
    run.feature = std::string(entry.feature);
    run.enabled = enabled;
    // A disabled pass only ever reports: without a report it has nothing
    // to do, and skipping it skips its walk and its analyses.
    if (!enabled && !options.report) continue;
    PassContext ctx;
    ctx.apply = enabled;
    ctx.pass_name = run.name;
    ctx.report = options.report ? &result.report : nullptr;
    ctx.inputs = inputs;
    ctx.work = &run.work;
    LIR_RETURN_IF_ERROR(entry.function(doc, ctx));
  }
  if (options.report) {
    // Passes keep the objects (and which have plans), so the two lists align.
    const std::vector<std::optional<interp::ArrangementCount>> after =
        CountArrangements(doc, inputs);
    size_t i = 0;
    for (const Object& object : doc.objects) {
      if (object.plan == nullptr) continue;
      result.report.objects.push_back(
          {object.name, i < before.size() ? before[i] : std::nullopt,
           i < after.size() ? after[i] : std::nullopt});
      ++i;
    }
  }
  result.document = std::move(doc);
  return result;
}

}  // namespace lir
