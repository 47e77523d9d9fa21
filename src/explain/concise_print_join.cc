// The concise Join header and closure blocks
// (../shared/reference/CONCISE-FORMAT.md section 6, Join; Materialize's
// `fmt_join_chain`, `humanize_input_name` and the `fmt_default_text` of
// LinearJoinPlan, DeltaJoinPlan, DeltaPathPlan and JoinClosure in
// compute-types/src/explain/text.rs).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/explain/concise_printer_internal.h"
#include "src/explain/text_primitives.h"
#include "src/explain/text_printer_internal.h"

namespace lir::explain::internal {
namespace {

// `%pos:name` when a Get is found under `input` looking only through
// ArrangeBy and Mfp (humanize_input_name), else `%pos`. A global name is
// printed unqualified: its item, the text after the last `.` (lir keeps
// only the printed qualified name, so an item whose own name holds a dot
// is cut there too). The walk is a loop: plans may be deep.
std::string InputLabel(const Node& node, int position) {
  std::string label = absl::StrCat("%", position);
  if (position < 0 || static_cast<size_t>(position) >= node.inputs.size()) {
    return label;
  }
  const Node* input = node.inputs[static_cast<size_t>(position)].get();
  while ((input->Is<ArrangeByOp>() || input->Is<MfpOp>()) &&
         !input->inputs.empty()) {
    input = input->inputs[0].get();
  }
  if (const GetOp* get = input->If<GetOp>()) {
    if (get->id.is_local) {
      absl::StrAppend(&label, ":", get->id.ToString());
    } else {
      const std::string& name = get->id.global;
      const size_t dot = name.rfind('.');
      absl::StrAppend(&label, ":",
                      dot == std::string::npos ? name : name.substr(dot + 1));
    }
  }
  return label;
}

// `[#0{a}, #1]`, or `[×]` for the empty key (a cross product).
std::string KeyBrackets(const std::vector<ScalarExpr>& key) {
  if (key.empty()) return "[×]";
  return absl::StrCat("[", PrintCompactScalars(key), "]");
}

// `%0:t[#0] » %1:u[#0] » %2[×]`: the source (bracketed iff it is read
// arranged), then every stage's lookup relation and key in stage order.
std::string Chain(const Node& node, const JoinPath& path) {
  std::string chain = InputLabel(node, path.source_relation);
  if (path.source_key.has_value()) {
    absl::StrAppend(&chain, KeyBrackets(*path.source_key));
  }
  for (const JoinStage& stage : path.stages) {
    absl::StrAppend(&chain, " » ", InputLabel(node, stage.lookup_relation),
                    KeyBrackets(stage.lookup_key));
  }
  return chain;
}

// JoinClosure::maps_or_filters: a closure that only projects is not shown.
bool MapsOrFilters(const JoinClosure& closure) {
  return !closure.mfp.map.empty() || !closure.mfp.filter.empty() ||
         !closure.ready_equivalences.empty();
}

bool MapsOrFilters(const std::optional<JoinClosure>& closure) {
  return closure.has_value() && MapsOrFilters(*closure);
}

// `label` at `level`, then the closure's MFP lines (when not the identity)
// and `Equivalences:` one deeper.
void Closure(std::string& out, int level, absl::string_view label,
             const JoinClosure& closure) {
  AppendLine(out, level, label);
  AppendConciseMfp(out, level + 1, closure.mfp, /*with_temporal=*/false);
  if (!closure.ready_equivalences.empty()) {
    std::vector<std::string> classes;
    for (const std::vector<ScalarExpr>& cls : closure.ready_equivalences) {
      std::vector<std::string> members;
      for (const ScalarExpr& e : cls) members.push_back(PrintExpr(e));
      classes.push_back(absl::StrJoin(members, " = "));
    }
    AppendLine(out, level + 1,
               absl::StrCat("Equivalences: ", absl::StrJoin(classes, " AND ")));
  }
}

// The stage closures (`after %<lookup relation>:`, stage order) and the
// final closure of one path; the initial closure is never shown.
void PathClosures(std::string& out, int level, const JoinPath& path) {
  for (const JoinStage& stage : path.stages) {
    if (MapsOrFilters(stage.closure)) {
      Closure(out, level, absl::StrCat("after %", stage.lookup_relation, ":"),
              *stage.closure);
    }
  }
  if (MapsOrFilters(path.final_closure)) {
    Closure(out, level, "Final closure:", *path.final_closure);
  }
}

bool HasCrossStage(const JoinOp& join) {
  for (const JoinPath& path : join.paths) {
    for (const JoinStage& stage : path.stages) {
      if (stage.lookup_key.empty()) return true;
    }
  }
  return false;
}

}  // namespace

std::string ConciseJoinHeader(const Node& node, const JoinOp& join) {
  // `Cross` looks at the stages' lookup keys only: a `[×]` source does not
  // make a cross join.
  const bool cross = HasCrossStage(join);
  if (!join.delta) {
    std::string header =
        cross ? "→Differential Cross Join " : "→Differential Join ";
    if (!join.paths.empty()) {
      absl::StrAppend(&header, Chain(node, join.paths[0]));
    }
    return header;
  }
  // A single path survives only in a one-shot (single-time) plan.
  const bool one_shot = join.paths.size() == 1;
  std::string header = absl::StrCat("→", one_shot ? "One-Shot " : "",
                                    cross ? "Delta Cross Join" : "Delta Join");
  for (const JoinPath& path : join.paths) {
    absl::StrAppend(&header, " [", Chain(node, path), "]");
  }
  return header;
}

void AppendConciseJoinClosures(std::string& out, int level,
                               const JoinOp& join) {
  if (!join.delta) {
    if (!join.paths.empty()) PathClosures(out, level, join.paths[0]);
    return;
  }
  for (const JoinPath& path : join.paths) {
    bool shown = MapsOrFilters(path.final_closure);
    for (const JoinStage& stage : path.stages) {
      shown |= MapsOrFilters(stage.closure);
    }
    if (!shown) continue;
    AppendLine(out, level, absl::StrCat("path %", path.source_relation, ":"));
    PathClosures(out, level + 1, path);
  }
}

}  // namespace lir::explain::internal
