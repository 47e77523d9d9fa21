// Tests of the JSON form: lossless round trips of hand-built documents that
// use every node kind and optional field, strict rejection of bad input,
// 100,000-deep plans, and the corpus through text -> JSON -> text.
#include "nlohmann/json.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/plan_builder.h"
#include "src/explain/json_unique_keys.h"
#include "src/explain/text_primitives.h"
#include "tests/support/corpus_util.h"
#include "tests/support/json_test_util.h"

namespace lir::explain {
namespace {

using nlohmann::json;
using namespace ::lir::test::json_plan;  // NOLINT: test helpers

// ToJson -> FromJson must give back the same document (structurally, as
// JSON, and as printed text), and so must WriteJson -> ReadJson.
void ExpectRoundTrip(const Document& doc) {
  json first = ToJson(doc);
  absl::StatusOr<Document> back = FromJson(first);
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameDocument(doc, *back);
  EXPECT_EQ(ToJson(*back).dump(), first.dump());
  EXPECT_EQ(PrintText(*back), PrintText(doc));

  absl::StatusOr<Document> reread = ReadJson(WriteJson(doc), "doc.json");
  ASSERT_TRUE(reread.ok()) << reread.status();
  ExpectSameDocument(doc, *reread);
}

// ---- Round trips ------------------------------------------------------------

TEST(JsonRoundTrip, EveryNodeKindAndOptionalField) {
  Document doc = FullDocument();
  // The fixture must really cover every kind.
  std::vector<bool> seen(14, false);
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      seen[static_cast<size_t>(node.kind())] = true;
    });
  }
  for (size_t k = 0; k < seen.size(); ++k) {
    EXPECT_TRUE(seen[k]) << KindName(static_cast<NodeKind>(k));
  }
  ExpectRoundTrip(doc);
}

TEST(JsonRoundTrip, EmptyDocumentAndAbsentSections) {
  Document doc;
  json j = ToJson(doc);
  EXPECT_FALSE(j.contains("used_indexes"));
  EXPECT_FALSE(j.contains("target_cluster"));
  // A document with nothing in it prints as empty text, which is no plan:
  // JSON refuses it as text does (the fuzzer found the asymmetry).
  const absl::StatusOr<Document> empty = ReadJson(WriteJson(doc));
  ASSERT_FALSE(empty.ok());
  EXPECT_TRUE(absl::StrContains(empty.status().message(),
                                "expected at least one object"))
      << empty.status();
  doc.used_indexes = std::vector<UsedIndex>{};  // `Used Indexes:` with no lines
  doc.notices = std::vector<std::string>{};
  ExpectRoundTrip(doc);
  j = ToJson(doc);
  ASSERT_TRUE(j.contains("used_indexes"));
  EXPECT_TRUE(j["used_indexes"].empty());
}

TEST(JsonRoundTrip, ProjectAbsentAndEmptyStayDistinct) {
  MfpOp identity;
  MfpOp empty_project;
  empty_project.mfp.project = std::vector<int>{};
  Document doc;
  for (MfpOp* op : {&identity, &empty_project}) {
    Object& object = doc.objects.emplace_back();
    object.name = "o";
    object.plan = MakeNode(std::move(*op), Inputs(GetGlobal("t")));
    AssignPostOrderIds(*object.plan);
  }
  json j = ToJson(doc);
  const json& absent = j["objects"][0]["plan"][1];
  const json& empty = j["objects"][1]["plan"][1];
  EXPECT_FALSE(absent.contains("mfp"));
  ASSERT_TRUE(empty.contains("mfp"));
  EXPECT_EQ(empty["mfp"]["project"], json::array());
  absl::StatusOr<Document> back = FromJson(j);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->objects[0].plan->As<MfpOp>().mfp.project.has_value());
  ASSERT_TRUE(back->objects[1].plan->As<MfpOp>().mfp.project.has_value());
  EXPECT_TRUE(back->objects[1].plan->As<MfpOp>().mfp.project->empty());
}

