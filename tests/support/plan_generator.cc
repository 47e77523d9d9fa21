// Plan generation. The mixed shape is built top-down from an explicit work
// stack of "holes" (an input slot still to fill, with the arity it must have
// and a node budget), so construction never recurses with plan depth.
#include "tests/support/plan_generator.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "lir/plan_builder.h"
#include "tests/support/plan_generator_parts.h"

namespace lir::test {
namespace {

// The generator's parts (plan_generator_parts.h).
using namespace plan_gen;  // NOLINT

/// A local binding visible to the hole being filled.
struct Binding {
  uint64_t id = 0;
  int arity = 0;
  AvailableCollections forms;
};

/// An item of the work stack: fill an input slot, or leave a Let body.
struct Task {
  bool end_scope = false;
  Node* parent = nullptr;  ///< null: the root
  size_t slot = 0;
  int arity = 1;
  size_t budget = 1;
  int depth = 0;
  /// A Let whose value is complete: its binding becomes visible here.
  Node* opens_binding = nullptr;
  int binding_arity = 0;  ///< with opens_binding: the value's arity
  bool force_except = false;
};

/// A node of `op` with `n` empty input slots, filled later from the work
/// stack. PlanBuilder builds only complete trees, so holes are made here.
NodePtr WithSlots(NodeOp op, size_t n) {
  NodePtr node = MakeNode(std::move(op));
  node->inputs.resize(n);
  return node;
}

/// `op` over the complete (or holed) tree `input`.
NodePtr Wrap(NodeOp op, NodePtr input) {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(PlanBuilder(std::move(input)));
  return PlanBuilder::FromOp(std::move(op), std::move(inputs)).Release();
}

/// The forms in which a generated node's output exists
/// (../shared/reference/SEMANTICS.md 2), as far as the generator needs them for
/// Gets of a binding.
AvailableCollections OutputForms(const Node& start, int arity) {
  const Node* node = &start;
  while (node->Is<LetOp>()) node = node->inputs[1].get();
  switch (node->kind()) {
    case NodeKind::kGet: {
      const GetOp& get = node->As<GetOp>();
      if (get.kind == GetKind::kPassArrangements) return get.keys;
      return RawOnly();
    }
    case NodeKind::kArrangeBy: {
      AvailableCollections forms = node->As<ArrangeByOp>().forms;
      if (forms.arranged.empty()) forms.raw = true;
      return forms;
    }
    case NodeKind::kReduce: {
      // Arranged by the group key, the leading output columns.
      const ReduceOp& reduce = node->As<ReduceOp>();
      size_t aggregates = reduce.simple_aggrs.size() +
                          reduce.distinct_aggrs.size() +
                          reduce.aggr_funcs.size() + reduce.aggrs.size();
      AvailableCollections forms;
      forms.arranged.push_back(MakeColumnArrangement(
          Iota(arity - static_cast<int>(aggregates)), arity));
      return forms;
    }
    case NodeKind::kThreshold: {
      AvailableCollections forms;
      forms.arranged.push_back(node->As<ThresholdOp>().ensure_arrangement);
      return forms;
    }
    case NodeKind::kConstant:
    case NodeKind::kLet:
    case NodeKind::kLetRec:
    case NodeKind::kMfp:
    case NodeKind::kFlatMap:
    case NodeKind::kJoin:
    case NodeKind::kTopK:
    case NodeKind::kNegate:
    case NodeKind::kUnion:
    case NodeKind::kSetDifference:
    case NodeKind::kAntiJoin: break;
  }
  return RawOnly();
}

class Generator {
 public:
  explicit Generator(const PlanGeneratorOptions& options)
      : options_(options),
        rng_(options.seed),
        parts_(rng_, catalog_, options.column_name_probability) {}

  GeneratedPlan Run() {
    GeneratedPlan out;
    size_t n = std::max<size_t>(options_.node_count, 1);
    switch (options_.shape) {
      case PlanShape::kDeepChain: out.plan = DeepChain(n); break;
      case PlanShape::kWideUnion: out.plan = WideUnion(n); break;
      case PlanShape::kLetChain: out.plan = LetChain(n); break;
      case PlanShape::kMixed: out.plan = Mixed(n); break;
    }
    AssignPostOrderIds(*out.plan);
    for (const auto& [node, variant] : except_nodes_) {
      out.except_candidates.push_back({node->id, variant});
    }
    std::sort(out.except_candidates.begin(), out.except_candidates.end(),
              [](const ExceptCandidate& a, const ExceptCandidate& b) {
                return a.threshold_id < b.threshold_id;
              });
    for (const auto* globals : {&catalog_.tables(), &catalog_.indexed()}) {
      for (const Global& g : *globals) {
        out.validate_options.global_arity[g.name] = g.arity;
      }
    }
    return out;
  }

