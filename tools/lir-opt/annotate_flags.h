// Analysis flags of lir-opt: `--annotate` (which analysis results EXPLAIN
// shows on every node) and the facts about the dataflow the analyses and
// analysis-driven passes need (`--single_time`, `--monotonic_ids`,
// `--arity`, and the catalog file `--catalog`, of which the two before are
// shorthands).
#ifndef LIR_TOOLS_LIR_OPT_ANNOTATE_FLAGS_H_
#define LIR_TOOLS_LIR_OPT_ANNOTATE_FLAGS_H_

#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/strings/string_view.h"
#include "lir/interp/annotations.h"
#include "lir/interp/catalog.h"
#include "lir/interp/inputs.h"
#include "tools/lir-opt/flags.h"

namespace lir::cli {

/// One field of `--annotate`.
enum class AnnotationField {
  kNodeId,
  kArity,
  kMonotonic,
  kArrangements,
  kArrangementsBuilt,
  kUniqueKeys,
};
inline constexpr Choice<AnnotationField> kAnnotationFieldChoices[] = {
    {"node_id", AnnotationField::kNodeId},
    {"arity", AnnotationField::kArity},
    {"monotonic", AnnotationField::kMonotonic},
    {"arrangements", AnnotationField::kArrangements},
    {"arrangements_built", AnnotationField::kArrangementsBuilt},
    {"unique_keys", AnnotationField::kUniqueKeys},
};

/// The value of `--annotate`: a comma-separated list of fields, in any
/// order (they always print as node_id, arity, monotonic, arrangements,
/// arrangements_built, unique_keys).
struct AnnotationList {
  interp::AnnotationFields fields;
};

// absl finds these by argument-dependent lookup.
bool AbslParseFlag(absl::string_view text, AnnotationList* value,
                   std::string* error);
std::string AbslUnparseFlag(const AnnotationList& value);

/// Collects --single_time, --monotonic_ids, --arity and the collections of
/// the --catalog file into `*inputs`, and the catalog into `*catalog` when
/// it is not null (empty without --catalog). Returns 0, or the exit status
/// after printing a usage error (a malformed --arity item) or an input
/// error (a catalog that cannot be read, is invalid, or disagrees with
/// --arity or --monotonic_ids).
int ResolveAnalysisInputsOrReport(interp::AnalysisInputs* inputs,
                                  interp::Catalog* catalog = nullptr);

}  // namespace lir::cli

ABSL_DECLARE_FLAG(lir::cli::AnnotationList, annotate);
ABSL_DECLARE_FLAG(bool, single_time);
ABSL_DECLARE_FLAG(std::vector<std::string>, monotonic_ids);
ABSL_DECLARE_FLAG(std::vector<std::string>, arity);
ABSL_DECLARE_FLAG(std::string, catalog);

#endif  // LIR_TOOLS_LIR_OPT_ANNOTATE_FLAGS_H_
