// Reads one node's head block in the concise syntax: its wrapper lines, its
// operator line and its attribute lines, without its inputs
// (../shared/reference/CONCISE-FORMAT.md section 6). The head block also
// says where the inputs are, which is not always one level below the
// operator line (pitfall 1). Every fact the syntax drops is marked unknown
// on the node (include/lir/unknown_facts.def), its field left a placeholder.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {

absl::StatusOr<OperatorLine> ReadOperatorLine(const ErrorSink& errors,
                                              ConciseCursor& c) {
  OperatorLine op;
  op.line = &c.Next();
  LIR_ASSIGN_OR_RETURN(absl::string_view text,
                       StripAnnotation(errors, *op.line, &op.id));
  op.text = text.substr(kArrow.size());
  return op;
}

absl::Status NoAnnotation(const ErrorSink& errors, const OperatorLine& op) {
  if (!op.id.has_value()) return absl::OkStatus();
  return errors.Expected(*op.line, kArrow.size() + op.text.size(),
                         "no node_id on a wrapper line (it belongs to the "
                         "node below it, which carries the annotation)");
}

ConciseHead MakeHead(const OperatorLine& op, NodePtr node, std::string label,
                     int child_level, size_t min_inputs, size_t max_inputs) {
  if (op.id.has_value()) node->id = *op.id;
  ConciseHead head;
  head.node = std::move(node);
  head.header = op.line;
  head.label = std::move(label);
  head.start_level = op.line->level;
  head.child_level = child_level;
  head.min_inputs = min_inputs;
  head.max_inputs = max_inputs;
  return head;
}

