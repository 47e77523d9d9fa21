// Printing and parsing of the shared pieces of Materialize's verbose EXPLAIN
// text (../shared/reference/TEXT-FORMAT.md sections 4 and 5): scalar
// expressions, literals, rows, column lists, order keys, arrangement triples,
// aggregates.
//
// Parsers consume exactly the text given (no leading/trailing spaces are
// skipped). On failure they return InvalidArgument whose message is
// "expected <what>" and set `*error_pos` to the byte offset in `text` where
// the problem was found; the plan parser turns that into file:line:column.
#ifndef LIR_EXPLAIN_TEXT_PRIMITIVES_H_
#define LIR_EXPLAIN_TEXT_PRIMITIVES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/arrangement.h"
#include "lir/node.h"
#include "lir/scalar.h"

namespace lir::explain {

/// Expressions nested deeper than this are rejected by ParseExpr (the
/// expression code is recursive; plans themselves have no depth limit).
inline constexpr int kMaxExprDepth = 1000;

// ---- Printing -------------------------------------------------------------

/// Appends `e` as EXPLAIN prints it: `(#0{a} + 1)`, `(#1) IS NOT NULL`.
void AppendExpr(std::string& out, const ScalarExpr& e);
std::string PrintExpr(const ScalarExpr& e);
/// A datum: `null`, `-5`, `"x\"y"`, `7 days`, `█`.
void AppendLiteral(std::string& out, const Literal& lit);
/// `(1, "a")`, `()`.
std::string PrintRow(const Row& row);
/// A constant row line's payload: `(5)` when diff == 1, else `((5) x -2)`.
std::string PrintConstantRow(const Row& row, int64_t diff);
/// Column positions with runs of >= 3 collapsed: `#0..=#2, #4`.
std::string PrintIndices(const std::vector<int>& columns);
/// Expressions with runs of >= 3 consecutive column refs collapsed:
/// `#0{a}..=#2{c}, (#3 + 1)`.
std::string PrintCompactScalars(const std::vector<ScalarExpr>& exprs);
/// `#0 asc nulls_last, #1 desc nulls_first`.
std::string PrintOrderKeys(const std::vector<OrderKey>& keys);
/// `{ key=[#0], permutation={#0: #1, #1: #0}, thinning=(#1) }`.
std::string PrintArrangement(const ArrangementForm& form);
/// `count(*)`, `sum(#1{b})`, `count(distinct #0)`,
/// `array_agg[order_by=[]](...)`.
std::string PrintAggregate(const AggregateExpr& agg);
/// Joins predicates with ` AND ` (the content of `filter=(...)`).
std::string PrintPredicates(const std::vector<ScalarExpr>& preds);
/// Joins expressions with `, ` (the content of `map=(...)`).
std::string PrintExprList(const std::vector<ScalarExpr>& exprs);

// ---- Parsing --------------------------------------------------------------

absl::StatusOr<ScalarExpr> ParseExpr(std::string_view text, size_t* error_pos);
absl::StatusOr<Literal> ParseLiteral(std::string_view text, size_t* error_pos);
/// `(1, "a")` including the parentheses.
absl::StatusOr<Row> ParseRow(std::string_view text, size_t* error_pos);
/// The payload of a constant row line (after `- `): `(5)` or `((5) x -2)`.
absl::StatusOr<ConstantOp::Entry> ParseConstantRow(std::string_view text,
                                                   size_t* error_pos);
/// `#0..=#2, #4` (no parentheses); empty text is the empty list.
absl::StatusOr<std::vector<int>> ParseIndices(std::string_view text,
                                              size_t* error_pos);
/// CompactScalars (no brackets); empty text is the empty list. Ranges
/// expand to column references; only the endpoints carry names.
absl::StatusOr<std::vector<ScalarExpr>> ParseCompactScalars(
    std::string_view text, size_t* error_pos);
/// `#0 asc nulls_last, ...` (no brackets); empty text is the empty list.
absl::StatusOr<std::vector<OrderKey>> ParseOrderKeys(std::string_view text,
                                                     size_t* error_pos);
/// The arrangement triple including its outer braces.
absl::StatusOr<ArrangementForm> ParseArrangement(std::string_view text,
                                                 size_t* error_pos);
absl::StatusOr<AggregateExpr> ParseAggregate(std::string_view text,
                                             size_t* error_pos);
/// The content of `filter=(...)`: predicates split at top-level ` AND `.
absl::StatusOr<std::vector<ScalarExpr>> ParsePredicates(std::string_view text,
                                                        size_t* error_pos);
/// The content of `map=(...)` and similar: expressions split at top-level
/// `, `; empty text is the empty list.
absl::StatusOr<std::vector<ScalarExpr>> ParseExprList(std::string_view text,
                                                      size_t* error_pos);

/// The offset of the `(` that opens the arguments of a table function call
/// `name(args)` as FlatMap prints it: the last top-level parenthesized group
/// (a name may hold groups and quoted strings of its own, such as
/// `regexp_extract("(a)", _)`). npos when `call` does not end with a
/// balanced group.
size_t TableFunctionArgsStart(std::string_view call);

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_TEXT_PRIMITIVES_H_
