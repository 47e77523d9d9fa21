// Reads Materialize's concise physical-plan EXPLAIN text
// (../shared/reference/CONCISE-FORMAT.md) into a partial plan.
//
// The document frame is shared with the verbose reader (ParseDocumentFrame
// in text_parser.cc); this file builds each object's plan tree. Levels are
// not "parent + 1" in this syntax (wrappers push a node down, an MFP that
// printed lines pushes its input down), so each open node knows from its
// head block (concise_parse_node.cc) the level its inputs are at and how
// many it takes. The tree is built with an explicit stack, so nesting depth
// is bounded only by memory: a line either opens an input of the node on
// top, or, at a level no deeper than where that node started, closes it.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/explain/concise.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/plan_frames.h"
#include "src/explain/text_lines.h"

namespace lir::explain {
namespace {

using internal::ConciseCursor;
using internal::ConciseHead;
using internal::ErrorSink;
using internal::kArrow;
using internal::TextLine;

// An open node, or an open `→With` / `→With Mutually Recursive` block.
struct ConciseFrame {
  ConciseHead head;  // head.node is null for With blocks
  // With blocks:
  const TextLine* with_line = nullptr;
  int level = 0;
  internal::WithBlock with;
  const TextLine* body_line = nullptr;

  bool is_with() const { return head.node == nullptr; }
};

// "1 child plan", "2 child plans", "at least 1 child plan".
std::string ChildPlans(const ConciseHead& head) {
  return internal::ChildPlans({head.min_inputs, head.max_inputs});
}

class ConcisePlanBuilder {
 public:
  ConcisePlanBuilder(const ErrorSink& errors,
                     const std::vector<TextLine>& lines,
                     internal::NodeHeaders* headers)
      : errors_(errors), lines_(lines), headers_(headers) {}

  // Builds the plan in lines [begin, end) whose root is at `base_level`.
  absl::StatusOr<NodePtr> Build(size_t begin, size_t end, int base_level) {
    ConciseCursor c(lines_, begin, end);
    while (!c.Done()) {
      const TextLine& line = c.Peek();
      if (stack_.empty()) {
        if (root_ != nullptr) {
          return internal::UnexpectedLine(
              errors_, line, "the end of the plan (a plan has one root)");
        }
        if (line.level != base_level) {
          return errors_.Expected(
              line, 0,
              absl::StrCat("the plan root at indentation level ", base_level));
        }
        LIR_RETURN_IF_ERROR(Open(c));
        continue;
      }
      ConciseFrame& top = stack_.back();
      if (top.is_with()) {
        LIR_ASSIGN_OR_RETURN(bool taken, WithLine(top, c));
        if (taken) continue;
        if (line.level > top.level) return WithError(top, line);
        LIR_RETURN_IF_ERROR(Close());
        continue;
      }
      const ConciseHead& head = top.head;
      const size_t inputs = head.node->inputs.size();
      if (line.level == head.child_level && c.AtOperator(line.level) &&
          inputs < head.max_inputs) {
        LIR_RETURN_IF_ERROR(Open(c));
        continue;
      }
      if (line.level <= head.start_level) {
        LIR_RETURN_IF_ERROR(Close());
        continue;
      }
      return NodeError(top, line);
    }
    while (!stack_.empty()) LIR_RETURN_IF_ERROR(Close());
    if (root_ == nullptr) return internal::NoPlanError(errors_, lines_, begin);
    return std::move(root_);
  }

  bool saw_node_ids() const { return saw_node_ids_; }

