// Parses the attribute lines of Join::Linear and Join::Delta nodes:
// closures, lookup stages and sources (../shared/reference/TEXT-FORMAT.md
// section 3).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "lir/status_macros.h"
#include "src/explain/text_lines.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// Parses `content` of `line` starting at `base` with a primitive parser.
#define LIR_PARSE_AT(lhs, line, base, text, fn) \
  LIR_ASSIGN_OR_RETURN(lhs, ParseAt(errors, line, base, text, fn))

// `{ relation=<r>, key=[...] }` or `{ relation=<r>, raw }` after `source=`.
absl::Status ParseSource(const ErrorSink& errors, const TextLine& line,
                         JoinPath* path) {
  LIR_ASSIGN_OR_RETURN(absl::string_view body,
                       Between(errors, line, "source={ relation=", " }",
                               "'source={ relation=...'"));
  size_t comma = body.find(", ");
  if (comma == absl::string_view::npos ||
      !absl::SimpleAtoi(body.substr(0, comma), &path->source_relation)) {
    return errors.Expected(line, 18, "relation number followed by ', '");
  }
  absl::string_view rest = body.substr(comma + 2);
  if (rest == "raw") return absl::OkStatus();
  size_t base = 18 + comma + 2;
  if (!absl::ConsumePrefix(&rest, "key=[") ||
      !absl::ConsumeSuffix(&rest, "]")) {
    return errors.Expected(line, base, "'raw' or 'key=[...]'");
  }
  LIR_PARSE_AT(path->source_key, line, base + 5, rest, ParseCompactScalars);
  return absl::OkStatus();
}

// A closure block: label at `level`, content one deeper.
absl::StatusOr<JoinClosure> ParseClosure(const ErrorSink& errors, LineCursor& c,
                                         int level) {
  c.Next();  // the label
  JoinClosure closure;
  LIR_RETURN_IF_ERROR(ParseMfpLines(errors, c, level + 1,
                                    /*allow_temporal=*/false, &closure.mfp));
  if (c.At(level + 1, "ready_equivalences=")) {
    const TextLine& line = c.Next();
    constexpr size_t kBase = 19;  // strlen("ready_equivalences=")
    absl::string_view text = line.content.substr(kBase);
    // Classes are separated by ` AND `, members by ` = `, both at depth 0.
    for (auto [cls_begin, cls] : SplitTopLevel(text, " AND ")) {
      std::vector<ScalarExpr> members;
      for (auto [member_begin, member] : SplitTopLevel(cls, " = ")) {
        LIR_PARSE_AT(ScalarExpr e, line, kBase + cls_begin + member_begin,
                     member, ParseExpr);
        members.push_back(std::move(e));
      }
      closure.ready_equivalences.push_back(std::move(members));
    }
  }
  return closure;
}

absl::StatusOr<JoinStage> ParseStage(const ErrorSink& errors, LineCursor& c,
                                     int level) {
  JoinStage stage;
  if (c.AtExactly(level, "closure")) {
    LIR_ASSIGN_OR_RETURN(stage.closure, ParseClosure(errors, c, level));
  }
  if (!c.At(level, "lookup={ relation=")) {
    if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected 'lookup='");
    return errors.Expected(c.Peek(), 0, "'lookup={ relation=...' or 'closure'");
  }
  {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(absl::string_view body,
                         Between(errors, line, "lookup={ relation=", "] }",
                                 "'lookup={ relation=..., key=[...] }'"));
    size_t comma = body.find(", key=[");
    if (comma == absl::string_view::npos ||
        !absl::SimpleAtoi(body.substr(0, comma), &stage.lookup_relation)) {
      return errors.Expected(line, 18, "relation number followed by ', key=['");
    }
    LIR_PARSE_AT(stage.lookup_key, line, 18 + comma + 7, body.substr(comma + 7),
                 ParseCompactScalars);
  }
  if (!c.At(level, "stream={ key=[")) {
    if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected 'stream='");
    return errors.Expected(c.Peek(), 0,
                           "'stream={ key=[...], thinning=(...) }'");
  }
  const TextLine& line = c.Next();
  LIR_ASSIGN_OR_RETURN(absl::string_view body,
                       Between(errors, line, "stream={ key=[", ") }",
                               "'stream={ key=[...], thinning=(...) }'"));
  size_t sep = body.rfind("], thinning=(");
  if (sep == absl::string_view::npos) {
    return errors.Expected(line, 14, "'], thinning=('");
  }
  LIR_PARSE_AT(stage.stream_key, line, 14, body.substr(0, sep),
               ParseCompactScalars);
  LIR_PARSE_AT(stage.stream_thinning, line, 14 + sep + 13,
               body.substr(sep + 13), ParseIndices);
  return stage;
}

// The content of a linear join (at `level`) or a delta path.
absl::StatusOr<JoinPath> ParseJoinPath(const ErrorSink& errors, LineCursor& c,
                                       int level, bool delta) {
  JoinPath path;
  if (c.AtExactly(level, "final_closure")) {
    LIR_ASSIGN_OR_RETURN(path.final_closure, ParseClosure(errors, c, level));
  }
  absl::string_view stage_label = delta ? "delta_stage[" : "linear_stage[";
  std::vector<int> indexes;
  while (c.At(level, stage_label)) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(
        absl::string_view num,
        Between(errors, line, stage_label, "]", "stage label"));
    int index = 0;
    if (!absl::SimpleAtoi(num, &index) || index < 0) {
      return errors.Expected(line, stage_label.size(), "a stage number");
    }
    indexes.push_back(index);
    LIR_ASSIGN_OR_RETURN(JoinStage stage, ParseStage(errors, c, level + 1));
    path.stages.push_back(std::move(stage));
  }
  // Linear stages print ascending, delta stages descending; both from/to 0.
  for (size_t i = 0; i < indexes.size(); ++i) {
    int want =
        delta ? static_cast<int>(indexes.size() - 1 - i) : static_cast<int>(i);
    if (indexes[i] != want) {
      return errors.AtEnd(c.LineNumberHint(),
                          absl::StrCat("expected stage index ", want,
                                       " but found ", indexes[i]));
    }
  }
  if (delta) std::reverse(path.stages.begin(), path.stages.end());
  if (c.AtExactly(level, "initial_closure")) {
    LIR_ASSIGN_OR_RETURN(path.initial_closure, ParseClosure(errors, c, level));
  }
  if (!c.At(level, "source=")) {
    if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected 'source='");
    return errors.Expected(c.Peek(), 0, "'source=' or a join stage");
  }
  LIR_RETURN_IF_ERROR(ParseSource(errors, c.Next(), &path));
  return path;
}

}  // namespace

absl::Status ParseJoin(const ErrorSink& errors, LineCursor& c, int level,
                       JoinOp* join) {
  if (!join->delta) {
    LIR_ASSIGN_OR_RETURN(JoinPath path, ParseJoinPath(errors, c, level, false));
    join->paths.push_back(std::move(path));
    return absl::OkStatus();
  }
  for (size_t p = 0; c.AtExactly(level, absl::StrCat("plan_path[", p, "]"));
       ++p) {
    c.Next();
    LIR_ASSIGN_OR_RETURN(JoinPath path,
                         ParseJoinPath(errors, c, level + 1, true));
    join->paths.push_back(std::move(path));
  }
  if (join->paths.empty()) {
    if (c.Done())
      return errors.AtEnd(c.LineNumberHint(), "expected 'plan_path[0]'");
    return errors.Expected(c.Peek(), 0, "'plan_path[0]'");
  }
  return absl::OkStatus();
}

}  // namespace lir::explain::internal
