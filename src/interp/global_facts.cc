// What a plan shows about the global collections it reads, against what a
// catalog or --arity says of them (include/lir/interp/global_facts.h).
#include "lir/interp/global_facts.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/arity.h"
#include "lir/interp/arity.h"
#include "lir/scalar.h"
#include "lir/validate.h"

namespace lir::interp {
namespace {

// Calls `fn(node, get)` for every Get of a global collection in `plan`.
template <typename Fn>
void ForEachGlobalGet(const Node& plan, Fn&& fn) {
  ForEachPreOrder(plan, [&](const Node& node, int) {
    if (const GetOp* get = node.If<GetOp>(); get && !get->id.is_local) {
      fn(node, *get);
    }
  });
}

std::string ArityOrigin(const AnalysisInputs& inputs, const std::string& name,
                        int arity) {
  auto it = inputs.global_arity_origin.find(name);
  if (it != inputs.global_arity_origin.end()) return it->second;
  return absl::StrCat("the arity given for ", name, " (", arity, ")");
}

std::string KeysOrigin(const AnalysisInputs& inputs, const std::string& name) {
  auto it = inputs.global_keys_origin.find(name);
  if (it != inputs.global_keys_origin.end()) return it->second;
  return absl::StrCat("the unique keys given for ", name);
}

// The least input arity `mfp` fits, less one: a map expression i (and
// each filter and projection after all of them) may read the input's
// columns and the map columns before it, so a reference to column c needs
// an input of c + 1 - (the map columns before it) columns.
int MaxInputColumn(const MapFilterProject& mfp) {
  int max = -1;
  const int maps = static_cast<int>(mfp.map.size());
  auto read = [&](const ScalarExpr& e, int maps_before) {
    const int column = MaxColumn(e);
    if (column >= 0) max = std::max(max, column - maps_before);
  };
  for (int i = 0; i < maps; ++i) read(mfp.map[i], i);
  for (const ScalarExpr& f : mfp.filter) read(f, maps);
  if (mfp.project.has_value()) {
    for (int c : *mfp.project) max = std::max(max, c - maps);
  }
  if (mfp.temporal.has_value()) {
    for (const ScalarExpr& e : mfp.temporal->lower) read(e, maps);
    for (const ScalarExpr& e : mfp.temporal->upper) read(e, maps);
  }
  return max;
}

// A Source block reading past the arity given for its collection.
absl::Status CheckSourceBlocks(const Document& doc,
                               const AnalysisInputs& inputs,
                               const std::string& plan_name) {
  for (const SourceBlock& block : doc.sources) {
    auto given = inputs.global_arity.find(block.name);
    if (given == inputs.global_arity.end()) continue;
    // (Its pushdown predicates restate filters; the filters are checked.)
    const int needs = MaxInputColumn(block.mfp) + 1;
    if (needs > given->second) {
      return absl::InvalidArgumentError(
          absl::StrCat(ArityOrigin(inputs, block.name, given->second), "; ",
                       plan_name, ": Source ", block.name, " reads ", needs,
                       " columns of the collection"));
    }
  }
  return absl::OkStatus();
}

// The given arities (as the Gets see them) that make the plan invalid: the
// first one that does alone, else all of them together.
absl::Status CheckGivenArities(const Document& doc,
                               const AnalysisInputs& inputs,
                               const std::set<std::string>& read,
                               const std::string& plan_name) {
  std::map<std::string, int> given;
  for (const auto& [name, arity] : inputs.global_arity) {
    if (read.contains(name)) given.emplace(name, arity);
  }
  if (given.empty()) return absl::OkStatus();
  const std::map<std::string, int> seen = GlobalAritiesSeenByGets(doc, given);
  ValidateOptions all;
  for (const auto& [name, arity] : seen) {
    if (given.contains(name)) all.global_arity.emplace(name, arity);
  }
  absl::Status together = Validate(doc, all);
  if (together.ok()) return together;
  for (const auto& [name, arity] : all.global_arity) {
    ValidateOptions one;
    one.global_arity.emplace(name, arity);
    absl::Status alone = Validate(doc, one);
    if (!alone.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(ArityOrigin(inputs, name, given.at(name)), "; ",
                       plan_name, ": ", std::string(alone.message())));
    }
  }
  // Only the arities together contradict the plan (e.g. two collections'
  // Gets as arms of one Union): every one is named.
  std::vector<std::string> origins;
  for (const auto& [name, arity] : given) {
    origins.push_back(ArityOrigin(inputs, name, arity));
  }
  return absl::InvalidArgumentError(
      absl::StrCat(absl::StrJoin(origins, "; "), "; ", plan_name, ": ",
                   std::string(together.message())));
}

// The arity of a collection's own row the plan shows, and the node showing
// it: a Get's advertised arrangement, or a Get that outputs the row as read.
// Only collections without a projecting Source block (a projection hides
// the row's width from the Gets).
struct ShownArity {
  int arity = 0;
  std::string where;
};

std::map<std::string, ShownArity> ShownArities(const Document& doc) {
  std::set<std::string> projected;
  for (const SourceBlock& block : doc.sources) {
    if (block.mfp.project.has_value()) projected.insert(block.name);
  }
  std::map<std::string, ShownArity> shown;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    // Valid (the caller checked), so this succeeds.
    absl::StatusOr<std::map<LirId, std::optional<int>>> inferred =
        InferArities(*object.plan);
    ForEachGlobalGet(*object.plan, [&](const Node& node, const GetOp& get) {
      if (projected.contains(get.id.global) || shown.contains(get.id.global)) {
        return;
      }
      const std::string where = absl::StrCat(object.name, ": LirId(", node.id,
                                             ") Get ", get.id.global);
      for (const ArrangementForm& form : get.keys.arranged) {
        const Arity described = DescribedArity(form);
        if (described.known()) {
          shown[get.id.global] = {
              described.value,
              absl::StrCat(where, " advertises an arrangement of ",
                           described.value, " columns")};
          return;
        }
      }
      const bool reads_row =
          get.kind == GetKind::kPassArrangements ||
          (get.kind == GetKind::kCollection && get.mfp.IsIdentity());
      if (!reads_row || !inferred.ok()) return;
      auto it = inferred->find(node.id);
      if (it != inferred->end() && it->second.has_value()) {
        shown[get.id.global] = {
            *it->second,
            absl::StrCat(where, " outputs ", *it->second, " columns")};
      }
    });
  }
  return shown;
}