 private:
  // Opens the node (or With block) whose first line is at the cursor.
  absl::Status Open(ConciseCursor& c) {
    const TextLine& line = c.Peek();
    std::optional<LirId> id;
    LIR_ASSIGN_OR_RETURN(absl::string_view text,
                         internal::StripAnnotation(errors_, line, &id));
    if (absl::StartsWith(text, kArrow) &&
        (text.substr(kArrow.size()) == "With" ||
         text.substr(kArrow.size()) == "With Mutually Recursive")) {
      if (id.has_value()) {
        return errors_.Expected(line, text.size(),
                                "no node_id on '\xE2\x86\x92With' (the "
                                "annotation goes on its '\xE2\x86\x92Return')");
      }
      c.Next();
      ConciseFrame frame;
      frame.with_line = &line;
      frame.level = line.level;
      frame.with.recursive = text.substr(kArrow.size()) != "With";
      stack_.push_back(std::move(frame));
      return absl::OkStatus();
    }
    LIR_ASSIGN_OR_RETURN(ConciseHead head,
                         internal::ReadConciseHead(errors_, c));
    if (head.node->id != 0) saw_node_ids_ = true;
    if (headers_ != nullptr && head.header != nullptr) {
      headers_->emplace_back(head.node.get(), *head.header);
    }
    ConciseFrame frame;
    frame.head = std::move(head);
    stack_.push_back(std::move(frame));
    return absl::OkStatus();
  }

  // A line inside the With block on top of the stack: a `cte` line, a bound
  // plan, `→Return` or the body. False when the line is none of them.
  absl::StatusOr<bool> WithLine(ConciseFrame& top, ConciseCursor& c) {
    const TextLine& line = c.Peek();
    internal::WithBlock& with = top.with;
    const bool bound = with.values.size() == with.ids.size();
    if (!with.in_body && line.level == top.level &&
        absl::StartsWith(line.content, absl::StrCat(kArrow, "Return"))) {
      std::optional<LirId> id;
      LIR_ASSIGN_OR_RETURN(absl::string_view text,
                           internal::StripAnnotation(errors_, line, &id));
      if (text.substr(kArrow.size()) != "Return") return false;
      if (with.ids.empty()) {
        return errors_.Expected(
            line, 0,
            absl::StrCat("'cte l<n> =' at indentation "
                         "level ",
                         top.level + 1, " before '", kArrow, "Return'"));
      }
      if (!bound) return WithError(top, line);
      if (id.has_value()) saw_node_ids_ = true;
      with.return_id = id;
      with.in_body = true;
      c.Next();
      return true;
    }
    if (!with.in_body && bound && line.level == top.level + 1 &&
        absl::StartsWith(line.content, "cte ")) {
      LIR_RETURN_IF_ERROR(internal::ReadCte(errors_, line, with));
      c.Next();
      return true;
    }
    if (!with.in_body && !bound && line.level == top.level + 2 &&
        c.AtOperator(line.level)) {
      LIR_RETURN_IF_ERROR(Open(c));
      return true;
    }
    if (with.in_body && with.body == nullptr && line.level == top.level + 1 &&
        c.AtOperator(line.level)) {
      top.body_line = &line;
      LIR_RETURN_IF_ERROR(Open(c));
      return true;
    }
    return false;
  }

  // What a With block expected instead of `line`.
  absl::Status WithError(const ConciseFrame& top, const TextLine& line) {
    const internal::WithBlock& with = top.with;
    std::string what;
    if (with.in_body) {
      what =
          with.body == nullptr
              ? absl::StrCat("the body of '", kArrow,
                             "Return' at indentation level ", top.level + 1)
              : absl::StrCat("the end of the '", kArrow, "With' block (its '",
                             kArrow, "Return' has one body)");
    } else if (with.values.size() < with.ids.size()) {
      what = absl::StrCat("the plan bound to l", with.ids.back(),
                          " at indentation level ", top.level + 2);
    } else {
      what = absl::StrCat("'cte l<n> =' at indentation level ", top.level + 1,
                          " or '", kArrow, "Return' at indentation level ",
                          top.level);
    }
    return internal::UnexpectedLine(errors_, line, what);
  }

