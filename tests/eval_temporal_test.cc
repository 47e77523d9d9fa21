// Timestamps, intervals and temporal filters of the reference evaluator:
// value forms and arithmetic (time_values.h), the Datum kinds, and the
// meaning of mz_now() bounds (temporal.h) in both engines' forms.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/eval/data.h"
#include "lir/eval/datum.h"
#include "lir/eval/run.h"
#include "lir/eval/scalar_eval.h"
#include "lir/eval/time_values.h"
#include "lir/explain/text.h"
#include "src/eval/values/temporal.h"
#include "src/explain/text_primitives.h"
#include "tests/support/eval_scalar_test_util.h"

namespace lir::eval {
namespace {

using namespace test::scalar;  // NOLINT: the shared test helpers

Timestamp Ts(const char* text) {
  absl::StatusOr<Timestamp> ts = ParseTimestamp(text);
  EXPECT_TRUE(ts.ok()) << text << ": " << ts.status();
  return ts.value_or(Timestamp{});
}

Interval Iv(const char* text) {
  absl::StatusOr<Interval> iv = ParseInterval(text);
  EXPECT_TRUE(iv.ok()) << text << ": " << iv.status();
  return iv.value_or(Interval{});
}

TEST(TimeValues, DatumStaysFortyBytes) {
  // Timestamps (8 bytes) and intervals (16) fit beside the string
  // alternative, so adding them grows no row.
  EXPECT_EQ(sizeof(Datum), 40u);
}

TEST(TimeValues, TimestampsReadAndPrint) {
  EXPECT_EQ(Ts("1970-01-01 00:00:00").micros, 0);
  EXPECT_EQ(Ts("1970-01-02 00:00:00.5").micros, 86400500000);
  EXPECT_EQ(Ts("1969-12-31 23:59:59.999999").micros, -1);
  EXPECT_EQ(Ts("2000-03-01 00:00:00").micros - Ts("2000-02-28 00:00:00").micros,
            2 * int64_t{86400000000});  // 2000 is a leap year
  for (const char* text :
       {"2024-01-01 00:00:00", "1969-12-31 00:00:00.002", "0001-01-01 00:00:00",
        "9999-12-31 23:59:59.123456"}) {
    EXPECT_EQ(FormatTimestamp(Ts(text)), text);
  }
  for (const char* bad :
       {"2024-02-30 00:00:00", "2024-1-01 00:00:00", "2024-01-01",
        "2024-01-01 24:00:00", "2024-01-01 00:60:00",
        "2024-01-01 00:00:00.1234567", "2024-01-01 00:00:00x"}) {
    EXPECT_FALSE(ParseTimestamp(bad).ok()) << bad;
  }
}

TEST(TimeValues, IntervalsReadAndPrint) {
  EXPECT_EQ(Iv("45 days"), (Interval{0, 45, 0}));
  EXPECT_EQ(Iv("1 day"), (Interval{0, 1, 0}));
  EXPECT_EQ(
      Iv("1 year 2 mons 3 days 04:05:06.5"),
      (Interval{14, 3, ((4 * 60 + 5) * 60 + 6) * int64_t{1000000} + 500000}));
  EXPECT_EQ(Iv("-00:00:01"), (Interval{0, 0, -1000000}));
  EXPECT_EQ(Iv("100:00:00"), (Interval{0, 0, int64_t{360000} * 1000000}));
  for (const char* text :
       {"45 days", "1 day", "1 year 2 mons 3 days 04:05:06.5",
        "-1 days -00:00:01", "00:00:00", "2 years"}) {
    EXPECT_EQ(FormatInterval(Iv(text)), text);
  }
  for (const char* bad : {"", "45", "45 fortnights", "1:2", "days 45"}) {
    EXPECT_FALSE(ParseInterval(bad).ok()) << bad;
  }
  // SQL order: a month is 30 days.
  EXPECT_EQ(CompareIntervals(Iv("1 mon"), Iv("30 days")), 0);
  EXPECT_EQ(CompareIntervals(Iv("1 mon"), Iv("29 days 23:59:59")), 1);
}

TEST(TimeValues, TimestampPlusInterval) {
  auto add = [](const char* ts, const char* iv, int sign = 1) {
    absl::StatusOr<Timestamp> r = AddInterval(Ts(ts), Iv(iv), sign);
    return r.ok() ? FormatTimestamp(*r) : std::string(r.status().message());
  };
  EXPECT_EQ(add("1969-11-17 00:00:00.003", "45 days"),
            "1970-01-01 00:00:00.003");
  // Months first, the day clamped to the month's length (PostgreSQL).
  EXPECT_EQ(add("2024-01-31 10:00:00", "1 mon"), "2024-02-29 10:00:00");
  EXPECT_EQ(add("2023-01-31 10:00:00", "1 mon 1 day"), "2023-03-01 10:00:00");
  EXPECT_EQ(add("2024-03-31 00:00:00", "1 mon", -1), "2024-02-29 00:00:00");
  EXPECT_EQ(add("2024-01-01 00:00:00", "-00:00:01"), "2023-12-31 23:59:59");
  EXPECT_EQ(add("9999-12-31 00:00:00", "1 day"), "timestamp out of range");
}

TEST(TimeValues, MzTimestampIsMillisecondsSinceTheEpoch) {
  EXPECT_EQ(TimestampToMzTimestamp(Ts("1970-01-01 00:00:00.0019")).value(), 1);
  EXPECT_EQ(TimestampToMzTimestamp(Ts("2024-01-01 00:00:00")).value(),
            int64_t{1704067200000});
  absl::StatusOr<int64_t> before =
      TimestampToMzTimestamp(Ts("1969-12-31 23:59:59.999"));
  EXPECT_EQ(before.status().code(), absl::StatusCode::kOutOfRange);
}

TEST(TimeValues, ScalarFunctionsAndLiterals) {
  const DataRow row = {Datum::Time(Ts("1969-11-17 00:00:00.003")), N};
  absl::StatusOr<Datum> bound =
      EvalScalar(E("timestamp_to_mz_timestamp((#0 + 45 days))"), row);
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(*bound, I(3));
  EXPECT_EQ(
      EvalScalar(E("timestamp_to_mz_timestamp((#1 + 45 days))"), row).value(),
      N);
  EXPECT_EQ(
      EvalScalar(E("((#0 + 45 days) > 1970-01-01 00:00:00)"), row).value(),
      B(true));
  EXPECT_EQ(EvalScalar(E("((1 day + 1 day) = 2 days)"), {}).value(), B(true));
  EXPECT_EQ(EvalScalar(E("step_mz_timestamp(#0)"), {I(4)}).value(), I(5));
  EXPECT_EQ(EvalScalar(E("(#0 + 1 day)"), {I(1)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Literals print back as EXPLAIN prints them.
  EXPECT_EQ(FormatDatum(EvalScalar(E("45 days"), {}).value()), "45 days");
  EXPECT_EQ(FormatDatum(Datum::Time(Ts("2024-01-01 00:00:00"))),
            "2024-01-01 00:00:00");
  // Sorting puts timestamps after nested values and orders them by time.
  EXPECT_LT(Datum::Time(Timestamp{1}), Datum::Time(Timestamp{2}));
  EXPECT_LT(Datum::List({}), Datum::Time(Timestamp{-5}));
}

TEST(TimeValues, DataFileJson) {
  absl::StatusOr<InputData> data = ParseInputData(
      R"({"collections": {"t": {"arity": 2, "updates": [
        [[{"timestamp": "2024-01-01 00:00:00.5"}, {"interval": "45 days"}], 0, 1]]}}})",
      "data.json");
  ASSERT_TRUE(data.ok()) << data.status();
  const DataRow& row = data->collections.at("t").updates[0].row;
  EXPECT_EQ(row[0], Datum::Time(Ts("2024-01-01 00:00:00.5")));
  EXPECT_EQ(row[1], Datum::Span(Iv("45 days")));
  EXPECT_EQ(DatumToJson(row[0]).dump(),
            R"({"timestamp":"2024-01-01 00:00:00.5"})");
  EXPECT_EQ(DatumToJson(row[1]).dump(), R"({"interval":"45 days"})");
  absl::StatusOr<InputData> bad = ParseInputData(
      R"({"collections": {"t": {"arity": 1, "updates": [[[{"timestamp": "2024-13-01 00:00:00"}], 0, 1]]}}})",
      "data.json");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "invalid timestamp"))
      << bad.status();
}

