// Reading lir-opt's input files (plans, data, catalogs, sqllogictest files)
// or standard input whole, with the --max_input_bytes limit. What a plan's
// bytes mean is the library's business (lir/pipeline/document_io.h).
#ifndef LIR_TOOLS_LIR_OPT_READ_INPUT_H_
#define LIR_TOOLS_LIR_OPT_READ_INPUT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lir::cli {

/// The whole content of one input, and the name its messages use.
struct InputText {
  std::string name;  ///< the path, or `<stdin>`
  std::string text;
};

/// Reads the file at `path` completely; `-` reads standard input. Errors
/// (missing, unreadable, a directory, more than `max_bytes`) name the file;
/// a regular file's size is checked before anything is read.
absl::StatusOr<InputText> ReadInput(absl::string_view path, uint64_t max_bytes);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_READ_INPUT_H_
