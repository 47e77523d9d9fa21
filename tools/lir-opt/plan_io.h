// Reading plan documents from files or stdin and writing them, for lir-opt's
// subcommands.
#ifndef LIR_TOOLS_LIR_OPT_PLAN_IO_H_
#define LIR_TOOLS_LIR_OPT_PLAN_IO_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "lir/document.h"
#include "nlohmann/json.hpp"
#include "tools/lir-opt/flags.h"

namespace lir::cli {

/// The whole content of one input, and the name its messages use.
struct InputText {
  std::string name;  ///< the path, or `<stdin>`
  std::string text;
};

/// Reads the file at `path` completely; `-` reads standard input. Errors
/// (missing, unreadable, a directory, more than `max_bytes`) name the file;
/// a regular file's size is checked before anything is read.
absl::StatusOr<InputText> ReadInput(absl::string_view path, uint64_t max_bytes);

/// True when the first non-whitespace byte of `text` is `{`.
bool LooksLikeJson(absl::string_view text);

/// How LoadDocument treats its input.
struct LoadOptions {
  InputFormat format = InputFormat::kAuto;
  bool validate = true;
};

/// Parses `input` as text or JSON and, if asked, validates it. Every error
/// message starts with the input's name (`plan.txt:12:7: expected ...`).
absl::StatusOr<Document> LoadDocument(const InputText& input,
                                      const LoadOptions& options);

/// How RenderDocument prints.
struct RenderOptions {
  OutputFormat format = OutputFormat::kText;
  bool node_identifiers = false;  ///< text only
  /// Extra fields of each node's text comment (see explain::PrintOptions).
  std::function<std::string(const Node&)> annotate;
  /// Each node's JSON "annotations" object (see explain::JsonWriteOptions).
  std::function<nlohmann::json(const Node&)> json_annotations;
};

/// The document as text or JSON, ending in a newline.
std::string RenderDocument(const Document& doc, const RenderOptions& options);

}  // namespace lir::cli

#endif  // LIR_TOOLS_LIR_OPT_PLAN_IO_H_
