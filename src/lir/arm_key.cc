// The arm resolution of fused two-input operators (arm_key.h), as
// ../shared/reference/SEMANTICS.md 4.2 (checks 6-10) and 4.3 define it.
#include "lir/arm_key.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/layout.h"

namespace lir {
namespace {

ArmRead Problem(ArmProblem problem, std::string message) {
  return {problem, std::move(message), {}};
}

// `key` mapped through a projection-only MFP; nullopt when the projection
// does not reach a key column.
std::optional<std::vector<int>> Through(const MapFilterProject& mfp,
                                        const std::vector<int>& key) {
  std::vector<int> out;
  out.reserve(key.size());
  for (int c : key) {
    int projected = mfp.ProjectedColumn(c);
    if (projected < 0) return std::nullopt;
    out.push_back(projected);
  }
  return out;
}

// `positions` of an arrangement's layout row mapped back to the columns of
// the collection (../shared/reference/SEMANTICS.md 4.3 and 8.2); nullopt when
// one holds only a key expression's value.
std::optional<std::vector<int>> LayoutToColumns(
    const std::vector<ScalarExpr>& arranged_key, const ArrangementForm* form,
    const std::vector<int>& positions) {
  std::vector<int> columns;
  columns.reserve(positions.size());
  for (int p : positions) {
    const int c = ColumnAtLayoutPosition(arranged_key, form, p);
    if (c < 0) return std::nullopt;
    columns.push_back(c);
  }
  return columns;
}

ArmRead CheckGetArm(const GetOp& get, const Node& node,
                    const std::vector<int>& key,
                    const std::vector<int>& wrapper_key) {
  const std::string what = DescribeNode(node);
  std::vector<int> arm_key = wrapper_key;
  if (get.kind != GetKind::kPassArrangements) {
    if (get.seek.has_value()) {
      return Problem(ArmProblem::kNonProjectionMfp,
                     absl::StrCat(what,
                                  " reads a single value (val=) of its "
                                  "arrangement"));
    }
    if (!get.mfp.IsProjectionOnly()) {
      return Problem(ArmProblem::kNonProjectionMfp,
                     absl::StrCat(what,
                                  " applies a map, filter or temporal "
                                  "filter, not only a projection"));
    }
    std::optional<std::vector<int>> through = Through(get.mfp, wrapper_key);
    if (!through.has_value()) {
      return Problem(ArmProblem::kNotCoArranged,
                     absl::StrCat(what, " projects away a key column of ",
                                  KeyText(wrapper_key)));
    }
    // A Get::Arrangement's projection selects positions of the layout row.
    if (get.kind == GetKind::kArrangement) {
      through = LayoutToColumns(get.key, get.keys.FindByKey(get.key), *through);
      if (!through.has_value()) {
        return Problem(
            ArmProblem::kNotCoArranged,
            absl::StrCat(what, " reads a key column of ", KeyText(wrapper_key),
                         " from a key expression of its "
                         "arrangement"));
      }
    }
    arm_key = *through;
  }
  if (node.unknown.Has(UnknownFact::kAvailableForms)) {
    // A partial plan (concise text): a Get::Arrangement shows one of the
    // collection's arrangements, the one it reads; the others are unknown.
    if (get.kind == GetKind::kArrangement &&
        KeyColumns(get.key) == std::optional(arm_key)) {
      return {ArmProblem::kNone, "", arm_key};
    }
    // Check 10 holds only when an arrangement on the arm's key is known to
    // exist; an unknown one is not enough to fire.
    return Problem(
        ArmProblem::kNotCoArranged,
        absl::StrCat(what, " shows no arrangement on ", KeyText(arm_key),
                     ": the concise form does not show its "
                     "arrangements, EXPLAIN ... AS VERBOSE TEXT "
                     "does"));
  }
  if (HasColumnKey(get.keys, arm_key)) return {ArmProblem::kNone, "", arm_key};
  if (arm_key != key && HasColumnKey(get.keys, key)) {
    return Problem(ArmProblem::kKeyRemappedByProjection,
                   absl::StrCat(what, " is arranged on ", KeyText(key),
                                " but the arm's projection reads the key as ",
                                KeyText(arm_key)));
  }
  return Problem(
      ArmProblem::kNotCoArranged,
      absl::StrCat(what, " has no arrangement on ", KeyText(arm_key)));
}

ArmRead CheckArrangeByArm(const Node& node, const ArrangeByOp& arrange,
                          const std::vector<int>& key,
                          const std::vector<int>& wrapper_key) {
  if (!arrange.input_mfp.IsProjectionOnly()) {
    return Problem(ArmProblem::kNonProjectionMfp,
                   "ArrangeBy applies a map, filter or temporal filter before "
                   "arranging, not only a projection");
  }
  // Forms are keyed by the ArrangeBy's output columns, input_key by its
  // input columns (before input_mfp).
  std::optional<std::vector<int>> input_key;
  if (arrange.input_key.has_value()) input_key = KeyColumns(*arrange.input_key);
  // With input_key, input_mfp reads the layout row of the input's form:
  // its projection selects layout positions, mapped back to input columns.
  std::optional<ArrangementForm> input_form;
  if (arrange.input_key.has_value() && !node.inputs.empty() &&
      node.inputs[0] != nullptr) {
    input_form = OfferedForm(*node.inputs[0], *arrange.input_key, std::nullopt);
  }
  auto input_columns = [&](const std::vector<int>& output_key)
      -> std::optional<std::vector<int>> {
    std::optional<std::vector<int>> through =
        Through(arrange.input_mfp, output_key);
    if (!through.has_value() || !arrange.input_key.has_value()) return through;
    return LayoutToColumns(*arrange.input_key,
                           input_form.has_value() ? &*input_form : nullptr,
                           *through);
  };
  auto reads = [&](const std::vector<int>& output_key)
      -> std::optional<std::vector<int>> {
    if (HasColumnKey(arrange.forms, output_key)) return output_key;
    std::optional<std::vector<int>> input_side = input_columns(output_key);
    if (input_key.has_value() && input_side.has_value() &&
        *input_key == *input_side) {
      return input_side;
    }
    return std::nullopt;
  };
  if (std::optional<std::vector<int>> found = reads(wrapper_key)) {
    return {ArmProblem::kNone, "", *found};
  }
  // A projection (the wrapper's for the forms, then input_mfp's for
  // input_key) that moves the key away from an arrangement on the threshold
  // key itself: a textual match would fire, wrongly.
  std::optional<std::vector<int>> input_side = input_columns(wrapper_key);
  const bool forms_remapped =
      wrapper_key != key && HasColumnKey(arrange.forms, key);
  const bool input_remapped = input_key.has_value() && input_side.has_value() &&
                              *input_side != key && *input_key == key;
  if (forms_remapped || input_remapped) {
    return Problem(
        ArmProblem::kKeyRemappedByProjection,
        absl::StrCat("ArrangeBy is arranged on ", KeyText(key),
                     " but the arm's projection reads the key as ",
                     KeyText(forms_remapped ? wrapper_key : *input_side)));
  }
  if (node.unknown.Has(UnknownFact::kInputKey)) {
    // A partial plan: which input arrangement it reads is not shown (and
    // could not be inferred), so check 10 cannot be passed.
    return Problem(
        ArmProblem::kNotCoArranged,
        absl::StrCat("ArrangeBy shows no arrangement on ", KeyText(wrapper_key),
                     ": the concise form does not show its "
                     "input_key, EXPLAIN ... AS VERBOSE TEXT "
                     "does"));
  }
  std::string input_note;
  if (input_key.has_value() && input_side.has_value()) {
    input_note = absl::StrCat(" (its input_key ", KeyText(*input_key),
                              " is not the arm's key ", KeyText(*input_side),
                              " in its input columns)");
  }
  return Problem(ArmProblem::kNotCoArranged,
                 absl::StrCat("ArrangeBy has no arrangement on ",
                              KeyText(wrapper_key), input_note));
}

// Checks 6-10 of ../shared/reference/SEMANTICS.md 4.2 for one arm.
ArmRead CheckArm(const Node& arm_root, const std::vector<int>& key) {
  const Node* node = &arm_root;
  std::vector<int> wrapper_key = key;
  if (node->Is<MfpOp>()) {
    const MfpOp& mfp = node->As<MfpOp>();
    if (!mfp.mfp.IsProjectionOnly()) {
      return Problem(ArmProblem::kNonProjectionMfp,
                     "Mfp applies a map, filter or temporal filter, not only "
                     "a projection");
    }
    if (mfp.input_val.has_value()) {
      return Problem(ArmProblem::kNonProjectionMfp,
                     "Mfp reads a single value (input_val=) of its input "
                     "arrangement");
    }
    std::optional<std::vector<int>> through = Through(mfp.mfp, key);
    if (!through.has_value()) {
      return Problem(
          ArmProblem::kNotCoArranged,
          absl::StrCat("Mfp projects away a key column of ", KeyText(key)));
    }
    // With input_key the wrapper reads its input's layout row.
    if (mfp.input_key.has_value()) {
      std::optional<ArrangementForm> form =
          OfferedForm(*node->inputs[0], *mfp.input_key, std::nullopt);
      through = LayoutToColumns(*mfp.input_key,
                                form.has_value() ? &*form : nullptr, *through);
      if (!through.has_value()) {
        return Problem(ArmProblem::kNotCoArranged,
                       absl::StrCat("Mfp reads a key column of ", KeyText(key),
                                    " from a key expression of its input "
                                    "arrangement"));
      }
    }
    wrapper_key = *through;
    node = node->inputs[0].get();
  }
  if (node->Is<GetOp>()) {
    return CheckGetArm(node->As<GetOp>(), *node, key, wrapper_key);
  }
  if (node->Is<ArrangeByOp>()) {
    return CheckArrangeByArm(*node, node->As<ArrangeByOp>(), key, wrapper_key);
  }
  return Problem(
      ArmProblem::kNotGetOrArrangeBy,
      absl::StrCat(DescribeNode(*node), " is not a Get or an ArrangeBy"));
}

}  // namespace

ArmRead ResolveArmKey(const Node& arm, const std::vector<int>& key) {
  return CheckArm(arm, key);
}

std::string DescribeNode(const Node& node) {
  if (node.Is<GetOp>()) {
    return absl::StrCat(HeaderName(node), " ", node.As<GetOp>().id.ToString());
  }
  return HeaderName(node);
}

bool HasColumnKey(const AvailableCollections& forms,
                  const std::vector<int>& key) {
  for (const ArrangementForm& form : forms.arranged) {
    if (form.key.size() != key.size()) continue;
    bool same = true;
    for (size_t i = 0; same && i < key.size(); ++i) {
      same = form.key[i].IsColumn() && form.key[i].column == key[i];
    }
    if (same) return true;
  }
  return false;
}

std::string KeyText(const std::vector<int>& key) {
  return absl::StrCat("[", FormatColumnList(key), "]");
}

}  // namespace lir
