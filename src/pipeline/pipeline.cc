#include "lir/pipeline/pipeline.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "lir/interp/global_facts.h"
#include "lir/node_error.h"
#include "lir/partial.h"
#include "lir/status_macros.h"
#include "lir/validate.h"
#include "src/lir/string_view_compat.h"
#include "src/pipeline/name_input.h"

namespace lir {

absl::Status Pipeline::ApplyConfigText(std::string_view config_text,
                                       std::string_view file_name) {
  // lir::ApplyConfigText sets features as it goes; a copy keeps a bad
  // config from leaving half of itself applied.
  OptimizerFeatures features = options_.features;
  LIR_RETURN_IF_ERROR(lir::ApplyConfigText(features, config_text, file_name));
  options_.features = features;
  return absl::OkStatus();
}

absl::StatusOr<PipelineResult> Pipeline::Run(std::string_view text,
                                             const ReadOptions& read) const {
  // ReadDocument validates with the same messages as Run(Document), in the
  // same pass over the input.
  ReadOptions checked = read;
  checked.validate = options_.validate;
  checked.global_arity = options_.inputs.global_arity;
  // Checked there before the inference reads the arities.
  checked.given_facts = options_.inputs;
  absl::StatusOr<Document> doc = ReadDocument(text, checked);
  if (!doc.ok()) return doc.status();
  return RunChecked(*std::move(doc), read.file_name);
}

absl::StatusOr<PipelineResult> Pipeline::Run(Document doc,
                                             std::string_view name) const {
  if (options_.validate) {
    LIR_RETURN_IF_ERROR(NameInput(Validate(doc), name));
  }
  LIR_RETURN_IF_ERROR(interp::CheckGlobalFacts(doc, options_.inputs, name));
  return RunChecked(std::move(doc), name);
}

// The passes' and the analyses' messages name an object and a node, never
// the input, so their errors always get `name: ` in front (PrefixStatus keeps
// the node-error payload).
absl::StatusOr<OptimizeResult> Pipeline::Optimize(Document doc,
                                                  std::string_view name) const {
  // The passes trust the given facts; a plan read elsewhere has not had
  // them checked against it.
  LIR_RETURN_IF_ERROR(interp::CheckGlobalFacts(doc, options_.inputs, name));
  return OptimizeChecked(std::move(doc), name);
}

absl::StatusOr<OptimizeResult> Pipeline::OptimizeChecked(
    Document doc, std::string_view name) const {
  OptimizeOptions optimize;
  // A graph highlights the nodes the passes rewrote: the fired candidates.
  optimize.report = options_.report || options_.format == WriteFormat::kDot;
  absl::StatusOr<OptimizeResult> optimized = lir::Optimize(
      std::move(doc), options_.features, options_.inputs, optimize);
  if (!optimized.ok()) {
    return PrefixStatus(absl::StrCat(ToAbsl(name), ": "), optimized.status());
  }
  if (options_.validate) {
    // The input was valid, so an invalid result is a pass's bug, not the
    // user's.
    if (absl::Status valid = Validate(optimized->document); !valid.ok()) {
      return absl::InternalError(absl::StrCat(
          ToAbsl(name), ": internal error: the optimized plan is invalid: ",
          valid.message()));
    }
  }
  return optimized;
}

absl::StatusOr<std::string> Pipeline::Print(const Document& doc,
                                            std::string_view name) const {
  return PrintDocument(doc, name, nullptr);
}

absl::StatusOr<std::string> Pipeline::PrintDot(
    const Document& doc, std::string_view name,
    const RewriteReport* report) const {
  WriteOptions write;
  write.format = WriteFormat::kDot;
  // Nodes a fired candidate names (the node a rewrite put in its place).
  absl::flat_hash_set<std::pair<std::string, LirId>> fired;
  if (report != nullptr) {
    for (const Candidate& c : report->candidates) {
      if (c.outcome == CandidateOutcome::kFired) {
        fired.emplace(c.object, c.lir_id);
      }
    }
  }
  write.dot.highlighted = [&fired](const Object& object, const Node& node) {
    return fired.contains(std::make_pair(object.name, node.id));
  };
  // The arrangements each node builds, and the --annotate fields, from the
  // analyses; a partial plan (read from concise text) lacks the facts the
  // accounting needs, and is drawn without arrangements.
  const bool complete =
      RequireKnownFacts(doc, "the arrangement accounting").ok();
  std::optional<interp::DocumentAnalysis> analysis;
  if (complete || options_.annotate.AnyComputed()) {
    absl::StatusOr<interp::DocumentAnalysis> run =
        interp::DocumentAnalysis::Run(doc, options_.inputs);
    if (!run.ok()) {
      return PrefixStatus(absl::StrCat(ToAbsl(name), ": "), run.status());
    }
    analysis = *std::move(run);
  }
  if (analysis.has_value() && complete) {
    write.dot.arrangements = [&analysis](const Object&, const Node& node) {
      const interp::ArrangementsBuilt& built = analysis->BuiltBy(node);
      std::vector<std::string> labels = built.built;
      for (const std::string& index : built.imported) {
        labels.push_back(absl::StrCat(index, "\n(kept by the index)"));
      }
      return labels;
    };
  }
  const interp::AnnotationFields& fields = options_.annotate;
  const bool node_ids = options_.node_identifiers || fields.node_id;
  write.dot.annotate = [&analysis, &fields, node_ids](const Object&,
                                                      const Node& node) {
    std::string text =
        node_ids ? absl::StrCat("node_id: LirId(", node.id, ")") : "";
    if (analysis.has_value() && fields.AnyComputed()) {
      const std::string computed = analysis->CommentFields(node, fields);
      if (!computed.empty()) {
        absl::StrAppend(&text, text.empty() ? "" : ", ", computed);
      }
    }
    return text;
  };
  absl::StatusOr<std::string> written = WriteDocument(doc, write);
  if (!written.ok()) return NameInput(written.status(), name);
  return written;
}

absl::StatusOr<std::string> Pipeline::PrintDocument(
    const Document& doc, std::string_view name,
    const RewriteReport* report) const {
  if (options_.format == WriteFormat::kDot) {
    return PrintDot(doc, name, report);
  }
  WriteOptions write;
  write.format = options_.format;
  write.max_text_bytes = options_.max_text_bytes;
  write.node_identifiers =
      options_.node_identifiers || options_.annotate.node_id;
  auto named =
      [&](absl::StatusOr<std::string> written) -> absl::StatusOr<std::string> {
    if (written.ok()) return written;
    return NameInput(written.status(), name);
  };
  if (!options_.annotate.AnyComputed()) return named(WriteDocument(doc, write));
  if (options_.annotate.arrangements_built) {
    if (absl::Status complete =
            RequireKnownFacts(doc, "--annotate=arrangements_built");
        !complete.ok()) {
      return NameInput(complete, name);
    }
  }
  // The analyses describe the plan as printed: after the passes.
  absl::StatusOr<interp::DocumentAnalysis> analysis =
      interp::DocumentAnalysis::Run(doc, options_.inputs);
  if (!analysis.ok()) {
    return PrefixStatus(absl::StrCat(ToAbsl(name), ": "), analysis.status());
  }
  const interp::AnnotationFields& fields = options_.annotate;
  write.annotate = [&analysis, &fields](const Node& node) {
    return analysis->CommentFields(node, fields);
  };
  write.json_annotations = [&analysis, &fields](const Node& node) {
    return analysis->JsonFields(node, fields);
  };
  return named(WriteDocument(doc, write));
}

absl::StatusOr<PipelineResult> Pipeline::RunChecked(
    Document doc, std::string_view name) const {
  LIR_ASSIGN_OR_RETURN(OptimizeResult optimized,
                       OptimizeChecked(std::move(doc), name));
  PipelineResult result;
  LIR_ASSIGN_OR_RETURN(result.output, PrintDocument(optimized.document, name,
                                                    &optimized.report));
  result.document = std::move(optimized.document);
  result.report = std::move(optimized.report);
  return result;
}

}  // namespace lir
