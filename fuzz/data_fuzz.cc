// Fuzz target (h): data files (`lir-opt run --data`), read as they are
// parsed (src/eval/data_read.cc follows the file's outline event by event).
//
// Properties: no input crashes or takes memory out of proportion (the
// reader builds a tree for one update at a time); an input that is not
// JSON is never accepted; every refusal is InvalidArgument located
// `fuzz.json:LINE:COLUMN: ...` at a line and column inside the text; what
// is accepted writes back (InputDataToJson) as a file that reads back to
// the same data.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "lir/eval/data.h"
#include "nlohmann/json.hpp"
#include "src/lir/string_view_compat.h"

namespace lir::fuzz {
namespace {

constexpr std::string_view kName = "fuzz.json";

// The error must name a line and column of `text` (a column may be one
// past a line's last byte: where a missing token was expected).
void CheckLocated(std::string_view text, absl::string_view message) {
  const std::string prefix = absl::StrCat(ToAbsl(kName), ":");
  if (!absl::StartsWith(message, prefix)) {
    Fail("a data file error does not start with the file's name", message);
  }
  std::vector<absl::string_view> parts =
      absl::StrSplit(message.substr(prefix.size()), absl::MaxSplits(':', 2));
  size_t line = 0;
  size_t column = 0;
  if (parts.size() < 3 || !absl::SimpleAtoi(parts[0], &line) ||
      !absl::SimpleAtoi(parts[1], &column) || line == 0 || column == 0) {
    Fail("a data file error is not located (file:line:column: ...)", message);
  }
  size_t start = 0;
  for (size_t l = 1; l < line; ++l) {
    const size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) {
      Fail("a data file error names a line past the end", message);
    }
    start = newline + 1;
  }
  const size_t end = std::min(text.find('\n', start), text.size());
  if (column > end - start + 1) {
    Fail("a data file error names a column past its line's end", message);
  }
}

void FuzzOne(std::string_view text) {
  absl::StatusOr<eval::InputData> data =
      eval::ParseInputData(text, std::string(kName));
  CheckInputError(data.status(), "ParseInputData");
  if (!data.ok()) {
    CheckLocated(text, data.status().message());
    return;
  }
  if (!nlohmann::json::accept(text)) {
    Fail("a data file that is not JSON was read", ToAbsl(text));
  }
  const std::string written = eval::InputDataToJson(*data);
  absl::StatusOr<eval::InputData> again =
      eval::ParseInputData(written, "again");
  if (!again.ok()) {
    Fail("the data written back does not read back", written,
         again.status().ToString());
  }
  CheckEqual(written, eval::InputDataToJson(*again),
             "the data written back reads back differently");
  for (const auto& [name, collection] : data->collections) {
    if (collection.line == 0 || data->LocationOf(name).empty()) {
      Fail("a collection read from a file has no location", name);
    }
  }
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
