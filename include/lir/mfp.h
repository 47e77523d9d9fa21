// Map-filter-project operators as LIR prints them.
#ifndef LIR_LIR_MFP_H_
#define LIR_LIR_MFP_H_

#include <optional>
#include <vector>

#include "lir/scalar.h"

namespace lir {

/// Bounds of a temporal filter: `lower... <= mz_now() < upper...`.
struct TemporalFilter {
  std::vector<ScalarExpr> lower;
  std::vector<ScalarExpr> upper;
  friend bool operator==(const TemporalFilter&,
                         const TemporalFilter&) = default;
};

/// A map-filter-project: append `map` columns to the input, keep the rows
/// for which every `filter` predicate is true (predicates may read mapped
/// columns), then select `project` columns (absent = keep all).
struct MapFilterProject {
  /// Output columns as positions in input ++ map; nullopt keeps exactly the
  /// input's columns (map columns then only feed the filters;
  /// ../shared/reference/SEMANTICS.md 8.1).
  std::optional<std::vector<int>> project;
  std::vector<ScalarExpr> filter;
  std::vector<ScalarExpr> map;
  /// Temporal bounds; only where an MfpPlan is printed (Get, Mfp, FlatMap
  /// mfp_after, ArrangeBy).
  std::optional<TemporalFilter> temporal;

  /// No map, filter, projection or temporal bound: prints nothing.
  bool IsIdentity() const;
  /// Only a projection (or nothing at all).
  bool IsProjectionOnly() const;
  /// Output arity for an input of `input_arity` columns: the projection's
  /// length, or `input_arity` when there is none.
  int OutputArity(int input_arity) const;
  /// Input column feeding output column `i` when IsProjectionOnly(), else -1.
  int ProjectedColumn(int i) const;

  friend bool operator==(const MapFilterProject&,
                         const MapFilterProject&) = default;
};

}  // namespace lir

#endif  // LIR_LIR_MFP_H_
