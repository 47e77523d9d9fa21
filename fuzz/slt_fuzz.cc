// Fuzz target: sqllogictest files for `lir-opt slt` (tools/lir-opt/
// slt_file.h, slt_check.h). Every input is read as an .slt file and every
// EXPLAIN PHYSICAL PLAN block in it is checked with the fused set-difference
// and antijoin rewrites on.
//
// Properties: nothing crashes; rendering the file with no replacement gives
// back every byte; an error or a skip carries a message; a block that would
// change is rewritten into a file that reads back with the same blocks,
// whose replaced plan is the rewritten one, printing back as it reads. An
// input without `\r` and byte-order mark is also read with a byte-order
// mark put before it and with every `\n` made a lone `\r`: both have the
// same blocks as it, and render back byte for byte.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_util.h"
#include "tools/lir-opt/slt_check.h"
#include "tools/lir-opt/slt_file.h"

namespace lir::fuzz {
namespace {

/// Everything ParseSltFile found, comparable across files.
std::string DescribeBlocks(const cli::slt::SltFile& file) {
  std::string out;
  for (const cli::slt::ExplainBlock& block : file.blocks) {
    absl::StrAppend(&out, block.query_line, " ", block.output_begin, " ",
                    block.plan_end, " ", block.output_end, " ",
                    static_cast<int>(block.syntax), " ", block.statement, "|",
                    block.error.value_or("-"), "|",
                    block.skip_reason.value_or("-"), "|",
                    cli::slt::PlanText(file, block), "\n");
  }
  return out;
}

/// `content` read in another form (a byte-order mark, other line endings)
/// has the same blocks as `file`, and renders back byte for byte.
void CheckSameBlocks(const cli::slt::SltFile& file, std::string content,
                     const char* form) {
  cli::slt::SltFile other;
  other.name = file.name;
  other.content = std::move(content);
  cli::slt::ParseSltFile(&other);
  CheckEqual(cli::slt::RenderWithReplacements(other, {}), other.content,
             absl::StrCat("an .slt file ", form,
                          " rendered with no replacement changed"));
  CheckEqual(DescribeBlocks(other), DescribeBlocks(file),
             absl::StrCat("an .slt file ", form, " has other blocks"));
}

void CheckSlt(const std::string& content) {
  namespace slt = cli::slt;
  slt::SltFile file;
  file.name = "fuzz.slt";
  file.content = content;
  slt::ParseSltFile(&file);
  CheckEqual(slt::RenderWithReplacements(file, {}), content,
             "an .slt file rendered with no replacement changed");
  if (content.find('\r') == std::string::npos &&
      !absl::StartsWith(content, "\xEF\xBB\xBF")) {
    CheckSameBlocks(file, absl::StrCat("\xEF\xBB\xBF", content),
                    "with a byte-order mark");
    std::string cr = content;
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    CheckSameBlocks(file, std::move(cr), "with lone CR line endings");
  }
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;
  features.enable_antijoin_rendering = true;
  const interp::AnalysisInputs inputs;
  for (const slt::ExplainBlock& block : file.blocks) {
    const slt::BlockResult result =
        slt::CheckBlock(file, block, features, inputs);
    if ((result.outcome == slt::Outcome::kError ||
         result.outcome == slt::Outcome::kSkipped) &&
        result.message.empty()) {
      Fail("an error or a skip without a message");
    }
    if (result.outcome != slt::Outcome::kWouldChange) continue;
    slt::SltFile rewritten;
    rewritten.name = file.name;
    rewritten.content =
        slt::RenderWithReplacements(file, {{&block, result.rewritten}});
    slt::ParseSltFile(&rewritten);
    if (rewritten.blocks.size() != file.blocks.size()) {
      Fail("the rewritten file has another number of blocks", content,
           rewritten.content);
    }
    const size_t index = static_cast<size_t>(&block - file.blocks.data());
    CheckEqual(slt::PlanText(rewritten, rewritten.blocks[index]),
               result.rewritten, "the replaced plan is not the rewritten one");
    const slt::BlockResult again = slt::CheckBlock(
        rewritten, rewritten.blocks[index], OptimizerFeatures(), inputs);
    if (again.outcome != slt::Outcome::kUnchanged) {
      Fail(absl::StrCat("the rewritten plan does not read back unchanged: ",
                        again.message),
           result.rewritten);
    }
  }
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::CheckSlt(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
