// PlanBuilder: node construction with defaults, misuse carried to Build().
#include "lir/plan_builder.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace lir {
namespace {

// The inputs of a binary node, in order.
std::vector<PlanBuilder> TwoInputs(PlanBuilder first, PlanBuilder second) {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(std::move(first));
  inputs.push_back(std::move(second));
  return inputs;
}

}  // namespace

PlanBuilder::PlanBuilder(NodePtr node) : node_(std::move(node)) {
  if (node_ == nullptr) {
    status_ = absl::InvalidArgumentError("PlanBuilder: adopted a null plan");
  }
}

PlanBuilder::PlanBuilder(PlanBuilder&& other) noexcept
    : node_(std::move(other.node_)),
      status_(std::exchange(other.status_, absl::OkStatus())) {}

PlanBuilder& PlanBuilder::operator=(PlanBuilder&& other) noexcept {
  if (this != &other) {
    node_ = std::move(other.node_);
    status_ = std::exchange(other.status_, absl::OkStatus());
  }
  return *this;
}

AvailableCollections PlanBuilder::Raw() {
  AvailableCollections forms;
  forms.raw = true;
  return forms;
}

AvailableCollections PlanBuilder::Arranged(
    std::vector<ArrangementForm> arranged, bool raw) {
  AvailableCollections forms;
  forms.raw = raw;
  forms.arranged = std::move(arranged);
  return forms;
}

MapFilterProject PlanBuilder::Project(std::vector<int> columns) {
  MapFilterProject mfp;
  mfp.project = std::move(columns);
  return mfp;
}

MapFilterProject PlanBuilder::MapProject(std::vector<ScalarExpr> map,
                                         std::vector<int> columns) {
  MapFilterProject mfp;
  mfp.map = std::move(map);
  mfp.project = std::move(columns);
  return mfp;
}

MapFilterProject PlanBuilder::Filter(std::vector<ScalarExpr> predicates,
                                     std::optional<std::vector<int>> columns) {
  MapFilterProject mfp;
  mfp.filter = std::move(predicates);
  mfp.project = std::move(columns);
  return mfp;
}

std::vector<int> PlanBuilder::Columns(int first, int last) {
  std::vector<int> columns;
  for (int c = first; c <= last; ++c) columns.push_back(c);
  return columns;
}

ReduceOp PlanBuilder::DistinctOp(MapFilterProject key_plan) {
  ReduceOp op;
  op.kind = ReduceKind::kDistinct;
  op.key_plan = std::move(key_plan);
  // A distinct reduction has no aggregates: its values are empty rows.
  op.val_plan.project = std::vector<int>{};
  return op;
}

// ---- Join plans -------------------------------------------------------------

JoinClosure PlanBuilder::Closure(
    MapFilterProject mfp,
    std::vector<std::vector<ScalarExpr>> ready_equivalences) {
  return JoinClosure{std::move(mfp), std::move(ready_equivalences)};
}

JoinStage PlanBuilder::Lookup(int relation, std::vector<ScalarExpr> lookup_key,
                              std::vector<ScalarExpr> stream_key,
                              std::vector<int> stream_thinning,
                              std::optional<JoinClosure> closure) {
  JoinStage stage;
  stage.closure = std::move(closure);
  stage.lookup_relation = relation;
  stage.lookup_key = std::move(lookup_key);
  stage.stream_key = std::move(stream_key);
  stage.stream_thinning = std::move(stream_thinning);
  return stage;
}

JoinPath PlanBuilder::Path(int source_relation,
                           std::optional<std::vector<ScalarExpr>> source_key,
                           std::vector<JoinStage> stages) {
  JoinPath path;
  path.source_relation = source_relation;
  path.source_key = std::move(source_key);
  path.stages = std::move(stages);
  return path;
}

// ---- Leaves ---------------------------------------------------------------

PlanBuilder PlanBuilder::Constant(std::vector<Row> rows) {
  ConstantOp op;
  for (Row& row : rows) op.rows.push_back({std::move(row), 1});
  return Constant(std::move(op));
}

PlanBuilder PlanBuilder::Constant(ConstantOp op) {
  return PlanBuilder(MakeNode(std::move(op)));
}

PlanBuilder PlanBuilder::ConstantError(std::string message) {
  ConstantOp op;
  op.error = std::move(message);
  return Constant(std::move(op));
}

