// Printing and parsing of the list-shaped primitives of the EXPLAIN text
// (../shared/reference/TEXT-FORMAT.md section 4 and 5.4): rows, constant-row
// payloads, Indices, CompactScalars, order keys, arrangement triples,
// aggregates, predicate and expression lists. Expressions and literals live in
// text_scalar.cc.
#include "src/explain/text_primitives.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"
#include "src/explain/text_cursor.h"

namespace lir::explain {
namespace {

using internal::PrimitiveCursor;

/// Runs of at least this many consecutive ascending columns print as a range.
constexpr size_t kMinRangeLength = kMinColumnRangeLength;

/// The end of the maximal run of consecutive ascending columns starting at
/// `begin`, where `column(i)` is the column of item i or -1 if it is none.
template <typename ColumnOf>
size_t RunEnd(size_t begin, size_t size, ColumnOf column) {
  size_t end = begin + 1;
  if (column(begin) < 0) return end;
  while (end < size && column(end) >= 0 && column(end) == column(end - 1) + 1) {
    ++end;
  }
  return end;
}

/// True when the cursor is at the end of a list: at `close`, or at the end
/// of the text when `close` is '\0'.
bool AtListEnd(const PrimitiveCursor& cursor, char close) {
  return close == '\0' ? cursor.AtEnd() : cursor.Peek() == close;
}

std::string ListSeparatorError(char close) {
  if (close == '\0') return "`, ` or the end of the list";
  return absl::StrCat("`, ` or `", std::string(1, close), "`");
}

/// Checks that `#first..=#last` spans at least kMinRangeLength columns
/// (shorter runs print as separate items).
absl::Status CheckRange(PrimitiveCursor& cursor, size_t last_pos, int first,
                        int last) {
  if (last < first + static_cast<int>(kMinRangeLength) - 1) {
    return cursor.ErrorAt(
        last_pos, absl::StrCat("range end of at least #", first + 2,
                               " (`#a..=#b` spans three or more columns)"));
  }
  return absl::OkStatus();
}

/// `#0..=#2, #4` up to `close` (not consumed).
absl::StatusOr<std::vector<int>> ParseIndicesUntil(PrimitiveCursor& cursor,
                                                   char close) {
  std::vector<int> columns;
  if (AtListEnd(cursor, close)) return columns;
  while (true) {
    LIR_ASSIGN_OR_RETURN(int first, cursor.ParseColumnIndex());
    columns.push_back(first);
    if (cursor.Consume("..=")) {
      size_t last_pos = cursor.pos();
      LIR_ASSIGN_OR_RETURN(int last, cursor.ParseColumnIndex());
      LIR_RETURN_IF_ERROR(CheckRange(cursor, last_pos, first, last));
      for (int c = first + 1; c <= last; ++c) columns.push_back(c);
    }
    if (AtListEnd(cursor, close)) return columns;
    if (!cursor.Consume(", ")) return cursor.Error(ListSeparatorError(close));
  }
}

/// CompactScalars up to `close` (not consumed).
absl::StatusOr<std::vector<ScalarExpr>> ParseCompactScalarsUntil(
    PrimitiveCursor& cursor, char close) {
  std::vector<ScalarExpr> exprs;
  if (AtListEnd(cursor, close)) return exprs;
  while (true) {
    LIR_ASSIGN_OR_RETURN(ScalarExpr item, cursor.ParseExpr());
    bool is_column = item.kind == ScalarKind::kColumn;
    int first = item.column;
    exprs.push_back(std::move(item));
    if (is_column && cursor.Consume("..=")) {
      size_t last_pos = cursor.pos();
      LIR_ASSIGN_OR_RETURN(ScalarExpr last, cursor.ParseColumnRef());
      LIR_RETURN_IF_ERROR(CheckRange(cursor, last_pos, first, last.column));
      // Interior columns of a range are printed without names.
      for (int c = first + 1; c < last.column; ++c) {
        ScalarExpr interior;
        interior.kind = ScalarKind::kColumn;
        interior.column = c;
        exprs.push_back(std::move(interior));
      }
      exprs.push_back(std::move(last));
    }
    if (AtListEnd(cursor, close)) return exprs;
    if (!cursor.Consume(", ")) return cursor.Error(ListSeparatorError(close));
  }
}

/// `#2 desc nulls_first, ...` up to `close` (not consumed).
absl::StatusOr<std::vector<OrderKey>> ParseOrderKeysUntil(
    PrimitiveCursor& cursor, char close) {
  std::vector<OrderKey> keys;
  if (AtListEnd(cursor, close)) return keys;
  while (true) {
    OrderKey key;
    LIR_ASSIGN_OR_RETURN(key.column, cursor.ParseColumnIndex());
    if (cursor.Consume(" asc ")) {
      key.desc = false;
    } else if (cursor.Consume(" desc ")) {
      key.desc = true;
    } else {
      return cursor.Error("` asc ` or ` desc `");
    }
    if (cursor.Consume("nulls_last")) {
      key.nulls_last = true;
    } else if (cursor.Consume("nulls_first")) {
      key.nulls_last = false;
    } else {
      return cursor.Error("`nulls_first` or `nulls_last`");
    }
    keys.push_back(key);
    if (AtListEnd(cursor, close)) return keys;
    if (!cursor.Consume(", ")) return cursor.Error(ListSeparatorError(close));
  }
}

/// `(1, "a")` including the parentheses.
absl::StatusOr<Row> ParseRowAt(PrimitiveCursor& cursor) {
  LIR_RETURN_IF_ERROR(cursor.Expect("("));
  Row row;
  if (cursor.Consume(")")) return row;
  while (true) {
    LIR_ASSIGN_OR_RETURN(Literal datum, cursor.ParseLiteral("datum"));
    row.push_back(std::move(datum));
    if (cursor.Consume(")")) return row;
    if (!cursor.Consume(", ")) return cursor.Error("`, ` or `)`");
  }
}

/// `id` or `{#0: #1, #1: #0}`: the non-identity entries, ascending.
absl::StatusOr<std::vector<std::pair<int, int>>> ParsePermutation(
    PrimitiveCursor& cursor) {
  std::vector<std::pair<int, int>> entries;
  if (cursor.Consume("id")) return entries;
  if (!cursor.Consume("{")) return cursor.Error("`id` or `{`");
  while (true) {
    size_t entry_pos = cursor.pos();
    LIR_ASSIGN_OR_RETURN(int column, cursor.ParseColumnIndex());
    LIR_RETURN_IF_ERROR(cursor.Expect(": "));
    LIR_ASSIGN_OR_RETURN(int position, cursor.ParseColumnIndex());
    // The printer lists only moved columns, in ascending order.
    if (!entries.empty() && column <= entries.back().first) {
      return cursor.ErrorAt(entry_pos,
                            "permutation entries in ascending column order");
    }
    if (column == position) {
      return cursor.ErrorAt(entry_pos,
                            "a permutation entry that moves its column");
    }
    entries.emplace_back(column, position);
    if (cursor.Consume("}")) return entries;
    if (!cursor.Consume(", ")) return cursor.Error("`, ` or `}`");
  }
}

bool IsCountStar(const AggregateExpr& agg) {
  return agg.func == "count" && !agg.params.has_value() && !agg.distinct &&
         agg.expr.kind == ScalarKind::kLiteral &&
         agg.expr.literal.kind == LiteralKind::kBool &&
         agg.expr.literal.text == "true";
}

}  // namespace

// ---- Printing -------------------------------------------------------------

std::string PrintRow(const Row& row) {
  std::string out = "(";
  for (size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out += ", ";
    AppendLiteral(out, row[i]);
  }
  out += ')';
  return out;
}

std::string PrintConstantRow(const Row& row, int64_t diff) {
  if (diff == 1) return PrintRow(row);
  return absl::StrCat("(", PrintRow(row), " x ", diff, ")");
}

std::string PrintIndices(const std::vector<int>& columns) {
  return FormatColumnList(columns);
}

std::string PrintCompactScalars(const std::vector<ScalarExpr>& exprs) {
  std::string out;
  auto column = [&](size_t i) {
    return exprs[i].kind == ScalarKind::kColumn ? exprs[i].column : -1;
  };
  for (size_t i = 0; i < exprs.size();) {
    size_t end = RunEnd(i, exprs.size(), column);
    if (end - i < kMinRangeLength) end = i + 1;
    if (i > 0) out += ", ";
    AppendExpr(out, exprs[i]);
    if (end - i >= kMinRangeLength) {
      out += "..=";
      AppendExpr(out, exprs[end - 1]);
    }
    i = end;
  }
  return out;
}

std::string PrintOrderKeys(const std::vector<OrderKey>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += ", ";
    absl::StrAppend(&out, "#", keys[i].column, keys[i].desc ? " desc" : " asc",
                    keys[i].nulls_last ? " nulls_last" : " nulls_first");
  }
  return out;
}

