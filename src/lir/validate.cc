// Validate / InferArities: one scoped walk (include/lir/walk.h) that checks
// each node against its inputs' arities and gives it the arity the rules of
// include/lir/arity.h derive (the rules the arity analysis runs too).
#include "lir/validate.h"

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/arity.h"
#include "lir/arm_key.h"
#include "lir/node_error.h"
#include "lir/status_macros.h"
#include "lir/walk.h"
#include "src/lir/validate_internal.h"

namespace lir {

namespace {

using validate_internal::CheckArrangementForm;
using validate_internal::CheckColumnList;
using validate_internal::CheckColumns;
using validate_internal::CheckJoin;
using validate_internal::CheckMfp;
using validate_internal::CheckPositions;
using validate_internal::CheckReduce;
using validate_internal::Invalid;
using validate_internal::MaybeArity;
using validate_internal::ReadLabel;
using validate_internal::ReadMaybeArity;

/// Checks an `ensure_arrangement` on the full row: key `#0..#n-1`, identity
/// permutation, empty thinning. Returns n.
absl::StatusOr<int> CheckFullRowArrangement(const ArrangementForm& form,
                                            MaybeArity input) {
  for (size_t i = 0; i < form.key.size(); ++i) {
    if (!form.key[i].IsColumn() || form.key[i].column != static_cast<int>(i)) {
      return Invalid(absl::StrCat("ensure_arrangement key entry ", i,
                                  " must be #", i,
                                  " (the key is the full row)"));
    }
  }
  LIR_ASSIGN_OR_RETURN(int arity,
                       CheckArrangementForm(form, input, "ensure_arrangement"));
  if (!form.thinning.empty()) {
    return Invalid(
        absl::StrCat("ensure_arrangement key must name every column, "
                     "but the thinning is ",
                     validate_internal::PositionsText(form.thinning)));
  }
  return arity;
}

/// Calls `fn(node)` for every node reachable from `root`, parents first and
/// inputs in order (the order the plan prints in), skipping null inputs (which
/// the main walk reports). Iterative.
template <typename Fn>
void ForEachPresentNode(const Node& root, Fn&& fn) {
  std::vector<const Node*> pending = {&root};
  while (!pending.empty()) {
    const Node* node = pending.back();
    pending.pop_back();
    fn(*node);
    // Reversed, so that inputs are visited in order.
    for (size_t i = node->inputs.size(); i-- > 0;) {
      if (node->inputs[i] != nullptr) pending.push_back(node->inputs[i].get());
    }
  }
}

/// One local binding in scope: its arity, once known. A binding whose value
/// has unknown arity (or a LetRec binding read before its value is checked)
/// learns it from the first read that advertises an arrangement.
struct Binding {
  MaybeArity arity;
};

/// Validate's walk: a visitor of the scoped walker (include/lir/walk.h), which
/// checks input counts and the scoping rules; each node's checks run in
/// Leave against its inputs' arities.
class PlanValidator : public ScopedVisitorBase<Arity> {
 public:
  PlanValidator(const ValidateOptions& options,
                std::map<LirId, std::optional<int>>* arities)
      : options_(options), arities_(arities) {}

  absl::StatusOr<Arity> Run(const Node& root) {
    LearnGlobalArities(root);
    return WalkScoped(root, *this);
  }

  /// A LetRec gives one recursion limit (or none) per binding.
  absl::Status Enter(const Node& node, const WalkContext&) {
    if (!node.Is<LetRecOp>()) return absl::OkStatus();
    const LetRecOp& op = node.As<LetRecOp>();
    if (op.limits.size() != op.ids.size()) {
      return Named(
          node, Invalid(absl::StrCat(op.ids.size(), " bindings but ",
                                     op.limits.size(), " recursion limits")));
    }
    return absl::OkStatus();
  }

  /// A Let's id gets its value's arity; a LetRec's starts unknown.
  absl::Status Bind(const Node&, uint64_t id, Arity* value) {
    scope_.insert_or_assign(
        id, Binding{value == nullptr ? MaybeArity() : value->ToOptional()});
    return absl::OkStatus();
  }

  void Unbind(const Node&, uint64_t id) { scope_.erase(id); }

