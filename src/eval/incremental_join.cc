// The incremental Join, following the plan's stages exactly (see the brief
// "Joins" and docs/evaluator.md). Linear: each stage is a binary join of the
// changing stream with the changing lookup relation,
//   d(S x L) = dS x L_old + S_new x dL,
// over the stream's arrangement (the source arrangement for the first stage,
// a stage arrangement kept here for later ones) and the lookup relation's
// arrangement. Delta: path i streams relation i's changes and looks up
// relation j including this round's changes when j < i, excluding them when
// j > i, so every combination of changes is counted once.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"
#include "src/eval/incremental_internal.h"
#include "src/eval/layout_read.h"
#include "src/eval/operators.h"

namespace lir::eval::incremental_internal {
namespace {

struct Arranged {
  Trace* trace = nullptr;
  /// Maintained by the join itself from the relation's changes.
  bool own = false;
  size_t relation = 0;
  std::vector<ScalarExpr> key;
  /// A linear stage's stream arrangement, fed by the stage while running.
  bool stage = false;
  /// `key` compiled (when the join is built).
  CompiledKey compiled_key;
};

// A join stage's expressions, compiled when the join is built.
struct CompiledStage {
  CompiledKey stream_key;
  CompiledKey lookup_key;
  CompiledClosure closure;
};

// A join path's expressions, compiled when the join is built.
struct CompiledPath {
  CompiledClosure initial;
  CompiledClosure final_closure;
  std::vector<CompiledStage> stages;
};

absl::StatusOr<CompiledPath> CompilePath(const JoinPath& path) {
  CompiledPath out;
  LIR_ASSIGN_OR_RETURN(out.initial,
                       CompiledClosure::Compile(path.initial_closure));
  LIR_ASSIGN_OR_RETURN(out.final_closure,
                       CompiledClosure::Compile(path.final_closure));
  for (const JoinStage& stage : path.stages) {
    CompiledStage c;
    LIR_ASSIGN_OR_RETURN(c.stream_key, CompiledKey::Compile(stage.stream_key));
    LIR_ASSIGN_OR_RETURN(c.lookup_key, CompiledKey::Compile(stage.lookup_key));
    LIR_ASSIGN_OR_RETURN(c.closure, CompiledClosure::Compile(stage.closure));
    out.stages.push_back(std::move(c));
  }
  return out;
}

// A path's first stream: a delta path starts from its source's layout row
// (../shared/reference/SEMANTICS.md 8.4), then `initial_closure`.
absl::StatusOr<Multiset> ApplyInitial(const Node& join, const JoinPath& path,
                                      const CompiledClosure& initial,
                                      const Multiset& changes) {
  LayoutReader reader;
  if (!changes.empty()) {
    LIR_ASSIGN_OR_RETURN(
        reader,
        DeltaSourceReader(join, path,
                          static_cast<int>(changes.front().first.size())));
  }
  if (!path.initial_closure.has_value()) return reader.Apply(changes);
  std::vector<RowDiff> out;
  for (const auto& [source_row, diff] : changes) {
    LIR_ASSIGN_OR_RETURN(DataRow row, reader.Apply(source_row));
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> mapped,
                         initial.Apply(std::move(row)));
    if (mapped.has_value()) out.emplace_back(std::move(*mapped), diff);
  }
  return Consolidate(std::move(out));
}

absl::Status Emit(const JoinStage& stage, const CompiledStage& compiled,
                  const DataRow& key, const DataRow& stream,
                  const DataRow& lookup, int64_t d1, int64_t d2,
                  std::vector<RowDiff>& out) {
  int64_t diff = 0;
  if (__builtin_mul_overflow(d1, d2, &diff)) {
    return absl::OutOfRangeError("multiplicity overflow in a join");
  }
  DataRow joined =
      JoinedRow(key, stream, stage.stream_thinning, lookup, stage.lookup_key);
  LIR_ASSIGN_OR_RETURN(std::optional<DataRow> row,
                       compiled.closure.Apply(std::move(joined)));
  if (row.has_value()) out.emplace_back(std::move(*row), diff);
  return absl::OkStatus();
}

// Bytes of the rows joining `row` to each of `matches`, counted before they
// are made.
uint64_t JoinedBytes(const DataRow& row, const Multiset& matches) {
  uint64_t bytes = matches.size() * RowBytes(row);
  for (const auto& [match, diff] : matches) bytes += RowBytes(match);
  return bytes;
}

// `stream` x the lookup's contents at rounds < `before`, counted against
// the stage's `rows`.
absl::Status StreamTimesLookup(const JoinStage& stage,
                               const CompiledStage& compiled,
                               const Multiset& stream, const Trace& lookup,
                               uint64_t before, RowCounter& rows,
                               std::vector<RowDiff>& out) {
  for (const auto& [s, ds] : stream) {
    LIR_ASSIGN_OR_RETURN(DataRow key, compiled.stream_key.Eval(s));
    LIR_ASSIGN_OR_RETURN(Multiset matches, lookup.Read(key, before));
    LIR_RETURN_IF_ERROR(rows.Add(matches.size()));
    LIR_RETURN_IF_ERROR(rows.AddBytes(JoinedBytes(s, matches)));
    for (const auto& [l, dl] : matches) {
      LIR_RETURN_IF_ERROR(Emit(stage, compiled, key, s, l, ds, dl, out));
    }
  }
  return absl::OkStatus();
}

class JoinOperator : public Operator {
 public:
  using Operator::Operator;

