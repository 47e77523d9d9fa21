// Parses one node's header line and attribute lines
// (../shared/reference/TEXT-FORMAT.md section 3). The structure of the tree
// (children, With blocks) is handled by text_parser.cc; attribute blocks are
// shallow, so this code may recurse.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "lir/status_macros.h"
#include "src/explain/text_lines.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"
#include "src/lir/string_view_compat.h"

namespace lir::explain::internal {

size_t StringLiteralEnd(absl::string_view text, size_t open) {
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i;
    }
  }
  return text.size();
}

// Splits `text` at occurrences of `sep` outside brackets and string
// literals; returns (offset, piece) pairs.
std::vector<std::pair<size_t, absl::string_view>> SplitTopLevel(
    absl::string_view text, absl::string_view sep) {
  std::vector<std::pair<size_t, absl::string_view>> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '"') {
      i = StringLiteralEnd(text, i);
    } else if (ch == '(' || ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ')' || ch == ']' || ch == '}') {
      --depth;
    } else if (depth == 0 && text.substr(i, sep.size()) == sep) {
      pieces.push_back({start, text.substr(start, i - start)});
      start = i + sep.size();
      i = start - 1;
    }
  }
  pieces.push_back({start, text.substr(start)});
  return pieces;
}

// Strips `prefix` and `suffix` around a line's content or fails, naming
// the expected form.
absl::StatusOr<absl::string_view> Between(const ErrorSink& errors,
                                          const TextLine& line,
                                          absl::string_view prefix,
                                          absl::string_view suffix,
                                          absl::string_view what) {
  absl::string_view s = line.content;
  if (!absl::StartsWith(s, prefix)) return errors.Expected(line, 0, what);
  s.remove_prefix(prefix.size());
  if (!absl::EndsWith(s, suffix)) {
    return errors.Expected(line, line.content.size(),
                           absl::StrCat("'", suffix, "' at end of ", what));
  }
  s.remove_suffix(suffix.size());
  return s;
}

