// Whole-document analysis and the rendering of its results.
#include "lir/interp/annotations.h"
#include "lir/partial.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "lir/interp/driver.h"
#include "src/lir/string_view_compat.h"

namespace lir::interp {
namespace {

/// Adds `part`'s results to `all` (node pointers never collide across the
/// objects of one document).
template <typename D>
void Merge(Analysis<D>& all, Analysis<D>&& part) {
  if (all.nodes.empty() && all.let_recs.empty()) {
    all = std::move(part);
    return;
  }
  all.nodes.insert(part.nodes.begin(), part.nodes.end());
  all.let_recs.insert(part.let_recs.begin(), part.let_recs.end());
  all.evaluations += part.evaluations;
}

absl::Status InObject(const Object& object, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(object.name, ": ", status.message()));
}

/// `"raw, [#0]"`, escaping quotes and backslashes of literal keys.
std::string Quoted(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string OutcomeText(const LetRecOutcome& outcome) {
  if (outcome.hit_limit) {
    return absl::StrCat("top after ", outcome.rounds, " round",
                        outcome.rounds == 1 ? "" : "s", " (limit ",
                        outcome.limit, ")");
  }
  return absl::StrCat("converged in ", outcome.rounds, " round",
                      outcome.rounds == 1 ? "" : "s");
}

}  // namespace

absl::StatusOr<AnnotationFields> ParseAnnotationFields(
    std::string_view list_view) {
  const absl::string_view list = ToAbsl(list_view);
  AnnotationFields fields;
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    item = absl::StripAsciiWhitespace(item);
    if (item == "node_id") {
      fields.node_id = true;
    } else if (item == "arity") {
      fields.arity = true;
    } else if (item == "monotonic") {
      fields.monotonic = true;
    } else if (item == "arrangements") {
      fields.arrangements = true;
    } else if (item == "arrangements_built") {
      fields.arrangements_built = true;
    } else if (item == "unique_keys") {
      fields.unique_keys = true;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown annotation '", item,
                       "'; expected node_id, arity, monotonic, arrangements, "
                       "arrangements_built or unique_keys"));
    }
  }
  return fields;
}

absl::StatusOr<DocumentAnalysis> DocumentAnalysis::Run(
    const Document& doc, const AnalysisInputs& inputs) {
  // A global collection is the same in every object, so what any object
  // reveals about it holds for all; local ids are numbered per object
  // (every object has its own l0), so their arities stay in their object.
  RevealedArities document;
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr) CollectRevealedArities(*object.plan, &document);
  }
  const std::map<std::string, std::vector<UniqueKey>> global_keys =
      GlobalKeysSeenByGets(doc, inputs.global_unique_keys);
  const std::map<std::string, int> global_arity =
      GlobalAritiesSeenByGets(doc, inputs.global_arity);
  const MonotonicityInterpreter monotonicity(inputs.monotonic_ids);
  DocumentAnalysis result;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    const Node& plan = *object.plan;
    RevealedArities revealed;
    CollectRevealedArities(plan, &revealed);
    revealed.globals = document.globals;
    absl::StatusOr<Analysis<Arity>> arity =
        Analyze(ArityInterpreter(global_arity, std::move(revealed)), plan);
    if (!arity.ok()) return InObject(object, arity.status());
    absl::StatusOr<Analysis<PhysicallyMonotonic>> monotonic =
        Analyze(monotonicity, plan);
    if (!monotonic.ok()) return InObject(object, monotonic.status());
    absl::StatusOr<Analysis<AvailableForms>> forms =
        AnalyzeArrangements(plan, &*arity);
    if (!forms.ok()) return InObject(object, forms.status());
    absl::StatusOr<Analysis<UniqueKeys>> unique_keys =
        AnalyzeUniqueKeys(plan, global_keys, &*arity);
    if (!unique_keys.ok()) return InObject(object, unique_keys.status());
    // The accounting needs every layout and input key: a partial plan
    // (concise text) gets none, and asking for it is refused upstream.
    if (!IsPartial(plan)) {
      absl::StatusOr<Analysis<ArrangementsBuilt>> built =
          AnalyzeArrangementsBuilt(plan, *forms);
      if (!built.ok()) return InObject(object, built.status());
      Merge(result.built_, std::move(*built));
    }
    Merge(result.arity_, std::move(*arity));
    Merge(result.monotonic_, std::move(*monotonic));
    Merge(result.forms_, std::move(*forms));
    Merge(result.unique_keys_, std::move(*unique_keys));
  }
  return result;
}

