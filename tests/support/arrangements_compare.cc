// The comparison of the arrangement accounting with the evaluator's listing.
#include "tests/support/arrangements_compare.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/interp/arrangements_built.h"
#include "lir/interp/driver.h"

namespace lir::test {

using Names = std::vector<std::string>;

// Compares the analysis of `doc` with `listed`, the evaluator's listing of
// a run of it: per object and LirId, the built arrangements by name (as
// multisets); per object, the imported indexes; and every Index entry's
// LirId must be a Get the analysis says reads it.
Comparison Compare(const Document& doc,
                   const interp::DocumentAnalysis& analysis,
                   const std::vector<eval::ArrangementStats>& listed) {
  Comparison out;
  std::set<std::pair<std::string, LirId>> adapters;
  std::map<std::pair<std::string, LirId>, Names> evaluated;
  std::map<std::string, std::map<std::string, LirId>> evaluated_imports;
  for (const eval::ArrangementStats& stats : listed) {
    if (stats.adapter) {
      adapters.insert({stats.object, stats.lir_id});
    } else if (absl::StartsWith(stats.operator_name, "Index ")) {
      evaluated_imports[stats.object][stats.operator_name] = stats.lir_id;
    } else {
      evaluated[{stats.object, stats.lir_id}].push_back(stats.operator_name);
    }
  }
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    std::set<std::string> imports;
    std::map<std::string, std::set<LirId>> readers;
    // Pre-order, with the depth below which the nodes are adapted (the
    // subtree of an adapted LetRec) and, per adapter root, what the
    // analysis says its nodes build.
    int adapted_below = -1;
    struct AdaptedRoot {
      std::string at;
      uint64_t nodes = 0;
      Names built;
      uint64_t imported = 0;
    };
    std::vector<AdaptedRoot> roots;
    ForEachPreOrder(*object.plan, [&](const Node& node, int depth) {
      if (adapted_below >= 0 && depth <= adapted_below) adapted_below = -1;
      const std::pair<std::string, LirId> where{object.name, node.id};
      const bool adapter = adapters.count(where) > 0;
      const std::string at =
          absl::StrCat(object.name, " LirId(", node.id, ") ", HeaderName(node));
      // A Join::Delta without a path from every input runs in an adapter
      // too, but its inputs are native and it builds nothing natively
      // either (its lookups read its inputs' arrangements): compared.
      if (adapter && adapted_below < 0 && node.Is<LetRecOp>()) {
        roots.push_back(
            AdaptedRoot{.at = at, .nodes = 0, .built = {}, .imported = 0});
        adapted_below = depth;
      }
      const interp::ArrangementsBuilt& own = analysis.BuiltBy(node);
      Names expected = own.built;
      std::sort(expected.begin(), expected.end());
      Names got;
      if (auto it = evaluated.find(where); it != evaluated.end()) {
        got = it->second;
        evaluated.erase(it);
      }
      std::sort(got.begin(), got.end());
      if (adapted_below >= 0) {
        // Not run natively: nothing to compare but that the evaluator
        // lists no dataflow arrangement for it.
        ++out.adapted_nodes;
        ++roots.back().nodes;
        roots.back().built.insert(roots.back().built.end(), expected.begin(),
                                  expected.end());
        roots.back().imported += own.imported.size();
        if (!got.empty()) {
          out.differences.push_back(
              absl::StrCat(at, ": run by a recompute adapter, yet lists ",
                           absl::StrJoin(got, ", ")));
        }
        return;
      }
      ++out.nodes;
      out.arrangements += expected.size();
      if (expected != got) {
        out.differences.push_back(
            absl::StrCat(at, ": analysis [", absl::StrJoin(expected, ", "),
                         "], evaluator [", absl::StrJoin(got, ", "), "]"));
      }
      for (const std::string& name : own.imported) {
        imports.insert(name);
        readers[name].insert(node.id);
      }
    });
    for (const AdaptedRoot& root : roots) {
      out.adapted.push_back(absl::StrCat(
          root.at, " (", root.nodes, " node", root.nodes == 1 ? "" : "s",
          "): the analysis says it builds ", root.built.size(), " [",
          absl::StrJoin(root.built, ", "), "] and imports ", root.imported));
    }
    std::set<std::string> got_imports;
    for (const auto& entry : evaluated_imports[object.name]) {
      got_imports.insert(entry.first);
      auto reader = readers.find(entry.first);
      if (reader != readers.end() && reader->second.count(entry.second) == 0) {
        out.differences.push_back(absl::StrCat(
            object.name, ": ", entry.first, " listed at LirId(", entry.second,
            "), which the analysis does not say reads it"));
      }
    }
    out.imports += imports.size();
    if (imports != got_imports) {
      out.differences.push_back(absl::StrCat(
          object.name, ": imports: analysis [", absl::StrJoin(imports, ", "),
          "], evaluator [", absl::StrJoin(got_imports, ", "), "]"));
    }
  }
  for (const auto& entry : evaluated) {
    out.differences.push_back(absl::StrCat(
        entry.first.first, " LirId(", entry.first.second,
        "): the evaluator lists [", absl::StrJoin(entry.second, ", "),
        "] for a node the document does not have"));
  }
  return out;
}

}  // namespace lir::test
