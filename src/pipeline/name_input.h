// Internal to lir_pipeline: making every error of a step name its input.
#ifndef LIR_PIPELINE_NAME_INPUT_H_
#define LIR_PIPELINE_NAME_INPUT_H_

#include <string_view>

#include "absl/status/status.h"

namespace lir {

/// `status` with its message prefixed by `name: `, unless it already starts
/// with `name` (the parsers' `name:line:column: ...` messages do; the
/// validator's, the passes' and the analyses' do not). OK stays OK.
absl::Status NameInput(const absl::Status& status, std::string_view name);

}  // namespace lir

#endif  // LIR_PIPELINE_NAME_INPUT_H_
