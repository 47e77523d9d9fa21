// The analyses on the corpus of real Materialize plans: every plan analyses,
// arities agree with Validate's inference, computed arrangements agree with
// what the plan text advertises, the relax_must_consolidate pass reproduces
// Materialize's own relaxation, and the fused set-difference rewrite keeps
// the root's monotonicity, arity and forms.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/interp/driver.h"
#include "lir/interp/monotonicity.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/relax_must_consolidate.h"
#include "lir/validate.h"
#include "tests/support/corpus_util.h"

namespace lir::interp {
namespace {

namespace fs = std::filesystem;

using CorpusPlan = test::ParsedPlan;

const std::vector<CorpusPlan>& Corpus() { return test::ParsedPlans(); }

#define SKIP_WITHOUT_CORPUS() LIR_SKIP_WITHOUT_CORPUS(Corpus().empty())

// The analysis of a corpus plan with no inputs, run once per plan and
// binary (the tests below read it in different ways).
const absl::StatusOr<DocumentAnalysis>& AnalysisOf(const CorpusPlan& plan) {
  static auto* analyses =
      new std::map<const CorpusPlan*, absl::StatusOr<DocumentAnalysis>>();
  auto it = analyses->find(&plan);
  if (it == analyses->end()) {
    it = analyses
             ->emplace(&plan, DocumentAnalysis::Run(plan.doc, AnalysisInputs()))
             .first;
  }
  return it->second;
}

TEST(AnalysisCorpus, EveryPlanAnalyses) {
  SKIP_WITHOUT_CORPUS();
  size_t nodes = 0;
  for (const CorpusPlan& plan : Corpus()) {
    const absl::StatusOr<DocumentAnalysis>& analysis = AnalysisOf(plan);
    ASSERT_TRUE(analysis.ok()) << plan.name << ": " << analysis.status();
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        ++nodes;
        EXPECT_NE(analysis->ArityOf(node), nullptr) << plan.name;
        EXPECT_NE(analysis->MonotonicOf(node), nullptr) << plan.name;
        ASSERT_NE(analysis->FormsOf(node), nullptr) << plan.name;
        EXPECT_FALSE(analysis->FormsOf(node)->everything) << plan.name;
      });
    }
  }
  EXPECT_GT(nodes, 800u);
}

/// Nodes inside the values of some LetRec of `plan`.
std::set<const Node*> InRecursiveValues(const Node& plan) {
  std::set<const Node*> inside;
  ForEachPreOrder(plan, [&](const Node& node, int) {
    const bool outer = inside.count(&node) > 0;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const bool value = node.Is<LetRecOp>() && i + 1 < node.inputs.size();
      if (outer || value) inside.insert(node.inputs[i].get());
    }
  });
  return inside;
}

// Validate infers arities in one pass; the fixpoint can know more inside
// LetRec values (a binding read before its value is checked). Everywhere
// else the two agree exactly.
TEST(AnalysisCorpus, ArityAgreesWithValidate) {
  SKIP_WITHOUT_CORPUS();
  size_t known = 0, unknown = 0, refined = 0;
  for (const CorpusPlan& plan : Corpus()) {
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      const std::set<const Node*> recursive = InRecursiveValues(*object.plan);
      absl::StatusOr<std::map<LirId, std::optional<int>>> inferred =
          InferArities(*object.plan);
      ASSERT_TRUE(inferred.ok()) << plan.name << ": " << inferred.status();
      absl::StatusOr<Analysis<Arity>> computed = AnalyzeArity(*object.plan);
      ASSERT_TRUE(computed.ok()) << plan.name << ": " << computed.status();
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        const Arity* arity = computed->Find(node);
        ASSERT_NE(arity, nullptr);
        EXPECT_NE(arity->state, Arity::State::kConflict)
            << plan.name << " LirId(" << node.id << ")";
        const std::optional<int> expected = inferred->at(node.id);
        if (!expected.has_value() && arity->known() &&
            recursive.count(&node) > 0) {
          ++refined;
        } else {
          EXPECT_EQ(arity->ToOptional(), expected)
              << plan.name << " " << object.name << " LirId(" << node.id << ") "
              << HeaderName(node);
        }
        (arity->known() ? known : unknown)++;
      });
    }
  }
  EXPECT_GT(known, unknown);
  // relax_must_consolidate-L1141 reads l0 inside its own value.
  EXPECT_GT(refined, 0u);
}

