// The Materialize corpus in ../shared, for the tests that read it: where it
// is, its plan files, and the visible skip when it is absent (a fresh clone
// without ../shared still passes, saying what it skipped).
#ifndef LIR_TESTS_SUPPORT_CORPUS_UTIL_H_
#define LIR_TESTS_SUPPORT_CORPUS_UTIL_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "tests/support/parse_or_die.h"

namespace lir::test {

/// ../shared (the build passes its absolute path as LIR_SHARED_DIR).
inline std::filesystem::path SharedDir() {
  return std::filesystem::path(LIR_SHARED_DIR);
}

/// The directory of Materialize's verbose EXPLAIN outputs.
inline std::filesystem::path CorpusDir() {
  return SharedDir() / "corpus" / "materialize";
}

/// The corpus's `.plan` files in name order; empty when it is absent.
inline std::vector<std::filesystem::path> PlanFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(CorpusDir(), ec)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(CorpusDir())) {
    if (entry.path().extension() == ".plan") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// One corpus plan, parsed.
struct ParsedPlan {
  std::string name;  ///< the file name
  std::string text;
  Document doc;
};

/// Every corpus plan that parses, in name order, parsed once per test
/// binary; empty when the corpus is absent. (text_test reports the plans
/// that do not parse.)
inline const std::vector<ParsedPlan>& ParsedPlans() {
  static const auto* plans = [] {
    auto* out = new std::vector<ParsedPlan>;
    for (const std::filesystem::path& path : PlanFiles()) {
      std::string text = ReadFile(path);
      absl::StatusOr<Document> doc = explain::ParseText(text);
      if (!doc.ok()) continue;
      out->push_back(
          {path.filename().string(), std::move(text), *std::move(doc)});
    }
    return out;
  }();
  return *plans;
}

}  // namespace lir::test

/// Skips the current test, saying where the corpus was looked for, when
/// `missing` holds.
#define LIR_SKIP_WITHOUT_CORPUS(missing)                               \
  if (missing) {                                                       \
    GTEST_SKIP() << "corpus not found at " << ::lir::test::CorpusDir() \
                 << " (../shared is absent; set LIR_SHARED_DIR)";      \
  }

#endif  // LIR_TESTS_SUPPORT_CORPUS_UTIL_H_
