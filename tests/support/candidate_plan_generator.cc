// The candidate plan generator and its oracle (candidate_plan_generator.h).
#include "tests/support/candidate_plan_generator.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lir/layout.h"
#include "lir/recognizer/fused_set_difference.h"
#include "tests/support/plan_generator.h"
#include "tests/support/plan_generator_parts.h"

namespace lir::test {
namespace {

// The generator's parts (plan_generator_parts.h).
using namespace plan_gen;  // NOLINT
using enum FusedSetDifferenceDecline;

// The oracle's spelling of a decline code: the pass's name table.
std::string Code(FusedSetDifferenceDecline code) {
  return std::string(DeclineName(code));
}

// ---- the oracle's view of one arm
// -------------------------------------------------

// The verdict ../shared/reference/SEMANTICS.md 4.2 checks 6-10 give an arm.
struct ArmVerdict {
  std::string code;      // empty: co-arranged
  std::vector<int> key;  // when co-arranged: the key the operator reads
  /// The spec and the pass may answer an ArrangeBy whose input_mfp moves the
  /// key differently (recognizer_test DISABLED_KeyRemappedByArrangeByInputMfp):
  /// either key_remapped_by_projection or not_co_arranged is accepted.
  bool remap_ambiguous = false;
};

bool HasKey(const std::vector<ArrangementForm>& forms,
            const std::vector<int>& key) {
  for (const ArrangementForm& form : forms) {
    if (KeyColumns(form.key) == key) return true;
  }
  return false;
}

// `columns` mapped through projection `project` (nullopt: identity).
std::vector<int> Through(const std::optional<std::vector<int>>& project,
                         const std::vector<int>& columns) {
  if (!project.has_value()) return columns;
  std::vector<int> out;
  for (int c : columns) out.push_back((*project)[c]);
  return out;
}

// A projection chosen over an `n`-column row, as a read of that row's
// arrangement by `key` prints it: each row column replaced by its position
// in the layout row (../shared/reference/SEMANTICS.md 8.2); mapped columns (>=
// n) stay. nullopt when the result is the identity. The oracle keeps reasoning
// over rows.
std::optional<std::vector<int>> OverLayout(
    const std::optional<std::vector<int>>& project,
    const std::vector<ScalarExpr>& key, int n) {
  const std::optional<Layout> layout = MakeLayout(MakeArrangement(key, n));
  std::vector<int> out = project.has_value() ? *project : Iota(n);
  for (int& c : out) {
    if (c < n) c = layout->position[c];
  }
  if (out == Iota(n)) return std::nullopt;
  return out;
}

ArmVerdict Declined(FusedSetDifferenceDecline code) {
  ArmVerdict v;
  v.code = Code(code);
  return v;
}

// 4.3 for a Get whose underlying collection advertises `forms`.
ArmVerdict GetVerdict(const std::vector<ArrangementForm>& forms,
                      const std::vector<int>& arm_key, int a) {
  if (HasKey(forms, arm_key)) return {"", arm_key};
  if (arm_key != Iota(a) && HasKey(forms, Iota(a))) {
    return Declined(kKeyRemappedByProjection);
  }
  return Declined(kNotCoArranged);
}

// 4.3 for an ArrangeBy: forms in its output columns, input_key in its input
// columns (before `project`, its input_mfp's projection).
ArmVerdict ArrangeByVerdict(const std::vector<ArrangementForm>& forms,
                            const std::optional<std::vector<int>>& input_key,
                            const std::optional<std::vector<int>>& project,
                            const std::vector<int>& out_key, int a) {
  const std::vector<int> in_key = Through(project, out_key);
  if (HasKey(forms, out_key)) return {"", out_key};
  if (input_key == in_key) return {"", in_key};
  const std::vector<int> key = Iota(a);
  // A naive textual match against the threshold key would have fired.
  const bool spec_remapped = (out_key != key && HasKey(forms, key)) ||
                             (in_key != key && input_key == key);
  // What the pass computes (only the wrapper's projection counts as moving
  // the key).
  const bool pass_remapped =
      out_key != key &&
      (HasKey(forms, key) || input_key == Through(project, key));
  ArmVerdict v =
      Declined(spec_remapped ? kKeyRemappedByProjection : kNotCoArranged);
  v.remap_ambiguous = spec_remapped != pass_remapped;
  return v;
}

// ---- the generator
// ------------------------------------------------------------------

class CandidatePlanGenerator {
 public:
  explicit CandidatePlanGenerator(uint64_t seed)
      : rng_(seed), parts_(rng_, catalog_, 0.2) {}