TEST(JsonRoundTrip, PlanIsFlatPostOrderWithRootLast) {
  Document doc = FullDocument();
  json j = ToJson(doc);
  const json& plan = j["objects"][0]["plan"];
  EXPECT_EQ(plan.size(), CountNodes(*doc.objects[0].plan));
  EXPECT_EQ(plan.back()["kind"], "LetRec");
  EXPECT_EQ(plan.back()["id"], doc.objects[0].plan->id);
  for (size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i]["id"], i + 1);  // post-order ids match positions
    for (const json& input : plan[i]["inputs"])
      EXPECT_LT(input.get<size_t>(), i);
  }
  // Node kinds are spelled as KindName spells them, in every object.
  for (size_t o = 0; o < doc.objects.size(); ++o) {
    if (doc.objects[o].plan == nullptr) continue;
    size_t position = 0;
    ForEachPostOrder(*doc.objects[o].plan, [&](const Node& node) {
      EXPECT_EQ(j["objects"][o]["plan"][position++]["kind"],
                std::string(KindName(node.kind())));
    });
  }
}

TEST(JsonRead, DefaultsMayBeOmittedOrWritten) {
  // Minimal: every defaulted field left out.
  json minimal = json::parse(R"({
    "format": "lir-plan/2",
    "objects": [{"name": "Explained Query", "plan": [
      {"id": 1, "kind": "Get", "inputs": [],
       "collection": {"global": "t"}, "get_kind": "PassArrangements"},
      {"id": 2, "kind": "TopK", "inputs": [0], "topk_kind": "Basic"}
    ]}]
  })");
  // The same document with the defaults spelled out.
  json explicit_defaults = json::parse(R"({
    "format": "lir-plan/2",
    "objects": [{"name": "Explained Query", "plan": [
      {"id": 1, "kind": "Get", "inputs": [],
       "collection": {"global": "t"}, "get_kind": "PassArrangements",
       "keys": {"raw": false, "arranged": []}, "key": [], "seek": null,
       "mfp": {"filter": [], "map": []}},
      {"id": 2, "kind": "TopK", "inputs": [0], "topk_kind": "Basic",
       "group_by": [], "order_by": [], "offset": 0, "must_consolidate": false,
       "temporal_bucketing": false}
    ]}],
    "sources": [], "node_identifiers": false
  })");
  absl::StatusOr<Document> a = FromJson(minimal);
  absl::StatusOr<Document> b = FromJson(explicit_defaults);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ExpectSameDocument(*a, *b);
  EXPECT_EQ(PrintText(*a),
            "Explained Query:\n  TopK::Basic\n    Get::PassArrangements t\n"
            "      raw=false\n");
  // The writer leaves the defaults out (but always writes the top level).
  json expected = minimal;
  expected["sources"] = json::array();
  expected["node_identifiers"] = false;
  EXPECT_EQ(ToJson(*b), expected) << ToJson(*b).dump();
}

TEST(JsonWrite, TwoSpaceIndentFinalNewlineAndInvalidUtf8) {
  Document doc;
  doc.target_cluster = std::string("bad \xff byte");
  std::string text;
  ASSERT_NO_THROW(text = WriteJson(doc));
  EXPECT_TRUE(absl::StartsWith(text, "{\n  \"format\": \"lir-plan/2\",\n"))
      << text;
  EXPECT_TRUE(absl::EndsWith(text, "}\n")) << text;
  absl::StatusOr<Document> back = ReadJson(text);
  ASSERT_TRUE(back.ok()) << back.status();
  // JSON cannot carry the invalid byte; it becomes U+FFFD.
  EXPECT_EQ(back->target_cluster, "bad \xEF\xBF\xBD byte");
}

// ---- Errors -----------------------------------------------------------------

// A small valid document to break in the error tests.
json SmallDocument() {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = MakeNode(NegateOp{}, Inputs(GetGlobal("t")));
  AssignPostOrderIds(*object.plan);
  return ToJson(doc);
}

// FromJson(j) fails with a message containing every piece of `expected`.
void ExpectError(const json& j, std::vector<std::string> expected) {
  absl::StatusOr<Document> doc = FromJson(j);
  ASSERT_FALSE(doc.ok()) << "accepted: " << j.dump();
  EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
  for (const std::string& piece : expected) {
    EXPECT_NE(doc.status().message().find(piece), std::string::npos)
        << "message: " << doc.status().message() << "\nmissing: " << piece;
  }
}

