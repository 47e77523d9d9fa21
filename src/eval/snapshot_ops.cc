// Whole-collection meanings of the snapshot engine's node kinds.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"
#include "src/eval/layout_read.h"
#include "src/eval/operators.h"
#include "src/eval/snapshot_internal.h"
#include "src/eval/values/temporal.h"

namespace lir::eval::snapshot_internal {
namespace {

absl::Status MultiplicityOverflow() {
  return absl::OutOfRangeError("multiplicity overflow");
}

absl::StatusOr<int64_t> MulDiffs(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return MultiplicityOverflow();
  return product;
}

absl::StatusOr<Multiset> Negate(Multiset input) {
  for (RowDiff& entry : input) {
    if (entry.second == std::numeric_limits<int64_t>::min()) {
      return MultiplicityOverflow();
    }
    entry.second = -entry.second;
  }
  return input;
}

absl::StatusOr<Multiset> ApplyMfp(const MapFilterProject& mfp, Multiset input,
                                  const Clock& clock) {
  if (mfp.IsIdentity()) return input;
  return ReadSeekMfp(input, nullptr, mfp, clock);
}

absl::StatusOr<Multiset> FlatMap(const FlatMapOp& op, const Multiset& input,
                                 const Clock& clock) {
  RowCounter rows(clock.max_rows, clock.now, clock.max_bytes);
  LIR_ASSIGN_OR_RETURN(CompiledFlatMap compiled, CompiledFlatMap::Compile(op));
  if (HasTemporal(op.mfp_after)) {
    // The table function's rows, then the temporal mfp_after at `now`.
    std::vector<RowDiff> joined;
    for (const auto& [row, diff] : input) {
      LIR_ASSIGN_OR_RETURN(std::vector<DataRow> produced,
                           compiled.JoinedRows(row, &rows));
      for (DataRow& r : produced) joined.emplace_back(std::move(r), diff);
    }
    LIR_ASSIGN_OR_RETURN(Multiset all, Consolidate(std::move(joined)));
    return ReadSeekMfp(all, nullptr, op.mfp_after, clock);
  }
  std::vector<RowDiff> out;
  for (const auto& [row, diff] : input) {
    LIR_ASSIGN_OR_RETURN(std::vector<DataRow> produced,
                         compiled.Rows(row, &rows));
    for (DataRow& r : produced) out.emplace_back(std::move(r), diff);
  }
  return Consolidate(std::move(out));
}

/// Runs one join path over the relations' contents (JoinPath semantics of
/// the evaluator brief: stream from the source, lookups per stage, closures,
/// multiplicities multiplied). Each stage's rows count against
/// `clock.max_rows` as they are made.
absl::StatusOr<Multiset> RunPath(const Node& join, const JoinPath& path,
                                 std::span<const Multiset> relations,
                                 const Clock& clock) {
  // Every expression of the path compiled once, before its rows.
  LIR_ASSIGN_OR_RETURN(CompiledClosure initial,
                       CompiledClosure::Compile(path.initial_closure));
  LIR_ASSIGN_OR_RETURN(CompiledClosure final_closure,
                       CompiledClosure::Compile(path.final_closure));
  std::vector<RowDiff> stream;
  const Multiset& source = relations[path.source_relation];
  // A delta path starts from its source's layout row
  // (../shared/reference/SEMANTICS.md 8.4).
  LayoutReader reader;
  if (!source.empty()) {
    LIR_ASSIGN_OR_RETURN(
        reader, DeltaSourceReader(
                    join, path, static_cast<int>(source.front().first.size())));
  }
  for (const auto& [source_row, diff] : source) {
    LIR_ASSIGN_OR_RETURN(DataRow row, reader.Apply(source_row));
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> started,
                         initial.Apply(std::move(row)));
    if (started.has_value()) stream.emplace_back(std::move(*started), diff);
  }
  for (const JoinStage& stage : path.stages) {
    LIR_ASSIGN_OR_RETURN(CompiledKey lookup_key,
                         CompiledKey::Compile(stage.lookup_key));
    LIR_ASSIGN_OR_RETURN(CompiledKey stream_key,
                         CompiledKey::Compile(stage.stream_key));
    LIR_ASSIGN_OR_RETURN(CompiledClosure closure,
                         CompiledClosure::Compile(stage.closure));
    // Index the lookup relation by its key, as its arrangement would.
    absl::flat_hash_map<DataRow, std::vector<const RowDiff*>> index;
    for (const RowDiff& entry : relations[stage.lookup_relation]) {
      LIR_ASSIGN_OR_RETURN(DataRow key, lookup_key.Eval(entry.first));
      index[std::move(key)].push_back(&entry);
    }
    std::vector<RowDiff> next;
    RowCounter rows(clock.max_rows, clock.now, clock.max_bytes);
    for (const auto& [row, diff] : stream) {
      LIR_ASSIGN_OR_RETURN(DataRow key, stream_key.Eval(row));
      auto it = index.find(key);
      if (it == index.end()) continue;
      LIR_RETURN_IF_ERROR(rows.Add(it->second.size()));
      // Before the rows are made: each joins `row` to one match.
      uint64_t bytes = it->second.size() * RowBytes(row);
      for (const RowDiff* match : it->second) bytes += RowBytes(match->first);
      LIR_RETURN_IF_ERROR(rows.AddBytes(bytes));
      for (const RowDiff* match : it->second) {
        LIR_ASSIGN_OR_RETURN(int64_t mult, MulDiffs(diff, match->second));
        DataRow joined = JoinedRow(key, row, stage.stream_thinning,
                                   match->first, stage.lookup_key);
        LIR_ASSIGN_OR_RETURN(std::optional<DataRow> closed,
                             closure.Apply(std::move(joined)));
        if (closed.has_value()) next.emplace_back(std::move(*closed), mult);
      }
    }
    // Consolidating between stages changes no result and bounds the size.
    LIR_ASSIGN_OR_RETURN(Multiset consolidated, Consolidate(std::move(next)));
    stream = std::move(consolidated);
  }
  std::vector<RowDiff> out;
  for (auto& [row, diff] : stream) {
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> closed,
                         final_closure.Apply(std::move(row)));
    if (closed.has_value()) out.emplace_back(std::move(*closed), diff);
  }
  return Consolidate(std::move(out));
}

