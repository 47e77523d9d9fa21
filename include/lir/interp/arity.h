// The arity (number of columns) of every node's output, as an abstract
// interpretation of the rules in include/lir/arity.h. Nothing is guessed: a
// global collection's arity comes from the caller or from what the plan text
// reveals (the layout of an advertised arrangement); where nothing reveals
// it, it stays unknown.
#ifndef LIR_INTERP_ARITY_H_
#define LIR_INTERP_ARITY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "lir/arity.h"
#include "lir/document.h"
#include "lir/interp/interpreter.h"
#include "lir/node.h"

namespace lir::interp {

// The lattice and the per-kind rules live in include/lir/arity.h (Validate
// checks against the same rules); these names are kept for the analysis'
// users.
using lir::Arity;
using lir::DescribedArity;
using lir::FormatArity;
using lir::JoinArity;
using lir::MfpOutputArity;

/// Arities a plan reveals about the collections it reads: for each global
/// name and each local id, the join of the arities its Gets' advertised
/// arrangements describe.
struct RevealedArities {
  std::map<std::string, Arity> globals;
  std::map<uint64_t, Arity> locals;
};

/// Adds what the Gets of `plan` reveal to `*revealed`. Iterative.
void CollectRevealedArities(const Node& plan, RevealedArities* revealed);

/// The arity interpreter: the rules of include/lir/arity.h. Gets take their
/// collection's arity (a local binding's value, or for a global the caller's
/// `given` arity), joined with what `revealed` and their own advertised
/// arrangements describe; every other kind follows NodeOutputArity.
class ArityInterpreter {
 public:
  using Domain = Arity;

  /// `given`: global arities the caller knows; `revealed`: what the plan (or
  /// its document) reveals. The interpreter keeps its own copies (move them
  /// in to avoid the copy), so it may outlive the caller's containers.
  ArityInterpreter(std::map<std::string, int> given, RevealedArities revealed)
      : given_(std::move(given)), revealed_(std::move(revealed)) {}

  /// The lattice (see the Domain type).
  Domain Top() const { return Arity::Conflict(); }
  Domain Bottom() const { return Arity::Unknown(); }
  Domain Join(const Domain& a, const Domain& b) const {
    return JoinArity(a, b);
  }
  bool Equal(const Domain& a, const Domain& b) const { return a == b; }

  /// Transfer functions, one per node kind (rules in the class comment),
  /// declared from include/lir/node_kinds.def.
#define LIR_NODE_KIND(Kind, Payload, JsonName, Shape) \
  LIR_INTERP_DECLARE_##Shape(Kind, Payload)
#include "lir/node_kinds.def"

 private:
  std::map<std::string, int> given_;
  RevealedArities revealed_;
};

/// The arities of global collections as a document's Gets read them: the
/// given arities (the collections' own rows, as a data file's) carried
/// through each collection's `Source` block projection, if the document has
/// one (../shared/reference/SEMANTICS.md 8.3); a Source block's projection
/// also gives the arity of a collection not given.
std::map<std::string, int> GlobalAritiesSeenByGets(
    const Document& doc, const std::map<std::string, int>& given);

/// Runs the arity analysis over `plan`, with the given global arities and
/// what `plan` itself reveals.
absl::StatusOr<Analysis<Arity>> AnalyzeArity(
    const Node& plan, const std::map<std::string, int>& given = {});

}  // namespace lir::interp

#endif  // LIR_INTERP_ARITY_H_