 private:
  // ---- Simple shapes ------------------------------------------------------

  NodePtr DeepChain(size_t n) {
    constexpr int kArity = 3;
    ArrangementForm all = MakeColumnArrangement(Iota(kArity), kArity);
    PlanBuilder plan(
        MakeGet(catalog_.Table(kArity), GetKind::kPassArrangements));
    for (size_t i = 1; i < n; ++i) {
      switch (i % 4) {
        case 1:  // arranged by the full row, as Threshold needs
          plan = std::move(plan).ArrangeBy(PlanBuilder::Arranged({all}));
          break;
        case 2: plan = std::move(plan).Threshold(all); break;
        case 3:
          plan = std::move(plan).Mfp(PlanBuilder::Project({1, 2, 0}));
          break;
        default: plan = std::move(plan).Negate(); break;
      }
    }
    return std::move(plan).Release();
  }

  NodePtr WideUnion(size_t n) {
    if (n == 1) return MakeGet(catalog_.Table(2), GetKind::kPassArrangements);
    std::vector<PlanBuilder> inputs;
    inputs.reserve(n - 1);
    for (size_t i = 0; i + 1 < n; ++i) {
      switch (i % 3) {
        case 0:
          inputs.emplace_back(
              MakeGet(catalog_.Table(2), GetKind::kPassArrangements));
          break;
        case 1: {
          const Global& g = catalog_.Table(3);
          inputs.push_back(PlanBuilder::GetCollection(
              CollectionId::Global(g.name), g.keys, PrefixProjection(3, 2)));
          break;
        }
        default:
          inputs.emplace_back(
              MakeGet(catalog_.Indexed(2), GetKind::kPassArrangements));
          break;
      }
    }
    return PlanBuilder::Union(std::move(inputs)).Release();
  }

  NodePtr LetChain(size_t n) {
    const size_t lets = (n - 1) / 2;
    if (lets == 0)
      return MakeGet(catalog_.Table(2), GetKind::kPassArrangements);
    // Built from the innermost body outwards.
    PlanBuilder plan =
        PlanBuilder::Get(CollectionId::Local(lets - 1), PlanBuilder::Raw());
    for (size_t i = lets; i-- > 0;) {
      PlanBuilder value;
      if (i == 0) {
        value =
            PlanBuilder(MakeGet(catalog_.Table(2), GetKind::kPassArrangements));
      } else if (i % 2 == 1) {
        MapFilterProject not_null;
        not_null.filter.push_back(IsNotNull(ScalarExpr::Column(0, "a")));
        value =
            PlanBuilder::GetCollection(CollectionId::Local(i - 1),
                                       PlanBuilder::Raw(), std::move(not_null));
      } else {
        value =
            PlanBuilder::Get(CollectionId::Local(i - 1), PlanBuilder::Raw());
      }
      plan = PlanBuilder::Let(i, std::move(value), std::move(plan));
    }
    return std::move(plan).Release();
  }

  // ---- The mixed shape: work stack ----------------------------------------

  NodePtr Mixed(size_t n) {
    except_remaining_ = options_.except_candidates.value_or(n / 150);
    // Start the declining variants anywhere, so that small plans do not all
    // favour the first ones.
    declining_cycle_ = rng_.Next() % 6;
    const int root_arity = rng_.Int(1, 4);
    Push({.arity = root_arity, .budget = n, .depth = 0});
    Drain();
    if (except_remaining_ > 0) {
      // The EXCEPT shapes the walk did not place go beside the plan.
      const size_t extra = except_remaining_;
      std::vector<NodePtr> inputs;
      inputs.push_back(std::move(root_));
      inputs.resize(1 + extra);
      root_ = MakeNode(UnionOp{}, std::move(inputs));
      for (size_t i = 0; i < extra; ++i) {
        Push({.parent = root_.get(),
              .slot = 1 + i,
              .arity = root_arity,
              .budget = 8,
              .depth = 1,
              .force_except = true});
      }
      Drain();
    }
    return std::move(root_);
  }

