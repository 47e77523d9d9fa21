// Throughput of the text and JSON forms: text parse, validate, text print,
// the same two for the concise syntax (ConciseParse, ConcisePrint: the same
// plans printed concise, which is 35-50% fewer bytes, so compare
// ns_per_node), JSON write (ToJson + dump), JSON read (ReadJson), and, as
// floors on the
// same plan (bench/floors.h), a bare traversal and plain
// nlohmann::json::parse (and dump) of the same JSON text.
//
// Workloads: the whole corpus (every file a separate document; skipped with
// a message when LIR_SHARED_DIR has no corpus) and generated kMixed plans of
// 10^3 .. 10^6 nodes. Each reports bytes/s (text bytes for the text
// operations and Validate, JSON bytes for the JSON ones) and `ns_per_node`
// (CPU time per plan node).
//
// Every benchmark runs its operation once untimed before measuring (see
// Run). Benchmarks are registered size-major and only the current workload
// is kept, so each generated plan is built once; the 10^6 case peaks near
// 10 GB of memory (the nlohmann tree of its 0.9 GB JSON text dominates).
// Skip it with --benchmark_filter='/(corpus|1000|10000|100000)$'.
//
// glibc serves buffers above 32 MB (the big texts, JSON strings and line
// tables of the 10^5 and 10^6 cases) with fresh mmap()ed pages on every
// iteration. Where page faults are expensive (some VMs), that first-touch
// cost dominates and hides the code's own scaling; to measure the steady
// state of a long-running process, run with
//   MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=100000000000
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/floors.h"
#include "benchmark/benchmark.h"
#include "lir/document.h"
#include "lir/explain/concise.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/validate.h"
#include "nlohmann/json.hpp"
#include "tests/support/plan_generator.h"

namespace {

namespace fs = std::filesystem;

/// Size 0 stands for the corpus.
constexpr int64_t kCorpus = 0;

/// The documents of one workload in every form the benchmarks read.
struct Workload {
  int64_t size = -1;
  std::string error;  ///< set when the workload cannot be built
  std::vector<std::string> texts;
  std::vector<lir::Document> docs;
  std::vector<std::string> jsons;
  std::vector<nlohmann::json> json_values;
  /// The documents printed in the concise syntax, and those documents read
  /// back from it (partial plans) for ConcisePrint.
  std::vector<std::string> concise_texts;
  std::vector<lir::Document> concise_docs;
  lir::ValidateOptions validate_options;
  int64_t text_bytes = 0;
  int64_t json_bytes = 0;
  int64_t concise_bytes = 0;
  int64_t nodes = 0;
};

void LoadCorpus(Workload& w) {
  const fs::path dir = fs::path(LIR_SHARED_DIR) / "corpus" / "materialize";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".plan") files.push_back(entry.path());
  }
  if (files.empty()) {
    w.error = absl::StrCat("corpus absent: no .plan files in ", dir.string());
    return;
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    w.texts.push_back(buffer.str());
    lir::explain::ParseOptions options;
    options.filename = file.filename().string();
    absl::StatusOr<lir::Document> doc =
        lir::explain::ParseText(w.texts.back(), options);
    if (!doc.ok()) {
      w.error =
          absl::StrCat("corpus file does not parse: ", doc.status().ToString());
      return;
    }
    w.docs.push_back(std::move(*doc));
  }
}

void Generate(Workload& w, int64_t nodes) {
  lir::test::PlanGeneratorOptions options;
  options.node_count = static_cast<size_t>(nodes);
  lir::test::GeneratedPlan plan = lir::test::GeneratePlan(options);
  w.validate_options = plan.validate_options;
  w.docs.push_back(lir::test::WrapInDocument(std::move(plan.plan)));
  w.texts.push_back(lir::explain::PrintText(w.docs.back()));
}

/// The workload for `size`, building it (and dropping the previous one) on
/// first use.
const Workload& GetWorkload(int64_t size) {
  static std::unique_ptr<Workload> current;
  if (current != nullptr && current->size == size) return *current;
  current.reset();  // free the previous size first
  auto w = std::make_unique<Workload>();
  w->size = size;
  if (size == kCorpus) {
    LoadCorpus(*w);
  } else {
    Generate(*w, size);
  }
  if (w->error.empty()) {
    for (size_t i = 0; i < w->docs.size(); ++i) {
      w->text_bytes += static_cast<int64_t>(w->texts[i].size());
      w->jsons.push_back(lir::explain::ToJson(w->docs[i]).dump(2));
      w->json_bytes += static_cast<int64_t>(w->jsons.back().size());
      w->json_values.push_back(nlohmann::json::parse(w->jsons.back()));
      absl::StatusOr<std::string> concise =
          lir::explain::PrintConciseText(w->docs[i]);
      // A corpus plan whose concise form needs a fact its verbose text
      // lacks (a constant cut to 20 rows) is left out of the concise
      // benchmarks only.
      absl::StatusOr<lir::Document> reread =
          concise.ok() ? lir::explain::ParseConciseText(*concise)
                       : absl::StatusOr<lir::Document>(concise.status());
      if (reread.ok()) {
        w->concise_bytes += static_cast<int64_t>(concise->size());
        w->concise_texts.push_back(*std::move(concise));
        w->concise_docs.push_back(*std::move(reread));
      } else if (size != kCorpus) {
        w->error = absl::StrCat("generated plan has no concise round trip: ",
                                reread.status().ToString());
        break;
      } else {
        std::cerr << "note: corpus document " << i
                  << " left out of the concise benchmarks: " << reread.status()
                  << "\n";
      }
      if (absl::Status s = lir::Validate(w->docs[i], w->validate_options);
          !s.ok()) {
        std::cerr << "warning: document " << i << " does not validate: " << s
                  << "\n";
      }
      for (const lir::Object& object : w->docs[i].objects) {
        if (object.plan != nullptr) {
          w->nodes += static_cast<int64_t>(lir::CountNodes(*object.plan));
        }
      }
    }
  }
  current = std::move(w);
  return *current;
}