std::string PrintArrangement(const ArrangementForm& form) {
  std::string out =
      absl::StrCat("{ key=[", PrintCompactScalars(form.key), "], permutation=");
  if (form.permutation.empty()) {
    out += "id";
  } else {
    out += '{';
    for (size_t i = 0; i < form.permutation.size(); ++i) {
      if (i > 0) out += ", ";
      absl::StrAppend(&out, "#", form.permutation[i].first, ": #",
                      form.permutation[i].second);
    }
    out += '}';
  }
  absl::StrAppend(&out, ", thinning=(", PrintIndices(form.thinning), ") }");
  return out;
}

std::string PrintAggregate(const AggregateExpr& agg) {
  // `count(*)` is count over the literal `true`, so `count(true)` prints the
  // same way (Materialize makes no difference either).
  if (IsCountStar(agg)) return "count(*)";
  std::string out = agg.func;
  if (agg.params.has_value()) absl::StrAppend(&out, "[", *agg.params, "]");
  out += '(';
  if (agg.distinct) out += "distinct ";
  AppendExpr(out, agg.expr);
  out += ')';
  return out;
}

std::string PrintPredicates(const std::vector<ScalarExpr>& preds) {
  std::string out;
  for (size_t i = 0; i < preds.size(); ++i) {
    if (i > 0) out += " AND ";
    AppendExpr(out, preds[i]);
  }
  return out;
}