  GeneratedCase Generate() {
    budget_ = rng_.Int(8, 140);
    const int arity = rng_.Int(1, 3);
    std::vector<NodePtr> items;
    const int count = rng_.Int(1, 4);
    for (int i = 0; i < count; ++i) items.push_back(Item(arity, 0, false));
    NodePtr root = items.size() == 1 ? std::move(items[0])
                                     : MakeNode(UnionOp{}, std::move(items));
    AssignPostOrderIds(*root);
    GeneratedCase out;
    for (auto& [node, expected] : pending_) out.expected[node->id] = expected;
    out.validate.global_arity = global_arity_;
    out.doc = WrapInDocument(std::move(root));
    return out;
  }

 private:
  struct Binding {
    uint64_t id;
    int arity;
  };

  static NodePtr Wrap(NodeOp op, NodePtr input) {
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(input));
    return MakeNode(std::move(op), std::move(inputs));
  }

  // `n` distinct columns of `m`, in random order (sometimes the prefix).
  std::vector<int> Columns(int m, int n) {
    std::vector<int> columns = Iota(m);
    if (rng_.Chance(0.3)) {
      columns.resize(n);
      return columns;
    }
    rng_.Shuffle(columns);
    columns.resize(n);
    return columns;
  }

  // A projection from `in` to `out` columns; nullopt (the identity) only
  // when they are equal.
  std::optional<std::vector<int>> Projection(int in, int out) {
    std::vector<int> columns = Columns(in, out);
    if (in == out && columns == Iota(in) && rng_.Chance(0.5))
      return std::nullopt;
    return columns;
  }

  // Arrangements of an `m`-column collection: often the key an arm needs
  // (`wanted`), sometimes the threshold key `#0..#a-1` (so that a moved key
  // is a remapping), and random others.
  std::vector<ArrangementForm> Arrangements(int m,
                                            const std::vector<int>& wanted,
                                            int a) {
    std::vector<std::vector<int>> keys;
    auto add = [&](std::vector<int> key) {
      for (const auto& k : keys) {
        if (k == key) return;
      }
      keys.push_back(std::move(key));
    };
    if (rng_.Chance(0.6)) add(wanted);
    if (a <= m && rng_.Chance(0.3)) add(Iota(a));
    for (int extra = rng_.Int(0, 2); extra > 0; --extra) {
      add(Columns(m, rng_.Int(1, m)));
    }
    rng_.Shuffle(keys);
    std::vector<ArrangementForm> forms;
    for (const auto& key : keys) forms.push_back(MakeColumnArrangement(key, m));
    return forms;
  }

  // A global collection of `arity` columns under a fresh name.
  CollectionId NewGlobal(int arity) {
    std::string name =
        absl::StrCat("materialize.public.g", global_arity_.size());
    global_arity_[name] = arity;
    return CollectionId::Global(name);
  }

  NodePtr GetNode(GetKind kind, int arity, std::vector<ArrangementForm> forms,
                  bool raw) {
    GetOp get;
    get.id = NewGlobal(arity);
    get.kind = kind;
    get.keys.raw = raw;
    get.keys.arranged = std::move(forms);
    --budget_;
    return MakeNode(std::move(get));
  }

