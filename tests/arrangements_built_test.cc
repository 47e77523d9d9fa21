// Arrangement accounting (include/lir/interp/arrangements_built.h) through
// its API: the lattice, key text and the annotation fields. What each node
// kind builds, the totals and the equality with what the evaluator's
// incremental engine lists are goldens (testdata/analysis/built.txt, the
// `built` directive; the corpus: arrangements_built_corpus_test.cc).
#include "lir/interp/arrangements_built.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/driver.h"
#include "tests/support/parse_or_die.h"

namespace lir::interp {
namespace {

using ::lir::test::ParseOrDie;

using Names = std::vector<std::string>;

AnalysisInputs InputsOf(const std::map<std::string, int>& arities) {
  AnalysisInputs inputs;
  inputs.global_arity = arities;
  return inputs;
}

std::string ExceptPlan() { return test::FixtureText("except_indexed_t1.plan"); }
const std::map<std::string, int> kExceptArities = {
    {"materialize.public.t1", 2}, {"materialize.public.t2", 1}};

// The lattice is the offered forms'; a join keeps the newer own lists.
TEST(ArrangementsBuilt, LatticeIsTheOfferedForms) {
  const Analysis<AvailableForms> forms;
  const ArrangementsBuiltInterpreter interp(forms);
  const std::vector<ScalarExpr> k0 = {ScalarExpr::Column(0)};
  const std::vector<ScalarExpr> k1 = {ScalarExpr::Column(1)};
  ArrangementsBuilt a;
  a.offered = AvailableForms::ArrangedBy(PlanKey(k0));
  a.offered.AddKey(PlanKey(k1));
  a.built = {"ArrangeBy[[Column(1)]]"};
  ArrangementsBuilt b;
  b.offered = AvailableForms::ArrangedBy(PlanKey(k1));
  b.offered.raw = true;
  const ArrangementsBuilt joined = interp.Join(a, b);
  EXPECT_EQ(FormatForms(joined.offered), "[#1]");
  EXPECT_EQ(joined.built, a.built);
  EXPECT_EQ(interp.Join(interp.Bottom(), b).built, b.built);
  EXPECT_TRUE(interp.Equal(interp.Join(a, interp.Bottom()), a));
  EXPECT_TRUE(interp.Equal(interp.Join(a, interp.Top()), interp.Top()));
  EXPECT_FALSE(interp.Equal(a, b));
  // Only the offered forms are compared: the own lists follow from them.
  ArrangementsBuilt c = a;
  c.built.clear();
  EXPECT_TRUE(interp.Equal(a, c));
}

TEST(ArrangementsBuilt, KeyText) {
  EXPECT_EQ(ArrangementKeyText({ScalarExpr::Column(0), ScalarExpr::Column(2)}),
            "[[Column(0), Column(2)]]");
  EXPECT_EQ(ArrangementKeyText({}), "[[]]");
}

TEST(ArrangementsBuilt, Annotation) {
  Document doc = ParseOrDie(ExceptPlan());
  absl::StatusOr<DocumentAnalysis> analysis =
      DocumentAnalysis::Run(doc, InputsOf(kExceptArities));
  ASSERT_TRUE(analysis.ok());
  AnnotationFields fields;
  fields.arrangements_built = true;
  const Node& root = *doc.objects[0].plan;
  EXPECT_EQ(analysis->CommentFields(root, fields), "arrangements_built: 1");
  EXPECT_EQ(analysis->JsonFields(root, fields).dump(),
            R"({"arrangements_built":["Threshold local"],)"
            R"("arrangements_imported":[]})");
  const Node* get = &root;
  while (!get->inputs.empty()) get = get->inputs[0].get();
  ASSERT_TRUE(get->Is<GetOp>());
  EXPECT_EQ(analysis->CommentFields(*get, fields),
            "arrangements_built: 0, arrangements_imported: 1");
  fields.arrangements = true;
  fields.unique_keys = true;
  EXPECT_EQ(analysis->CommentFields(root, fields),
            "arrangements: \"[#0]\", arrangements_built: 1, unique_keys: "
            "\"none\"");
}

}  // namespace
}  // namespace lir::interp