PlanBuilder PlanBuilder::Get(CollectionId id, AvailableCollections keys) {
  GetOp op;
  op.id = std::move(id);
  op.keys = std::move(keys);
  op.kind = GetKind::kPassArrangements;
  return Get(std::move(op));
}

PlanBuilder PlanBuilder::GetCollection(CollectionId id,
                                       AvailableCollections keys,
                                       MapFilterProject mfp) {
  GetOp op;
  op.id = std::move(id);
  op.keys = std::move(keys);
  op.kind = GetKind::kCollection;
  op.mfp = std::move(mfp);
  return Get(std::move(op));
}

PlanBuilder PlanBuilder::GetArrangement(CollectionId id,
                                        AvailableCollections keys,
                                        std::vector<ScalarExpr> key,
                                        MapFilterProject mfp,
                                        std::optional<Row> seek) {
  GetOp op;
  op.id = std::move(id);
  op.keys = std::move(keys);
  op.kind = GetKind::kArrangement;
  op.key = std::move(key);
  op.mfp = std::move(mfp);
  op.seek = std::move(seek);
  return Get(std::move(op));
}

PlanBuilder PlanBuilder::Get(GetOp op) {
  return PlanBuilder(MakeNode(std::move(op)));
}

// ---- Bindings ---------------------------------------------------------------

PlanBuilder PlanBuilder::Let(uint64_t id, PlanBuilder value, PlanBuilder body) {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(std::move(value));
  inputs.push_back(std::move(body));
  return Make(LetOp{id}, std::move(inputs), "Let");
}

PlanBuilder PlanBuilder::LetRec(std::vector<LetRecBinding> bindings,
                                PlanBuilder body) {
  LetRecOp op;
  std::vector<PlanBuilder> inputs;
  for (LetRecBinding& binding : bindings) {
    op.ids.push_back(binding.id);
    op.limits.push_back(binding.limit);
    inputs.push_back(std::move(binding.value));
  }
  inputs.push_back(std::move(body));
  return Make(std::move(op), std::move(inputs), "LetRec");
}

// ---- Unary nodes ------------------------------------------------------------

PlanBuilder PlanBuilder::Mfp(MapFilterProject mfp) && {
  MfpOp op;
  op.mfp = std::move(mfp);
  return std::move(*this).Mfp(std::move(op));
}

PlanBuilder PlanBuilder::Mfp(MapFilterProject mfp,
                             std::vector<ScalarExpr> input_key) && {
  MfpOp op;
  op.mfp = std::move(mfp);
  op.input_key = std::move(input_key);
  return std::move(*this).Mfp(std::move(op));
}

PlanBuilder PlanBuilder::Mfp(MfpOp op) && {
  return std::move(*this).Wrap(std::move(op), "Mfp");
}

PlanBuilder PlanBuilder::FlatMap(std::string func,
                                 std::vector<ScalarExpr> exprs,
                                 MapFilterProject mfp_after) && {
  FlatMapOp op;
  op.func = std::move(func);
  op.exprs = std::move(exprs);
  op.mfp_after = std::move(mfp_after);
  return std::move(*this).FlatMap(std::move(op));
}

PlanBuilder PlanBuilder::FlatMap(FlatMapOp op) && {
  return std::move(*this).Wrap(std::move(op), "FlatMap");
}

PlanBuilder PlanBuilder::Distinct(
    MapFilterProject key_plan,
    std::optional<std::vector<ScalarExpr>> input_key) && {
  ReduceOp op = DistinctOp(std::move(key_plan));
  op.input_key = std::move(input_key);
  return std::move(*this).Reduce(std::move(op));
}

PlanBuilder PlanBuilder::Reduce(ReduceOp op) && {
  return std::move(*this).Wrap(std::move(op), "Reduce");
}

PlanBuilder PlanBuilder::TopK(TopKOp op) && {
  return std::move(*this).Wrap(std::move(op), "TopK");
}

PlanBuilder PlanBuilder::MonotonicTop1(std::vector<int> group_by,
                                       std::vector<OrderKey> order_by,
                                       bool must_consolidate) && {
  TopKOp op;
  op.kind = TopKKind::kMonotonicTop1;
  op.group_by = std::move(group_by);
  op.order_by = std::move(order_by);
  op.must_consolidate = must_consolidate;
  return std::move(*this).TopK(std::move(op));
}