  // What the node on top expected instead of `line` (which is deeper than
  // where the node started).
  absl::Status NodeError(const ConciseFrame& top, const TextLine& line) {
    const ConciseHead& head = top.head;
    const size_t inputs = head.node->inputs.size();
    if (inputs >= head.max_inputs) {
      return internal::UnexpectedLine(
          errors_, line,
          absl::StrCat("a line at indentation level ", head.start_level,
                       " or less (", head.label,
                       head.max_inputs == 0
                           ? " has no child plans"
                           : absl::StrCat(" takes ", ChildPlans(head)),
                       ")"));
    }
    if (line.level == head.child_level) {
      return internal::UnexpectedLine(
          errors_, line,
          absl::StrCat("a child plan of ", head.label,
                       " (an operator line starting with '", kArrow,
                       "') at indentation level ", head.child_level));
    }
    return internal::UnexpectedLine(
        errors_, line,
        absl::StrCat("a child plan of ", head.label, " at indentation level ",
                     head.child_level, ", not ", line.level));
  }

  // Completes the frame on top of the stack and hands it to its parent.
  absl::Status Close() {
    ConciseFrame frame = std::move(stack_.back());
    stack_.pop_back();
    NodePtr done;
    if (!frame.is_with()) {
      ConciseHead& head = frame.head;
      const size_t have = head.node->inputs.size();
      if (have < head.min_inputs) {
        return errors_.At(*head.header, 0,
                          absl::StrCat("expected ", ChildPlans(head), " under ",
                                       head.label, " at indentation level ",
                                       head.child_level, ", found ", have));
      }
      if (head.temporally_bucketed_union) {
        // Only "some input is temporally bucketed" is printed: every input
        // is marked so, and which ones really are is unknown.
        head.node->As<UnionOp>().strategies.assign(
            have, UnionStrategy::kTemporalBucketing);
        head.node->unknown.Add(UnknownFact::kUnionStrategies);
      }
      if (head.node->Is<JoinOp>()) {
        LIR_RETURN_IF_ERROR(
            internal::CheckJoinChain(errors_, head, *head.node));
      }
      done = std::move(head.node);
    } else {
      LIR_ASSIGN_OR_RETURN(done, CloseWith(frame));
    }
    if (stack_.empty()) {
      root_ = std::move(done);
      return absl::OkStatus();
    }
    ConciseFrame& parent = stack_.back();
    if (!parent.is_with()) {
      parent.head.node->inputs.push_back(std::move(done));
    } else {
      parent.with.Add(std::move(done));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<NodePtr> CloseWith(ConciseFrame& frame) {
    LIR_RETURN_IF_ERROR(internal::CheckWithComplete(
        errors_, *frame.with_line, frame.with,
        "expected 'cte l<n> =' lines in the With block",
        absl::StrCat(kArrow, "Return")));
    // Materialize prints a Let whose body is a Let as one block, so a
    // body that is itself a `→With` block would not print back.
    if (!frame.with.recursive && frame.with.body->Is<LetOp>()) {
      return errors_.Expected(
          *frame.body_line, 0,
          absl::StrCat("a body that is not a '", kArrow,
                       "With' block (a With whose body is a With prints as "
                       "one block, its cte lines together)"));
    }
    return internal::BuildWithPlan(std::move(frame.with), *frame.with_line,
                                   headers_);
  }

  const ErrorSink& errors_;
  const std::vector<TextLine>& lines_;
  internal::NodeHeaders* headers_;  // null: positions not asked for
  std::vector<ConciseFrame> stack_;
  NodePtr root_;
  bool saw_node_ids_ = false;
};

}  // namespace

absl::StatusOr<Document> ParseConciseText(std::string_view text,
                                          const ParseOptions& options) {
  LIR_ASSIGN_OR_RETURN(
      Document doc,
      internal::ParseDocumentFrame(text, options,
                                   internal::ReadPlanBody<ConcisePlanBuilder>,
                                   internal::ParseConciseFastPathBody));
  doc.syntax = TextSyntax::kConcise;
  return doc;
}

}  // namespace lir::explain
