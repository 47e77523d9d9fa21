// Checking what a caller says about the global collections a plan reads (a
// catalog's or --arity's arities and unique keys, interp::AnalysisInputs)
// against what the plan itself shows, before any analysis or inference
// trusts them: a contradiction is an input error naming both sides.
#ifndef LIR_INTERP_GLOBAL_FACTS_H_
#define LIR_INTERP_GLOBAL_FACTS_H_

#include <string_view>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/interp/inputs.h"

namespace lir::interp {

/// Refuses given facts that `doc` (named `plan_name` in errors) contradicts:
///   - an arity of inputs.global_arity that a `Source` block of the
///     collection reads past, or that, carried through that block to the
///     collection's Gets (GlobalAritiesSeenByGets), makes the plan invalid
///     (an advertised arrangement of another width, Union arms or join
///     inputs of other widths, a column out of range);
///   - a unique key of inputs.global_unique_keys naming a column at or past
///     the arity the plan shows the collection has, when no arity is given
///     (a given arity is checked where it is given).
/// Errors are InvalidArgument: `<origin>: <fact>; <plan_name>: <what the
/// plan shows>`, the origin from inputs.global_arity_origin or
/// global_keys_origin (the collection's catalog entry, `file:line:col`).
/// A plan invalid on its own is not this check's to report: it passes.
absl::Status CheckGlobalFacts(const Document& doc, const AnalysisInputs& inputs,
                              std::string_view plan_name);

}  // namespace lir::interp

#endif  // LIR_INTERP_GLOBAL_FACTS_H_
