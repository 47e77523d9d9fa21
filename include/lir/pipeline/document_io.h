// Reading a plan document from text or JSON, and writing it back: the one
// entry point for every consumer (lir-opt's subcommands among them), so that
// format detection, error locations and validation are the same everywhere.
#ifndef LIR_PIPELINE_DOCUMENT_IO_H_
#define LIR_PIPELINE_DOCUMENT_IO_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/explain/dot.h"
#include "lir/interp/inputs.h"
#include "nlohmann/json.hpp"

namespace lir {

/// The form of a document's input.
enum class DocumentFormat {
  kAuto,  ///< JSON when the first non-whitespace byte is `{`, else text
  kText,  ///< Materialize's EXPLAIN text, verbose or concise (detected)
  kJson,  ///< the versioned JSON form (`lir-plan/2`, `lir-plan/1`)
};

/// How ReadDocument reads.
struct ReadOptions {
  /// kAuto decides by DetectDocumentFormat; kText and kJson force a reader
  /// (a mismatch is that reader's located error).
  DocumentFormat format = DocumentFormat::kAuto;
  /// The file part of every error message (`plan.txt:12:7: expected ...`).
  std::string file_name = "<input>";
  /// Also Validate the document; its errors are `file_name: <message>`.
  bool validate = true;
  /// For a partial plan (concise text): fill in what its shown facts imply
  /// (interp::InferPartialFacts), after validation. Arities of global
  /// collections (a catalog's: the collections' own rows, read through
  /// their Source blocks), when known, help.
  bool infer_partial_facts = true;
  std::map<std::string, int> global_arity;
  /// Facts given beside the plan (a catalog, --arity), checked against what
  /// the plan shows (interp::CheckGlobalFacts) once it is valid and before
  /// the inference uses any: a contradiction is the error. Set it to the
  /// inputs whose arities global_arity holds.
  std::optional<interp::AnalysisInputs> given_facts;
};

/// kJson when the first byte of `text` that is not whitespace (after an
/// optional UTF-8 byte-order mark, which both readers skip) is `{`, else
/// kText: a plan text never starts with `{`.
DocumentFormat DetectDocumentFormat(std::string_view text);

/// Parses `text` as text (either syntax) or JSON and, with
/// options.validate, validates it. A concise text gives a partial plan
/// (lir/partial.h). Every error is InvalidArgument and its message starts
/// with options.file_name: a parser's `file:line:column: ...`; for an error
/// naming a node found after reading (validation, inference) `file:line:
/// column: ` of that node's header line (text) or of its entry in the plan
/// array followed by its pointer (JSON: `file:3:5: /objects/0/plan/1: `),
/// or `file: ...` when the error names no node.
absl::StatusOr<Document> ReadDocument(std::string_view text,
                                      const ReadOptions& options = {});

/// The form WriteDocument writes.
enum class WriteFormat {
  kText,     ///< EXPLAIN text in the syntax the document was read in
  kVerbose,  ///< verbose EXPLAIN text, byte for byte as Materialize prints it
  kConcise,  ///< concise EXPLAIN text (Materialize's default EXPLAIN)
  kJson,     ///< `lir-plan/2`, two-space indented
  kDot,      ///< a Graphviz graph of the plan (lir/explain/dot.h)
};

/// Default of WriteOptions::max_text_bytes: 1 GiB of EXPLAIN text.
inline constexpr uint64_t kDefaultMaxTextBytes = uint64_t{1} << 30;

/// How WriteDocument writes.
struct WriteOptions {
  WriteFormat format = WriteFormat::kText;
  /// Print `// { node_id: LirId(n) }` on every node header (text only: the
  /// JSON form always carries the ids).
  bool node_identifiers = false;
  /// Extra fields of each node's text comment, after the node_id (see
  /// explain::PrintOptions::annotate); unset or empty adds nothing.
  std::function<std::string(const Node&)> annotate;
  /// Each node's JSON "annotations" object (see
  /// explain::JsonWriteOptions::annotations); unset or empty adds nothing.
  std::function<nlohmann::json(const Node&)> json_annotations;
  /// The most bytes of EXPLAIN text (verbose or concise) to print. Text
  /// indents two spaces per level, so a plan D levels deep prints about D^2
  /// bytes of indentation: a JSON plan of 10^5 nested nodes (a few MB) would
  /// be 10 GB of text. Checked before printing, against the indentation the
  /// text must hold; the JSON form is linear and not limited.
  uint64_t max_text_bytes = kDefaultMaxTextBytes;
  /// What a kDot graph shows besides the plan (its annotate callback is
  /// the DOT writer's own; `annotate` above is not consulted).
  explain::DotOptions dot;
};

/// The document as text or JSON, ending in a newline. Text that would pass
/// options.max_text_bytes is ResourceExhausted before anything is printed,
/// naming the limit and the plan's depth. The verbose syntax
/// and the JSON form need every fact: for a partial plan they fail with
/// FailedPrecondition naming the node and the missing fact
/// (RequireKnownFacts). The concise printer fails only where a fact it
/// prints is unknown (explain::PrintConciseText).
absl::StatusOr<std::string> WriteDocument(const Document& doc,
                                          const WriteOptions& options = {});

}  // namespace lir

#endif  // LIR_PIPELINE_DOCUMENT_IO_H_
