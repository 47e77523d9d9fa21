// Fuzz target (c): configs and feature strings. Every input is tried as a
// JSON config file (--config), a feature list (--features), a boolean
// spelling (--<feature>=VALUE), an --annotate field list and an arity list.
//
// Properties: none crashes; every error is InvalidArgument with a message
// (a config error located: `file:line:column: ...`); whatever a config or a
// feature list sets survives FeaturesToString -> ApplyFeatureList and a
// config written back from it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include "absl/strings/string_view.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/fuzz_util.h"
#include "lir/interp/annotations.h"
#include "lir/recognizer/features.h"
#include "src/lir/string_view_compat.h"
#include "tools/lir-opt/list_parse.h"

namespace lir::fuzz {
namespace {

constexpr absl::string_view kConfigName = "fuzz.json";

// `features` written back as a config file.
std::string ConfigOf(const OptimizerFeatures& features) {
  std::vector<std::string> members;
  for (absl::string_view item :
       absl::StrSplit(FeaturesToString(features), ',')) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    members.push_back(absl::StrCat("\"", kv.first, "\": ", kv.second));
  }
  return absl::StrCat("{\"features\": {", absl::StrJoin(members, ", "), "}}");
}

void CheckRoundTrip(const OptimizerFeatures& features, absl::string_view what) {
  OptimizerFeatures from_list;
  absl::Status status = ApplyFeatureList(from_list, FeaturesToString(features));
  if (!status.ok() || !(from_list == features)) {
    Fail(absl::StrCat(what, ": FeaturesToString does not read back"),
         FeaturesToString(features), status.ToString());
  }
  OptimizerFeatures from_config;
  const std::string config = ConfigOf(features);
  status = ApplyConfigText(from_config, config, ToStd(kConfigName));
  if (!status.ok() || !(from_config == features)) {
    Fail(absl::StrCat(what, ": the config written back does not read back"),
         config, status.ToString());
  }
}

void FuzzOne(absl::string_view text) {
  const std::string_view view = ToStd(text);
  OptimizerFeatures config;
  absl::Status status = ApplyConfigText(config, view, ToStd(kConfigName));
  CheckInputError(status, "ApplyConfigText");
  if (status.ok()) {
    CheckRoundTrip(config, "config");
  } else if (const absl::string_view message = status.message();
             !absl::StartsWith(message, absl::StrCat(kConfigName, ":")) ||
             message.size() <= kConfigName.size() + 1 ||
             !absl::ascii_isdigit(
                 static_cast<unsigned char>(message[kConfigName.size() + 1]))) {
    Fail("a config error is not located (file:line:column: ...)", message);
  }

  OptimizerFeatures list;
  status = ApplyFeatureList(list, view);
  CheckInputError(status, "ApplyFeatureList");
  if (status.ok()) CheckRoundTrip(list, "feature list");

  CheckInputError(ParseFeatureBool(view).status(), "ParseFeatureBool");
  CheckInputError(interp::ParseAnnotationFields(view).status(),
                  "ParseAnnotationFields");
  std::map<std::string, int> arities;
  CheckInputError(cli::ParseArityList(text, &arities), "ParseArityList");
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