// ---- Temporal filters ----------------------------------------------------

TemporalMfp Plan(const std::vector<std::string>& filters,
                 std::optional<TemporalFilter> temporal = std::nullopt) {
  MapFilterProject mfp = Mfp({}, filters, std::nullopt);
  mfp.temporal = std::move(temporal);
  absl::StatusOr<TemporalMfp> plan = PlanTemporal(mfp);
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.value_or(TemporalMfp{});
}

std::string Bounds(const TemporalMfp& plan) {
  std::string out = "lower:";
  for (const ScalarExpr& e : plan.lower) out += " " + explain::PrintExpr(e);
  out += " upper:";
  for (const ScalarExpr& e : plan.upper) out += " " + explain::PrintExpr(e);
  return out;
}

TEST(Temporal, FiltersBecomeBoundsAsCreateFromMakesThem) {
  EXPECT_EQ(Bounds(Plan({"(mz_now() < #0)"})), "lower: upper: #0");
  EXPECT_EQ(Bounds(Plan({"(mz_now() <= #0)"})),
            "lower: upper: step_mz_timestamp(#0)");
  EXPECT_EQ(Bounds(Plan({"(mz_now() > #0)"})),
            "lower: step_mz_timestamp(#0) upper:");
  EXPECT_EQ(Bounds(Plan({"(mz_now() >= #0)"})), "lower: #0 upper:");
  EXPECT_EQ(Bounds(Plan({"(mz_now() = #0)"})),
            "lower: #0 upper: step_mz_timestamp(#0)");
  // Flipped: `#0 < mz_now()` is `mz_now() > #0`.
  EXPECT_EQ(Bounds(Plan({"(#0 < mz_now())"})),
            "lower: step_mz_timestamp(#0) upper:");
  // Ordinary filters stay; printed bounds are kept.
  TemporalMfp mixed =
      Plan({"(#0 > 1)", "(mz_now() < #1)"}, TemporalFilter{{E("#0")}, {}});
  EXPECT_EQ(mixed.mfp.filter.size(), 1u);
  EXPECT_EQ(Bounds(mixed), "lower: #0 upper: #1");
}

