// The JSON reader accepts only function names, aggregate names, parameter
// groups and table function names that the text form can carry (issue 13,
// fuzz finding json_roundtrip: aggregates named `ar;ray_agg` or `c!unt`
// read from JSON printed text that did not parse). For every hostile string
// in every such position, a document is either rejected at the JSON pointer
// of the string, or reads back from its text as the same document.
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "nlohmann/json.hpp"

namespace lir::explain {
namespace {

using nlohmann::json;

json Column(int i) { return {{"kind", "column"}, {"column", i}}; }

json Doc(const json& plan) {
  return {{"format", "lir-plan/2"},
          {"node_identifiers", false},
          {"objects", {{{"name", "Explained Query"}, {"plan", plan}}}}};
}

json GetNode(const json& mfp) {
  json get = {{"id", 1},
              {"inputs", json::array()},
              {"kind", "Get"},
              {"get_kind", "Collection"},
              {"collection", {{"global", "materialize.public.t"}}}};
  if (!mfp.is_null()) get["mfp"] = mfp;
  return get;
}

// A call in a Get's map: /objects/0/plan/0/mfp/map/0.
json CallDoc(const std::string& style, const std::string& func, int args,
             const json& params = nullptr) {
  json call = {{"kind", "call"}, {"style", style}, {"func", func}};
  for (int i = 0; i < args; ++i) call["args"].push_back(Column(i));
  if (!params.is_null()) call["params"] = params;
  return Doc(json::array({GetNode({{"map", {call}}})}));
}

// Opaque text in a Get's map: /objects/0/plan/0/mfp/map/0.
json OpaqueDoc(const std::string& text) {
  return Doc(json::array(
      {GetNode({{"map", {{{"kind", "opaque"}, {"text", text}}}}})}));
}

// A FlatMap: /objects/0/plan/1/func.
json FlatMapDoc(const std::string& func) {
  return Doc(json::array({GetNode(nullptr),
                          {{"id", 2},
                           {"inputs", {0}},
                           {"kind", "FlatMap"},
                           {"func", func},
                           {"exprs", {Column(0)}}}}));
}

// A hierarchical reduction: /objects/0/plan/1/aggr_funcs/1.
json HierarchicalDoc(const std::string& name) {
  return Doc(json::array({GetNode(nullptr),
                          {{"id", 2},
                           {"inputs", {0}},
                           {"kind", "Reduce"},
                           {"reduce_kind", "HierarchicalMonotonic"},
                           {"aggr_funcs", {"min", name}},
                           {"key_plan", {{"project", {0}}}},
                           {"val_plan", {{"project", {1, 1}}}}}}));
}

// An accumulable aggregate: /objects/0/plan/1/simple_aggrs/0/aggregate.
json AggregateDoc(const std::string& func, const json& params = nullptr,
                  bool distinct = false) {
  json agg = {{"func", func}, {"expr", Column(1)}, {"distinct", distinct}};
  if (!params.is_null()) agg["params"] = params;
  return Doc(
      json::array({GetNode(nullptr),
                   {{"id", 2},
                    {"inputs", {0}},
                    {"kind", "Reduce"},
                    {"reduce_kind", "Accumulable"},
                    {"simple_aggrs", {{{"position", 0}, {"aggregate", agg}}}},
                    {"key_plan", {{"project", {0}}}},
                    {"val_plan", {{"project", {1}}}}}}));
}

// Either rejected with an error at `pointer`, or the text form reads back
// as the same document (with and without node annotations). Returns
// whether it was accepted.
bool AcceptedAndRoundTrips(const json& j, const std::string& pointer,
                           const std::string& what) {
  absl::StatusOr<Document> doc = FromJson(j);
  if (!doc.ok()) {
    EXPECT_TRUE(absl::StartsWith(doc.status().message(), pointer + ": "))
        << what << ": " << doc.status();
    return false;
  }
  for (bool node_ids : {false, true}) {
    PrintOptions print;
    print.node_identifiers = node_ids;
    const std::string text = PrintText(*doc, print);
    absl::StatusOr<Document> back = ParseText(text);
    if (!back.ok()) {
      ADD_FAILURE() << what << ": accepted, but its text does not parse: "
                    << back.status() << "\n"
                    << text;
      continue;
    }
    json expected = ToJson(*doc);
    json got = ToJson(*back);
    expected["node_identifiers"] = got["node_identifiers"] = false;
    EXPECT_EQ(got, expected) << what << "\n" << text;
  }
  return true;
}

const std::vector<std::string>& HostileStrings() {
  static const auto* strings = new std::vector<std::string>{
      "abs",
      "timestamp_to_mz_timestamp",
      "ti}estamp",
      "ar;ray_agg",
      "a b",
      "f, g",
      "f(",
      "f)",
      "f()",
      "(",
      ")",
      "\"",
      "f\"",
      "#1",
      "1",
      "case when",
      "case_lookup",
      "AND",
      "OR",
      "NOT",
      "IS NULL",
      "IS FOO",
      "array",
      "list",
      "error",
      "count",
      "-",
      "~",
      "+",
      "||",
      "a.b",
      "x // { node_id: LirId(9) }",
      " f",
      "f ",
      "f\nx",
      "f\rx",
      "",
      "regexp_extract(\"(a)\", _)",
      "f[x]",
      "\xC3\xA9t\xC3\xA9",
  };
  return *strings;
}

TEST(JsonTextChecks, FunctionNamesInEveryStyle) {
  struct Style {
    std::string name;
    int args;
  };
  const std::vector<Style> styles = {
      {"function", 1},   {"function", 2}, {"infix", 2},       {"infix", 3},
      {"postfix_is", 1}, {"not", 1},      {"bracket_list", 2}};
  const std::string pointer = "/objects/0/plan/0/mfp/map/0/func";
  int accepted = 0;
  for (const Style& style : styles) {
    for (const std::string& func : HostileStrings()) {
      accepted += AcceptedAndRoundTrips(
          CallDoc(style.name, func, style.args), pointer,
          style.name + "/" + std::to_string(style.args) + " `" + func + "`");
    }
  }
  // What Materialize prints is accepted, in its own style.
  EXPECT_TRUE(AcceptedAndRoundTrips(CallDoc("function", "abs", 1), "", "abs"));
  EXPECT_TRUE(AcceptedAndRoundTrips(CallDoc("function", "-", 1), "", "-"));
  EXPECT_TRUE(AcceptedAndRoundTrips(CallDoc("infix", "||", 2), "", "||"));
  EXPECT_TRUE(AcceptedAndRoundTrips(CallDoc("infix", "AND", 1), "", "AND"));
  EXPECT_TRUE(
      AcceptedAndRoundTrips(CallDoc("postfix_is", "IS NULL", 1), "", "IS"));
  EXPECT_TRUE(AcceptedAndRoundTrips(CallDoc("not", "NOT", 1), "", "NOT"));
  EXPECT_TRUE(
      AcceptedAndRoundTrips(CallDoc("bracket_list", "list", 2), "", "list"));
  EXPECT_TRUE(AcceptedAndRoundTrips(
      CallDoc("function", "jsonb_get_string", 2, "stringify"), "", "params"));
  EXPECT_GT(accepted, 40);

  // The fuzz finding, and a name that parses as another style.
  absl::StatusOr<Document> doc =
      FromJson(CallDoc("function", "ti}estamp_to_mz_timestamp", 1));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            pointer +
                ": expected a function name (and parameters) the text form "
                "can carry; `ti}estamp_to_mz_timestamp(#0)` does not parse "
                "(expected `(` after function name `ti` (or a literal) at "
                "byte 2)");
  doc = FromJson(CallDoc("function", "AND", 1));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            pointer +
                ": expected a function name (and parameters) the text form "
                "can carry; `AND(#0)` reads back as `AND(#0) (style `infix`, "
                "not `function`)`");
}

