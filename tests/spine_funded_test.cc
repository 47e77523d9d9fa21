// Funded exertion (../shared/reference/SPINE.md section 5), one test per
// rule, each failing when its rule is broken; and real batches (the
// evaluator's): merges consolidate and lose nothing.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "lir/eval/spine.h"

namespace lir::eval::spine {
namespace {

constexpr Policy kIdleMerge1000{Policy::Kind::kIdleMerge, 1000};

Spine Build(Policy policy, Exertion exertion, std::string_view layers) {
  absl::StatusOr<Spine> spine =
      Spine::FromDescription(policy, exertion, layers);
  EXPECT_TRUE(spine.ok()) << spine.status();
  return spine.ok() ? *std::move(spine) : Spine(policy, exertion);
}

/// A random activation: a batch of 0 to 5000 updates (a quarter empty).
uint64_t RandomBatch(std::mt19937_64& rng) {
  if (rng() % 4 == 0) return 0;
  return 1 + rng() % 5000;
}

TEST(SpineFundedTest, WithoutAPolicyStockAndFundedAreIdentical) {
  std::mt19937_64 rng(15);
  for (int run = 0; run < 50; ++run) {
    Spine stock(Policy{}, Exertion::kStock);
    Spine funded(Policy{}, Exertion::kFunded);
    for (int step = 0; step < 60; ++step) {
      const uint64_t length = RandomBatch(rng);
      stock.Activate(Batch::Synthetic(length));
      funded.Activate(Batch::Synthetic(length));
      EXPECT_FALSE(funded.IdleTurn());
      ASSERT_EQ(stock.Describe(), funded.Describe()) << "run " << run;
      ASSERT_EQ(stock.counters().merge_work, funded.counters().merge_work);
    }
    EXPECT_EQ(funded.counters().declines, 0u);
    EXPECT_EQ(funded.counters().grants_credit + funded.counters().grants_bank,
              0u);
  }
}

TEST(SpineFundedTest, AfterCloseFundedBehavesAsStock) {
  const char* kStart = "10:S(1000) 12:S(3000)";
  Spine stock = Build(kIdleMerge1000, Exertion::kStock, kStart);
  Spine funded = Build(kIdleMerge1000, Exertion::kFunded, kStart);
  // Open and unfunded, the funded spine declines where stock acts.
  funded.Exert();
  EXPECT_EQ(funded.counters().declines, 1u);
  EXPECT_EQ(funded.Describe(), kStart);
  // Closed, every request is granted, unpaid: the same states turn by turn.
  stock.ActivateClose();
  funded.ActivateClose();
  ASSERT_EQ(stock.Describe(), funded.Describe());
  int turns = 0;
  while (stock.IdleTurn()) {
    ASSERT_TRUE(funded.IdleTurn()) << "turn " << turns;
    ASSERT_EQ(stock.Describe(), funded.Describe()) << "turn " << turns;
    ++turns;
  }
  EXPECT_FALSE(funded.IdleTurn());
  EXPECT_GT(turns, 5);
  EXPECT_EQ(funded.Describe(), "12:S(4000)") << "the policy's reduced form";
  EXPECT_EQ(funded.counters().merge_work, stock.counters().merge_work);
  EXPECT_EQ(funded.counters().declines, 1u) << "only the one before closing";
  EXPECT_EQ(funded.counters().unfunded_continuations, 0u);
  EXPECT_EQ(funded.counters().grants_credit + funded.counters().grants_bank,
            0u);
}

// 125 updates at effort 1000 bring credit 1000: exactly one grant from
// credit; 124 bring 992: none. (Each insert also banks 8 grants, paid after
// credit.)
TEST(SpineFundedTest, CreditPaysOneGrantPer125UpdatesAtEffort1000) {
  for (uint64_t updates : {124u, 125u, 249u, 250u}) {
    SCOPED_TRACE(updates);
    // A merge big enough that the policy asks on every turn.
    Spine spine =
        Build(kIdleMerge1000, Exertion::kFunded, "16:P(100000+100000,done=0)");
    spine.Insert(Batch::Synthetic(updates));
    EXPECT_EQ(spine.credit(), 8 * updates);
    EXPECT_EQ(spine.bank(), 8u);
    for (int i = 0; i < 30; ++i) spine.Exert();
    EXPECT_EQ(spine.counters().grants_credit, updates / 125);
    EXPECT_EQ(spine.counters().grants_bank, 8u);
    EXPECT_EQ(spine.counters().unfunded_continuations, 30 - 8 - updates / 125);
    EXPECT_EQ(spine.credit(), 8 * updates - 1000 * (updates / 125));
  }
}

TEST(SpineFundedTest, BankTopsUpByEightPerBatchWithDataUpToSixtyFour) {
  Spine spine(Policy{}, Exertion::kFunded);
  uint64_t credit = 0;
  for (int i = 1; i <= 10; ++i) {
    spine.Insert(Batch::Synthetic(3));
    credit += 24;
    EXPECT_EQ(spine.bank(), std::min<uint64_t>(64, 8 * i)) << "batch " << i;
    EXPECT_EQ(spine.credit(), credit);
    spine.Insert(Batch::Synthetic(0));
    EXPECT_EQ(spine.bank(), std::min<uint64_t>(64, 8 * i))
        << "an empty batch adds nothing";
    EXPECT_EQ(spine.credit(), credit);
  }
  spine.Close();
  EXPECT_EQ(spine.bank(), 64u);
}

TEST(SpineFundedTest, ADeclineChangesNothingAndRequestsNoActivation) {
  const char* kStart = "10:S(1000) 12:S(3000)";
  Spine spine = Build(kIdleMerge1000, Exertion::kFunded, kStart);
  ASSERT_FALSE(spine.activation_requested());
  spine.Exert();
  EXPECT_EQ(spine.last_action(), ExertAction::kDecline);
  EXPECT_EQ(spine.Describe(), kStart);
  EXPECT_FALSE(spine.activation_requested());
  EXPECT_FALSE(spine.IdleTurn()) << "quiet until the next insert";
  EXPECT_EQ(spine.counters().declines, 1u);
  EXPECT_EQ(spine.counters().merge_work, 0u);
  EXPECT_EQ(spine.counters().virtual_batches, 0u);
  EXPECT_EQ(spine.credit(), 0u);
  EXPECT_EQ(spine.bank(), 0u);
}

TEST(SpineFundedTest, AMergeInProgressFinishesWithNoFunds) {
  Spine spine =
      Build(kIdleMerge1000, Exertion::kFunded, "12:P(3000+1000,done=0)");
  int turns = 0;
  spine.Exert();
  while (spine.IdleTurn()) ++turns;
  // Four turns of 1000, one that writes nothing and completes, one that
  // tidies 13:S(4000) down and finds nothing to ask for.
  EXPECT_EQ(spine.Describe(), "12:S(4000)");
  EXPECT_EQ(spine.counters().merge_work, 4000u);
  EXPECT_EQ(spine.counters().unfunded_continuations, 5u);
  EXPECT_EQ(spine.counters().declines, 0u);
  EXPECT_EQ(turns, 5);
}

// Random workloads under every policy, funded, checked after every exert:
// a turn consumes at most one grant; an unfunded turn only fuels merges
// (never introduces a virtual batch); a decline leaves the layers as the
// exert's opening tidy_layers() left them and requests nothing.
TEST(SpineFundedTest, TurnInvariantsOnRandomWorkloads) {
  std::mt19937_64 rng(1515);
  const Policy policies[] = {kIdleMerge1000,
                             {Policy::Kind::kIdleMerge, 64},
                             {Policy::Kind::kProportional, 16},
                             {Policy::Kind::kProportional, 2}};
  uint64_t unfunded = 0;
  uint64_t declines = 0;
  for (const Policy& policy : policies) {
    for (int run = 0; run < 30; ++run) {
      Spine spine(policy, Exertion::kFunded);
      spine.Activate(Batch::Synthetic(uint64_t{1} << (10 + rng() % 8)));
      while (spine.IdleTurn()) {
      }
      for (int step = 0; step < 40; ++step) {
        spine.Activate(Batch::Synthetic(RandomBatch(rng)));
        for (int turn = 0; turn < 50; ++turn) {
          const Counters before = spine.counters();
          // Every exert begins with tidy_layers(), a decline included;
          // the decline itself changes nothing after that.
          Spine tidied = spine;
          tidied.Tidy();
          const std::string layers = tidied.Describe();
          if (!spine.IdleTurn()) break;
          const Counters& after = spine.counters();
          const uint64_t grants = after.grants_credit + after.grants_bank -
                                  before.grants_credit - before.grants_bank;
          ASSERT_LE(grants, 1u);
          if (spine.last_payment() == Payment::kUnfunded) {
            ++unfunded;
            ASSERT_EQ(spine.last_action(), ExertAction::kFuel);
            ASSERT_EQ(after.virtual_batches, before.virtual_batches);
            ASSERT_EQ(grants, 0u);
          }
          if (spine.last_action() == ExertAction::kDecline) {
            ++declines;
            ASSERT_EQ(spine.Describe(), layers);
            ASSERT_FALSE(spine.activation_requested());
            ASSERT_EQ(after.merge_work, before.merge_work);
          }
        }
      }
    }
  }
  // The invariants were exercised, not vacuously true.
  EXPECT_GT(unfunded, 50u);
  EXPECT_GT(declines, 50u);
}

// ---- Real batches -----------------------------------------------------------

Record R(uint64_t fp, uint64_t time, int64_t diff) {
  return Record{fp, ~fp, time, diff};
}

TEST(SpineRealBatchTest, AMergeConsolidatesAtTheFrontierAndWritesItsResult) {
  Spine spine(Policy{}, Exertion::kStock);
  spine.Insert(Batch::Real({R(1, 0, 1), R(2, 0, 1), R(3, 0, 1)}));
  spine.set_compaction_frontier(1);
  // Level 2 again: begins a merge with the first batch. At frontier 1, 2@0
  // and -2@1 cancel; 4 is new; 1@0 becomes 1@1 and meets +1@1.
  spine.Insert(Batch::Real({R(1, 1, 1), R(2, 1, -1), R(4, 1, 1)}));
  EXPECT_EQ(spine.Describe(), "2:P(3+3,done=0)");
  spine.Insert(Batch::Synthetic(0));  // fuel 8 finishes it
  const std::vector<Record> contents = spine.Contents();
  EXPECT_EQ(contents,
            (std::vector<Record>{R(1, 1, 2), R(3, 1, 1), R(4, 1, 1)}));
  EXPECT_EQ(spine.counters().merge_work, 3u) << "the consolidated size";
  EXPECT_EQ(spine.RecordsHeld(), 3u);
}

TEST(SpineRealBatchTest, BelowTheFrontierNothingCancelsAcrossTimes) {
  Spine spine(Policy{}, Exertion::kStock);
  spine.Insert(Batch::Real({R(7, 0, 1)}));
  spine.Insert(Batch::Real({R(7, 1, -1)}));  // frontier 0: times kept
  spine.Insert(Batch::Synthetic(0));
  EXPECT_EQ(spine.Contents(), (std::vector<Record>{R(7, 0, 1), R(7, 1, -1)}));
  EXPECT_EQ(spine.counters().merge_work, 2u);
}

TEST(SpineRealBatchTest, RandomBatchesLoseNothing) {
  std::mt19937_64 rng(99);
  for (const Policy& policy :
       {Policy{}, kIdleMerge1000, Policy{Policy::Kind::kProportional, 16}}) {
    for (Exertion exertion : {Exertion::kStock, Exertion::kFunded}) {
      Spine spine(policy, exertion);
      std::vector<Record> all;
      for (uint64_t round = 0; round < 40; ++round) {
        std::vector<Record> batch;
        const size_t n = rng() % 300;
        for (size_t i = 0; i < n; ++i) {
          batch.push_back(
              R(rng() % 200, round, static_cast<int64_t>(rng() % 3) - 1));
        }
        Consolidate(batch);
        all.insert(all.end(), batch.begin(), batch.end());
        spine.set_compaction_frontier(round);
        spine.Activate(Batch::Real(batch));
        for (int k = 0; k < 3 && spine.IdleTurn(); ++k) {
        }
      }
      // Compare at the last frontier: advance every time, then consolidate.
      std::vector<Record> expected = all;
      for (Record& r : expected) r.time = 39;
      Consolidate(expected);
      std::vector<Record> held = spine.Contents();
      for (Record& r : held) r.time = 39;
      Consolidate(held);
      EXPECT_EQ(held, expected) << policy.ToString();
    }
  }
}

}  // namespace
}  // namespace lir::eval::spine