std::string PrintExprList(const std::vector<ScalarExpr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) out += ", ";
    AppendExpr(out, exprs[i]);
  }
  return out;
}

// ---- Parsing --------------------------------------------------------------

absl::StatusOr<Row> ParseRow(std::string_view text, size_t* error_pos) {
  return internal::RunPrimitiveParser<Row>(
      text, error_pos, [](PrimitiveCursor& cursor) -> absl::StatusOr<Row> {
        LIR_ASSIGN_OR_RETURN(Row row, ParseRowAt(cursor));
        LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the row"));
        return row;
      });
}

absl::StatusOr<ConstantOp::Entry> ParseConstantRow(std::string_view text,
                                                   size_t* error_pos) {
  using Entry = ConstantOp::Entry;
  return internal::RunPrimitiveParser<Entry>(
      text, error_pos, [&](PrimitiveCursor& cursor) -> absl::StatusOr<Entry> {
        Entry entry;
        // `((5) x -2)`: a row in parentheses followed by ` x <diff>`. A row
        // whose first datum is itself parenthesised (a range) is told apart
        // by what follows the inner row.
        PrimitiveCursor inner(text);
        absl::Status inner_error = absl::OkStatus();
        if (cursor.LookingAt("((")) {
          inner.Consume("(");
          absl::StatusOr<Row> row = ParseRowAt(inner);
          if (row.ok() && inner.LookingAt(" x")) {
            cursor = inner;
            entry.row = *std::move(row);
            LIR_RETURN_IF_ERROR(cursor.Expect(" x "));
            LIR_ASSIGN_OR_RETURN(entry.diff,
                                 cursor.ParseInteger("row multiplicity"));
            LIR_RETURN_IF_ERROR(cursor.Expect(")"));
            LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the row"));
            return entry;
          }
          inner_error = row.status();
        }
        absl::StatusOr<Row> row = ParseRowAt(cursor);
        if (row.ok()) {
          entry.row = *std::move(row);
          LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the row"));
          return entry;
        }
        // Both readings failed: report the one that got further.
        if (!inner_error.ok() && inner.error_pos() > cursor.error_pos()) {
          cursor = inner;
          return inner_error;
        }
        return row.status();
      });
}

absl::StatusOr<std::vector<int>> ParseIndices(std::string_view text,
                                              size_t* error_pos) {
  return internal::RunPrimitiveParser<std::vector<int>>(
      text, error_pos,
      [](PrimitiveCursor& cursor) { return ParseIndicesUntil(cursor, '\0'); });
}

absl::StatusOr<std::vector<ScalarExpr>> ParseCompactScalars(
    std::string_view text, size_t* error_pos) {
  return internal::RunPrimitiveParser<std::vector<ScalarExpr>>(
      text, error_pos, [](PrimitiveCursor& cursor) {
        return ParseCompactScalarsUntil(cursor, '\0');
      });
}

absl::StatusOr<std::vector<OrderKey>> ParseOrderKeys(std::string_view text,
                                                     size_t* error_pos) {
  return internal::RunPrimitiveParser<std::vector<OrderKey>>(
      text, error_pos, [](PrimitiveCursor& cursor) {
        return ParseOrderKeysUntil(cursor, '\0');
      });
}