TEST(JsonTextChecks, AndOrWithFewerThanTwoOperandsReadBack) {
  // Materialize prints them as `AND(#0)` and `OR()`; their JSON used to be
  // refused ("expected at least 2 arguments for an infix call").
  absl::StatusOr<Document> doc = ParseText(
      "Explained Query:\n  Get::Collection materialize.public.t\n"
      "    map=(AND(#0), OR())\n    raw=false\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  absl::StatusOr<Document> back = ReadJson(WriteJson(*doc));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(PrintText(*back), PrintText(*doc));
  EXPECT_EQ(ToJson(*back), ToJson(*doc));
}

TEST(JsonTextChecks, ParameterGroups) {
  const std::string call = "/objects/0/plan/0/mfp/map/0/func";
  const std::string agg = "/objects/0/plan/1/simple_aggrs/0/aggregate/func";
  struct Case {
    std::string params;
    bool carriable;
  };
  const std::vector<Case> cases = {{"order_by=[#0 asc nulls_last]", true},
                                   {"stringify", true},
                                   {"", true},
                                   {"]", false},
                                   {"a](", false},
                                   {"[", false},
                                   {"x\ny", false}};
  for (const Case& c : cases) {
    EXPECT_EQ(AcceptedAndRoundTrips(CallDoc("function", "f", 1, c.params), call,
                                    "call params `" + c.params + "`"),
              c.carriable)
        << c.params;
    EXPECT_EQ(AcceptedAndRoundTrips(AggregateDoc("array_agg", c.params), agg,
                                    "aggregate params `" + c.params + "`"),
              c.carriable)
        << c.params;
  }
}

TEST(JsonTextChecks, AggregateNames) {
  const std::string pointer = "/objects/0/plan/1/simple_aggrs/0/aggregate/func";
  int accepted = 0;
  for (const std::string& func : HostileStrings()) {
    for (bool distinct : {false, true}) {
      accepted += AcceptedAndRoundTrips(AggregateDoc(func, nullptr, distinct),
                                        pointer, "aggregate `" + func + "`");
    }
  }
  EXPECT_GE(accepted, 2 * 8);
  for (const std::string& func : {"count", "sum", "max", "array_agg"}) {
    EXPECT_TRUE(AcceptedAndRoundTrips(AggregateDoc(func), "", func));
  }
  absl::StatusOr<Document> doc = FromJson(AggregateDoc("ar;ray_agg"));
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.status().message(),
            pointer +
                ": expected an aggregate name (and parameters) the text form "
                "can carry; `ar;ray_agg(#0)` does not parse (expected `(` at "
                "byte 2)");
}

