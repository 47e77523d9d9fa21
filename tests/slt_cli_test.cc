// Why C++ and not exec goldens (testdata/cli/): each case chains three runs
// (check, rewrite, check again) and asserts relations between them (the
// rewrite changes exactly what the check said would change; the second
// check finds nothing) and byte-level properties of the rewritten file. Its
// expected outputs are data all the same: testdata/slt/*.out, *.rewritten.
//
// `lir-opt slt` end to end, on lir's own small .slt files (testdata/slt/)
// and on Materialize's (../shared/corpus/materialize-slt/, skipped visibly
// when absent): check output against goldens, rewrite output against
// goldens byte for byte (CRLF, lone CRs, a byte-order mark and a missing
// final newline kept), rewriting with every feature off is the identity,
// and check-rewrite-check leaves nothing to change.
//
// Goldens: testdata/slt/<file>.<config>.out (stdout and the exit status)
// and <file>.<config>.rewritten (the file after --rewrite, when it
// changes); REWRITE=1 regenerates them.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "lir/explain/line_diff.h"
#include "nlohmann/json.hpp"
#include "tests/support/cli_test_util.h"

namespace lir {
namespace {

namespace fs = std::filesystem;
using test::LirOptTest;
using test::ReadFile;
using test::RunResult;
using test::WriteFile;

fs::path SltDir() { return fs::path(LIR_SOURCE_DIR) / "testdata" / "slt"; }

bool RewriteGoldens() {
  const char* rewrite = std::getenv("REWRITE");
  return rewrite != nullptr && *rewrite != '\0' && std::string(rewrite) != "0";
}

/// Compares `actual` with the golden file `name` in testdata/slt/ (or
/// writes it with REWRITE=1).
void ExpectGolden(const std::string& name, const std::string& actual) {
  const fs::path path = SltDir() / name;
  if (RewriteGoldens()) {
    WriteFile(path, actual);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing (run with REWRITE=1)";
  const std::string expected = ReadFile(path);
  EXPECT_EQ(expected, actual) << name << " differs:\n"
                              << explain::UnifiedDiff(expected, actual);
}

/// One configuration of the goldens: its name and flags.
struct Config {
  std::string name;
  std::vector<std::string> flags;
};

const Config kOff{"off", {}};
Config On() {
  return {"on",
          {"--enable_fused_set_difference", "--enable_antijoin_rendering",
           absl::StrCat("--catalog=",
                        (SltDir() / "left_join.catalog.json").string())}};
}

class SltCliTest : public LirOptTest {
 protected:
  /// Copies testdata/slt/<file> into the test's directory.
  void Copy(const std::string& file) {
    fs::copy_file(SltDir() / file, dir_ / file,
                  fs::copy_options::overwrite_existing);
  }
  RunResult Slt(const Config& config, std::vector<std::string> extra) {
    std::vector<std::string> args = {"slt"};
    args.insert(args.end(), config.flags.begin(), config.flags.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return Run(args);
  }
  /// Check, rewrite, check again: the goldens of the first two, and that
  /// the second check finds nothing left to change.
  void CheckRewriteCheck(const std::string& file, const Config& config) {
    SCOPED_TRACE(file + " " + config.name);
    Copy(file);
    const std::string original = ReadFile(dir_ / file);
    RunResult check = Slt(config, {file});
    ExpectGolden(
        absl::StrCat(file, ".", config.name, ".out"),
        absl::StrCat(check.out, "# exit status: ", check.exit_code, "\n"));
    EXPECT_TRUE(check.err.empty()) << check.err;
    RunResult rewrite = Slt(config, {"--rewrite", file});
    EXPECT_EQ(rewrite.exit_code, check.exit_code) << rewrite.err;
    const std::string after = ReadFile(dir_ / file);
    const bool changed = absl::StrContains(check.out, ": would change\n");
    EXPECT_EQ(after != original, changed);
    EXPECT_EQ(absl::StrContains(rewrite.out, ": rewrote "), changed);
    if (changed) {
      ExpectGolden(absl::StrCat(file, ".", config.name, ".rewritten"), after);
    }
    RunResult again = Slt(config, {file});
    EXPECT_FALSE(absl::StrContains(again.out, ": would change\n")) << again.out;
    EXPECT_TRUE(absl::StrContains(again.out, " 0 would change,")) << again.out;
  }
};

TEST_F(SltCliTest, ExceptFiresAndRewrites) {
  CheckRewriteCheck("except.slt", On());
}

TEST_F(SltCliTest, FeaturesOffLeaveEveryBlockUnchanged) {
  for (const char* file :
       {"except.slt", "crlf.slt", "cr.slt", "bom.slt", "no_newline.slt",
        "left_join.slt", "declining.slt", "unterminated.slt"}) {
    CheckRewriteCheck(file, kOff);
  }
}

TEST_F(SltCliTest, CrlfLineEndingsAreKept) {
  CheckRewriteCheck("crlf.slt", On());
  const std::string after = ReadFile(dir_ / "crlf.slt");
  size_t lf = 0;
  size_t crlf = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i] != '\n') continue;
    ++lf;
    if (i > 0 && after[i - 1] == '\r') ++crlf;
  }
  EXPECT_GT(lf, 20u);
  EXPECT_EQ(crlf, lf) << "every line still ends in CRLF";
}

TEST_F(SltCliTest, LoneCrLineEndingsAreKept) {
  CheckRewriteCheck("cr.slt", On());
  const std::string after = ReadFile(dir_ / "cr.slt");
  EXPECT_EQ(after.find('\n'), std::string::npos) << "no LF was added";
  EXPECT_GT(std::count(after.begin(), after.end(), '\r'), 20);
}

TEST_F(SltCliTest, AByteOrderMarkIsSkippedAndKept) {
  CheckRewriteCheck("bom.slt", On());
  const std::string after = ReadFile(dir_ / "bom.slt");
  EXPECT_TRUE(absl::StartsWith(after, "\xEF\xBB\xBFquery T multiline\n"))
      << after.substr(0, 20);
}

// Materialize's runner reads a multiline output up to `EOF` and every other
// record up to a blank line; an output without its `EOF` ends at a blank
// line before a new record, so the blocks after it are still checked.
TEST_F(SltCliTest, ARecordWithoutEofHidesNoBlockAfterIt) {
  CheckRewriteCheck("unterminated.slt", On());
}

TEST_F(SltCliTest, AFileEndingWithoutANewlineKeepsIt) {
  CheckRewriteCheck("no_newline.slt", On());
  const std::string after = ReadFile(dir_ / "no_newline.slt");
  EXPECT_TRUE(absl::EndsWith(after, "\nEOF"))
      << after.substr(after.size() - 20);
}

TEST_F(SltCliTest, LeftJoinShapesBecomeAntiJoins) {
  CheckRewriteCheck("left_join.slt", On());
  EXPECT_TRUE(absl::StrContains(ReadFile(dir_ / "left_join.slt"), "AntiJoin"));
}

TEST_F(SltCliTest, DeclinesAreUnchangedAndBrokenPlansAreLocatedErrors) {
  CheckRewriteCheck("declining.slt", On());
}

// An invalid node is reported at its own line of the .slt file, not at the
// plan's first line.
TEST_F(SltCliTest, ValidationErrorsNameTheFailingNodesLine) {
  CheckRewriteCheck("invalid.slt", kOff);
  RunResult r = Slt(kOff, {"invalid.slt"});
  // The Mfp is the plan's 5th line: line 14 of the file (the plan starts at
  // line 10).
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "invalid.slt:6: error: invalid.slt:14:5: Explained Query: LirId(3) "
      "Mfp: projection column #3 out of range for input arity 2\n"))
      << r.out;
}