  // An unarranged leaf of `arity` columns: a table, a binding or a constant.
  NodePtr Leaf(int arity) {
    --budget_;
    std::vector<const Binding*> fitting;
    for (const Binding& b : scopes_) {
      if (b.arity == arity) fitting.push_back(&b);
    }
    const int pick = rng_.Int(0, 9);
    if (pick < 3 && !fitting.empty()) {
      GetOp get;
      get.id =
          CollectionId::Local(fitting[rng_.Int(0, fitting.size() - 1)]->id);
      get.keys.raw = true;
      return MakeNode(std::move(get));
    }
    if (pick == 9) {
      ConstantOp constant;
      Row row;
      for (int c = 0; c < arity; ++c)
        row.push_back(Literal::Int(rng_.Int(0, 9)));
      constant.rows.push_back({std::move(row), 1});
      return MakeNode(std::move(constant));
    }
    ++budget_;
    return GetNode(GetKind::kCollection, arity, {}, true);
  }

  // Any subplan of `arity` columns; candidates may appear anywhere in it.
  NodePtr Item(int arity, int depth, bool in_let_rec) {
    if (budget_ <= 0 || depth > 8) return Leaf(arity);
    --budget_;
    const int r = rng_.Int(0, 99);
    if (r < 30 && arity <= 4) return Candidate(arity, depth, in_let_rec);
    if (r < 38) {  // Let
      LetOp let{next_id_++};
      const int value_arity = rng_.Int(1, 3);
      std::vector<NodePtr> inputs;
      inputs.push_back(Item(value_arity, depth + 1, in_let_rec));
      scopes_.push_back({let.id, value_arity});
      inputs.push_back(Item(arity, depth + 1, in_let_rec));
      scopes_.pop_back();
      return MakeNode(let, std::move(inputs));
    }
    if (r < 43) {  // LetRec: values are recursive, the body is not
      LetRecOp rec;
      const int bindings = rng_.Int(1, 2);
      std::vector<int> arities;
      for (int i = 0; i < bindings; ++i) {
        rec.ids.push_back(next_id_++);
        rec.limits.push_back(std::nullopt);
        arities.push_back(rng_.Int(1, 3));
        scopes_.push_back({rec.ids.back(), arities.back()});
      }
      std::vector<NodePtr> inputs;
      for (int i = 0; i < bindings; ++i) {
        inputs.push_back(Item(arities[i], depth + 1, true));
      }
      inputs.push_back(Item(arity, depth + 1, in_let_rec));
      scopes_.resize(scopes_.size() - bindings);
      return MakeNode(std::move(rec), std::move(inputs));
    }
    if (r < 54) {  // Join::Linear; arranged inputs get an ArrangeBy
      JoinDraft draft = parts_.RandomLinearJoin(arity, rng_.Int(2, 3));
      std::vector<NodePtr> inputs;
      for (const auto& input : draft.inputs) {
        NodePtr child = Item(input.arity, depth + 1, in_let_rec);
        if (input.key.has_value() || input.raw_arrange_by) {
          ArrangeByOp arrange;
          arrange.forms.raw = !input.key.has_value() || rng_.Chance(0.5);
          if (input.key.has_value()) {
            arrange.forms.arranged.push_back(
                MakeColumnArrangement(*input.key, input.arity));
          }
          child = Wrap(std::move(arrange), std::move(child));
        }
        inputs.push_back(std::move(child));
      }
      return MakeNode(std::move(draft.op), std::move(inputs));
    }
    if (r < 64) {  // a nested Union, sometimes with a negated input
      std::vector<NodePtr> inputs;
      for (int i = rng_.Int(2, 3); i > 0; --i) {
        NodePtr child = Item(arity, depth + 1, in_let_rec);
        if (rng_.Chance(0.2)) child = Wrap(NegateOp{}, std::move(child));
        inputs.push_back(std::move(child));
      }
      UnionOp op;
      op.consolidate_output = rng_.Chance(0.3);
      return MakeNode(std::move(op), std::move(inputs));
    }
    if (r < 72) {  // Mfp: projection, sometimes a filter
      const int in = arity + rng_.Int(0, 2);
      MfpOp mfp;
      mfp.mfp.project = Projection(in, arity);
      if (rng_.Chance(0.3))
        mfp.mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
      return Wrap(std::move(mfp), Item(in, depth + 1, in_let_rec));
    }
    if (r < 80) {  // Reduce::Distinct grouping by a prefix
      const int in = arity + rng_.Int(0, 2);
      return Wrap(DistinctOp(in, Iota(arity)), Item(in, depth + 1, in_let_rec));
    }
    if (r < 86) {  // ArrangeBy
      ArrangeByOp arrange;
      arrange.forms.raw = rng_.Chance(0.5);
      arrange.forms.arranged = Arrangements(arity, Iota(arity), arity);
      return Wrap(std::move(arrange), Item(arity, depth + 1, in_let_rec));
    }
    if (r < 90) return Wrap(NegateOp{}, Item(arity, depth + 1, in_let_rec));
    ++budget_;
    return Leaf(arity);
  }

