#include "tools/lir-opt/slt_check.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "lir/explain/concise.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/interp/global_facts.h"
#include "lir/interp/partial_inference.h"
#include "lir/partial.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "lir/validate.h"

namespace lir::cli::slt {
namespace {

/// The 1-based file line of the first line where `a` and `b` differ,
/// counting from `first_line`.
size_t FirstDifferingLine(const std::string& a, const std::string& b,
                          size_t first_line) {
  std::vector<absl::string_view> la = absl::StrSplit(a, '\n');
  std::vector<absl::string_view> lb = absl::StrSplit(b, '\n');
  size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
  return first_line + i;
}

/// The document printed in the syntax it was read in.
absl::StatusOr<std::string> PrintInItsSyntax(const Document& doc) {
  if (doc.syntax == TextSyntax::kConcise) {
    return explain::PrintConciseText(doc);
  }
  return explain::PrintText(doc);
}

BlockResult Error(BlockResult result, std::string message) {
  result.outcome = Outcome::kError;
  result.message = std::move(message);
  return result;
}

/// `file:line[:column]: ` for an error about the plan `text` read with
/// `options`: the header line of the node it names, when it names one,
/// else the plan's first line. Positions are recorded by reading the plan
/// again, only now that there is an error.
std::string ErrorPlace(const absl::Status& status, std::string_view text,
                       const explain::ParseOptions& options) {
  explain::NodePositions positions;
  explain::ParseOptions located = options;
  located.positions = &positions;
  if (explain::ParseText(text, located).ok()) {
    if (std::optional<explain::SourcePosition> at = positions.Of(status)) {
      return absl::StrCat(options.filename, ":", at->line, ":", at->column,
                          ": ");
    }
  }
  return absl::StrCat(options.filename, ":", options.first_line, ": ");
}

}  // namespace

absl::string_view OutcomeText(Outcome outcome) {
  switch (outcome) {
    case Outcome::kUnchanged: return "unchanged";
    case Outcome::kWouldChange: return "would change";
    case Outcome::kError: return "error";
    case Outcome::kSkipped: return "skipped";
  }
  return "?";
}

BlockResult CheckBlock(const SltFile& file, const ExplainBlock& block,
                       const OptimizerFeatures& features,
                       const interp::AnalysisInputs& inputs) {
  BlockResult result;
  result.file = file.name;
  result.line = block.query_line + 1;
  if (block.error.has_value()) return Error(std::move(result), *block.error);
  if (block.skip_reason.has_value()) {
    result.outcome = Outcome::kSkipped;
    result.message = *block.skip_reason;
    return result;
  }
  const size_t plan_line = block.output_begin + 1;
  const std::string text = PlanText(file, block);
  explain::ParseOptions parse_options;
  parse_options.filename = file.name;
  parse_options.first_line = static_cast<int>(plan_line);
  absl::StatusOr<Document> doc = explain::ParseText(text, parse_options);
  if (!doc.ok()) {
    return Error(std::move(result), std::string(doc.status().message()));
  }
  if (doc->syntax != block.syntax && !doc->objects.empty()) {
    return Error(std::move(result),
                 absl::StrCat(file.name, ":", plan_line, ": the statement ",
                              block.syntax == TextSyntax::kVerbose
                                  ? "prints the verbose syntax (EXPLAIN "
                                    "PHYSICAL PLAN [AS VERBOSE TEXT] FOR)"
                                  : "prints the concise syntax (Materialize's "
                                    "default EXPLAIN)",
                              ", but the expected output is in the ",
                              doc->syntax == TextSyntax::kVerbose ? "verbose"
                                                                  : "concise",
                              " syntax"));
  }
  if (absl::Status valid = Validate(*doc); !valid.ok()) {
    return Error(
        std::move(result),
        absl::StrCat(ErrorPlace(valid, text, parse_options), valid.message()));
  }
  // A plan lir cannot print back byte for byte would be rewritten by any
  // pass firing anywhere in the file; it is reported, never touched.
  absl::StatusOr<std::string> printed_or = PrintInItsSyntax(*doc);
  if (!printed_or.ok()) {
    return Error(std::move(result),
                 absl::StrCat(file.name, ":", plan_line, ": ",
                              printed_or.status().message()));
  }
  const std::string& printed = *printed_or;
  if (printed != text) {
    result.diff = explain::UnifiedDiff(text, printed);
    return Error(std::move(result),
                 absl::StrCat(file.name, ":",
                              FirstDifferingLine(text, printed, plan_line),
                              ": the plan does not print back as it reads "
                              "(the diff shows lir's printing)"));
  }
  // As ReadDocument does: the given facts must agree with the plan before
  // anything is inferred from them or trusts them.
  if (absl::Status agree = interp::CheckGlobalFacts(
          *doc, inputs, absl::StrCat(file.name, ":", plan_line));
      !agree.ok()) {
    return Error(std::move(result), std::string(agree.message()));
  }
  // As ReadDocument does: a concise plan's passes see what its shown facts
  // imply (layouts, input keys), never defaults.
  if (absl::Status inferred =
          interp::InferPartialFacts(*doc, inputs.global_arity);
      !inferred.ok()) {
    return Error(std::move(result),
                 absl::StrCat(ErrorPlace(inferred, text, parse_options),
                              inferred.message()));
  }
  // What the inference revealed can contradict the plan (ReadDocument).
  if (IsPartial(*doc) || doc->syntax == TextSyntax::kConcise) {
    if (absl::Status valid = Validate(*doc); !valid.ok()) {
      return Error(std::move(result),
                   absl::StrCat(ErrorPlace(valid, text, parse_options),
                                valid.message()));
    }
  }
  absl::StatusOr<OptimizeResult> optimized =
      Optimize(std::move(*doc), features, inputs);
  if (!optimized.ok()) {
    return Error(std::move(result),
                 absl::StrCat(file.name, ":", plan_line, ": ",
                              optimized.status().message()));
  }
  result.report = ReportToJson(optimized->report);
  for (const Candidate& c : optimized->report.candidates) {
    if (c.outcome != CandidateOutcome::kFired) continue;
    std::string fired =
        absl::StrCat(c.pass, " ", c.object, " LirId(", c.lir_id, ")");
    if (c.details.is_object() && c.details.contains(kSavesField)) {
      const int64_t saves = c.details[kSavesField].get<int64_t>();
      absl::StrAppend(&fired, " (saves ", saves,
                      saves == 1 ? " arrangement)" : " arrangements)");
    }
    result.fired.push_back(std::move(fired));
  }
  if (result.fired.empty()) return result;
  if (absl::Status valid = Validate(optimized->document); !valid.ok()) {
    return Error(std::move(result),
                 absl::StrCat(file.name, ":", plan_line,
                              ": internal error: the optimized plan is "
                              "invalid: ",
                              valid.message()));
  }
  absl::StatusOr<std::string> rewritten = PrintInItsSyntax(optimized->document);
  if (!rewritten.ok()) {
    return Error(std::move(result),
                 absl::StrCat(file.name, ":", plan_line, ": ",
                              rewritten.status().message()));
  }
  result.rewritten = *std::move(rewritten);
  result.diff = explain::UnifiedDiff(text, result.rewritten);
  result.outcome = Outcome::kWouldChange;
  return result;
}

void Summary::Add(Outcome outcome) {
  ++blocks;
  switch (outcome) {
    case Outcome::kUnchanged: ++unchanged; break;
    case Outcome::kWouldChange: ++would_change; break;
    case Outcome::kError: ++errors; break;
    case Outcome::kSkipped: ++skipped; break;
  }
}

std::string Summary::Line() const {
  return absl::StrCat("slt: ", blocks, " blocks, ", unchanged, " unchanged, ",
                      would_change, " would change, ", errors, " errors, ",
                      skipped, " skipped\n");
}

std::string FormatBlockText(const BlockResult& result) {
  std::string out = absl::StrCat(result.file, ":", result.line, ": ",
                                 OutcomeText(result.outcome));
  switch (result.outcome) {
    case Outcome::kUnchanged: absl::StrAppend(&out, "\n"); break;
    case Outcome::kSkipped:
      absl::StrAppend(&out, " (", result.message, ")\n");
      break;
    case Outcome::kError:
      absl::StrAppend(&out, ": ", result.message, "\n", result.diff);
      break;
    case Outcome::kWouldChange:
      absl::StrAppend(&out, "\n");
      for (const std::string& fired : result.fired) {
        absl::StrAppend(&out, "  fired: ", fired, "\n");
      }
      absl::StrAppend(&out, "--- expected\n+++ rewritten\n", result.diff);
      break;
  }
  return out;
}

nlohmann::json BlockToJson(const BlockResult& result) {
  nlohmann::json out = {{"file", result.file},
                        {"line", result.line},
                        {"outcome", OutcomeText(result.outcome)},
                        {"diff", result.diff},
                        {"report", result.report}};
  if (!result.message.empty()) out["message"] = result.message;
  return out;
}

}  // namespace lir::cli::slt
