// The whole path a plan takes through lir, as one object: read (text or
// JSON) -> validate -> optimize with the features that are on -> validate the
// result -> annotate with analyses -> print. lir-opt's `explain` is a thin
// client of it (flags in, output out); a consumer with a Document of its own
// (PlanBuilder's) runs the same steps without going through text.
#ifndef LIR_PIPELINE_PIPELINE_H_
#define LIR_PIPELINE_PIPELINE_H_

#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/interp/annotations.h"
#include "lir/interp/inputs.h"
#include "lir/pipeline/document_io.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"

namespace lir {

/// What a Pipeline does to every document it runs.
struct PipelineOptions {
  /// The rewrites that run (the others only report what they would do).
  OptimizerFeatures features;
  /// What the caller knows about the dataflow (single-time, monotonic and
  /// arities of global collections), for the passes and the analyses.
  interp::AnalysisInputs inputs;
  /// The analysis results appended to every node of the output.
  interp::AnnotationFields annotate;
  /// Validate the input before the passes, and the optimized plan after
  /// them (a failure there is an internal error: the passes broke a valid
  /// plan). One switch for both, so that a result is only called broken
  /// when its input was checked.
  bool validate = true;
  /// The output's form.
  WriteFormat format = WriteFormat::kText;
  /// Print every node's `// { node_id: LirId(n) }` (text); annotate.node_id
  /// turns it on too.
  bool node_identifiers = false;
  /// The most bytes of EXPLAIN text printed (WriteOptions::max_text_bytes).
  uint64_t max_text_bytes = kDefaultMaxTextBytes;
  /// Build the rewrite report (OptimizeOptions::report): what every
  /// candidate did, what each disabled pass would do (its dry run) and the
  /// arrangements each object builds before and after the passes. Off, a
  /// disabled pass does not run at all and nothing is counted: the
  /// result's report lists the passes and what the enabled ones fired
  /// through their work counters only. `lir-opt explain` turns it on only
  /// for --explain_declines and --report.
  bool report = true;
};

/// What a run produces.
struct PipelineResult {
  /// The optimized document (what `output` prints).
  Document document;
  /// Every pass and candidate: what fired, what declined and why.
  RewriteReport report;
  /// The document as text or JSON, with its annotations, ending in a newline.
  std::string output;
};

/// Runs documents through optimize -> validate -> annotate -> print with
/// fixed options. Every error message starts with the input's name
/// (`plan.txt: ...`, or a parser's `plan.txt:12:7: ...`); an invalid
/// optimized plan is Internal, the input's faults InvalidArgument.
class Pipeline {
 public:
  /// A pipeline with the default options: no feature on, no annotation,
  /// validation on, text output.
  Pipeline() = default;
  /// A pipeline doing what `options` say.
  explicit Pipeline(PipelineOptions options) : options_(std::move(options)) {}

  /// The options every run uses.
  const PipelineOptions& options() const { return options_; }
  /// The options, to change before the next run.
  PipelineOptions& mutable_options() { return options_; }

  /// Sets the features a JSON config text names (`{"features": {"name":
  /// value, ...}}`, the format of lir-opt's --config; ApplyConfigText in
  /// lir/recognizer/features.h), leaving the others as they are. On an
  /// error (located as `file_name:line:column: ...` or `file_name: ...`) no
  /// feature changes.
  absl::Status ApplyConfigText(std::string_view config_text,
                               std::string_view file_name = "<config>");

  /// Reads `text` with ReadDocument in read.format, naming the input
  /// read.file_name in every message, then as Run(Document). The input is
  /// validated when options().validate; read.validate is not consulted.
  absl::StatusOr<PipelineResult> Run(std::string_view text,
                                     const ReadOptions& read = {}) const;

  /// Validates `doc` (when options().validate), checks the given facts
  /// against it (as Optimize), then Optimize and Print.
  /// `name` stands for the input in error messages.
  absl::StatusOr<PipelineResult> Run(
      Document doc, std::string_view name = "<document>") const;

  /// Step: checks the facts options().inputs gives about global collections
  /// against `doc` (interp::CheckGlobalFacts: a contradiction is the error),
  /// runs every registered pass (those whose feature is on rewrite;
  /// the others report), then validates the result when options().validate
  /// (`name: internal error: the optimized plan is invalid: ...`).
  absl::StatusOr<OptimizeResult> Optimize(Document doc,
                                          std::string_view name) const;

  /// Step: runs the analyses options().annotate asks for over `doc` and
  /// prints it with them in options().format. Fails only when an analysis
  /// does (`name: ...`).
  absl::StatusOr<std::string> Print(const Document& doc,
                                    std::string_view name) const;

 private:
  // Print, with the report of the passes that made `doc` when there is one
  // (a graph highlights the nodes they rewrote).
  absl::StatusOr<std::string> PrintDocument(const Document& doc,
                                            std::string_view name,
                                            const RewriteReport* report) const;
  // PrintDocument in WriteFormat::kDot.
  absl::StatusOr<std::string> PrintDot(const Document& doc,
                                       std::string_view name,
                                       const RewriteReport* report) const;
  // Optimize and Print on a document already checked.
  absl::StatusOr<PipelineResult> RunChecked(Document doc,
                                            std::string_view name) const;
  // Optimize on a document whose given facts were checked.
  absl::StatusOr<OptimizeResult> OptimizeChecked(Document doc,
                                                 std::string_view name) const;

  PipelineOptions options_;
};

}  // namespace lir

#endif  // LIR_PIPELINE_PIPELINE_H_