  /// A LetRec value's arity becomes its binding's arity (and must agree with
  /// what reads before it revealed).
  absl::StatusOr<bool> UpdateLetRec(const Node& node, size_t index,
                                    Arity& value_arity, NoLetRecState&) {
    const uint64_t id = node.As<LetRecOp>().ids[index];
    const MaybeArity value = value_arity.ToOptional();
    Binding& binding = scope_[id];
    if (value.has_value() && binding.arity.has_value() &&
        *value != *binding.arity) {
      return Named(node, Invalid(absl::StrCat("l", id, " has arity ", *value,
                                              ", but is read with arity ",
                                              *binding.arity)));
    }
    if (value.has_value()) binding.arity = value;
    return false;
  }

  /// Checks `node` against its inputs' arities; returns its own, as the
  /// rules of include/lir/arity.h give it (a Get's from the collection's arity
  /// its scope or the options know).
  absl::StatusOr<Arity> Leave(const Node& node, const WalkContext& ctx,
                              std::span<Arity> inputs) {
    MaybeArity collection;
    if (node.Is<AntiJoinOp>() && ctx.recursive()) {
      // Its arms are read as settled arrangements (SEMANTICS 7.1).
      return Named(node, Invalid("an AntiJoin cannot be inside the values of "
                                 "a With Mutually Recursive block"));
    }
    absl::Status checked = node.unknown.empty()
                               ? Check(node, inputs, &collection)
                               : CheckPartial(node, inputs, &collection);
    if (!checked.ok()) return Named(node, checked);
    const Arity arity =
        node.Is<GetOp>() ? GetOutputArity(node, Arity::FromOptional(collection))
                         : NodeOutputArity(node, inputs);
    if (arities_ != nullptr) (*arities_)[node.id] = arity.ToOptional();
    return arity;
  }

 private:
  /// Global arities from the options, completed by the first arrangement
  /// any Get of the plan advertises for the collection (so a raw read before
  /// an arranged one is checked too). Disagreements are reported by the main
  /// walk.
  void LearnGlobalArities(const Node& root) {
    global_arity_ = options_.global_arity;
    ForEachPresentNode(root, [&](const Node& node) {
      if (!node.Is<GetOp>()) return;
      const GetOp& get = node.As<GetOp>();
      if (get.id.is_local || get.keys.arranged.empty() ||
          global_arity_.count(get.id.global) > 0) {
        return;
      }
      absl::StatusOr<int> described =
          CheckArrangementForm(get.keys.arranged[0], std::nullopt, "");
      if (described.ok()) global_arity_[get.id.global] = *described;
    });
  }

  /// Prefixes an error with the node it concerns.
  static absl::Status Named(const Node& node, const absl::Status& status) {
    return AttachNode(node, status);
  }

  /// The checks of `node`; `collection` receives a Get's collection arity.
  absl::Status Check(const Node& node, std::span<const Arity> inputs,
                     MaybeArity* collection) {
    switch (node.kind()) {
      case NodeKind::kConstant: return CheckConstant(node.As<ConstantOp>());
      case NodeKind::kGet: return CheckGet(node.As<GetOp>(), collection);
      case NodeKind::kLet:
      case NodeKind::kLetRec: return absl::OkStatus();
      case NodeKind::kMfp:
        return CheckMfpNode(node.As<MfpOp>(), inputs[0].ToOptional());
      case NodeKind::kFlatMap:
        return CheckFlatMap(node.As<FlatMapOp>(), inputs[0]);
      case NodeKind::kJoin: return CheckJoin(node.As<JoinOp>(), inputs);
      case NodeKind::kReduce:
        return CheckReduce(node.As<ReduceOp>(), inputs[0]);
      case NodeKind::kTopK:
        return CheckTopK(node.As<TopKOp>(), inputs[0].ToOptional());
      case NodeKind::kNegate: return absl::OkStatus();
      case NodeKind::kThreshold:
        return CheckFullRowArrangement(
                   node.As<ThresholdOp>().ensure_arrangement,
                   inputs[0].ToOptional())
            .status();
      case NodeKind::kUnion: return CheckUnion(node.As<UnionOp>(), inputs);
      case NodeKind::kArrangeBy:
        return CheckArrangeBy(node.As<ArrangeByOp>(), inputs[0]);
      case NodeKind::kSetDifference:
        return CheckSetDifference(node.As<SetDifferenceOp>(),
                                  inputs[0].ToOptional(),
                                  inputs[1].ToOptional());
      case NodeKind::kAntiJoin:
        return CheckAntiJoin(node, inputs[0].ToOptional(),
                             inputs[1].ToOptional());
    }
    return Invalid("unknown node kind");
  }