namespace {

// Reads the MFP lines at `level` under the wrapper line `wrapper` (`→Fused
// with Child/Parent Map/Filter/Project`) into `mfp`: there must be some, as
// the printer writes a wrapper only for an MFP that is not the identity.
absl::Status ReadWrappedMfp(const ErrorSink& errors, ConciseCursor& c,
                            const TextLine& wrapper, int level,
                            MapFilterProject* mfp,
                            const TextLine** temporal_line = nullptr) {
  LIR_ASSIGN_OR_RETURN(int read, ParseConciseMfpLines(errors, c, level, true,
                                                      mfp, temporal_line));
  if (read == 0) {
    return UnexpectedAt(
        errors, c,
        absl::StrCat("the MFP lines (Project:, Filter:, Map:, "
                     "TemporalFilter:) of '",
                     wrapper.content, "' at indentation level ", level));
  }
  return absl::OkStatus();
}

// Only a Get reading an arrangement or a collection, a Table Function and
// a GroupAggregate take an MFP fused from above (CONCISE-FORMAT 4).
absl::Status NotFusable(const ErrorSink& errors, const OperatorLine& op,
                        const FusedMfp& fused) {
  return errors.Expected(
      *op.line, 0,
      absl::StrCat("\xE2\x86\x92"
                   "Arranged (with its Key: line), \xE2\x86\x92Index Lookup "
                   "on, \xE2\x86\x92Read, \xE2\x86\x92Table Function or a "
                   "GroupAggregate under '\xE2\x86\x92"
                   "Fused with Child Map/Filter/Project' (line ",
                   errors.FileLine(fused.wrapper->number),
                   "): only those take a fused MFP"));
}

// `Key: (<key>)` and what follows the closing parenthesis in `*rest`.
absl::StatusOr<std::vector<ScalarExpr>> ParseGetKey(const ErrorSink& errors,
                                                    const TextLine& line,
                                                    absl::string_view* rest) {
  const absl::string_view content = line.content;
  const size_t close = MatchingClose(content, 5);
  if (close == absl::string_view::npos) {
    return errors.Expected(line, content.size(), "')' closing the key");
  }
  *rest = content.substr(close + 1);
  const absl::string_view list = content.substr(6, close - 6);
  if (list.empty()) return std::vector<ScalarExpr>{};  // `Key: ()`
  return ParseConciseAt(errors, line, 6, list, ParseCompactScalars);
}

absl::StatusOr<ConciseHead> ReadGet(const ErrorSink& errors, ConciseCursor& c,
                                    const OperatorLine& op,
                                    const FusedMfp* fused) {
  const int e = op.line->level;
  GetOp g;
  absl::string_view name;
  std::string label;
  if (absl::StartsWith(op.text, "Stream ")) {
    g.kind = GetKind::kPassArrangements;
    label = "Stream";
  } else if (absl::StartsWith(op.text, "Arranged ")) {
    // Get::Arrangement iff a `Key: (...)` line follows (pitfall 2).
    g.kind = c.At(e + 1, "Key: (") ? GetKind::kArrangement
                                   : GetKind::kPassArrangements;
    label = "Arranged";
  } else if (absl::StartsWith(op.text, "Index Lookup on ")) {
    g.kind = GetKind::kArrangement;
    label = "Index Lookup on";
  } else {
    g.kind = GetKind::kCollection;
    label = "Read";
  }
  name = op.text.substr(label.size() + 1);
  LIR_ASSIGN_OR_RETURN(
      g.id, ParseCollectionId(errors, *op.line, kOp + label.size() + 1, name));
  if (fused != nullptr) {
    if (g.kind == GetKind::kPassArrangements) {
      if (label == "Arranged") {
        return UnexpectedAt(
            errors, c,
            absl::StrCat("'Key: (...)' at indentation level ", e + 1,
                         ": a Get under '\xE2\x86\x92"
                         "Fused with Child Map/Filter/Project' reads an "
                         "arrangement by its key"));
      }
      return NotFusable(errors, op, *fused);
    }
    g.mfp = fused->mfp;
  }
  if (label == "Index Lookup on") {
    if (!c.At(e + 1, "Key: (")) {
      return UnexpectedAt(errors, c,
                          absl::StrCat("'Key: (...) Value: (...)' at "
                                       "indentation level ",
                                       e + 1));
    }
    const TextLine& line = c.Next();
    absl::string_view rest;
    LIR_ASSIGN_OR_RETURN(g.key, ParseGetKey(errors, line, &rest));
    const size_t at = line.content.size() - rest.size();
    if (!absl::ConsumePrefix(&rest, " Value: ")) {
      return errors.Expected(line, at, "' Value: (...)' after the key");
    }
    LIR_ASSIGN_OR_RETURN(g.seek,
                         ParseConciseAt(errors, line, at + 8, rest, ParseRow));
  } else if (g.kind == GetKind::kArrangement) {
    const TextLine& line = c.Next();
    absl::string_view rest;
    LIR_ASSIGN_OR_RETURN(g.key, ParseGetKey(errors, line, &rest));
    if (!rest.empty()) {
      return errors.Expected(line, line.content.size() - rest.size(),
                             "the end of the 'Key: (...)' line");
    }
  }
  // The concise form shows a PassArrangements Get's forms only when they
  // are the raw collection alone (`→Stream`); no other Get's (CONCISE-FORMAT
  // 6, Get).
  NodePtr node;
  const bool stream = label == "Stream";
  if (stream) g.keys.raw = true;
  node = MakeNode(std::move(g));
  if (!stream) node->unknown.Add(UnknownFact::kAvailableForms);
  return MakeHead(op, std::move(node), absl::StrCat(kArrow, label), e + 1, 0,
                  0);
}

absl::StatusOr<ConciseHead> ReadArrangeBy(const ErrorSink& errors,
                                          ConciseCursor& c,
                                          const OperatorLine& op) {
  const int e = op.line->level;
  ArrangeByOp a;
  NodePtr node;
  std::string label;
  UnknownFacts unknown;
  unknown.Add(UnknownFact::kInputKey);
  unknown.Add(UnknownFact::kArrangeStrategy);
  if (op.text == "Unarranged Raw Stream") {
    label = "Unarranged Raw Stream";
    a.forms.raw = true;
  } else {
    label = "Arrange";
    const absl::string_view text = op.text;
    for (size_t i = 7; i < text.size();) {
      if (text.substr(i, 2) != " (") {
        return errors.Expected(*op.line, kOp + i,
                               "' (<key>)', ' (empty key)' or the end of the "
                               "line");
      }
      const size_t close = MatchingClose(text, i + 1);
      if (close == absl::string_view::npos) {
        return errors.Expected(*op.line, kOp + text.size(),
                               "')' closing the key");
      }
      const absl::string_view list = text.substr(i + 2, close - i - 2);
      ArrangementForm form;
      if (list != "empty key") {
        if (list.empty()) {
          return errors.Expected(*op.line, kOp + i + 2,
                                 "a key, or '(empty key)'");
        }
        LIR_ASSIGN_OR_RETURN(form.key,
                             ParseConciseAt(errors, *op.line, kOp + i + 2, list,
                                            ParseCompactScalars));
      }
      a.forms.arranged.push_back(std::move(form));
      i = close + 1;
    }
    // `→Arrange` alone is raw=false with no arrangement, both shown; with
    // arrangements the raw flag and their layouts are not printed.
    if (!a.forms.arranged.empty()) {
      unknown.Add(UnknownFact::kRawFlag);
      unknown.Add(UnknownFact::kArrangementLayouts);
    }
  }
  int child_level = e + 1;
  if (c.AtOperator(e + 1)) {
    std::optional<LirId> id;
    LIR_ASSIGN_OR_RETURN(absl::string_view wrapper,
                         StripAnnotation(errors, c.Peek(), &id));
    if (wrapper.substr(kOp) == "Fused with Parent Map/Filter/Project") {
      const TextLine& line = c.Next();
      if (id.has_value()) {
        return errors.Expected(line, wrapper.size(),
                               "no node_id on a wrapper line");
      }
      LIR_RETURN_IF_ERROR(ReadWrappedMfp(errors, c, line, e + 2, &a.input_mfp));
      if (!c.AtOperator(e + 2)) {
        return UnexpectedAt(errors, c,
                            absl::StrCat("the input of ", kArrow, label,
                                         " at indentation level ", e + 2,
                                         ", under '", line.content, "'"));
      }
      child_level = e + 2;
    }
  }
  node = MakeNode(std::move(a));
  node->unknown = unknown;
  return MakeHead(op, std::move(node), absl::StrCat(kArrow, label), child_level,
                  1, 1);
}

// `→Set Difference <key>` / `→Anti Join <key>`, lir's own binary kinds
// (CONCISE-FORMAT 11).
absl::StatusOr<ConciseHead> ReadBinary(const ErrorSink& errors,
                                       const OperatorLine& op,
                                       absl::string_view label) {
  const size_t base = kOp + label.size() + 1;
  LIR_ASSIGN_OR_RETURN(
      std::vector<ScalarExpr> key,
      ParseKeyList(errors, *op.line, base, op.text.substr(label.size() + 1)));
  NodePtr node;
  if (label == "Set Difference") {
    SetDifferenceOp s;
    s.ensure_arrangement.key = std::move(key);
    node = MakeNode(std::move(s));
    node->unknown.Add(UnknownFact::kArrangementLayouts);
  } else {
    std::optional<std::vector<int>> columns = KeyColumns(key);
    if (!columns.has_value()) {
      return errors.Expected(*op.line, base, "plain column references");
    }
    AntiJoinOp a;
    a.key = *std::move(columns);
    node = MakeNode(std::move(a));
  }
  node->unknown.Add(UnknownFact::kArmKeys);
  return MakeHead(op, std::move(node), absl::StrCat(kArrow, label),
                  op.line->level + 1, 2, 2);
}

// The node whose operator line is at the cursor; `fused` is the MFP of a
// `→Fused with Child Map/Filter/Project` wrapper above it, if any.
absl::StatusOr<ConciseHead> ReadOperator(const ErrorSink& errors,
                                         ConciseCursor& c,
                                         const FusedMfp* fused) {
  LIR_ASSIGN_OR_RETURN(OperatorLine op, ReadOperatorLine(errors, c));
  const absl::string_view t = op.text;
  const int e = op.line->level;
  const bool fusable = absl::StartsWith(t, "Arranged ") ||
                       absl::StartsWith(t, "Index Lookup on ") ||
                       absl::StartsWith(t, "Read ") ||
                       absl::StartsWith(t, "Table Function ") ||
                       absl::EndsWith(t, "unnest_list") ||
                       absl::StrContains(t, "GroupAggregate");
  if (fused != nullptr && !fusable) return NotFusable(errors, op, *fused);

  if (absl::StartsWith(t, "Constant ")) {
    std::optional<uint64_t> count;
    LIR_ASSIGN_OR_RETURN(ConstantOp constant,
                         ParseConstantSummary(errors, *op.line, kOp + 9,
                                              t.substr(9), false, &count));
    constant.entry_count = count;
    NodePtr node = MakeNode(std::move(constant));
    if (count.has_value()) node->unknown.Add(UnknownFact::kConstantRows);
    return MakeHead(op, std::move(node),
                    "\xE2\x86\x92"
                    "Constant",
                    e + 1, 0, 0);
  }
  if (absl::StartsWith(t, "Stream ") || absl::StartsWith(t, "Arranged ") ||
      absl::StartsWith(t, "Index Lookup on ") || absl::StartsWith(t, "Read ")) {
    return ReadGet(errors, c, op, fused);
  }
  if (t == "Map/Filter/Project") {
    MfpOp m;
    LIR_ASSIGN_OR_RETURN(int read,
                         ParseConciseMfpLines(errors, c, e + 1, true, &m.mfp));
    NodePtr node = MakeNode(std::move(m));
    node->unknown.Add(UnknownFact::kInputKey);
    // The input is one level deeper when the MFP printed a line.
    return MakeHead(op, std::move(node), absl::StrCat(kArrow, t),
                    read > 0 ? e + 2 : e + 1, 1, 1);
  }
  if (absl::StartsWith(t, "Table Function ")) {
    FlatMapOp f;
    LIR_RETURN_IF_ERROR(
        ParseFlatMapHeader(errors, *op.line, t.substr(15), kOp + 15, &f));
    if (fused != nullptr) f.mfp_after = fused->mfp;
    NodePtr node = MakeNode(std::move(f));
    node->unknown.Add(UnknownFact::kInputKey);
    return MakeHead(op, std::move(node), "\xE2\x86\x92Table Function", e + 1, 1,
                    1);
  }
  if (absl::StrContains(t, "Join ") &&
      (absl::StartsWith(t, "Differential ") || absl::StartsWith(t, "Delta ") ||
       absl::StartsWith(t, "One-Shot "))) {
    ConciseHead head;
    head.header = op.line;
    head.start_level = e;
    head.child_level = e + 1;
    LIR_RETURN_IF_ERROR(ParseConciseJoin(errors, c, *op.line, t, &head));
    if (op.id.has_value()) head.node->id = *op.id;
    return head;
  }
  if (IsReduceOperator(t)) return ReadReduce(errors, c, op, fused);
  const OperatorPrefixes p = SplitPrefixes(t);
  if (p.rest == "Monotonic Top1" || p.rest == "Monotonic TopK" ||
      p.rest == "Non-monotonic TopK") {
    return ReadTopK(errors, c, op, p);
  }
  if (p.rest == "Union") {
    UnionOp u;
    u.consolidate_output = p.consolidating;
    ConciseHead head = MakeHead(op, MakeNode(std::move(u)), "\xE2\x86\x92Union",
                                e + 1, 1, std::numeric_limits<size_t>::max());
    head.temporally_bucketed_union = p.temporally_bucketed;
    return head;
  }
  if (!p.temporally_bucketed && !p.consolidating) {
    if (t == "Negate Diffs") {
      return MakeHead(op, MakeNode(NegateOp{}), "\xE2\x86\x92Negate Diffs",
                      e + 1, 1, 1);
    }
    if (absl::StartsWith(t, "Threshold Diffs ")) {
      ThresholdOp th;
      LIR_ASSIGN_OR_RETURN(
          th.ensure_arrangement.key,
          ParseKeyList(errors, *op.line, kOp + 16, t.substr(16)));
      NodePtr node = MakeNode(std::move(th));
      node->unknown.Add(UnknownFact::kArrangementLayouts);
      return MakeHead(op, std::move(node), "\xE2\x86\x92Threshold Diffs", e + 1,
                      1, 1);
    }
    if (t == "Unarranged Raw Stream" || t == "Arrange" ||
        absl::StartsWith(t, "Arrange (")) {
      return ReadArrangeBy(errors, c, op);
    }
    if (absl::StartsWith(t, "Set Difference ")) {
      return ReadBinary(errors, op, "Set Difference");
    }
    if (absl::StartsWith(t, "Anti Join ")) {
      return ReadBinary(errors, op, "Anti Join");
    }
    if (t == "Return") {
      return errors.Expected(*op.line, 0,
                             "a child plan ('\xE2\x86\x92Return' belongs to "
                             "a '\xE2\x86\x92With' block, at its level)");
    }
    if (t == "Fused with Parent Map/Filter/Project") {
      return errors.Expected(
          *op.line, 0,
          "a child plan ('\xE2\x86\x92"
          "Fused with Parent Map/Filter/Project' belongs one level under "
          "\xE2\x86\x92"
          "Arrange or \xE2\x86\x92Unarranged Raw Stream)");
    }
  }
  return errors.Expected(*op.line, 0, kConciseOperators);
}

}  // namespace