absl::StatusOr<ArrangementForm> ParseArrangement(std::string_view text,
                                                 size_t* error_pos) {
  return internal::RunPrimitiveParser<ArrangementForm>(
      text, error_pos,
      [](PrimitiveCursor& cursor) -> absl::StatusOr<ArrangementForm> {
        ArrangementForm form;
        LIR_RETURN_IF_ERROR(cursor.Expect("{ key=["));
        LIR_ASSIGN_OR_RETURN(form.key, ParseCompactScalarsUntil(cursor, ']'));
        LIR_RETURN_IF_ERROR(cursor.Expect("], permutation="));
        LIR_ASSIGN_OR_RETURN(form.permutation, ParsePermutation(cursor));
        LIR_RETURN_IF_ERROR(cursor.Expect(", thinning=("));
        LIR_ASSIGN_OR_RETURN(form.thinning, ParseIndicesUntil(cursor, ')'));
        LIR_RETURN_IF_ERROR(cursor.Expect(") }"));
        LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the arrangement"));
        return form;
      });
}

absl::StatusOr<AggregateExpr> ParseAggregate(std::string_view text,
                                             size_t* error_pos) {
  return internal::RunPrimitiveParser<AggregateExpr>(
      text, error_pos,
      [](PrimitiveCursor& cursor) -> absl::StatusOr<AggregateExpr> {
        AggregateExpr agg;
        LIR_ASSIGN_OR_RETURN(agg.func,
                             cursor.ParseIdentifier("aggregate function name"));
        if (cursor.Peek() == '[') {
          LIR_ASSIGN_OR_RETURN(agg.params, cursor.ParseBracketGroup());
        }
        LIR_RETURN_IF_ERROR(cursor.Expect("("));
        if (agg.func == "count" && !agg.params.has_value() &&
            cursor.Consume("*")) {
          agg.expr.kind = ScalarKind::kLiteral;
          agg.expr.literal = Literal{LiteralKind::kBool, "true"};
        } else {
          agg.distinct = cursor.Consume("distinct ");
          LIR_ASSIGN_OR_RETURN(agg.expr, cursor.ParseExpr());
        }
        if (!cursor.Consume(")")) {
          return cursor.Error("`)` (an aggregate takes exactly one argument)");
        }
        LIR_RETURN_IF_ERROR(cursor.ExpectEnd("end of the aggregate"));
        return agg;
      });
}

absl::StatusOr<std::vector<ScalarExpr>> ParsePredicates(std::string_view text,
                                                        size_t* error_pos) {
  return internal::RunPrimitiveParser<std::vector<ScalarExpr>>(
      text, error_pos,
      [](PrimitiveCursor& cursor) -> absl::StatusOr<std::vector<ScalarExpr>> {
        std::vector<ScalarExpr> preds;
        if (cursor.AtEnd()) return preds;
        do {
          LIR_ASSIGN_OR_RETURN(ScalarExpr pred, cursor.ParseExpr());
          preds.push_back(std::move(pred));
        } while (cursor.Consume(" AND "));
        LIR_RETURN_IF_ERROR(
            cursor.ExpectEnd("` AND ` or the end of the predicates"));
        return preds;
      });
}

absl::StatusOr<std::vector<ScalarExpr>> ParseExprList(std::string_view text,
                                                      size_t* error_pos) {
  return internal::RunPrimitiveParser<std::vector<ScalarExpr>>(
      text, error_pos,
      [](PrimitiveCursor& cursor) -> absl::StatusOr<std::vector<ScalarExpr>> {
        std::vector<ScalarExpr> exprs;
        if (cursor.AtEnd()) return exprs;
        do {
          LIR_ASSIGN_OR_RETURN(ScalarExpr e, cursor.ParseExpr());
          exprs.push_back(std::move(e));
        } while (cursor.Consume(", "));
        LIR_RETURN_IF_ERROR(
            cursor.ExpectEnd("`, ` or the end of the expression list"));
        return exprs;
      });
}

size_t TableFunctionArgsStart(std::string_view call) {
  if (call.empty() || call.back() != ')') return std::string_view::npos;
  int depth = 0;
  bool in_string = false;
  size_t group_start = std::string_view::npos;
  for (size_t i = 0; i < call.size(); ++i) {
    char ch = call[i];
    if (in_string) {
      if (ch == '\\' && i + 1 < call.size()) {
        ++i;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') in_string = true;
    if (ch == '(') {
      if (depth == 0) group_start = i;
      ++depth;
    } else if (ch == ')') {
      // A `)` before its `(` can never balance again.
      if (--depth < 0) return std::string_view::npos;
    }
  }
  return depth == 0 ? group_start : std::string_view::npos;
}

}  // namespace lir::explain
