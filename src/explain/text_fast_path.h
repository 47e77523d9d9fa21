// Parsing and printing of fast-path object bodies
// (../shared/reference/TEXT-FORMAT.md 1.2; internal to the text parser and
// printer).
#ifndef LIR_EXPLAIN_TEXT_FAST_PATH_H_
#define LIR_EXPLAIN_TEXT_FAST_PATH_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "src/explain/text_lines.h"

namespace lir::explain::internal {

/// Parses the body of a fast-path object: lines [begin, end) of `lines`,
/// whose first line sits at `level`. Errors are located (file:line:column)
/// and name what was expected.
absl::StatusOr<FastPath> ParseFastPathBody(const ErrorSink& errors,
                                           const std::vector<TextLine>& lines,
                                           size_t begin, size_t end, int level);

/// Appends the body of `fast_path` with its first line at `level`, exactly
/// as Materialize prints it.
void AppendFastPath(std::string& out, const FastPath& fast_path, int level);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_TEXT_FAST_PATH_H_