  /// The checks of a node that lacks facts (a partial plan): only what the
  /// shown facts can contradict. A check that would read a placeholder
  /// (include/lir/unknown_facts.def) is skipped, not run on a default.
  absl::Status CheckPartial(const Node& node, std::span<const Arity> inputs,
                            MaybeArity* collection) {
    const UnknownFacts unknown = node.unknown;
    const bool input_key_unknown = unknown.Has(UnknownFact::kInputKey);
    switch (node.kind()) {
      case NodeKind::kConstant: {
        const ConstantOp& op = node.As<ConstantOp>();
        if (unknown.Has(UnknownFact::kConstantRows) && !op.rows.empty()) {
          return Invalid("a Constant with unknown rows lists rows");
        }
        return CheckConstant(op);
      }
      case NodeKind::kGet: {
        if (!unknown.Has(UnknownFact::kAvailableForms)) break;
        const GetOp& op = node.As<GetOp>();
        // The read arrangement stands for the unknown forms: its layout is
        // what Materialize derives from the key.
        LIR_RETURN_IF_ERROR(CheckGetScope(op, collection));
        if (op.kind == GetKind::kArrangement) {
          LIR_RETURN_IF_ERROR(CheckColumnList(op.key, *collection, "key"));
          if (op.seek.has_value() && op.seek->size() != op.key.size()) {
            return Invalid(absl::StrCat("seek value has ", op.seek->size(),
                                        " datums for a key of ",
                                        op.key.size()));
          }
          return CheckMfp(op.mfp, ReadMaybeArity(op.key, *collection),
                          ReadLabel(op.key));
        }
        if (op.kind == GetKind::kCollection) {
          return CheckMfp(op.mfp, *collection, "");
        }
        return absl::OkStatus();
      }
      case NodeKind::kMfp:
        if (!input_key_unknown) break;
        return CheckMfp(node.As<MfpOp>().mfp, std::nullopt, "");
      case NodeKind::kFlatMap:
        if (!input_key_unknown) break;
        return CheckMfp(node.As<FlatMapOp>().mfp_after, std::nullopt, "");
      case NodeKind::kJoin:
        return CheckJoinRelations(node.As<JoinOp>(), inputs);
      case NodeKind::kReduce: {
        const ReduceOp& op = node.As<ReduceOp>();
        if (!input_key_unknown) {
          LIR_RETURN_IF_ERROR(
              CheckMfp(op.key_plan, inputs[0].ToOptional(), "key_plan: "));
        }
        return absl::OkStatus();
      }
      case NodeKind::kThreshold:
        if (!unknown.Has(UnknownFact::kArrangementLayouts)) break;
        return CheckColumnList(node.As<ThresholdOp>().ensure_arrangement.key,
                               inputs[0].ToOptional(), "key");
      case NodeKind::kUnion: return CheckUnion(node.As<UnionOp>(), inputs);
      case NodeKind::kArrangeBy: {
        const ArrangeByOp& op = node.As<ArrangeByOp>();
        const Arity read = input_key_unknown ? Arity::Unknown() : inputs[0];
        LIR_RETURN_IF_ERROR(CheckMfp(op.input_mfp, read.ToOptional(), ""));
        if (unknown.Has(UnknownFact::kArrangementLayouts)) {
          const MaybeArity out =
              MfpOutputArity(op.input_mfp, read).ToOptional();
          for (size_t i = 0; i < op.forms.arranged.size(); ++i) {
            LIR_RETURN_IF_ERROR(
                CheckColumnList(op.forms.arranged[i].key, out,
                                absl::StrCat("arrangements[", i, "] key")));
          }
          return absl::OkStatus();
        }
        break;
      }
      case NodeKind::kSetDifference: {
        const SetDifferenceOp& op = node.As<SetDifferenceOp>();
        const MaybeArity base = inputs[0].ToOptional();
        const MaybeArity subtract = inputs[1].ToOptional();
        if (base.has_value() && subtract.has_value() && *base != *subtract) {
          return Invalid(absl::StrCat("base has arity ", *base,
                                      ", but subtract has arity ", *subtract));
        }
        return CheckColumnList(op.ensure_arrangement.key,
                               base.has_value() ? base : subtract, "key");
      }
      case NodeKind::kAntiJoin:
        return CheckPositions(node.As<AntiJoinOp>().key, inputs[0].ToOptional(),
                              "key");
      case NodeKind::kLet:
      case NodeKind::kLetRec:
      case NodeKind::kTopK:
      case NodeKind::kNegate: break;
    }
    return Check(node, inputs, collection);
  }

