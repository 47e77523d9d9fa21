// Generated EXCEPT-shaped plans and data for the evaluator's equivalence
// harness. Plans are written as verbose EXPLAIN text from templates in the
// style of Materialize's lowering, so a failing case prints as a plan anyone
// can read and rerun with `lir-opt run`.
#include "tests/support/eval_case_gen.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/support/eval_plan_fuzz_parts.h"
#include "tests/support/plan_text_gen.h"
#include "tests/support/random.h"

namespace lir::test {

namespace {

// Text and randomness shared with the general generator
// (eval_plan_fuzz_parts.h, random.h).
using fuzz::Append;
using fuzz::Indent;
using fuzz::Lines;

// One input collection the plan reads, and how its data may look.
struct CollectionSpec {
  int arity = 1;
  /// Retractions may exceed insertions (negative counts): only for
  /// collections no Reduce reads (Distinct would reject them).
  bool allow_negative = false;
  /// Keyed on these columns: the data never holds two rows that agree on
  /// them, and every count is 0 or 1 (so the collection is a set). Empty:
  /// not keyed.
  std::vector<int> key;
};

// The arm templates. Every arm produces rows of the threshold's key width.
enum class Arm {
  kIndex,                 // Get::PassArrangements of an index on all columns
  kDistinctArranged,      // ArrangeBy over Reduce::Distinct (EXCEPT)
  kProjectedIndex,        // Mfp project=(#1) over an index on [#1]
  kProjectedArrangement,  // Get::Arrangement project=(#1) of an index on [#1]
  kRaw,                   // Get::Collection: declines not_co_arranged
  kFiltered,              // Mfp with a filter: declines non_projection_mfp
  kBareReduce,  // Reduce::Distinct: declines arm_not_get_or_arrange_by
};

constexpr const char* kArmNames[] = {
    "index", "distinct", "projected_index", "projected_arrangement",
    "raw",   "filtered", "bare_reduce"};

std::string KeyList(int width) { return width == 1 ? "[#0]" : "[#0, #1]"; }

class CaseBuilder {
 public:
  explicit CaseBuilder(uint64_t seed) : dice_(seed) {}

  EvalCase Build() {
    EvalCase out;
    Lines plan;
    const int context = dice_.Below(5);
    switch (context) {
      case 0: Append(plan, Indent(ReadExcept(&out.description), 2)); break;
      case 1: Append(plan, Indent(InLet(&out.description), 2)); break;
      case 2: Append(plan, Indent(InJoin(&out.description), 2)); break;
      case 3: Append(plan, Indent(AntiSide(&out.description), 2)); break;
      default: Append(plan, Indent(TwoExcepts(&out.description), 2)); break;
    }
    out.plan_text = absl::StrCat(test::kQueryHeader, absl::StrJoin(plan, "\n"),
                                 "\n\nTarget cluster: quickstart\n");
    out.data = Data();
    for (const auto& [name, spec] : collections_) {
      if (!spec.key.empty()) out.unique_keys[name] = {spec.key};
    }
    return out;
  }

 private:
  std::string NewCollection(int arity, bool allow_negative,
                            std::vector<int> key = {}) {
    const std::string name =
        absl::StrCat("materialize.public.c", collections_.size());
    collections_[name] = CollectionSpec{arity, allow_negative, std::move(key)};
    return name;
  }

  // All columns of a width-`width` row: the key that makes it a set.
  static std::vector<int> AllColumns(int width) {
    std::vector<int> key;
    for (int c = 0; c < width; ++c) key.push_back(c);
    return key;
  }

