// A SQL compiler's view of lir, using only the installed package: lower
// `SELECT a FROM t1 EXCEPT SELECT a FROM t2` to LIR with PlanBuilder, read
// the optimizer features from a JSON config, run lir's pipeline (validate,
// optimize, validate, annotate, print) and print EXPLAIN and the rewrite
// report. Any error is printed to stderr and the exit status is 1.
//
//   lir_consumer CONFIG.json
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lir/arrangement.h"
#include "lir/document.h"
#include "lir/pipeline/pipeline.h"
#include "lir/plan_builder.h"
#include "lir/recognizer/report.h"

namespace {

// One arm of EXCEPT: SELECT DISTINCT a, arranged by the row (`input_key`),
// as Materialize lowers it.
lir::PlanBuilder DistinctArranged(lir::PlanBuilder input) {
  lir::ArrangeByOp arrange;
  arrange.input_key = lir::ColumnKey({0});
  arrange.forms = lir::PlanBuilder::Raw();
  return std::move(input).Distinct().ArrangeBy(std::move(arrange));
}

// t1(a, b) has an index on a; t2 is read as a raw collection.
absl::StatusOr<lir::Document> LowerExcept() {
  using lir::PlanBuilder;
  using lir::ScalarExpr;
  const lir::ArrangementForm by_row = lir::MakeColumnArrangement({0}, 1);
  const lir::AvailableCollections t1_index = PlanBuilder::Arranged(
      {lir::MakeArrangement({ScalarExpr::Column(0, "a")}, 2)});
  PlanBuilder t1 = PlanBuilder::GetArrangement(
      lir::CollectionId::Global("materialize.public.t1"), t1_index,
      {ScalarExpr::Column(0, "a")}, PlanBuilder::Project({0}));
  PlanBuilder t2 = PlanBuilder::GetCollection(
      lir::CollectionId::Global("materialize.public.t2"), PlanBuilder::Raw());
  std::vector<PlanBuilder> arms;
  arms.push_back(DistinctArranged(std::move(t1)));
  arms.push_back(DistinctArranged(std::move(t2)).Negate());
  absl::StatusOr<lir::NodePtr> plan =
      PlanBuilder::Union(std::move(arms), {.consolidate_output = true})
          .ArrangeBy(PlanBuilder::Arranged({by_row}))
          .Threshold(by_row)
          // Build() numbers the nodes in post-order and validates.
          .Build({.global_arity = {{"materialize.public.t1", 2}}});
  if (!plan.ok()) return plan.status();

  lir::Document doc;
  lir::Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = *std::move(plan);
  lir::SourceBlock& source = doc.sources.emplace_back();
  source.name = "materialize.public.t2";
  source.mfp.project = std::vector<int>{0};
  doc.used_indexes = std::vector<lir::UsedIndex>{
      {"materialize.public.t1_a_idx", {"*** full scan ***"}}};
  doc.target_cluster = "quickstart";
  return doc;
}

int Fail(const absl::Status& status) {
  std::cerr << "lir_consumer: " << status.message() << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: lir_consumer CONFIG.json\n";
    return 1;
  }
  const std::string config_path = argv[1];
  std::ifstream config_file(config_path, std::ios::binary);
  if (!config_file) {
    return Fail(absl::NotFoundError(config_path + ": cannot open"));
  }
  std::stringstream config_text;
  config_text << config_file.rdbuf();

  absl::StatusOr<lir::Document> doc = LowerExcept();
  if (!doc.ok()) return Fail(doc.status());

  lir::PipelineOptions options;
  // What the compiler's catalog knows: the tables' arities, for the
  // analyses (Build() above got t1's for validation).
  options.inputs.global_arity = {{"materialize.public.t1", 2},
                                 {"materialize.public.t2", 1}};
  options.annotate.arity = true;
  options.annotate.arrangements_built = true;
  lir::Pipeline pipeline(std::move(options));
  // `{"features": {"enable_fused_set_difference": true}}`; errors are
  // located as `config.json:1:47: ...`.
  if (absl::Status status =
          pipeline.ApplyConfigText(config_text.str(), config_path);
      !status.ok()) {
    return Fail(status);
  }
  std::cout << "features: "
            << lir::FeaturesToString(pipeline.options().features) << "\n\n";

  absl::StatusOr<lir::PipelineResult> result =
      pipeline.Run(*std::move(doc), "lowered EXCEPT");
  if (!result.ok()) return Fail(result.status());
  std::cout << result->output << "\n"
            << lir::PrintCandidates(result->report) << "\n"
            << lir::PrintArrangementTotals(result->report);
  return 0;
}