  void Push(Task task) {
    open_budget_ += task.budget;
    tasks_.push_back(task);
  }

  /// A hole below `parent` at `slot` (the slot must exist).
  void PushInput(Node* parent, size_t slot, int arity, size_t budget,
                 int depth) {
    Push({.parent = parent,
          .slot = slot,
          .arity = arity,
          .budget = std::max<size_t>(budget, 1),
          .depth = depth});
  }

  Node* Place(const Task& task, NodePtr node) {
    Node* raw = node.get();
    if (task.parent == nullptr) {
      root_ = std::move(node);
    } else {
      task.parent->inputs[task.slot] = std::move(node);
    }
    return raw;
  }

  /// Splits `total` into `parts` budgets of at least 1, unevenly.
  std::vector<size_t> Split(size_t total, size_t parts) {
    std::vector<size_t> weights(parts);
    size_t sum = 0;
    for (size_t& w : weights) sum += (w = rng_.Int(1, 4));
    std::vector<size_t> shares(parts);
    size_t given = 0;
    for (size_t i = 0; i < parts; ++i) {
      shares[i] = std::max<size_t>(1, total * weights[i] / sum);
      given += shares[i];
    }
    if (given < total) shares[rng_.Next() % parts] += total - given;
    return shares;
  }

  void Drain() {
    while (!tasks_.empty()) {
      Task task = tasks_.back();
      tasks_.pop_back();
      open_budget_ -= task.budget;
      if (task.end_scope) {
        scopes_.pop_back();
        continue;
      }
      if (task.opens_binding != nullptr) {
        // The value is complete (LIFO order): its forms are now known.
        const Node& let = *task.opens_binding;
        scopes_.push_back({let.As<LetOp>().id, task.binding_arity,
                           OutputForms(*let.inputs[0], task.binding_arity)});
      }
      Fill(task);
    }
  }

  NodePtr Leaf(int arity) {
    if (!scopes_.empty() && rng_.Chance(0.5)) {
      // Mostly the innermost binding, as real plans do.
      const Binding& b = rng_.Chance(0.5)
                             ? scopes_.back()
                             : scopes_[rng_.Next() % scopes_.size()];
      return parts_.LocalGet(b.id, b.arity, b.forms, arity);
    }
    if (rng_.Chance(0.08)) return parts_.ConstantLeaf(arity);
    return parts_.GlobalGet(arity);
  }

  void Fill(const Task& t) {
    if (t.force_except || WantsExcept(t)) return Except(t);
    if (t.budget <= 1 || t.depth >= options_.max_depth) {
      Place(t, Leaf(t.arity));
      return;
    }
    // Splitting kinds dominate large holes so that depth stays logarithmic
    // in the budget.
    enum Kind {
      kMfp,
      kNegate,
      kTopK,
      kArrangeBy,
      kReduce,
      kUnion,
      kLet,
      kLinear,
      kDelta,
      kKinds
    };
    const double unary = t.budget > 50 ? 0.5 : 1.0;
    double weights[kKinds] = {
        3 * unary, 0.7 * unary, 1 * unary, 1 * unary, 2.5 * unary, 0, 0, 0, 0};
    if (t.budget >= 3) weights[kUnion] = 3, weights[kLet] = 1.5;
    if (t.budget >= 5) weights[kLinear] = 2, weights[kDelta] = 1.5;
    double total = 0;
    for (double w : weights) total += w;
    double pick = rng_.Unit() * total;
    int kind = 0;
    while (kind < kKinds - 1 && pick >= weights[kind]) pick -= weights[kind++];
    switch (kind) {
      case kMfp: {
        int in = rng_.Int(1, kMaxArity);
        MfpOp op;
        op.mfp = parts_.RandomMfp(in, t.arity, 0.5, true);
        if (op.mfp.IsIdentity()) op.mfp.filter.push_back(parts_.Predicate(in));
        return Unary(t, std::move(op), in);
      }
      case kNegate: return Unary(t, NegateOp{}, t.arity);
      case kTopK: return Unary(t, parts_.RandomTopK(t.arity), t.arity);
      case kArrangeBy: return ArrangeByNode(t);
      case kReduce: return ReduceNode(t);
      case kUnion: return UnionNode(t);
      case kLet: return LetNode(t);
      case kLinear:
        return JoinNode(t, parts_.RandomLinearJoin(t.arity, JoinWidth(t)));
      default:
        return JoinNode(t, parts_.RandomDeltaJoin(t.arity, JoinWidth(t)));
    }
  }

