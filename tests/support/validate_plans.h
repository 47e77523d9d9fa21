// The hand-built plans of the Validate tests (validate_test.cc and
// validate_errors_test.cc): node builders, and what Validate and
// InferArities say of a plan.
#ifndef LIR_TESTS_SUPPORT_VALIDATE_PLANS_H_
#define LIR_TESTS_SUPPORT_VALIDATE_PLANS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/node.h"
#include "lir/validate.h"
#include "tests/support/ir_helpers.h"

namespace lir::test::validate_plans {

template <typename... Inputs>
inline std::vector<NodePtr> In(Inputs... inputs) {
  std::vector<NodePtr> v;
  (v.push_back(std::move(inputs)), ...);
  return v;
}

inline NodePtr Build(NodeOp op, std::vector<NodePtr> inputs = {}) {
  return MakeNode(std::move(op), std::move(inputs));
}

/// A Get::PassArrangements of a global; `arrangements` as key columns.
inline NodePtr Global(const std::string& name, int arity,
                      std::vector<std::vector<int>> arrangements = {}) {
  GetOp get;
  get.id = CollectionId::Global(name);
  get.keys.raw = arrangements.empty();
  for (const auto& key : arrangements) {
    get.keys.arranged.push_back(MakeColumnArrangement(key, arity));
  }
  return Build(std::move(get));
}

inline NodePtr Local(uint64_t id, GetKind kind = GetKind::kPassArrangements,
                     MapFilterProject mfp = {}) {
  GetOp get;
  get.id = CollectionId::Local(id);
  get.kind = kind;
  get.keys.raw = true;
  get.mfp = std::move(mfp);
  return Build(std::move(get));
}

inline NodePtr Constant(int width, int rows = 1) {
  ConstantOp op;
  for (int r = 0; r < rows; ++r) {
    ConstantOp::Entry entry;
    for (int c = 0; c < width; ++c) entry.row.push_back(Literal::Int(r + c));
    op.rows.push_back(entry);
  }
  return Build(std::move(op));
}

inline NodePtr ArrangeBy(NodePtr input, int arity,
                         std::vector<std::vector<int>> keys) {
  ArrangeByOp op;
  op.forms.raw = false;
  for (const auto& key : keys) {
    op.forms.arranged.push_back(MakeColumnArrangement(key, arity));
  }
  return Build(std::move(op), In(std::move(input)));
}

inline MapFilterProject Project(std::vector<int> columns) {
  MapFilterProject mfp;
  mfp.project = std::move(columns);
  return mfp;
}

inline NodePtr Mfp(NodePtr input, MapFilterProject mfp) {
  MfpOp op;
  op.mfp = std::move(mfp);
  return Build(std::move(op), In(std::move(input)));
}

inline NodePtr Negate(NodePtr input) {
  return Build(NegateOp{}, In(std::move(input)));
}

/// The arity InferArities gives the root, which must validate.
inline std::optional<int> RootArity(NodePtr& plan,
                                    const ValidateOptions& options = {}) {
  AssignPostOrderIds(*plan);
  EXPECT_TRUE(Validate(*plan, options).ok()) << Validate(*plan, options);
  auto arities = InferArities(*plan, options);
  EXPECT_TRUE(arities.ok()) << arities.status();
  if (!arities.ok()) return std::nullopt;
  return arities->at(plan->id);
}

/// The error message Validate gives (after post-order ids); "" when valid.
inline std::string ErrorOf(NodePtr& plan, const ValidateOptions& options = {}) {
  AssignPostOrderIds(*plan);
  absl::Status status = Validate(*plan, options);
  if (status.ok()) return "";
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  // InferArities fails exactly when Validate does.
  EXPECT_EQ(InferArities(*plan, options).status(), status);
  return std::string(status.message());
}

// Two 2-column relations arranged by #0, joined on #0: stream row after the
// stage is key ++ stream thinning ++ lookup thinning = 3 columns.
inline JoinPath LinearPath() {
  JoinPath path;
  path.source_relation = 0;
  path.source_key = std::vector<ScalarExpr>{test::Col(0)};
  JoinStage stage;
  stage.lookup_relation = 1;
  stage.lookup_key = {ScalarExpr::Column(0, "c")};
  stage.stream_key = {test::Col(0)};
  stage.stream_thinning = {1};
  path.stages.push_back(stage);
  path.final_closure = JoinClosure{Project({0, 1, 0, 2}), {}};
  return path;
}

}  // namespace lir::test::validate_plans

#endif  // LIR_TESTS_SUPPORT_VALIDATE_PLANS_H_