  /// A partial join's relations: in range and each joined once per path.
  static absl::Status CheckJoinRelations(const JoinOp& join,
                                         std::span<const Arity> inputs) {
    const int n = static_cast<int>(inputs.size());
    for (size_t p = 0; p < join.paths.size(); ++p) {
      const JoinPath& path = join.paths[p];
      std::vector<bool> used(inputs.size(), false);
      auto use = [&](int relation) -> absl::Status {
        if (relation < 0 || relation >= n) {
          return Invalid(absl::StrCat("path ", p, ": relation ", relation,
                                      " out of range for ", n, " inputs"));
        }
        if (used[relation]) {
          return Invalid(absl::StrCat("path ", p, ": relation ", relation,
                                      " is joined twice"));
        }
        used[relation] = true;
        return absl::OkStatus();
      };
      LIR_RETURN_IF_ERROR(use(path.source_relation));
      for (const JoinStage& stage : path.stages) {
        LIR_RETURN_IF_ERROR(use(stage.lookup_relation));
      }
    }
    if (join.paths.empty()) return Invalid("a join has at least one path");
    return absl::OkStatus();
  }

  absl::Status CheckConstant(const ConstantOp& op) {
    if (op.error.has_value() && !op.rows.empty()) {
      return Invalid("an error constant has no rows");
    }
    if (op.elided_total_rows.has_value() && *op.elided_total_rows < 0) {
      return Invalid("total_rows is negative");
    }
    if (op.rows.empty()) return absl::OkStatus();
    const size_t width = op.rows[0].row.size();
    for (size_t i = 1; i < op.rows.size(); ++i) {
      if (op.rows[i].row.size() != width) {
        return Invalid(absl::StrCat("row ", i, " has ", op.rows[i].row.size(),
                                    " columns, but row 0 has ", width));
      }
    }
    return absl::OkStatus();
  }

  /// The arity of the collection `op` reads, as its scope or the options
  /// know it; fails when a local id is not bound.
  absl::Status CheckGetScope(const GetOp& op, MaybeArity* collection) {
    *collection = std::nullopt;
    if (op.id.is_local) {
      auto it = scope_.find(op.id.local);
      if (it == scope_.end()) {
        return Invalid(absl::StrCat("l", op.id.local, " is not bound here"));
      }
      *collection = it->second.arity;
    } else {
      auto it = global_arity_.find(op.id.global);
      if (it != global_arity_.end()) *collection = it->second;
    }
    return absl::OkStatus();
  }

  absl::Status CheckGet(const GetOp& op, MaybeArity* collection) {
    LIR_RETURN_IF_ERROR(CheckGetScope(op, collection));
    MaybeArity arity = *collection;
    Binding* binding =
        op.id.is_local ? &scope_.find(op.id.local)->second : nullptr;
    // Every advertised arrangement spells out the collection's arity.
    for (size_t i = 0; i < op.keys.arranged.size(); ++i) {
      LIR_ASSIGN_OR_RETURN(
          int described,
          CheckArrangementForm(op.keys.arranged[i], arity,
                               absl::StrCat("arrangements[", i, "]")));
      arity = described;
    }
    // A binding of unknown arity learns it here; a LetRec value checked
    // later must then agree.
    if (binding != nullptr && !binding->arity.has_value()) {
      binding->arity = arity;
    }
    if (op.kind != GetKind::kArrangement) {
      if (!op.key.empty()) return Invalid("only Get::Arrangement has a key");
      if (op.seek.has_value())
        return Invalid("only Get::Arrangement seeks a value");
    }
    switch (op.kind) {
      case GetKind::kPassArrangements:
        if (!op.mfp.IsIdentity()) {
          return Invalid("Get::PassArrangements cannot apply an MFP");
        }
        return absl::OkStatus();
      case GetKind::kArrangement: {
        LIR_RETURN_IF_ERROR(CheckColumnList(op.key, arity, "key"));
        const ArrangementForm* form = op.keys.FindByKey(op.key);
        if (form == nullptr) {
          return Invalid(
              "reads an arrangement that is not among the "
              "collection's arrangements");
        }
        if (op.seek.has_value() && op.seek->size() != op.key.size()) {
          return Invalid(absl::StrCat("seek value has ", op.seek->size(),
                                      " datums for a key of ", op.key.size()));
        }
        // The MFP is written over the form's layout row
        // (../shared/reference/SEMANTICS.md 8.3).
        const int layout =
            static_cast<int>(form->key.size() + form->thinning.size());
        return CheckMfp(op.mfp, layout, ReadLabel(op.key));
      }
      case GetKind::kCollection: return CheckMfp(op.mfp, arity, "");
    }
    return absl::OkStatus();
  }

