// The generator's AntiJoin nodes (../shared/reference/SEMANTICS.md 7.1):
// a base arm co-arranged on a random key in one of the shapes the node
// allows (an ArrangeBy form of a generated subplan or an imported index,
// maybe read through a projection of its layout row by an ArrangeBy or Mfp
// with input_key or by a Get::Arrangement, maybe under a projecting Mfp),
// and a keys arm that is mostly
// distinct (a Reduce::Distinct read through ArrangeBy input_key, EXCEPT's
// shape) and sometimes not, so that both engines must fail at the same round
// when a key the base holds is counted twice.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/support/eval_plan_fuzz_internal.h"

namespace lir::test::fuzz {

namespace {

// 1 or 2 distinct columns of an `arity`-column row, in any order.
std::vector<int> PickKey(Dice& dice, int arity) {
  std::vector<int> columns = AllColumns(arity);
  dice.Shuffle(columns);
  columns.resize(std::min<size_t>(columns.size(), dice.Chance(20) ? 2 : 1));
  return columns;
}

// A projection of `arity` columns that keeps every column of `key` (and
// maybe others), shuffled; `key` becomes the positions of its columns in
// the projection.
std::vector<int> ProjectKeeping(Dice& dice, int arity, std::vector<int>& key) {
  std::vector<int> project = key;
  for (int c = 0; c < arity; ++c) {
    if (std::find(key.begin(), key.end(), c) == key.end() && dice.Chance(60)) {
      project.push_back(c);
    }
  }
  dice.Shuffle(project);
  for (int& c : key) {
    c = static_cast<int>(std::find(project.begin(), project.end(), c) -
                         project.begin());
  }
  return project;
}

}  // namespace

Sub FuzzGenerator::AntiJoin(int depth) {
  Count("AntiJoin");
  // The base arm: an arrangement on `base_key` (columns of the arranged
  // collection), matched on `key` (columns of the arm's output).
  Sub arm;
  std::vector<int> base_key;
  const Global* index = nullptr;
  if (dice_.Chance(50)) {
    index = &dice_.Pick(globals_);
    base_key = PickKey(dice_, static_cast<int>(index->schema.size()));
    arm.schema = index->schema;
  } else {
    Count("AntiJoin base ArrangeBy form");
    Sub input = Gen(depth - 1);
    base_key = PickKey(dice_, static_cast<int>(input.schema.size()));
    arm = WrapArrange(std::move(input), {base_key});
  }
  std::vector<int> key = base_key;
  // A read of the arrangement projecting its layout row (the key first,
  // then the thinned value; ../shared/reference/SEMANTICS.md 8.2): the key
  // is then the positions of 0..k-1 in the projection.
  const Schema layout = LayoutSchema(base_key, arm.schema);
  auto project_layout = [&](Sub& read) {
    key = AllColumns(base_key.size());
    const std::vector<int> project =
        ProjectKeeping(dice_, static_cast<int>(layout.size()), key);
    read.lines.push_back(absl::StrCat("  project=(", Positions(project), ")"));
    for (int p : project) read.schema.push_back(layout[p]);
  };
  const std::string arrangement = absl::StrCat(
      "  arrangements[0]=",
      ColumnArrangementText(base_key, static_cast<int>(arm.schema.size())));
  if (index != nullptr && dice_.Chance(30)) {
    Count("AntiJoin base Get::Arrangement");
    Count("Get::Arrangement");
    Sub read;
    read.lines = {absl::StrCat("Get::Arrangement ", index->name)};
    project_layout(read);
    Append(read.lines, {absl::StrCat("  key=", Positions(base_key)),
                        "  raw=false", arrangement});
    arm = std::move(read);
  } else if (index != nullptr) {
    Count("AntiJoin base index");
    Count("Get::PassArrangements (index)");
    arm.lines = {absl::StrCat("Get::PassArrangements ", index->name),
                 "  raw=false", arrangement};
    arm.offered = {base_key};
  }
  // Reads of the arrangement through its layout (not of a Get::Arrangement,
  // which offers none).
  bool wrapped = false;
  const int layout_read = arm.offered.empty() ? 100 : dice_.Below(100);
  if (layout_read < 30) {
    Count("ArrangeBy");
    Count("AntiJoin base ArrangeBy input_key");
    Sub read;
    read.lines = {"ArrangeBy",
                  absl::StrCat("  input_key=[", Positions(base_key), "]")};
    project_layout(read);
    read.lines.push_back("  raw=true");
    Append(read.lines, Indent(arm.lines, 2));
    read.may_be_negative = arm.may_be_negative;
    arm = std::move(read);
  } else if (layout_read < 45) {
    Count("Mfp");
    Count("AntiJoin base Mfp wrapper input_key");
    Sub read;
    read.lines = {"Mfp"};
    project_layout(read);
    read.lines.push_back(absl::StrCat("  input_key=", Positions(base_key)));
    Append(read.lines, Indent(arm.lines, 2));
    read.may_be_negative = arm.may_be_negative;
    arm = std::move(read);
    wrapped = true;
  }
  if (!wrapped && dice_.Chance(35)) {
    // A projecting Mfp wrapper over the row (the key moves with it).
    Count("Mfp");
    Count("AntiJoin base Mfp wrapper");
    const std::vector<int> project =
        ProjectKeeping(dice_, static_cast<int>(arm.schema.size()), key);
    Sub read;
    read.lines = {"Mfp", absl::StrCat("  project=(", Positions(project), ")")};
    Append(read.lines, Indent(arm.lines, 2));
    for (int c : project) read.schema.push_back(arm.schema[c]);
    read.may_be_negative = arm.may_be_negative;
    arm = std::move(read);
  }

  // The keys arm: one column per key column, of the same types.
  Schema key_schema;
  for (int c : key) key_schema.push_back(arm.schema[c]);
  const int width = static_cast<int>(key_schema.size());
  const std::vector<int> keys_key = AllColumns(width);
  Sub keys;
  if (dice_.Chance(90)) {
    Count("Reduce::Distinct");
    Count("ArrangeBy");
    Sub input = NonNegative(Conform(Gen(depth - 1), key_schema));
    keys.lines = {"ArrangeBy",
                  absl::StrCat("  input_key=[", Positions(keys_key), "]"),
                  "  raw=true",
                  "  Reduce::Distinct",
                  "    key_plan=id",
                  "    val_plan",
                  "      project=()"};
    Append(keys.lines, Indent(input.lines, 4));
  } else {
    Count("AntiJoin keys not distinct");
    keys = WrapArrange(Conform(Gen(depth - 1), key_schema), {keys_key});
  }

  Sub out;
  out.lines = {absl::StrCat("AntiJoin key=[", Positions(key), "]"),
               absl::StrCat("  base_key=[", Positions(base_key), "]"),
               absl::StrCat("  keys_key=[", Positions(keys_key), "]")};
  Append(out.lines, Indent(arm.lines, 2));
  Append(out.lines, Indent(keys.lines, 2));
  out.schema = arm.schema;
  out.may_be_negative = arm.may_be_negative;
  return out;
}

}  // namespace lir::test::fuzz