namespace {

// Parses `content` of `line` starting at `base` with a primitive parser.
#define LIR_PARSE_AT(lhs, line, base, text, fn) \
  LIR_ASSIGN_OR_RETURN(lhs, ParseAt(errors, line, base, text, fn))

absl::StatusOr<bool> ParseRawLine(const ErrorSink& errors, LineCursor& c,
                                  int level) {
  if (c.AtExactly(level, "raw=true")) {
    c.Next();
    return true;
  }
  if (c.AtExactly(level, "raw=false")) {
    c.Next();
    return false;
  }
  if (c.Done()) {
    return errors.AtEnd(c.LineNumberHint(),
                        "expected 'raw=true' or 'raw=false'");
  }
  return errors.Expected(c.Peek(), 0, "'raw=true' or 'raw=false'");
}

// `raw=...` then `arrangements[i]=...` for i = 0, 1, ...
absl::Status ParseCollections(const ErrorSink& errors, LineCursor& c, int level,
                              AvailableCollections* keys) {
  LIR_ASSIGN_OR_RETURN(keys->raw, ParseRawLine(errors, c, level));
  for (size_t i = 0;; ++i) {
    std::string prefix = absl::StrCat("arrangements[", i, "]=");
    if (!c.At(level, prefix)) break;
    const TextLine& line = c.Next();
    absl::string_view text = line.content.substr(prefix.size());
    LIR_PARSE_AT(ArrangementForm form, line, prefix.size(), text,
                 ParseArrangement);
    keys->arranged.push_back(std::move(form));
  }
  return absl::OkStatus();
}

// A compact scalar list after `prefix`, optionally wrapped in brackets.
absl::StatusOr<std::vector<ScalarExpr>> ParseKeyLine(const ErrorSink& errors,
                                                     const TextLine& line,
                                                     absl::string_view prefix,
                                                     bool bracketed) {
  LIR_ASSIGN_OR_RETURN(
      absl::string_view text,
      Between(errors, line, absl::StrCat(prefix, bracketed ? "[" : ""),
              bracketed ? "]" : "", absl::StrCat("'", prefix, "'")));
  size_t base = prefix.size() + (bracketed ? 1 : 0);
  LIR_PARSE_AT(std::vector<ScalarExpr> key, line, base, text,
               ParseCompactScalars);
  return key;
}

absl::StatusOr<Row> ParseRowLine(const ErrorSink& errors, const TextLine& line,
                                 absl::string_view prefix) {
  absl::string_view text = line.content.substr(prefix.size());
  LIR_PARSE_AT(Row row, line, prefix.size(), text, ParseRow);
  return row;
}

// `(<pos>, <aggregate>)` after `prefix`.
absl::StatusOr<std::pair<int, AggregateExpr>> ParsePositionedAggregate(
    const ErrorSink& errors, const TextLine& line, absl::string_view prefix) {
  LIR_ASSIGN_OR_RETURN(absl::string_view body,
                       Between(errors, line, absl::StrCat(prefix, "("), ")",
                               "'(<position>, <aggregate>)'"));
  size_t comma = body.find(", ");
  int pos = 0;
  if (comma == absl::string_view::npos ||
      !absl::SimpleAtoi(body.substr(0, comma), &pos)) {
    return errors.Expected(line, prefix.size() + 1,
                           "aggregate position and ', '");
  }
  LIR_PARSE_AT(AggregateExpr agg, line, prefix.size() + 1 + comma + 2,
               body.substr(comma + 2), ParseAggregate);
  return std::make_pair(pos, std::move(agg));
}

// An indexed attribute family `name[0]=...`, `name[1]=...`.
template <typename Fn>
absl::Status ParseIndexed(LineCursor& c, int level, absl::string_view name,
                          Fn&& fn) {
  for (size_t i = 0;; ++i) {
    std::string prefix = absl::StrCat(name, "[", i, "]=");
    if (!c.At(level, prefix)) return absl::OkStatus();
    LIR_RETURN_IF_ERROR(fn(c.Next(), prefix));
  }
}

// A `name=id` line or a `name` label with MFP lines below.
absl::Status ParseKeyValPlan(const ErrorSink& errors, LineCursor& c, int level,
                             absl::string_view name, MapFilterProject* mfp) {
  if (c.AtExactly(level, absl::StrCat(name, "=id"))) {
    c.Next();
    return absl::OkStatus();
  }
  if (!c.AtExactly(level, name)) {
    std::string what = absl::StrCat("'", name, "=id' or '", name, "'");
    if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected " + what);
    return errors.Expected(c.Peek(), 0, what);
  }
  c.Next();
  return ParseMfpLines(errors, c, level + 1, /*allow_temporal=*/false, mfp);
}

absl::Status ParseReduce(const ErrorSink& errors, LineCursor& c, int level,
                         ReduceOp* r) {
  switch (r->kind) {
    case ReduceKind::kDistinct: break;
    case ReduceKind::kAccumulable: {
      auto into = [&](std::vector<std::pair<int, AggregateExpr>>* out) {
        return [&errors, out](const TextLine& line,
                              absl::string_view prefix) -> absl::Status {
          LIR_ASSIGN_OR_RETURN(auto agg,
                               ParsePositionedAggregate(errors, line, prefix));
          out->push_back(std::move(agg));
          return absl::OkStatus();
        };
      };
      LIR_RETURN_IF_ERROR(
          ParseIndexed(c, level, "simple_aggrs", into(&r->simple_aggrs)));
      LIR_RETURN_IF_ERROR(
          ParseIndexed(c, level, "distinct_aggrs", into(&r->distinct_aggrs)));
      break;
    }
    case ReduceKind::kHierarchicalMonotonic:
    case ReduceKind::kHierarchicalBucketed: {
      if (!c.At(level, "aggr_funcs=[")) {
        if (c.Done())
          return errors.AtEnd(c.LineNumberHint(), "expected 'aggr_funcs=['");
        return errors.Expected(c.Peek(), 0, "'aggr_funcs=['");
      }
      const TextLine& line = c.Next();
      LIR_ASSIGN_OR_RETURN(
          absl::string_view list,
          Between(errors, line, "aggr_funcs=[", "]", "'aggr_funcs=[...]'"));
      if (!list.empty()) {
        for (absl::string_view name : absl::StrSplit(list, ", ")) {
          r->aggr_funcs.emplace_back(name);
        }
      }
      if (c.AtExactly(level, "monotonic")) {
        c.Next();
        r->kind = ReduceKind::kHierarchicalMonotonic;
        if (c.AtExactly(level, "must_consolidate")) {
          c.Next();
          r->must_consolidate = true;
        }
      } else if (c.At(level, "buckets=[")) {
        const TextLine& bl = c.Next();
        r->kind = ReduceKind::kHierarchicalBucketed;
        LIR_ASSIGN_OR_RETURN(
            absl::string_view nums,
            Between(errors, bl, "buckets=[", "]", "'buckets=[...]'"));
        if (!nums.empty()) {
          for (absl::string_view n : absl::StrSplit(nums, ", ")) {
            uint64_t value = 0;
            if (!absl::SimpleAtoi(n, &value)) {
              return errors.Expected(bl, 9 + (n.data() - nums.data()),
                                     "a bucket size");
            }
            r->buckets.push_back(value);
          }
        }
      } else {
        if (c.Done())
          return errors.AtEnd(c.LineNumberHint(),
                              "expected 'monotonic' or 'buckets=['");
        return errors.Expected(c.Peek(), 0, "'monotonic' or 'buckets=['");
      }
      break;
    }
    case ReduceKind::kBasicSingle:
    case ReduceKind::kBasicMultiple: {
      if (c.At(level, "aggr=(")) {
        const TextLine& line = c.Next();
        r->kind = ReduceKind::kBasicSingle;
        LIR_ASSIGN_OR_RETURN(
            absl::string_view body,
            Between(errors, line, "aggr=(", ")", "'aggr=(...)'"));
        r->fused_unnest_list =
            absl::ConsumeSuffix(&body, ", fused_unnest_list=true");
        LIR_PARSE_AT(AggregateExpr agg, line, 6, body, ParseAggregate);
        r->aggrs.push_back(std::move(agg));
      } else if (c.At(level, "aggrs[0]=")) {
        r->kind = ReduceKind::kBasicMultiple;
        LIR_RETURN_IF_ERROR(ParseIndexed(
            c, level, "aggrs",
            [&](const TextLine& line,
                absl::string_view prefix) -> absl::Status {
              LIR_PARSE_AT(AggregateExpr agg, line, prefix.size(),
                           line.content.substr(prefix.size()), ParseAggregate);
              r->aggrs.push_back(std::move(agg));
              return absl::OkStatus();
            }));
      } else {
        if (c.Done())
          return errors.AtEnd(c.LineNumberHint(),
                              "expected 'aggr=(' or 'aggrs[0]='");
        return errors.Expected(c.Peek(), 0, "'aggr=(' or 'aggrs[0]='");
      }
      break;
    }
  }
  if (c.At(level, "input_key=")) {
    LIR_ASSIGN_OR_RETURN(r->input_key,
                         ParseKeyLine(errors, c.Next(), "input_key=", false));
  }
  if (c.AtExactly(level, "temporal_bucketing_strategy=TemporalBucketing")) {
    c.Next();
    r->temporal_bucketing = true;
  }
  LIR_RETURN_IF_ERROR(
      ParseKeyValPlan(errors, c, level, "key_plan", &r->key_plan));
  LIR_RETURN_IF_ERROR(
      ParseKeyValPlan(errors, c, level, "val_plan", &r->val_plan));
  if (c.AtExactly(level, "mfp_after")) {
    c.Next();
    LIR_RETURN_IF_ERROR(
        ParseMfpLines(errors, c, level + 1, false, &r->mfp_after));
  }
  return absl::OkStatus();
}

// Parses the inline attributes after `TopK::<plan>`.
absl::Status ParseTopKHeader(const ErrorSink& errors, const TextLine& line,
                             size_t base, absl::string_view header, TopKOp* t) {
  const size_t header_len = header.size();
  absl::string_view rest = header;
  auto offset = [&] { return base + header_len - rest.size(); };
  auto bracketed = [&](absl::string_view key,
                       absl::string_view* out) -> absl::Status {
    // The list runs to the first `]` that closes the opening bracket.
    int depth = 0;
    for (size_t i = key.size(); i < rest.size(); ++i) {
      if (rest[i] == '[') ++depth;
      if (rest[i] == ']') {
        if (depth == 0) {
          *out = rest.substr(key.size(), i - key.size());
          rest.remove_prefix(i + 1);
          return absl::OkStatus();
        }
        --depth;
      }
    }
    return errors.Expected(line, offset(),
                           absl::StrCat("']' closing '", key, "'"));
  };
  if (absl::StartsWith(rest, " group_by=[")) {
    absl::string_view list;
    size_t base = offset() + 11;
    LIR_RETURN_IF_ERROR(bracketed(" group_by=[", &list));
    LIR_PARSE_AT(t->group_by, line, base, list, ParseIndices);
  }
  if (absl::StartsWith(rest, " order_by=[")) {
    absl::string_view list;
    size_t base = offset() + 11;
    LIR_RETURN_IF_ERROR(bracketed(" order_by=[", &list));
    LIR_PARSE_AT(t->order_by, line, base, list, ParseOrderKeys);
  }
  // The limit is an expression running to the trailing flags.
  if (t->kind != TopKKind::kBasic &&
      absl::ConsumeSuffix(&rest, " must_consolidate")) {
    t->must_consolidate = true;
  }
  if (t->kind == TopKKind::kBasic) {
    size_t pos = rest.rfind(" offset=");
    if (pos != absl::string_view::npos &&
        absl::SimpleAtoi(rest.substr(pos + 8), &t->offset)) {
      rest = rest.substr(0, pos);
    }
  }
  if (t->kind != TopKKind::kMonotonicTop1 &&
      absl::StartsWith(rest, " limit=")) {
    size_t base = offset() + 7;
    LIR_PARSE_AT(t->limit, line, base, rest.substr(7), ParseExpr);
    rest = {};
  }
  if (!rest.empty()) {
    return errors.Expected(line, offset(),
                           "TopK attribute (group_by=, order_by=, limit=, "
                           "offset=, must_consolidate) or end of line");
  }
  return absl::OkStatus();
}

absl::Status ParseConstantRows(const ErrorSink& errors, LineCursor& c,
                               int level, ConstantOp* op) {
  int row_level = level;
  if (c.At(level, "total_rows (diffs absed): ")) {
    const TextLine& line = c.Next();
    int64_t total = 0;
    if (!absl::SimpleAtoi(line.content.substr(26), &total)) {
      return errors.Expected(line, 26, "a row count");
    }
    op->elided_total_rows = total;
    if (!c.AtExactly(level, "first_rows:")) {
      if (c.Done())
        return errors.AtEnd(c.LineNumberHint(), "expected 'first_rows:'");
      return errors.Expected(c.Peek(), 0, "'first_rows:'");
    }
    c.Next();
    ++row_level;
  }
  while (c.At(row_level, "- ")) {
    const TextLine& line = c.Next();
    LIR_PARSE_AT(ConstantOp::Entry entry, line, 2, line.content.substr(2),
                 ParseConstantRow);
    op->rows.push_back(std::move(entry));
  }
  if (op->rows.empty()) {
    if (c.Done())
      return errors.AtEnd(c.LineNumberHint(),
                          "expected constant rows '- (...)'");
    return errors.Expected(c.Peek(), 0, "constant row '- (...)'");
  }
  return absl::OkStatus();
}

absl::Status ParseGetAttributes(const ErrorSink& errors, LineCursor& c,
                                int level, GetOp* g) {
  if (g->kind != GetKind::kPassArrangements) {
    LIR_RETURN_IF_ERROR(ParseMfpLines(errors, c, level, true, &g->mfp));
  }
  if (g->kind == GetKind::kArrangement) {
    if (!c.At(level, "key=")) {
      if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected 'key='");
      return errors.Expected(c.Peek(), 0, "'key=' or an MFP line");
    }
    LIR_ASSIGN_OR_RETURN(g->key, ParseKeyLine(errors, c.Next(), "key=", false));
    if (c.At(level, "val=")) {
      LIR_ASSIGN_OR_RETURN(g->seek, ParseRowLine(errors, c.Next(), "val="));
    }
  }
  return ParseCollections(errors, c, level, &g->keys);
}

}  // namespace

