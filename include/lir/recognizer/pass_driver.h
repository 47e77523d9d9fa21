// The pass driver: the one walk, report and rewrite loop every pass shares.
//
// A pass (in the style of an MLIR rewrite pattern) is a small class that
// says which nodes are its candidates, decides each one (fire, or a decline
// code with a message: pass decisions never fail) and rewrites a node that
// fires. The driver does the rest, the same way for every pass:
//   - walks each object's plan once, pre-order, with the scoped walker
//     (include/lir/walk.h), which says whether a node is inside the values of a
//     LetRec (the recursive context);
//   - decides every candidate on the plan as it was before the pass, then
//     rewrites the firing ones (when the pass is enabled), so the report
//     lists candidates in the same order whether or not the pass applies;
//   - runs the analyses a decision asks for lazily, at most once per object,
//     so an object (or a pass) that needs none pays nothing;
//   - builds the report records (CandidateReporter), with the pass's own
//     fields as a JSON payload.
//
// What a new pass needs: a header declaring its decline codes
// (LIR_DECLARE_DECLINES) and a class satisfying RewritePass; a .cc with its
// checks and `XPass(doc, ctx) { return RunPass(X(), doc, ctx); }`; a feature
// row in LIR_OPTIMIZER_FEATURES; a row in AllPasses(); an analysis it needs,
// if new, as one method of ObjectAnalyses.
#ifndef LIR_RECOGNIZER_PASS_DRIVER_H_
#define LIR_RECOGNIZER_PASS_DRIVER_H_

#include <algorithm>
#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lir/document.h"
#include "lir/interp/arity.h"
#include "lir/interp/inputs.h"
#include "lir/interp/interpreter.h"
#include "lir/interp/monotonicity.h"
#include "lir/interp/unique_keys.h"
#include "lir/node.h"
#include "lir/node_error.h"
#include "lir/recognizer/decision.h"
#include "lir/recognizer/pass.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The analyses a pass may ask about the object being walked. Each runs on
/// first request only and is kept for the rest of the object, so passes
/// whose candidates are all decided by cheap checks (or that are skipped)
/// never pay for it. Results describe the plan as it was before the pass.
class ObjectAnalyses {
 public:
  /// `doc` (holding `plan`) must outlive this; `work` (may be null) counts
  /// the runs.
  ObjectAnalyses(const Document& doc, const Node& plan,
                 const interp::AnalysisInputs& inputs, PassWork* work)
      : doc_(doc), plan_(plan), inputs_(inputs), work_(work) {}

  /// Physical monotonicity of every node (with inputs.monotonic_ids), or
  /// why the plan cannot be analyzed (e.g. an unbound local id).
  const absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>&
  Monotonicity();

  /// The arity of every node (with inputs.global_arity, as the collections'
  /// Source blocks project them), or why the plan cannot be analyzed.
  const absl::StatusOr<interp::Analysis<interp::Arity>>& Arity();

  /// The unique keys of every node (with inputs.global_unique_keys, as the
  /// collections' Source blocks carry them), or why the plan cannot be
  /// analyzed. Runs the arity analysis too (for the width of Reduce keys).
  const absl::StatusOr<interp::Analysis<interp::UniqueKeys>>& UniqueKeys();

  /// The arrangements every node builds (the accounting of
  /// arrangements_built.h, over the arity and arrangements analyses), or
  /// why the plan cannot be analyzed.
  const absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>&
  ArrangementsBuilt();

 private:
  const Document& doc_;
  const Node& plan_;
  const interp::AnalysisInputs& inputs_;
  PassWork* work_;
  /// Each null until first requested.
  std::unique_ptr<absl::StatusOr<interp::Analysis<interp::PhysicallyMonotonic>>>
      monotonicity_;
  std::unique_ptr<absl::StatusOr<interp::Analysis<interp::Arity>>> arity_;
  std::unique_ptr<absl::StatusOr<interp::Analysis<interp::UniqueKeys>>>
      unique_keys_;
  std::unique_ptr<absl::StatusOr<interp::Analysis<interp::AvailableForms>>>
      forms_;
  std::unique_ptr<absl::StatusOr<interp::Analysis<interp::ArrangementsBuilt>>>
      built_;
};

/// What a pass's decision may read besides the candidate itself.
struct CandidateContext {
  /// The candidate sits inside the values of a LetRec (its body is
  /// outside): the recursive scope, where many rewrites are unsound.
  bool inside_let_rec_values = false;
  /// The candidate's ancestors in its object's plan, the root first and its
  /// parent last (empty for the root). They are the plan's own nodes, so a
  /// firing decision may keep one (e.g. a consumer its rewrite adjusts):
  /// rewrites change nodes in place and never free an ancestor of another
  /// candidate.
  std::span<Node* const> ancestors;
  /// What the caller knows about the dataflow.
  const interp::AnalysisInputs& inputs;
  /// Lazily-run analyses of the candidate's object.
  ObjectAnalyses& analyses;
};

