// Column-range, MFP, arrangement, Join and Reduce checks used by Validate.
// The arities they follow through a node come from include/lir/arity.h.
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/arity.h"
#include "lir/layout.h"
#include "lir/status_macros.h"
#include "src/lir/validate_internal.h"

namespace lir::validate_internal {
namespace {

std::string PermutationText(const std::vector<std::pair<int, int>>& pairs) {
  if (pairs.empty()) return "id";
  return absl::StrCat(
      "{",
      absl::StrJoin(pairs, ", ",
                    [](std::string* out, const std::pair<int, int>& p) {
                      absl::StrAppend(out, "#", p.first, ": #", p.second);
                    }),
      "}");
}

/// The arity an arrangement with `key` and `thinning` describes: every row
/// column is either named plainly by the key or kept in the thinning, and
/// never both, so together they must be exactly 0..arity-1.
absl::StatusOr<int> DescribedArity(const std::vector<ScalarExpr>& key,
                                   const std::vector<int>& thinning,
                                   absl::string_view what) {
  for (size_t i = 0; i < thinning.size(); ++i) {
    if (thinning[i] < 0 || (i > 0 && thinning[i] <= thinning[i - 1])) {
      return Invalid(absl::StrCat(what, ": thinning ", PositionsText(thinning),
                                  " is not strictly increasing non-negative "
                                  "columns"));
    }
  }
  std::set<int> key_columns;
  for (const ScalarExpr& e : key) {
    if (!e.IsColumn()) continue;
    if (e.column < 0) {
      return Invalid(
          absl::StrCat(what, ": key references negative column #", e.column));
    }
    key_columns.insert(e.column);
  }
  std::set<int> columns = key_columns;
  for (int c : thinning) {
    if (key_columns.count(c) > 0) {
      return Invalid(absl::StrCat(what, ": column #", c,
                                  " is both a key column and in the thinning"));
    }
    columns.insert(c);
  }
  const int arity = static_cast<int>(columns.size());
  if (!columns.empty() && *columns.rbegin() != arity - 1) {
    int missing = 0;
    while (columns.count(missing) > 0) ++missing;
    return Invalid(absl::StrCat(what, ": column #", missing,
                                " is neither a key column nor in the thinning ",
                                PositionsText(thinning)));
  }
  return arity;
}

/// A join closure: a safe MFP whose equivalences read its input columns.
absl::Status CheckClosure(const JoinClosure& closure, MaybeArity input,
                          absl::string_view label) {
  if (closure.mfp.temporal.has_value()) {
    return Invalid(absl::StrCat(label,
                                "a join closure cannot hold a temporal "
                                "filter"));
  }
  for (size_t i = 0; i < closure.ready_equivalences.size(); ++i) {
    LIR_RETURN_IF_ERROR(
        CheckColumnList(closure.ready_equivalences[i], input,
                        absl::StrCat(label, "ready_equivalences class ", i)));
  }
  return CheckMfp(closure.mfp, input, label);
}

/// Checks one linear plan or delta path and returns the arity it produces.
/// The row after each lookup stage is `stream key ++ stream thinning ++
/// lookup thinning`, which the stage's closure then maps.
absl::Status CheckJoinPath(const JoinPath& path, bool delta,
                           std::span<const MaybeArity> inputs,
                           const std::string& label) {
  const int n = static_cast<int>(inputs.size());
  std::vector<bool> used(inputs.size(), false);
  auto use = [&](int relation, absl::string_view what) -> absl::Status {
    if (relation < 0 || relation >= n) {
      return Invalid(absl::StrCat(label, what, " relation ", relation,
                                  " out of range for ", n, " inputs"));
    }
    if (used[relation]) {
      return Invalid(absl::StrCat(label, what, " relation ", relation,
                                  " is already joined earlier on this path"));
    }
    used[relation] = true;
    return absl::OkStatus();
  };

  LIR_RETURN_IF_ERROR(use(path.source_relation, "source"));
  MaybeArity stream = inputs[path.source_relation];
  if (path.source_key.has_value()) {
    LIR_RETURN_IF_ERROR(CheckColumnList(*path.source_key, stream,
                                        absl::StrCat(label, "source key")));
    // A delta path starts from the source arrangement's layout row; a
    // linear join from the source's row
    // (../shared/reference/SEMANTICS.md 8.4).
    if (delta) stream = ReadMaybeArity(path.source_key, stream);
  }
  if (path.initial_closure.has_value()) {
    LIR_RETURN_IF_ERROR(CheckClosure(*path.initial_closure, stream,
                                     absl::StrCat(label, "initial_closure: ")));
    stream =
        MfpOutputArity(path.initial_closure->mfp, Arity::FromOptional(stream))
            .ToOptional();
  }
  for (size_t i = 0; i < path.stages.size(); ++i) {
    const JoinStage& stage = path.stages[i];
    const std::string stage_label =
        absl::StrCat(label, delta ? "delta_stage[" : "linear_stage[", i, "]");
    LIR_RETURN_IF_ERROR(use(stage.lookup_relation, stage_label + " lookup"));
    LIR_RETURN_IF_ERROR(
        CheckColumnList(stage.stream_key, stream, stage_label + " stream key"));
    // The stream is arranged by its key exactly like any arrangement, so the
    // key and thinning describe the stream's arity.
    LIR_ASSIGN_OR_RETURN(int described,
                         DescribedArity(stage.stream_key, stage.stream_thinning,
                                        stage_label + " stream"));
    if (stream.has_value() && *stream != described) {
      ArrangementForm expected = MakeArrangement(stage.stream_key, *stream);
      return Invalid(absl::StrCat(
          stage_label, ": stream thinning ",
          PositionsText(stage.stream_thinning),
          " does not match the stream key for stream arity ", *stream,
          " (expected ", PositionsText(expected.thinning), ")"));
    }
    if (stage.stream_key.size() != stage.lookup_key.size()) {
      return Invalid(absl::StrCat(
          stage_label, ": stream key has ", stage.stream_key.size(),
          " entries but lookup key has ", stage.lookup_key.size()));
    }
    const MaybeArity lookup = inputs[stage.lookup_relation];
    LIR_RETURN_IF_ERROR(
        CheckColumnList(stage.lookup_key, lookup, stage_label + " lookup key"));
    stream = LookupStreamArity(stage, Arity::FromOptional(lookup)).ToOptional();
    if (stage.closure.has_value()) {
      LIR_RETURN_IF_ERROR(
          CheckClosure(*stage.closure, stream, stage_label + " closure: "));
      stream = MfpOutputArity(stage.closure->mfp, Arity::FromOptional(stream))
                   .ToOptional();
    }
  }
  for (int r = 0; r < n; ++r) {
    if (!used[r]) {
      return Invalid(
          absl::StrCat(label, "relation ", r, " is never joined on this path"));
    }
  }
  if (path.final_closure.has_value()) {
    LIR_RETURN_IF_ERROR(CheckClosure(*path.final_closure, stream,
                                     absl::StrCat(label, "final_closure: ")));
  }
  return absl::OkStatus();
}

absl::Status CheckAggregate(const AggregateExpr& aggregate, MaybeArity input,
                            absl::string_view what) {
  return CheckColumns(aggregate.expr, input, what);
}

/// Positions of Accumulable aggregates: together a permutation of 0..n-1.
absl::Status CheckAggregatePositions(const ReduceOp& reduce) {
  const size_t count =
      reduce.simple_aggrs.size() + reduce.distinct_aggrs.size();
  std::vector<bool> seen(count, false);
  for (const auto* list : {&reduce.simple_aggrs, &reduce.distinct_aggrs}) {
    for (const auto& [position, aggregate] : *list) {
      if (position < 0 || static_cast<size_t>(position) >= count) {
        return Invalid(absl::StrCat("aggregate position ", position,
                                    " out of range for ", count,
                                    " aggregates"));
      }
      if (seen[position]) {
        return Invalid(
            absl::StrCat("aggregate position ", position, " is used twice"));
      }
      seen[position] = true;
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSafe(const MapFilterProject& mfp, absl::string_view label) {
  if (mfp.temporal.has_value()) {
    return Invalid(absl::StrCat(label, "cannot hold a temporal filter"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Invalid(std::string message) {
  return absl::InvalidArgumentError(std::move(message));
}

std::string PositionsText(const std::vector<int>& positions) {
  return absl::StrCat("(",
                      absl::StrJoin(positions, ", ",
                                    [](std::string* out, int p) {
                                      absl::StrAppend(out, "#", p);
                                    }),
                      ")");
}

absl::Status CheckColumns(const ScalarExpr& expr, MaybeArity arity,
                          absl::string_view what) {
  absl::Status status;
  ForEachColumn(expr, [&](int c) {
    if (!status.ok()) return;
    if (c < 0) {
      status = Invalid(absl::StrCat(what, " references negative column #", c));
    } else if (arity.has_value() && c >= *arity) {
      status = Invalid(absl::StrCat(what, " references column #", c,
                                    " out of range for arity ", *arity));
    }
  });
  return status;
}

absl::Status CheckColumnList(const std::vector<ScalarExpr>& exprs,
                             MaybeArity arity, absl::string_view what) {
  for (const ScalarExpr& e : exprs) {
    LIR_RETURN_IF_ERROR(CheckColumns(e, arity, what));
  }
  return absl::OkStatus();
}

absl::Status CheckPositions(const std::vector<int>& positions, MaybeArity arity,
                            absl::string_view what) {
  for (int c : positions) {
    if (c < 0) {
      return Invalid(absl::StrCat(what, " references negative column #", c));
    }
    if (arity.has_value() && c >= *arity) {
      return Invalid(absl::StrCat(what, " references column #", c,
                                  " out of range for arity ", *arity));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckMfp(const MapFilterProject& mfp, MaybeArity input,
                      absl::string_view label) {
  const int mapped = static_cast<int>(mfp.map.size());
  // Each map expression may read the input and the expressions before it.
  for (int i = 0; i < mapped; ++i) {
    MaybeArity visible;
    if (input.has_value()) visible = *input + i;
    LIR_RETURN_IF_ERROR(CheckColumns(
        mfp.map[i], visible, absl::StrCat(label, "map expression ", i)));
  }
  MaybeArity widened;
  if (input.has_value()) widened = *input + mapped;
  for (size_t i = 0; i < mfp.filter.size(); ++i) {
    LIR_RETURN_IF_ERROR(CheckColumns(
        mfp.filter[i], widened, absl::StrCat(label, "filter predicate ", i)));
  }
  if (mfp.temporal.has_value()) {
    LIR_RETURN_IF_ERROR(
        CheckColumnList(mfp.temporal->lower, widened,
                        absl::StrCat(label, "temporal lower bound")));
    LIR_RETURN_IF_ERROR(
        CheckColumnList(mfp.temporal->upper, widened,
                        absl::StrCat(label, "temporal upper bound")));
  }
  if (!mfp.project.has_value()) return absl::OkStatus();
  for (int c : *mfp.project) {
    if (c < 0) {
      return Invalid(
          absl::StrCat(label, "projection column #", c, " is negative"));
    }
    if (widened.has_value() && c >= *widened) {
      if (mapped == 0) {
        return Invalid(absl::StrCat(label, "projection column #", c,
                                    " out of range for input arity ", *input));
      }
      return Invalid(absl::StrCat(
          label, "projection column #", c, " out of range for arity ", *widened,
          " (input arity ", *input, " + ", mapped, " mapped)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int> CheckArrangementForm(const ArrangementForm& form,
                                         MaybeArity arity,
                                         absl::string_view what) {
  LIR_ASSIGN_OR_RETURN(int described,
                       DescribedArity(form.key, form.thinning, what));
  LIR_RETURN_IF_ERROR(
      CheckColumnList(form.key, described, absl::StrCat(what, " key")));
  ArrangementForm expected = MakeArrangement(form.key, described);
  if (expected.permutation != form.permutation) {
    return Invalid(absl::StrCat(what, ": permutation ",
                                PermutationText(form.permutation),
                                " does not match key and thinning (expected ",
                                PermutationText(expected.permutation), ")"));
  }
  if (arity.has_value() && *arity != described) {
    return Invalid(absl::StrCat(what, ": key and thinning describe arity ",
                                described, ", but the collection has arity ",
                                *arity));
  }
  return described;
}

absl::Status CheckJoin(const JoinOp& join, std::span<const Arity> inputs) {
  if (join.paths.empty()) return Invalid("has no join path");
  if (!join.delta && join.paths.size() != 1) {
    return Invalid(absl::StrCat("a linear join has exactly one path, not ",
                                join.paths.size()));
  }
  if (join.paths.size() > inputs.size()) {
    return Invalid(absl::StrCat(join.paths.size(), " plan paths for ",
                                inputs.size(), " inputs"));
  }
  std::vector<MaybeArity> known;
  known.reserve(inputs.size());
  for (const Arity& input : inputs) known.push_back(input.ToOptional());
  MaybeArity output;
  for (size_t p = 0; p < join.paths.size(); ++p) {
    const JoinPath& path = join.paths[p];
    const std::string label =
        join.delta ? absl::StrCat("plan_path[", p, "] ") : std::string();
    if (join.delta && path.source_relation != static_cast<int>(p)) {
      return Invalid(absl::StrCat(label, "starts from relation ",
                                  path.source_relation, ", expected ", p));
    }
    LIR_RETURN_IF_ERROR(CheckJoinPath(path, join.delta, known, label));
    const MaybeArity arity =
        JoinPathArity(path, join.delta, inputs).ToOptional();
    if (arity.has_value() && output.has_value() && *arity != *output) {
      return Invalid(absl::StrCat(label, "produces arity ", *arity,
                                  ", but an earlier path produces arity ",
                                  *output));
    }
    if (!output.has_value()) output = arity;
  }
  return absl::OkStatus();
}

MaybeArity ReadMaybeArity(
    const std::optional<std::vector<ScalarExpr>>& input_key, MaybeArity input) {
  return ReadArity(input_key, Arity::FromOptional(input)).ToOptional();
}

std::string ReadLabel(const std::optional<std::vector<ScalarExpr>>& input_key) {
  if (!input_key.has_value()) return "";
  std::string key;
  for (const ScalarExpr& e : *input_key) {
    if (!key.empty()) key += ", ";
    key += e.IsColumn() ? absl::StrCat("#", e.column) : "<expression>";
  }
  return absl::StrCat("over the layout of [", key, "]: ");
}

absl::Status CheckReduce(const ReduceOp& reduce, Arity input_arity) {
  const MaybeArity row = input_arity.ToOptional();
  if (reduce.input_key.has_value()) {
    LIR_RETURN_IF_ERROR(CheckColumnList(*reduce.input_key, row, "input key"));
  }
  // With an input key, key_plan, val_plan and the aggregates read the input
  // arrangement's layout row (../shared/reference/SEMANTICS.md 8.3).
  const MaybeArity input = ReadMaybeArity(reduce.input_key, row);
  const std::string over = ReadLabel(reduce.input_key);
  LIR_RETURN_IF_ERROR(CheckSafe(reduce.key_plan, "key_plan: "));
  LIR_RETURN_IF_ERROR(CheckSafe(reduce.val_plan, "val_plan: "));
  LIR_RETURN_IF_ERROR(CheckSafe(reduce.mfp_after, "mfp_after: "));
  LIR_RETURN_IF_ERROR(CheckMfp(reduce.key_plan, input, over + "key_plan: "));
  LIR_RETURN_IF_ERROR(CheckMfp(reduce.val_plan, input, over + "val_plan: "));
  const MaybeArity val_arity =
      MfpOutputArity(reduce.val_plan, Arity::FromOptional(input)).ToOptional();
  const size_t aggregates = AggregateCount(reduce);
  switch (reduce.kind) {
    case ReduceKind::kDistinct: break;
    case ReduceKind::kAccumulable:
      LIR_RETURN_IF_ERROR(CheckAggregatePositions(reduce));
      for (size_t i = 0; i < reduce.simple_aggrs.size(); ++i) {
        LIR_RETURN_IF_ERROR(
            CheckAggregate(reduce.simple_aggrs[i].second, input,
                           absl::StrCat("simple_aggrs[", i, "]")));
      }
      for (size_t i = 0; i < reduce.distinct_aggrs.size(); ++i) {
        LIR_RETURN_IF_ERROR(
            CheckAggregate(reduce.distinct_aggrs[i].second, input,
                           absl::StrCat("distinct_aggrs[", i, "]")));
      }
      break;
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed:
      if (aggregates == 0) return Invalid("aggr_funcs is empty");
      break;
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple:
      if (reduce.kind == ReduceKind::kBasicSingle && aggregates != 1) {
        return Invalid(
            absl::StrCat("a single basic reduction has exactly one "
                         "aggregate, not ",
                         aggregates));
      }
      if (aggregates == 0) return Invalid("has no aggregates");
      for (size_t i = 0; i < reduce.aggrs.size(); ++i) {
        LIR_RETURN_IF_ERROR(CheckAggregate(reduce.aggrs[i], input,
                                           absl::StrCat("aggrs[", i, "]")));
      }
      break;
  }
  if (val_arity.has_value() && static_cast<size_t>(*val_arity) != aggregates) {
    return Invalid(absl::StrCat("val_plan produces ", *val_arity,
                                " columns for ", aggregates, " aggregates"));
  }
  return CheckMfp(reduce.mfp_after,
                  ReducedArity(reduce, input_arity).ToOptional(),
                  "mfp_after: ");
}

}  // namespace lir::validate_internal