  // The node under a (possibly stripped) Mfp wrapper: `m` columns, the arm's
  // key read as `wk` (columns of this node's output); `a` the threshold key
  // length. Sets `*v` to what checks 7-10 say.
  NodePtr Core(int m, const std::vector<int>& wk, int a, int depth,
               bool in_let_rec, ArmVerdict* v) {
    const int kind = rng_.Int(0, 9);
    if (kind <= 2) {  // Get::PassArrangements
      std::vector<ArrangementForm> forms = Arrangements(m, wk, a);
      *v = GetVerdict(forms, wk, a);
      const bool raw = forms.empty() || rng_.Chance(0.3);
      return GetNode(GetKind::kPassArrangements, m, std::move(forms), raw);
    }
    if (kind <= 6) {  // Get::Arrangement or Get::Collection with an MFP
      const bool arrangement = kind <= 4;
      const int n = m + rng_.Int(0, 2);
      MapFilterProject mfp;
      mfp.project = Projection(n, m);
      const std::vector<int> arm_key = Through(mfp.project, wk);
      std::vector<ArrangementForm> forms = Arrangements(n, arm_key, a);
      if (arrangement && forms.empty()) {
        forms.push_back(MakeColumnArrangement(Columns(n, rng_.Int(1, n)), n));
      }
      *v = GetVerdict(forms, arm_key, a);
      GetOp get;
      get.id = NewGlobal(n);
      get.kind = arrangement ? GetKind::kArrangement : GetKind::kCollection;
      get.keys.raw = !arrangement || rng_.Chance(0.3);
      get.keys.arranged = std::move(forms);
      if (arrangement) {
        get.key =
            get.keys.arranged[rng_.Int(0, get.keys.arranged.size() - 1)].key;
        if (rng_.Chance(0.1)) {
          get.seek = Row(get.key.size(), Literal::Int(5));
          *v = Declined(kNonProjectionMfp);
        }
      }
      if (rng_.Chance(0.1)) {
        if (rng_.Chance(0.5)) {
          mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
        } else {
          // map then project the mapped column away again.
          mfp.map.push_back(ScalarExpr::Lit(Literal::Int(1)));
          if (!mfp.project.has_value()) mfp.project = Iota(n);
        }
        *v = Declined(kNonProjectionMfp);
      }
      // A Get::Arrangement's MFP reads the layout row of its form.
      if (arrangement) mfp.project = OverLayout(mfp.project, get.key, n);
      get.mfp = std::move(mfp);
      --budget_;
      return MakeNode(std::move(get));
    }
    if (kind <= 8) {  // ArrangeBy, maybe projecting its input first
      const int n = m + (rng_.Chance(0.5) ? rng_.Int(0, 2) : 0);
      ArrangeByOp arrange;
      arrange.input_mfp.project = Projection(n, m);
      const std::vector<int> in_key = Through(arrange.input_mfp.project, wk);
      const int key_pick = rng_.Int(0, 3);
      if (key_pick == 0) {
        arrange.input_key = ColumnKey(in_key);
      } else if (key_pick == 1 && a <= n) {
        arrange.input_key = ColumnKey(Iota(a));
      } else if (key_pick == 2) {
        arrange.input_key = ColumnKey(Columns(n, rng_.Int(1, n)));
      }
      arrange.forms.raw = rng_.Chance(0.6);
      arrange.forms.arranged = Arrangements(m, wk, a);
      std::optional<std::vector<int>> input_key;
      if (arrange.input_key.has_value())
        input_key = KeyColumns(*arrange.input_key);
      *v = ArrangeByVerdict(arrange.forms.arranged, input_key,
                            arrange.input_mfp.project, wk, a);
      if (rng_.Chance(0.1)) {
        arrange.input_mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
        *v = Declined(kNonProjectionMfp);
      }
      // With input_key, input_mfp reads the input form's layout row.
      if (arrange.input_key.has_value()) {
        arrange.input_mfp.project =
            OverLayout(arrange.input_mfp.project, *arrange.input_key, n);
      }
      --budget_;
      NodePtr input = rng_.Chance(0.5) ? Leaf(n)
                                       : Wrap(DistinctOp(n, Iota(n)),
                                              Item(n, depth + 1, in_let_rec));
      return Wrap(std::move(arrange), std::move(input));
    }
    // Neither a Get nor an ArrangeBy: a Reduce, a constant, a nested candidate.
    *v = Declined(kArmNotGetOrArrangeBy);
    const int other = rng_.Int(0, 2);
    if (other == 0 && m <= 4) return Candidate(m, depth + 1, in_let_rec);
    if (other == 1) {
      ConstantOp constant;
      constant.rows.push_back({Row(m, Literal::Int(1)), 1});
      --budget_;
      return MakeNode(std::move(constant));
    }
    const int in = m + rng_.Int(0, 1);
    --budget_;
    return Wrap(DistinctOp(in, Iota(m)), Item(in, depth + 1, in_let_rec));
  }