  absl::StatusOr<Multiset> Run(Round& r) override {
    const JoinOp& op = node().As<JoinOp>();
    for (const Arranged& a : arranged_) {
      if (!a.own || a.stage) continue;
      for (const auto& [row, diff] : r.delta(inputs[a.relation])) {
        LIR_ASSIGN_OR_RETURN(DataRow key, a.compiled_key.Eval(row));
        LIR_RETURN_IF_ERROR(a.trace->Insert(key, row, r.round, diff));
      }
    }
    std::vector<RowDiff> all;
    for (size_t p = 0; p < op.paths.size(); ++p) {
      const JoinPath& path = op.paths[p];
      const CompiledPath& compiled_path = paths_[p];
      LIR_ASSIGN_OR_RETURN(Multiset stream,
                           ApplyInitial(node(), path, compiled_path.initial,
                                        r.delta(inputs[path.source_relation])));
      for (size_t i = 0; i < path.stages.size(); ++i) {
        const JoinStage& stage = path.stages[i];
        const CompiledStage& compiled = compiled_path.stages[i];
        const Arranged& lookup = arranged_[lookup_of_[p][i]];
        std::vector<RowDiff> out;
        RowCounter rows(r.max_rows, r.round, r.max_bytes);
        if (!op.delta) {
          // dS x L_old + S_new x dL.
          const Arranged& s = arranged_[stream_of_[i]];
          if (s.stage) {
            for (const auto& [row, diff] : stream) {
              LIR_ASSIGN_OR_RETURN(DataRow key, s.compiled_key.Eval(row));
              LIR_RETURN_IF_ERROR(s.trace->Insert(key, row, r.round, diff));
            }
          }
          LIR_RETURN_IF_ERROR(StreamTimesLookup(
              stage, compiled, stream, *lookup.trace, r.round, rows, out));
          for (const auto& [l, dl] : r.delta(inputs[stage.lookup_relation])) {
            LIR_ASSIGN_OR_RETURN(DataRow key, compiled.lookup_key.Eval(l));
            LIR_ASSIGN_OR_RETURN(Multiset matches,
                                 s.trace->Read(key, r.round + 1));
            LIR_RETURN_IF_ERROR(rows.Add(matches.size()));
            LIR_RETURN_IF_ERROR(rows.AddBytes(JoinedBytes(l, matches)));
            for (const auto& [srow, ds] : matches) {
              LIR_RETURN_IF_ERROR(
                  Emit(stage, compiled, key, srow, l, ds, dl, out));
            }
          }
        } else {
          const uint64_t before = stage.lookup_relation < path.source_relation
                                      ? r.round + 1
                                      : r.round;
          LIR_RETURN_IF_ERROR(StreamTimesLookup(
              stage, compiled, stream, *lookup.trace, before, rows, out));
        }
        LIR_ASSIGN_OR_RETURN(stream, Consolidate(std::move(out)));
      }
      for (auto& [row, diff] : stream) {
        if (!compiled_path.final_closure.present()) {
          all.emplace_back(std::move(row), diff);
          continue;
        }
        LIR_ASSIGN_OR_RETURN(std::optional<DataRow> mapped,
                             compiled_path.final_closure.Apply(std::move(row)));
        if (mapped.has_value()) all.emplace_back(std::move(*mapped), diff);
      }
    }
    return Consolidate(std::move(all));
  }

  std::vector<Arranged> arranged_;
  /// Per path, per stage: the index in arranged_ of the lookup.
  std::vector<std::vector<size_t>> lookup_of_;
  /// Linear only, per stage: the index in arranged_ of the stream.
  std::vector<size_t> stream_of_;
  /// Per path, its expressions compiled.
  std::vector<CompiledPath> paths_;
};

}  // namespace

