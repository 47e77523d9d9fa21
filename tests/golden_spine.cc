#include "tests/golden_spine.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/spine_workload.h"
#include "lir/explain/json.h"

namespace lir::test {

std::string RunSpineGolden(const std::string& input, const ArgFn& arg) {
  namespace spine = eval::spine;
  if (!input.empty()) return "error: spine takes no input\n";
  spine::Workload w;
  absl::StatusOr<spine::Policy> policy =
      spine::Policy::Parse(arg("policy", w.policy.ToString()));
  if (!policy.ok())
    return absl::StrCat("error: ", policy.status().message(), "\n");
  w.policy = *policy;
  const std::string exertion = arg("exertion", "stock");
  if (exertion != "stock" && exertion != "funded") {
    return "error: exertion must be stock or funded\n";
  }
  w.exertion =
      exertion == "funded" ? spine::Exertion::kFunded : spine::Exertion::kStock;
  struct Number {
    const char* key;
    uint64_t* value;
  };
  for (const Number& n :
       {Number{"snapshot", &w.snapshot}, Number{"batches", &w.batches},
        Number{"batch_size", &w.batch_size},
        Number{"idle_turns", &w.idle_turns},
        Number{"empty_batches", &w.empty_batches}}) {
    if (!absl::SimpleAtoi(arg(n.key, absl::StrCat(*n.value)), n.value)) {
      return absl::StrCat("error: ", n.key,
                          " must be a non-negative integer\n");
    }
  }
  w.close = arg("close", "false") == "true";
  const bool trace = arg("trace", "false") == "true";
  const bool json = arg("format", "text") == "json";
  std::string out;
  spine::TraceFn trace_fn;
  if (trace) {
    trace_fn = [&out](std::string_view label, const spine::Spine& s) {
      out += spine::FormatTraceLine(label, s);
      return absl::OkStatus();
    };
  }
  absl::StatusOr<spine::WorkloadResult> result =
      spine::RunWorkload(w, trace_fn);
  if (!result.ok())
    return absl::StrCat("error: ", result.status().message(), "\n");
  if (json) {
    return absl::StrCat(
        out, explain::DumpJson(spine::WorkloadResultToJson(*result), 2), "\n");
  }
  return absl::StrCat(out, spine::WorkloadResultToText(*result));
}

}  // namespace lir::test