TEST_F(SltCliTest, FailOnChangeMakesAChangeAnError) {
  Copy("except.slt");
  Config config = On();
  EXPECT_EQ(Slt(config, {"except.slt"}).exit_code, 0);
  EXPECT_EQ(Slt(config, {"--fail_on_change", "except.slt"}).exit_code, 1);
  EXPECT_EQ(Slt(kOff, {"--fail_on_change", "except.slt"}).exit_code, 0);
}

TEST_F(SltCliTest, JsonHasOneRecordPerBlock) {
  Copy("except.slt");
  Copy("declining.slt");
  RunResult r = Slt(On(), {"--format=json", "except.slt", "declining.slt"});
  EXPECT_EQ(r.exit_code, 1) << "declining.slt has errors";
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["blocks"].size(), 9u);
  for (const nlohmann::json& block : j["blocks"]) {
    for (const char* key : {"file", "line", "outcome", "diff", "report"}) {
      EXPECT_TRUE(block.contains(key)) << key << " in " << block.dump();
    }
  }
  const nlohmann::json& first = j["blocks"][0];
  EXPECT_EQ(first["file"], "except.slt");
  EXPECT_EQ(first["line"], 13);
  EXPECT_EQ(first["outcome"], "would change");
  EXPECT_TRUE(absl::StartsWith(first["diff"].get<std::string>(), "@@ "));
  int fired = 0;
  for (const nlohmann::json& c : first["report"]["candidates"]) {
    fired += c["outcome"] == "fired" ? 1 : 0;
  }
  EXPECT_EQ(fired, 1) << first["report"].dump(2);
  EXPECT_EQ(j["summary"]["would_change"], 3);
  EXPECT_EQ(j["summary"]["errors"], 3);
  EXPECT_EQ(j["summary"]["skipped"], 1);
  EXPECT_EQ(j["summary"]["blocks"], 9);
  EXPECT_TRUE(j["rewritten"].empty());
}