absl::StatusOr<ConciseHead> ReadConciseHead(const ErrorSink& errors,
                                            ConciseCursor& c) {
  const TextLine& first = c.Peek();
  if (!absl::StartsWith(first.content, kArrow)) {
    return UnexpectedLine(errors, first, kConciseOperators);
  }
  const int s = first.level;
  std::optional<LirId> id;
  LIR_ASSIGN_OR_RETURN(absl::string_view text,
                       StripAnnotation(errors, first, &id));
  if (text.substr(kOp) != "Fused with Child Map/Filter/Project") {
    return ReadOperator(errors, c, nullptr);
  }
  LIR_ASSIGN_OR_RETURN(OperatorLine wrapper, ReadOperatorLine(errors, c));
  LIR_RETURN_IF_ERROR(NoAnnotation(errors, wrapper));
  FusedMfp fused;
  fused.wrapper = &first;
  LIR_RETURN_IF_ERROR(ReadWrappedMfp(errors, c, first, s + 1, &fused.mfp,
                                     &fused.temporal_line));
  if (!c.AtOperator(s + 2)) {
    return UnexpectedAt(
        errors, c,
        absl::StrCat("the node '", first.content,
                     "' applies to at indentation level ", s + 2,
                     " (\xE2\x86\x92"
                     "Arranged, \xE2\x86\x92Index Lookup on, "
                     "\xE2\x86\x92Read, \xE2\x86\x92Table Function or a "
                     "GroupAggregate)"));
  }
  LIR_ASSIGN_OR_RETURN(ConciseHead head, ReadOperator(errors, c, &fused));
  head.start_level = s;
  return head;
}

}  // namespace lir::explain::internal