  // One Union arm of `a` columns, with or without an Mfp wrapper.
  NodePtr Arm(int a, int depth, bool in_let_rec, ArmVerdict* v) {
    const int w = rng_.Int(0, 19);
    if (w < 9) return Core(a, Iota(a), a, depth, in_let_rec, v);
    MfpOp mfp;
    if (w < 16) {  // a projection-only wrapper, stripped by the recognizer
      const int m = a + rng_.Int(0, 2);
      mfp.mfp.project = Projection(m, a);
      if (rng_.Chance(0.2)) mfp.input_key = ColumnKey(Columns(m, 1));
      const std::vector<int> wk = Through(mfp.mfp.project, Iota(a));
      // With input_key the wrapper reads its input's layout row.
      if (mfp.input_key.has_value()) {
        mfp.mfp.project = OverLayout(mfp.mfp.project, *mfp.input_key, m);
      }
      NodePtr core = Core(m, wk, a, depth + 1, in_let_rec, v);
      --budget_;
      return Wrap(std::move(mfp), std::move(core));
    }
    ArmVerdict ignored;
    NodePtr core = Core(a, Iota(a), a, depth + 1, in_let_rec, &ignored);
    *v = Declined(kNonProjectionMfp);
    switch (w) {
      case 16:
        mfp.mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
        break;
      case 17:
        mfp.mfp.map.push_back(ScalarExpr::Lit(Literal::Int(1)));
        mfp.mfp.project = Iota(a);
        break;
      case 18:
        mfp.mfp.temporal = TemporalFilter{{}, {ScalarExpr::Column(0)}};
        break;
      default:
        mfp.input_key = ColumnKey({0});
        mfp.input_val = Row{Literal::Int(5)};
        break;
    }
    --budget_;
    return Wrap(std::move(mfp), std::move(core));
  }