absl::StatusOr<Multiset> Join(const Node& node,
                              std::span<const Multiset> relations,
                              bool check_delta_paths, const Clock& clock) {
  const JoinOp& op = node.As<JoinOp>();
  LIR_RETURN_IF_ERROR(CheckJoinShape(op, relations.size()));
  // Every delta path computes the whole join, so one suffices.
  LIR_ASSIGN_OR_RETURN(Multiset result,
                       RunPath(node, op.paths[0], relations, clock));
  if (op.delta && check_delta_paths) {
    for (size_t i = 1; i < op.paths.size(); ++i) {
      LIR_ASSIGN_OR_RETURN(Multiset other,
                           RunPath(node, op.paths[i], relations, clock));
      if (other != result) {
        return absl::InternalError(absl::StrCat(
            "delta join paths disagree: plan_path[0] has ", result.size(),
            " distinct rows, plan_path[", i, "] has ", other.size()));
      }
    }
  }
  return result;
}

/// Groups (key, entry) pairs by key in key order (so that errors and
/// evaluation order do not depend on hashing).
template <typename Entry>
void SortByKey(std::vector<std::pair<DataRow, Entry>>& keyed) {
  std::stable_sort(
      keyed.begin(), keyed.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
}

absl::StatusOr<Multiset> Reduce(const ReduceOp& op, const Multiset& input) {
  LIR_ASSIGN_OR_RETURN(CompiledReduce compiled, CompiledReduce::Compile(op));
  std::vector<std::pair<DataRow, RowDiff>> keyed;
  keyed.reserve(input.size());
  for (const auto& [row, diff] : input) {
    LIR_ASSIGN_OR_RETURN(auto split, compiled.KeyVal(row));
    if (!split.has_value()) continue;
    keyed.emplace_back(std::move(split->first),
                       RowDiff(std::move(split->second), diff));
  }
  SortByKey(keyed);
  std::vector<RowDiff> out;
  for (size_t begin = 0; begin < keyed.size();) {
    size_t end = begin;
    std::vector<RowDiff> vals;
    while (end < keyed.size() && keyed[end].first == keyed[begin].first) {
      vals.push_back(std::move(keyed[end].second));
      ++end;
    }
    LIR_ASSIGN_OR_RETURN(Multiset group, Consolidate(std::move(vals)));
    LIR_ASSIGN_OR_RETURN(Multiset rows,
                         compiled.Group(keyed[begin].first, group));
    for (RowDiff& row : rows) out.push_back(std::move(row));
    begin = end;
  }
  return Consolidate(std::move(out));
}

absl::StatusOr<Multiset> TopK(const TopKOp& op, const Multiset& input) {
  LIR_ASSIGN_OR_RETURN(CompiledTopK compiled, CompiledTopK::Compile(op));
  std::vector<std::pair<DataRow, RowDiff>> keyed;
  keyed.reserve(input.size());
  for (const RowDiff& entry : input) {
    keyed.emplace_back(TopKGroupKey(op, entry.first), entry);
  }
  SortByKey(keyed);
  std::vector<RowDiff> out;
  for (size_t begin = 0; begin < keyed.size();) {
    size_t end = begin;
    std::vector<RowDiff> rows;
    while (end < keyed.size() && keyed[end].first == keyed[begin].first) {
      rows.push_back(std::move(keyed[end].second));
      ++end;
    }
    LIR_ASSIGN_OR_RETURN(Multiset group, Consolidate(std::move(rows)));
    LIR_ASSIGN_OR_RETURN(Multiset kept, compiled.Group(group));
    for (RowDiff& entry : kept) out.push_back(std::move(entry));
    begin = end;
  }
  return Consolidate(std::move(out));
}

Multiset KeepPositive(Multiset input) {
  std::erase_if(input, [](const RowDiff& entry) { return entry.second <= 0; });
  return input;
}

absl::StatusOr<Multiset> Union(std::span<Multiset> inputs) {
  if (inputs.size() == 1) return std::move(inputs[0]);
  std::vector<RowDiff> all;
  for (Multiset& input : inputs) {
    for (RowDiff& entry : input) all.push_back(std::move(entry));
  }
  return Consolidate(std::move(all));
}

}  // namespace

