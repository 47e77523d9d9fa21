#include "tools/lir-opt/annotate_flags.h"

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/list_parse.h"
#include "tools/lir-opt/read_input.h"

ABSL_FLAG(lir::cli::AnnotationList, annotate, lir::cli::AnnotationList{},
          "Append analysis results to every node header, in Materialize's "
          "comment style: ' // { node_id: LirId(7), arity: 2, monotonic: "
          "true, arrangements: \"raw, [#0]\", arrangements_built: 1, "
          "unique_keys: \"[#0]\" }'. A comma-separated list of the FIELDs "
          "node_id, arity, monotonic, arrangements, arrangements_built and "
          "unique_keys, always printed in that order; arity is '?' where "
          "nothing reveals "
          "it; arrangements_built counts the arrangements the node builds "
          "(followed by 'arrangements_imported: N' on a Get reading N "
          "indexes kept outside the dataflow); unique_keys lists the column "
          "sets no value repeats on ('[]': at most one row, 'none': no key "
          "known). With --format=json the computed fields go into each "
          "node's \"annotations\" object. Computed on the plan after the "
          "optimizer passes, with --single_time, --monotonic_ids, --arity "
          "and --catalog.");
ABSL_FLAG(bool, single_time, false,
          "The plan is a single-time (one-shot SELECT) dataflow: reductions "
          "outside iterations emit no retractions. Used by "
          "enable_relax_must_consolidate.");
ABSL_FLAG(std::vector<std::string>, monotonic_ids, {},
          "Comma-separated global collections (as the plan names them, e.g. "
          "materialize.public.t) that are insert-only, for the monotonicity "
          "analysis (shorthand for \"monotonic\": true in --catalog).");
ABSL_FLAG(std::vector<std::string>, arity, {},
          "Arities of global collections the plan does not reveal, as "
          "name=N items, comma-separated (e.g. "
          "materialize.public.t=2,materialize.public.u=3; shorthand for "
          "\"arity\" in --catalog, which must agree).");
ABSL_FLAG(std::string, catalog, "",
          "What the catalog knows that a plan does not print, a JSON file "
          "{\"collections\": {NAME: {\"arity\": N, \"unique_keys\": "
          "[[COLUMN, ...], ...], \"monotonic\": true|false}}, \"indexes\": "
          "{NAME: {\"on\": COLLECTION, \"key\": [COLUMN, ...]}}}, every "
          "member optional (docs/analyses.md, docs/evaluator.md). Collections "
          "feed the analyses and the passes of explain, run and slt, with "
          "--arity and --monotonic_ids; run also reads the keys of the "
          "indexes fast-path peeks read (declarations may also be in the "
          "data file).");

namespace lir::cli {

bool AbslParseFlag(absl::string_view text, AnnotationList* value,
                   std::string* error) {
  value->fields = interp::AnnotationFields();
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    AnnotationField field;
    if (!ParseChoice<AnnotationField>(kAnnotationFieldChoices,
                                      absl::StripAsciiWhitespace(item), &field,
                                      error)) {
      *error = absl::StrCat("unknown field '", item, "': ", *error);
      return false;
    }
    switch (field) {
      case AnnotationField::kNodeId: value->fields.node_id = true; break;
      case AnnotationField::kArity: value->fields.arity = true; break;
      case AnnotationField::kMonotonic: value->fields.monotonic = true; break;
      case AnnotationField::kArrangements:
        value->fields.arrangements = true;
        break;
      case AnnotationField::kArrangementsBuilt:
        value->fields.arrangements_built = true;
        break;
      case AnnotationField::kUniqueKeys:
        value->fields.unique_keys = true;
        break;
    }
  }
  return true;
}

std::string AbslUnparseFlag(const AnnotationList& value) {
  std::vector<absl::string_view> names;
  const interp::AnnotationFields& f = value.fields;
  if (f.node_id) names.push_back("node_id");
  if (f.arity) names.push_back("arity");
  if (f.monotonic) names.push_back("monotonic");
  if (f.arrangements) names.push_back("arrangements");
  if (f.arrangements_built) names.push_back("arrangements_built");
  if (f.unique_keys) names.push_back("unique_keys");
  return absl::StrJoin(names, ",");
}

int ResolveAnalysisInputsOrReport(interp::AnalysisInputs* inputs,
                                  interp::Catalog* catalog) {
  *inputs = interp::AnalysisInputs();
  if (catalog != nullptr) *catalog = interp::Catalog();
  inputs->single_time = absl::GetFlag(FLAGS_single_time);
  for (const std::string& id : absl::GetFlag(FLAGS_monotonic_ids)) {
    ParseIdList(id, &inputs->monotonic_ids);
  }
  for (const std::string& item : absl::GetFlag(FLAGS_arity)) {
    absl::Status status = ParseArityList(item, &inputs->global_arity);
    if (!status.ok()) {
      return UsageError(absl::StrCat("--arity: ", status.message()));
    }
  }
  // How an arity the plan contradicts is named (a catalog's, if it gives
  // one too, replaces this).
  for (const auto& [name, arity] : inputs->global_arity) {
    inputs->global_arity_origin[name] =
        absl::StrCat("--arity=", name, "=", arity);
  }
  const std::string path = absl::GetFlag(FLAGS_catalog);
  if (path.empty()) return kExitOk;
  absl::StatusOr<InputText> text =
      ReadInput(path, absl::GetFlag(FLAGS_max_input_bytes));
  if (!text.ok()) return InputError(text.status().message());
  absl::StatusOr<interp::Catalog> parsed =
      interp::ParseCatalog(text->text, text->name);
  if (!parsed.ok()) return InputError(parsed.status().message());
  if (absl::Status added = interp::AddCatalogToAnalysisInputs(*parsed, inputs);
      !added.ok()) {
    return InputError(added.message());
  }
  if (catalog != nullptr) *catalog = *std::move(parsed);
  return kExitOk;
}

}  // namespace lir::cli
