// The spine model against ../shared/reference/SPINE.md: the worked examples
// of section 7 state by state, and the mechanism's rules (sections 1-4) one
// test each. The funded rules (section 5) are in spine_funded_test.cc.
#include "lir/eval/spine.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace lir::eval::spine {
namespace {

Policy IdleMerge1000() { return {Policy::Kind::kIdleMerge, 1000}; }
Policy NoPolicy() { return {}; }

TEST(SpineLevelTest, NextPowerOfTwoExponent) {
  EXPECT_EQ(Level(0), 0);
  EXPECT_EQ(Level(1), 0);
  EXPECT_EQ(Level(2), 1);
  EXPECT_EQ(Level(3), 2);
  EXPECT_EQ(Level(1000), 10);
  EXPECT_EQ(Level(1024), 10);
  EXPECT_EQ(Level(1025), 11);
  EXPECT_EQ(Level(uint64_t{1} << 40), 40);
}

// Section 7, first example: idle_merge:1000, stock; every state after the
// insert of 1000 and after each idle turn.
TEST(SpineWorkedExampleTest, IdleMergeCarriesABatchUpWithVirtuals) {
  Spine spine(IdleMerge1000(), Exertion::kStock);
  spine.Activate(Batch::Synthetic(3000));
  EXPECT_EQ(spine.Describe(), "12:S(3000)");
  EXPECT_FALSE(spine.activation_requested()) << "quiet";

  spine.Activate(Batch::Synthetic(1000));
  EXPECT_EQ(spine.Describe(), "10:C(1000) 12:S(3000)");
  const std::vector<std::string> expected = {
      "11:S(1000) 12:S(3000)",
      "10:S(-) 11:S(1000) 12:S(3000)",
      "10:C(-) 11:S(1000) 12:S(3000)",
      "12:P(3000+1000,done=1000)",
      "12:P(3000+1000,done=2000)",
      "12:P(3000+1000,done=3000)",
      "12:P(3000+1000,done=4000)",
      "13:S(4000)",
      "12:S(4000)",
  };
  std::vector<std::string> seen;
  while (spine.IdleTurn()) {
    seen.push_back(spine.Describe());
    ASSERT_LT(seen.size(), 100u);
  }
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(spine.counters().idle_turns_used, 9u);
  EXPECT_EQ(spine.counters().merge_work, 4000u);
  EXPECT_EQ(spine.counters().virtual_batches, 3u);
}

// Section 7, second example: no policy, eight inserts of 1000.
TEST(SpineWorkedExampleTest, NoPolicyEightInserts) {
  Spine spine(NoPolicy(), Exertion::kStock);
  std::vector<std::string> states;
  for (int i = 0; i < 8; ++i) {
    spine.Activate(Batch::Synthetic(1000));
    states.push_back(spine.Describe());
    EXPECT_FALSE(spine.IdleTurn()) << "no policy never asks";
    if (i == 2) EXPECT_EQ(spine.counters().merge_work, 2000u);
  }
  EXPECT_EQ(states[1], "10:P(1000+1000,done=0)");
  EXPECT_EQ(states[2], "10:S(1000) 11:S(2000)");
  EXPECT_EQ(states[7], "10:P(1000+1000,done=0) 11:S(2000) 12:S(4000)");
  EXPECT_EQ(spine.counters().merge_work, 10000u);
  EXPECT_EQ(spine.NonEmptyBatches(), 4u);
}

// Section 2: a merge whose remaining work equals the fuel stays in
// progress with nothing left and completes at its next step, writing
// nothing. Two batches of 500 at level 9 are fuelled 1000 by one
// idle_merge:1000 exert.
TEST(SpineFuelTest, ExactEqualityKeepsTheMergeInProgress) {
  Spine spine(IdleMerge1000(), Exertion::kStock);
  // Two batches of 500 at level 9: the second insert's own fuel (8 << 9)
  // finds nothing to merge, then begins the merge.
  spine.Activate(Batch::Synthetic(500));
  spine.Insert(Batch::Synthetic(500));
  EXPECT_EQ(spine.Describe(), "9:P(500+500,done=0)");
  spine.Exert();  // fuel 1000 == remaining 1000
  EXPECT_EQ(spine.Describe(), "9:P(500+500,done=1000)");
  EXPECT_EQ(spine.counters().merge_work, 1000u);
  spine.Exert();  // writes nothing, fuel left over: complete, moved up
  EXPECT_EQ(spine.Describe(), "10:S(1000)");
  EXPECT_EQ(spine.counters().merge_work, 1000u);
}

TEST(SpineFuelTest, FuelOneShortLeavesOneRecord) {
  Spine spine(IdleMerge1000(), Exertion::kStock);
  spine.Insert(Batch::Synthetic(500));
  spine.Insert(Batch::Synthetic(501));
  spine.Exert();
  EXPECT_EQ(spine.Describe(), "9:P(500+501,done=1000)");
  spine.Exert();
  EXPECT_EQ(spine.Describe(), "10:S(1001)");
  EXPECT_EQ(spine.counters().merge_work, 1001u);
}

// Section 2: every merge in progress gets its own copy of the fuel, and a
// result moved up is fuelled by the same loop.
TEST(SpineFuelTest, EachMergeGetsTheFullFuel) {
  Spine spine(NoPolicy(), Exertion::kStock);
  // Level 1: two batches of 2; level 3: two batches of 8 (each insert at
  // level 3 applies 64 fuel first, which finishes the level-1 merge).
  spine.Insert(Batch::Synthetic(8));
  spine.Insert(Batch::Synthetic(2));
  spine.Insert(Batch::Synthetic(2));
  EXPECT_EQ(spine.Describe(), "1:P(2+2,done=0) 3:S(8)");
  // A batch of 1 at level 0: fuel 8 to each merge; 1:P finishes (4 work,
  // 4 left over) and its 4 moves to level 2.
  spine.Insert(Batch::Synthetic(1));
  EXPECT_EQ(spine.Describe(), "0:S(1) 2:S(4) 3:S(8)");
  EXPECT_EQ(spine.counters().merge_work, 4u);
}

// Section 3: an empty batch fuses into a lowest non-vacant Single of length
// 0 and nothing else happens; otherwise it is introduced at level 0.
TEST(SpineInsertTest, EmptyBatchFusesIntoAnEmptySingle) {
  Spine spine(NoPolicy(), Exertion::kStock);
  spine.Insert(Batch::Synthetic(0));
  EXPECT_EQ(spine.Describe(), "0:S(0)");
  spine.Insert(Batch::Synthetic(0));
  EXPECT_EQ(spine.Describe(), "0:S(0)") << "fused, not merged";
  spine.Insert(Batch::Synthetic(100));
  // roll_up carries the empty batch up to level 7, where the new batch
  // then begins a merge with it.
  EXPECT_EQ(spine.Describe(), "7:P(0+100,done=0)");
}

TEST(SpineInsertTest, EmptyBatchNotFusedWhenLowestSingleHasData) {
  Spine spine(NoPolicy(), Exertion::kStock);
  spine.Insert(Batch::Synthetic(1));
  spine.Insert(Batch::Synthetic(0));
  // level(0) = 0, where the batch of 1 lives: they merge.
  EXPECT_EQ(spine.Describe(), "0:P(1+0,done=0)");
}

TEST(SpineInsertTest, EmptyBatchFusesIntoAVirtualSingle) {
  Spine spine(IdleMerge1000(), Exertion::kStock);
  spine.Insert(Batch::Synthetic(4000));
  spine.Insert(Batch::Synthetic(1000));
  spine.Exert();  // virtual at 10 completes the 1000
  spine.Exert();  // 1000 moves to 11
  spine.Exert();  // a virtual at 10
  ASSERT_EQ(spine.Describe(), "10:S(-) 11:S(1000) 12:S(4000)");
  spine.Insert(Batch::Synthetic(0));
  EXPECT_EQ(spine.Describe(), "10:S(0) 11:S(1000) 12:S(4000)")
      << "the virtual is replaced by the empty batch";
}

// Section 3, roll_up: batches below the level are carried up from layer 0
// and merged into the level (completed at once), and the new batch is
// inserted into the vacated layer.
TEST(SpineInsertTest, RollUpCarriesLowerBatchesUp) {
  Spine spine(NoPolicy(), Exertion::kStock);
  spine.Insert(Batch::Synthetic(16));  // level 4
  spine.Insert(Batch::Synthetic(1));   // level 0
  spine.Insert(Batch::Synthetic(3));   // level 2
  // Inserting 3 at level 2 rolls the 1 up through level 1 (carried as is:
  // layer 1 is vacant) into level 2, where the 3 then merges with it.
  EXPECT_EQ(spine.Describe(), "2:P(1+3,done=0) 4:S(16)");
  // Inserting 12 at level 4: its fuel (128) finishes the level-2 merge (4
  // records), moved to level 3; the roll-up carries that 4 into level 4,
  // where it merges with the 16 and is completed at once (20 records,
  // unfueled) and moved to level 5; the 12 lands in level 4.
  spine.Insert(Batch::Synthetic(12));
  EXPECT_EQ(spine.Describe(), "4:S(12) 5:S(20)");
  EXPECT_EQ(spine.counters().merge_work, 4u + 20u);
}

// Section 3, tidy_layers: the top Single slides down over vacant layers
// and virtuals to its level, and merges with a Single below it only when
// the layers under that hold at most (1 << n) / 8 records by their bounds.
TEST(SpineTidyTest, TopSlidesDownOverVacantLayers) {
  Spine spine(IdleMerge1000(), Exertion::kStock);
  // 13:S(4000) after the first worked example's eighth turn tidies to 12.
  spine.Activate(Batch::Synthetic(3000));
  spine.Activate(Batch::Synthetic(1000));
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(spine.IdleTurn());
  ASSERT_EQ(spine.Describe(), "13:S(4000)");
  spine.Exert();
  EXPECT_EQ(spine.Describe(), "12:S(4000)");
}

// Spines built in a given state; with no policy, Exert() is tidy_layers().
std::string Tidied(std::string_view layers) {
  absl::StatusOr<Spine> spine =
      Spine::FromDescription(NoPolicy(), Exertion::kStock, layers);
  EXPECT_TRUE(spine.ok()) << spine.status();
  if (!spine.ok()) return "";
  spine->Exert();
  return spine->Describe();
}

// The top (4000, level 12) sits at 13 over a Single at 12. With n = 14
// layers, the Single moves into the top only when the layers below it
// account for at most (1 << 14) / 8 = 2048 records by their bounds (a
// Single at j counts 1 << j, a Double 2 << j).
TEST(SpineTidyTest, DivideByEightRule) {
  EXPECT_EQ(Tidied("11:S(1000) 12:S(4096) 13:S(4000)"),
            "11:S(1000) 12:P(4000+4096,done=0)")
      << "2048 <= 2048: merges";
  EXPECT_EQ(Tidied("0:S(1) 11:S(1000) 12:S(4096) 13:S(4000)"),
            "0:S(1) 11:S(1000) 12:S(4096) 13:S(4000)")
      << "2049 > 2048: stays";
  EXPECT_EQ(Tidied("10:P(5+5,done=0) 12:S(4096) 13:S(4000)"),
            "10:P(5+5,done=0) 12:P(4000+4096,done=0)")
      << "a Double at 10 counts 2048";
  EXPECT_EQ(Tidied("0:C(-) 10:P(5+5,done=0) 12:S(4096) 13:S(4000)"),
            "0:C(-) 10:P(5+5,done=0) 12:S(4096) 13:S(4000)")
      << "a Complete counts as a Double: 2 + 2048";
  EXPECT_EQ(Tidied("0:S(-) 11:S(0) 12:S(4096) 13:S(4000)"),
            "0:S(-) 11:S(0) 12:S(4096) 13:S(4000)")
      << "virtual and empty Singles count by their bounds too";
}

TEST(SpineTidyTest, SlidesOverVacantAndVirtualButStopsAtADouble) {
  EXPECT_EQ(Tidied("13:S(4000)"), "12:S(4000)");
  EXPECT_EQ(Tidied("12:S(-) 14:S(4000)"), "12:S(4000)")
      << "the virtual at 12 is removed like a vacant layer";
  EXPECT_EQ(Tidied("12:P(1+1,done=0) 13:S(4000)"),
            "12:P(1+1,done=0) 13:S(4000)");
  EXPECT_EQ(Tidied("12:S(7) 13:P(4000+1,done=0)"),
            "12:S(7) 13:P(4000+1,done=0)")
      << "only a Single on top is tidied";
  EXPECT_EQ(Tidied("0:S(0) 3:S(1)"), "0:P(1+0,done=0)")
      << "slides to level 1, then (nothing below layer 0: 0 <= (1 << 2) / 8) "
         "the empty batch at 0 merges with it";
}

TEST(SpineTest, FromDescriptionRejectsWhatItCannotRead) {
  for (const char* bad :
       {"12", "12:X(1)", "12:S(1", "12:P(1+2)", "12:P(1+2,done=4)",
        "5:S(1) 3:S(1)", "x:S(1)", "63:S(1)"}) {
    EXPECT_FALSE(Spine::FromDescription(NoPolicy(), Exertion::kStock, bad).ok())
        << bad;
  }
  absl::StatusOr<Spine> round_trip = Spine::FromDescription(
      NoPolicy(), Exertion::kStock, "0:C(-) 3:S(-) 10:P(1+2,done=1) 12:C(9)");
  ASSERT_TRUE(round_trip.ok());
  EXPECT_EQ(round_trip->Describe(), "0:C(-) 3:S(-) 10:P(1+2,done=1) 12:C(9)");
}

TEST(SpinePolicyTest, ParseAcceptsTheThreeForms) {
  EXPECT_EQ(Policy::Parse("none")->kind, Policy::Kind::kNone);
  EXPECT_EQ(Policy::Parse("idle_merge:1000")->parameter, 1000u);
  EXPECT_EQ(Policy::Parse("proportional:16")->kind,
            Policy::Kind::kProportional);
  EXPECT_EQ(Policy::Parse("proportional:0")->parameter, 0u);
  for (const char* bad :
       {"", "idle_merge", "idle_merge:", "idle_merge:0", "idle_merge:+5",
        "idle_merge: 5", "proportional:-1", "proportional:16x", "fast",
        "idle_merge:99999999999999999999", "idle_merge:1099511627777"}) {
    EXPECT_FALSE(Policy::Parse(bad).ok()) << bad;
  }
  EXPECT_EQ(Policy::Parse("proportional:1337")->ToString(),
            "proportional:1337");
}

TEST(SpinePolicyTest, IdleMergeAnswersForADoubleOrTwoNonEmptyLayers) {
  const Policy p = IdleMerge1000();
  EXPECT_EQ(PolicyEffort(p, {{12, 1, 3000}, {11, 0, 0}, {10, 1, 0}}),
            std::nullopt)
      << "an empty Single is not a second non-empty layer";
  EXPECT_EQ(PolicyEffort(p, {{12, 1, 3000}, {10, 1, 5}}), 1000u);
  EXPECT_EQ(PolicyEffort(p, {{3, 2, 0}}), 1000u) << "a Complete of virtuals";
}

TEST(SpinePolicyTest, ProportionalLooksWithinLog2PLevels) {
  const Policy p16{Policy::Kind::kProportional, 16};
  // Largest at 20; P halves 16, 8, 4, 2, 1, 0 walking down from it: a
  // non-empty batch counts at levels 19..16 (P 8, 4, 2, 1 before halving).
  const auto layers = [](int top, int low) {
    std::vector<LayerSummary> out;
    for (int i = top; i >= 0; --i) {
      out.push_back({i, i == top || i == low ? 1 : 0,
                     i == top || i == low ? uint64_t{100} : 0});
    }
    return out;
  };
  EXPECT_EQ(PolicyEffort(p16, layers(20, 19)), kProportionalEffort);
  EXPECT_EQ(PolicyEffort(p16, layers(20, 16)), kProportionalEffort);
  EXPECT_EQ(PolicyEffort(p16, layers(20, 15)), std::nullopt);
  // Leading vacant layers are skipped before the walk starts.
  std::vector<LayerSummary> leading = {{22, 0, 0}, {21, 0, 0}};
  for (const LayerSummary& l : layers(20, 16)) leading.push_back(l);
  EXPECT_EQ(PolicyEffort(p16, leading), kProportionalEffort);
  // A merge anywhere answers.
  EXPECT_EQ(PolicyEffort(p16, {{20, 1, 100}, {3, 2, 7}}), kProportionalEffort);
  const Policy p0{Policy::Kind::kProportional, 0};
  EXPECT_EQ(PolicyEffort(p0, layers(20, 19)), std::nullopt);
}

}  // namespace
}  // namespace lir::eval::spine
