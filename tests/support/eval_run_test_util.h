// What the tests of RunDocument share: both engines by name, a plan parsed
// from text (a test failure when it does not parse), and the plan the
// reliability probe used to exhaust memory with.
#ifndef LIR_TESTS_SUPPORT_EVAL_RUN_TEST_UTIL_H_
#define LIR_TESTS_SUPPORT_EVAL_RUN_TEST_UTIL_H_

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "tests/support/parse_or_die.h"

namespace lir::test {

inline constexpr eval::Engine kEngines[] = {eval::Engine::kIncremental,
                                            eval::Engine::kSnapshot};

/// The collection materialize.public.t of `data`, of `arity` columns, for
/// a test to add updates to.
inline eval::InputCollection& CollectionT(eval::InputData& data, int arity) {
  eval::InputCollection& t = data.collections["materialize.public.t"];
  t.arity = arity;
  return t;
}

/// Run options for `engine`, the rest as their defaults.
inline eval::RunOptions OptionsFor(eval::Engine engine) {
  eval::RunOptions options;
  options.engine = engine;
  return options;
}

/// The run's error, or "" when it ran to the end (a failure of the test
/// when RunDocument itself fails).
inline std::string RunError(const Document& doc, const eval::InputData& data,
                            const eval::RunOptions& options) {
  absl::StatusOr<eval::RunResult> run = eval::RunDocument(doc, data, options);
  EXPECT_TRUE(run.ok()) << run.status();
  return run.ok() ? run->error.value_or("") : run.status().ToString();
}

inline const char* EngineName(eval::Engine engine) {
  return engine == eval::Engine::kSnapshot ? "snapshot" : "incremental";
}

/// One Mfp over a one-row Constant `row` whose map makes `levels` columns,
/// column i + 1 being `call` of column i twice (`call` is "||" for a
/// string concatenated with itself, "row" for a record of two copies),
/// projecting the last: a value that doubles `levels` times.
inline std::string DoublingPlan(int levels, const std::string& call,
                                const std::string& row) {
  std::string map;
  for (int i = 0; i < levels; ++i) {
    absl::StrAppend(&map, i == 0 ? "" : ", ",
                    call == "||" ? absl::StrCat("(#", i, " || #", i, ")")
                                 : absl::StrCat(call, "(#", i, ", #", i, ")"));
  }
  return absl::StrCat("materialize.public.mv:\n  Mfp\n    project=(#", levels,
                      ")\n    map=(", map, ")\n    Constant\n      - (", row,
                      ")\n");
}

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_EVAL_RUN_TEST_UTIL_H_
