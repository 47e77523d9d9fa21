#include "tools/lir-opt/plan_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "src/explain/json.h"
#include "src/explain/text.h"
#include "src/explain/utf8.h"
#include "src/lir/status_macros.h"
#include "src/lir/validate.h"

namespace lir::cli {
namespace {

// Makes sure a message names the input it is about; parser messages already
// start with `name:`, validation messages do not.
absl::Status NameInput(const absl::Status& status, absl::string_view name) {
  if (status.ok() || absl::StartsWith(status.message(), name)) return status;
  return absl::Status(status.code(),
                      absl::StrCat(name, ": ", status.message()));
}

}  // namespace

absl::StatusOr<InputText> ReadInput(absl::string_view path) {
  InputText input;
  if (path == "-") {
    input.name = "<stdin>";
    input.text.assign(std::istreambuf_iterator<char>(std::cin),
                      std::istreambuf_iterator<char>());
    if (std::cin.bad()) {
      return absl::InvalidArgumentError("<stdin>: cannot read standard input");
    }
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
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
    input.text.append(buffer, n);
  }
  if (std::ferror(file.get())) {
    return absl::InvalidArgumentError(
        absl::StrCat(input.name, ": cannot read: ", std::strerror(errno)));
  }
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
