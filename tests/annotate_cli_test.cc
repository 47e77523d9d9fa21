// End-to-end tests of lir-opt's analysis flags: --annotate (text and JSON),
// --monotonic_ids, --arity, --single_time with the relaxation pass.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string ShellQuote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

constexpr char kPlan[] =
    "Explained Query:\n"
    "  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first] "
    "must_consolidate\n"
    "    ArrangeBy\n"
    "      raw=true\n"
    "      arrangements[0]={ key=[#0], permutation=id, thinning=(#1) }\n"
    "      Get::Collection materialize.public.m\n"
    "        raw=true\n"
    "\n"
    "Target cluster: quickstart\n";

class AnnotateCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string(LIR_OPT_PATH).empty()) {
      GTEST_SKIP() << "lir-opt is not built (LIR_BUILD_TOOLS=OFF)";
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           absl::StrCat("lir_annotate_cli_test_", info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "plan.txt", std::ios::binary) << kPlan;
  }

  /// Runs `lir-opt <args...>` with `stdin_text` on standard input.
  RunResult Run(const std::vector<std::string>& args,
                const std::string& stdin_text = "") {
    std::ofstream(dir_ / "stdin", std::ios::binary) << stdin_text;
    std::string command = absl::StrCat("cd ", ShellQuote(dir_.string()),
                                       " && ", ShellQuote(LIR_OPT_PATH));
    for (const std::string& arg : args) absl::StrAppend(&command, " ", ShellQuote(arg));
    absl::StrAppend(&command, " <stdin >stdout 2>stderr");
    const int status = std::system(command.c_str());
    RunResult result;
    if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    result.out = ReadFile(dir_ / "stdout");
    result.err = ReadFile(dir_ / "stderr");
    return result;
  }

  fs::path dir_;
};

TEST_F(AnnotateCliTest, AppendsTheAskedFieldsInTheirFixedOrder) {
  RunResult r = Run({"explain", "--annotate=arrangements,monotonic,node_id,arity",
                     "--monotonic_ids=materialize.public.m", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "    ArrangeBy // { node_id: LirId(2), arity: 2, monotonic: true, "
      "arrangements: \"raw, [#0]\" }\n"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "      Get::Collection materialize.public.m // { node_id: LirId(1), "
      "arity: ?, monotonic: true, arrangements: \"raw\" }\n"))
      << r.out;

  // Only what is asked for: no node_id. Nothing in the plan reveals m's
  // arity (the ArrangeBy's layout is its own); the caller can give it.
  r = Run({"explain", "--annotate=arity",
           "--arity=materialize.public.x=5,materialize.public.m=2", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "    ArrangeBy // { arity: 2 }\n")) << r.out;
  EXPECT_TRUE(absl::StrContains(
      r.out, "      Get::Collection materialize.public.m // { arity: 2 }\n"))
      << r.out;

  // Without --monotonic_ids the source is not monotonic.
  r = Run({"explain", "--annotate=monotonic", "plan.txt"});
  EXPECT_TRUE(absl::StrContains(
      r.out, "      Get::Collection materialize.public.m // { monotonic: false }\n"))
      << r.out;
}

TEST_F(AnnotateCliTest, AnnotatedTextParsesBackWithoutTheComputedFields) {
  RunResult annotated = Run({"explain", "--annotate=node_id,arity,monotonic,arrangements",
                             "plan.txt"});
  ASSERT_EQ(annotated.exit_code, 0) << annotated.err;
  RunResult reread = Run({"explain", "-"}, annotated.out);
  ASSERT_EQ(reread.exit_code, 0) << reread.err;
  RunResult ids = Run({"explain", "--node_identifiers", "plan.txt"});
  EXPECT_EQ(reread.out, ids.out);
}

TEST_F(AnnotateCliTest, JsonCarriesTheSameFields) {
  RunResult r = Run({"explain", "--format=json",
                     "--annotate=node_id,arity,monotonic,arrangements",
                     "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out,
                                "\"annotations\": {\n"
                                "            \"arity\": 2,\n"
                                "            \"arrangements\": \"raw, [#0]\",\n"
                                "            \"monotonic\": false\n"
                                "          }"))
      << r.out;
  // The reader ignores the annotations.
  RunResult back = Run({"explain", "-"}, r.out);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, kPlan);
  // Asking only for node_id adds nothing to JSON (ids are always there).
  RunResult plain = Run({"explain", "--format=json", "plan.txt"});
  RunResult ids = Run({"explain", "--format=json", "--annotate=node_id", "plan.txt"});
  EXPECT_EQ(ids.out, plain.out);
}

TEST_F(AnnotateCliTest, SingleTimeRelaxation) {
  RunResult r = Run({"explain", "--single_time", "--enable_relax_must_consolidate",
                     "--monotonic_ids=materialize.public.m", "--explain_declines",
                     "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "  TopK::MonotonicTop1 group_by=[#0] order_by=[#1 desc nulls_first]\n"))
      << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "relax_must_consolidate LirId(3): fired"))
      << r.out;

  r = Run({"explain", "--enable_relax_must_consolidate",
           "--monotonic_ids=materialize.public.m", "--explain_declines", "plan.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(absl::StartsWith(r.out, kPlan)) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "declined not_single_time")) << r.out;
}

TEST_F(AnnotateCliTest, BadValuesAreUsageErrors) {
  RunResult r = Run({"explain", "--annotate=arity,colour", "plan.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(absl::StrContains(r.err, "unknown field 'colour'")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "node_id|arity|monotonic|arrangements"))
      << r.err;
  r = Run({"explain", "--arity=materialize.public.t", "plan.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(absl::StrContains(
      r.err, "--arity: expected name=ARITY, got 'materialize.public.t'"))
      << r.err;
}

TEST_F(AnnotateCliTest, HelpDescribesTheFlags) {
  RunResult r = Run({"--help"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* needle :
       {"--annotate=node_id|arity|monotonic|arrangements,...", "--[no]single_time",
        "--monotonic_ids=VALUE", "--arity=VALUE",
        "--[no]enable_relax_must_consolidate"}) {
    EXPECT_TRUE(absl::StrContains(r.out, needle)) << needle << "\n" << r.out;
  }
}

}  // namespace
