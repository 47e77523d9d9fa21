// The verbose reader behind ParseText (internal; ParseText picks the
// reader by DetectTextSyntax).
#ifndef LIR_EXPLAIN_TEXT_SYNTAX_H_
#define LIR_EXPLAIN_TEXT_SYNTAX_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/explain/text.h"

namespace lir::explain::internal {

/// Parses a verbose EXPLAIN document (ParseText's contract).
absl::StatusOr<Document> ParseVerboseText(std::string_view text,
                                          const ParseOptions& options);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_TEXT_SYNTAX_H_