/// The forms an AvailableCollections advertises, as the analysis spells them.
bool SameAsAdvertised(const AvailableForms& computed,
                      const AvailableCollections& advertised) {
  return SameForms(computed, AvailableForms::Of(advertised));
}

TEST(AnalysisCorpus, ArrangementsAgreeWithWhatThePlanAdvertises) {
  SKIP_WITHOUT_CORPUS();
  size_t gets = 0, local_gets = 0, arrange_bys = 0;
  for (const CorpusPlan& plan : Corpus()) {
    const absl::StatusOr<DocumentAnalysis>& analysis = AnalysisOf(plan);
    ASSERT_TRUE(analysis.ok()) << plan.name << ": " << analysis.status();
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      // Local ids are unique within a corpus plan: what each binds.
      std::map<uint64_t, const Node*> let_values;
      std::set<uint64_t> recursive;
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        if (node.Is<LetOp>()) {
          let_values[node.As<LetOp>().id] = node.inputs[0].get();
        }
        if (node.Is<LetRecOp>()) {
          for (uint64_t id : node.As<LetRecOp>().ids) recursive.insert(id);
        }
      });
      ForEachPostOrder(*object.plan, [&](const Node& node) {
        const AvailableForms& computed = *analysis->FormsOf(node);
        const std::string where =
            absl::StrCat(plan.name, " ", object.name, " LirId(", node.id, ") ",
                         HeaderName(node));
        if (node.Is<GetOp>()) {
          ++gets;
          const GetOp& get = node.As<GetOp>();
          // The collection's forms, as the analysis knows them.
          AvailableForms collection = AvailableForms::Of(get.keys);
          if (get.id.is_local) {
            ++local_gets;
            if (recursive.count(get.id.local) > 0) {
              collection = AvailableForms::Raw();
            } else {
              collection = *analysis->FormsOf(*let_values.at(get.id.local));
            }
          }
          EXPECT_TRUE(SameAsAdvertised(collection, get.keys))
              << where << ": binding " << FormatForms(collection);
          if (get.kind == GetKind::kPassArrangements) {
            EXPECT_TRUE(SameAsAdvertised(computed, get.keys))
                << where << ": computed " << FormatForms(computed);
          } else {
            EXPECT_TRUE(SameForms(computed, AvailableForms::Raw())) << where;
          }
        }
        if (node.Is<ArrangeByOp>()) {
          ++arrange_bys;
          const ArrangeByOp& arrange = node.As<ArrangeByOp>();
          // Everything the ArrangeBy advertises is available...
          if (arrange.forms.raw) EXPECT_TRUE(computed.raw) << where;
          for (const ArrangementForm& form : arrange.forms.arranged) {
            EXPECT_TRUE(computed.HasKey(form.key)) << where;
          }
          // ...and so is everything its input offered.
          const AvailableForms& input = *analysis->FormsOf(*node.inputs[0]);
          if (input.raw) EXPECT_TRUE(computed.raw) << where;
          for (const auto& key : input.arranged) {
            EXPECT_TRUE(computed.HasKey(*key)) << where;
          }
        }
      });
    }
  }
  EXPECT_GT(gets, 200u);
  EXPECT_GT(local_gets, 20u);
  EXPECT_GT(arrange_bys, 50u);
}

/// Sets must_consolidate on every relaxation candidate; returns how many
/// were off.
int ForceConsolidation(Document& doc) {
  int cleared = 0;
  for (Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](Node& node) {
      if (!IsRelaxCandidate(node)) return;
      bool& flag = node.Is<ReduceOp>() ? node.As<ReduceOp>().must_consolidate
                                       : node.As<TopKOp>().must_consolidate;
      if (!flag) ++cleared;
      flag = true;
    });
  }
  return cleared;
}