absl::StatusOr<size_t> BuildJoin(const Node& node, Graph& graph) {
  const JoinOp& join = node.As<JoinOp>();
  auto op = std::make_unique<JoinOperator>(node);
  for (const NodePtr& input : node.inputs) {
    op->inputs.push_back(graph.OpOf(input.get()));
  }
  const size_t n = node.inputs.size();
  if (join.paths.empty() || (!join.delta && join.paths.size() != 1)) {
    return absl::InvalidArgumentError("a join needs its paths");
  }
  if (join.delta) {
    // Changes of an input no path starts from would never be streamed:
    // Materialize prints such plans (one path over several inputs); they
    // run recomputed, which is what the plan's result means.
    std::vector<bool> streamed(n, false);
    for (const JoinPath& path : join.paths) {
      if (path.source_relation >= 0 &&
          static_cast<size_t>(path.source_relation) < n) {
        streamed[path.source_relation] = true;
      }
    }
    for (bool s : streamed) {
      if (!s) return BuildNodeAdapter(node, graph);
    }
  }
  // The arrangement of relation `relation` on `key`: the one the relation
  // offers, else one maintained here (named after what it holds).
  auto arranged = [&](size_t relation, const std::vector<ScalarExpr>& key,
                      std::string own_name,
                      std::optional<std::vector<int>> value_columns) {
    for (size_t i = 0; i < op->arranged_.size(); ++i) {
      const Arranged& a = op->arranged_[i];
      if (!a.stage && a.relation == relation && SameIgnoringNames(a.key, key)) {
        return i;
      }
    }
    Arranged a;
    a.relation = relation;
    a.key = key;
    a.trace = FindOffered(graph.op(op->inputs[relation]).offered, key);
    if (a.trace == nullptr) {
      Trace::Info info;
      info.operator_name = std::move(own_name);
      info.lir_id = node.id;
      info.value_columns = std::move(value_columns);
      a.trace = graph.NewTrace(std::move(info));
      a.own = true;
    }
    op->arranged_.push_back(a);
    return op->arranged_.size() - 1;
  };
  for (const JoinPath& path : join.paths) {
    if (path.source_relation < 0 ||
        static_cast<size_t>(path.source_relation) >= n) {
      return absl::InvalidArgumentError("join source relation out of range");
    }
    std::vector<size_t> lookups;
    for (const JoinStage& stage : path.stages) {
      if (stage.lookup_relation < 0 ||
          static_cast<size_t>(stage.lookup_relation) >= n) {
        return absl::InvalidArgumentError("join lookup relation out of range");
      }
      lookups.push_back(
          arranged(stage.lookup_relation, stage.lookup_key,
                   absl::StrCat("JoinLookup", KeyListText(stage.lookup_key)),
                   std::nullopt));
    }
    op->lookup_of_.push_back(std::move(lookups));
  }
  if (!join.delta) {
    const JoinPath& path = join.paths[0];
    for (size_t i = 0; i < path.stages.size(); ++i) {
      const JoinStage& stage = path.stages[i];
      // The first stage streams the source relation: its arrangement on the
      // source key serves when the rows reach the stage unchanged.
      const bool source_arranged =
          i == 0 && path.source_key.has_value() &&
          !path.initial_closure.has_value() &&
          SameIgnoringNames(*path.source_key, stage.stream_key) &&
          FindOffered(graph.op(op->inputs[path.source_relation]).offered,
                      stage.stream_key) != nullptr;
      if (source_arranged) {
        op->stream_of_.push_back(
            arranged(static_cast<size_t>(path.source_relation),
                     stage.stream_key, "", std::nullopt));
        continue;
      }
      Trace::Info info;
      info.operator_name =
          absl::StrCat("JoinStage ", i, KeyListText(stage.stream_key));
      info.lir_id = node.id;
      info.value_columns = stage.stream_thinning;
      // Stream arrangements are fed by the stage, never from a relation.
      Arranged stream;
      stream.trace = graph.NewTrace(std::move(info));
      stream.own = true;
      stream.relation = SIZE_MAX;
      stream.key = stage.stream_key;
      stream.stage = true;
      op->arranged_.push_back(std::move(stream));
      op->stream_of_.push_back(op->arranged_.size() - 1);
    }
  }
  // Every expression compiled once, before any row (CheckNode compiled the
  // same ones, so this does not fail on a checked plan).
  for (Arranged& a : op->arranged_) {
    LIR_ASSIGN_OR_RETURN(a.compiled_key, CompiledKey::Compile(a.key));
  }
  for (const JoinPath& path : join.paths) {
    LIR_ASSIGN_OR_RETURN(CompiledPath compiled, CompilePath(path));
    op->paths_.push_back(std::move(compiled));
  }
  return graph.Add(std::move(op));
}

}  // namespace lir::eval::incremental_internal
