// Every JSON input of lir (plan documents, data files, catalogs, configs)
// goes through explain::ParseJsonText: a key repeated within one object is
// an error at the second occurrence, never a silent "last one wins". What
// lir-opt prints for a bad --config is a golden (testdata/cli/flags.txt).
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/eval/data.h"
#include "lir/explain/json.h"
#include "lir/recognizer/features.h"
#include "src/explain/json_locate.h"
#include "src/explain/json_unique_keys.h"

namespace lir {
namespace {

namespace fs = std::filesystem;

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

TEST(JsonUniqueKeys, RepeatedKeyIsReportedAtItsSecondOccurrence) {
  absl::StatusOr<nlohmann::json> parsed = explain::ParseJsonText(
      "{\"a\": 1,\n \"b\": {\"c\": 2,\n       \"c\": 3}}\n", "f.json", "ctx: ");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(Message(parsed.status()),
            "f.json:3:8: ctx: duplicate key at /b/c (first at line 2, "
            "column 8)");
}

TEST(JsonUniqueKeys, PointerCountsArrayElementsAndEscapes) {
  absl::StatusOr<nlohmann::json> parsed = explain::ParseJsonText(
      R"([0, {}, {"x/y~": [{"k\"q": 1, "k\"q": 2}]}])", "f");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(Message(parsed.status()),
            "f:1:31: duplicate key at /2/x~1y~0/0/k\"q (first at line 1, "
            "column 20)");
}

// 60 MB of `[[[...` once took gigabytes before any check ran: nesting past
// kMaxJsonNesting is refused while reading, located at the first bracket
// beyond the limit, for every JSON input (plans, data, catalogs, configs).
TEST(JsonUniqueKeys, NestingPastTheLimitIsLocatedAtItsBracket) {
  const size_t limit = explain::kMaxJsonNesting;
  const std::string at_limit =
      std::string(limit, '[') + std::string(limit, ']');
  EXPECT_TRUE(explain::ParseJsonText(at_limit, "f").ok());
  // Past the limit on line 2: the bracket that opens level limit + 1.
  const std::string deep = "{\"a\":\n" + std::string(limit - 1, '[') + " {" +
                           std::string(100000, '[');
  absl::StatusOr<nlohmann::json> parsed =
      explain::ParseJsonText(deep, "f.json", "ctx: ");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(Message(parsed.status()),
            absl::StrCat("f.json:2:", limit + 1, ": ctx: nesting deeper than ",
                         limit, " levels (lir's limit for JSON input)"));
}

// Keys are remembered as hashes: a repeat is confirmed by reading the
// first key's text again, decoded, so two spellings of one key are one key.
TEST(JsonUniqueKeys, KeysSpelledDifferentlyAreOneKey) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"ab": 1, "a\u0062": 2})",
       "f:1:11: duplicate key at /ab (first at line 1, column 2)"},
      {R"({"a\u0062": 1, "ab": 2})",
       "f:1:16: duplicate key at /ab (first at line 1, column 2)"},
  };
  for (const auto& [text, message] : cases) {
    absl::StatusOr<nlohmann::json> parsed = explain::ParseJsonText(text, "f");
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(Message(parsed.status()), message) << text;
  }
}

TEST(JsonUniqueKeys, ARepeatAmongManyKeysIsFound) {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) absl::StrAppend(&text, "\"k", i, "\": 0, ");
  const size_t repeat = text.size();
  text += "\"k0\": 1}";
  absl::StatusOr<nlohmann::json> parsed = explain::ParseJsonText(text, "f");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(Message(parsed.status()),
            absl::StrCat("f:1:", repeat + 1,
                         ": duplicate key at /k0 (first at line 1, column 2)"));
}

// Every key hashing alike: different keys are still different (the
// fallback for a 64-bit collision) and a repeat is still found.
TEST(JsonUniqueKeys, KeysWhoseHashesCollideAreComparedByText) {
  struct SameHash {
    size_t operator()(std::string_view) const { return 7; }
  };
  using Dom = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;
  auto parse = [](std::string_view text) {
    nlohmann::json result;
    Dom dom(result, /*allow_exceptions_=*/true);
    explain::JsonReadPosition position{text, text.data()};
    size_t error_start = 0;
    const absl::Status status =
        explain::CatchJsonErrors(text, "f", "", error_start, [&] {
          explain::CheckedJsonSax<Dom, SameHash> checked(dom, &position,
                                                         &error_start);
          using explain::json_sax_internal::TrackingIterator;
          nlohmann::json::sax_parse(
              TrackingIterator(text.data(), &position),
              TrackingIterator(text.data() + text.size(), &position), &checked);
        });
    return status.ok() ? absl::StatusOr<nlohmann::json>(result)
                       : absl::StatusOr<nlohmann::json>(status);
  };
  absl::StatusOr<nlohmann::json> distinct =
      parse(R"({"a": 1, "b": 2, "c": {"a": 3}, "d": 4})");
  ASSERT_TRUE(distinct.ok()) << distinct.status();
  EXPECT_EQ(distinct->size(), 4u);
  // A repeat of the first key, and of a key that collided with it.
  EXPECT_EQ(Message(parse(R"({"a": 1, "b": 2, "a": 3})").status()),
            "f:1:18: duplicate key at /a (first at line 1, column 2)");
  EXPECT_EQ(Message(parse(R"({"a": 1, "b": 2, "c": 3, "b": 4})").status()),
            "f:1:26: duplicate key at /b (first at line 1, column 10)");
  // Objects past the few keys compared one by one move to a table of their
  // own: the same answers there, for repeats of a key from either side of
  // the move, and with a nested object's keys (the same names) in between.
  auto object = [](int keys, const std::string& extra) {
    std::string text = "{";
    for (int i = 0; i < keys; ++i) {
      absl::StrAppend(&text, i == 0 ? "" : ",", "\"k", i, "\":1");
      if (i == 3) absl::StrAppend(&text, ",\"n\":{\"k0\":1,\"k1\":2}");
    }
    return absl::StrCat(text, extra, "}");
  };
  for (int keys : {31, 32, 33, 100}) {
    SCOPED_TRACE(keys);
    absl::StatusOr<nlohmann::json> big = parse(object(keys, ""));
    ASSERT_TRUE(big.ok()) << big.status();
    EXPECT_EQ(big->size(), static_cast<size_t>(keys) + 1);
    const std::string early = object(keys, ",\"k1\":2");
    EXPECT_EQ(
        Message(parse(early).status()),
        absl::StrCat("f:1:", early.rfind("\"k1\"") + 1,
                     ": duplicate key at /k1 (first at line 1, column 9)"));
    const std::string last = absl::StrCat("\"k", keys - 1, "\"");
    const std::string late = object(keys, absl::StrCat(",", last, ":2"));
    EXPECT_EQ(
        Message(parse(late).status()),
        absl::StrCat("f:1:", late.rfind(last) + 1, ": duplicate key at /k",
                     keys - 1, " (first at line 1, column ",
                     late.find(last) + 1, ")"));
  }
}

