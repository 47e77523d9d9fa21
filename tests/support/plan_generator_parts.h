// Building blocks of the plan generator (internal): the random source, the
// catalog of global collections, and makers of expressions, MFPs, leaves and
// node payloads that need no knowledge of the plan being assembled.
#ifndef LIR_TESTS_SUPPORT_PLAN_GENERATOR_PARTS_H_
#define LIR_TESTS_SUPPORT_PLAN_GENERATOR_PARTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lir/arrangement.h"
#include "lir/mfp.h"
#include "lir/node.h"
#include "lir/scalar.h"
#include "tests/support/random.h"

namespace lir::test::plan_gen {

/// Widest collection the generator makes.
inline constexpr int kMaxArity = 6;

/// The generator's random source (tests/support/random.h).
using ::lir::test::Rng;

/// A global collection of the catalog.
struct Global {
  std::string name;
  int arity = 0;
  /// The forms every Get of it advertises: raw only (a table), or the
  /// arrangements of its indexes (an indexed collection).
  AvailableCollections keys;
};

/// The global collections a generated plan may read: for each arity m in
/// 1..kMaxArity, the table `materialize.public.t<m>` (raw) and the indexed
/// `materialize.public.x<m>` (arranged by [#0], by all columns but the last
/// when m >= 3, and by all columns when m >= 2).
class Catalog {
 public:
  Catalog();
  const Global& Table(int arity) const { return tables_[arity - 1]; }
  const Global& Indexed(int arity) const { return indexed_[arity - 1]; }
  const std::vector<Global>& tables() const { return tables_; }
  const std::vector<Global>& indexed() const { return indexed_; }

 private:
  std::vector<Global> tables_;
  std::vector<Global> indexed_;
};

/// 0, 1, ..., n-1 shifted by `start`.
std::vector<int> Iota(int n, int start = 0);
/// Whether `columns` is exactly 0, 1, ..., n-1.
bool IsIota(const std::vector<int>& columns, int n);
/// Forms of a collection that exists only unarranged.
AvailableCollections RawOnly();
/// `(a op b)`.
ScalarExpr Infix(std::string op, ScalarExpr a, ScalarExpr b);
/// `(e) IS NOT NULL`.
ScalarExpr IsNotNull(ScalarExpr e);
/// Projection to the first `out` of `in` columns (the identity when equal).
MapFilterProject PrefixProjection(int in, int out);
/// A Get of `global` with its catalog forms.
NodePtr MakeGet(const Global& global, GetKind kind);
/// Reduce::Distinct grouping `in` input columns by `key_columns`
/// (`key_plan=id` when they are all columns in order).
ReduceOp DistinctOp(int in, std::vector<int> key_columns);

/// How the generator must build one input of a generated join.
struct JoinInput {
  int arity = 1;
  /// Arranged by these columns (an ArrangeBy or an index); nullopt: raw.
  std::optional<std::vector<int>> key;
  /// When raw: wrap the input in `ArrangeBy raw=true`, as lowering does.
  bool raw_arrange_by = false;
};

/// A join payload together with what its inputs must be.
struct JoinDraft {
  JoinOp op;
  std::vector<JoinInput> inputs;
};

/// Random pieces of plans, drawn from a shared Rng.
class Parts {
 public:
  Parts(Rng& rng, const Catalog& catalog, double column_name_probability)
      : rng_(rng),
        catalog_(catalog),
        name_probability_(column_name_probability) {}

  /// `#c`, sometimes with a name.
  ScalarExpr Col(int c);
  /// A random column below `arity` (>= 1).
  ScalarExpr AnyCol(int arity);
  Literal RandomLiteral();
  /// A value expression over `arity` columns (a literal when 0).
  ScalarExpr ValueExpr(int arity);
  /// A predicate over `arity` (>= 1) columns.
  ScalarExpr Predicate(int arity);
  /// An MFP from `in` to `out` columns: maps (always enough to reach `out`
  /// distinct columns, sometimes one more), filters with `filter_chance`, a
  /// projection unless it is the identity, and rarely a temporal bound
  /// when `temporal`.
  MapFilterProject RandomMfp(int in, int out, double filter_chance,
                             bool temporal);

  /// A Get of a random catalog collection producing `arity` columns.
  NodePtr GlobalGet(int arity);
  /// A Get of local `id` (a value of `binding_arity` columns available in
  /// `forms`) producing `arity` columns.
  NodePtr LocalGet(uint64_t id, int binding_arity,
                   const AvailableCollections& forms, int arity);
  /// A Constant of one to three `arity`-column rows.
  NodePtr ConstantLeaf(int arity);

  /// A TopK payload over `arity` columns (any of the three strategies).
  TopKOp RandomTopK(int arity);
  /// A Reduce payload with `arity` output columns (any strategy); sets
  /// `*input_arity` to the arity its input must have.
  ReduceOp RandomReduce(int arity, int* input_arity);
  /// One or two arrangements of an `arity`-column collection, distinct keys.
  std::vector<ArrangementForm> RandomArrangements(int arity);
  /// Join::Linear of `inputs` relations with `arity` output columns.
  JoinDraft RandomLinearJoin(int arity, int inputs);
  /// Join::Delta of `inputs` relations equi-joined on their column 0, with
  /// `arity` output columns; every path yields the same columns.
  JoinDraft RandomDeltaJoin(int arity, int inputs);

 private:
  std::optional<JoinClosure> MaybeClosure(int in, double chance,
                                          bool may_project);

  Rng& rng_;
  const Catalog& catalog_;
  double name_probability_;
};

}  // namespace lir::test::plan_gen

#endif  // LIR_TESTS_SUPPORT_PLAN_GENERATOR_PARTS_H_
