// Helpers shared by the snapshot-engine tests (eval_snapshot_test.cc,
// eval_snapshot_join_test.cc, eval_snapshot_letrec_test.cc): datum and
// multiset shorthands, plan parsing, and a Runner that steps one plan
// through a snapshot Dataflow round by round.
#ifndef LIR_TESTS_SUPPORT_EVAL_SNAPSHOT_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_EVAL_SNAPSHOT_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/datum.h"
#include "lir/eval/snapshot.h"
#include "lir/explain/text.h"
#include "tests/support/parse_or_die.h"

namespace lir::test::snapshot {

// Shorthand over the evaluator's types, for tests that open lir::eval.
using namespace ::lir::eval;  // NOLINT

inline Datum I(int64_t v) { return Datum::Int(v); }
inline Datum S(std::string s) { return Datum::String(std::move(s)); }
inline Datum Null() { return Datum::Null(); }

/// A consolidated multiset from hand-written rows (any order).
inline Multiset M(std::vector<RowDiff> rows) {
  absl::StatusOr<Multiset> m = Consolidate(std::move(rows));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Multiset();
}

inline std::string Show(const Multiset& m) {
  std::string out = "{";
  for (const auto& [row, diff] : m) {
    out += " " + FormatRow(row) + "x" + std::to_string(diff);
  }
  return out + " }";
}

/// Plans are parsed with the shared helper (tests/support/parse_or_die.h).
using ::lir::test::ParseOrDie;

/// Runs one plan through a snapshot Dataflow round by round, tracking the
/// accumulated output.
class Runner {
 public:
  Runner(const std::string& text, absl::flat_hash_map<std::string, int> globals)
      : doc_(ParseOrDie(text)) {
    if (doc_.objects.empty()) return;
    DataflowOptions options;
    options.object = "test";
    options.globals = std::move(globals);
    absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
        MakeSnapshotDataflow(*doc_.objects[0].plan, options);
    EXPECT_TRUE(dataflow.ok()) << dataflow.status();
    if (dataflow.ok()) dataflow_ = *std::move(dataflow);
  }

  bool ok() const { return dataflow_ != nullptr; }
  Dataflow& dataflow() { return *dataflow_; }
  const Node& plan() const { return *doc_.objects[0].plan; }

  /// Steps the next round; returns the output's changes (empty on error).
  Multiset Step(const GlobalChanges& changes) {
    absl::StatusOr<Multiset> diff = dataflow_->Step(round_++, changes);
    EXPECT_TRUE(diff.ok()) << diff.status();
    if (!diff.ok()) return {};
    absl::StatusOr<Multiset> sum = AddMultisets(contents_, *diff);
    EXPECT_TRUE(sum.ok());
    contents_ = *sum;
    return *diff;
  }
  /// Steps the next round, which must fail; returns the error.
  absl::Status StepError(const GlobalChanges& changes) {
    absl::StatusOr<Multiset> diff = dataflow_->Step(round_++, changes);
    EXPECT_FALSE(diff.ok())
        << "round " << round_ - 1 << " gave " << Show(*diff);
    return diff.ok() ? absl::OkStatus() : diff.status();
  }
  const Multiset& contents() const { return contents_; }

 private:
  Document doc_;
  std::unique_ptr<Dataflow> dataflow_;
  uint64_t round_ = 0;
  Multiset contents_;
};

}  // namespace lir::test::snapshot

#define EXPECT_MS(actual, expected)              \
  EXPECT_EQ(::lir::test::snapshot::Show(actual), \
            ::lir::test::snapshot::Show(expected))

#endif  // LIR_TESTS_SUPPORT_EVAL_SNAPSHOT_TEST_UTIL_H_
