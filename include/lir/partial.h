// Partial plans: plans read from a syntax that drops facts (the concise
// EXPLAIN text). Every dropped fact is marked on its node
// (include/lir/unknown_facts.def); consumers that need one refuse the plan
// here, naming the node and the fact, instead of reading a placeholder as
// a default. ../shared/reference/CONCISE-FORMAT.md section 11. What a
// partial plan implies is filled in by InferPartialFacts
// (include/lir/interp/partial_inference.h), which needs the analyses.
#ifndef LIR_LIR_PARTIAL_H_
#define LIR_LIR_PARTIAL_H_

#include <string_view>

#include "absl/status/status.h"
#include "lir/document.h"
#include "lir/node.h"

namespace lir {

/// Whether any node under `root` (or any fast-path object of `doc`) lacks
/// a fact.
bool IsPartial(const Node& root);
bool IsPartial(const Document& doc);

/// OK when no node under `root` lacks a fact. Otherwise
/// FailedPrecondition, naming the first such node in pre-order, its fact
/// and `consumer`, and pointing at the verbose syntax:
/// `LirId(4) Reduce::Accumulable: the concise form does not show its
/// val_plan, which <consumer> needs; read the plan from EXPLAIN PHYSICAL
/// PLAN AS VERBOSE TEXT FOR ... instead`.
absl::Status RequireKnownFacts(const Node& root, std::string_view consumer);

/// The same over every object of `doc` (object name in the message), and
/// a fast-path body whose verbose projection is unknown.
absl::Status RequireKnownFacts(const Document& doc, std::string_view consumer);

}  // namespace lir

#endif  // LIR_LIR_PARTIAL_H_