absl::StatusOr<CollectionId> ParseCollectionId(const ErrorSink& errors,
                                               const TextLine& line,
                                               size_t base,
                                               absl::string_view text) {
  if (LooksLikeLocalId(text)) {
    uint64_t local = 0;
    (void)absl::SimpleAtoi(text.substr(1), &local);
    return CollectionId::Local(local);
  }
  // A global name runs to the end of the header (Materialize prints it
  // unquoted, spaces included); see text_names.h.
  LIR_ASSIGN_OR_RETURN(ParsedName name,
                       ParseAt(errors, line, base, text, ParseName));
  return CollectionId::Global(std::move(name.name));
}

absl::Status ParseFlatMapHeader(const ErrorSink& errors, const TextLine& line,
                                absl::string_view text, size_t base,
                                FlatMapOp* f) {
  if (text.empty() || text.back() != ')') {
    return errors.Expected(line, base + text.size(),
                           "')' ending the arguments");
  }
  size_t group_start = TableFunctionArgsStart(ToStd(text));
  if (group_start == absl::string_view::npos || group_start == 0) {
    return errors.Expected(line, base, "a table function call 'name(args)'");
  }
  // The JSON form refuses such a name (json_text_checks.cc), so accepting
  // it here would make a text plan whose JSON form does not read back.
  if (text.front() == ' ' || text[group_start - 1] == ' ') {
    return errors.Expected(
        line, base, "a table function name without leading or trailing space");
  }
  f->func = std::string(text.substr(0, group_start));
  absl::string_view args =
      text.substr(group_start + 1, text.size() - group_start - 2);
  LIR_PARSE_AT(f->exprs, line, base + group_start + 1, args,
               ParseCompactScalars);
  return absl::OkStatus();
}

