// The one helper tests read plan text with: ParseOrDie (either EXPLAIN
// syntax, told apart by explain::ParseText). A parse error fails the
// calling test and yields an empty document, so the test goes on to report
// what else is wrong instead of crashing.
#ifndef LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_
#define LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_

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

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_PARSE_OR_DIE_H_