  // An arm of key width `width`.
  // With `set_only`, a keyed index or an arranged Distinct: an arm the
  // unique-keys analysis proves a set.
  Lines MakeArm(int width, std::string* description, bool set_only = false) {
    Arm arm = static_cast<Arm>(dice_.Below(7));
    if (set_only) arm = dice_.Chance(50) ? Arm::kIndex : Arm::kDistinctArranged;
    if (width != 1 &&
        (arm == Arm::kProjectedIndex || arm == Arm::kProjectedArrangement)) {
      arm = Arm::kIndex;
    }
    absl::StrAppend(description, kArmNames[static_cast<int>(arm)], " ");
    const std::string key = KeyList(width);
    switch (arm) {
      case Arm::kIndex: {
        // Half the indexed arms are keyed (sets, as a primary key makes
        // them): the antijoin rendering's set checks pass only for those.
        const bool keyed = set_only || dice_.Chance(50);
        if (keyed) absl::StrAppend(description, "keyed ");
        return {
            absl::StrCat("Get::PassArrangements ",
                         keyed ? NewCollection(width, false, AllColumns(width))
                               : NewCollection(width, true)),
            "  raw=false",
            absl::StrCat("  arrangements[0]={ key=", key,
                         ", permutation=id, thinning=() }")};
      }
      case Arm::kDistinctArranged:
        return {
            "ArrangeBy",
            absl::StrCat("  input_key=", key),
            "  raw=true",
            "  Reduce::Distinct",
            "    key_plan=id",
            "    val_plan",
            "      project=()",
            absl::StrCat("    Get::Collection ", NewCollection(width, false)),
            "      raw=true"};
      case Arm::kProjectedIndex:
        return {
            "Mfp", "  project=(#1)",
            absl::StrCat("  Get::PassArrangements ", NewCollection(2, true)),
            "    raw=false",
            "    arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
            "thinning=(#0) }"};
      case Arm::kProjectedArrangement:
        return {absl::StrCat("Get::Arrangement ", NewCollection(2, true)),
                "  project=(#1)", "  key=#1", "  raw=false",
                "  arrangements[0]={ key=[#1], permutation={#0: #1, #1: #0}, "
                "thinning=(#0) }"};
      case Arm::kRaw:
        return {absl::StrCat("Get::Collection ", NewCollection(width, true)),
                "  raw=true"};
      case Arm::kFiltered:
        return {"Mfp", "  filter=((#0) IS NOT NULL)",
                absl::StrCat("  Get::PassArrangements ",
                             NewCollection(width, true)),
                "    raw=false",
                absl::StrCat("    arrangements[0]={ key=", key,
                             ", permutation=id, thinning=() }")};
      case Arm::kBareReduce:
        return {"Reduce::Distinct",
                "  key_plan=id",
                "  val_plan",
                "    project=()",
                absl::StrCat("  Get::Collection ", NewCollection(width, false)),
                "    raw=true"};
    }
    return {};
  }

  // Threshold(ArrangeBy(Union(base, Negate(subtract)))) in either order.
  Lines Except(std::string* description, int width = 0) {
    if (width == 0) width = 1 + dice_.Below(2);
    absl::StrAppend(description, "except(w=", width, " ");
    const std::string key = KeyList(width);
    // A third of the EXCEPTs have two set arms (what the antijoin rendering
    // needs); the others draw each arm from every template.
    const bool sets = dice_.Chance(33);
    if (sets) absl::StrAppend(description, "sets ");
    Lines base = MakeArm(width, description, sets);
    Lines subtract = {"Negate"};
    Append(subtract, Indent(MakeArm(width, description, sets), 2));
    const bool negate_first = dice_.Chance(50);
    if (negate_first) absl::StrAppend(description, "negate_first ");
    absl::StrAppend(description, ") ");
    Lines out = {absl::StrCat("Threshold::Basic ensure_arrangement={ key=", key,
                              ", permutation=id, thinning=() }"),
                 "  ArrangeBy", "    raw=false",
                 absl::StrCat("    arrangements[0]={ key=", key,
                              ", permutation=id, thinning=() }"),
                 "    Union consolidate_output=true"};
    Append(out, Indent(negate_first ? subtract : base, 6));
    Append(out, Indent(negate_first ? base : subtract, 6));
    return out;
  }

