// Map-filter-project helpers.
#include "lir/mfp.h"

namespace lir {

bool MapFilterProject::IsIdentity() const {
  return !project.has_value() && filter.empty() && map.empty() &&
         !temporal.has_value();
}

bool MapFilterProject::IsProjectionOnly() const {
  return filter.empty() && map.empty() && !temporal.has_value();
}

int MapFilterProject::OutputArity(int input_arity) const {
  // ../shared/reference/SEMANTICS.md 8.1: without a projection the output is
  // the input's columns; map columns then only feed the filters.
  if (project.has_value()) return static_cast<int>(project->size());
  return input_arity;
}

int MapFilterProject::ProjectedColumn(int i) const {
  if (!IsProjectionOnly() || i < 0) return -1;
  if (!project.has_value()) return i;
  if (static_cast<size_t>(i) >= project->size()) return -1;
  return (*project)[i];
}

}  // namespace lir