PlanBuilder PlanBuilder::Negate() && {
  return std::move(*this).Wrap(NegateOp{}, "Negate");
}

PlanBuilder PlanBuilder::Threshold(ArrangementForm ensure_arrangement) && {
  return std::move(*this).Wrap(ThresholdOp{std::move(ensure_arrangement)},
                               "Threshold");
}

PlanBuilder PlanBuilder::ArrangeBy(AvailableCollections forms) && {
  ArrangeByOp op;
  op.forms = std::move(forms);
  return std::move(*this).ArrangeBy(std::move(op));
}

PlanBuilder PlanBuilder::ArrangeBy(AvailableCollections forms,
                                   std::vector<ScalarExpr> input_key) && {
  ArrangeByOp op;
  op.input_key = std::move(input_key);
  op.forms = std::move(forms);
  return std::move(*this).ArrangeBy(std::move(op));
}

PlanBuilder PlanBuilder::ArrangeBy(ArrangeByOp op) && {
  return std::move(*this).Wrap(std::move(op), "ArrangeBy");
}

// ---- Nodes of several inputs ----------------------------------------------

PlanBuilder PlanBuilder::Union(std::vector<PlanBuilder> inputs, UnionOp op) {
  return Make(std::move(op), std::move(inputs), "Union");
}

PlanBuilder PlanBuilder::LinearJoin(std::vector<PlanBuilder> inputs,
                                    JoinPath path) {
  JoinOp op;
  op.delta = false;
  op.paths.push_back(std::move(path));
  return Make(std::move(op), std::move(inputs), "Join::Linear");
}

PlanBuilder PlanBuilder::DeltaJoin(std::vector<PlanBuilder> inputs,
                                   std::vector<JoinPath> paths) {
  JoinOp op;
  op.delta = true;
  op.paths = std::move(paths);
  return Make(std::move(op), std::move(inputs), "Join::Delta");
}

PlanBuilder PlanBuilder::SetDifference(PlanBuilder base, PlanBuilder subtract,
                                       SetDifferenceOp op) {
  return Make(std::move(op), TwoInputs(std::move(base), std::move(subtract)),
              "SetDifference");
}

PlanBuilder PlanBuilder::AntiJoin(PlanBuilder base, PlanBuilder keys,
                                  AntiJoinOp op) {
  return Make(std::move(op), TwoInputs(std::move(base), std::move(keys)),
              "AntiJoin");
}

PlanBuilder PlanBuilder::FromOp(NodeOp op, std::vector<PlanBuilder> inputs) {
  return Make(std::move(op), std::move(inputs), "FromOp");
}

// ---- Results ----------------------------------------------------------------

absl::StatusOr<NodePtr> PlanBuilder::Build(const ValidateOptions& options) && {
  if (!status_.ok()) return status_;
  if (node_ == nullptr) {
    return absl::InvalidArgumentError("PlanBuilder: Build() of an empty plan");
  }
  NodePtr plan = std::move(node_);
  AssignPostOrderIds(*plan);
  // Validate names the failing node by the LirId just assigned.
  if (absl::Status status = Validate(*plan, options); !status.ok()) {
    return status;
  }
  return plan;
}

NodePtr PlanBuilder::Release() && {
  if (!status_.ok()) return nullptr;
  return std::move(node_);
}

PlanBuilder PlanBuilder::Make(NodeOp op, std::vector<PlanBuilder> inputs,
                              const char* what) {
  PlanBuilder out;
  std::vector<NodePtr> nodes;
  nodes.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    PlanBuilder& input = inputs[i];
    if (!input.status_.ok()) {
      // Keep the first error: later ones are often its consequences.
      if (out.status_.ok()) out.status_ = std::move(input.status_);
      continue;
    }
    if (input.node_ == nullptr) {
      if (out.status_.ok()) {
        out.status_ = absl::InvalidArgumentError(
            absl::StrCat("PlanBuilder: input ", i, " of ", what, " is empty"));
      }
      continue;
    }
    nodes.push_back(std::move(input.node_));
  }
  if (out.status_.ok()) out.node_ = MakeNode(std::move(op), std::move(nodes));
  return out;
}

PlanBuilder PlanBuilder::Wrap(NodeOp op, const char* what) && {
  std::vector<PlanBuilder> inputs;
  inputs.push_back(std::move(*this));
  return Make(std::move(op), std::move(inputs), what);
}

}  // namespace lir
