// The With blocks and child-plan counts both plan readers share
// (plan_frames.h).
#include "src/explain/plan_frames.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"

namespace lir::explain::internal {

void WithBlock::Add(NodePtr plan) {
  if (in_body) {
    body = std::move(plan);
  } else {
    values.push_back(std::move(plan));
  }
}

absl::Status ReadCte(const ErrorSink& errors, const TextLine& line,
                     WithBlock& block) {
  uint64_t id = 0;
  std::optional<LetRecLimit> limit;
  LIR_RETURN_IF_ERROR(ParseCteLine(errors, line, block.recursive, &id, &limit));
  block.ids.push_back(id);
  block.limits.push_back(limit);
  return absl::OkStatus();
}

absl::Status CheckWithComplete(const ErrorSink& errors, const TextLine& header,
                               const WithBlock& block,
                               absl::string_view no_bindings,
                               absl::string_view return_line) {
  if (block.ids.empty()) return errors.At(header, 0, no_bindings);
  if (block.values.size() < block.ids.size()) {
    return errors.At(
        header, 0,
        absl::StrCat("expected the plan bound to l", block.ids.back()));
  }
  if (block.body == nullptr) {
    return errors.At(
        header, 0,
        absl::StrCat("expected '", return_line, "' and a body plan"));
  }
  return absl::OkStatus();
}

NodePtr BuildWithPlan(WithBlock block, const TextLine& header,
                      NodeHeaders* headers) {
  NodePtr done;
  if (block.recursive) {
    LetRecOp op;
    op.ids = std::move(block.ids);
    op.limits = std::move(block.limits);
    std::vector<NodePtr> inputs = std::move(block.values);
    inputs.push_back(std::move(block.body));
    done = MakeNode(std::move(op), std::move(inputs));
    if (headers != nullptr) headers->emplace_back(done.get(), header);
  } else {
    // Built inside out: the last binding's Let is the innermost.
    done = std::move(block.body);
    for (size_t k = block.ids.size(); k-- > 0;) {
      std::vector<NodePtr> inputs;
      inputs.push_back(std::move(block.values[k]));
      inputs.push_back(std::move(done));
      done = MakeNode(LetOp{block.ids[k]}, std::move(inputs));
      if (headers != nullptr) headers->emplace_back(done.get(), header);
    }
  }
  if (block.return_id.has_value()) done->id = *block.return_id;
  return done;
}

std::string ChildPlans(const InputCountRange& want) {
  return absl::StrCat(want.Exact() ? "" : "at least ", want.min, " child plan",
                      want.Exact() && want.min == 1 ? "" : "s");
}

absl::Status NoPlanError(const ErrorSink& errors,
                         const std::vector<TextLine>& lines, size_t begin) {
  const int number = begin < lines.size()
                         ? lines[begin].number
                         : (lines.empty() ? 1 : lines.back().number);
  return errors.AtEnd(number, "expected a plan");
}

}  // namespace lir::explain::internal
