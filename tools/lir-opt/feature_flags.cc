#include "tools/lir-opt/feature_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/lir/string_view_compat.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"

ABSL_FLAG(std::string, config, "",
          "A JSON config file setting optimizer features: "
          "{\"features\": {\"enable_fused_set_difference\": true}}. Values are "
          "JSON booleans or strings (true/t/on/1/yes/y, false/f/off/0/no/n). "
          "Overridden by --features and the per-feature flags.");
ABSL_FLAG(std::string, features, "",
          "Optimizer features as name=value,... (e.g. "
          "enable_fused_set_difference=on). Overrides --config; overridden "
          "by the per-feature flags.");

// One flag per optimizer feature, straight from the declaration list.
#define LIR_FEATURE_FLAG_(name, type, default_value, description)     \
  ABSL_FLAG(lir::cli::FeatureSwitch, name, lir::cli::FeatureSwitch{}, \
            "Optimizer feature (" #type ", default " #default_value   \
            "): " description " --" #name " alone means true.");
LIR_OPTIMIZER_FEATURES(LIR_FEATURE_FLAG_)
#undef LIR_FEATURE_FLAG_

namespace lir::cli {

bool AbslParseFlag(absl::string_view text, FeatureSwitch* value,
                   std::string* error) {
  if (text.empty()) {
    value->value.reset();
    return true;
  }
  absl::StatusOr<bool> parsed = ParseFeatureBool(ToStd(text));
  if (!parsed.ok()) {
    *error = std::string(parsed.status().message());
    return false;
  }
  value->value = *parsed;
  return true;
}

std::string AbslUnparseFlag(FeatureSwitch value) {
  if (!value.value.has_value()) return "";
  return *value.value ? "true" : "false";
}

std::vector<std::string> ExpandFeatureFlags(int argc, char** argv) {
  std::vector<std::string> args;
  bool flags_ended = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") flags_ended = true;
    if (!flags_ended && i > 0) {
      for (const FeatureInfo& info : AllFeatures()) {
        const absl::string_view name = ToAbsl(info.name);
        for (absl::string_view dashes : {"-", "--"}) {
          if (arg == absl::StrCat(dashes, name)) {
            arg = absl::StrCat("--", name, "=true");
          } else if (arg == absl::StrCat(dashes, "no", name)) {
            arg = absl::StrCat("--", name, "=false");
          }
        }
      }
    }
    args.push_back(std::move(arg));
  }
  return args;
}

int ResolveFeaturesOrReport(OptimizerFeatures* features) {
  *features = OptimizerFeatures();
  std::string config = absl::GetFlag(FLAGS_config);
  if (!config.empty()) {
    const uint64_t max_bytes = absl::GetFlag(FLAGS_max_input_bytes);
    absl::Status status = ApplyConfigFile(*features, config, max_bytes);
    if (absl::IsResourceExhausted(status)) {
      return InputError(absl::StrCat(status.message(),
                                     " (raise it with --max_input_bytes=N)"));
    }
    if (!status.ok()) return InputError(status.message());
  }
  std::string list = absl::GetFlag(FLAGS_features);
  if (!list.empty()) {
    absl::Status status = ApplyFeatureList(*features, list);
    if (!status.ok()) {
      return UsageError(absl::StrCat("--features: ", status.message()));
    }
  }
#define LIR_FEATURE_APPLY_(name, type, default_value, description) \
  if (std::optional<bool> v = absl::GetFlag(FLAGS_##name).value) { \
    features->name = *v;                                           \
  }
  LIR_OPTIMIZER_FEATURES(LIR_FEATURE_APPLY_)
#undef LIR_FEATURE_APPLY_
  return kExitOk;
}

}  // namespace lir::cli
