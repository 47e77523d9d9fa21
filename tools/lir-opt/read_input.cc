#include "tools/lir-opt/read_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/status_macros.h"

namespace lir::cli {
namespace {

// The error for an input larger than `max_bytes`; `size` is unknown (0)
// for a stream.
absl::Status TooLarge(absl::string_view name, uint64_t size,
                      uint64_t max_bytes) {
  return absl::InvalidArgumentError(absl::StrCat(
      name, ": the input is ", size == 0 ? "" : absl::StrCat(size, " bytes, "),
      "more than the limit of ", max_bytes,
      " bytes (raise it with --max_input_bytes=N)"));
}

// Appends everything `file` holds to `out`, stopping with an error once it
// passes `max_bytes` (standard input and pipes have no size to check first).
absl::Status ReadAll(FILE* file, absl::string_view name, uint64_t max_bytes,
                     std::string& out) {
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
    if (n > max_bytes - std::min<uint64_t>(out.size(), max_bytes)) {
      return TooLarge(name, 0, max_bytes);
    }
    out.append(buffer, n);
  }
  if (std::ferror(file)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": cannot read: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<InputText> ReadInput(absl::string_view path,
                                    uint64_t max_bytes) {
  InputText input;
  if (path == "-") {
    input.name = "<stdin>";
    LIR_RETURN_IF_ERROR(ReadAll(stdin, input.name, max_bytes, input.text));
    return input;
  }
  input.name = std::string(path);
  std::error_code ec;
  if (std::filesystem::is_directory(input.name, ec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(input.name, ": cannot read: is a directory"));
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(
      std::fopen(input.name.c_str(), "rb"), &std::fclose);
  if (file == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(input.name, ": cannot read: ", std::strerror(errno)));
  }
  if (std::filesystem::is_regular_file(input.name, ec)) {
    const uintmax_t size = std::filesystem::file_size(input.name, ec);
    if (!ec && size > max_bytes) {
      return TooLarge(input.name, size, max_bytes);
    }
  }
  LIR_RETURN_IF_ERROR(ReadAll(file.get(), input.name, max_bytes, input.text));
  return input;
}

}  // namespace lir::cli
