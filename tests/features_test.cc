// Tests of the optimizer feature list: spellings, sources and errors.
#include "lir/recognizer/features.h"
#include "gtest/gtest.h"

namespace lir {
namespace {

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

TEST(FeatureBool, AcceptsMaterializeSpellingsInAnyCase) {
  for (const char* yes :
       {"true", "t", "on", "1", "yes", "y", "TRUE", "On", "Y"}) {
    absl::StatusOr<bool> value = ParseFeatureBool(yes);
    ASSERT_TRUE(value.ok()) << yes;
    EXPECT_TRUE(*value) << yes;
  }
  for (const char* no : {"false", "f", "off", "0", "no", "n", "False", "OFF"}) {
    absl::StatusOr<bool> value = ParseFeatureBool(no);
    ASSERT_TRUE(value.ok()) << no;
    EXPECT_FALSE(*value) << no;
  }
  for (const char* bad : {"", "2", "yess", "tru", "enabled"}) {
    EXPECT_FALSE(ParseFeatureBool(bad).ok()) << bad;
  }
}

TEST(Features, DefaultsComeFromTheDeclaration) {
  OptimizerFeatures features;
  EXPECT_FALSE(features.enable_fused_set_difference);
  ASSERT_FALSE(AllFeatures().empty());
  EXPECT_EQ(AllFeatures()[0].name, "enable_fused_set_difference");
  EXPECT_EQ(AllFeatures()[0].default_value, "false");
  EXPECT_EQ(FeaturesToString(features),
            "enable_fused_set_difference=false,"
            "enable_relax_must_consolidate=false,"
            "enable_antijoin_rendering=false");
}

TEST(Features, UnknownNameListsTheKnownFeatures) {
  OptimizerFeatures features;
  absl::Status status = SetFeature(features, "enable_magic", "true");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Message(status),
      "unknown feature 'enable_magic'; known features: "
      "enable_fused_set_difference (bool), "
      "enable_relax_must_consolidate (bool), enable_antijoin_rendering (bool)");
}

TEST(Features, BadValueNamesTheFeature) {
  OptimizerFeatures features;
  absl::Status status =
      SetFeature(features, "enable_fused_set_difference", "maybe");
  EXPECT_EQ(Message(status),
            "feature enable_fused_set_difference: invalid boolean 'maybe': "
            "expected true/t/on/1/yes/y or false/f/off/0/no/n");
  EXPECT_FALSE(features.enable_fused_set_difference);
}

TEST(Features, ListLaterEntriesOverrideEarlierOnes) {
  OptimizerFeatures features;
  ASSERT_TRUE(
      ApplyFeatureList(features, "enable_fused_set_difference=on").ok());
  EXPECT_TRUE(features.enable_fused_set_difference);
  ASSERT_TRUE(ApplyFeatureList(features,
                               "enable_fused_set_difference=yes, "
                               "enable_fused_set_difference=0")
                  .ok());
  EXPECT_FALSE(features.enable_fused_set_difference);
  EXPECT_FALSE(ApplyFeatureList(features, "enable_fused_set_difference").ok());
}

TEST(Features, ConfigFileSetsFeatures) {
  OptimizerFeatures features;
  ASSERT_TRUE(
      ApplyConfigText(features,
                      R"({"features": {"enable_fused_set_difference": true}})",
                      "c.json")
          .ok());
  EXPECT_TRUE(features.enable_fused_set_difference);
  ASSERT_TRUE(
      ApplyConfigText(features,
                      R"({"features": {"enable_fused_set_difference": "off"}})",
                      "c.json")
          .ok());
  EXPECT_FALSE(features.enable_fused_set_difference);
}

TEST(Features, ConfigSyntaxErrorHasLineAndColumn) {
  OptimizerFeatures features;
  absl::Status status =
      ApplyConfigText(features,
                      "{\n  \"features\": {\n    "
                      "\"enable_fused_set_difference\": tru\n  }\n}\n",
                      "c.json");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(Message(status).rfind("c.json:3:39: invalid JSON config: ", 0), 0u)
      << Message(status);
}

TEST(Features, ConfigRejectsUnknownKeysAndTypes) {
  OptimizerFeatures features;
  // Located at the offending key or value (testdata/errors/config.txt has
  // every kind across lines).
  EXPECT_EQ(Message(ApplyConfigText(features, R"({"feature": {}})", "c.json")),
            "c.json:1:2: /feature: unknown top-level key 'feature'; expected "
            "\"features\"");
  EXPECT_EQ(Message(ApplyConfigText(
                features, R"({"features": {"enable_fused_set_difference": 1}})",
                "c.json")),
            "c.json:1:46: /features/enable_fused_set_difference: feature "
            "enable_fused_set_difference: expected a boolean or a string, got "
            "number");
  EXPECT_EQ(
      Message(ApplyConfigText(features, R"({"features": {"nope": true}})",
                              "c.json")),
      "c.json:1:15: /features/nope: unknown feature 'nope'; known features: "
      "enable_fused_set_difference (bool), "
      "enable_relax_must_consolidate (bool), enable_antijoin_rendering (bool)");
}

}  // namespace
}  // namespace lir
