// Fuzz target (d): `run` on fixed small plans with fuzzed data.
//
// The plans are examples/*.plan and the plans of the `run` golden cases
// (fuzz_cases.h), each with the columns of its own seed data. The input
// bytes choose a plan, the compaction and the fuel, then updates: a
// collection, one value per column (picked from the values the seed data
// uses there, plus integer boundaries and null), a round 0..5 and a diff.
//
// Property: the incremental engine, the snapshot engine, the incremental
// engine with little fuel, and the plan rewritten with
// enable_fused_set_difference all compute the same contents and fail at
// the same rounds (or all refuse to run).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_cases.h"
#include "fuzz/fuzz_util.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"
#include "nlohmann/json.hpp"

namespace lir::fuzz {
namespace {

constexpr size_t kMaxUpdates = 48;
constexpr int kRounds = 6;
constexpr int64_t kDiffs[] = {1, 1, 2, -1, 1, 3, -1, -2};

// Reads the input front to back; zeros once it is used up.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return size_ == 0; }
  uint8_t Next() {
    if (size_ == 0) return 0;
    --size_;
    return *data_++;
  }

 private:
  const uint8_t* data_;
  size_t size_;
};

const std::vector<RunPlan>& Plans() {
  static const std::vector<RunPlan>* plans =
      new std::vector<RunPlan>(LoadRunPlans());
  return *plans;
}

// The rewritten form of each plan, computed once.
const std::vector<Document>& FusedPlans() {
  static const std::vector<Document>* fused = [] {
    auto* out = new std::vector<Document>();
    OptimizerFeatures features;
    features.enable_fused_set_difference = true;
    for (const RunPlan& plan : Plans()) {
      absl::StatusOr<OptimizeResult> optimized =
          Optimize(Clone(plan.doc), features);
      if (!optimized.ok()) {
        Fail(absl::StrCat(plan.origin, ": the rewrite failed"),
             optimized.status().ToString());
      }
      out->push_back(std::move(optimized->document));
    }
    return out;
  }();
  return *fused;
}

std::string DataText(const RunPlan& plan, Bytes& bytes) {
  nlohmann::json collections = nlohmann::json::object();
  for (const RunCollection& c : plan.collections) {
    collections[c.name] = {{"arity", c.arity},
                           {"updates", nlohmann::json::array()}};
  }
  for (size_t n = 0;
       n < kMaxUpdates && !bytes.empty() && !plan.collections.empty(); ++n) {
    const RunCollection& c =
        plan.collections[bytes.Next() % plan.collections.size()];
    nlohmann::json row = nlohmann::json::array();
    for (const std::vector<nlohmann::json>& values : c.column_values) {
      const uint8_t pick = bytes.Next();
      row.push_back(pick == 0xff ? nlohmann::json(nullptr)
                                 : values[pick % values.size()]);
    }
    const int round = bytes.Next() % kRounds;
    const int64_t diff = kDiffs[bytes.Next() % std::size(kDiffs)];
    collections[c.name]["updates"].push_back({row, round, diff});
  }
  nlohmann::json data = {{"collections", collections}};
  if (!plan.indexes.is_null()) data["indexes"] = plan.indexes;
  return data.dump();
}

void FuzzOne(const uint8_t* input, size_t size) {
  const std::vector<RunPlan>& plans = Plans();
  if (plans.empty()) Fail("no run plans found under LIR_SOURCE_DIR");
  Bytes bytes(input, size);
  const size_t index = bytes.Next() % plans.size();
  const RunPlan& plan = plans[index];
  const uint8_t flags = bytes.Next();
  const std::string data_text = DataText(plan, bytes);
  absl::StatusOr<eval::InputData> data =
      eval::ParseInputData(data_text, "fuzz-data");
  if (!data.ok()) {
    Fail(absl::StrCat(plan.origin, ": generated data does not read"), data_text,
         data.status().ToString());
  }

  eval::RunOptions base;
  base.compaction =
      (flags & 1) ? eval::Compaction::kNone : eval::Compaction::kEager;
  eval::RunOptions snapshot = base;
  snapshot.engine = eval::Engine::kSnapshot;
  eval::RunOptions fueled = base;
  fueled.fuel = 1 + (flags >> 1) % 3;

  struct Variant {
    const char* name;
    const Document* doc;
    eval::RunOptions options;
  };
  const Variant variants[] = {
      {"incremental", &plan.doc, base},
      {"snapshot", &plan.doc, snapshot},
      {"incremental with fuel", &plan.doc, fueled},
      {"rewritten (fused_set_difference)", &FusedPlans()[index], base},
  };
  std::optional<absl::StatusOr<eval::RunResult>> first;
  for (const Variant& v : variants) {
    absl::StatusOr<eval::RunResult> run =
        eval::RunDocument(*v.doc, *data, v.options);
    if (!first.has_value()) {
      first = std::move(run);
      continue;
    }
    const std::string what =
        absl::StrCat(plan.origin, ": incremental and ", v.name);
    if (first->ok() != run.ok()) {
      Fail(absl::StrCat(what, " disagree on whether the plan runs"),
           first->ok() ? "ok" : first->status().ToString(),
           run.ok() ? "ok" : run.status().ToString());
    }
    if (!run.ok()) continue;
    std::optional<std::string> difference =
        eval::FirstDifference(**first, *run);
    if (difference.has_value()) {
      Fail(absl::StrCat(what, " disagree: ", *difference), data_text,
           explain::PrintText(*v.doc));
    }
  }
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  lir::fuzz::FusedPlans();  // load and rewrite the plans before timing starts
  const std::vector<lir::fuzz::RunPlan>& plans = lir::fuzz::Plans();
  std::fprintf(stderr, "run_fuzz: %zu plans (the first input byte picks one",
               plans.size());
  if (std::getenv("LIR_FUZZ_LIST_PLANS") != nullptr) {
    for (size_t i = 0; i < plans.size(); ++i) {
      std::fprintf(stderr, "%s\n  %zu: %s", i == 0 ? "):" : "", i,
                   plans[i].origin.c_str());
    }
    std::fprintf(stderr, "\n");
  } else {
    std::fprintf(stderr, "; LIR_FUZZ_LIST_PLANS=1 lists them)\n");
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(data, size);
  return 0;
}
