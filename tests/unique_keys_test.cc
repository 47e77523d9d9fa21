// The unique-keys analysis (include/lir/interp/unique_keys.h): its key-set
// helpers, its lattice, and, as a property, its soundness against the reference
// evaluator: on generated plans and data, every key claimed for a node holds
// in that node's output at every round.
#include "lir/interp/unique_keys.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/validate.h"
#include "tests/support/eval_plan_fuzz_gen.h"
#include "tests/support/ir_helpers.h"

namespace lir::interp {
namespace {

using Keys = std::vector<UniqueKey>;

using test::Col;

TEST(UniqueKeys, NormalizeSortsDeduplicatesAndDropsSupersets) {
  EXPECT_EQ(NormalizeKeys({{2, 1}, {1, 2, 2}, {3}, {3, 1}, {0, 4}}),
            (Keys{{3}, {0, 4}, {1, 2}}));
  // The empty key implies every other.
  EXPECT_EQ(NormalizeKeys({{1}, {}, {0, 2}}), (Keys{{}}));
  EXPECT_EQ(NormalizeKeys({}), Keys{});
  // At most kMaxUniqueKeys, the smallest first.
  Keys many;
  for (int c = 0; c < 40; ++c) many.push_back({c});
  many.push_back({41, 42});
  const Keys kept = NormalizeKeys(many);
  ASSERT_EQ(kept.size(), kMaxUniqueKeys);
  EXPECT_EQ(kept.back(), UniqueKey{static_cast<int>(kMaxUniqueKeys) - 1});
}

TEST(UniqueKeys, JoinKeepsWhatBothImply) {
  const UniqueKeysInterpreter interp({}, nullptr);
  const UniqueKeys a{false, {{0}, {1, 2}}};
  const UniqueKeys b{false, {{1}}};
  // The unions of one key of each: {0} ∪ {1} and {1, 2} ∪ {1}.
  EXPECT_EQ(interp.Join(a, b), (UniqueKeys{false, {{0, 1}, {1, 2}}}));
  EXPECT_EQ(interp.Join(a, interp.Bottom()), a);
  EXPECT_EQ(interp.Join(interp.Bottom(), b), b);
  EXPECT_EQ(interp.Join(a, interp.Top()), interp.Top());
  EXPECT_EQ(interp.Join(a, UniqueKeys{false, {{}}}), a);
  EXPECT_TRUE(interp.Equal(interp.Join(a, a), a));
}

TEST(UniqueKeys, Format) {
  EXPECT_EQ(FormatUniqueKeys(UniqueKeys{false, {{0}, {1, 2}}}),
            "[#0], [#1, #2]");
  EXPECT_EQ(FormatUniqueKeys(UniqueKeys{false, {{}}}), "[]");
  EXPECT_EQ(FormatUniqueKeys(UniqueKeys{}), "none");
  EXPECT_EQ(FormatUniqueKeys(UniqueKeys{true, {}}), "*");
}

TEST(UniqueKeys, ThroughMfpRenumbersAndDrops) {
  MapFilterProject mfp;
  EXPECT_EQ(KeysThroughMfp({{0}, {1, 2}}, mfp), (Keys{{0}, {1, 2}}));
  mfp.map.push_back(Col(0));
  mfp.filter.push_back(Col(3));
  EXPECT_EQ(KeysThroughMfp({{0}, {1, 2}}, mfp), (Keys{{0}, {1, 2}}));
  mfp.project = std::vector<int>{2, 3, 0, 0};
  // [0] -> its first copy, output 2; [1, 2] loses column 1.
  EXPECT_EQ(KeysThroughMfp({{0}, {1, 2}}, mfp), (Keys{{2}}));
  mfp.project = std::vector<int>{};
  EXPECT_EQ(KeysThroughMfp({{0}, {}}, mfp), (Keys{{}}));
}

TEST(UniqueKeys, IntoLayoutFollowsThePermutation) {
  // t(v1, k1, k2) by [#1]: layout (k1, v1, k2).
  const ArrangementForm form = MakeArrangement({Col(1)}, 3);
  EXPECT_EQ(KeysIntoLayout({{0}, {1, 2}}, form.key, &form),
            (Keys{{1}, {0, 2}}));
  EXPECT_EQ(KeysIntoLayout({{0}, {1, 2}}, form.key, nullptr),
            (Keys{{1}, {0, 2}}));
  // A column the printed form's row does not have drops its key.
  EXPECT_EQ(KeysIntoLayout({{3}, {1}}, form.key, &form), (Keys{{0}}));
}

ConstantOp Rows(std::vector<std::pair<Row, int64_t>> rows) {
  ConstantOp op;
  for (auto& [row, diff] : rows) op.rows.push_back({std::move(row), diff});
  return op;
}

Literal Num(const char* text) { return Literal{LiteralKind::kNumber, text}; }

TEST(UniqueKeys, ConstantKeys) {
  const Literal one = Literal::Int(1), two = Literal::Int(2);
  EXPECT_EQ(ConstantKeys(Rows({{{one, two}, 1}, {{two, two}, 1}})),
            (Keys{{0}}));
  EXPECT_EQ(ConstantKeys(Rows({{{one, two}, 1}, {{one, two}, 1}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{one}, 2}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{one}, 1}})), (Keys{{}}));
  EXPECT_EQ(ConstantKeys(Rows({})), (Keys{{}}));
  ConstantOp error;
  error.error = "boom";
  EXPECT_EQ(ConstantKeys(error), (Keys{{}}));
  ConstantOp elided = Rows({{{one}, 1}});
  elided.elided_total_rows = 30;
  EXPECT_EQ(ConstantKeys(elided), Keys{});
  // Numbers compare by value: 1, 1.0 and 1e0 are one value, -0 is 0, NaN
  // equals NaN.
  EXPECT_EQ(ConstantKeys(Rows({{{one}, 1}, {{Num("1.0")}, 1}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{Num("1e0")}, 1}, {{Num("1")}, 1}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{Num("-0")}, 1}, {{Num("0")}, 1}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{Num("NaN")}, 1}, {{Num("NaN")}, 1}})), Keys{});
  EXPECT_EQ(ConstantKeys(Rows({{{Num("inf")}, 1}, {{Num("-inf")}, 1}})),
            (Keys{{0}}));
  // Null equals null, and differs from every value.
  EXPECT_EQ(ConstantKeys(Rows({{{Literal::Null()}, 1}, {{one}, 1}})),
            (Keys{{0}}));
  EXPECT_EQ(
      ConstantKeys(Rows({{{Literal::Null()}, 1}, {{Literal::Null()}, 1}})),
      Keys{});
  // Strings compare by their decoded value; redacted values, dates and
  // verbatim datums are not compared.
  EXPECT_EQ(
      ConstantKeys(Rows({{{Literal::String("a"), Literal::Redacted()}, 1},
                         {{Literal::String("b"), Literal::Redacted()}, 1}})),
      (Keys{{0}}));
  const Literal d1{LiteralKind::kDate, "2020-01-01"};
  const Literal d2{LiteralKind::kDate, "2020-01-02"};
  EXPECT_EQ(ConstantKeys(Rows({{{d1}, 1}, {{d2}, 1}})), Keys{});
}

