// Building blocks of the general-plan generator
// (tests/support/eval_plan_fuzz_gen.h): seeded dice, typed scalar expressions
// rendered as EXPLAIN text, MFPs, key and arrangement text, and literal values.
// Internal to the generator.
#ifndef LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_PARTS_H_
#define LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_PARTS_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lir/eval/datum.h"
#include "tests/support/random.h"

namespace lir::test::fuzz {

using Lines = std::vector<std::string>;

/// The generator's random source (tests/support/random.h).
using ::lir::test::Dice;

/// Column types. Every column has one, so generated expressions never
/// compare or add values of different kinds (a type error is a round
/// error, which would hide everything after it).
enum class Type { kInt, kStr, kBool };
using Schema = std::vector<Type>;

/// Columns of `schema` with type `type`.
std::vector<int> ColumnsOf(const Schema& schema, Type type);

/// A scalar expression, kept as a tree so that join closures can render
/// the same predicate against different column layouts.
struct Expr {
  enum class Kind {
    kColumn,
    kLiteral,
    kInfix,
    kIsNull,
    kIsNotNull,
    kNot,
    kCall,
    kCase
  };
  Kind kind = Kind::kLiteral;
  int column = 0;
  /// Literal text, infix operator (`+`, `AND`, ...) or function name.
  std::string text;
  std::vector<Expr> args;

  static Expr Column(int c) {
    Expr e;
    e.kind = Kind::kColumn;
    e.column = c;
    return e;
  }
  static Expr Literal(std::string text) {
    Expr e;
    e.kind = Kind::kLiteral;
    e.text = std::move(text);
    return e;
  }
  static Expr Infix(std::string op, Expr a, Expr b) {
    Expr e;
    e.kind = Kind::kInfix;
    e.text = std::move(op);
    e.args = {std::move(a), std::move(b)};
    return e;
  }
};

/// EXPLAIN text of `e`; with `remap`, column #c prints as #remap[c].
std::string Render(const Expr& e, const std::vector<int>* remap = nullptr);

/// Adds every column `e` reads to `out`.
void CollectColumns(const Expr& e, std::set<int>* out);

/// Generates typed expressions over a schema.
class ExprGen {
 public:
  explicit ExprGen(Dice& dice) : dice_(dice) {}
  /// An expression of type `type` reading columns of `cols`.
  Expr Of(Type type, const Schema& cols, int depth);
  /// A filter predicate (never a bare literal).
  Expr Predicate(const Schema& cols, int depth);
  /// A literal of `type` (never NULL).
  Expr Literal(Type type);

 private:
  Expr Comparison(const Schema& cols, int depth);
  Dice& dice_;
};

/// A map/filter/project step: maps are appended to the input, filters read
/// the widened row, the projection (nullopt: identity) picks the output.
struct MfpSpec {
  std::vector<Expr> map;
  Schema map_types;
  std::vector<Expr> filter;
  std::optional<std::vector<int>> project;

  bool IsIdentity() const {
    return map.empty() && filter.empty() && !project.has_value();
  }
  /// The output schema over an input of `in`.
  Schema Output(const Schema& in) const;
  /// The `project=`, `filter=`, `map=` lines (in that printed order).
  Lines ToLines() const;
};

/// The types of the layout row (../shared/reference/SEMANTICS.md 8.2) of an
/// arrangement of a `row` collection by the plain columns `key`: the key's,
/// then the other columns' in order.
Schema LayoutSchema(const std::vector<int>& key, const Schema& row);

/// Limits for RandomMfp.
struct MfpShape {
  int max_map = 2;
  int max_filter = 1;
  /// Percent chance of a projection; a projection always keeps a column.
  int project_percent = 60;
};

/// A random MFP over `in` (possibly the identity).
MfpSpec RandomMfp(Dice& dice, ExprGen& exprs, const Schema& in,
                  const MfpShape& shape);

/// Positions as EXPLAIN prints them: runs of >= 3 ascending columns as
/// `#k..=#m` (Indices and CompactScalars of plain columns alike).
std::string Positions(const std::vector<int>& columns);

/// A key list of expressions, runs of plain columns collapsed like
/// Positions.
std::string KeyText(const std::vector<Expr>& key);

/// `{ key=[...], permutation=..., thinning=(...) }` as Materialize lays out
/// an arrangement of a collection of `arity` columns on `key`.
std::string ArrangementText(const std::vector<Expr>& key, int arity);
std::string ColumnArrangementText(const std::vector<int>& key, int arity);

/// The columns MakeArrangement keeps as values: those `key` does not name
/// plainly, ascending.
std::vector<int> ValueColumns(const std::vector<int>& key, int arity);

/// A random input value of `type` (ints 0..3 and the odd -1, strings a..c).
eval::Datum RandomDatum(Dice& dice, Type type, bool nullable);

/// A datum as a plan literal (`null`, `3`, `"a"`, `true`).
std::string DatumText(const eval::Datum& datum);

/// 0, 1, ..., arity - 1.
std::vector<int> AllColumns(size_t arity);

/// `l<id>`.
std::string LocalName(uint64_t id);

/// A Reduce plan block: `label=id`, or the label with the MFP lines below.
Lines PlanBlock(const std::string& label, const MfpSpec& spec);

Lines Indent(const Lines& lines, int spaces);
void Append(Lines& out, const Lines& more);

}  // namespace lir::test::fuzz

#endif  // LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_PARTS_H_