// Unique keys on columns the plan shows the collection does not have.
absl::Status CheckGivenKeys(const Document& doc, const AnalysisInputs& inputs,
                            const std::set<std::string>& read,
                            const std::string& plan_name) {
  bool any = false;
  for (const auto& [name, keys] : inputs.global_unique_keys) {
    any = any || (read.contains(name) && !inputs.global_arity.contains(name));
  }
  if (!any) return absl::OkStatus();
  const std::map<std::string, ShownArity> shown = ShownArities(doc);
  for (const auto& [name, keys] : inputs.global_unique_keys) {
    if (inputs.global_arity.contains(name)) continue;
    auto arity = shown.find(name);
    if (arity == shown.end()) continue;
    for (const std::vector<int>& key : keys) {
      for (int c : key) {
        if (c >= arity->second.arity) {
          return absl::InvalidArgumentError(absl::StrCat(
              KeysOrigin(inputs, name), ": unique key column ", c,
              " is not below the arity ", arity->second.arity,
              " the plan shows; ", plan_name, ": ", arity->second.where));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckGlobalFacts(const Document& doc, const AnalysisInputs& inputs,
                              std::string_view plan_name) {
  if (inputs.global_arity.empty() && inputs.global_unique_keys.empty()) {
    return absl::OkStatus();
  }
  // What a plan invalid on its own shows is no evidence against the facts.
  if (!Validate(doc).ok()) return absl::OkStatus();
  std::set<std::string> read;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachGlobalGet(*object.plan, [&](const Node&, const GetOp& get) {
      read.insert(get.id.global);
    });
  }
  const std::string plan(plan_name);
  if (absl::Status s = CheckSourceBlocks(doc, inputs, plan); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckGivenArities(doc, inputs, read, plan); !s.ok()) {
    return s;
  }
  return CheckGivenKeys(doc, inputs, read, plan);
}

}  // namespace lir::interp