// ---- Soundness against the evaluator ---------------------------------------

// Local ids read in `node`'s subtree but not bound there.
std::set<uint64_t> FreeLocals(const Node& node) {
  std::set<uint64_t> read, bound;
  ForEachPostOrder(node, [&](const Node& n) {
    if (n.Is<GetOp>() && n.As<GetOp>().id.is_local) {
      read.insert(n.As<GetOp>().id.local);
    } else if (n.Is<LetOp>()) {
      bound.insert(n.As<LetOp>().id);
    } else if (n.Is<LetRecOp>()) {
      for (uint64_t id : n.As<LetRecOp>().ids) bound.insert(id);
    }
  });
  std::set<uint64_t> free;
  for (uint64_t id : read) {
    if (!bound.count(id)) free.insert(id);
  }
  return free;
}

// Rows of `contents` projected on `key`, with their summed counts.
std::map<eval::DataRow, int64_t> CountsOn(const eval::Multiset& contents,
                                          const UniqueKey& key) {
  std::map<eval::DataRow, int64_t> counts;
  for (const auto& [row, diff] : contents) {
    eval::DataRow projected;
    for (int c : key) projected.push_back(row.at(c));
    counts[projected] += diff;
  }
  return counts;
}

// The single columns (and the whole row) on which a collection's data is
// unique at every round: what a truthful catalog could say.
Keys TrueKeys(const eval::InputCollection& collection) {
  std::map<uint64_t, std::vector<const eval::InputUpdate*>> by_round;
  for (const eval::InputUpdate& update : collection.updates) {
    by_round[update.round].push_back(&update);
  }
  Keys candidates;
  for (int c = 0; c < collection.arity; ++c) candidates.push_back({c});
  UniqueKey all;
  for (int c = 0; c < collection.arity; ++c) all.push_back(c);
  candidates.push_back(all);
  std::map<eval::DataRow, int64_t> contents;
  Keys holding = candidates;
  for (const auto& [round, updates] : by_round) {
    for (const eval::InputUpdate* update : updates) {
      contents[update->row] += update->diff;
    }
    eval::Multiset now;
    for (const auto& [row, count] : contents) {
      if (count != 0) now.push_back({row, count});
    }
    Keys still;
    for (const UniqueKey& key : holding) {
      bool holds = true;
      for (const auto& [row, count] : now) holds = holds && count > 0;
      for (const auto& [value, count] : CountsOn(now, key)) {
        holds = holds && count <= 1;
      }
      if (holds) still.push_back(key);
    }
    holding = std::move(still);
  }
  return holding;
}

