// Fuzz target (e): rewrite plus analyses.
//
// Every input that parses and validates is analyzed (arity, monotonicity,
// arrangements) and rewritten by every pass with every feature on, once
// with no knowledge of the dataflow and once single-time with every global
// collection monotonic (so that enable_relax_must_consolidate can fire).
//
// Properties: the analyses succeed on a valid plan, before and after the
// rewrite; the rewrite succeeds (errors are real failures, never declines:
// include/lir/recognizer/pass.h); the rewritten plan validates, prints as text
// that parses and prints the same, and so does its text annotated with every
// analysis field; the rewrite report prints.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_util.h"
#include "lir/document.h"
#include "lir/explain/text.h"
#include "lir/interp/annotations.h"
#include "lir/interp/inputs.h"
#include "lir/node.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "lir/validate.h"

namespace lir::fuzz {
namespace {

OptimizerFeatures AllOn() {
  OptimizerFeatures features;
#define LIR_FUZZ_FEATURE_ON_(name, type, default_value, description) \
  features.name = true;
  LIR_OPTIMIZER_FEATURES(LIR_FUZZ_FEATURE_ON_)
#undef LIR_FUZZ_FEATURE_ON_
  return features;
}

// Single-time, with every global collection a Get reads monotonic.
interp::AnalysisInputs MonotonicInputs(const Document& doc) {
  interp::AnalysisInputs inputs;
  inputs.single_time = true;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      if (const GetOp* get = node.If<GetOp>(); get && !get->id.is_local) {
        inputs.monotonic_ids.insert(get->id.global);
      }
    });
  }
  return inputs;
}

interp::DocumentAnalysis Analyze(const Document& doc,
                                 const interp::AnalysisInputs& inputs,
                                 absl::string_view what) {
  absl::StatusOr<interp::DocumentAnalysis> analysis =
      interp::DocumentAnalysis::Run(doc, inputs);
  if (!analysis.ok()) {
    Fail(absl::StrCat("the analyses failed on a valid plan (", what, ")"),
         explain::PrintText(doc), analysis.status().ToString());
  }
  return *std::move(analysis);
}

// `doc` printed with `options` must parse and print the same plain text.
void CheckReparses(const Document& doc, const explain::PrintOptions& options,
                   absl::string_view what) {
  const std::string printed = explain::PrintText(doc, options);
  absl::StatusOr<Document> reparsed = explain::ParseText(printed);
  if (!reparsed.ok()) {
    Fail(absl::StrCat(what, ": the printed text does not parse"), printed,
         reparsed.status().ToString());
  }
  explain::PrintOptions plain;
  plain.node_identifiers = options.node_identifiers;
  CheckEqual(explain::PrintText(doc, plain),
             explain::PrintText(*reparsed, plain),
             absl::StrCat(what, ": the printed text parses to another plan"));
}

void RewriteAndCheck(const Document& doc, const interp::AnalysisInputs& inputs,
                     absl::string_view what) {
  Analyze(doc, inputs, what);
  absl::StatusOr<OptimizeResult> optimized =
      Optimize(Clone(doc), AllOn(), inputs);
  if (!optimized.ok()) {
    Fail(absl::StrCat("the rewrite failed (", what, ")"),
         explain::PrintText(doc), optimized.status().ToString());
  }
  const Document& rewritten = optimized->document;
  if (absl::Status valid = Validate(rewritten); !valid.ok()) {
    Fail(absl::StrCat("the rewritten plan does not validate (", what, ")"),
         explain::PrintText(rewritten), valid.ToString());
  }
  CheckReparses(rewritten, {}, absl::StrCat("rewritten (", what, ")"));
  const interp::DocumentAnalysis analysis =
      Analyze(rewritten, inputs, absl::StrCat("rewritten, ", what));
  interp::AnnotationFields fields;
  fields.node_id = fields.arity = fields.monotonic = fields.arrangements =
      fields.unique_keys = true;
  explain::PrintOptions annotated;
  annotated.node_identifiers = true;
  annotated.annotate = [&](const Node& node) {
    return analysis.CommentFields(node, fields);
  };
  CheckReparses(rewritten, annotated,
                absl::StrCat("rewritten and annotated (", what, ")"));
  (void)PrintCandidates(optimized->report);
  (void)ReportToJson(optimized->report).dump();
}

void FuzzOne(std::string_view text) {
  const std::optional<Document> doc =
      ReadOrRefuse(explain::ParseText(text), "ParseText");
  if (!doc.has_value()) return;
  // A mutation can turn the input into concise text, a partial plan that
  // the verbose printer must not print (placeholders would read as facts);
  // concise_roundtrip_fuzz covers that syntax.
  if (doc->syntax == TextSyntax::kConcise) return;
  if (!Validate(*doc).ok()) return;
  RewriteAndCheck(*doc, interp::AnalysisInputs(), "no inputs");
  RewriteAndCheck(*doc, MonotonicInputs(*doc), "single-time, monotonic");
}

}  // namespace
}  // namespace lir::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lir::fuzz::FuzzOne(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
