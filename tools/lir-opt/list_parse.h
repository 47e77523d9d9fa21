// Comma-separated lists of lir-opt's flags (`--monotonic_ids=a,b`,
// `--arity=name=N,...`), also read by the golden tests' `analyze` arguments.
// They live with the tool, not with interp::AnalysisInputs, because only
// command lines spell analysis inputs this way.
#ifndef LIR_TOOLS_LIR_OPT_LIST_PARSE_H_
#define LIR_TOOLS_LIR_OPT_LIST_PARSE_H_

#include <map>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace lir::cli {

/// Adds the ids of `a,b,...` to `*ids` (empty items are skipped).
void ParseIdList(absl::string_view list, std::set<std::string>* ids);

/// Adds `name=N,name=N,...` to `*arities`. Each N is a non-negative integer;
/// a name may be given twice only with the same arity. Errors name the
/// offending item.
absl::Status ParseArityList(absl::string_view list,
                            std::map<std::string, int>* arities);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_LIST_PARSE_H_
