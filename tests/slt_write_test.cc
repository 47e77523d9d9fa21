// WriteFileAtomically (slt_file.h), what `lir-opt slt --rewrite` writes
// with: it replaces a regular, writable file with one name and the same
// mode, and refuses, leaving the path as it was, what a rename would damage:
// a FIFO (which would become a plain file), a read-only file (silently
// overwritten, even by root) and a file with hard links (whose other names
// would keep the old plan).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tools/lir-opt/slt_file.h"

namespace lir::cli::slt {
namespace {

namespace fs = std::filesystem;

class SltWriteTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("lir_slt_write_" + std::to_string(::getpid()) + "_" +
            testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& content) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << content;
    return path;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(SltWriteTest, ARegularFileIsReplacedKeepingItsMode) {
  const std::string path = Write("a.slt", "old\n");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(WriteFileAtomically(path, "new\n").ok());
  EXPECT_EQ(Read(path), "new\n");
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST_F(SltWriteTest, AFifoIsRefusedAndStaysAFifo) {
  const std::string path = (dir_ / "pipe.slt").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  const absl::Status status = WriteFileAtomically(path, "new\n");
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "not a regular file"))
      << status;
  EXPECT_TRUE(fs::is_fifo(path));
}

TEST_F(SltWriteTest, AReadOnlyFileIsRefusedEvenForRoot) {
  const std::string path = Write("ro.slt", "old\n");
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  const absl::Status status = WriteFileAtomically(path, "new\n");
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "read-only")) << status;
  EXPECT_EQ(Read(path), "old\n");
}

TEST_F(SltWriteTest, AFileWithHardLinksIsRefused) {
  const std::string path = Write("a.slt", "old\n");
  fs::create_hard_link(path, dir_ / "b.slt");
  const absl::Status status = WriteFileAtomically(path, "new\n");
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(absl::StrContains(status.message(), "2 hard links")) << status;
  EXPECT_EQ(Read(path), "old\n");
  EXPECT_EQ(Read((dir_ / "b.slt").string()), "old\n");
}

TEST_F(SltWriteTest, NoTemporaryFileIsLeftAfterARefusal) {
  const std::string path = Write("ro.slt", "old\n");
  ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  EXPECT_FALSE(WriteFileAtomically(path, "new\n").ok());
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_FALSE(
        absl::StrContains(entry.path().filename().string(), ".lir-opt-"))
        << entry.path();
  }
}

}  // namespace
}  // namespace lir::cli::slt