// `data` with the updates dropped that would take a row's count above 1 or
// below 0, or insert a second row with the same first column, so that every
// collection is a set unique on its first column at every round, and the
// catalog's keys (TrueKeys) include at least that one.
eval::InputData AsSets(const eval::InputData& data) {
  eval::InputData sets = data;
  for (auto& [name, collection] : sets.collections) {
    std::map<uint64_t, std::vector<eval::InputUpdate>> by_round;
    for (eval::InputUpdate& update : collection.updates) {
      by_round[update.round].push_back(std::move(update));
    }
    collection.updates.clear();
    std::map<eval::DataRow, int64_t> counts;
    std::map<eval::Datum, int64_t> firsts;
    for (auto& [round, updates] : by_round) {
      for (eval::InputUpdate& update : updates) {
        int64_t& count = counts[update.row];
        int64_t* first = update.row.empty() ? nullptr : &firsts[update.row[0]];
        if (update.diff > 0 && count == 0 &&
            (first == nullptr || *first == 0)) {
          update.diff = 1;
        } else if (update.diff < 0 && count == 1) {
          update.diff = -1;
        } else {
          continue;
        }
        count += update.diff;
        if (first != nullptr) *first += update.diff;
        collection.updates.push_back(std::move(update));
      }
    }
  }
  return sets;
}

TEST(UniqueKeysProperty, ClaimedKeysHoldInEveryNodesOutput) {
  uint64_t checked_nodes = 0, checked_keys = 0, keyed_kinds_seen = 0;
  std::set<std::string> kinds_with_keys;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const test::FuzzCase c = test::GenerateFuzzCase(seed);
    absl::StatusOr<Document> doc = explain::ParseText(c.plan_text);
    ASSERT_TRUE(doc.ok()) << doc.status();
    const eval::InputData data = AsSets(c.data);
    AnalysisInputs inputs;
    ValidateOptions validate;
    for (const auto& [name, collection] : data.collections) {
      inputs.global_arity[name] = collection.arity;
      validate.global_arity[name] = collection.arity;
      inputs.global_unique_keys[name] = TrueKeys(collection);
    }
    // Every closed subtree becomes a plan of its own, so that its output
    // can be evaluated and compared with what the analysis says of it.
    std::vector<const Node*> subtrees;
    ForEachPostOrder(*doc->objects[0].plan, [&](const Node& node) {
      if (FreeLocals(node).empty()) subtrees.push_back(&node);
    });
    for (const Node* subtree : subtrees) {
      Document part;
      part.objects.push_back(Object{"Explained Query", std::nullopt,
                                    Clone(*subtree), std::nullopt});
      if (!Validate(part, validate).ok()) continue;
      absl::StatusOr<DocumentAnalysis> analysis =
          DocumentAnalysis::Run(part, inputs);
      ASSERT_TRUE(analysis.ok()) << analysis.status();
      const Node& root = *part.objects[0].plan;
      const UniqueKeys* keys = analysis->UniqueKeysOf(root);
      ASSERT_NE(keys, nullptr);
      ASSERT_FALSE(keys->everything);
      if (keys->keys.empty()) continue;
      eval::RunOptions options;
      options.engine = eval::Engine::kSnapshot;
      absl::StatusOr<eval::RunResult> run =
          eval::RunDocument(part, data, options);
      if (!run.ok()) continue;
      ++checked_nodes;
      kinds_with_keys.insert(HeaderName(root));
      const std::string where =
          absl::StrCat("seed ", seed, ", keys ", FormatUniqueKeys(*keys),
                       " of\n", explain::PrintText(part));
      eval::ContentsReplay replay(run->objects[0]);
      for (absl::StatusOr<bool> more = replay.Next(); more.ok() && *more;
           more = replay.Next()) {
        const eval::RoundChanges& round = replay.round();
        if (round.error.has_value()) break;
        for (const auto& [row, count] : replay.contents()) {
          EXPECT_GT(count, 0) << "round " << round.round << ", " << where;
        }
        for (const UniqueKey& key : keys->keys) {
          ++checked_keys;
          for (const auto& [value, count] : CountsOn(replay.contents(), key)) {
            EXPECT_LE(count, 1) << "round " << round.round << ", " << where;
          }
        }
      }
    }
  }
  keyed_kinds_seen = kinds_with_keys.size();
  // The property must have had something to check.
  EXPECT_GT(checked_nodes, 3000u);
  EXPECT_GT(checked_keys, 10000u);
  for (const char* kind :
       {"Constant", "Get::Collection", "Get::Arrangement",
        "Get::PassArrangements", "Mfp", "Reduce::Distinct",
        "Reduce::Accumulable", "Reduce::Hierarchical", "Reduce::Basic",
        "TopK::Basic", "TopK::MonotonicTop1", "TopK::MonotonicTopK",
        "ArrangeBy", "With"}) {
    EXPECT_TRUE(kinds_with_keys.count(kind)) << kind;
  }
  EXPECT_GE(keyed_kinds_seen, 14u);
}

}  // namespace
}  // namespace lir::interp
