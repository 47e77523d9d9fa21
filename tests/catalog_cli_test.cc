// End-to-end tests of lir-opt's catalog file (--catalog): its collections
// (arity, unique keys, monotonicity) feed the analyses of explain, the
// optimizer passes and run; --arity and --monotonic_ids are shorthands that
// must agree with it; every malformed catalog is a located error, exit 1.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/support/cli_test_util.h"

namespace {

using lir::testing_util::RunResult;

// t is read through an arrangement on its #1: the Get's MFP reads the
// layout row (#1, #0) and projects it back to (#0, #1).
constexpr char kPlan[] =
    "Explained Query:\n"
    "  Get::Arrangement materialize.public.t\n"
    "    project=(#1, #0)\n"
    "    key=#1\n"
    "    raw=false\n"
    "    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
    "thinning=(#0) }\n"
    "\n"
    "Target cluster: quickstart\n";

// A monotonic Top1 over u, which the relaxation pass may relax when u is
// insert-only.
constexpr char kTop1Plan[] =
    "Explained Query:\n"
    "  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first] "
    "must_consolidate\n"
    "    Get::Collection materialize.public.u\n"
    "      raw=true\n"
    "\n"
    "Target cluster: quickstart\n";

constexpr char kGoodCatalog[] = R"({"collections": {
  "materialize.public.t": {"arity": 2, "unique_keys": [[1], [0, 1]],
                           "monotonic": true},
  "materialize.public.u": {"monotonic": true},
  "materialize.public.one_row": {"unique_keys": [[]]}}})";

class CatalogCliTest : public lir::testing_util::LirOptTest {
 protected:
  void SetUp() override {
    LirOptTest::SetUp();
    if (IsSkipped()) return;
    Temp("plan.txt", kPlan);
    Temp("top1.txt", kTop1Plan);
    Temp("catalog.json", kGoodCatalog);
  }

  // Runs explain with `catalog` (the file's text) and expects a located
  // error: exit 1, nothing on stdout, `message` on stderr.
  void ExpectBadCatalog(const std::string& catalog,
                        const std::string& message) {
    Temp("bad.json", catalog);
    RunResult r = Run({"explain", "--catalog=bad.json", "plan.txt"});
    EXPECT_EQ(r.exit_code, 1) << catalog;
    EXPECT_EQ(r.out, "") << catalog;
    EXPECT_EQ(r.err, message + "\n") << catalog;
  }
};