TEST(JsonErrors, SmallDocumentIsValid) {
  ASSERT_TRUE(FromJson(SmallDocument()).ok());
}

TEST(JsonErrors, WrongOrMissingVersion) {
  json j = SmallDocument();
  j["format"] = "lir-plan/3";
  ExpectError(j, {"/format: unsupported format \"lir-plan/3\"",
                  "supports \"lir-plan/2\" and \"lir-plan/1\""});
  j.erase("format");
  ExpectError(j, {"/format: missing required field"});
  ExpectError(json::array(), {"<root>: expected an object, got an array"});
}

TEST(JsonErrors, BadKind) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["kind"] = "Threshhold";
  ExpectError(j, {"/objects/0/plan/1/kind: expected one of Constant, Get, "
                  "Let, LetRec, Mfp, FlatMap, Join, Reduce, TopK, Negate, "
                  "Threshold, Union, ArrangeBy, SetDifference, AntiJoin, got "
                  "\"Threshhold\""});
}

TEST(JsonErrors, BadEnumDeepInside) {
  json j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["arranged"][0]["key"][0]["kind"] = "col";
  ExpectError(j, {"/objects/0/plan/0/keys/arranged/0/key/0/kind: expected one "
                  "of column, literal, call, if, case_lookup, opaque"});
}

TEST(JsonErrors, DanglingInputIndex) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["inputs"][0] = 1;  // itself
  ExpectError(j, {"/objects/0/plan/1/inputs/0: expected the index of an "
                  "earlier node (0 to 0), got the integer 1"});
  j["objects"][0]["plan"][1]["inputs"][0] = 7;
  ExpectError(j, {"/objects/0/plan/1/inputs/0:"});
  j["objects"][0]["plan"][1]["inputs"][0] = -1;
  ExpectError(j, {"/objects/0/plan/1/inputs/0:"});
}

TEST(JsonErrors, NodeUsedTwiceOrNever) {
  json j = SmallDocument();
  json& plan = j["objects"][0]["plan"];
  plan.push_back(json{{"id", 3}, {"kind", "Negate"}, {"inputs", {0}}});
  ExpectError(j, {"/objects/0/plan/2/inputs/0: node 0 is already an input of "
                  "node 1"});
  // Node 1 (the old root) unused, node 2 a fresh leaf root.
  plan[2] = json{{"id", 3},
                 {"kind", "Get"},
                 {"inputs", json::array()},
                 {"collection", {{"local", 1}}},
                 {"get_kind", "Collection"}};
  ExpectError(j, {"/objects/0/plan/1: node is not the input of any later "
                  "node"});
  // Union of the same node twice.
  json u = SmallDocument();
  u["objects"][0]["plan"][1] =
      json{{"id", 2}, {"kind", "Union"}, {"inputs", {0, 0}}};
  ExpectError(u, {"/objects/0/plan/1/inputs/1: node 0 is already an input"});
}

TEST(JsonErrors, WrongInputCount) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["kind"] = "Let";
  j["objects"][0]["plan"][1]["local_id"] = 1;
  ExpectError(j, {"/objects/0/plan/1/inputs: expected exactly 2 input(s) for "
                  "a Let node, got 1"});
  json leaf = SmallDocument();
  leaf["objects"][0]["plan"][1] =
      json{{"id", 2}, {"kind", "Constant"}, {"inputs", {0}}};
  ExpectError(leaf, {"/objects/0/plan/1/inputs: expected exactly 0 input(s) "
                     "for a Constant node, got 1"});
  json rec = SmallDocument();
  rec["objects"][0]["plan"][1] =
      json{{"id", 2}, {"kind", "LetRec"}, {"inputs", {0}}, {"local_ids", {1}}};
  ExpectError(rec, {"expected exactly 2 input(s) for a LetRec node"});
}

