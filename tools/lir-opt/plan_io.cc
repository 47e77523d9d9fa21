#include "tools/lir-opt/plan_io.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/status_macros.h"
#include "lir/validate.h"
#include "src/explain/utf8.h"

namespace lir::cli {
namespace {

// Makes sure a message names the input it is about; parser messages already
// start with `name:`, validation messages do not.
absl::Status NameInput(const absl::Status& status, absl::string_view name) {
  if (status.ok() || absl::StartsWith(status.message(), name)) return status;
  return absl::Status(status.code(),
                      absl::StrCat(name, ": ", status.message()));
}

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

bool LooksLikeJson(absl::string_view text) {
  // A byte-order mark may precede the document (the JSON and text readers
  // both skip it).
  absl::ConsumePrefix(&text, absl::string_view(explain::kUtf8Bom.data(),
                                               explain::kUtf8Bom.size()));
  size_t first = text.find_first_not_of(" \t\r\n\f\v");
  return first != absl::string_view::npos && text[first] == '{';
}

absl::StatusOr<Document> LoadDocument(const InputText& input,
                                      const LoadOptions& options) {
  bool json =
      options.format == InputFormat::kJson ||
      (options.format == InputFormat::kAuto && LooksLikeJson(input.text));
  absl::StatusOr<Document> doc;
  if (json) {
    doc = explain::ReadJson(input.text, input.name);
  } else {
    explain::ParseOptions parse_options;
    parse_options.filename = input.name;
    doc = explain::ParseText(input.text, parse_options);
  }
  if (!doc.ok()) return NameInput(doc.status(), input.name);
  if (options.validate) {
    LIR_RETURN_IF_ERROR(NameInput(Validate(*doc), input.name));
  }
  return doc;
}

std::string RenderDocument(const Document& doc, const RenderOptions& options) {
  switch (options.format) {
    case OutputFormat::kJson: {
      explain::JsonWriteOptions json_options;
      json_options.annotations = options.json_annotations;
      return explain::WriteJson(doc, json_options);
    }
    case OutputFormat::kText: break;
  }
  explain::PrintOptions print_options;
  print_options.node_identifiers = options.node_identifiers;
  print_options.annotate = options.annotate;
  return explain::PrintText(doc, print_options);
}

}  // namespace lir::cli
