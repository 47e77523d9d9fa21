// The rewrite passes' report over a corpus of plans (docs/corpus-report.md):
// what the antijoin and fused set-difference passes do to every plan, each
// with its feature on.
#ifndef LIR_TOOLS_CORPUS_REPORT_CORPUS_REPORT_H_
#define LIR_TOOLS_CORPUS_REPORT_CORPUS_REPORT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"

namespace lir {

/// A plan document and the name it is listed under (its file name).
using NamedDocument = std::pair<std::string, Document>;

/// The command that regenerates docs/corpus-report.md, quoted in its header.
inline constexpr char kCorpusReportCommand[] =
    "build/tools/corpus-report/corpus-report ../shared/corpus/materialize > "
    "docs/corpus-report.md";

/// Reads every `*.plan` file directly in `directory`, sorted by file name,
/// and parses it. Errors name the file (`dir/x.plan:3:5: expected ...`).
absl::StatusOr<std::vector<NamedDocument>> ReadPlanDirectory(
    const std::string& directory);

/// Optimizes every document once per pass (antijoin, fused set difference)
/// with that pass's feature on, and renders, as Markdown, one section per
/// pass: totals, fired and declined candidates per decline code, and one row
/// per candidate of every plan that has any. Deterministic: depends only on
/// the names and documents, in the order given.
absl::StatusOr<std::string> CorpusReportMarkdown(
    const std::vector<NamedDocument>& named_docs);

}  // namespace lir

#endif  // LIR_TOOLS_CORPUS_REPORT_CORPUS_REPORT_H_
