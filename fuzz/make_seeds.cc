// Writes the fuzz targets' seed corpora from the source tree, so that no
// test input is copied into fuzz/:
//
//   <out>/text  every golden case input of testdata/ that is verbose plan
//               text (the plan part of a `run` case) and examples/*.plan
//   <out>/json  the JSON golden inputs and the JSON form of every text seed
//               that parses
//   <out>/concise  the golden inputs in the concise syntax, and the
//               concise form of every text seed that parses and prints
//   <out>/run   for each plan of the `run` target, a few inputs choosing it
//               (fuzz_cases.h, run_fuzz.cc)
//   <out>/data  the data files of the `run` golden cases and
//               examples/*.data.json
//
// Usage: lir_fuzz_make_seeds OUT_DIR. Rewrites OUT_DIR's five directories.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/fuzz_cases.h"
#include "lir/explain/concise.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/pipeline/document_io.h"

namespace {

namespace fs = std::filesystem;

void Write(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path out = argv[1];
  for (const char* dir : {"text", "json", "run", "concise", "data"}) {
    fs::remove_all(out / dir);
    fs::create_directories(out / dir);
  }

  std::vector<std::string> texts = lir::fuzz::ReadExamplePlans();
  size_t json_count = 0;
  size_t data_count = 0;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(lir::fuzz::SourceDir() / "examples")) {
    if (absl::EndsWith(entry.path().filename().string(), ".data.json")) {
      std::ifstream in(entry.path(), std::ios::binary);
      Write(out / "data" / absl::StrCat("example-", data_count++),
            std::string(std::istreambuf_iterator<char>(in), {}));
    }
  }
  for (const lir::fuzz::GoldenInput& input : lir::fuzz::ReadGoldenInputs()) {
    // Classified as lir-opt classifies its input.
    if (lir::DetectDocumentFormat(input.input) == lir::DocumentFormat::kJson) {
      Write(out / "json" / absl::StrCat("golden-", json_count++), input.input);
    } else if (input.command == "run") {
      const size_t split = input.input.find("\n====\n");
      texts.push_back(input.input.substr(0, split + 1));
      if (split != std::string::npos) {
        Write(out / "data" / absl::StrCat("golden-", data_count++),
              input.input.substr(split + 6));
      }
    } else {
      texts.push_back(input.input);
    }
  }
  // Concise inputs seed the concise target only: read from that syntax a
  // plan is partial, and the verbose printer and the JSON form the other
  // targets check need a complete one.
  size_t text_count = 0;
  size_t concise_count = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (lir::explain::DetectTextSyntax(texts[i]) == lir::TextSyntax::kConcise) {
      Write(out / "concise" / absl::StrCat("seed-", i), texts[i]);
      ++concise_count;
      continue;
    }
    Write(out / "text" / absl::StrCat("seed-", i), texts[i]);
    ++text_count;
    absl::StatusOr<lir::Document> doc = lir::explain::ParseText(texts[i]);
    if (doc.ok()) {
      Write(out / "json" / absl::StrCat("from-text-", i),
            lir::explain::WriteJson(*doc));
      ++json_count;
      absl::StatusOr<std::string> concise =
          lir::explain::PrintConciseText(*doc);
      if (concise.ok()) {
        Write(out / "concise" / absl::StrCat("from-text-", i), *concise);
        ++concise_count;
      }
    }
  }

  const size_t plans = lir::fuzz::LoadRunPlans().size();
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (size_t plan = 0; plan < plans; ++plan) {
    for (int variant = 0; variant < 4; ++variant) {
      std::string bytes = {static_cast<char>(plan), static_cast<char>(variant)};
      for (int n = 0; n < 8 * (variant + 1); ++n) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        bytes.push_back(static_cast<char>(state >> 56));
      }
      Write(out / "run" / absl::StrFormat("plan-%03d-%d", plan, variant),
            bytes);
    }
  }
  std::printf(
      "fuzz seeds: %zu text, %zu json, %zu concise, %zu run (%zu plans), "
      "%zu data in %s\n",
      text_count, json_count, concise_count, plans * 4, plans, data_count,
      out.string().c_str());
  return plans == 0 ? 1 : 0;
}