TEST(JsonLocate, CountElementsCountsAnArraysElementsAndEndsOnAnyText) {
  const std::string text = R"({"u": [1, [2, ","], {"a": [3]}, "]"], "e": []})";
  const explain::JsonLocator locator(text);
  EXPECT_EQ(locator.CountElements(text.find('[')), 4u);
  EXPECT_EQ(locator.CountElements(text.rfind('[')), 0u);
  EXPECT_EQ(locator.CountElements(0), 0u);  // an object
  // Not JSON: some count, but the walk ends.
  for (const char* broken : {"[,,,", "[1 2", "[}", "[", "[\"", "[{[{"}) {
    EXPECT_LE(explain::JsonLocator(broken).CountElements(0),
              std::string_view(broken).size())
        << broken;
  }
}

TEST(JsonUniqueKeys, SameKeyInSiblingObjectsIsFine) {
  absl::StatusOr<nlohmann::json> parsed = explain::ParseJsonText(
      R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})", "f");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, nlohmann::json::parse(
                         R"({"a": {"k": 1}, "b": {"k": 2},
                             "c": [{"k": 1}, {"k": 2}]})"));
}

TEST(JsonUniqueKeys, ParsesLikeNlohmann) {
  const std::string text =
      R"({"n": null, "b": [true, false], "i": -3, "u": 18446744073709551615,
          "f": 1.5e3, "s": "x\u00e9\n", "e": {}, "a": [[], [{}]]})";
  EXPECT_EQ(explain::ParseJsonWithUniqueKeys(text),
            nlohmann::json::parse(text));
  // Syntax errors are nlohmann's own, with their position.
  absl::StatusOr<nlohmann::json> bad = explain::ParseJsonText("[1,\n 2", "f");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StartsWith(Message(bad.status()), "f:2:3: syntax error"))
      << bad.status();
}

// That a plan document, a data file and a catalog refuse a repeated key
// through lir-opt is a golden: testdata/cli/json_keys.txt. Here, that a
// config applies none of itself.
TEST(JsonUniqueKeys, ConfigRejectsARepeatedFeature) {
  OptimizerFeatures features;
  absl::Status status =
      ApplyConfigText(features,
                      "{\"features\": {\n"
                      "  \"enable_fused_set_difference\": true,\n"
                      "  \"enable_fused_set_difference\": false}}\n",
                      "c.json");
  EXPECT_EQ(Message(status),
            "c.json:3:3: invalid JSON config: duplicate key at "
            "/features/enable_fused_set_difference (first at line 2, column "
            "3)");
  EXPECT_FALSE(features.enable_fused_set_difference);
}

TEST(ConfigFile, DirectoryIsNamedAsOne) {
  OptimizerFeatures features;
  const fs::path dir = fs::path(::testing::TempDir()) / "lir_config_dir";
  fs::create_directories(dir);
  EXPECT_EQ(Message(ApplyConfigFile(features, dir.string())),
            dir.string() + ": cannot read config file: is a directory");
  EXPECT_EQ(Message(ApplyConfigFile(features, (dir / "missing").string())),
            (dir / "missing").string() +
                ": cannot read config file: No such file or directory");
}

TEST(ConfigFile, LargerThanTheLimitIsRefusedWholeAndAppliesNothing) {
  const fs::path path = fs::path(::testing::TempDir()) / "lir_config_big.json";
  const std::string config =
      "{\"features\": {\"enable_fused_set_difference\": true}}";
  {
    std::ofstream out(path, std::ios::binary);
    out << config;
  }
  OptimizerFeatures features;
  absl::Status status =
      ApplyConfigFile(features, path.string(), config.size() - 1);
  EXPECT_TRUE(absl::IsResourceExhausted(status)) << status;
  EXPECT_EQ(Message(status),
            absl::StrCat(path.string(),
                         ": cannot read config file: it is more than the limit "
                         "of ",
                         config.size() - 1, " bytes"));
  EXPECT_FALSE(features.enable_fused_set_difference);
  // Exactly at the limit is fine.
  ASSERT_TRUE(ApplyConfigFile(features, path.string(), config.size()).ok());
  EXPECT_TRUE(features.enable_fused_set_difference);
}

}  // namespace
}  // namespace lir
