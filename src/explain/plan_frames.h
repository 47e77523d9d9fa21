// What the two plan-tree builders share (internal): the verbose reader
// (text_parser.cc) and the concise one (concise_parser.cc) find a node's
// lines differently, but read a `With` block's bindings, limits, plans and
// body into the same parts, build the same Let chain or LetRec from them,
// count a node's child plans alike and hand ParseDocumentFrame the same kind
// of body reader.
#ifndef LIR_EXPLAIN_PLAN_FRAMES_H_
#define LIR_EXPLAIN_PLAN_FRAMES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/node.h"
#include "src/explain/text_lines.h"

namespace lir::explain::internal {

/// An open `With` / `With Mutually Recursive` block (either syntax): what
/// has been read of it so far.
struct WithBlock {
  bool recursive = false;
  /// One per `cte` line, in order.
  std::vector<uint64_t> ids;
  /// The `cte` lines' recursion limits, parallel to `ids`.
  std::vector<std::optional<LetRecLimit>> limits;
  /// The plans bound so far, parallel to the first ids.
  std::vector<NodePtr> values;
  /// `Return` was read: the next plan is the body.
  bool in_body = false;
  NodePtr body;
  /// The node_id annotated on `Return` (the block's outermost node's).
  std::optional<LirId> return_id;

  /// Takes a finished plan: the next bound value before `Return`, the body
  /// after it.
  void Add(NodePtr plan);
};

/// Reads the binding line `line` (ParseCteLine: `cte l<n> =`, with a
/// recursion limit only in a recursive block) into `block`.
absl::Status ReadCte(const ErrorSink& errors, const TextLine& line,
                     WithBlock& block);

/// Checks that the block whose first line is `header` is complete when it
/// closes: some binding (else the error is `no_bindings`), a plan for each,
/// and a body after `return_line` (`Return` or `→Return`, for the message).
absl::Status CheckWithComplete(const ErrorSink& errors, const TextLine& header,
                               const WithBlock& block,
                               absl::string_view no_bindings,
                               absl::string_view return_line);

/// The plan a complete block stands for: one LetRec over all bindings, or a
/// chain of Lets with the first binding outermost. Its outermost node takes
/// the `Return` line's id, if annotated. With `headers`, every node it made
/// is appended with `header`, the block's first line.
NodePtr BuildWithPlan(WithBlock block, const TextLine& header,
                      NodeHeaders* headers);

/// How many child plans `want` allows, as errors say it: `1 child plan`,
/// `2 child plans`, `at least 1 child plan`.
std::string ChildPlans(const InputCountRange& want);

/// The `expected a plan` error of a plan body without lines, whose first
/// line would have been `lines[begin]`.
absl::Status NoPlanError(const ErrorSink& errors,
                         const std::vector<TextLine>& lines, size_t begin);

/// A PlanBodyReader (text_lines.h) over a tree builder: `Builder(errors,
/// lines, headers)` builds the plan with `Build(begin, end, base_level)`
/// and then tells `saw_node_ids()`.
template <typename Builder>
absl::StatusOr<NodePtr> ReadPlanBody(const ErrorSink& errors,
                                     const std::vector<TextLine>& lines,
                                     size_t begin, size_t end, int base_level,
                                     bool* saw_node_ids, NodeHeaders* headers) {
  Builder builder(errors, lines, headers);
  absl::StatusOr<NodePtr> plan = builder.Build(begin, end, base_level);
  if (plan.ok()) *saw_node_ids = builder.saw_node_ids();
  return plan;
}

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_PLAN_FRAMES_H_