  // The EXCEPT as the object's result, or read by an Mfp through its
  // output arrangement (input_key), as the LEFT JOIN lowering reads it: the
  // antijoin rendering declines the first (output_arrangement_consumed) and
  // may fire on the second.
  Lines ReadExcept(std::string* description) {
    if (dice_.Chance(50)) return Except(description);
    absl::StrAppend(description, "mfp_reader ");
    const int width = 1 + dice_.Below(2);
    Lines out = {"Mfp",
                 width == 1 ? "  project=(#0, #0)" : "  project=(#1, #0)",
                 width == 1 ? "  input_key=#0" : "  input_key=#0, #1"};
    Append(out, Indent(Except(description, width), 2));
    return out;
  }

  // With cte l0 = EXCEPT, read twice by a Union body.
  Lines InLet(std::string* description) {
    absl::StrAppend(description, "let ");
    const int width = 1 + dice_.Below(2);
    const std::string key = KeyList(width);
    Lines out = {"With", "  cte l0 ="};
    Append(out, Indent(Except(description, width), 4));
    Append(
        out,
        {"Return", "  Union", "    Get::PassArrangements l0", "      raw=false",
         absl::StrCat("      arrangements[0]={ key=", key,
                      ", permutation=id, thinning=() }"),
         "    Negate",
         absl::StrCat("      Get::Collection ", NewCollection(width, true)),
         "        raw=true"});
    return out;
  }

  // Join::Linear of the EXCEPT (arranged by its key) with another
  // collection on the first column.
  Lines InJoin(std::string* description) {
    absl::StrAppend(description, "join ");
    const int width = 1 + dice_.Below(2);
    Lines out = {"Join::Linear", "  linear_stage[0]",
                 "    lookup={ relation=1, key=[#0] }",
                 width == 1 ? "    stream={ key=[#0], thinning=() }"
                            : "    stream={ key=[#0], thinning=(#1) }",
                 // The EXCEPT is arranged by all its columns, not by the
                 // stream key: the join reads it as a collection.
                 "  source={ relation=0, raw }"};
    Append(out, Indent(Except(description, width), 2));
    Append(out, {"  ArrangeBy", "    raw=true",
                 "    arrangements[0]={ key=[#0], permutation=id, "
                 "thinning=(#1) }",
                 absl::StrCat("    Get::Collection ", NewCollection(2, true)),
                 "      raw=true"});
    return out;
  }

  // The anti-side of a LEFT JOIN, as Materialize lowers it: keys of the
  // left side that have no match on the right, padded with NULLs.
  Lines AntiSide(std::string* description) {
    absl::StrAppend(description, "anti_side ");
    // A keyed right side (Materialize's right1_keyed) makes the keys arm
    // distinct, so the antijoin rendering fires.
    const bool keyed = dice_.Chance(50);
    if (keyed) absl::StrAppend(description, "keyed_right ");
    const std::string right = NewCollection(
        2, false, keyed ? std::vector<int>{0} : std::vector<int>{});
    const std::string left = NewCollection(2, false);
    const bool negate_first = dice_.Chance(50);
    if (negate_first) absl::StrAppend(description, "negate_first ");
    Lines subtract = {"Negate",
                      "  Get::Arrangement l0",
                      "    project=(#0)",
                      "    key=#0",
                      "    raw=false",
                      "    arrangements[0]={ key=[#0], permutation=id, "
                      "thinning=(#1) }"};
    Lines base = {"ArrangeBy",
                  "  input_key=[#0]",
                  "  raw=true",
                  "  Get::PassArrangements l1",
                  "    raw=false",
                  "    arrangements[0]={ key=[#0], permutation=id, "
                  "thinning=() }"};
    Lines out = {"With",
                 "  cte l0 =",
                 "    ArrangeBy",
                 "      raw=false",
                 "      arrangements[0]={ key=[#0], permutation=id, "
                 "thinning=(#1) }",
                 absl::StrCat("      Get::Collection ", right),
                 "        raw=true",
                 "  cte l1 =",
                 "    Reduce::Distinct",
                 "      key_plan=id",
                 "      val_plan",
                 "        project=()",
                 absl::StrCat("      Get::Collection ", left),
                 "        project=(#0)",
                 "        raw=true",
                 "Return",
                 "  Union",
                 "    Mfp",
                 "      project=(#0..=#2)",
                 "      map=(null, null)",
                 "      input_key=#0",
                 "      Threshold::Basic ensure_arrangement={ key=[#0], "
                 "permutation=id, thinning=() }",
                 "        ArrangeBy",
                 "          raw=false",
                 "          arrangements[0]={ key=[#0], permutation=id, "
                 "thinning=() }",
                 "          Union consolidate_output=true"};
    Append(out, Indent(negate_first ? subtract : base, 12));
    Append(out, Indent(negate_first ? base : subtract, 12));
    Append(out, {absl::StrCat("    Get::Collection ", NewCollection(3, true)),
                 "      raw=true"});
    return out;
  }

