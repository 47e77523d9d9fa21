// The check both engines make of a plan before any data (dataflow.h:
// CheckDataflowPlan).
#include <span>
#include <variant>

#include "absl/strings/str_cat.h"
#include "lir/eval/dataflow.h"
#include "lir/node_error.h"
#include "lir/partial.h"
#include "lir/status_macros.h"
#include "lir/walk.h"
#include "src/eval/operators.h"
#include "src/eval/snapshot_internal.h"

namespace lir::eval {
namespace {

/// CheckDataflowPlan's walk: payloads the engines support, globals with
/// data, join shapes; the walker adds the scoping rules.
class PlanChecker : public ScopedVisitorBase<std::monostate> {
 public:
  explicit PlanChecker(const DataflowOptions& options) : options_(options) {}

  absl::Status Enter(const Node& node, const WalkContext& ctx) {
    absl::Status payload = CheckNode(node);
    if (!payload.ok()) return AttachNode(node, payload);
    if (node.Is<GetOp>()) {
      const CollectionId& id = node.As<GetOp>().id;
      if (!id.is_local && !options_.globals.contains(id.global)) {
        return NodeError(node, absl::StatusCode::kInvalidArgument,
                         absl::StrCat("no data for collection ", id.global));
      }
    }
    if (node.Is<JoinOp>()) {
      absl::Status shape = snapshot_internal::CheckJoinShape(
          node.As<JoinOp>(), node.inputs.size());
      if (!shape.ok()) return AttachNode(node, shape);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::monostate> Leave(const Node& node, const WalkContext& ctx,
                                       std::span<std::monostate> inputs) {
    return std::monostate();
  }

 private:
  const DataflowOptions& options_;
};

}  // namespace

absl::Status CheckDataflowPlan(const Node& plan,
                               const DataflowOptions& options) {
  LIR_RETURN_IF_ERROR(RequireKnownFacts(plan, "the evaluator"));
  PlanChecker checker(options);
  return WalkScoped(plan, checker).status();
}

}  // namespace lir::eval