TEST_F(CatalogCliTest, CollectionsFeedTheAnalyses) {
  RunResult r = Run({"explain", "--annotate=arity,monotonic,unique_keys",
                     "--catalog=catalog.json", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The key [#1] of t sits at layout position 0, projected to output #1;
  // [#0, #1] contains it and is dropped.
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  Get::Arrangement materialize.public.t // { arity: 2, monotonic: "
      "true, unique_keys: \"[#1]\" }\n"))
      << r.out;
  // Without the catalog nothing is known.
  r = Run({"explain", "--annotate=monotonic,unique_keys", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  Get::Arrangement materialize.public.t // { monotonic: false, "
      "unique_keys: \"none\" }\n"))
      << r.out;
  // The same in the JSON form: a list of keys.
  r = Run({"explain", "--annotate=unique_keys", "--format=json",
           "--catalog=catalog.json", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out,
                                "\"annotations\": {\n"
                                "            \"unique_keys\": [\n"
                                "              [\n"
                                "                1\n"
                                "              ]\n"
                                "            ]\n"))
      << r.out;
}

TEST_F(CatalogCliTest, TheEmptyKeyMeansAtMostOneRow) {
  Temp("one_row.txt",
       "Explained Query:\n"
       "  Get::Collection materialize.public.one_row\n"
       "    project=(#0)\n"
       "    raw=true\n");
  RunResult r = Run({"explain", "--annotate=unique_keys",
                     "--catalog=catalog.json", "one_row.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  Get::Collection materialize.public.one_row // { unique_keys: "
      "\"[]\" }\n"))
      << r.out;
}

TEST_F(CatalogCliTest, CollectionsFeedTheOptimizerPasses) {
  // u is insert-only by the catalog alone: the pass relaxes the Top1.
  const std::vector<std::string> relax = {"explain", "--single_time",
                                          "--enable_relax_must_consolidate",
                                          "top1.txt"};
  RunResult without = Run(relax);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_TRUE(absl::StrContains(without.out, "must_consolidate"))
      << without.out;
  std::vector<std::string> with = relax;
  with.insert(with.begin() + 1, "--catalog=catalog.json");
  RunResult relaxed = Run(with);
  ASSERT_EQ(relaxed.exit_code, 0) << relaxed.err;
  EXPECT_FALSE(absl::StrContains(relaxed.out, "must_consolidate"))
      << relaxed.out;
}

TEST_F(CatalogCliTest, CollectionsFeedRunAndMustAgreeWithTheData) {
  Temp("u.json", R"({"collections": {"materialize.public.u": {"arity": 2,
      "updates": [[[1, 5], 0, 1], [[1, 7], 0, 1], [[2, 3], 0, 1]]}}})");
  RunResult r =
      Run({"run", "--data=u.json", "--catalog=catalog.json", "--single_time",
           "--enable_relax_must_consolidate", "top1.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "Explained Query:\n  round 0:\n    - (1, 7)\n    - (2, 3)\n");
  Temp("u3.json", R"({"collections": {"materialize.public.u": {"arity": 2,
      "updates": []}}})");
  Temp("arity3.json",
       R"({"collections": {"materialize.public.u": {"arity": 3}}})");
  r = Run({"run", "--data=u3.json", "--catalog=arity3.json", "top1.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "arity3.json:1:18: collections[\"materialize.public.u\"]: "
            "the catalog gives arity 3, the data file 2\n");
}

TEST_F(CatalogCliTest, ArityFlagMustAgreeWithTheCatalog) {
  // The same arity twice is fine.
  RunResult r = Run({"explain", "--annotate=arity", "--catalog=catalog.json",
                     "--arity=materialize.public.t=2", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out, "  Get::Arrangement materialize.public.t // { arity: 2 }\n"))
      << r.out;
  // Another arity is an error naming both.
  r = Run({"explain", "--catalog=catalog.json",
           "--arity=materialize.public.t=3", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "catalog.json:2:3: collections[\"materialize.public.t\"]: "
            "the catalog gives arity 2, --arity gives 3\n");
}

TEST_F(CatalogCliTest, UniqueKeysMustFitTheArityFlag) {
  Temp("keys.json",
       R"({"collections": {"materialize.public.t": {"unique_keys": [[1]]}}})");
  RunResult r = Run({"explain", "--catalog=keys.json",
                     "--arity=materialize.public.t=2", "plan.txt"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Run({"explain", "--catalog=keys.json", "--arity=materialize.public.t=1",
           "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "keys.json:1:18: collections[\"materialize.public.t\"]: "
            "unique key column 1 is not below its arity 1 (--arity)\n");
}

// A plan shows arities of its own: an advertised arrangement's layout, the
// widths of Union arms, a Source block's columns. An arity the catalog or
// --arity gives that contradicts one is refused, naming both sides, before
// any analysis or pass trusts it.
TEST_F(CatalogCliTest, ArityMustAgreeWithThePlansArrangements) {
  Temp("arity3.json",
       R"({"collections": {"materialize.public.t": {"arity": 3}}})");
  RunResult r = Run({"explain", "--catalog=arity3.json", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "arity3.json:1:18: collections[\"materialize.public.t\"]: the "
            "catalog gives arity 3; plan.txt: Explained Query: LirId(1) "
            "Get::Arrangement: arrangements[0]: key and thinning describe "
            "arity 2, but the collection has arity 3\n");
  r = Run({"explain", "--arity=materialize.public.t=3", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "--arity=materialize.public.t=3; plan.txt: Explained Query: "
            "LirId(1) Get::Arrangement: arrangements[0]: key and thinning "
            "describe arity 2, but the collection has arity 3\n");
  // run refuses it too, though the data agrees with the catalog.
  Temp("t3.json", R"({"collections": {"materialize.public.t": {"arity": 3,
      "updates": [[[1, 2, 3], 0, 1]]}}})");
  r = Run({"run", "--data=t3.json", "--catalog=arity3.json", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StartsWith(
      r.err,
      "arity3.json:1:18: collections[\"materialize.public.t\"]: the "
      "catalog gives arity 3; plan.txt: Explained Query: LirId(1)"))
      << r.err;
}

TEST_F(CatalogCliTest, ArityMustAgreeWithThePlansOperators) {
  // Nothing about t itself shows its width; the Union's other arm does.
  Temp("union.txt",
       "Explained Query:\n"
       "  Union\n"
       "    Get::Collection materialize.public.t\n"
       "      raw=true\n"
       "    Constant\n"
       "      - (1, 2)\n"
       "\n"
       "Target cluster: quickstart\n");
  Temp("arity3.json",
       R"({"collections": {"materialize.public.t": {"arity": 3}}})");
  RunResult r = Run({"explain", "--catalog=arity3.json", "union.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "arity3.json:1:18: collections[\"materialize.public.t\"]: the "
            "catalog gives arity 3; union.txt: Explained Query: LirId(3) "
            "Union: input 1 has arity 2, but input 0 has arity 3\n");
  // The arity the plan shows is accepted, and feeds the analyses.
  Temp("arity2.json",
       R"({"collections": {"materialize.public.t": {"arity": 2}}})");
  r = Run(
      {"explain", "--annotate=arity", "--catalog=arity2.json", "union.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out, "    Get::Collection materialize.public.t // { arity: 2 }\n"))
      << r.out;
}

TEST_F(CatalogCliTest, ArityMustCoverTheSourceBlock) {
  const std::string examples = std::string(LIR_SOURCE_DIR) + "/examples/";
  // The example catalog gives t2 two columns; its Source block reads #0.
  RunResult r = Run({"explain", "--catalog=" + examples + "except.catalog.json",
                     examples + "except.plan"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string plan = r.out;
  const std::string block = "Source materialize.public.t2\n  project=(#0)\n";
  ASSERT_TRUE(absl::StrContains(plan, block)) << plan;
  plan.replace(plan.find(block), block.size(),
               "Source materialize.public.t2\n  project=(#2)\n");
  Temp("source.txt", plan);
  r = Run({"explain", "--catalog=" + examples + "except.catalog.json",
           "source.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, examples +
                       "except.catalog.json:3:3: "
                       "collections[\"materialize.public.t2\"]: the catalog "
                       "gives arity 2; source.txt: Source "
                       "materialize.public.t2 reads 3 columns of the "
                       "collection\n");
}

TEST_F(CatalogCliTest, UniqueKeysMustBeColumnsThePlanShows) {
  // No arity given: the plan's arrangement of t shows 2 columns.
  Temp("key5.json",
       R"({"collections": {"materialize.public.t": {"unique_keys": [[5]]}}})");
  RunResult r = Run({"explain", "--catalog=key5.json", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "key5.json:1:18: collections[\"materialize.public.t\"]: unique "
            "key column 5 is not below the arity 2 the plan shows; plan.txt: "
            "Explained Query: LirId(1) Get materialize.public.t advertises an "
            "arrangement of 2 columns\n");
  Temp("key1.json",
       R"({"collections": {"materialize.public.t": {"unique_keys": [[1]]}}})");
  r = Run(
      {"explain", "--annotate=unique_keys", "--catalog=key1.json", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  Get::Arrangement materialize.public.t // { unique_keys: \"[#1]\" "
      "}\n"))
      << r.out;
}

TEST_F(CatalogCliTest, MonotonicIdsFlagMustAgreeWithTheCatalog) {
  Temp("not_monotonic.json",
       R"({"collections": {"materialize.public.u": {"monotonic": false}}})");
  RunResult r = Run({"explain", "--catalog=not_monotonic.json",
                     "--monotonic_ids=materialize.public.t", "top1.txt"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Run({"explain", "--catalog=not_monotonic.json",
           "--monotonic_ids=materialize.public.u", "top1.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "not_monotonic.json:1:18: "
            "collections[\"materialize.public.u\"]: the catalog says "
            "\"monotonic\": false, --monotonic_ids lists it\n");
}

TEST_F(CatalogCliTest, TheExampleCatalogServesExplainAndRun) {
  const std::string examples = std::string(LIR_SOURCE_DIR) + "/examples/";
  RunResult r = Run({"explain", "--annotate=monotonic,unique_keys",
                     "--catalog=" + examples + "except.catalog.json",
                     examples + "except.plan"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "Get::Collection materialize.public.t2 // { monotonic: true, "
      "unique_keys: \"none\" }\n"))
      << r.out;
  r = Run({"run", "--data=" + examples + "except.data.json",
           "--catalog=" + examples + "except.catalog.json",
           examples + "except.plan"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CatalogCliTest, MissingCatalogIsAnInputError) {
  RunResult r = Run({"explain", "--catalog=nope.json", "plan.txt"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StrContains(r.err, "nope.json")) << r.err;
}

TEST_F(CatalogCliTest, EveryBadCatalogIsALocatedError) {
  ExpectBadCatalog("[1]",
                   "bad.json:1:1: top level: expected an object with "
                   "\"collections\" and/or \"indexes\"");
  ExpectBadCatalog(R"({"tables": {}})",
                   "bad.json:1:12: top level: unknown field \"tables\" "
                   "(expected \"collections\" or \"indexes\")");
  ExpectBadCatalog(R"({"collections": []})",
                   "bad.json:1:17: collections: expected an object keyed by "
                   "collection name");
  ExpectBadCatalog(R"({"collections": {"t": 2}})",
                   "bad.json:1:23: collections[\"t\"]: expected {\"arity\": "
                   "N, \"unique_keys\": [[<column>, ...], ...], "
                   "\"monotonic\": true|false}, every field optional");
  ExpectBadCatalog(R"({"collections": {"t": {"keys": [[0]]}}})",
                   "bad.json:1:32: collections[\"t\"]: unknown field \"keys\" "
                   "(expected \"arity\", \"unique_keys\" or \"monotonic\")");
  ExpectBadCatalog(R"({"collections": {"t": {"arity": -1}}})",
                   "bad.json:1:33: collections[\"t\"].arity: expected a "
                   "column count (0 to 100000)");
  ExpectBadCatalog(R"({"collections": {"t": {"arity": "2"}}})",
                   "bad.json:1:33: collections[\"t\"].arity: expected a "
                   "column count (0 to 100000)");
  ExpectBadCatalog(R"({"collections": {"t": {"monotonic": 1}}})",
                   "bad.json:1:37: collections[\"t\"].monotonic: expected "
                   "true or false");
  ExpectBadCatalog(R"({"collections": {"t": {"unique_keys": [0]}}})",
                   "bad.json:1:40: collections[\"t\"].unique_keys[0]: expected "
                   "a list of columns ([] for a collection of at most one "
                   "row)");
  ExpectBadCatalog(R"({"collections": {"t": {"unique_keys": {"a": 1}}}})",
                   "bad.json:1:39: collections[\"t\"].unique_keys: expected a "
                   "list of keys, each a list of columns");
  ExpectBadCatalog(R"({"collections": {"t": {"unique_keys": [[0, -1]]}}})",
                   "bad.json:1:44: collections[\"t\"].unique_keys[0][1]: "
                   "expected a column number (0 or more)");
  ExpectBadCatalog(R"({"collections": {"t": {"unique_keys": [[0.5]]}}})",
                   "bad.json:1:41: collections[\"t\"].unique_keys[0][0]: "
                   "expected a column number (0 or more)");
  ExpectBadCatalog(
      R"({"collections": {"t": {"arity": 2, "unique_keys": [[0], [2]]}}})",
      "bad.json:1:58: collections[\"t\"].unique_keys[1][0]: expected a "
      "column of \"t\" (0 to 1)");
  ExpectBadCatalog(
      R"({"collections": {"t": {"arity": 0, "unique_keys": [[0]]}}})",
      "bad.json:1:53: collections[\"t\"].unique_keys[0][0]: \"t\" has no "
      "columns");
  // An index must fit the arity the catalog gives its collection.
  ExpectBadCatalog(R"({"collections": {"t": {"arity": 1}},
  "indexes": {"i": {"on": "t", "key": [1]}}})",
                   "bad.json:2:40: indexes[\"i\"].key[0]: expected a column "
                   "of \"t\" (0 to 0)");
  // Repeated keys (ParseJsonText) and syntax errors are located too.
  ExpectBadCatalog(R"({"collections": {"t": {"arity": 1, "arity": 1}}})",
                   "bad.json:1:36: duplicate key at /collections/t/arity "
                   "(first at line 1, column 24)");
  ExpectBadCatalog(R"({"collections": {)",
                   "bad.json:1:18: syntax error while parsing object key - "
                   "unexpected end of input; "
                   "expected string literal");
}

}  // namespace
