// Rendering a rewrite report (pass.h): the `--explain_declines` sections
// of text and the `--report` JSON.
#ifndef LIR_RECOGNIZER_REPORT_H_
#define LIR_RECOGNIZER_REPORT_H_

#include <string>
#include <string_view>

#include "lir/recognizer/pass.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The `--explain_declines` section printed after a document.
std::string PrintCandidates(const RewriteReport& report);

/// The `--explain_declines` section of arrangement totals: per object, the
/// arrangements its dataflow builds before and after the passes.
std::string PrintArrangementTotals(const RewriteReport& report);

/// The `--report` JSON form.
nlohmann::json ReportToJson(const RewriteReport& report);

/// The outcome's name in reports: "fired", "declined", "disabled".
std::string_view OutcomeName(CandidateOutcome outcome);

}  // namespace lir

#endif  // LIR_RECOGNIZER_REPORT_H_