TEST(JsonErrors, WrongTypes) {
  json j = SmallDocument();
  j["objects"][0]["name"] = 5;
  ExpectError(j, {"/objects/0/name: expected a string, got the integer 5"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["raw"] = "yes";
  ExpectError(j,
              {"/objects/0/plan/0/keys/raw: expected a boolean, got \"yes\""});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["id"] = 1.5;
  ExpectError(j, {"/objects/0/plan/0/id: expected a node id from 1 to "
                  "18446744073709551614, got a non-integer number"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["keys"]["arranged"][0]["thinning"][0] = -3;
  ExpectError(j, {"/objects/0/plan/0/keys/arranged/0/thinning/0: expected an "
                  "integer in [0, 2147483647], got the integer -3"});
  j = SmallDocument();
  j["objects"] = json::object();
  ExpectError(j, {"/objects: expected an array, got an object"});
  j = SmallDocument();
  j["objects"][0]["plan"] = json::array();
  ExpectError(j, {"/objects/0/plan: expected at least one node"});
}

TEST(JsonErrors, UnknownAndMissingFields) {
  json j = SmallDocument();
  j["objects"][0]["plan"][1]["ensure_arrangement"] = json::object();
  ExpectError(j, {"/objects/0/plan/1/ensure_arrangement: unexpected field in "
                  "a Negate node"});
  j = SmallDocument();
  j["objects"][0]["plan"][0]["collection"]["a/b~c"] = 1;
  ExpectError(j, {"/objects/0/plan/0/collection/a~1b~0c: unexpected field"});
  j = SmallDocument();
  j["objects"][0]["plan"][0].erase("collection");
  ExpectError(j, {"/objects/0/plan/0/collection: missing required field"});
  j = SmallDocument();
  j["objects"][0].erase("plan");
  ExpectError(j, {"/objects/0: expected exactly one of \"plan\" and "
                  "\"fast_path\""});
}

TEST(JsonErrors, ExpressionShapes) {
  auto with_key = [](json expr) {
    json j = SmallDocument();
    j["objects"][0]["plan"][0]["keys"]["arranged"][0]["key"][0] = expr;
    return j;
  };
  const std::string at = "/objects/0/plan/0/keys/arranged/0/key/0";
  ExpectError(with_key(json{{"kind", "if"}, {"args", json::array()}}),
              {at + "/args: expected exactly 3 arguments"});
  ExpectError(
      with_key(json{{"kind", "call"}, {"style", "not"}, {"func", "NOT"}}),
      {at + "/args: expected exactly 1 argument for a not call, got 0"});
  json col = json{{"kind", "column"}, {"column", 0}};
  ExpectError(
      with_key(json{{"kind", "case_lookup"}, {"args", {col, col, col, col}}}),
      {at + "/args/1: expected a literal expression"});
  ExpectError(with_key(json{{"kind", "column"}, {"column", 0}, {"text", "x"}}),
              {at + "/text: unexpected field in a column expression"});
  ExpectError(with_key(json{{"kind", "literal"}, {"type", "number"}}),
              {at + "/text: missing required field"});
}

// An expression `((... (#0 + 1) ...) + 1)` nested `depth` levels.
json NestedExprJson(int depth) {
  json expr = json{{"kind", "column"}, {"column", 0}};
  for (int i = 1; i < depth; ++i) {
    expr =
        json{{"kind", "call"},
             {"style", "infix"},
             {"func", "+"},
             {"args",
              {std::move(expr),
               json{{"kind", "literal"}, {"type", "number"}, {"text", "1"}}}}};
  }
  return expr;
}

TEST(JsonErrors, ExpressionDepthBound) {
  auto with_filter = [](json expr) {
    json j = SmallDocument();
    j["objects"][0]["plan"][1] = json{{"id", 2},
                                      {"kind", "Mfp"},
                                      {"inputs", {0}},
                                      {"mfp", {{"filter", {std::move(expr)}}}}};
    return j;
  };
  absl::StatusOr<Document> ok =
      FromJson(with_filter(NestedExprJson(kMaxExprDepth)));
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(Depth(ok->objects[0].plan->As<MfpOp>().mfp.filter[0]),
            kMaxExprDepth);
  ExpectError(with_filter(NestedExprJson(kMaxExprDepth + 1)),
              {"expression nested deeper than 1000 levels"});
}

TEST(JsonErrors, DeeplyNestedJsonIsRejectedWithoutRecursing) {
  // 200,000 nested arrays where a string belongs: the reader stops at the
  // bracket past kMaxJsonNesting (the object is level 1), before building
  // anything that deep.
  const std::string prefix =
      R"({"format": "lir-plan/1", "objects": [], "target_cluster": )";
  const std::string text =
      prefix + std::string(200000, '[') + std::string(200000, ']') + "}";
  absl::StatusOr<Document> doc = ReadJson(text, "deep.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(
      doc.status().message(),
      absl::StrCat("deep.json:1:", prefix.size() + explain::kMaxJsonNesting,
                   ": nesting deeper than ", explain::kMaxJsonNesting,
                   " levels (lir's limit for JSON input)"));
}

TEST(JsonErrors, SyntaxErrorHasLineAndColumn) {
  std::string text =
      "{\n  \"format\": \"lir-plan/1\",\n  \"objects\": [tru]\n}\n";
  absl::StatusOr<Document> doc = ReadJson(text, "plan.json");
  ASSERT_FALSE(doc.ok());
  // Line 3 is `  "objects": [tru]`; the `]` after `tru` (column 18) is where
  // the literal goes wrong.
  EXPECT_TRUE(absl::StartsWith(doc.status().message(), "plan.json:3:18: "))
      << doc.status().message();
  EXPECT_NE(doc.status().message().find("invalid literal"), std::string::npos)
      << doc.status().message();

  absl::StatusOr<Document> truncated = ReadJson("{\"format\": ", "t.json");
  ASSERT_FALSE(truncated.ok());
  EXPECT_TRUE(absl::StartsWith(truncated.status().message(), "t.json:1:"))
      << truncated.status().message();

  absl::StatusOr<Document> empty = ReadJson("", "e.json");
  ASSERT_FALSE(empty.ok());
  EXPECT_TRUE(absl::StartsWith(empty.status().message(), "e.json:1:1: "))
      << empty.status().message();
}

TEST(JsonErrors, SemanticErrorsNameTheFile) {
  absl::StatusOr<Document> doc =
      ReadJson(R"({"format": "lir-plan/0", "objects": []})", "old.json");
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            "old.json: /format: unsupported format \"lir-plan/0\"; this reader "
            "supports \"lir-plan/2\" and \"lir-plan/1\"");
}

// Every value of a rich document replaced by values of other types, and
// every member removed, one at a time: the reader must either reject the
// result with an InvalidArgument error or return a document that prints.
TEST(JsonErrors, SingleMutationsNeverCrash) {
  const json original = ToJson(FullDocument());
  const json flat = original.flatten();
  const std::vector<json> replacements = {
      nullptr,       true,          -1, 0, 1, 1.5, 4294967296LL, "Delta",
      json::array(), json::object()};
  int accepted = 0;
  int rejected = 0;
  auto check = [&](const json& mutated) {
    absl::StatusOr<Document> doc;
    ASSERT_NO_THROW(doc = FromJson(mutated));
    if (doc.ok()) {
      ++accepted;
      std::string text = PrintText(*doc);
      EXPECT_FALSE(text.empty());
    } else {
      ++rejected;
      EXPECT_EQ(doc.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_EQ(doc.status().message().substr(0, 1), "/")
          << doc.status().message();
    }
  };
  for (const auto& [pointer_text, value] : flat.items()) {
    const json::json_pointer pointer(pointer_text);
    for (const json& replacement : replacements) {
      json mutated = original;
      mutated[pointer] = replacement;
      check(mutated);
    }
    // Remove the member or element holding this value.
    json removed = original;
    json& parent = removed[pointer.parent_pointer()];
    if (parent.is_object()) {
      parent.erase(pointer.back());
    } else if (parent.is_array()) {
      parent.erase(std::stoul(pointer.back()));
    }
    check(removed);
  }
  // Both outcomes must occur, or the mutations did not reach the reader.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 1000);
  std::cout << accepted << " mutations accepted, " << rejected << " rejected"
            << std::endl;
}

// ---- Deep plans -----------------------------------------------------------

TEST(JsonDeep, HundredThousandNegatesRoundTrip) {
  constexpr int kDepth = 100000;
  PlanBuilder chain = PlanBuilder::Constant({Row{Literal::Int(1)}});
  for (int i = 0; i < kDepth; ++i) chain = std::move(chain).Negate();
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = std::move(chain).Release();
  AssignPostOrderIds(*object.plan);

  std::string text = WriteJson(doc);
  absl::StatusOr<Document> back = ReadJson(text, "deep.json");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_NE(back->objects[0].plan, nullptr);
  EXPECT_EQ(CountNodes(*back->objects[0].plan), size_t{kDepth + 1});
  EXPECT_EQ(back->objects[0].plan->id, LirId{kDepth + 1});
  ExpectSamePlan(*object.plan, *back->objects[0].plan);
  EXPECT_EQ(WriteJson(*back), text);
}

// The example in docs/json-format.md must be real: its JSON reads back and
// prints exactly the EXPLAIN text shown next to it.
TEST(JsonDocs, ExampleMatchesItsText) {
  const std::string doc_text = [] {
    std::ifstream in(std::filesystem::path(LIR_SOURCE_DIR) / "docs" /
                     "json-format.md");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }();
  auto block_after = [&](const std::string& opener) -> std::string {
    size_t begin = doc_text.find(opener);
    if (begin == std::string::npos) return "";
    begin += opener.size();
    size_t end = doc_text.find("\n```", begin);
    if (end == std::string::npos) return "";
    return doc_text.substr(begin, end + 1 - begin);
  };
  const std::string text = block_after("The EXPLAIN text\n\n```\n");
  const std::string example = block_after("```json\n");
  ASSERT_FALSE(text.empty());
  ASSERT_FALSE(example.empty());
  absl::StatusOr<Document> from_json = ReadJson(example, "json-format.md");
  ASSERT_TRUE(from_json.ok()) << from_json.status();
  EXPECT_EQ(PrintText(*from_json), text);
  absl::StatusOr<Document> from_text = ParseText(text);
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  EXPECT_EQ(ToJson(*from_text), json::parse(example));
}

// ---- Corpus -----------------------------------------------------------------

TEST(JsonCorpus, TextJsonTextIsByteIdentical) {
  const std::vector<std::filesystem::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  ASSERT_EQ(files.size(), 134u);
  int identical = 0;
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const std::string text = test::ReadFile(file);
    ParseOptions options;
    options.filename = name;
    absl::StatusOr<Document> parsed = ParseText(text, options);
    if (!parsed.ok()) {
      ADD_FAILURE() << name << ": parse: " << parsed.status();
      continue;
    }
    std::string json_text = ToJson(*parsed).dump(2);
    absl::StatusOr<Document> back = ReadJson(json_text, name);
    if (!back.ok()) {
      ADD_FAILURE() << name << ": " << back.status();
      continue;
    }
    std::string printed = PrintText(*back);
    if (printed == text) {
      ++identical;
    } else {
      ADD_FAILURE() << name << ": differs after the JSON round trip";
    }
  }
  std::cout << identical << "/" << files.size()
            << " byte-identical through JSON" << std::endl;
  EXPECT_EQ(identical, static_cast<int>(files.size()));
}

// ---- Fast paths -------------------------------------------------------------

// A document whose only object is a fast path with body `fast_path`.
json FastPathDocument(json fast_path) {
  return json{
      {"format", "lir-plan/2"},
      {"objects", json::array({json{{"name", "Explained Query (fast path)"},
                                    {"fast_path", std::move(fast_path)}}})}};
}

TEST(JsonFastPath, ReadsEveryFormBackToTheSameText) {
  const std::string text =
      "Explained Query (fast path):\n"
      "  Project (#2, #0)\n"
      "    Filter (#1{b} > 2) AND (#1{b}) IS NOT NULL\n"
      "      Map ((#0{a} + 1))\n"
      "        ReadIndex on=materialize.public.t t_a_idx=[lookup values=[(1); "
      "(2)]]\n"
      "\n"
      "Explained Query (fast path):\n"
      "  PeekPersist materialize.public.t [value=(1)]\n"
      "\n"
      "Explained Query (fast path):\n"
      "  Error \"bad\\n\\\"x\\\"\"\n";
  absl::StatusOr<Document> doc = ParseText(text);
  ASSERT_TRUE(doc.ok()) << doc.status();
  const json j = ToJson(*doc);
  const json& read = j["objects"][0]["fast_path"];
  EXPECT_EQ(read["kind"], "read_index");
  EXPECT_EQ(read["index"], "t_a_idx");
  EXPECT_EQ(read["lookup"].size(), 2u);
  EXPECT_EQ(read["project"].size(), 2u);
  EXPECT_EQ(j["objects"][1]["fast_path"]["kind"], "peek_persist");
  EXPECT_EQ(j["objects"][2]["fast_path"]["error"], "bad\n\"x\"");
  absl::StatusOr<Document> back = FromJson(j);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->objects[0].fast_path, doc->objects[0].fast_path);
  EXPECT_EQ(PrintText(*back), text);
}

TEST(JsonFastPath, VersionOneLinesAreParsedAsText) {
  json j = FastPathDocument(json::array(
      {"Project (#0, #1)",
       "  ReadIndex on=materialize.public.t t_a_idx=[lookup value=(5)]"}));
  j["format"] = "lir-plan/1";
  absl::StatusOr<Document> doc = FromJson(j);
  ASSERT_TRUE(doc.ok()) << doc.status();
  ASSERT_TRUE(doc->objects[0].fast_path.has_value());
  EXPECT_EQ(doc->objects[0].fast_path->kind, FastPath::Kind::kReadIndex);
  ASSERT_TRUE(doc->objects[0].fast_path->lookup.has_value());
  EXPECT_EQ(doc->objects[0].fast_path->lookup->size(), 1u);
  // Bad version-1 lines are text errors located under the JSON pointer.
  j["objects"][0]["fast_path"] = json::array({"ReadIndex t"});
  ExpectError(j, {"/objects/0/fast_path:2:3: expected 'Project (', 'Filter ', "
                  "'Map (', 'ReadIndex on=' or 'PeekPersist '"});
  // A version-2 structure is not read as version-1 lines.
  j["objects"][0]["fast_path"] = json{{"kind", "constant"}};
  ExpectError(j, {"/objects/0/fast_path: expected an array"});
}

TEST(JsonFastPath, MalformedBodiesNameTheirPointer) {
  ExpectError(FastPathDocument(json{{"kind", "peek"}}),
              {"/objects/0/fast_path/kind: expected one of constant, "
               "read_index, peek_persist"});
  ExpectError(
      FastPathDocument(json{{"kind", "read_index"}, {"collection", "t"}}),
      {"/objects/0/fast_path/index: missing required field"});
  ExpectError(FastPathDocument(json{{"kind", "peek_persist"}}),
              {"/objects/0/fast_path/collection: missing required field"});
  ExpectError(FastPathDocument(
                  json{{"kind", "read_index"},
                       {"collection", "t"},
                       {"index", "i"},
                       {"project", json::array({json{{"kind", "literal"},
                                                     {"type", "null"},
                                                     {"text", "null"}}})}}),
              {"/objects/0/fast_path/project/0: expected a column reference"});
  ExpectError(FastPathDocument(json{{"kind", "read_index"},
                                    {"collection", "t"},
                                    {"index", "i"},
                                    {"lookup", json::array({1})}}),
              {"/objects/0/fast_path/lookup/0"});
  ExpectError(FastPathDocument(json{{"kind", "constant"}, {"index", "i"}}),
              {"/objects/0/fast_path/index: unexpected field in a fast-path "
               "constant"});
  ExpectError(FastPathDocument(json{{"kind", "peek_persist"},
                                    {"collection", "t"},
                                    {"lookup", json::array()}}),
              {"/objects/0/fast_path/lookup: unexpected field in a fast-path "
               "persist peek"});
}

}  // namespace
}  // namespace lir::explain