/// Runs `op(workload)` per iteration and reports bytes/s over `bytes` and
/// CPU ns per node.
/// Which text a benchmark's bytes/s counts.
enum class Bytes { kText, kJson, kConcise };

template <typename Op>
void Run(benchmark::State& state, int64_t size, Bytes counted, Op op) {
  const Workload& w = GetWorkload(size);
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    for (auto _ : state) {
    }
    return;
  }
  // One untimed run first: the first touch of fresh heap pages costs more
  // than the work itself on some VMs, and only the first run pays it.
  op(w);
  for (auto _ : state) op(w);
  const int64_t bytes = counted == Bytes::kJson      ? w.json_bytes
                        : counted == Bytes::kConcise ? w.concise_bytes
                                                     : w.text_bytes;
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["nodes"] = static_cast<double>(w.nodes);
  state.counters["bytes"] = static_cast<double>(bytes);
  // Seconds of CPU per node; reported with an SI prefix (n = ns).
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(w.nodes),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  lir_bench::ReportMemory(state);
  state.SetLabel(size == kCorpus ? "corpus" : absl::StrCat("mixed ", size));
}

// The floor for passes over the plan: visiting every node once.
void Traversal(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kText, [](const Workload& w) {
    for (const lir::Document& doc : w.docs) lir_bench::BareTraversal(doc);
  });
}

void TextParse(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kText, [](const Workload& w) {
    for (const std::string& text : w.texts) {
      absl::StatusOr<lir::Document> doc = lir::explain::ParseText(text);
      if (!doc.ok()) std::abort();
      benchmark::DoNotOptimize(doc);
    }
  });
}

void Validate(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kText, [](const Workload& w) {
    for (const lir::Document& doc : w.docs) {
      absl::Status status = lir::Validate(doc, w.validate_options);
      benchmark::DoNotOptimize(status);
    }
  });
}

void TextPrint(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kText, [](const Workload& w) {
    for (const lir::Document& doc : w.docs) {
      std::string text = lir::explain::PrintText(doc);
      benchmark::DoNotOptimize(text);
    }
  });
}

void ConciseParse(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kConcise, [](const Workload& w) {
    for (const std::string& text : w.concise_texts) {
      absl::StatusOr<lir::Document> doc = lir::explain::ParseConciseText(text);
      if (!doc.ok()) std::abort();
      benchmark::DoNotOptimize(doc);
    }
  });
}

void ConcisePrint(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kConcise, [](const Workload& w) {
    for (const lir::Document& doc : w.concise_docs) {
      absl::StatusOr<std::string> text = lir::explain::PrintConciseText(doc);
      if (!text.ok()) std::abort();
      benchmark::DoNotOptimize(text);
    }
  });
}

void JsonWrite(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kJson, [](const Workload& w) {
    for (const lir::Document& doc : w.docs) {
      std::string json = lir::explain::ToJson(doc).dump(2);
      benchmark::DoNotOptimize(json);
    }
  });
}

void JsonRead(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kJson, [](const Workload& w) {
    for (const std::string& json : w.jsons) {
      absl::StatusOr<lir::Document> doc = lir::explain::ReadJson(json);
      if (!doc.ok()) std::abort();
      benchmark::DoNotOptimize(doc);
    }
  });
}

void NlohmannParse(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kJson, [](const Workload& w) {
    for (const std::string& json : w.jsons) {
      lir_bench::NlohmannParse(json);
    }
  });
}

void NlohmannDump(benchmark::State& state, int64_t size) {
  Run(state, size, Bytes::kJson, [](const Workload& w) {
    for (const nlohmann::json& value : w.json_values) {
      std::string json = value.dump(2);
      benchmark::DoNotOptimize(json);
    }
  });
}

void RegisterAll() {
  struct Operation {
    const char* name;
    void (*fn)(benchmark::State&, int64_t);
  };
  const Operation operations[] = {
      {"Traversal", Traversal},         {"TextParse", TextParse},
      {"Validate", Validate},           {"TextPrint", TextPrint},
      {"ConciseParse", ConciseParse},   {"ConcisePrint", ConcisePrint},
      {"JsonWrite", JsonWrite},         {"JsonRead", JsonRead},
      {"NlohmannParse", NlohmannParse}, {"NlohmannDump", NlohmannDump},
  };
  for (int64_t size : {kCorpus, int64_t{1'000}, int64_t{10'000},
                       int64_t{100'000}, int64_t{1'000'000}}) {
    for (const Operation& op : operations) {
      std::string name = absl::StrCat(
          op.name, "/", size == kCorpus ? "corpus" : absl::StrCat(size));
      auto fn = op.fn;
      benchmark::RegisterBenchmark(
          name.c_str(),
          [fn, size](benchmark::State& state) { fn(state, size); })
          ->Unit(size >= 100'000 ? benchmark::kMillisecond
                                 : benchmark::kMicrosecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
