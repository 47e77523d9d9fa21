// The named plan fixtures of testdata/plans/ (tests/support/parse_or_die.h):
// each one parses and prints back byte for byte in the syntax it is written
// in, so that a test naming it reads the plan it means; and each one is
// named by some test, golden or benchmark, so that none is left behind when
// the tests that used it move or go.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/concise.h"
#include "lir/explain/text.h"
#include "tests/support/cli_test_util.h"
#include "tests/support/parse_or_die.h"

namespace lir {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> FilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  return files;
}

std::vector<fs::path> PlanFixtures() {
  std::vector<fs::path> plans;
  for (const fs::path& path : FilesUnder(test::FixturePath(""))) {
    if (path.extension() == ".plan") plans.push_back(path);
  }
  return plans;
}

TEST(PlanFixtures, EachParsesAndPrintsBackByteForByte) {
  const std::vector<fs::path> plans = PlanFixtures();
  ASSERT_FALSE(plans.empty());
  for (const fs::path& path : plans) {
    SCOPED_TRACE(path.filename().string());
    const std::string text = test::FixtureText(path.filename().string());
    absl::StatusOr<Document> doc = explain::ParseText(text);
    ASSERT_TRUE(doc.ok()) << doc.status();
    if (doc->syntax == TextSyntax::kConcise) {
      absl::StatusOr<std::string> printed = explain::PrintConciseText(*doc);
      ASSERT_TRUE(printed.ok()) << printed.status();
      EXPECT_EQ(*printed, text);
    } else {
      EXPECT_EQ(explain::PrintText(*doc), text);
    }
  }
}

TEST(PlanFixtures, EachIsNamedByATestAGoldenOrABenchmark) {
  const fs::path root(LIR_SOURCE_DIR);
  std::string sources;
  for (const char* dir : {"tests", "testdata", "bench"}) {
    for (const fs::path& path : FilesUnder(root / dir)) {
      if (path.parent_path() == test::FixturePath("").parent_path()) continue;
      sources += test::ReadFile(path);
    }
  }
  for (const fs::path& path : PlanFixtures()) {
    EXPECT_TRUE(absl::StrContains(sources, path.filename().string()))
        << "no test names testdata/plans/" << path.filename().string();
  }
}

}  // namespace
}  // namespace lir