absl::StatusOr<Multiset> ReadSeekMfp(const Multiset& input,
                                     const std::optional<Row>* seek,
                                     const MapFilterProject& mfp,
                                     const Clock& clock) {
  std::optional<DataRow> sought;
  if (seek != nullptr && seek->has_value()) {
    sought.emplace();
    for (const Literal& literal : **seek) {
      LIR_ASSIGN_OR_RETURN(Datum datum, FromLiteral(literal));
      sought->push_back(std::move(datum));
    }
  }
  const bool identity = mfp.IsIdentity();
  // Compiled once for all the rows (temporal: PlanTemporal compiles).
  std::optional<TemporalMfp> temporal;
  std::optional<CompiledMfp> compiled;
  if (HasTemporal(mfp)) {
    LIR_ASSIGN_OR_RETURN(temporal, PlanTemporal(mfp));
    if (clock.next == nullptr) {
      return absl::InternalError("a temporal filter evaluated without a clock");
    }
  } else if (!identity) {
    LIR_ASSIGN_OR_RETURN(compiled, CompiledMfp::Compile(mfp));
  }
  std::vector<RowDiff> out;
  for (const auto& [row, diff] : input) {
    // The key row is the layout row's prefix.
    if (sought.has_value() && !HasKeyPrefix(row, *sought)) {
      continue;
    }
    if (identity) {
      out.emplace_back(row, diff);
      continue;
    }
    if (temporal.has_value()) {
      // Present at `now` when its bounds admit it (temporal.h).
      LIR_ASSIGN_OR_RETURN(
          std::optional<DataRow> kept,
          EvalTemporalAt(*temporal, row, clock.now, clock.next));
      if (kept.has_value()) out.emplace_back(std::move(*kept), diff);
      continue;
    }
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> mapped, compiled->Eval(row));
    if (mapped.has_value()) out.emplace_back(std::move(*mapped), diff);
  }
  return Consolidate(std::move(out));
}

