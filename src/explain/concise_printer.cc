// PLACEHOLDER until the concise printer lands (being written now).
#include "lir/explain/concise.h"

namespace lir::explain {

absl::StatusOr<std::string> PrintConciseText(const Document&,
                                             const PrintOptions&) {
  return absl::UnimplementedError("the concise printer is not written yet");
}

}  // namespace lir::explain
