// The public API takes and returns std::string_view (never absl::string_view,
// a different class with this Abseil), and honours the view's length: every
// input below is a slice of a longer buffer, so a function that read up to a
// NUL, or converted through a C string, would see the trailing junk.
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/eval/spine.h"
#include "lir/eval/spine_workload.h"
#include "lir/eval/time_values.h"
#include "lir/interp/annotations.h"
#include "lir/interp/monotonicity.h"
#include "lir/node_error.h"
#include "lir/plan_builder.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/report.h"

namespace lir {
namespace {

// The signatures themselves: a header that went back to absl::string_view
// would fail to compile here, not only in a consumer.
static_assert(std::is_same_v<decltype(&ParseFeatureBool),
                             absl::StatusOr<bool> (*)(std::string_view)>);
static_assert(
    std::is_same_v<decltype(&PrefixStatus),
                   absl::Status (*)(std::string_view, const absl::Status&)>);
static_assert(std::is_same_v<decltype(&eval::ParseDate),
                             absl::StatusOr<eval::Date> (*)(std::string_view)>);
static_assert(std::is_same_v<
              decltype(&interp::ParseAnnotationFields),
              absl::StatusOr<interp::AnnotationFields> (*)(std::string_view)>);
static_assert(std::is_same_v<decltype(&OutcomeName),
                             std::string_view (*)(CandidateOutcome)>);
static_assert(std::is_same_v<
              decltype(DeclineName(FusedSetDifferenceDecline::kNotCoArranged)),
              std::string_view>);
static_assert(std::is_same_v<decltype(FeatureInfo::name), std::string_view>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(kNodeErrorTypeUrl)>,
                             std::string_view>);

// The first `n` bytes of `buffer`, which goes on past them.
std::string_view Prefix(const std::string& buffer, size_t n) {
  return std::string_view(buffer.data(), n);
}

TEST(StringViewApi, FeatureSpellingsReadOnlyTheView) {
  const std::string buffer = "tX";
  EXPECT_EQ(ParseFeatureBool(Prefix(buffer, 1)).value(), true);
  EXPECT_FALSE(ParseFeatureBool(buffer).ok());

  const std::string list = "enable_fused_set_difference=on,garbage";
  OptimizerFeatures features;
  ASSERT_TRUE(ApplyFeatureList(features, Prefix(list, list.find(','))).ok());
  EXPECT_TRUE(features.enable_fused_set_difference);
  EXPECT_FALSE(ApplyFeatureList(features, list).ok());
}

TEST(StringViewApi, ConfigErrorsNameTheViewedFileName) {
  const std::string config = R"({"features": {"no_such_feature": true}})";
  const std::string file = "config.json.bak";
  OptimizerFeatures features;
  absl::Status status =
      ApplyConfigText(features, config, Prefix(file, file.size() - 4));
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(absl::StartsWith(status.message(), "config.json:1:15: "))
      << status.message();
}

TEST(StringViewApi, SpinePoliciesAndDescriptions) {
  const std::string policy = "idle_merge:50";
  absl::StatusOr<eval::spine::Policy> five =
      eval::spine::Policy::Parse(Prefix(policy, policy.size() - 1));
  ASSERT_TRUE(five.ok()) << five.status();
  EXPECT_EQ(five->ToString(), "idle_merge:5");

  const std::string layers = "0:S(1) 3:C(8) 9:Z(1)";
  absl::StatusOr<eval::spine::Spine> spine =
      eval::spine::Spine::FromDescription(*five, eval::spine::Exertion::kStock,
                                          Prefix(layers, layers.find(" 9:")));
  ASSERT_TRUE(spine.ok()) << spine.status();
  EXPECT_EQ(spine->Describe(), "0:S(1) 3:C(8)");
  EXPECT_EQ(eval::spine::StateName(eval::spine::LayerView::State::kComplete),
            "complete");

  const std::string label = "round 7 tail";
  const std::string line =
      eval::spine::FormatTraceLine(Prefix(label, 7), *spine);
  EXPECT_TRUE(absl::StartsWith(line, "round 7: ")) << line;
}

TEST(StringViewApi, TimeValuesParseOnlyTheView) {
  const std::string date = "2024-02-29junk";
  EXPECT_EQ(eval::ParseDate(Prefix(date, 10)).value(),
            eval::ParseDate("2024-02-29").value());
  EXPECT_FALSE(eval::ParseDate(date).ok());

  const std::string ts = "2024-02-29 12:34:56.5!";
  EXPECT_TRUE(eval::ParseTimestamp(Prefix(ts, ts.size() - 1)).ok());
  EXPECT_FALSE(eval::ParseTimestamp(ts).ok());

  const std::string interval = "1 day 02:00:00 junk";
  absl::StatusOr<eval::Interval> parsed =
      eval::ParseInterval(Prefix(interval, interval.find(" junk")));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->days, 1);
  EXPECT_EQ(parsed->micros, int64_t{2} * 3600 * 1000000);
}

TEST(StringViewApi, AnalysesAndFunctionNames) {
  const std::string fields = "arity,unique_keys";
  absl::StatusOr<interp::AnnotationFields> arity =
      interp::ParseAnnotationFields(Prefix(fields, 5));
  ASSERT_TRUE(arity.ok()) << arity.status();
  EXPECT_TRUE(arity->arity);
  EXPECT_FALSE(arity->unique_keys);

  const std::string wrap = "wrap2x";
  EXPECT_TRUE(interp::TableFunctionPreservesMonotonicity(Prefix(wrap, 5)));
  EXPECT_FALSE(interp::TableFunctionPreservesMonotonicity(wrap));
}

TEST(StringViewApi, NodeErrorsAndPrefixes) {
  const std::string prefix = "object: trailing";
  absl::Status prefixed =
      PrefixStatus(Prefix(prefix, 8), absl::InvalidArgumentError("bad key"));
  EXPECT_EQ(prefixed.message(), "object: bad key");

  absl::StatusOr<NodePtr> plan =
      PlanBuilder::Get(CollectionId::Global("t1"), PlanBuilder::Raw()).Build();
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string message = "no arrangement!!";
  absl::Status error = NodeError(**plan, absl::StatusCode::kNotFound,
                                 Prefix(message, message.size() - 2));
  EXPECT_TRUE(absl::EndsWith(error.message(), ": no arrangement"))
      << error.message();
  EXPECT_TRUE(NodeErrorOf(error).has_value());
}

}  // namespace
}  // namespace lir
