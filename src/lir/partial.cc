// Partial plans: naming the facts a node lacks, and refusing them.
#include "lir/partial.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "lir/unknown_facts.h"
#include "src/lir/string_view_compat.h"

namespace lir {

std::string_view UnknownFactDescription(UnknownFact fact) {
  switch (fact) {
#define LIR_UNKNOWN_FACT(Name, Description) \
  case UnknownFact::k##Name:                \
    return Description;
#include "lir/unknown_facts.def"
  }
  return "fact";
}

std::string_view UnknownFactName(UnknownFact fact) {
  switch (fact) {
// clang-format 14 folds the #include into this one-line case's macro.
// clang-format off
#define LIR_UNKNOWN_FACT(Name, Description) \
  case UnknownFact::k##Name:                \
    return #Name;
#include "lir/unknown_facts.def"
    // clang-format on
  }
  return "Fact";
}

namespace {

const Node* FirstPartialNode(const Node& root) {
  const Node* found = nullptr;
  ForEachPreOrder(root, [&](const Node& node, int) {
    if (found == nullptr && !node.unknown.empty()) found = &node;
  });
  return found;
}

absl::Status Refuse(std::string_view where, std::string_view what,
                    std::string_view consumer) {
  return absl::FailedPreconditionError(absl::StrCat(
      ToAbsl(where), ": the concise form does not show ", ToAbsl(what),
      ", which ", ToAbsl(consumer),
      " needs; read the plan from EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR "
      "... instead"));
}

// What a fast-path body lacks, or null.
const char* FastPathGap(const FastPath& fast_path) {
  if (fast_path.unknown.Has(UnknownFact::kConstantRows)) {
    return "the fast path's constant rows";
  }
  if (fast_path.project_is_input_identity == true &&
      !fast_path.project.has_value() && !fast_path.map.empty()) {
    return "the fast path's input arity";
  }
  return nullptr;
}

}  // namespace

bool IsPartial(const Node& root) { return FirstPartialNode(root) != nullptr; }

bool IsPartial(const Document& doc) {
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr && IsPartial(*object.plan)) return true;
    if (object.fast_path.has_value() &&
        FastPathGap(*object.fast_path) != nullptr) {
      return true;
    }
  }
  return false;
}

absl::Status RequireKnownFacts(const Node& root, std::string_view consumer) {
  const Node* node = FirstPartialNode(root);
  if (node == nullptr) return absl::OkStatus();
  const UnknownFact fact = node->unknown.First();
  return Refuse(absl::StrCat("LirId(", node->id, ") ", HeaderName(*node)),
                absl::StrCat("its ", ToAbsl(UnknownFactDescription(fact))),
                consumer);
}

absl::Status RequireKnownFacts(const Document& doc, std::string_view consumer) {
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr) {
      absl::Status status = RequireKnownFacts(*object.plan, consumer);
      if (!status.ok()) {
        return absl::FailedPreconditionError(
            absl::StrCat(object.name, ": ", status.message()));
      }
    }
    if (object.fast_path.has_value()) {
      if (const char* gap = FastPathGap(*object.fast_path)) {
        return Refuse(object.name, gap, consumer);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace lir