  absl::Status CheckMfpNode(const MfpOp& op, MaybeArity input) {
    if (op.input_key.has_value()) {
      LIR_RETURN_IF_ERROR(CheckColumnList(*op.input_key, input, "input key"));
    }
    if (op.input_val.has_value()) {
      if (!op.input_key.has_value()) {
        return Invalid("input_val needs an input_key");
      }
      if (op.input_val->size() != op.input_key->size()) {
        return Invalid(absl::StrCat("input_val has ", op.input_val->size(),
                                    " datums for a key of ",
                                    op.input_key->size()));
      }
    }
    return CheckMfp(op.mfp, ReadMaybeArity(op.input_key, input),
                    ReadLabel(op.input_key));
  }

  absl::Status CheckFlatMap(const FlatMapOp& op, Arity row_arity) {
    const MaybeArity row = row_arity.ToOptional();
    if (op.input_key.has_value()) {
      LIR_RETURN_IF_ERROR(CheckColumnList(*op.input_key, row, "input key"));
    }
    // With an input key the arguments and mfp_after read the layout row.
    const MaybeArity input = ReadMaybeArity(op.input_key, row);
    const std::string over = ReadLabel(op.input_key);
    LIR_RETURN_IF_ERROR(
        CheckColumnList(op.exprs, input, over + "table function argument"));
    return CheckMfp(op.mfp_after, FlatMapRowArity(op, row_arity).ToOptional(),
                    over + "mfp_after: ");
  }

  absl::Status CheckTopK(const TopKOp& op, MaybeArity input) {
    LIR_RETURN_IF_ERROR(CheckPositions(op.group_by, input, "group_by"));
    for (const OrderKey& key : op.order_by) {
      LIR_RETURN_IF_ERROR(CheckPositions({key.column}, input, "order_by"));
    }
    if (op.limit.has_value()) {
      if (op.kind == TopKKind::kMonotonicTop1) {
        return Invalid("TopK::MonotonicTop1 has no limit");
      }
      LIR_RETURN_IF_ERROR(CheckColumns(*op.limit, input, "limit"));
    }
    if (op.offset < 0) return Invalid("offset is negative");
    if (op.offset != 0 && op.kind != TopKKind::kBasic) {
      return Invalid("only TopK::Basic has an offset");
    }
    return absl::OkStatus();
  }