absl::StatusOr<Multiset> ComputeGet(const Node& node, const Multiset& source,
                                    const Clock& clock) {
  const GetOp& op = node.As<GetOp>();
  switch (op.kind) {
    case GetKind::kPassArrangements: return source;
    case GetKind::kArrangement: {
      LIR_ASSIGN_OR_RETURN(Multiset layout, ReadAsLayout(node, source));
      return ReadSeekMfp(layout, &op.seek, op.mfp, clock);
    }
    case GetKind::kCollection:
      return ReadSeekMfp(source, nullptr, op.mfp, clock);
  }
  return absl::InternalError("unknown Get kind");
}

absl::Status CheckJoinShape(const JoinOp& op, size_t relations) {
  if (op.paths.empty()) return absl::InvalidArgumentError("join has no path");
  if (!op.delta && op.paths.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("linear join has ", op.paths.size(), " paths"));
  }
  // One-shot plans print only plan_path[0] of a delta join; any one path
  // computes the whole join, so fewer paths than inputs is fine here.
  if (op.delta && op.paths.size() > relations) {
    return absl::InvalidArgumentError(
        absl::StrCat("delta join has ", op.paths.size(), " paths for ",
                     relations, " inputs"));
  }
  auto in_range = [&](int relation) {
    return relation >= 0 && static_cast<size_t>(relation) < relations;
  };
  for (size_t i = 0; i < op.paths.size(); ++i) {
    const JoinPath& path = op.paths[i];
    if (!in_range(path.source_relation)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "source relation ", path.source_relation, " out of range"));
    }
    for (const JoinStage& stage : path.stages) {
      if (!in_range(stage.lookup_relation)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "lookup relation ", stage.lookup_relation, " out of range"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Multiset> ComputeNode(const Node& node,
                                     std::span<Multiset> inputs,
                                     bool check_delta_paths,
                                     const Clock& clock) {
  switch (node.kind()) {
    case NodeKind::kConstant: return ConstantRows(node.As<ConstantOp>());
    case NodeKind::kMfp: {
      const MfpOp& op = node.As<MfpOp>();
      LIR_ASSIGN_OR_RETURN(Multiset read,
                           ReadAsLayout(node, std::move(inputs[0])));
      if (op.input_val.has_value()) {
        if (!op.input_key.has_value()) {
          return absl::InvalidArgumentError("input_val without input_key");
        }
        return ReadSeekMfp(read, &op.input_val, op.mfp, clock);
      }
      return ApplyMfp(op.mfp, std::move(read), clock);
    }
    case NodeKind::kFlatMap: {
      LIR_ASSIGN_OR_RETURN(Multiset read,
                           ReadAsLayout(node, std::move(inputs[0])));
      return FlatMap(node.As<FlatMapOp>(), read, clock);
    }
    case NodeKind::kJoin: return Join(node, inputs, check_delta_paths, clock);
    case NodeKind::kReduce: {
      LIR_ASSIGN_OR_RETURN(Multiset read,
                           ReadAsLayout(node, std::move(inputs[0])));
      return Reduce(node.As<ReduceOp>(), read);
    }
    case NodeKind::kTopK: return TopK(node.As<TopKOp>(), inputs[0]);
    case NodeKind::kNegate: return Negate(std::move(inputs[0]));
    case NodeKind::kThreshold: return KeepPositive(std::move(inputs[0]));
    case NodeKind::kUnion: return Union(inputs);
    case NodeKind::kArrangeBy: {
      LIR_ASSIGN_OR_RETURN(Multiset read,
                           ReadAsLayout(node, std::move(inputs[0])));
      return ApplyMfp(node.As<ArrangeByOp>().input_mfp, std::move(read), clock);
    }
    case NodeKind::kSetDifference: {
      LIR_ASSIGN_OR_RETURN(Multiset net, DiffMultisets(inputs[0], inputs[1]));
      return KeepPositive(std::move(net));
    }
    case NodeKind::kAntiJoin:
      return AntiJoinRows(node.As<AntiJoinOp>(), inputs[0], inputs[1]);
    case NodeKind::kGet:
    case NodeKind::kLet:
    case NodeKind::kLetRec: break;
  }
  return absl::InternalError("node kind evaluated by the walk, not here");
}

}  // namespace lir::eval::snapshot_internal