  // Two EXCEPTs of the same width under one Union.
  Lines TwoExcepts(std::string* description) {
    absl::StrAppend(description, "union_of_two ");
    const int width = 1 + dice_.Below(2);
    Lines out = {"Union"};
    Append(out, Indent(Except(description, width), 2));
    Append(out, Indent(Except(description, width), 2));
    return out;
  }

  eval::Datum Value() {
    if (dice_.Chance(4)) return eval::Datum::Null();
    return eval::Datum::Int(dice_.Below(4));
  }

  eval::InputData Data() {
    eval::InputData data;
    const int rounds = 2 + dice_.Below(4);
    for (const auto& [name, spec] : collections_) {
      eval::InputCollection collection;
      collection.arity = spec.arity;
      std::map<eval::DataRow, int64_t> present;
      const bool keyed = !spec.key.empty();
      // The key values of the rows present (keyed collections only).
      // (An init-capture: clang 14 cannot capture a structured binding.)
      auto key_of = [&columns = spec.key](const eval::DataRow& row) {
        eval::DataRow key;
        for (int c : columns) key.push_back(row[c]);
        return key;
      };
      std::map<eval::DataRow, int> keys_present;
      for (int round = 0; round < rounds; ++round) {
        const int inserts = dice_.Below(round == 0 ? 6 : 3);
        for (int i = 0; i < inserts; ++i) {
          eval::DataRow row;
          for (int c = 0; c < spec.arity; ++c) row.push_back(Value());
          const int64_t diff = keyed ? 1 : 1 + dice_.Below(2);
          if (keyed && keys_present[key_of(row)] > 0) continue;
          if (keyed) ++keys_present[key_of(row)];
          present[row] += diff;
          collection.updates.push_back(
              {row, static_cast<uint64_t>(round), diff});
        }
        const int retractions = round == 0 ? 0 : dice_.Below(3);
        for (int i = 0; i < retractions && !present.empty(); ++i) {
          auto it = present.begin();
          // Next() rather than Below(): Below(1) would skip the draw, and
          // each seed must keep its case.
          std::advance(it, static_cast<int>(dice_.Next() % present.size()));
          int64_t diff = -1;
          if (spec.allow_negative && dice_.Chance(15)) diff = -(it->second + 1);
          if (!spec.allow_negative && it->second <= 0) continue;
          if (keyed) --keys_present[key_of(it->first)];
          collection.updates.push_back(
              {it->first, static_cast<uint64_t>(round), diff});
          it->second += diff;
        }
      }
      data.collections[name] = std::move(collection);
    }
    return data;
  }

  Dice dice_;
  std::map<std::string, CollectionSpec> collections_;
};

}  // namespace

EvalCase GenerateEvalCase(uint64_t seed) { return CaseBuilder(seed).Build(); }

}  // namespace lir::test
