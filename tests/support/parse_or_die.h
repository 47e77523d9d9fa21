// How tests read plans: ParseOrDie for a text the test holds (either
// EXPLAIN syntax, told apart by explain::ParseText), and the named plan
// fixtures of testdata/plans/ that tests share instead of pasting them. A
// parse error fails the calling test and yields an empty document, so the
// test goes on to report what else is wrong instead of crashing.
#ifndef LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_
#define LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/text.h"

namespace lir::test {

/// `text` parsed (verbose or concise EXPLAIN text); on an error, a failure
/// of the calling test naming it and the text, and an empty document.
inline Document ParseOrDie(std::string_view text) {
  absl::StatusOr<Document> doc = explain::ParseText(text);
  EXPECT_TRUE(doc.ok()) << doc.status() << "\n" << text;
  return doc.ok() ? *std::move(doc) : Document{};
}

/// The bytes of `path`, or "" when it cannot be read. The one file reader
/// of the test helpers (corpus_util.h and cli_test_util.h use it too).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// The path of testdata/plans/`name` in the source tree.
inline std::filesystem::path FixturePath(std::string_view name) {
  return std::filesystem::path(LIR_SOURCE_DIR) / "testdata" / "plans" /
         std::string(name);
}

/// The bytes of the fixture `name` (`except.plan`, ...); a missing fixture
/// fails the calling test and yields "".
inline std::string FixtureText(std::string_view name) {
  EXPECT_TRUE(std::filesystem::is_regular_file(FixturePath(name)))
      << "no plan fixture " << FixturePath(name);
  return ReadFile(FixturePath(name));
}

/// The fixture `name`, parsed (ParseOrDie).
inline Document FixtureOrDie(std::string_view name) {
  return ParseOrDie(FixtureText(name));
}

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_