namespace {

absl::StatusOr<ArrangementForm> ParseEnsureArrangement(const ErrorSink& errors,
                                                       const TextLine& line,
                                                       absl::string_view header,
                                                       absl::string_view name) {
  std::string prefix = absl::StrCat(name, " ensure_arrangement=");
  if (!absl::StartsWith(header, prefix)) {
    return errors.Expected(line, name.size(), "' ensure_arrangement={ ... }'");
  }
  LIR_PARSE_AT(ArrangementForm form, line, prefix.size(),
               header.substr(prefix.size()), ParseArrangement);
  return form;
}

// The key of an `AntiJoin key=[<columns>]` header (without its annotation).
absl::StatusOr<std::vector<int>> ParseAntiJoinKey(const ErrorSink& errors,
                                                  const TextLine& line,
                                                  absl::string_view header) {
  constexpr absl::string_view kPrefix = "AntiJoin key=[";
  if (!absl::EndsWith(header, "]")) {
    return errors.Expected(line, header.size(), "']' ending 'key=[...]'");
  }
  absl::string_view list =
      header.substr(kPrefix.size(), header.size() - kPrefix.size() - 1);
  LIR_PARSE_AT(std::vector<ScalarExpr> key, line, kPrefix.size(), list,
               ParseCompactScalars);
  std::optional<std::vector<int>> columns = KeyColumns(key);
  if (!columns.has_value()) {
    return errors.Expected(line, kPrefix.size(), "plain column references");
  }
  return *columns;
}

absl::StatusOr<std::vector<int>> ParseColumnKeyLine(const ErrorSink& errors,
                                                    LineCursor& c, int level,
                                                    absl::string_view name) {
  if (!c.At(level, name)) {
    std::string what = absl::StrCat("'", name, "[...]'");
    if (c.Done()) return errors.AtEnd(c.LineNumberHint(), "expected " + what);
    return errors.Expected(c.Peek(), 0, what);
  }
  const TextLine& line = c.Next();
  LIR_ASSIGN_OR_RETURN(std::vector<ScalarExpr> key,
                       ParseKeyLine(errors, line, name, true));
  std::optional<std::vector<int>> columns = KeyColumns(key);
  if (!columns.has_value()) {
    return errors.Expected(line, name.size() + 1, "plain column references");
  }
  return *columns;
}

// One spelling of a header with plan variants (`Get::Collection `).
template <typename E>
struct HeaderVariant {
  absl::string_view prefix;
  E kind;
};

// Finds the variant `text` starts with; sets `*kind` and returns the text
// after the prefix.
template <typename E, size_t N>
std::optional<absl::string_view> MatchVariant(
    absl::string_view text, const HeaderVariant<E> (&table)[N], E* kind) {
  for (const HeaderVariant<E>& variant : table) {
    if (absl::StartsWith(text, variant.prefix)) {
      *kind = variant.kind;
      return text.substr(variant.prefix.size());
    }
  }
  return std::nullopt;
}

}  // namespace

