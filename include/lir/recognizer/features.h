// Optimizer features: the one place where rewrite switches are declared.
//
// Like Materialize's `optimizer_feature_flags!`, every feature is one row of
// LIR_OPTIMIZER_FEATURES; the struct fields, the CLI flags, config-file keys,
// golden-test arguments and the rewrite report are all derived from it.
#ifndef LIR_RECOGNIZER_FEATURES_H_
#define LIR_RECOGNIZER_FEATURES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace lir {

// X(name, type, default, description). Types: bool.
#define LIR_OPTIMIZER_FEATURES(X)                                              \
  X(enable_fused_set_difference, bool, false,                                  \
    "Rewrite co-arranged anti-side Threshold(ArrangeBy(Union(B, Negate(A)))) " \
    "into one SetDifference node, dropping the Threshold's input "             \
    "arrangement (trace T).")                                                  \
  X(enable_relax_must_consolidate, bool, false,                                \
    "In single-time dataflows (--single_time), clear must_consolidate on "     \
    "monotonic Reduce::Hierarchical and TopK::MonotonicTop1/MonotonicTopK "    \
    "nodes whose input is physically monotonic (--monotonic_ids).")            \
  X(enable_antijoin_rendering, bool, false,                                    \
    "Render a co-arranged anti-side Threshold(ArrangeBy(Union(B, "             \
    "Negate(K)))) whose arms are sets as one AntiJoin node, dropping trace T " \
    "and the Threshold's output arrangement; runs before "                     \
    "enable_fused_set_difference.")

/// The value of every optimizer feature.
struct OptimizerFeatures {
#define LIR_FEATURE_FIELD_(name, type, default_value, description) \
  type name = default_value;
  LIR_OPTIMIZER_FEATURES(LIR_FEATURE_FIELD_)
#undef LIR_FEATURE_FIELD_

  friend bool operator==(const OptimizerFeatures&,
                         const OptimizerFeatures&) = default;
};

/// Static description of one feature.
struct FeatureInfo {
  std::string_view name;
  std::string_view type;           ///< "bool"
  std::string_view default_value;  ///< as text: "false"
  std::string_view description;
};

/// Every feature, in declaration order.
const std::vector<FeatureInfo>& AllFeatures();

/// Parses a boolean in any of Materialize's spellings, ignoring case:
/// true/t/on/1/yes/y and false/f/off/0/no/n.
absl::StatusOr<bool> ParseFeatureBool(std::string_view text);

/// Sets feature `name` from its textual `value`. Unknown names and bad
/// values are InvalidArgument errors that list the known features.
absl::Status SetFeature(OptimizerFeatures& features, std::string_view name,
                        std::string_view value);

/// Applies `name=value,name=value,...` (the `--features` syntax).
absl::Status ApplyFeatureList(OptimizerFeatures& features,
                              std::string_view list);

/// Applies a JSON config document `{"features": {"name": value, ...}}`;
/// values are JSON booleans or strings in ParseFeatureBool's spellings.
/// Every error is InvalidArgument located in the text: a syntax error as
/// `filename:line:column: invalid JSON config: ...`, any other as
/// `filename:line:column: <JSON pointer>: ...` at the offending key (an
/// unknown field or feature) or value (a wrong type, a bad boolean).
/// Features are set as they are read: on an error, those before it are set.
absl::Status ApplyConfigText(OptimizerFeatures& features, std::string_view text,
                             std::string_view filename);

/// The largest config file ApplyConfigFile reads by default (a config is a
/// few hundred bytes; the limit only stops a wrong path such as a device or
/// a huge file from being read into memory).
inline constexpr uint64_t kDefaultMaxConfigBytes = uint64_t{16} << 20;

/// Reads the file at `path` and applies it with ApplyConfigText. A file of
/// more than `max_bytes` is a ResourceExhausted error naming the limit, and
/// nothing is applied.
absl::Status ApplyConfigFile(OptimizerFeatures& features,
                             const std::string& path,
                             uint64_t max_bytes = kDefaultMaxConfigBytes);

/// `name=value` for every feature, comma-separated (canonical form).
std::string FeaturesToString(const OptimizerFeatures& features);

}  // namespace lir

#endif  // LIR_RECOGNIZER_FEATURES_H_
