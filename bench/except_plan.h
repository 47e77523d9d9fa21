// The EXCEPT A/B's plan, shared by bench/eval_bench.cc (the fused
// set-difference A/B) and bench/spine_plan_bench.cc (the spine A/B on it):
// Materialize's verbose plan for `SELECT k FROM a EXCEPT SELECT k FROM b`,
// and the names its arrangements get in the reports.
#ifndef LIR_BENCH_EXCEPT_PLAN_H_
#define LIR_BENCH_EXCEPT_PLAN_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/eval/dataflow.h"
#include "lir/node.h"

namespace lir_bench {

inline constexpr char kA[] = "materialize.public.a";
inline constexpr char kB[] = "materialize.public.b";

// Materialize's verbose plan for the EXCEPT: distinct legs, both arms
// arranged by #0, the subtracted arm negated.
inline constexpr char kPlanText[] = R"(Explained Query:
  Threshold::Basic ensure_arrangement={ key=[#0], permutation=id, thinning=() }
    ArrangeBy
      raw=false
      arrangements[0]={ key=[#0], permutation=id, thinning=() }
      Union consolidate_output=true
        ArrangeBy
          input_key=[#0]
          raw=true
          Reduce::Distinct
            key_plan=id
            val_plan
              project=()
            Get::Collection materialize.public.a
              project=(#0)
              raw=true
        Negate
          ArrangeBy
            input_key=[#0]
            raw=true
            Reduce::Distinct
              key_plan=id
              val_plan
                project=()
              Get::Collection materialize.public.b
                project=(#0)
                raw=true

Source materialize.public.a
  project=(#0)
Source materialize.public.b
  project=(#0)

Target cluster: quickstart
)";

// Which input ("a" or "b") each Reduce of `plan` reads, by LirId.
inline std::map<lir::LirId, std::string> ReduceSides(const lir::Node& plan) {
  std::map<lir::LirId, std::string> sides;
  std::vector<const lir::Node*> stack = {&plan};
  while (!stack.empty()) {
    const lir::Node* n = stack.back();
    stack.pop_back();
    if (n->Is<lir::ReduceOp>()) {
      std::vector<const lir::Node*> below = {n};
      while (!below.empty()) {
        const lir::Node* m = below.back();
        below.pop_back();
        if (m->Is<lir::GetOp>()) {
          const std::string& g = m->As<lir::GetOp>().id.global;
          if (g == kA) sides[n->id] = "a";
          if (g == kB) sides[n->id] = "b";
        }
        for (const lir::NodePtr& in : m->inputs) below.push_back(in.get());
      }
    }
    for (const lir::NodePtr& in : n->inputs) stack.push_back(in.get());
  }
  return sides;
}

// An arrangement's row name in ../shared/reference/SEMANTICS.md section 6's
// table of Materialize's measurement, so bench-report can put the two side by
// side.
inline std::string ArrangementRole(
    const lir::eval::ArrangementStats& s,
    const std::map<lir::LirId, std::string>& sides) {
  auto side = sides.find(s.lir_id);
  const std::string of =
      side == sides.end() ? "" : absl::StrCat(" (", side->second, ")");
  if (s.operator_name == "DistinctBy") {
    return absl::StrCat("DistinctBy input arrangement", of);
  }
  if (s.operator_name == "Arranged DistinctBy") {
    return absl::StrCat("DistinctBy output", of);
  }
  if (s.operator_name.starts_with("ArrangeBy")) return "ArrangeBy (trace T)";
  if (s.operator_name == "Threshold local") return "Threshold output";
  if (s.operator_name == "SetDifference") return "SetDifference output";
  return s.operator_name;
}

}  // namespace lir_bench

#endif  // LIR_BENCH_EXCEPT_PLAN_H_