/// A rewrite pass the driver can run. `P::Code` is its decline enum,
/// `P::Fire` what its rewrite needs from a firing decision.
template <typename P>
concept RewritePass = requires(const P& pass, const Node& node, Node& target,
                               CandidateContext& ctx,
                               const typename P::Fire& fire) {
  typename P::Code;
  typename P::Fire;
  /// The registered name, as reports print it.
  { P::kName } -> std::convertible_to<std::string_view>;
  /// Whether `node` is a candidate (reported whatever its outcome).
  { pass.IsCandidate(node) } -> std::same_as<bool>;
  /// The verdict: one early return per bail-out, in the pass's check order.
  {
    pass.Decide(node, ctx)
    } -> std::same_as<Decision<typename P::Code, typename P::Fire>>;
  /// Rewrites a firing candidate in place (keeping its LirId).
  pass.Rewrite(target, fire);
  /// The report's pass-specific fields of a firing candidate, or null.
  { pass.Details(fire) } -> std::same_as<nlohmann::json>;
};

/// A pass whose candidates come in groups (e.g. several shapes) that the
/// report lists group by group within each object, lowest first, each group
/// in walk order.
template <typename P>
concept GroupedCandidates = requires(const P& pass, const Node& node) {
  { pass.ReportGroup(node) } -> std::convertible_to<int>;
};

/// Builds the report records of one pass run. Without a report
/// (ctx.report null) it records nothing and never asks for details.
class CandidateReporter {
 public:
  /// Records go to ctx.report under ctx.pass_name; ctx.apply decides
  /// between fired/declined and disabled.
  explicit CandidateReporter(const PassContext& ctx) : ctx_(ctx) {}

  /// Whether records are kept (so callers can skip building details).
  bool enabled() const { return ctx_.report != nullptr; }

  /// Records one candidate of `object`. `code` is empty when it fires;
  /// `details` are the pass's fields (of a firing candidate, or what a
  /// decline reports beside its code).
  void Record(const Object& object, LirId lir_id, bool fires,
              std::string_view code, std::string arm, std::string message,
              nlohmann::json details);

 private:
  const PassContext& ctx_;
};

namespace pass_driver_internal {

/// Calls `fn(node, ancestors, inside_let_rec_values)` for every node of
/// `root`, parents before inputs, inputs in order (as EXPLAIN prints them),
/// with the scoped walker (include/lir/walk.h); `ancestors` run from the root
/// to the node's parent. Errors for what the walker rejects in any plan (a
/// wrong input count, a binding that shadows another, a LetRec binding an id
/// twice); a local Get bound nowhere is not one. Iterative; the plan's depth is
/// bounded only by memory.
absl::Status ForEachWithRecursiveContext(
    Node& root,
    absl::FunctionRef<void(Node&, std::span<Node* const>, bool)> fn);

}  // namespace pass_driver_internal

/// The candidates of one plan and their verdicts, in report order.
template <RewritePass P>
using DecidedCandidates =
    std::vector<std::pair<Node*, Decision<typename P::Code, typename P::Fire>>>;

namespace pass_driver_internal {

/// Walks `plan` (an object's plan, or a copy of one, of `doc`) and decides
/// every candidate on it as it is; report order (ReportGroup) applied.
template <RewritePass P>
absl::StatusOr<DecidedCandidates<P>> DecideAll(const P& pass,
                                               const Document& doc, Node& plan,
                                               const PassContext& ctx,
                                               PassWork& work) {
  ObjectAnalyses analyses(doc, plan, ctx.inputs, &work);
  DecidedCandidates<P> decided;
  LIR_RETURN_IF_ERROR(ForEachWithRecursiveContext(
      plan, [&](Node& node, std::span<Node* const> ancestors,
                bool inside_let_rec_values) {
        if (!pass.IsCandidate(node)) return;
        CandidateContext candidate{inside_let_rec_values, ancestors, ctx.inputs,
                                   analyses};
        decided.emplace_back(&node, pass.Decide(node, candidate));
      }));
  if constexpr (GroupedCandidates<P>) {
    // Rewrites are independent of each other, so only the report order
    // changes.
    std::stable_sort(
        decided.begin(), decided.end(), [&pass](const auto& a, const auto& b) {
          return pass.ReportGroup(*a.first) < pass.ReportGroup(*b.first);
        });
  }
  return decided;
}

/// How many arrangements each firing candidate saves, from the accounting
/// of the plan before and after the pass's rewrites: every node's built
/// arrangements before, minus the same node's after (none once removed),
/// summed per innermost firing candidate holding the node.
class SavingsCounter {
 public:
  /// Before rewriting: `plan` with its firing candidates. Null when the
  /// plan cannot be analyzed (then nothing is counted).
  static std::unique_ptr<SavingsCounter> Before(
      const Document& doc, const Node& plan,
      const interp::AnalysisInputs& inputs,
      const std::vector<const Node*>& firing);
  /// After rewriting: `after` is the rewritten plan, `same(n)` the node of
  /// `after` that node `n` of the plan before became (n itself when the
  /// plan was rewritten in place). Returns each firing candidate's saving,
  /// in the order given to Before; empty when `after` cannot be analyzed.
  std::vector<int64_t> After(const Document& doc, const Node& after,
                             const interp::AnalysisInputs& inputs,
                             absl::FunctionRef<const Node*(const Node*)> same);