absl::Status ParseMfpLines(const ErrorSink& errors, LineCursor& c, int level,
                           bool allow_temporal, MapFilterProject* mfp) {
  if (c.At(level, "project=(")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(
        absl::string_view list,
        Between(errors, line, "project=(", ")", "'project=(...)'"));
    LIR_PARSE_AT(mfp->project, line, 9, list, ParseIndices);
  }
  if (c.At(level, "filter=(")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(
        absl::string_view list,
        Between(errors, line, "filter=(", ")", "'filter=(...)'"));
    LIR_PARSE_AT(mfp->filter, line, 8, list, ParsePredicates);
  }
  if (c.At(level, "map=(")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(absl::string_view list,
                         Between(errors, line, "map=(", ")", "'map=(...)'"));
    LIR_PARSE_AT(mfp->map, line, 5, list, ParseExprList);
  }
  if (allow_temporal && c.At(level, "TemporalFilter: ")) {
    TemporalFilter temporal;
    LIR_RETURN_IF_ERROR(ParseTemporalFilterLine(errors, c.Next(), &temporal));
    mfp->temporal = std::move(temporal);
  }
  return absl::OkStatus();
}

absl::Status ParseTemporalFilterLine(const ErrorSink& errors,
                                     const TextLine& line,
                                     TemporalFilter* temporal) {
  absl::string_view text = line.content.substr(16);
  size_t now = text.find("mz_now()");
  if (now == absl::string_view::npos) {
    return errors.Expected(line, 16, "'mz_now()'");
  }
  if (now > 0) {
    if (!absl::EndsWith(text.substr(0, now), " <= ")) {
      return errors.Expected(line, 16 + now, "' <= ' before 'mz_now()'");
    }
    LIR_PARSE_AT(temporal->lower, line, 16, text.substr(0, now - 4),
                 ParseExprList);
  }
  absl::string_view after = text.substr(now + 8);
  if (!after.empty()) {
    if (!absl::StartsWith(after, " < ")) {
      return errors.Expected(line, 16 + now + 8, "' < ' or end of line");
    }
    LIR_PARSE_AT(temporal->upper, line, 16 + now + 11, after.substr(3),
                 ParseExprList);
  }
  return absl::OkStatus();
}