TEST(Temporal, MisplacedMzNowIsAnError) {
  for (const auto& mfp :
       {Mfp({"mz_now()"}, {}, std::nullopt),
        Mfp({}, {"((mz_now() < #0) OR (#1 > 0))"}, std::nullopt),
        Mfp({}, {"(mz_now() < step_mz_timestamp(mz_now()))"}, std::nullopt),
        Mfp({}, {"(mz_now() != #0)"}, std::nullopt)}) {
    absl::StatusOr<TemporalMfp> plan = PlanTemporal(mfp);
    EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StartsWith(plan.status().message(), "mz_now() "))
        << plan.status();
    EXPECT_FALSE(RejectTemporal(mfp).ok());
  }
}

using Scheduled = std::map<uint64_t, std::vector<RowDiff>>;

TEST(Temporal, ScheduleMovesUpdatesToTheirBounds) {
  const TemporalMfp plan = Plan({"(mz_now() >= #0)", "(mz_now() < #1)"});
  Scheduled out;
  // Inserted at 1, valid from 3 until 5.
  ASSERT_TRUE(ScheduleTemporal(plan, {I(3), I(5)}, 1, 1, &out).ok());
  // Inserted at 4, after its lower bound: from 4 until 5, diff kept.
  ASSERT_TRUE(ScheduleTemporal(plan, {I(0), I(5)}, 4, -2, &out).ok());
  // Expired before it arrived; an empty interval; a NULL bound: nothing.
  ASSERT_TRUE(ScheduleTemporal(plan, {I(0), I(2)}, 3, 1, &out).ok());
  ASSERT_TRUE(ScheduleTemporal(plan, {I(4), I(4)}, 0, 1, &out).ok());
  ASSERT_TRUE(ScheduleTemporal(plan, {N, I(9)}, 0, 1, &out).ok());
  const Scheduled expected = {
      {3, {{{I(3), I(5)}, 1}}},
      {4, {{{I(0), I(5)}, -2}}},
      {5, {{{I(3), I(5)}, -1}, {{I(0), I(5)}, 2}}},
  };
  EXPECT_EQ(out, expected);
}

TEST(Temporal, SnapshotMeaningAgreesAndReportsTheNextRound) {
  const TemporalMfp plan = Plan({"(mz_now() >= #0)", "(mz_now() < #1)"});
  std::optional<uint64_t> next;
  auto at = [&](DataRow row, uint64_t now) {
    absl::StatusOr<std::optional<DataRow>> r =
        EvalTemporalAt(plan, row, now, &next);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() && r->has_value();
  };
  EXPECT_FALSE(at({I(3), I(5)}, 2));
  EXPECT_EQ(next, 3u);  // enters at 3
  next.reset();
  EXPECT_TRUE(at({I(3), I(5)}, 3));
  EXPECT_TRUE(at({I(3), I(5)}, 4));
  EXPECT_EQ(next, 5u);  // leaves at 5
  next.reset();
  EXPECT_FALSE(at({I(3), I(5)}, 5));
  EXPECT_FALSE(next.has_value());  // nothing more will happen
}