 private:
  /// Before-plan node -> (its built count, the index of its owner).
  absl::flat_hash_map<const Node*, std::pair<int64_t, int>> before_;
  size_t firing_ = 0;
};

/// Node of `copy` (a Clone of `original`) for each node of `original`.
absl::flat_hash_map<const Node*, const Node*> CloneCorrespondence(
    const Node& original, const Node& copy);

}  // namespace pass_driver_internal

/// Runs `pass` over every object of `doc` as described at the top of this
/// file: decides every candidate, records it, and rewrites the firing ones
/// when ctx.apply. With a report, a firing candidate's record also says how
/// many arrangements it saves (`saves`; a dry run counts on a rewritten
/// copy). Errors are real failures, never declines.
template <RewritePass P>
absl::Status RunPass(const P& pass, Document& doc, PassContext& ctx) {
  CandidateReporter reporter(ctx);
  PassWork ignored;
  PassWork& work = ctx.work != nullptr ? *ctx.work : ignored;
  for (Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ++work.objects_walked;
    // Decide everything before rewriting anything: a verdict reads only its
    // candidate's own subtree on the plan as it was, and the report order
    // does not depend on whether the pass applies.
    absl::StatusOr<DecidedCandidates<P>> decided =
        pass_driver_internal::DecideAll(pass, doc, *object.plan, ctx, work);
    if (!decided.ok()) {
      return PrefixStatus(absl::StrCat(object.name, ": "), decided.status());
    }
    work.candidates_decided += decided->size();
    std::vector<const Node*> firing;
    std::vector<size_t> firing_records;
    for (auto& [node, decision] : *decided) {
      if (!reporter.enabled()) continue;
      const bool fires = decision.fires();
      if (fires) {
        firing.push_back(node);
        firing_records.push_back(ctx.report->candidates.size());
      }
      reporter.Record(
          object, node->id, fires,
          fires ? std::string_view() : DeclineName(decision.code),
          std::move(decision.arm), std::move(decision.message),
          fires ? pass.Details(*decision.fire) : std::move(decision.details));
    }
    std::unique_ptr<pass_driver_internal::SavingsCounter> savings;
    if (!firing.empty()) {
      savings = pass_driver_internal::SavingsCounter::Before(
          doc, *object.plan, ctx.inputs, firing);
    }
    if (ctx.apply) {
      for (auto& [node, decision] : *decided) {
        if (!decision.fires()) continue;
        pass.Rewrite(*node, *decision.fire);
        ++work.rewrites;
      }
    }
    if (savings == nullptr) continue;
    std::vector<int64_t> saved;
    if (ctx.apply) {
      saved = savings->After(doc, *object.plan, ctx.inputs,
                             [](const Node* n) { return n; });
    } else {
      // A dry run rewrites a copy, decided afresh so that what the rewrites
      // hold (consumers to adjust) points into the copy.
      NodePtr copy = Clone(*object.plan);
      const absl::flat_hash_map<const Node*, const Node*> same =
          pass_driver_internal::CloneCorrespondence(*object.plan, *copy);
      PassWork scratch;
      absl::StatusOr<DecidedCandidates<P>> again =
          pass_driver_internal::DecideAll(pass, doc, *copy, ctx, scratch);
      if (!again.ok()) continue;
      for (auto& [node, decision] : *again) {
        if (decision.fires()) pass.Rewrite(*node, *decision.fire);
      }
      saved = savings->After(doc, *copy, ctx.inputs, [&same](const Node* n) {
        auto it = same.find(n);
        return it == same.end() ? nullptr : it->second;
      });
    }
    for (size_t i = 0; i < saved.size(); ++i) {
      nlohmann::json& details =
          ctx.report->candidates[firing_records[i]].details;
      if (!details.is_object()) details = nlohmann::json::object();
      details[kSavesField] = saved[i];
    }
  }
  return absl::OkStatus();
}

}  // namespace lir

#endif  // LIR_RECOGNIZER_PASS_DRIVER_H_
