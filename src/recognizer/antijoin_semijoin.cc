// Form B of the antijoin rendering (../shared/reference/SEMANTICS.md 7.4):
// the single equi-join lowering `Union(P, Negate(Join(P, K)))` found and
// reported with its arrangement counts, never rewritten.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/arm_key.h"
#include "lir/layout.h"
#include "lir/recognizer/antijoin.h"
#include "src/recognizer/antijoin_decline.h"

namespace lir {
namespace {

using enum AntiJoinDecline;

using antijoin_internal::Decline;

// Where a column of a join's stream comes from: the input columns it is
// known to equal (a lookup key column equals a stream column and a lookup
// column at once). Empty: computed, not a copy of an input column.
struct ColumnSource {
  int relation = 0;
  int column = 0;
  friend bool operator==(const ColumnSource&, const ColumnSource&) = default;
};
using Sources = std::vector<ColumnSource>;

// What one join path computes, column by column, when its closures only
// project.
struct TracedPath {
  std::vector<Sources> output;
  /// Pairs of input columns the path's lookups equate.
  std::vector<std::pair<ColumnSource, ColumnSource>> equated;
};

// Applies a closure that only projects; why not, otherwise.
std::optional<std::string> ApplyClosure(const std::optional<JoinClosure>& c,
                                        std::vector<Sources>* stream) {
  if (!c.has_value()) return std::nullopt;
  if (!c->ready_equivalences.empty()) {
    return "a join closure checks equivalences (a filter)";
  }
  if (!c->mfp.IsProjectionOnly()) {
    return "a join closure maps or filters, not only projects";
  }
  std::vector<Sources> out;
  const int width = c->mfp.OutputArity(static_cast<int>(stream->size()));
  for (int i = 0; i < width; ++i) {
    const int from = c->mfp.ProjectedColumn(i);
    if (from < 0 || static_cast<size_t>(from) >= stream->size()) {
      return "a join closure projects a column the stream does not have";
    }
    out.push_back((*stream)[from]);
  }
  *stream = std::move(out);
  return std::nullopt;
}

// Traces `path` of a two-input join whose inputs have `arities`.
std::optional<std::string> TracePath(const Node& join, const JoinPath& path,
                                     const int arities[2], TracedPath* traced) {
  const int source = path.source_relation;
  if (source < 0 || source > 1) return "a join path starts out of range";
  std::vector<Sources> stream;
  std::optional<Layout> layout;
  if (join.As<JoinOp>().delta && path.source_key.has_value()) {
    // A delta path starts from its source's layout row (SEMANTICS 8.4).
    std::optional<ArrangementForm> form =
        ReadForm(*join.inputs[source], *path.source_key, arities[source]);
    if (form.has_value()) layout = MakeLayout(*form);
    if (!layout.has_value()) return "the delta source's layout is unknown";
  }
  const int width = layout.has_value() ? layout->arity : arities[source];
  for (int p = 0; p < width; ++p) {
    const int column = layout.has_value() ? layout->column[p] : p;
    stream.push_back(column < 0 ? Sources()
                                : Sources{ColumnSource{source, column}});
  }
  if (auto why = ApplyClosure(path.initial_closure, &stream)) return why;
  for (const JoinStage& stage : path.stages) {
    const int lookup = stage.lookup_relation;
    if (lookup < 0 || lookup > 1 ||
        stage.stream_key.size() != stage.lookup_key.size()) {
      return "a join stage is malformed";
    }
    std::vector<Sources> next;
    std::vector<bool> lookup_in_key(arities[lookup], false);
    for (size_t i = 0; i < stage.stream_key.size(); ++i) {
      const ScalarExpr& streamed = stage.stream_key[i];
      const ScalarExpr& looked_up = stage.lookup_key[i];
      if (!streamed.IsColumn() || !looked_up.IsColumn() ||
          streamed.column < 0 ||
          static_cast<size_t>(streamed.column) >= stream.size() ||
          looked_up.column < 0 || looked_up.column >= arities[lookup]) {
        return "a join key is not a plain column";
      }
      const ColumnSource lookup_column{lookup, looked_up.column};
      lookup_in_key[looked_up.column] = true;
      Sources key = stream[streamed.column];
      for (const ColumnSource& s : key) {
        traced->equated.emplace_back(s, lookup_column);
      }
      key.push_back(lookup_column);
      next.push_back(std::move(key));
    }
    for (int c : stage.stream_thinning) {
      if (c < 0 || static_cast<size_t>(c) >= stream.size()) {
        return "a join stage thins a column the stream does not have";
      }
      next.push_back(stream[c]);
    }
    for (int c = 0; c < arities[lookup]; ++c) {
      if (!lookup_in_key[c]) next.push_back({ColumnSource{lookup, c}});
    }
    stream = std::move(next);
    if (auto why = ApplyClosure(stage.closure, &stream)) return why;
  }
  if (auto why = ApplyClosure(path.final_closure, &stream)) return why;
  traced->output = std::move(stream);
  return std::nullopt;
}

// The semijoin a Join computes: P ⋉ K on `key`.
struct Semijoin {
  int probe = 0;  ///< P: the input whose columns the join outputs
  /// key[j]: the P column equated with K's column j.
  std::vector<int> key;
};

bool HasSource(const Sources& sources, ColumnSource wanted) {
  for (const ColumnSource& s : sources) {
    if (s == wanted) return true;
  }
  return false;
}

// Whether the join outputs exactly input `probe`'s columns and equates every
// column of the other input with one of them, on every path.
std::optional<std::string> MatchSemijoin(const Node& join, const int arities[2],
                                         int probe, Semijoin* semijoin) {
  const int keys = 1 - probe;
  std::vector<int> key(arities[keys], -1);
  for (const JoinPath& path : join.As<JoinOp>().paths) {
    TracedPath traced;
    if (auto why = TracePath(join, path, arities, &traced)) return why;
    if (traced.output.size() != static_cast<size_t>(arities[probe])) {
      return absl::StrCat("the join outputs ", traced.output.size(),
                          " columns, not its input ", probe, "'s ",
                          arities[probe]);
    }
    for (int c = 0; c < arities[probe]; ++c) {
      if (!HasSource(traced.output[c], ColumnSource{probe, c})) {
        return absl::StrCat("join output column #", c, " is not input ", probe,
                            "'s column #", c);
      }
    }
    for (const auto& [a, b] : traced.equated) {
      // Orient each pair as (probe column, keys column).
      const ColumnSource& p = a.relation == probe ? a : b;
      const ColumnSource& k = a.relation == probe ? b : a;
      if (p.relation != probe || k.relation != keys) continue;
      if (key[k.column] == -1) key[k.column] = p.column;
    }
  }
  for (int j = 0; j < arities[keys]; ++j) {
    if (key[j] == -1) {
      return absl::StrCat("the join does not equate input ", keys,
                          "'s column #", j, " with a column of input ", probe);
    }
  }
  semijoin->probe = probe;
  semijoin->key = std::move(key);
  return std::nullopt;
}

// A collection read as a Get (through ArrangeBys and an Mfp that change no
// contents but the MFP's): which collection, how, and the MFP.
struct GetRead {
  const GetOp* get = nullptr;
  MapFilterProject mfp;
};

std::optional<GetRead> ReadOfGet(const Node& node) {
  const Node* at = &node;
  std::optional<MapFilterProject> outer;
  while (true) {
    if (const ArrangeByOp* arrange = at->If<ArrangeByOp>()) {
      if (!arrange->input_mfp.IsIdentity()) return std::nullopt;
      at = at->inputs[0].get();
      continue;
    }
    if (const MfpOp* mfp = at->If<MfpOp>(); mfp != nullptr && !outer) {
      if (mfp->input_key.has_value()) return std::nullopt;
      outer = mfp->mfp;
      at = at->inputs[0].get();
      continue;
    }
    break;
  }
  const GetOp* get = at->If<GetOp>();
  if (get == nullptr) return std::nullopt;
  // An Mfp above a Get with its own MFP would need the two composed; the
  // lowerings this recognizes put the filter in one place.
  if (outer.has_value() && !get->mfp.IsIdentity()) return std::nullopt;
  return GetRead{get, outer.has_value() ? *outer : get->mfp};
}

// The values of the plain Let bindings whose body holds a candidate, by
// local id. A LetRec's ids are left out: inside its scope a Get reads an
// iterate, not one evaluation of the value as printed.
using LetValues = std::map<uint64_t, const Node*>;

LetValues LetValuesInScope(std::span<Node* const> ancestors,
                           const Node& candidate) {
  LetValues values;
  for (size_t i = 0; i < ancestors.size(); ++i) {
    const Node& let = *ancestors[i];
    if (!let.Is<LetOp>() || let.inputs.size() != 2) continue;
    const Node* child =
        i + 1 < ancestors.size() ? ancestors[i + 1] : &candidate;
    // In the value, the id is not bound (no shadowing, no recursion).
    if (let.inputs[1].get() == child) {
      values.emplace(let.As<LetOp>().id, let.inputs[0].get());
    }
  }
  return values;
}

// `read` continued into the value of the Let binding its Get reads: the same
// rows, as a read of what the value reads. Nullopt when the Get is not of a
// Let-bound id, reads its binding through an arrangement's layout (an MFP
// over the layout of the binding's form, not over the value's rows), or the
// value is not such a read, or both carry an MFP (ReadOfGet composes none).
std::optional<GetRead> ResolveLocalGet(const GetRead& read,
                                       const LetValues& lets) {
  const GetOp& get = *read.get;
  if (!get.id.is_local || get.kind == GetKind::kArrangement) {
    return std::nullopt;
  }
  auto bound = lets.find(get.id.local);
  if (bound == lets.end()) return std::nullopt;
  std::optional<GetRead> value = ReadOfGet(*bound->second);
  if (!value.has_value()) return std::nullopt;
  if (!read.mfp.IsIdentity()) {
    if (!value->mfp.IsIdentity()) return std::nullopt;
    value->mfp = read.mfp;
  }
  return value;
}

// The reads `node` is, outermost first: ReadOfGet's, then each Let-bound
// local Get resolved into its value (ResolveLocalGet) while that can go on.
// Every one has the node's rows; each reads a different id (a value only
// sees the ids bound outside its own Let), so the chain ends.
std::vector<GetRead> ReadsThroughLets(const Node& node, const LetValues& lets) {
  std::vector<GetRead> reads;
  std::optional<GetRead> read = ReadOfGet(node);
  while (read.has_value() && reads.size() <= lets.size()) {
    reads.push_back(*read);
    read = ResolveLocalGet(*read, lets);
  }
  return reads;
}

// `(#c) IS NOT NULL`: the column c, or -1.
int NotNullColumn(const ScalarExpr& e) {
  if (e.kind != ScalarKind::kCall || e.style != CallStyle::kNot ||
      e.args.size() != 1) {
    return -1;
  }
  const ScalarExpr& is = e.args[0];
  if (is.kind != ScalarKind::kCall || is.style != CallStyle::kPostfixIs ||
      is.func != "IS NULL" || is.args.size() != 1 || !is.args[0].IsColumn()) {
    return -1;
  }
  return is.args[0].column;
}

// Whether the read `a` (the other Union arm) is the read `p` (the join's
// probe) itself, or `p` before an IS NOT NULL filter on key columns (the
// probe filtered, the arm not).
std::optional<std::string> MatchRead(const GetRead* a, const GetRead* p,
                                     const std::vector<int>& key) {
  if (a == nullptr || p == nullptr) {
    return "the other Union arm and the join's probe are not both reads of "
           "one collection";
  }
  if (a->get->id != p->get->id) {
    return absl::StrCat("the other Union arm reads ", a->get->id.ToString(),
                        ", the join's probe ", p->get->id.ToString());
  }
  const bool a_arranged = a->get->kind == GetKind::kArrangement;
  const bool p_arranged = p->get->kind == GetKind::kArrangement;
  if (a_arranged != p_arranged ||
      (a_arranged && !SameIgnoringNames(a->get->key, p->get->key))) {
    // The MFPs would read different rows (SEMANTICS 8.3).
    return "the other Union arm and the join's probe read the collection "
           "through different layouts";
  }
  const MapFilterProject& arm_mfp = a->mfp;
  const MapFilterProject& probe_mfp = p->mfp;
  if (arm_mfp.project != probe_mfp.project || arm_mfp.map != probe_mfp.map ||
      arm_mfp.temporal != probe_mfp.temporal) {
    return "the other Union arm maps or projects the collection unlike the "
           "join's probe";
  }
  // The probe's filters are the arm's plus IS NOT NULL on key columns.
  std::vector<bool> used(probe_mfp.filter.size(), false);
  for (const ScalarExpr& f : arm_mfp.filter) {
    bool found = false;
    for (size_t i = 0; i < probe_mfp.filter.size() && !found; ++i) {
      if (!used[i] && SameIgnoringNames(f, probe_mfp.filter[i])) {
        used[i] = found = true;
      }
    }
    if (!found) return "the other Union arm filters what the probe does not";
  }
  for (size_t i = 0; i < probe_mfp.filter.size(); ++i) {
    if (used[i]) continue;
    const int column = NotNullColumn(probe_mfp.filter[i]);
    bool on_key = false;
    for (size_t j = 0; j < key.size() && column >= 0 && !on_key; ++j) {
      on_key = probe_mfp.ProjectedColumn(key[j]) == column ||
               (!probe_mfp.project.has_value() && key[j] == column);
    }
    if (!on_key) {
      return "the join's probe has a filter other than IS NOT NULL on the "
             "key";
    }
  }
  return std::nullopt;
}

// MatchRead on the arm and the probe as read, or as any pair of the reads
// their Let-bound Gets resolve to that reads one id (a probe that is a Let
// binding of the filtered base, beside an arm reading the base itself). The
// reason given is the one for the reads as printed.
std::optional<std::string> MatchProbe(const Node& arm, const Node& probe,
                                      const std::vector<int>& key,
                                      const LetValues& lets) {
  const std::vector<GetRead> arms = ReadsThroughLets(arm, lets);
  const std::vector<GetRead> probes = ReadsThroughLets(probe, lets);
  std::optional<std::string> why =
      MatchRead(arms.empty() ? nullptr : &arms[0],
                probes.empty() ? nullptr : &probes[0], key);
  if (!why.has_value()) return why;
  // Each chain reads every id at most once, so only the pair on a shared id
  // can match.
  std::map<std::string, const GetRead*> probe_by_id;
  for (const GetRead& p : probes) probe_by_id.emplace(p.get->id.ToString(), &p);
  for (const GetRead& a : arms) {
    auto p = probe_by_id.find(a.get->id.ToString());
    if (p != probe_by_id.end() && !MatchRead(&a, p->second, key).has_value()) {
      return std::nullopt;
    }
  }
  return why;
}

}  // namespace

bool IsSemijoinAntiSide(const Node& node) {
  if (!node.Is<UnionOp>() || node.inputs.size() != 2) return false;
  for (const NodePtr& arm : node.inputs) {
    if (arm->Is<NegateOp>() && arm->inputs.size() == 1 &&
        arm->inputs[0]->Is<JoinOp>()) {
      return true;
    }
  }
  return false;
}

AntiJoinDecision DecideSemijoinAntiSide(const Node& union_node,
                                        CandidateContext& ctx) {
  const size_t negated = union_node.inputs[0]->Is<NegateOp>() &&
                                 union_node.inputs[0]->inputs[0]->Is<JoinOp>()
                             ? 0
                             : 1;
  const Node& other = *union_node.inputs[1 - negated];
  const Node& join = *union_node.inputs[negated]->inputs[0];
  if (join.inputs.size() != 2) {
    return Decline(kNegatedArmNotSemijoin,
                   absl::StrCat("the negated Join has ", join.inputs.size(),
                                " inputs, not 2"));
  }
  if (join.unknown.Has(UnknownFact::kJoinClosures) ||
      join.unknown.Has(UnknownFact::kStreamKeys)) {
    // A partial plan (concise text): a closure that only projects is not
    // shown, and it decides which columns the Join outputs.
    return Decline(kNegatedArmNotSemijoin,
                   "the concise form does not show the Join's stream keys "
                   "and projection-only closures, which decide its output "
                   "columns; read the plan from EXPLAIN ... AS VERBOSE TEXT");
  }
  const auto& arity = ctx.analyses.Arity();
  const interp::Arity* a0 = arity.ok() ? arity->Find(*join.inputs[0]) : nullptr;
  const interp::Arity* a1 = arity.ok() ? arity->Find(*join.inputs[1]) : nullptr;
  if (a0 == nullptr || a1 == nullptr || !a0->known() || !a1->known()) {
    return Decline(kNegatedArmNotSemijoin,
                   "the arities of the Join's inputs are not known");
  }
  const int arities[2] = {a0->value, a1->value};
  Semijoin semijoin;
  std::optional<std::string> why0 = MatchSemijoin(join, arities, 0, &semijoin);
  if (why0.has_value()) {
    std::optional<std::string> why1 =
        MatchSemijoin(join, arities, 1, &semijoin);
    if (why1.has_value()) {
      return Decline(kNegatedArmNotSemijoin,
                     absl::StrCat("not a semijoin of input 0 (", *why0,
                                  ") nor of input 1 (", *why1, ")"));
    }
  }
  const Node& probe = *join.inputs[semijoin.probe];
  const Node& keys = *join.inputs[1 - semijoin.probe];
  const auto& unique = ctx.analyses.UniqueKeys();
  const interp::UniqueKeys* keys_unique =
      unique.ok() ? unique->Find(keys) : nullptr;
  if (keys_unique == nullptr || keys_unique->keys.empty()) {
    return Decline(kKeysNotDistinct,
                   absl::StrCat(DescribeNode(keys),
                                " (the join's other input) has no proven "
                                "unique key"),
                   "keys");
  }
  if (auto why = MatchProbe(other, probe, semijoin.key,
                            LetValuesInScope(ctx.ancestors, union_node))) {
    return Decline(kBaseNotProbe, std::move(*why), "base");
  }
  // What the anti-side builds now: the join's own arrangements and its
  // ArrangeBy inputs'. A two-input join builds only its inputs'
  // arrangements by the join key (JoinLookup, JoinStage), and differential's
  // antijoin reads exactly those two (P and K by the key), so it would build
  // the same number.
  const auto& built = ctx.analyses.ArrangementsBuilt();
  if (!built.ok()) {
    return Decline(kNoArrangementSaving,
                   absl::StrCat("the anti-side is already an antijoin in all "
                                "but name (its arrangements could not be "
                                "counted: ",
                                built.status().message(), ")"));
  }
  size_t now = interp::BuiltBy(*built, join).built.size();
  for (const NodePtr& input : join.inputs) {
    if (input->Is<ArrangeByOp>()) {
      now += interp::BuiltBy(*built, *input).built.size();
    }
  }
  const size_t as_antijoin = now;
  AntiJoinDecision declined = Decline(
      kNoArrangementSaving,
      absl::StrCat("the anti-side is already an antijoin in all but name: "
                   "the join and its ArrangeBy inputs build ",
                   now, " arrangement", now == 1 ? "" : "s",
                   "; an antijoin reads the same arrangements of the probe "
                   "and the keys by the key, so it would build ",
                   as_antijoin));
  declined.details = {{kArrangementsNowField, now},
                      {kArrangementsAsAntiJoinField, as_antijoin},
                      {kSavesField, static_cast<int64_t>(now) -
                                        static_cast<int64_t>(as_antijoin)}};
  return declined;
}

}  // namespace lir
