// Robustness of the text and JSON readers and printers (issue 13, findings
// 1, 4, 5, 6, 7, 10 and 13): bytes that are not UTF-8, byte-order marks,
// hostile names and datum texts, node annotations after unbalanced quotes,
// LirIds at the ends of their range, and structures JSON could not hold.
// Every input either reads back to the same document or fails with a
// located error (file:line:column, or a JSON pointer), in the library and
// through lir-opt (exit 1, never an abort). What one input shows is a
// golden: testdata/cli/bytes.txt (bytes, byte-order marks),
// testdata/errors/text.txt and testdata/explain/ (ids, quoted names,
// strategies); here are the properties over generated inputs and the
// chained runs.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"
#include "tests/support/parse_or_die.h"
#include "tests/support/plan_text_gen.h"

namespace lir::explain {
namespace {

using nlohmann::json;
using test::RunResult;

// ---- Helpers ----------------------------------------------------------------

// A two-node plan: Negate over `leaf`, with post-order ids 1 and 2.
json PlanDoc(const json& leaf, const std::string& object_name) {
  json get = leaf;
  get["id"] = 1;
  get["inputs"] = json::array();
  json negate = {{"id", 2}, {"inputs", {0}}, {"kind", "Negate"}};
  return {{"format", "lir-plan/2"},
          {"node_identifiers", false},
          {"objects", {{{"name", object_name}, {"plan", {get, negate}}}}}};
}

json GetLeaf(const std::string& collection) {
  return {{"kind", "Get"},
          {"get_kind", "PassArrangements"},
          {"collection", {{"global", collection}}},
          {"keys", {{"raw", true}}}};
}

json ConstantLeaf(const json& datum) {
  return {{"kind", "Constant"}, {"rows", {{{"row", {datum}}}}}};
}

json MapLeaf(const json& datum) {
  json literal = datum;
  literal["kind"] = "literal";
  return {{"kind", "Get"},
          {"get_kind", "Collection"},
          {"collection", {{"global", "materialize.public.t"}}},
          {"mfp", {{"map", {literal}}}}};
}

// The document as JSON, ignoring whether node ids were printed.
json Normalized(const Document& doc) {
  json out = ToJson(doc);
  out["node_identifiers"] = false;
  return out;
}

// JSON -> document -> text -> document must be the identity, with and
// without node annotations; `what` names the case in failures.
void ExpectTextRoundTrip(const Document& doc, const std::string& what) {
  for (bool node_ids : {false, true}) {
    PrintOptions print;
    print.node_identifiers = node_ids;
    // An analysis-style extra field with a string holding the comment
    // marker, as `--annotate=arrangements` prints.
    print.annotate = [](const Node&) {
      return std::string("arrangements: \"[#0, \\\"x // { y\\\"]\"");
    };
    const std::string text = PrintText(doc, print);
    absl::StatusOr<Document> back = ParseText(text);
    ASSERT_TRUE(back.ok()) << what
                           << ": printed text does not parse: " << back.status()
                           << "\n"
                           << text;
    EXPECT_EQ(Normalized(*back), Normalized(doc)) << what << "\n" << text;
    EXPECT_EQ(PrintText(*back, print), text) << what;
  }
}

// The property of findings 4 and 5: a hostile JSON document is either
// rejected by the JSON reader with a pointer into it, or its text form
// reads back as the same document. Returns whether it was accepted.
bool AcceptedAndRoundTrips(const json& j, const std::string& what) {
  absl::StatusOr<Document> doc = FromJson(j);
  if (!doc.ok()) {
    EXPECT_TRUE(absl::StartsWith(doc.status().message(), "/objects/0/") ||
                absl::StartsWith(doc.status().message(), "/sources/0/") ||
                absl::StartsWith(doc.status().message(), "/used_indexes/0/"))
        << what << ": " << doc.status();
    return false;
  }
  ExpectTextRoundTrip(*doc, what);
  // And JSON itself is lossless.
  absl::StatusOr<Document> reread = ReadJson(WriteJson(*doc));
  EXPECT_TRUE(reread.ok()) << what << ": " << reread.status();
  if (reread.ok()) EXPECT_EQ(ToJson(*reread), ToJson(*doc)) << what;
  return true;
}

const std::vector<std::string>& HostileNames() {
  static const auto* names = new std::vector<std::string>{
      "a b",
      "materialize.public.a b",
      "a\"b",
      "\"",
      "\"\"",
      "materialize.public.\"a b\"",
      "x // { node_id: LirId(99) }",
      "t // { node_id: LirId(1) }",
      "trailing  ",
      " leading",
      "l5",
      "l",
      "u5",
      "Notices",
      "Used Indexes",
      "Source x",
      "Target cluster: y",
      "Optimization time: 1ms",
      "x (fast path)",
      "Explained Query",
      "Explained Query (fast path)",
      "a..b",
      ".",
      "a.",
      ".a",
      "x:",
      "back\\slash\\",
      "a\\\"b",
      "\xC3\xA9.\xE2\x96\x88",
      "\xEF\xBB\xBF"
      "Explained Query",  // a byte-order mark opening it
      "\xEF\xBB\xBFx",
      "- [DELETED INDEX] (lookup)",
      "i (lookup)",
      "Get::Collection x",
      "a\nb",
      "a\tb",
      "a\rb",
      "",
  };
  return *names;
}

// ---- Finding 1: bytes that are not UTF-8
// -------------------------------------

TEST(Utf8, DumpJsonNeverThrows) {
  const json value = {{"s", std::string("bad \xFF byte")}};
  std::string text;
  ASSERT_NO_THROW(text = DumpJson(value, 2));
  EXPECT_TRUE(absl::StrContains(text, "bad \xEF\xBF\xBD byte")) << text;
  EXPECT_EQ(DumpJson(json{{"s", "ok \xE2\x96\x88"}}),
            "{\"s\":\"ok \xE2\x96\x88\"}");
}

// ---- Finding 4: names
// ----------------------------------------------------------

TEST(Names, EveryHostileNameRoundTripsOrIsRejectedAtItsPointer) {
  for (const std::string& name : HostileNames()) {
    const bool carriable =
        !name.empty() && name.find_first_of("\n\t\r") == std::string::npos;
    // `l5` as a global name is printed quoted and stays global.
    EXPECT_EQ(AcceptedAndRoundTrips(PlanDoc(GetLeaf(name), "Explained Query"),
                                    "collection " + name),
              carriable)
        << name;
    EXPECT_EQ(
        AcceptedAndRoundTrips(PlanDoc(GetLeaf("materialize.public.t"), name),
                              "object " + name),
        carriable)
        << name;
    json with_sections = PlanDoc(GetLeaf("materialize.public.t"), "x");
    with_sections["sources"] = {{{"name", name}}};
    with_sections["used_indexes"] = {
        {{"name", name},
         {"usages", {"lookup", "delta join 1st input (full scan)"}}}};
    EXPECT_EQ(AcceptedAndRoundTrips(with_sections, "source/index " + name),
              carriable)
        << name;
  }
}

TEST(Names, RejectionsNameThePointerAndTheProblem) {
  absl::StatusOr<Document> doc =
      FromJson(PlanDoc(GetLeaf("materialize.public.t"), "a\nb"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "/objects/0/name: expected a name the text form can carry: a name "
            "must not contain control characters (byte 1 is 0x0a)");
  doc = FromJson(PlanDoc(GetLeaf(""), "x"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "/objects/0/plan/0/collection/global: expected a name the text "
            "form can carry: a name must not be empty");
}

TEST(Names, PrintedAsMaterializeDoesAndQuotedOnlyWhenNeeded) {
  absl::StatusOr<Document> doc = FromJson(PlanDoc(
      GetLeaf("materialize.public.t // { node_id: LirId(99) }"), "v  "));
  ASSERT_TRUE(doc.ok()) << doc.status();
  PrintOptions ids;
  ids.node_identifiers = true;
  EXPECT_EQ(PrintText(*doc, ids),
            "\"v  \":\n"
            "  Negate // { node_id: LirId(2) }\n"
            "    Get::PassArrangements materialize.public.\"t // { node_id: "
            "LirId(99) }\" // { node_id: LirId(1) }\n"
            "      raw=true\n");
  // Spaces alone need no quotes (Materialize prints names unquoted).
  doc = FromJson(PlanDoc(GetLeaf("materialize.public.a b"), "Explained Query"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_TRUE(absl::StrContains(
      PrintText(*doc), "Get::PassArrangements materialize.public.a b\n"));
}

// ---- Finding 5: datum text
// -------------------------------------------------------

TEST(Datums, EveryHostileTextRoundTripsOrIsRejectedAtItsPointer) {
  const std::vector<std::string> types = {
      "null",      "bool",        "number",   "string",   "date", "time",
      "timestamp", "timestamptz", "interval", "redacted", "other"};
  const std::vector<std::string> texts = {"1, 2",
                                          "abc",
                                          "1",
                                          "-5",
                                          "1.5",
                                          "7 days",
                                          "true",
                                          "null",
                                          "\"x\"",
                                          "",
                                          " 1",
                                          "1 ",
                                          "(1)",
                                          "{1, 2}",
                                          "\xE2\x96\x88",
                                          "1e5",
                                          "NaN",
                                          "2020-01-01 00:00:00",
                                          "2020-01-01 00:00:00 UTC",
                                          "12:00:00",
                                          "1997-07-06",
                                          "x // { node_id: LirId(3) }",
                                          "a\\",
                                          "a\\n",
                                          "a\\\"b",
                                          "a\"b",
                                          "a\nb",
                                          "1), (2",
                                          "error(\"m\")"};
  int accepted = 0;
  for (const std::string& type : types) {
    for (const std::string& text : texts) {
      const json datum = {{"type", type}, {"text", text}};
      const std::string what = absl::StrCat(type, " datum \"", text, "\"");
      const bool row = AcceptedAndRoundTrips(
          PlanDoc(ConstantLeaf(datum), "Explained Query"), "row " + what);
      const bool literal = AcceptedAndRoundTrips(
          PlanDoc(MapLeaf(datum), "Explained Query"), "literal " + what);
      EXPECT_EQ(row, literal) << what;
      accepted += row ? 1 : 0;
    }
  }
  // Most combinations are nonsense, but each type has some valid text.
  EXPECT_GE(accepted, 20);
}

TEST(Datums, RejectionsNameThePointerAndTheReason) {
  absl::StatusOr<Document> doc = FromJson(PlanDoc(
      ConstantLeaf({{"type", "number"}, {"text", "1, 2"}}), "Explained Query"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "/objects/0/plan/0/rows/0/row/0/text: expected the text of a "
            "number datum as EXPLAIN prints it, got \"1, 2\" (expected end of "
            "the literal at byte 1)");
  doc = FromJson(PlanDoc(ConstantLeaf({{"type", "number"}, {"text", "abc"}}),
                         "Explained Query"));
  ASSERT_FALSE(doc.ok());
  EXPECT_TRUE(absl::StartsWith(doc.status().message(),
                               "/objects/0/plan/0/rows/0/row/0/text: expected "
                               "the text of a number datum"))
      << doc.status();
  doc = FromJson(PlanDoc(ConstantLeaf({{"type", "string"}, {"text", "a\\"}}),
                         "Explained Query"));
  ASSERT_FALSE(doc.ok());
  EXPECT_TRUE(absl::StrContains(doc.status().message(),
                                "expected a string the text form can carry"))
      << doc.status();
  doc = FromJson(
      PlanDoc(MapLeaf({{"type", "other"}, {"text", "5"}}), "Explained Query"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "/objects/0/plan/0/mfp/map/0/text: expected the text of a other "
            "datum, got \"5\", which reads back as a number datum \"5\"");
}

// ---- Finding 6: annotations after unbalanced quotes, quoted names
// --------------

// The messages that end in an escaped backslash: an annotation after them,
// inside them, or none. Their parse and plain printing are goldens
// (testdata/explain/node_ids.txt); here, that they still read back when
// printed with node ids and an analysis field whose string holds the
// comment marker.
TEST(Annotations, FollowUnbalancedQuotesAndReadBack) {
  for (const char* error : {R"(Error "a\")", R"(Error "a\\"b \" // { x: y }")",
                            R"(Error "m\" // { node_id: LirId(5) }")"}) {
    const std::string text =
        absl::StrCat(test::kQueryHeader, "  ", error, "\n");
    absl::StatusOr<Document> doc = ParseText(text);
    ASSERT_TRUE(doc.ok()) << doc.status() << "\n" << text;
    ExpectTextRoundTrip(*doc, text);
  }
}

// ---- Finding 7: LirIds
// ----------------------------------------------------------

// The text reader's id range and numbering are goldens
// (testdata/errors/text.txt, testdata/explain/node_ids.txt); the constant:
static_assert(kMaxLirId == 18446744073709551614u);

TEST(LirIds, JsonRejectsZeroAndTheTop) {
  for (uint64_t bad : {uint64_t{0}, ~uint64_t{0}}) {
    json j = PlanDoc(GetLeaf("t"), "x");
    j["objects"][0]["plan"][1]["id"] = bad;
    absl::StatusOr<Document> doc = FromJson(j);
    ASSERT_FALSE(doc.ok()) << bad;
    EXPECT_TRUE(
        absl::StartsWith(doc.status().message(),
                         "/objects/0/plan/1/id: expected a node id from 1 to "
                         "18446744073709551614"))
        << doc.status();
  }
  json j = PlanDoc(GetLeaf("t"), "x");
  j["objects"][0]["plan"][1]["id"] = kMaxLirId;
  EXPECT_TRUE(FromJson(j).ok());
}

// ---- Through lir-opt
// --------------------------------------------------------------
// Single runs (bytes that are not UTF-8, byte-order marks in every input
// file, text JSON cannot hold) are goldens in testdata/cli/bytes.txt; here,
// what feeds one run's output to another.

class RobustnessCliTest : public test::LirOptTest {};

TEST_F(RobustnessCliTest, AnnotatedOutputReadsBack) {
  // The first run's output is a golden (testdata/cli/explain.txt).
  const std::string plan =
      Temp("p.plan", test::FixtureText("negate_error_backslash.plan"));
  RunResult ids = Run({"explain", "--node_identifiers", plan});
  ASSERT_EQ(ids.exit_code, 0) << ids.err;
  RunResult back = Run({"explain", "--node_identifiers", "-"}, ids.out);
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, ids.out);
  RunResult annotated =
      Run({"explain", "--annotate=node_id,arity,arrangements", plan});
  ASSERT_EQ(annotated.exit_code, 0) << annotated.err;
  back = Run({"explain", "--node_identifiers", "-"}, annotated.out);
  EXPECT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, ids.out);
}

}  // namespace
}  // namespace lir::explain
