// The generator's joins. A linear join follows one path whose stages and
// closures may reshape the stream freely. A delta join has one path per
// input that must all compute the same rows in the same layout (the
// snapshot engine runs path 0 only; the incremental engine streams every
// input's changes through its own path), so its paths are derived from one
// description: a star equi-join on one key column per input, predicates over
// the inputs' columns applied as soon as a path has joined what they read,
// and one output projection.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/support/eval_plan_fuzz_internal.h"

namespace lir::test::fuzz {

namespace {

Lines ClosureBlock(const std::string& label, const MfpSpec& spec) {
  if (spec.IsIdentity()) return {};
  Lines out = {label};
  Append(out, Indent(spec.ToLines(), 2));
  return out;
}

// The `lookup=` and `stream=` lines of a stage.
void StageKeys(const std::vector<int>& lookup_key, int relation,
               const std::vector<int>& stream_key,
               const std::vector<int>& thinning, Lines* out) {
  out->push_back(absl::StrCat("  lookup={ relation=", relation, ", key=[",
                              Positions(lookup_key), "] }"));
  out->push_back(absl::StrCat("  stream={ key=[", Positions(stream_key),
                              "], thinning=(", Positions(thinning), ") }"));
}

}  // namespace

Sub FuzzGenerator::LinearJoin(int depth) {
  Count("Join::Linear");
  ++joins_;
  const int n = dice_.Chance(25) ? 3 : 2;
  std::vector<Sub> in;
  // Joins of joins of filtered inputs are mostly empty: inputs are
  // sometimes shallower.
  for (int i = 0; i < n; ++i) in.push_back(Gen(depth - 1 - dice_.Below(3)));
  const int source = dice_.Below(n);
  std::vector<int> order;
  for (int j = 0; j < n; ++j) {
    if (j != source) order.push_back(j);
  }
  dice_.Shuffle(order);

  Schema stream = in[source].schema;
  MfpSpec initial;
  if (dice_.Chance(20)) {
    initial = RandomMfp(dice_, exprs_, stream, {1, 1, 40});
    stream = initial.Output(stream);
  }
  std::optional<std::vector<int>> source_key;
  std::vector<std::vector<int>> lookup_keys(n);
  Lines stages;
  for (size_t i = 0; i < order.size(); ++i) {
    const int j = order[i];
    const Schema& look = in[j].schema;
    // Equi-join on columns of equal type; sometimes none (a cross join) or
    // two.
    std::vector<std::pair<int, int>> pairs;
    for (size_t a = 0; a < stream.size(); ++a) {
      for (size_t c = 0; c < look.size(); ++c) {
        if (stream[a] == look[c] && stream[a] != Type::kBool) {
          pairs.emplace_back(static_cast<int>(a), static_cast<int>(c));
        }
      }
    }
    dice_.Shuffle(pairs);
    const size_t width = pairs.empty() || dice_.Chance(7) ? 0
                         : dice_.Chance(10)               ? 2
                                                          : 1;
    std::vector<int> stream_key, lookup_key;
    for (const auto& [a, c] : pairs) {
      if (stream_key.size() == width) break;
      if (std::find(stream_key.begin(), stream_key.end(), a) !=
              stream_key.end() ||
          std::find(lookup_key.begin(), lookup_key.end(), c) !=
              lookup_key.end()) {
        continue;
      }
      stream_key.push_back(a);
      lookup_key.push_back(c);
    }
    if (width == 0) Count("Join::Linear cross stage");
    if (i == 0 && initial.IsIdentity() && !stream_key.empty() &&
        dice_.Chance(70)) {
      // The source relation's arrangement serves as the first stream.
      source_key = stream_key;
    }
    const int arity = static_cast<int>(stream.size());
    const std::vector<int> thinning = ValueColumns(stream_key, arity);
    const std::vector<int> values =
        ValueColumns(lookup_key, static_cast<int>(look.size()));
    // The row the closure sees: key, stream values, lookup values.
    Schema joined;
    for (int a : stream_key) joined.push_back(stream[a]);
    for (int a : thinning) joined.push_back(stream[a]);
    for (int c : values) joined.push_back(look[c]);
    MfpSpec closure;
    if (dice_.Chance(35))
      closure = RandomMfp(dice_, exprs_, joined, {1, 1, 60});
    stream = closure.Output(joined);
    Lines stage = {absl::StrCat("linear_stage[", i, "]")};
    Append(stage, Indent(ClosureBlock("closure", closure), 2));
    StageKeys(lookup_key, j, stream_key, thinning, &stage);
    Append(stages, stage);
    lookup_keys[j] = lookup_key;
  }
  if (!source_key.has_value() && dice_.Chance(30)) {
    source_key = std::vector<int>{
        dice_.Below(static_cast<int>(in[source].schema.size()))};
  }
  MfpSpec final_closure;
  if (dice_.Chance(45))
    final_closure = RandomMfp(dice_, exprs_, stream, {1, 1, 70});

  for (int j = 0; j < n; ++j) {
    if (j != source && !lookup_keys[j].empty() && dice_.Chance(50)) {
      in[j] = WrapArrange(std::move(in[j]), {lookup_keys[j]});
    }
  }
  if (source_key.has_value() && dice_.Chance(50)) {
    in[source] = WrapArrange(std::move(in[source]), {*source_key});
  }
  Sub out;
  out.lines = {"Join::Linear"};
  Append(out.lines, Indent(ClosureBlock("final_closure", final_closure), 2));
  Append(out.lines, Indent(stages, 2));
  Append(out.lines, Indent(ClosureBlock("initial_closure", initial), 2));
  out.lines.push_back(
      source_key.has_value()
          ? absl::StrCat("  source={ relation=", source, ", key=[",
                         Positions(*source_key), "] }")
          : absl::StrCat("  source={ relation=", source, ", raw }"));
  for (const Sub& s : in) {
    Append(out.lines, Indent(s.lines, 2));
    out.may_be_negative = out.may_be_negative || s.may_be_negative;
  }
  out.schema = final_closure.Output(stream);
  return out;
}

Sub FuzzGenerator::DeltaJoin(int depth) {
  Count("Join::Delta");
  ++joins_;
  const int n = dice_.Chance(30) ? 3 : 2;
  std::vector<Sub> in;
  for (int i = 0; i < n; ++i) in.push_back(Gen(depth - 1 - dice_.Below(3)));
  // Key on a type every input has, if there is one: a key column the
  // join had to map in is mostly a constant that matches nothing.
  std::vector<Type> shared;
  for (Type t : {Type::kInt, Type::kStr}) {
    bool everywhere = true;
    for (const Sub& s : in)
      everywhere = everywhere && !ColumnsOf(s.schema, t).empty();
    if (everywhere) shared.push_back(t);
  }
  Type key_type = dice_.Chance(80) ? Type::kInt : Type::kStr;
  if (!shared.empty() &&
      std::find(shared.begin(), shared.end(), key_type) == shared.end()) {
    key_type = shared[0];
  }
  std::vector<int> key(n), offset(n);
  Schema canonical;  // every input's columns, input 0 first
  std::vector<int> relation_of;
  for (int i = 0; i < n; ++i) {
    in[i] = RequireType(std::move(in[i]), key_type);
    key[i] = dice_.Pick(ColumnsOf(in[i].schema, key_type));
    offset[i] = static_cast<int>(canonical.size());
    for (Type t : in[i].schema) {
      canonical.push_back(t);
      relation_of.push_back(i);
    }
  }
  std::vector<Expr> predicates;
  std::vector<std::set<int>> reads;  // the relations each predicate reads
  for (int p = dice_.Below(3); p > 0; --p) {
    predicates.push_back(exprs_.Predicate(canonical, 1));
    std::set<int> columns, relations;
    CollectColumns(predicates.back(), &columns);
    for (int c : columns) relations.insert(relation_of[c]);
    reads.push_back(std::move(relations));
  }
  std::vector<int> output = AllColumns(canonical.size());
  if (dice_.Chance(65)) {
    std::vector<int> some;
    for (int c : output) {
      if (dice_.Chance(60)) some.push_back(c);
    }
    if (some.empty())
      some.push_back(dice_.Below(static_cast<int>(output.size())));
    dice_.Shuffle(some);
    output = std::move(some);
  }
  // Materialize prints every path; one-shot plans print only path 0, which
  // the incremental engine runs through its recompute adapter.
  const int paths = dice_.Chance(90) ? n : 1;
  if (paths == 1) Count("Join::Delta single path (adapter)");

  Sub out;
  out.lines = {"Join::Delta"};
  for (int p = 0; p < paths; ++p) {
    // Per stream column, the canonical columns it holds (the key column
    // holds every joined input's key).
    // A keyed source starts from its arrangement's layout row
    // (../shared/reference/SEMANTICS.md 8.4): the key column, then the others
    // in order.
    const bool raw_source = paths == 1 && dice_.Chance(50);
    std::vector<std::set<int>> stream;
    if (!raw_source) stream.push_back({offset[p] + key[p]});
    for (size_t c = 0; c < in[p].schema.size(); ++c) {
      if (!raw_source && static_cast<int>(c) == key[p]) continue;
      stream.push_back({offset[p] + static_cast<int>(c)});
    }
    std::set<int> joined = {p};
    std::vector<bool> applied(predicates.size(), false);
    auto remap = [&]() {
      std::vector<int> m(canonical.size(), -1);
      for (size_t pos = 0; pos < stream.size(); ++pos) {
        for (int c : stream[pos]) {
          if (m[c] < 0) m[c] = static_cast<int>(pos);
        }
      }
      return m;
    };
    // The filter lines of the predicates this point of the path can apply.
    auto ready = [&](const std::vector<int>& m) {
      std::vector<std::string> parts;
      for (size_t q = 0; q < predicates.size(); ++q) {
        if (applied[q]) continue;
        if (!std::includes(joined.begin(), joined.end(), reads[q].begin(),
                           reads[q].end())) {
          continue;
        }
        applied[q] = true;
        parts.push_back(Render(predicates[q], &m));
      }
      return parts;
    };
    auto closure = [&](const std::string& label, const std::vector<int>& m,
                       const std::vector<std::string>& filters, bool project) {
      std::vector<int> projected;
      for (int c : output) projected.push_back(m[c]);
      const bool identity = projected == AllColumns(stream.size());
      Lines block;
      if (project && !identity) {
        block.push_back(absl::StrCat("project=(", Positions(projected), ")"));
      }
      if (!filters.empty()) {
        block.push_back(
            absl::StrCat("filter=(", absl::StrJoin(filters, " AND "), ")"));
      }
      if (block.empty()) return Lines{};
      Lines lines = {label};
      Append(lines, Indent(block, 2));
      return lines;
    };
    const std::vector<std::string> initial = ready(remap());
    Lines initial_lines = closure("initial_closure", remap(), initial, false);
    std::vector<int> order;
    for (int j = 0; j < n; ++j) {
      if (j != p) order.push_back(j);
    }
    dice_.Shuffle(order);
    const bool project_in_last_stage = dice_.Chance(50);
    std::vector<Lines> stages;
    for (size_t s = 0; s < order.size(); ++s) {
      const int j = order[s];
      int key_position = 0;
      for (size_t pos = 0; pos < stream.size(); ++pos) {
        if (stream[pos].count(offset[p] + key[p]) > 0) {
          key_position = static_cast<int>(pos);
        }
      }
      const std::vector<int> thinning =
          ValueColumns({key_position}, static_cast<int>(stream.size()));
      std::vector<std::set<int>> next = {stream[key_position]};
      next[0].insert(offset[j] + key[j]);
      for (int c : thinning) next.push_back(stream[c]);
      for (int c :
           ValueColumns({key[j]}, static_cast<int>(in[j].schema.size()))) {
        next.push_back({offset[j] + c});
      }
      stream = std::move(next);
      joined.insert(j);
      const std::vector<int> m = remap();
      const bool last = s + 1 == order.size();
      Lines stage = {absl::StrCat("delta_stage[", s, "]")};
      Append(stage, Indent(closure("closure", m, ready(m),
                                   last && project_in_last_stage),
                           2));
      Lines keys;
      StageKeys({key[j]}, j, {key_position}, thinning, &keys);
      Append(stage, keys);
      stages.push_back(std::move(stage));
    }
    Lines path = {absl::StrCat("plan_path[", p, "]")};
    if (!project_in_last_stage) {
      Append(path, Indent(closure("final_closure", remap(), {}, true), 2));
    }
    // Delta stages print in descending order.
    for (size_t s = stages.size(); s-- > 0;) Append(path, Indent(stages[s], 2));
    Append(path, Indent(initial_lines, 2));
    path.push_back(raw_source
                       ? absl::StrCat("  source={ relation=", p, ", raw }")
                       : absl::StrCat("  source={ relation=", p, ", key=[#",
                                      key[p], "] }"));
    Append(out.lines, Indent(path, 2));
  }
  for (int i = 0; i < n; ++i) {
    if (dice_.Chance(70)) in[i] = WrapArrange(std::move(in[i]), {{key[i]}});
    Append(out.lines, Indent(in[i].lines, 2));
    out.may_be_negative = out.may_be_negative || in[i].may_be_negative;
  }
  for (int c : output) out.schema.push_back(canonical[c]);
  return out;
}

}  // namespace lir::test::fuzz
