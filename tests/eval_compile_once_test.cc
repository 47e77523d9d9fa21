// Both engines compile a plan's scalar expressions once per node, not once
// per row (include/lir/eval/compiled_scalar.h): the number of compilations
// a run makes does not grow with the number of rows it evaluates.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/dataflow.h"
#include "lir/eval/incremental.h"
#include "lir/eval/snapshot.h"
#include "lir/explain/text.h"
#include "tests/support/parse_or_die.h"

namespace lir::eval {
namespace {

constexpr char kT[] = "materialize.public.t";
constexpr char kU[] = "materialize.public.u";

// Scalar-heavy: an Mfp with literals, arithmetic, coalesce and case when;
// a linear join with a closure; a Reduce with key and val plans; a TopK.
std::string CompileOncePlan() {
  return test::FixtureText("compile_once_mfp.plan");
}

using MakeDataflow = std::function<absl::StatusOr<std::unique_ptr<Dataflow>>(
    const Node&, const DataflowOptions&)>;

// Builds a dataflow over CompileOncePlan() and runs one round of `rows` rows of
// t; returns how many expressions were compiled meanwhile. Fails the test if
// the round fails or produces nothing (the expressions must have run).
uint64_t CompilationsFor(const MakeDataflow& make, int64_t rows) {
  absl::StatusOr<Document> doc = explain::ParseText(CompileOncePlan());
  EXPECT_TRUE(doc.ok()) << doc.status();
  if (!doc.ok()) return 0;
  DataflowOptions options;
  options.object = "test";
  options.globals[kT] = 2;
  options.globals[kU] = 2;
  std::vector<RowDiff> t;
  for (int64_t i = 0; i < rows; ++i) {
    t.push_back({{Datum::Int(i % 7), Datum::Int(i)}, 1});
  }
  std::vector<RowDiff> u;
  for (int64_t k = 0; k < 3; ++k) {
    u.push_back({{Datum::Int(k), Datum::Int(k + 1)}, 1});
  }
  GlobalChanges changes;
  changes[kT] = *Consolidate(std::move(t));
  changes[kU] = *Consolidate(std::move(u));
  const uint64_t before = internal::ScalarCompilations();
  absl::StatusOr<std::unique_ptr<Dataflow>> df =
      make(*doc->objects.at(0).plan, options);
  EXPECT_TRUE(df.ok()) << df.status();
  if (!df.ok()) return 0;
  absl::StatusOr<Multiset> out = (*df)->Step(0, changes);
  EXPECT_TRUE(out.ok()) << out.status();
  EXPECT_FALSE(out.ok() && out->empty());
  return internal::ScalarCompilations() - before;
}

void ExpectCompilesOncePerNode(const MakeDataflow& make) {
  const uint64_t few = CompilationsFor(make, 50);
  const uint64_t many = CompilationsFor(make, 5000);
  // Every expression is compiled at least once (the plan check, then the
  // operators)...
  EXPECT_GT(few, 10u);
  // ...and never per row: 100 times the rows, the same compilations.
  EXPECT_EQ(few, many);
}

TEST(CompileOnce, SnapshotEngine) {
  ExpectCompilesOncePerNode(MakeSnapshotDataflow);
}

TEST(CompileOnce, IncrementalEngine) {
  ExpectCompilesOncePerNode(MakeIncrementalDataflow);
}

}  // namespace
}  // namespace lir::eval
