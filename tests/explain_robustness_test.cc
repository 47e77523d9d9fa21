// Robustness of the text and JSON readers and printers (issue 13, findings
// 1, 4, 5, 6, 7, 10 and 13): bytes that are not UTF-8, byte-order marks,
// hostile names and datum texts, node annotations after unbalanced quotes,
// LirIds at the ends of their range, and structures JSON could not hold.
// Every input either reads back to the same document or fails with a
// located error (file:line:column, or a JSON pointer), in the library and
// through lir-opt (exit 1, never an abort).
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

namespace lir::explain {
namespace {

using nlohmann::json;
using testing_util::RunResult;

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

void ExpectParseError(const std::string& text, const std::string& expected) {
  absl::StatusOr<Document> doc = ParseText(text);
  ASSERT_FALSE(doc.ok()) << "accepted:\n" << text;
  EXPECT_TRUE(absl::StrContains(doc.status().message(), expected))
      << doc.status().message() << "\nwanted: " << expected;
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

TEST(Utf8, TextRejectsInvalidBytesWhereTheyAre) {
  ExpectParseError(
      "Explained Query:\n  Get::PassArrangements materialize.public.t\xFF\n"
      "    raw=true\n",
      "<input>:2:45: expected UTF-8 text, found the byte 0xff (at byte offset "
      "61)");
  ExpectParseError("Explained Query:\n  Constant\n    - (\"a\xC3\")\n",
                   "<input>:3:10: expected UTF-8 text, found the byte 0xc3");
  // Overlong forms and surrogates are not UTF-8 either.
  ExpectParseError("a\xC0\xAF:\n", "<input>:1:2: expected UTF-8 text");
  ExpectParseError("a\xED\xA0\x80:\n", "<input>:1:2: expected UTF-8 text");
  // Valid multi-byte text is fine, up to U+10FFFF.
  EXPECT_TRUE(
      ParseText("\xF4\x8F\xBF\xBF \xE2\x96\x88:\n  Constant <empty>\n").ok());
}

TEST(Utf8, JsonRejectsInvalidBytesWithLineAndColumn) {
  absl::StatusOr<Document> doc = ReadJson(
      "{\"format\": \"lir-plan/2\",\n \"objects\": [\"a\xFF\"]}", "p.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_TRUE(absl::StartsWith(doc.status().message(), "p.json:2:"))
      << doc.status();
}

TEST(Utf8, DumpJsonNeverThrows) {
  const json value = {{"s", std::string("bad \xFF byte")}};
  std::string text;
  ASSERT_NO_THROW(text = DumpJson(value, 2));
  EXPECT_TRUE(absl::StrContains(text, "bad \xEF\xBF\xBD byte")) << text;
  EXPECT_EQ(DumpJson(json{{"s", "ok \xE2\x96\x88"}}),
            "{\"s\":\"ok \xE2\x96\x88\"}");
}

// ---- Finding 13: byte-order marks
// ---------------------------------------------

TEST(ByteOrderMark, IsSkippedByTextAndJson) {
  absl::StatusOr<Document> text = ParseText(
      "\xEF\xBB\xBF"
      "Explained Query:\n  Constant <empty>\n");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->objects[0].name, "Explained Query");
  absl::StatusOr<Document> from_json =
      ReadJson(absl::StrCat("\xEF\xBB\xBF", WriteJson(*text)));
  ASSERT_TRUE(from_json.ok()) << from_json.status();
  EXPECT_EQ(from_json->objects[0].name, "Explained Query");
  // Only at the very start: elsewhere it is part of the content.
  absl::StatusOr<Document> inner = ParseText(
      "\xEF\xBB\xBFx:\n  Constant <empty>\n\n\xEF\xBB\xBFy:\n"
      "  Constant <empty>\n");
  ASSERT_TRUE(inner.ok()) << inner.status();
  EXPECT_EQ(inner->objects[1].name, "\xEF\xBB\xBFy");
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

TEST(Annotations, FollowUnbalancedQuotesAndReadBack) {
  for (const std::string& text :
       {std::string("Explained Query:\n  Error \"a\\\"\n"),
        std::string(
            "Explained Query:\n  Error \"a\\\\\"b \\\" // { x: y }\"\n"),
        std::string("Explained Query:\n  Error \"m\\\" // { node_id: "
                    "LirId(5) }\"\n")}) {
    absl::StatusOr<Document> doc = ParseText(text);
    ASSERT_TRUE(doc.ok()) << doc.status() << "\n" << text;
    EXPECT_EQ(PrintText(*doc), text);
    ExpectTextRoundTrip(*doc, text);
  }
  absl::StatusOr<Document> doc =
      ParseText("Explained Query:\n  Error \"a\\\" // { node_id: LirId(7) }\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->objects[0].plan->As<ConstantOp>().error, "a\\");
  EXPECT_EQ(doc->objects[0].plan->id, 7u);
}

TEST(Annotations, QuotedNamePartsAreAccepted) {
  absl::StatusOr<Document> doc = ParseText(
      "Explained Query:\n"
      "  Get::PassArrangements materialize.public.\"a b\"\n"
      "    raw=true\n\n"
      "Source materialize.\"my schema\".\"t\"\"q\"\n\n"
      "Used Indexes:\n"
      "  - materialize.public.\"i (x)\" (lookup)\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->objects[0].plan->As<GetOp>().id.global,
            "materialize.public.a b");
  EXPECT_EQ(doc->sources[0].name, "materialize.my schema.t\"q");
  EXPECT_EQ((*doc->used_indexes)[0].name, "materialize.public.i (x)");
  // As Materialize prints it, unquoted, the same collection.
  absl::StatusOr<Document> raw = ParseText(
      "Explained Query:\n"
      "  Get::PassArrangements materialize.public.a b\n"
      "    raw=true\n");
  ASSERT_TRUE(raw.ok()) << raw.status();
  EXPECT_EQ(raw->objects[0].plan->As<GetOp>().id.global,
            "materialize.public.a b");
  ExpectParseError(
      "Explained Query:\n  Get::PassArrangements a.\"b\n    raw=true\n",
      "<input>:2:27: expected a quoted name part closed by '\"'");
  ExpectParseError(
      "Explained Query:\n  Get::PassArrangements a.\"b\"c\n    raw=true\n",
      "<input>:2:30: expected '.' or the end of the name");
}

// ---- Finding 7: LirIds
// ----------------------------------------------------------

std::string TwoNodes(const std::string& root_id, const std::string& leaf) {
  return absl::StrCat("Explained Query:\n  Negate // { node_id: LirId(",
                      root_id, ") }\n    Constant", leaf, "\n      - (1)\n");
}

TEST(LirIds, TextAcceptsOneToTwoToTheSixtyFourMinusTwo) {
  absl::StatusOr<Document> doc =
      ParseText(TwoNodes("18446744073709551614", " // { node_id: LirId(1) }"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->objects[0].plan->id, kMaxLirId);
  EXPECT_EQ(kMaxLirId, 18446744073709551614u);
  for (const char* bad : {"18446744073709551615", "18446744073709551616",
                          "99999999999999999999999", "-1", "0", "", "x1"}) {
    ExpectParseError(
        TwoNodes(bad, " // { node_id: LirId(1) }"),
        absl::StrCat("<input>:2:", absl::string_view(bad).empty() ? 24 : 30,
                     ": expected a node id LirId(<n>) with n from 1 to "
                     "18446744073709551614"));
  }
}

TEST(LirIds, NumberingUnannotatedNodesNeverWraps) {
  // Before: the Constant got 2^64 - 1 + 1 = 0 ... and a false duplicate.
  ExpectParseError(TwoNodes("18446744073709551614", ""),
                   "<input>:1:1: cannot number the 1 node(s) without a "
                   "node_id after LirId(18446744073709551614)");
  absl::StatusOr<Document> doc =
      ParseText(TwoNodes("18446744073709551613", ""));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->objects[0].plan->inputs[0]->id, kMaxLirId);
}

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

// ---- Finding 10: what the text reader accepts, JSON can hold
// ------------------

TEST(TextToJson, UnionStrategiesMustMatchItsInputs) {
  ExpectParseError(
      "Explained Query:\n  Union\n"
      "    temporal_bucketing_strategies=[Direct, TemporalBucketing, "
      "TemporalBucketing]\n"
      "    Constant <empty>\n    Constant <empty>\n",
      "<input>:2:3: expected one child plan per temporal bucketing strategy "
      "under Union (3), found 2");
}

// ---- Through lir-opt
// --------------------------------------------------------------
// Single runs (bytes that are not UTF-8, byte-order marks in every input
// file, text JSON cannot hold) are goldens in testdata/cli/bytes.txt; here,
// what feeds one run's output to another.

class RobustnessCliTest : public testing_util::LirOptTest {};

TEST_F(RobustnessCliTest, AnnotatedOutputReadsBack) {
  const std::string plan =
      Temp("p.plan", "Explained Query:\n  Negate\n    Error \"a\\\"\n");
  RunResult ids = Run({"explain", "--node_identifiers", plan});
  ASSERT_EQ(ids.exit_code, 0) << ids.err;
  EXPECT_EQ(ids.out,
            "Explained Query:\n  Negate // { node_id: LirId(2) }\n"
            "    Error \"a\\\" // { node_id: LirId(1) }\n");
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