  absl::Status CheckUnion(const UnionOp& op, std::span<const Arity> inputs) {
    if (!op.strategies.empty() && op.strategies.size() != inputs.size()) {
      return Invalid(absl::StrCat(op.strategies.size(),
                                  " temporal bucketing strategies for ",
                                  inputs.size(), " inputs"));
    }
    MaybeArity arity;
    size_t first_known = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const MaybeArity input = inputs[i].ToOptional();
      if (!input.has_value()) continue;
      if (!arity.has_value()) {
        arity = input;
        first_known = i;
      } else if (*input != *arity) {
        return Invalid(absl::StrCat("input ", i, " has arity ", *input,
                                    ", but input ", first_known, " has arity ",
                                    *arity));
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckArrangeBy(const ArrangeByOp& op, Arity input_arity) {
    const MaybeArity input = input_arity.ToOptional();
    if (op.input_key.has_value()) {
      LIR_RETURN_IF_ERROR(CheckColumnList(*op.input_key, input, "input key"));
    }
    // With an input key the MFP reads the layout row
    // (../shared/reference/SEMANTICS.md 8.3).
    LIR_RETURN_IF_ERROR(CheckMfp(op.input_mfp,
                                 ReadMaybeArity(op.input_key, input),
                                 ReadLabel(op.input_key)));
    MaybeArity arity =
        MfpOutputArity(op.input_mfp, ReadArity(op.input_key, input_arity))
            .ToOptional();
    for (size_t i = 0; i < op.forms.arranged.size(); ++i) {
      LIR_ASSIGN_OR_RETURN(
          int described,
          CheckArrangementForm(op.forms.arranged[i], arity,
                               absl::StrCat("arrangements[", i, "]")));
      arity = described;
    }
    return absl::OkStatus();
  }

  absl::Status CheckSetDifference(const SetDifferenceOp& op, MaybeArity base,
                                  MaybeArity subtract) {
    if (base.has_value() && subtract.has_value() && *base != *subtract) {
      return Invalid(absl::StrCat("base has arity ", *base,
                                  ", but subtract has arity ", *subtract));
    }
    MaybeArity input = base.has_value() ? base : subtract;
    LIR_RETURN_IF_ERROR(
        CheckFullRowArrangement(op.ensure_arrangement, input).status());
    const size_t key_size = op.ensure_arrangement.key.size();
    if (op.base_key.size() != key_size || op.subtract_key.size() != key_size) {
      return Invalid(absl::StrCat("base_key and subtract_key must have ",
                                  key_size, " columns like the arrangement"));
    }
    // The arm keys name columns of the arms' underlying collections, whose
    // arity is not tracked here; only their sign can be checked.
    LIR_RETURN_IF_ERROR(CheckPositions(op.base_key, std::nullopt, "base_key"));
    LIR_RETURN_IF_ERROR(
        CheckPositions(op.subtract_key, std::nullopt, "subtract_key"));
    return absl::OkStatus();
  }

  // SEMANTICS 7.1: the keys arm has one column per key column, and each
  // arm offers the arrangement its recorded key names (4.3).
  absl::Status CheckAntiJoin(const Node& node, MaybeArity base,
                             MaybeArity keys) {
    const AntiJoinOp& op = node.As<AntiJoinOp>();
    LIR_RETURN_IF_ERROR(CheckPositions(op.key, base, "key"));
    const int key_size = static_cast<int>(op.key.size());
    if (keys.has_value() && *keys != key_size) {
      return Invalid(absl::StrCat("keys has arity ", *keys, ", but key has ",
                                  key_size, " columns"));
    }
    if (op.base_key.size() != op.key.size() ||
        op.keys_key.size() != op.key.size()) {
      return Invalid(absl::StrCat("base_key and keys_key must have ", key_size,
                                  " columns like key"));
    }
    std::vector<int> keys_columns(op.key.size());
    for (int c = 0; c < key_size; ++c) keys_columns[c] = c;
    LIR_RETURN_IF_ERROR(
        CheckArmReads(*node.inputs[0], op.key, op.base_key, "base"));
    return CheckArmReads(*node.inputs[1], keys_columns, op.keys_key, "keys");
  }

  static absl::Status CheckArmReads(const Node& arm,
                                    const std::vector<int>& key,
                                    const std::vector<int>& recorded,
                                    absl::string_view which) {
    const ArmRead read = ResolveArmKey(arm, key);
    if (read.problem != ArmProblem::kNone) {
      return Invalid(absl::StrCat("the ", which,
                                  " arm is not co-arranged: ", read.message));
    }
    if (read.key != recorded) {
      return Invalid(absl::StrCat(which, "_key is ", KeyText(recorded),
                                  ", but the ", which, " arm offers ",
                                  KeyText(read.key)));
    }
    return absl::OkStatus();
  }

  const ValidateOptions& options_;
  std::map<LirId, std::optional<int>>* arities_;
  std::map<std::string, int> global_arity_;
  std::map<uint64_t, Binding> scope_;
};

}  // namespace

absl::StatusOr<std::map<LirId, std::optional<int>>> InferArities(
    const Node& plan, const ValidateOptions& options) {
  std::map<LirId, std::optional<int>> arities;
  PlanValidator validator(options, &arities);
  LIR_RETURN_IF_ERROR(validator.Run(plan).status());
  return arities;
}

absl::Status Validate(const Node& plan, const ValidateOptions& options) {
  PlanValidator validator(options, nullptr);
  return validator.Run(plan).status();
}

absl::Status Validate(const Document& doc, const ValidateOptions& options) {
  for (size_t index = 0; index < doc.objects.size(); ++index) {
    const Object& object = doc.objects[index];
    if (object.plan == nullptr) continue;
    std::set<LirId> seen;
    absl::Status status;
    ForEachPresentNode(*object.plan, [&](const Node& node) {
      if (status.ok() && !seen.insert(node.id).second) {
        status = Invalid(
            absl::StrCat("LirId(", node.id, ") is used by more than one node"));
      }
    });
    if (status.ok()) status = Validate(*object.plan, options);
    // The index lets a caller find the failing node's place in the input
    // (explain::NodePositions); the name is for the message.
    if (!status.ok()) return ObjectError(index, object.name, status);
  }
  return absl::OkStatus();
}

}  // namespace lir
