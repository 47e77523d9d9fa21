// The analyses run over a whole document, and their results as the
// fields of EXPLAIN's `// { ... }` node comments and of the JSON form's
// per-node "annotations" object.
#ifndef LIR_INTERP_ANNOTATIONS_H_
#define LIR_INTERP_ANNOTATIONS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/interp/arity.h"
#include "lir/interp/arrangements.h"
#include "lir/interp/arrangements_built.h"
#include "lir/interp/inputs.h"
#include "lir/interp/interpreter.h"
#include "lir/interp/monotonicity.h"
#include "lir/interp/unique_keys.h"
#include "nlohmann/json.hpp"

namespace lir::interp {

/// Which fields a node annotation shows. They always print in this order:
/// node_id, arity, monotonic, arrangements, arrangements_built, unique_keys.
struct AnnotationFields {
  bool node_id = false;
  bool arity = false;
  bool monotonic = false;
  bool arrangements = false;
  /// The arrangements the node builds (and the indexes it imports).
  bool arrangements_built = false;
  bool unique_keys = false;

  /// Whether any analysis result is asked for (node_id is not one).
  bool AnyComputed() const {
    return arity || monotonic || arrangements || arrangements_built ||
           unique_keys;
  }
  friend bool operator==(const AnnotationFields&,
                         const AnnotationFields&) = default;
};

/// Parses a comma-separated list of `node_id`, `arity`, `monotonic`,
/// `arrangements`, `arrangements_built`, `unique_keys` (any order, repeats
/// allowed, empty list allowed).
absl::StatusOr<AnnotationFields> ParseAnnotationFields(std::string_view list);

/// Monotonicity, arity, available arrangements, arrangements built and
/// unique keys of every node of every plan of a document (each object analyzed
/// on its own, with the same inputs; global arities revealed anywhere in the
/// document count for all; global unique keys pass through the document's
/// Source blocks).
class DocumentAnalysis {
 public:
  /// Runs the analyses. Errors name the object and the node.
  static absl::StatusOr<DocumentAnalysis> Run(const Document& doc,
                                              const AnalysisInputs& inputs);

  /// The results of `node`, or null when it is not part of the document.
  const Arity* ArityOf(const Node& node) const { return arity_.Find(node); }
  const PhysicallyMonotonic* MonotonicOf(const Node& node) const {
    return monotonic_.Find(node);
  }
  const AvailableForms* FormsOf(const Node& node) const {
    return forms_.Find(node);
  }
  const UniqueKeys* UniqueKeysOf(const Node& node) const {
    return unique_keys_.Find(node);
  }
  /// What `node` itself builds and imports (nothing for Let and LetRec, and
  /// for nodes not in the document).
  const ArrangementsBuilt& BuiltBy(const Node& node) const {
    return interp::BuiltBy(built_, node);
  }
  /// The arrangement totals of one object's plan (`plan` must be one of the
  /// document's plans): what CountArrangementsBuilt computes, with the
  /// arities the whole document reveals.
  ArrangementCount TotalOf(const Node& plan) const {
    return TotalArrangements(plan, built_);
  }
  const Analysis<Arity>& arity() const { return arity_; }
  const Analysis<PhysicallyMonotonic>& monotonic() const { return monotonic_; }
  const Analysis<AvailableForms>& forms() const { return forms_; }
  const Analysis<UniqueKeys>& unique_keys() const { return unique_keys_; }
  const Analysis<ArrangementsBuilt>& built() const { return built_; }

  /// `arity: 2, monotonic: true, arrangements: "raw, [#0]",
  /// arrangements_built: 2, unique_keys: "[#0]"`: the computed fields of
  /// `fields` for `node` (node_id excluded: the printer adds it).
  /// arrangements_built is the number of arrangements the node builds,
  /// followed by `arrangements_imported: N` on a node that reads N indexes
  /// maintained outside the dataflow.
  std::string CommentFields(const Node& node,
                            const AnnotationFields& fields) const;

  /// The same as a JSON object: {"arity": 2 | null (unknown) | "conflict",
  /// "monotonic": true, "arrangements": "raw, [#0]", "arrangements_built":
  /// ["Arranged DistinctBy", "DistinctBy"], "arrangements_imported": [],
  /// "unique_keys": [[0], [1, 2]] ([] when no key is known, [[]] for the
  /// empty key)}: the built and imported arrangements by name (the names
  /// `lir-opt run --arrangement_sizes` lists).
  nlohmann::json JsonFields(const Node& node,
                            const AnnotationFields& fields) const;

  /// One line per LetRec of `doc` (pre-order) saying how each analysis's
  /// fixpoint ended; empty when the document has no LetRec.
  std::string FixpointReport(const Document& doc) const;

 private:
  Analysis<Arity> arity_;
  Analysis<PhysicallyMonotonic> monotonic_;
  Analysis<AvailableForms> forms_;
  Analysis<UniqueKeys> unique_keys_;
  Analysis<ArrangementsBuilt> built_;
};

}  // namespace lir::interp

#endif  // LIR_INTERP_ANNOTATIONS_H_
