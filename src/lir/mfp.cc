// Map-filter-project helpers.
#include "src/lir/mfp.h"

namespace lir {

bool MapFilterProject::IsIdentity() const {
  return !project.has_value() && filter.empty() && map.empty() &&
         !temporal.has_value();
}

bool MapFilterProject::IsProjectionOnly() const {
  return filter.empty() && map.empty() && !temporal.has_value();
}

int MapFilterProject::OutputArity(int input_arity) const {
  if (project.has_value()) return static_cast<int>(project->size());
  return input_arity + static_cast<int>(map.size());
}

int MapFilterProject::ProjectedColumn(int i) const {
  if (!IsProjectionOnly() || i < 0) return -1;
  if (!project.has_value()) return i;
  if (static_cast<size_t>(i) >= project->size()) return -1;
  return (*project)[i];
}

}  // namespace lir