  void Unary(const Task& t, NodeOp op, int input_arity) {
    Node* node = Place(t, WithSlots(std::move(op), 1));
    PushInput(node, 0, input_arity, t.budget - 1, t.depth + 1);
  }

  void ArrangeByNode(const Task& t) {
    ArrangeByOp op;
    int in = t.arity;
    if (t.arity < kMaxArity && rng_.Chance(0.15)) {
      in = rng_.Int(t.arity + 1, kMaxArity);
      op.input_mfp = PrefixProjection(in, t.arity);
    }
    op.forms.arranged = parts_.RandomArrangements(t.arity);
    op.forms.raw = rng_.Chance(0.5);
    op.temporal_bucketing = rng_.Chance(0.02);
    Unary(t, std::move(op), in);
  }

  void ReduceNode(const Task& t) {
    int in = 0;
    ReduceOp op = parts_.RandomReduce(t.arity, &in);
    if (t.budget == 2 && rng_.Chance(0.5)) {
      // Read an index directly, as a GROUP BY over an indexed collection does.
      const Global& g = catalog_.Indexed(in);
      op.input_key = g.keys.arranged[0].key;
      Place(t, Wrap(std::move(op), MakeGet(g, GetKind::kPassArrangements)));
      return;
    }
    Unary(t, std::move(op), in);
  }

  void UnionNode(const Task& t) {
    const size_t k =
        rng_.Int(2, static_cast<int>(std::min<size_t>(4, t.budget - 1)));
    UnionOp op;
    op.consolidate_output = rng_.Chance(0.1);
    if (rng_.Chance(0.03)) {
      op.strategies.assign(k, UnionStrategy::kDirect);
      op.strategies[rng_.Next() % k] = UnionStrategy::kTemporalBucketing;
    }
    Node* node = Place(t, WithSlots(std::move(op), k));
    std::vector<size_t> budgets = Split(t.budget - 1, k);
    for (size_t i = k; i-- > 0;) {
      PushInput(node, i, t.arity, budgets[i], t.depth + 1);
    }
  }

  void LetNode(const Task& t) {
    const uint64_t id = next_let_id_++;
    Node* node = Place(t, WithSlots(LetOp{id}, 2));
    const int value_arity = rng_.Int(1, 4);
    const size_t value_budget =
        std::max<size_t>(1, (t.budget - 1) * rng_.Int(15, 45) / 100);
    const size_t body_budget = std::max<size_t>(1, t.budget - 1 - value_budget);
    // LIFO: the value is filled completely before the body starts, and the
    // binding is visible exactly while the body is being filled.
    Push({.end_scope = true});
    Push({.parent = node,
          .slot = 1,
          .arity = t.arity,
          .budget = body_budget,
          .depth = t.depth + 1,
          .opens_binding = node,
          .binding_arity = value_arity});
    PushInput(node, 0, value_arity, value_budget, t.depth + 1);
  }

  int JoinWidth(const Task& t) { return t.budget >= 7 ? rng_.Int(2, 3) : 2; }

  void JoinNode(const Task& t, JoinDraft draft) {
    const size_t k = draft.inputs.size();
    Node* node = Place(t, WithSlots(std::move(draft.op), k));
    std::vector<size_t> budgets = Split(t.budget - 1, k);
    for (size_t i = k; i-- > 0;) {
      const JoinInput& input = draft.inputs[i];
      if (!input.key.has_value() && !input.raw_arrange_by) {
        PushInput(node, i, input.arity, budgets[i], t.depth + 1);
        continue;
      }
      if (input.key == std::vector<int>{0} && budgets[i] <= 2 &&
          rng_.Chance(0.5)) {
        // An index of a collection serves the lookup directly.
        node->inputs[i] =
            MakeGet(catalog_.Indexed(input.arity), GetKind::kPassArrangements);
        continue;
      }
      ArrangeByOp arrange;
      if (input.key.has_value()) {
        arrange.forms.raw = rng_.Chance(0.5);
        arrange.forms.arranged.push_back(
            MakeColumnArrangement(*input.key, input.arity));
      } else {
        arrange.forms.raw = true;
      }
      node->inputs[i] = WithSlots(std::move(arrange), 1);
      PushInput(node->inputs[i].get(), 0, input.arity, budgets[i] - 1,
                t.depth + 2);
    }
  }