TEST(Temporal, BoundErrors) {
  Scheduled out;
  const TemporalMfp far = Plan({"(mz_now() < #0)"});
  absl::Status beyond =
      ScheduleTemporal(far, {I(kMaxTemporalRound + 1)}, 0, 1, &out);
  EXPECT_EQ(beyond.code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(absl::StrContains(beyond.message(), "row (9007199254740992)"))
      << beyond;
  EXPECT_TRUE(absl::StrContains(beyond.message(), "(9007199254740991)"))
      << beyond;
  std::optional<uint64_t> next;
  EXPECT_EQ(
      EvalTemporalAt(far, {I(kMaxTemporalRound + 1)}, 0, &next).status().code(),
      absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(ScheduleTemporal(far, {I(kMaxTemporalRound)}, 0, 1, &out).ok());
  // A bound that is not an mz_timestamp, or a negative one.
  EXPECT_EQ(ScheduleTemporal(far, {S("x")}, 0, 1, &out).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ScheduleTemporal(far, {I(-1)}, 0, 1, &out).code(),
            absl::StatusCode::kOutOfRange);
  // An error in a bound is reported even when another bound is NULL.
  const TemporalMfp two = Plan({"(mz_now() < #0)", "(mz_now() < (1 / #1))"});
  EXPECT_EQ(ScheduleTemporal(two, {N, I(0)}, 0, 1, &out).code(),
            absl::StatusCode::kOutOfRange);
}

TEST(Temporal, BoundsReadMapColumnsAndProjectionApplies) {
  MapFilterProject mfp =
      Mfp({"(#0 + 2)"}, {"(mz_now() < #1)"}, std::vector<int>{0});
  absl::StatusOr<TemporalMfp> plan = PlanTemporal(mfp);
  ASSERT_TRUE(plan.ok()) << plan.status();
  Scheduled out;
  ASSERT_TRUE(ScheduleTemporal(*plan, {I(1)}, 0, 1, &out).ok());
  const Scheduled expected = {{0, {{{I(1)}, 1}}}, {3, {{{I(1)}, -1}}}};
  EXPECT_EQ(out, expected);
}

TEST(Temporal, RunsEndAfterBoundedFutureRounds) {
  // Rows due at 10,001 distinct rounds after the data's only round: the run
  // stops with an error naming the limit instead of stepping on. Each row
  // is present at its own round only, so every round lists one row.
  absl::StatusOr<Document> doc = explain::ParseText(
      "materialize.public.mv:\n"
      "  Get::Collection materialize.public.u\n"
      "    TemporalFilter: #0 <= mz_now() < (#0 + 1)\n"
      "    raw=true\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  InputData data;
  InputCollection& u = data.collections["materialize.public.u"];
  u.arity = 1;
  const int64_t rows = static_cast<int64_t>(kMaxTemporalRounds) + 1;
  for (int64_t i = 1; i <= rows; ++i) u.updates.push_back({{I(i)}, 0, 1});
  RunOptions options;  // incremental: the snapshot engine re-reads every row
  absl::StatusOr<RunResult> run = RunDocument(*doc, data, options);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_TRUE(run->error.has_value());
  EXPECT_TRUE(absl::StrContains(*run->error, "more than 10000 rounds"))
      << *run->error;
  const std::vector<RoundChanges>& rounds = run->objects[0].rounds;
  // Round 0, then rounds 1..10000 (row i at round i), then the error.
  ASSERT_EQ(rounds.size(), kMaxTemporalRounds + 2);
  EXPECT_EQ(rounds[kMaxTemporalRounds].round, kMaxTemporalRounds);
  // Row i arrives at round i and leaves at i + 1: one added, one retracted.
  EXPECT_EQ(rounds[kMaxTemporalRounds].changes.size(), 2u);
  EXPECT_EQ(rounds.back().round, kMaxTemporalRounds + 1);
  EXPECT_TRUE(rounds.back().error.has_value());
}

}  // namespace
}  // namespace lir::eval
