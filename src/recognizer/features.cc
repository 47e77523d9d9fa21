// Parsing and printing of optimizer features.
#include "lir/recognizer/features.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "lir/explain/json.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_locate.h"
#include "src/lir/string_view_compat.h"

namespace lir {
namespace {

std::string KnownFeatures() {
  std::vector<std::string> names;
  for (const FeatureInfo& info : AllFeatures()) {
    names.push_back(
        absl::StrCat(ToAbsl(info.name), " (", ToAbsl(info.type), ")"));
  }
  return absl::StrJoin(names, ", ");
}

absl::Status UnknownFeature(std::string_view name) {
  return absl::InvalidArgumentError(
      absl::StrCat("unknown feature '", ToAbsl(name),
                   "'; known features: ", KnownFeatures()));
}

bool IsKnownFeature(std::string_view name) {
  for (const FeatureInfo& info : AllFeatures()) {
    if (info.name == name) return true;
  }
  return false;
}

}  // namespace

const std::vector<FeatureInfo>& AllFeatures() {
  static const auto* const kFeatures = new std::vector<FeatureInfo>{
#define LIR_FEATURE_INFO_(name, type, default_value, description) \
  FeatureInfo{#name, #type, #default_value, description},
      LIR_OPTIMIZER_FEATURES(LIR_FEATURE_INFO_)
#undef LIR_FEATURE_INFO_
  };
  return *kFeatures;
}

absl::StatusOr<bool> ParseFeatureBool(std::string_view text) {
  std::string lower = absl::AsciiStrToLower(ToAbsl(text));
  for (std::string_view yes : {"true", "t", "on", "1", "yes", "y"}) {
    if (lower == yes) return true;
  }
  for (std::string_view no : {"false", "f", "off", "0", "no", "n"}) {
    if (lower == no) return false;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("invalid boolean '", ToAbsl(text),
                   "': expected true/t/on/1/yes/y or false/f/off/0/no/n"));
}

absl::Status SetFeature(OptimizerFeatures& features, std::string_view name,
                        std::string_view value) {
#define LIR_FEATURE_SET_(feature, type, default_value, description) \
  if (name == #feature) {                                           \
    absl::StatusOr<bool> parsed = ParseFeatureBool(value);          \
    if (!parsed.ok()) {                                             \
      return absl::InvalidArgumentError(absl::StrCat(               \
          "feature ", #feature, ": ", parsed.status().message()));  \
    }                                                               \
    features.feature = *parsed;                                     \
    return absl::OkStatus();                                        \
  }
  LIR_OPTIMIZER_FEATURES(LIR_FEATURE_SET_)
#undef LIR_FEATURE_SET_
  return UnknownFeature(name);
}

absl::Status ApplyFeatureList(OptimizerFeatures& features,
                              std::string_view list) {
  for (absl::string_view item :
       absl::StrSplit(ToAbsl(list), ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (!absl::StrContains(item, '=')) {
      return absl::InvalidArgumentError(
          absl::StrCat("--features: expected name=value, got '", item,
                       "'; known features: ", KnownFeatures()));
    }
    LIR_RETURN_IF_ERROR(
        SetFeature(features, ToStd(absl::StripAsciiWhitespace(kv.first)),
                   ToStd(absl::StripAsciiWhitespace(kv.second))));
  }
  return absl::OkStatus();
}

absl::Status ApplyConfigText(OptimizerFeatures& features, std::string_view text,
                             std::string_view filename) {
  absl::StatusOr<nlohmann::json> parsed =
      explain::ParseJsonText(text, filename, "invalid JSON config: ");
  if (!parsed.ok()) return parsed.status();
  // The parsed value keeps no positions: an error is located by walking the
  // text to the offending key or value (only once there is an error).
  const explain::JsonLocator locator(text);
  auto error = [&](const std::vector<explain::JsonStep>& path, bool at_key,
                   std::string_view message) {
    std::string pointer;
    for (const explain::JsonStep& step : path) {
      absl::StrAppend(&pointer, "/", explain::JsonPointerToken(step.key));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        locator.Where(filename, locator.Find(path, at_key)), ": ",
        pointer.empty() ? "" : absl::StrCat(pointer, ": "), ToAbsl(message)));
  };
  const nlohmann::json& json = *parsed;
  if (!json.is_object()) {
    return error({}, false,
                 absl::StrCat("expected a JSON object {\"features\": {...}}, "
                              "got ",
                              json.type_name()));
  }
  for (const auto& [key, value] : json.items()) {
    if (key != "features") {
      return error({key}, true,
                   absl::StrCat("unknown top-level key '", key,
                                "'; expected \"features\""));
    }
  }
  auto it = json.find("features");
  if (it == json.end()) return absl::OkStatus();
  if (!it->is_object()) {
    return error(
        {"features"}, false,
        absl::StrCat("\"features\" must be an object, got ", it->type_name()));
  }
  for (const auto& [name, value] : it->items()) {
    // An unknown name is the key's fault, whatever its value.
    if (!IsKnownFeature(name)) {
      return error({"features", name}, true,
                   ToStd(UnknownFeature(name).message()));
    }
    std::string text_value;
    if (value.is_boolean()) {
      text_value = value.get<bool>() ? "true" : "false";
    } else if (value.is_string()) {
      text_value = value.get<std::string>();
    } else {
      return error({"features", name}, false,
                   absl::StrCat("feature ", name,
                                ": expected a boolean or a string, got ",
                                value.type_name()));
    }
    absl::Status status = SetFeature(features, name, text_value);
    if (!status.ok()) {
      return error({"features", name}, false, ToStd(status.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status ApplyConfigFile(OptimizerFeatures& features,
                             const std::string& path, uint64_t max_bytes) {
  // A directory opens and reads as empty on Linux, which would otherwise be
  // reported as a JSON syntax error at 1:1.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot read config file: is a directory"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": cannot read config file: ", std::strerror(errno)));
  }
  // Read in chunks rather than sizing the file first: a pipe or a device has
  // no size, and must not be read without bound either.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    const auto n = static_cast<uint64_t>(in.gcount());
    if (n > max_bytes - std::min<uint64_t>(text.size(), max_bytes)) {
      return absl::ResourceExhaustedError(
          absl::StrCat(path,
                       ": cannot read config file: it is more than the "
                       "limit of ",
                       max_bytes, " bytes"));
    }
    text.append(chunk, n);
  }
  if (in.bad()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": cannot read config file: ", std::strerror(errno)));
  }
  return ApplyConfigText(features, text, path);
}

std::string FeaturesToString(const OptimizerFeatures& features) {
  std::vector<std::string> parts;
#define LIR_FEATURE_STR_(feature, type, default_value, description) \
  parts.push_back(                                                  \
      absl::StrCat(#feature, "=", features.feature ? "true" : "false"));
  LIR_OPTIMIZER_FEATURES(LIR_FEATURE_STR_)
#undef LIR_FEATURE_STR_
  return absl::StrJoin(parts, ",");
}

}  // namespace lir