std::string DocumentAnalysis::CommentFields(
    const Node& node, const AnnotationFields& fields) const {
  std::vector<std::string> parts;
  if (fields.arity) {
    const Arity* arity = ArityOf(node);
    parts.push_back(
        absl::StrCat("arity: ", arity == nullptr ? "?" : FormatArity(*arity)));
  }
  if (fields.monotonic) {
    const PhysicallyMonotonic* monotonic = MonotonicOf(node);
    parts.push_back(absl::StrCat(
        "monotonic: ", monotonic == nullptr
                           ? "?"
                           : (monotonic->monotonic ? "true" : "false")));
  }
  if (fields.arrangements) {
    const AvailableForms* forms = FormsOf(node);
    parts.push_back(
        absl::StrCat("arrangements: ",
                     forms == nullptr ? "?" : Quoted(FormatForms(*forms))));
  }
  if (fields.arrangements_built) {
    const ArrangementsBuilt& own = BuiltBy(node);
    parts.push_back(absl::StrCat("arrangements_built: ", own.built.size()));
    if (!own.imported.empty()) {
      parts.push_back(
          absl::StrCat("arrangements_imported: ", own.imported.size()));
    }
  }
  if (fields.unique_keys) {
    const UniqueKeys* keys = UniqueKeysOf(node);
    parts.push_back(
        absl::StrCat("unique_keys: ",
                     keys == nullptr ? "?" : Quoted(FormatUniqueKeys(*keys))));
  }
  return absl::StrJoin(parts, ", ");
}

nlohmann::json DocumentAnalysis::JsonFields(
    const Node& node, const AnnotationFields& fields) const {
  nlohmann::json out = nlohmann::json::object();
  if (fields.arity) {
    const Arity* arity = ArityOf(node);
    if (arity == nullptr || arity->state == Arity::State::kUnknown) {
      out["arity"] = nullptr;
    } else if (arity->known()) {
      out["arity"] = arity->value;
    } else {
      out["arity"] = "conflict";
    }
  }
  if (fields.monotonic) {
    const PhysicallyMonotonic* monotonic = MonotonicOf(node);
    if (monotonic == nullptr) {
      out["monotonic"] = nullptr;
    } else {
      out["monotonic"] = monotonic->monotonic;
    }
  }
  if (fields.arrangements) {
    const AvailableForms* forms = FormsOf(node);
    if (forms == nullptr) {
      out["arrangements"] = nullptr;
    } else {
      out["arrangements"] = FormatForms(*forms);
    }
  }
  if (fields.arrangements_built) {
    const ArrangementsBuilt& own = BuiltBy(node);
    out["arrangements_built"] = own.built;
    out["arrangements_imported"] = own.imported;
  }
  if (fields.unique_keys) {
    const UniqueKeys* keys = UniqueKeysOf(node);
    // Bottom never survives a fixpoint; it would print as null too.
    if (keys == nullptr || keys->everything) {
      out["unique_keys"] = nullptr;
    } else {
      nlohmann::json list = nlohmann::json::array();
      for (const UniqueKey& key : keys->keys) list.push_back(key);
      out["unique_keys"] = std::move(list);
    }
  }
  return out;
}

std::string DocumentAnalysis::FixpointReport(const Document& doc) const {
  std::string out;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPreOrder(*object.plan, [&](const Node& node, int) {
      if (!node.Is<LetRecOp>()) return;
      std::vector<std::string> parts;
      auto add = [&](absl::string_view name, const auto& analysis) {
        auto it = analysis.let_recs.find(&node);
        if (it != analysis.let_recs.end()) {
          parts.push_back(absl::StrCat(name, " ", OutcomeText(it->second)));
        }
      };
      add("arity", arity_);
      add("monotonic", monotonic_);
      add("arrangements", forms_);
      add("arrangements_built", built_);
      add("unique_keys", unique_keys_);
      absl::StrAppend(&out, "  ", object.name, " LirId(", node.id,
                      "): ", absl::StrJoin(parts, "; "), "\n");
    });
  }
  if (out.empty()) return out;
  return absl::StrCat("LetRec fixpoints:\n", out);
}

}  // namespace lir::interp
