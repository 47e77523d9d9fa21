// Filling in what a partial plan implies (a plan read from the concise
// EXPLAIN syntax, include/lir/partial.h). Only facts that follow from what
// the plan shows are filled in, each the way Materialize derives it; every
// other unknown fact stays unknown.
#ifndef LIR_INTERP_PARTIAL_INFERENCE_H_
#define LIR_INTERP_PARTIAL_INFERENCE_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/node.h"

namespace lir::interp {

/// Infers, and clears the marks of:
/// - an ArrangeBy's `input_key` when the arrangements analysis knows its
///   input's forms exactly: the one arrangement's key when the input offers
///   exactly one, none when it offers only the raw collection (Materialize
///   reads an input arrangement when there is one, `lowering.rs`);
/// - the input key of an Mfp, a FlatMap or a Reduce whose input offers only
///   its raw collection: none;
/// - the forms of a Get::Collection: the raw collection only (Materialize
///   reads a collection that has an arrangement through it,
///   Get::Arrangement);
/// - the permutation and thinning of the arrangements an ArrangeBy, a
///   Threshold or a SetDifference builds, when the arity of the rows they
///   arrange is known (MakeArrangement: Materialize's
///   `permutation_for_arrangement`).
/// `global_arity` gives arities of global collections (a catalog); the
/// plan's own text reveals the rest. Repeats until nothing more follows
/// (an inferred input key can reveal an arity), within a work budget of
/// 2^26 node visits (64 rounds for a plan of 10^6 nodes); what the budget
/// leaves stays unknown. Fails only when an analysis fails.
absl::Status InferPartialFacts(
    Node& plan, const std::map<std::string, int>& global_arity = {});

/// InferPartialFacts over every plan object of `doc`, with `global_arity`
/// the collections' own arities: Gets see them through the document's
/// Source blocks, and a Source block's projection gives the arity Gets see
/// even when the collection's is not given.
absl::Status InferPartialFacts(
    Document& doc, const std::map<std::string, int>& global_arity = {});

}  // namespace lir::interp

#endif  // LIR_INTERP_PARTIAL_INFERENCE_H_
