// Optimizer-feature flags of lir-opt, derived from LIR_OPTIMIZER_FEATURES:
// one `--<feature>[=bool]` flag per feature, plus `--config=FILE` and
// `--features=name=value,...`.
#ifndef LIR_TOOLS_LIR_OPT_FEATURE_FLAGS_H_
#define LIR_TOOLS_LIR_OPT_FEATURE_FLAGS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/strings/string_view.h"
#include "lir/recognizer/features.h"

namespace lir::cli {

/// The value of a per-feature flag: unset unless given on the command line,
/// so that it overrides the config file and --features only when present.
struct FeatureSwitch {
  std::optional<bool> value;
};

/// Accepts Materialize's boolean spellings (true/t/on/1/yes/y, ...).
bool AbslParseFlag(absl::string_view text, FeatureSwitch* value,
                   std::string* error);
std::string AbslUnparseFlag(FeatureSwitch value);

/// Rewrites `--<feature>` (no value) into `--<feature>=true` and
/// `--no<feature>` into `--<feature>=false`, so feature flags read like
/// absl booleans. Other arguments are returned unchanged.
std::vector<std::string> ExpandFeatureFlags(int argc, char** argv);

/// Resolves the features the command line asks for into `*features`:
/// defaults, then --config, then --features, then the per-feature flags,
/// later ones overriding earlier. Returns 0, or the exit status after
/// printing the error: a bad config file is invalid input (1, with
/// file:line:column), a bad --features or flag value a usage error (2);
/// both name the known features.
int ResolveFeaturesOrReport(OptimizerFeatures* features);

}  // namespace lir::cli

ABSL_DECLARE_FLAG(std::string, config);
ABSL_DECLARE_FLAG(std::string, features);

#endif  // LIR_TOOLS_LIR_OPT_FEATURE_FLAGS_H_