  // A Threshold::Basic candidate of `a` columns, with random shape defects,
  // and its expected outcome.
  NodePtr Candidate(int a, int depth, bool in_let_rec) {
    budget_ -= 4;
    auto defect = [&]() { return rng_.Chance(0.05); };
    const bool direct_union = defect();
    const bool raw = defect();
    const bool no_key = defect();
    const bool input_mfp = defect();
    const int arm_count = defect() ? (rng_.Chance(0.5) ? 1 : 3) : 2;
    const int negated = defect() ? (rng_.Chance(0.5) ? 0 : 2) : 1;
    const bool bucketed_union = defect();
    const bool bucketed_arrange = defect();

    ArmVerdict base_v, subtract_v, extra_v;
    // (Every arm built ends up in the plan: candidates nested in it are
    // recorded by address.)
    NodePtr subtract = Arm(a, depth + 4, in_let_rec, &subtract_v);
    std::vector<NodePtr> arms;
    if (arm_count == 1) {
      arms.push_back(Wrap(NegateOp{}, std::move(subtract)));
    } else {
      NodePtr base = Arm(a, depth + 3, in_let_rec, &base_v);
      arms.push_back(negated == 2 ? Wrap(NegateOp{}, std::move(base))
                                  : std::move(base));
      arms.push_back(negated == 0 ? std::move(subtract)
                                  : Wrap(NegateOp{}, std::move(subtract)));
      if (arm_count == 3) {
        arms.insert(arms.begin() + rng_.Int(0, 2),
                    Arm(a, depth + 3, in_let_rec, &extra_v));
      }
    }
    if (rng_.Chance(0.5)) std::swap(arms.front(), arms.back());
    UnionOp union_op;
    union_op.consolidate_output = rng_.Chance(0.8);
    if (bucketed_union) {
      union_op.strategies.assign(arms.size(), UnionStrategy::kDirect);
      union_op.strategies[rng_.Int(0, arms.size() - 1)] =
          UnionStrategy::kTemporalBucketing;
    }
    NodePtr node = MakeNode(std::move(union_op), std::move(arms));
    if (!direct_union) {
      ArrangeByOp arrange;
      arrange.forms.raw = raw;
      if (!no_key)
        arrange.forms.arranged.push_back(MakeColumnArrangement(Iota(a), a));
      if (no_key && a > 1) {
        arrange.forms.arranged.push_back(MakeColumnArrangement({0}, a));
      }
      if (input_mfp)
        arrange.input_mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
      arrange.temporal_bucketing = bucketed_arrange;
      node = Wrap(std::move(arrange), std::move(node));
    }
    NodePtr threshold =
        Wrap(ThresholdOp{MakeColumnArrangement(Iota(a), a)}, std::move(node));

    Expected e;
    e.in_let_rec = in_let_rec;
    e.key_size = a;
    if (in_let_rec) {
      e.code = Code(kInsideLetRec);
    } else if (direct_union || raw || no_key || input_mfp) {
      e.code = Code(kInputNotArranged);
    } else if (arm_count != 2) {
      e.code = Code(kNotTwoArmUnion);
    } else if (negated != 1) {
      e.code = Code(kNotOneNegatedArm);
    } else if (bucketed_union || bucketed_arrange) {
      e.code = Code(kTemporalBucketing);
    } else if (!base_v.code.empty()) {
      e.code = base_v.code;
      e.arm = "base";
      e.remap_ambiguous = base_v.remap_ambiguous;
    } else if (!subtract_v.code.empty()) {
      e.code = subtract_v.code;
      e.arm = "subtract";
      e.remap_ambiguous = subtract_v.remap_ambiguous;
    } else {
      e.base_key = base_v.key;
      e.subtract_key = subtract_v.key;
    }
    pending_.emplace_back(threshold.get(), e);
    return threshold;
  }

  Rng rng_;
  const Catalog catalog_;
  Parts parts_;
  int budget_ = 0;
  uint64_t next_id_ = 0;
  std::vector<Binding> scopes_;
  std::map<std::string, int> global_arity_;
  std::vector<std::pair<const Node*, Expected>> pending_;
};

}  // namespace

GeneratedCase Generate(uint64_t seed) {
  return CandidatePlanGenerator(seed).Generate();
}

}  // namespace lir::test