TEST(JsonTextChecks, HierarchicalAggregateNames) {
  const std::string pointer = "/objects/0/plan/1/aggr_funcs/1";
  for (const std::string& name : HostileStrings()) {
    const bool carriable = !name.empty() &&
                           name.find(", ") == std::string::npos &&
                           name.find_first_of("\n\r") == std::string::npos;
    EXPECT_EQ(AcceptedAndRoundTrips(HierarchicalDoc(name), pointer,
                                    "aggr_funcs `" + name + "`"),
              carriable)
        << name;
  }
}

TEST(JsonTextChecks, TableFunctionNames) {
  const std::string pointer = "/objects/0/plan/1/func";
  int accepted = 0;
  for (const std::string& func : HostileStrings()) {
    accepted += AcceptedAndRoundTrips(FlatMapDoc(func), pointer,
                                      "FlatMap `" + func + "`");
  }
  EXPECT_GT(accepted, 20);
  // Materialize's names with a group of their own read back whole.
  EXPECT_TRUE(AcceptedAndRoundTrips(FlatMapDoc("regexp_extract(\"(a)\", _)"),
                                    "", "regexp_extract"));
  for (const std::string& bad : {"f(", "f)", "\"", "", " f", "f\nx"}) {
    EXPECT_FALSE(AcceptedAndRoundTrips(FlatMapDoc(bad), pointer, bad)) << bad;
  }
}

TEST(JsonTextChecks, OpaqueTextStaysOnItsLine) {
  // Opaque text prints verbatim (it is what a builder could not express),
  // so it never reads back as opaque; it must not break the line it is on.
  const std::string pointer = "/objects/0/plan/0/mfp/map/0/text";
  for (const std::string& text :
       {std::string("#0"), std::string("a ~ b"), std::string("some <thing>")}) {
    absl::StatusOr<Document> doc = FromJson(OpaqueDoc(text));
    ASSERT_TRUE(doc.ok()) << text << ": " << doc.status();
    EXPECT_TRUE(absl::StrContains(PrintText(*doc), "map=(" + text + ")"));
  }
  for (const std::string& text :
       {std::string("a\nb"), std::string("a\rb"), std::string("")}) {
    absl::StatusOr<Document> doc = FromJson(OpaqueDoc(text));
    ASSERT_FALSE(doc.ok()) << text;
    EXPECT_TRUE(absl::StartsWith(doc.status().message(), pointer + ": "))
        << doc.status();
  }
}

}  // namespace
}  // namespace lir::explain