  // ---- EXCEPT shapes ------------------------------------------------------

  bool WantsExcept(const Task& t) {
    if (except_remaining_ == 0 || t.arity > 4 || t.budget < 6 ||
        t.budget > 40 || t.depth + 6 >= options_.max_depth) {
      return false;
    }
    double p = static_cast<double>(except_remaining_) * 12.0 /
               static_cast<double>(open_budget_ + t.budget);
    return rng_.Chance(p);
  }

  ExceptVariant NextVariant() {
    if (rng_.Chance(options_.except_fire_fraction))
      return ExceptVariant::kFires;
    static constexpr ExceptVariant kDeclining[] = {
        ExceptVariant::kNotCoArranged,
        ExceptVariant::kNonProjectionMfp,
        ExceptVariant::kKeyRemappedByProjection,
        ExceptVariant::kArmNotGetOrArrangeBy,
        ExceptVariant::kNotTwoArmUnion,
        ExceptVariant::kNotOneNegatedArm};
    return kDeclining[declining_cycle_++ % std::size(kDeclining)];
  }

  /// An arm co-arranged on its first `a` columns
  /// (../shared/reference/SEMANTICS.md 4.3). May leave a hole of `budget` units
  /// under a Reduce.
  NodePtr FiringArm(int a, size_t budget, int depth) {
    // Large budgets go to the Reduce form, whose hole absorbs them.
    int form = budget >= 6 ? 4 : rng_.Int(0, budget >= 3 ? 4 : 3);
    switch (form) {
      case 0:  // the indexed collection itself
        return MakeGet(catalog_.Indexed(a), GetKind::kPassArrangements);
      case 1: {  // an index on a prefix of a wider collection, projected
        NodePtr get = MakeGet(catalog_.Indexed(a + 1), GetKind::kArrangement);
        GetOp& op = get->As<GetOp>();
        op.key = op.keys.arranged[a == 1 ? 0 : 1].key;
        op.mfp = PrefixProjection(a + 1, a);
        return get;
      }
      case 2: {  // a projecting Mfp over the same
        MfpOp mfp;
        mfp.mfp = PrefixProjection(a + 1, a);
        return Wrap(std::move(mfp), MakeGet(catalog_.Indexed(a + 1),
                                            GetKind::kPassArrangements));
      }
      case 3: {  // an ArrangeBy reading the collection's index
        ArrangeByOp arrange;
        arrange.input_key = ColumnKey(Iota(a));
        arrange.forms.raw = true;
        return Wrap(std::move(arrange),
                    MakeGet(catalog_.Indexed(a), GetKind::kPassArrangements));
      }
      default: {  // ArrangeBy over a SELECT DISTINCT (examples/except.plan)
        int in = rng_.Int(a, std::min(kMaxArity, a + 2));
        NodePtr reduce = WithSlots(DistinctOp(in, Iota(a)), 1);
        PushInput(reduce.get(), 0, in, budget - 2, depth + 2);
        ArrangeByOp arrange;
        arrange.input_key = ColumnKey(Iota(a));
        arrange.forms.raw = true;
        return Wrap(std::move(arrange), std::move(reduce));
      }
    }
  }

  /// An arm that fails the per-arm check of `variant`.
  NodePtr DecliningArm(ExceptVariant variant, int a, size_t budget, int depth) {
    switch (variant) {
      case ExceptVariant::kNotCoArranged: {
        int m = rng_.Int(a, a + 1);
        NodePtr get = MakeGet(catalog_.Table(m), GetKind::kCollection);
        get->As<GetOp>().mfp = PrefixProjection(m, a);
        return get;
      }
      case ExceptVariant::kNonProjectionMfp: {
        MfpOp mfp;
        mfp.mfp.filter.push_back(IsNotNull(ScalarExpr::Column(0)));
        return Wrap(std::move(mfp),
                    MakeGet(catalog_.Indexed(a), GetKind::kPassArrangements));
      }
      case ExceptVariant::kKeyRemappedByProjection: {
        MfpOp mfp;
        mfp.mfp.project = Iota(a, 1);
        return Wrap(std::move(mfp), MakeGet(catalog_.Indexed(a + 1),
                                            GetKind::kPassArrangements));
      }
      default: {  // kArmNotGetOrArrangeBy
        int in = rng_.Int(a, std::min(kMaxArity, a + 2));
        NodePtr reduce = WithSlots(DistinctOp(in, Iota(a)), 1);
        PushInput(reduce.get(), 0, in, budget - 1, depth + 1);
        return reduce;
      }
    }
  }