// Materialize's EXPLAIN of a SELECT (a document whose one object is
// `Explained Query`) shows the plan after its own relaxation: peeks are
// single-time dataflows. Forcing must_consolidate back on everywhere and
// running the pass must give back the printed plan exactly.
TEST(AnalysisCorpus, RelaxationReproducesMaterializeOnPeeks) {
  SKIP_WITHOUT_CORPUS();
  OptimizerFeatures features;
  features.enable_relax_must_consolidate = true;
  // The insert-only sources the peeks read (monotonic.slt's counter is a
  // load generator); everything else is an ordinary table.
  const std::map<std::string, std::set<std::string>> monotonic_sources = {
      {"monotonic-L204.plan", {"materialize.public.counter"}},
  };
  int plans = 0, restored = 0;
  for (const CorpusPlan& plan : Corpus()) {
    if (plan.doc.objects.size() != 1 ||
        plan.doc.objects[0].name != "Explained Query") {
      continue;
    }
    AnalysisInputs inputs;
    inputs.single_time = true;
    if (auto it = monotonic_sources.find(plan.name);
        it != monotonic_sources.end()) {
      inputs.monotonic_ids = it->second;
    }
    ++plans;
    Document forced = Clone(plan.doc);
    const int cleared = ForceConsolidation(forced);
    absl::StatusOr<OptimizeResult> result =
        Optimize(std::move(forced), features, inputs);
    ASSERT_TRUE(result.ok()) << plan.name << ": " << result.status();
    EXPECT_EQ(explain::PrintText(result->document), plan.text) << plan.name;
    int fired = 0;
    for (const Candidate& c : result->report.candidates) {
      if (c.outcome == CandidateOutcome::kFired) ++fired;
    }
    EXPECT_EQ(fired, cleared) << plan.name;
    restored += cleared;
  }
  EXPECT_GE(plans, 50);
  EXPECT_GT(restored, 10);
}

/// Root results of every object of `doc`, by object name.
struct RootResults {
  std::map<std::string, Arity> arity;
  std::map<std::string, bool> monotonic;
  std::map<std::string, std::string> forms;
};

RootResults Roots(const Document& doc, const AnalysisInputs& inputs) {
  RootResults roots;
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, inputs);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return roots;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    roots.arity[object.name] = *analysis->ArityOf(*object.plan);
    roots.monotonic[object.name] =
        analysis->MonotonicOf(*object.plan)->monotonic;
    roots.forms[object.name] = FormatForms(*analysis->FormsOf(*object.plan));
  }
  return roots;
}

/// Every global a document reads.
std::set<std::string> Globals(const Document& doc) {
  std::set<std::string> globals;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      if (node.Is<GetOp>() && !node.As<GetOp>().id.is_local) {
        globals.insert(node.As<GetOp>().id.global);
      }
    });
  }
  return globals;
}

TEST(AnalysisCorpus, FusedSetDifferenceKeepsRootResults) {
  SKIP_WITHOUT_CORPUS();
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;
  int fired_plans = 0;
  for (const CorpusPlan& plan : Corpus()) {
    absl::StatusOr<OptimizeResult> result = Optimize(Clone(plan.doc), features);
    ASSERT_TRUE(result.ok()) << plan.name;
    bool fired = false;
    for (const Candidate& c : result->report.candidates) {
      fired = fired || c.outcome == CandidateOutcome::kFired;
    }
    if (!fired) continue;
    ++fired_plans;
    // Once with no monotonic inputs, once with every global monotonic.
    AnalysisInputs none;
    AnalysisInputs all;
    all.monotonic_ids = Globals(plan.doc);
    for (const AnalysisInputs* inputs : {&none, &all}) {
      RootResults before = Roots(plan.doc, *inputs);
      RootResults after = Roots(result->document, *inputs);
      EXPECT_EQ(before.arity, after.arity) << plan.name;
      EXPECT_EQ(before.monotonic, after.monotonic) << plan.name;
      EXPECT_EQ(before.forms, after.forms) << plan.name;
    }
  }
  EXPECT_GT(fired_plans, 0);
}

}  // namespace
}  // namespace lir::interp
