// Scalar expressions, keys and map-filter-projects compiled once, before
// rows flow (as Velox's ExprSet is): every call resolved to its operation,
// every literal already a Datum, `record_get`'s field parsed, the MFP's
// filter order by support worked out. Evaluating a compiled form looks up
// no name and parses nothing per row. Both engines evaluate through these
// (docs/evaluator.md).
//
// Compiling is the check: CheckScalar / CheckMfp (scalar_eval.h) are the
// status of a compile, so a plan that passes the checks compiles, and a
// compiled expression never meets an unsupported operation per row.
#ifndef LIR_EVAL_COMPILED_SCALAR_H_
#define LIR_EVAL_COMPILED_SCALAR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/datum.h"
#include "lir/mfp.h"
#include "lir/scalar.h"

namespace lir::eval {

namespace scalar_program {
struct Program;
class Access;
}  // namespace scalar_program

/// One scalar expression lowered to a flat array of nodes (see the file
/// comment). Cheap to copy: copies share the immutable program.
class CompiledScalar {
 public:
  /// Lowers `expr`. Errors are CheckScalar's, in the same order (the node
  /// before its operands, operands left to right): Unimplemented for the
  /// first unsupported function, literal or construct, InvalidArgument for
  /// a negative column or a `case when` without three operands.
  static absl::StatusOr<CompiledScalar> Compile(const ScalarExpr& expr);

  /// The value on `row`, exactly as SQL (and the reference semantics)
  /// define it: NULL propagation, three-valued AND/OR where the dominant
  /// value wins over errors in other operands, lazy coalesce and
  /// `case when`. Data errors are OutOfRange / InvalidArgument.
  absl::StatusOr<Datum> Eval(const DataRow& row) const;

 private:
  friend class scalar_program::Access;
  explicit CompiledScalar(std::shared_ptr<const scalar_program::Program> p)
      : program_(std::move(p)) {}
  std::shared_ptr<const scalar_program::Program> program_;
};

/// The expressions of an arrangement or stream key, compiled.
class CompiledKey {
 public:
  /// The empty key.
  CompiledKey() = default;
  /// Compiles each of `exprs` in order; the first error is returned.
  static absl::StatusOr<CompiledKey> Compile(
      const std::vector<ScalarExpr>& exprs);
  /// The values of the expressions on `row`; the first error in order.
  absl::StatusOr<DataRow> Eval(const DataRow& row) const;
  /// How many expressions the key has.
  size_t size() const { return exprs_.size(); }

 private:
  friend class scalar_program::Access;
  std::vector<CompiledScalar> exprs_;
};

/// A map-filter-project compiled: its map and filter expressions, and its
/// filters in the order they run (by support, stably), worked out once.
class CompiledMfp {
 public:
  /// The identity MFP.
  CompiledMfp() = default;
  /// Compiles the maps, then the filters, each in order (the order CheckMfp
  /// reports errors in). A temporal MFP compiles, but evaluating it is
  /// Internal: it needs the round (temporal.h); the temporal check itself
  /// is CheckMfp's / PlanTemporal's.
  static absl::StatusOr<CompiledMfp> Compile(const MapFilterProject& mfp);

  /// Applies the MFP to `row` as EvalMfp (scalar_eval.h) defines it: each
  /// filter runs as soon as the map columns it reads exist, so a filter
  /// can drop a row before a later map fails on it; nullopt when filtered
  /// out; without a projection only the input columns are output.
  absl::StatusOr<std::optional<DataRow>> Eval(DataRow row) const;

  /// As Eval, but every map column is computed and the result is the whole
  /// `row ++ maps` (no projection): what MfpPlan::evaluate computes before
  /// its temporal bounds, which may read any map column.
  absl::StatusOr<std::optional<DataRow>> EvalWide(DataRow row) const;

  /// No map, filter or projection (and not temporal).
  bool identity() const { return identity_; }

 private:
  friend class scalar_program::Access;
  absl::StatusOr<std::optional<DataRow>> Apply(DataRow row, bool wide) const;

  std::vector<CompiledScalar> map_;
  std::vector<CompiledScalar> filter_;
  /// Per filter, the largest column it reads (-1: none).
  std::vector<int> filter_max_column_;
  /// The filter indices ordered by largest column read, stably: with the
  /// filters that need no map column taken first (in plan order), this is
  /// the order of a stable sort by support for any input arity.
  std::vector<uint32_t> by_max_column_;
  std::optional<std::vector<int>> project_;
  bool temporal_ = false;
  bool identity_ = true;
};

namespace internal {

/// How many expressions have been compiled in this process (every
/// CompiledScalar::Compile, and every compile behind the convenience
/// EvalScalar / EvalMfp / EvalKey). For tests that prove an engine compiles
/// once per plan node, not once per row.
uint64_t ScalarCompilations();

}  // namespace internal
}  // namespace lir::eval

#endif  // LIR_EVAL_COMPILED_SCALAR_H_