  static NodePtr Negated(NodePtr arm) {
    return Wrap(NegateOp{}, std::move(arm));
  }

  void Except(const Task& t) {
    if (except_remaining_ > 0) --except_remaining_;
    const int a = t.arity;
    ExceptVariant variant = NextVariant();
    ArrangementForm all = MakeColumnArrangement(Iota(a), a);
    NodePtr threshold = WithSlots(ThresholdOp{all}, 1);
    except_nodes_.emplace_back(threshold.get(), variant);
    ArrangeByOp arrange;
    arrange.forms.arranged.push_back(all);
    NodePtr arrange_node = WithSlots(std::move(arrange), 1);
    UnionOp union_op;
    union_op.consolidate_output = true;

    int depth = t.depth + 3;  // arms sit below Threshold, ArrangeBy, Union
    // Threshold, ArrangeBy, Union and Negate take four units; the arms share
    // the rest, and arms over a Reduce pass theirs on to a hole.
    size_t avail = t.budget > 6 ? t.budget - 4 : 2;
    std::vector<NodePtr> arms;  // base first, subtract second
    switch (variant) {
      case ExceptVariant::kFires:
        arms.push_back(FiringArm(a, avail / 2, depth));
        arms.push_back(Negated(FiringArm(a, avail - avail / 2, depth + 1)));
        break;
      case ExceptVariant::kNotTwoArmUnion:
        arms.push_back(FiringArm(a, avail / 3, depth));
        arms.push_back(FiringArm(a, avail / 3, depth));
        arms.push_back(
            Negated(FiringArm(a, avail - 2 * (avail / 3), depth + 1)));
        break;
      case ExceptVariant::kNotOneNegatedArm:
        arms.push_back(FiringArm(a, avail / 2, depth));
        arms.push_back(FiringArm(a, avail + 1 - avail / 2, depth));
        break;
      default: {
        bool base_declines = rng_.Chance(0.5);
        size_t bad_budget =
            variant == ExceptVariant::kArmNotGetOrArrangeBy ? avail / 2 : 2;
        NodePtr bad =
            DecliningArm(variant, a, bad_budget, depth + !base_declines);
        NodePtr good = FiringArm(a, avail > bad_budget ? avail - bad_budget : 1,
                                 depth + base_declines);
        if (base_declines) {
          arms.push_back(std::move(bad));
          arms.push_back(Negated(std::move(good)));
        } else {
          arms.push_back(std::move(good));
          arms.push_back(Negated(std::move(bad)));
        }
        break;
      }
    }
    rng_.Shuffle(arms);
    std::vector<PlanBuilder> union_inputs;
    for (NodePtr& arm : arms) union_inputs.emplace_back(std::move(arm));
    arrange_node->inputs[0] =
        PlanBuilder::Union(std::move(union_inputs), std::move(union_op))
            .Release();
    threshold->inputs[0] = std::move(arrange_node);
    Place(t, std::move(threshold));
  }

  const PlanGeneratorOptions options_;
  Rng rng_;
  const Catalog catalog_;
  Parts parts_;

  NodePtr root_;
  std::vector<Task> tasks_;
  size_t open_budget_ = 0;  ///< sum of the budgets on the stack
  std::vector<Binding> scopes_;
  uint64_t next_let_id_ = 0;
  size_t except_remaining_ = 0;
  size_t declining_cycle_ = 0;
  std::vector<std::pair<const Node*, ExceptVariant>> except_nodes_;
};

}  // namespace

GeneratedPlan GeneratePlan(const PlanGeneratorOptions& options) {
  return Generator(options).Run();
}

Document WrapInDocument(NodePtr plan, std::string target_cluster) {
  Document doc;
  Object& object = doc.objects.emplace_back();
  object.name = "Explained Query";
  object.plan = std::move(plan);
  doc.target_cluster = std::move(target_cluster);
  return doc;
}

}  // namespace lir::test