TEST_F(SltCliTest, RewriteKeepsTheModeAndFollowsSymlinks) {
  Copy("except.slt");
  fs::create_directory(dir_ / "links");
  fs::create_symlink(dir_ / "except.slt", dir_ / "links" / "via_link.slt");
  ASSERT_EQ(::chmod((dir_ / "except.slt").c_str(), 0640), 0);
  RunResult r = Slt(On(), {"--rewrite", "links/via_link.slt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "links" / "via_link.slt"));
  EXPECT_TRUE(
      absl::StrContains(ReadFile(dir_ / "except.slt"), "SetDifference"));
  struct stat st;
  ASSERT_EQ(::stat((dir_ / "except.slt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  // No temporary file is left behind.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(
        absl::StrContains(entry.path().filename().string(), ".lir-opt-"))
        << entry.path();
  }
}

// An interrupted rewrite leaves the old file: with a file-size limit of one
// 512-byte block, writing the new content is cut short (SIGXFSZ ends the
// process mid-write), and the file it was replacing is intact. Standard
// output goes to /dev/null, which the limit does not cut, so that the
// signal comes from the rewrite.
TEST_F(SltCliTest, AnInterruptedRewriteLeavesTheOldFile) {
  Copy("except.slt");
  const std::string original = ReadFile(dir_ / "except.slt");
  ASSERT_GT(original.size(), 1024u);
  const std::string command = absl::StrCat(
      "cd ", test::ShellQuote(dir_.string()), " && ulimit -f 1 && ",
      test::ShellQuote(LIR_OPT_PATH),
      " slt --rewrite --enable_fused_set_difference except.slt >/dev/null "
      "2>err");
  const int status = std::system(command.c_str());
  EXPECT_NE(status, 0) << "the write should have been cut short";
  EXPECT_EQ(ReadFile(dir_ / "except.slt"), original);
  // The signal that ended the write removed the hidden temporary file.
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(
        absl::StrContains(entry.path().filename().string(), ".lir-opt-"))
        << entry.path();
  }
}

TEST_F(SltCliTest, UsageAndUnreadableFiles) {
  EXPECT_EQ(Run({"slt"}).exit_code, 2);
  // Rewriting standard input once wrote a file named `-` in the current
  // directory; it is a usage error now, found before anything is read.
  // (With a block that would change, which is when a file gets written.)
  RunResult stdin_rewrite =
      Run({"slt", "--enable_fused_set_difference", "--rewrite", "-"},
          ReadFile(SltDir() / "except.slt"));
  EXPECT_EQ(stdin_rewrite.exit_code, 2) << stdin_rewrite.err;
  EXPECT_TRUE(absl::StrContains(stdin_rewrite.err, "standard input"))
      << stdin_rewrite.err;
  EXPECT_TRUE(stdin_rewrite.out.empty()) << stdin_rewrite.out;
  EXPECT_FALSE(fs::exists(dir_ / "-"));
  RunResult missing = Run({"slt", "no_such.slt"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(absl::StrContains(missing.err, "no_such.slt")) << missing.err;
}

// ---- Materialize's own files ----------------------------------------------

class SltCorpusTest : public SltCliTest {
 protected:
  void SetUp() override {
    SltCliTest::SetUp();
    if (IsSkipped()) return;
    const fs::path corpus =
        fs::path(LIR_SHARED_DIR) / "corpus" / "materialize-slt";
    if (!fs::is_directory(corpus)) {
      GTEST_SKIP() << corpus << " is absent: Materialize's .slt files are "
                   << "not checked";
    }
    for (const auto& entry : fs::directory_iterator(corpus)) {
      if (entry.path().extension() != ".slt") continue;
      fs::copy_file(entry.path(), dir_ / entry.path().filename());
      // The shared corpus is read-only, and so are copies of it; --rewrite
      // refuses read-only files.
      fs::permissions(dir_ / entry.path().filename(), fs::perms::owner_write,
                      fs::perm_options::add);
      files_.push_back(entry.path().filename().string());
    }
    std::sort(files_.begin(), files_.end());
  }
  nlohmann::json CheckAll(const Config& config) {
    std::vector<std::string> extra = {"--format=json"};
    extra.insert(extra.end(), files_.begin(), files_.end());
    RunResult r = Slt(config, extra);
    EXPECT_TRUE(r.err.empty()) << r.err;
    return nlohmann::json::parse(r.out);
  }
  std::vector<std::string> files_;
};

TEST_F(SltCorpusTest, EveryVerbosePlanIsUnchangedWithFeaturesOff) {
  ASSERT_EQ(files_.size(), 18u);
  nlohmann::json j = CheckAll(kOff);
  for (const nlohmann::json& block : j["blocks"]) {
    EXPECT_TRUE(block["outcome"] == "unchanged" ||
                block["outcome"] == "skipped")
        << block.dump(2);
    if (block["outcome"] == "skipped") {
      EXPECT_TRUE(absl::StartsWith(block["message"].get<std::string>(), "AS "))
          << "only other formats are skipped: " << block.dump();
    }
  }
  const nlohmann::json& s = j["summary"];
  std::cout << "[ INFO     ] Materialize's .slt files, features off: "
            << s.dump() << "\n";
  // 121 verbose and 72 concise plans (CONCISE-FORMAT section 1 selects
  // them by statement), and the 27 AS JSON blocks.
  EXPECT_EQ(s["blocks"], 220);
  EXPECT_EQ(s["unchanged"], 193);
  EXPECT_EQ(s["skipped"], 27);
  EXPECT_EQ(s["errors"], 0);
  EXPECT_EQ(s["would_change"], 0);
  int default_blocks = 0;
  for (const nlohmann::json& block : j["blocks"]) {
    default_blocks += block["file"] == "explain__default.slt" ? 1 : 0;
  }
  EXPECT_EQ(default_blocks, 73) << "72 concise blocks and one verbose";
}

// The default EXPLAIN's EXCEPT (concise) fuses like its verbose twin, and
// the EXCEPT ALL declines with the verbose twin's code
// (explain__physical_plan_as_text.slt:268).
TEST_F(SltCorpusTest, ConcisePlansFuseAndDeclineAsTheirVerboseTwins) {
  nlohmann::json j = CheckAll({"fused", {"--enable_fused_set_difference"}});
  std::map<std::pair<std::string, int>, const nlohmann::json*> by_line;
  for (const nlohmann::json& block : j["blocks"]) {
    by_line[{block["file"].get<std::string>(), block["line"].get<int>()}] =
        &block;
  }
  auto outcome = [&](const std::string& file, int line, std::string* code) {
    const nlohmann::json* block = by_line[{file, line}];
    if (block == nullptr) return std::string("missing");
    for (const nlohmann::json& c : (*block)["report"]["candidates"]) {
      if (c["pass"] == "fused_set_difference") {
        *code = c.value("reason", "");
        return c["outcome"].get<std::string>();
      }
    }
    return std::string("no candidate");
  };
  std::string code;
  EXPECT_EQ(outcome("explain__default.slt", 244, &code), "fired");
  const nlohmann::json* except = by_line[{"explain__default.slt", 244}];
  ASSERT_NE(except, nullptr);
  EXPECT_EQ((*except)["outcome"], "would change");
  EXPECT_TRUE(absl::StrContains((*except)["diff"].get<std::string>(),
                                "\n+  \xE2\x86\x92Set Difference #0\n"))
      << (*except)["diff"];
  std::string twin_code;
  EXPECT_EQ(outcome("explain__default.slt", 274, &code), "declined");
  EXPECT_EQ(outcome("explain__physical_plan_as_text.slt", 268, &twin_code),
            "declined");
  EXPECT_EQ(code, "not_co_arranged");
  EXPECT_EQ(twin_code, code);
  EXPECT_EQ(j["summary"]["would_change"], 1) << j["summary"].dump();
  EXPECT_EQ(j["summary"]["errors"], 0);
}

TEST_F(SltCorpusTest, RewriteWithFeaturesOffIsTheIdentity) {
  std::vector<std::string> before;
  std::vector<ino_t> inodes;
  for (const std::string& f : files_) {
    before.push_back(ReadFile(dir_ / f));
    struct stat st;
    ASSERT_EQ(::stat((dir_ / f).c_str(), &st), 0);
    inodes.push_back(st.st_ino);
  }
  std::vector<std::string> args = {"--rewrite"};
  args.insert(args.end(), files_.begin(), files_.end());
  RunResult r = Slt(kOff, args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(absl::StrContains(r.out, ": rewrote ")) << r.out;
  for (size_t i = 0; i < files_.size(); ++i) {
    EXPECT_EQ(ReadFile(dir_ / files_[i]), before[i]) << files_[i];
    struct stat st;
    ASSERT_EQ(::stat((dir_ / files_[i]).c_str(), &st), 0);
    EXPECT_EQ(st.st_ino, inodes[i]) << files_[i] << " was written";
  }
}

TEST_F(SltCorpusTest, CheckRewriteCheckWithFeaturesOnLeavesNoChange) {
  const Config on{
      "on",
      {"--enable_fused_set_difference", "--enable_antijoin_rendering",
       "--enable_relax_must_consolidate", "--single_time"}};
  nlohmann::json first = CheckAll(on);
  std::cout << "[ INFO     ] Materialize's .slt files, features on: "
            << first["summary"].dump() << "\n";
  EXPECT_EQ(first["summary"]["errors"], 0);
  std::vector<std::string> args = {"--rewrite"};
  args.insert(args.end(), files_.begin(), files_.end());
  EXPECT_EQ(Slt(on, args).exit_code, 0);
  nlohmann::json second = CheckAll(on);
  EXPECT_EQ(second["summary"]["would_change"], 0) << second["summary"].dump();
  EXPECT_EQ(second["summary"]["errors"], 0);
  EXPECT_EQ(second["summary"]["blocks"], first["summary"]["blocks"]);
}

}  // namespace
}  // namespace lir