absl::StatusOr<NodePtr> ParseNodeHeader(const ErrorSink& errors,
                                        const TextLine& header,
                                        absl::string_view text, LineCursor& c) {
  const int d1 = header.level + 1;
  auto starts = [&](absl::string_view prefix) {
    return absl::StartsWith(text, prefix);
  };
  if (text == "Constant") {
    ConstantOp op;
    LIR_RETURN_IF_ERROR(ParseConstantRows(errors, c, d1, &op));
    return MakeNode(std::move(op));
  }
  if (text == "Constant <empty>") return MakeNode(ConstantOp{});
  if (text == "Error █") {
    ConstantOp op;
    op.error = "";
    op.error_redacted = true;
    return MakeNode(std::move(op));
  }
  if (starts("Error \"")) {
    if (text.size() < 8 || text.back() != '"') {
      return errors.Expected(header, text.size(),
                             "'\"' closing the error message");
    }
    std::string message;
    absl::string_view body = text.substr(7, text.size() - 8);
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] == '\\' && i + 1 < body.size() && body[i + 1] == '"') ++i;
      message += body[i];
    }
    ConstantOp op;
    op.error = std::move(message);
    return MakeNode(std::move(op));
  }
  if (starts("Get::")) {
    GetOp g;
    static constexpr HeaderVariant<GetKind> kGetKinds[] = {
        {"Get::PassArrangements ", GetKind::kPassArrangements},
        {"Get::Arrangement ", GetKind::kArrangement},
        {"Get::Collection ", GetKind::kCollection},
    };
    std::optional<absl::string_view> rest =
        MatchVariant(text, kGetKinds, &g.kind);
    if (!rest.has_value()) {
      return errors.Expected(
          header, 5, "'PassArrangements', 'Arrangement' or 'Collection'");
    }
    LIR_ASSIGN_OR_RETURN(
        g.id,
        ParseCollectionId(errors, header, text.size() - rest->size(), *rest));
    LIR_RETURN_IF_ERROR(ParseGetAttributes(errors, c, d1, &g));
    return MakeNode(std::move(g));
  }
  if (text == "Mfp") {
    MfpOp m;
    LIR_RETURN_IF_ERROR(ParseMfpLines(errors, c, d1, true, &m.mfp));
    if (c.At(d1, "input_key=")) {
      LIR_ASSIGN_OR_RETURN(m.input_key,
                           ParseKeyLine(errors, c.Next(), "input_key=", false));
      if (c.At(d1, "input_val=")) {
        LIR_ASSIGN_OR_RETURN(m.input_val,
                             ParseRowLine(errors, c.Next(), "input_val="));
      }
    }
    return MakeNode(std::move(m));
  }
  if (starts("FlatMap ")) {
    FlatMapOp f;
    LIR_RETURN_IF_ERROR(
        ParseFlatMapHeader(errors, header, text.substr(8), 8, &f));
    if (c.At(d1, "input_key=")) {
      LIR_ASSIGN_OR_RETURN(f.input_key,
                           ParseKeyLine(errors, c.Next(), "input_key=", false));
    }
    if (c.AtExactly(d1, "mfp_after")) {
      c.Next();
      LIR_RETURN_IF_ERROR(ParseMfpLines(errors, c, d1 + 1, true, &f.mfp_after));
    }
    return MakeNode(std::move(f));
  }
  if (text == "Join::Linear" || text == "Join::Delta") {
    JoinOp j;
    j.delta = text == "Join::Delta";
    LIR_RETURN_IF_ERROR(ParseJoin(errors, c, d1, &j));
    return MakeNode(std::move(j));
  }
  if (starts("Reduce::")) {
    ReduceOp r;
    static constexpr HeaderVariant<ReduceKind> kReduceKinds[] = {
        {"Reduce::Distinct", ReduceKind::kDistinct},
        {"Reduce::Accumulable", ReduceKind::kAccumulable},
        {"Reduce::Hierarchical", ReduceKind::kHierarchicalMonotonic},
        {"Reduce::Basic", ReduceKind::kBasicSingle},
    };
    std::optional<absl::string_view> rest =
        MatchVariant(text, kReduceKinds, &r.kind);
    if (!rest.has_value() || !rest->empty()) {
      return errors.Expected(
          header, 8, "'Distinct', 'Accumulable', 'Hierarchical' or 'Basic'");
    }
    LIR_RETURN_IF_ERROR(ParseReduce(errors, c, d1, &r));
    return MakeNode(std::move(r));
  }
  if (starts("TopK::")) {
    TopKOp t;
    static constexpr HeaderVariant<TopKKind> kTopKKinds[] = {
        {"TopK::MonotonicTop1", TopKKind::kMonotonicTop1},
        {"TopK::MonotonicTopK", TopKKind::kMonotonicTopK},
        {"TopK::Basic", TopKKind::kBasic},
    };
    std::optional<absl::string_view> rest =
        MatchVariant(text, kTopKKinds, &t.kind);
    if (!rest.has_value()) {
      return errors.Expected(header, 6,
                             "'MonotonicTop1', 'MonotonicTopK' or 'Basic'");
    }
    LIR_RETURN_IF_ERROR(
        ParseTopKHeader(errors, header, text.size() - rest->size(), *rest, &t));
    if (c.AtExactly(d1, "temporal_bucketing_strategy=TemporalBucketing")) {
      c.Next();
      t.temporal_bucketing = true;
    }
    return MakeNode(std::move(t));
  }
  if (text == "Negate") return MakeNode(NegateOp{});
  if (starts("Threshold::Basic")) {
    ThresholdOp op;
    LIR_ASSIGN_OR_RETURN(
        op.ensure_arrangement,
        ParseEnsureArrangement(errors, header, text, "Threshold::Basic"));
    return MakeNode(std::move(op));
  }
  if (text == "Union" || text == "Union consolidate_output=true") {
    UnionOp u;
    u.consolidate_output = text != "Union";
    if (c.At(d1, "temporal_bucketing_strategies=[")) {
      const TextLine& line = c.Next();
      LIR_ASSIGN_OR_RETURN(
          absl::string_view list,
          Between(errors, line, "temporal_bucketing_strategies=[", "]",
                  "'temporal_bucketing_strategies=[...]'"));
      for (absl::string_view s : absl::StrSplit(list, ", ")) {
        if (s == "Direct") {
          u.strategies.push_back(UnionStrategy::kDirect);
        } else if (s == "TemporalBucketing") {
          u.strategies.push_back(UnionStrategy::kTemporalBucketing);
        } else {
          return errors.Expected(line, 31 + (s.data() - list.data()),
                                 "'Direct' or 'TemporalBucketing'");
        }
      }
    }
    return MakeNode(std::move(u));
  }
  if (text == "ArrangeBy") {
    ArrangeByOp a;
    if (c.At(d1, "input_key=")) {
      LIR_ASSIGN_OR_RETURN(a.input_key,
                           ParseKeyLine(errors, c.Next(), "input_key=", true));
    }
    if (c.AtExactly(d1, "strategy=TemporalBucketing")) {
      c.Next();
      a.temporal_bucketing = true;
    }
    LIR_RETURN_IF_ERROR(ParseMfpLines(errors, c, d1, true, &a.input_mfp));
    LIR_RETURN_IF_ERROR(ParseCollections(errors, c, d1, &a.forms));
    return MakeNode(std::move(a));
  }
  if (starts("SetDifference")) {
    SetDifferenceOp s;
    LIR_ASSIGN_OR_RETURN(
        s.ensure_arrangement,
        ParseEnsureArrangement(errors, header, text, "SetDifference"));
    LIR_ASSIGN_OR_RETURN(s.base_key,
                         ParseColumnKeyLine(errors, c, d1, "base_key="));
    LIR_ASSIGN_OR_RETURN(s.subtract_key,
                         ParseColumnKeyLine(errors, c, d1, "subtract_key="));
    return MakeNode(std::move(s));
  }
  if (starts("AntiJoin key=[")) {
    AntiJoinOp a;
    LIR_ASSIGN_OR_RETURN(a.key, ParseAntiJoinKey(errors, header, text));
    LIR_ASSIGN_OR_RETURN(a.base_key,
                         ParseColumnKeyLine(errors, c, d1, "base_key="));
    LIR_ASSIGN_OR_RETURN(a.keys_key,
                         ParseColumnKeyLine(errors, c, d1, "keys_key="));
    return MakeNode(std::move(a));
  }
  return errors.Expected(
      header, 0,
      "a node (Constant, Error, Get::*, With, Mfp, FlatMap, Join::*, "
      "Reduce::*, "
      "TopK::*, Negate, Threshold::Basic, Union, ArrangeBy, SetDifference, "
      "AntiJoin)");
}

}  // namespace lir::explain::internal
