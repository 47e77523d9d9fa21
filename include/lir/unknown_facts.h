// The facts a node of a partial plan lacks (include/lir/unknown_facts.def).
#ifndef LIR_LIR_UNKNOWN_FACTS_H_
#define LIR_LIR_UNKNOWN_FACTS_H_

#include <cstdint>
#include <string_view>

namespace lir {

/// A fact a plan node may lack because the text it was read from does not
/// show it (../shared/reference/CONCISE-FORMAT.md section 9).
enum class UnknownFact : uint8_t {
#define LIR_UNKNOWN_FACT(Name, Description) k##Name,
#include "lir/unknown_facts.def"
};

/// The number of UnknownFact values.
inline constexpr int kUnknownFactCount = 0
#define LIR_UNKNOWN_FACT(Name, Description) +1
#include "lir/unknown_facts.def"
    ;

/// What `fact` names, for messages: "rows and diffs", "val_plan", ...
std::string_view UnknownFactDescription(UnknownFact fact);

/// The short name of `fact`: "ConstantRows", "ValPlan", ...
std::string_view UnknownFactName(UnknownFact fact);

/// A set of unknown facts; empty for every node of a complete plan (read
/// from verbose text or JSON, or built).
class UnknownFacts {
 public:
  bool empty() const { return bits_ == 0; }
  bool Has(UnknownFact fact) const { return (bits_ & Bit(fact)) != 0; }
  void Add(UnknownFact fact) { bits_ |= Bit(fact); }
  void Remove(UnknownFact fact) { bits_ &= ~Bit(fact); }
  void AddAll(UnknownFacts other) { bits_ |= other.bits_; }
  /// The first fact in declaration order (the set must not be empty).
  UnknownFact First() const {
    for (int i = 0; i < kUnknownFactCount; ++i) {
      if ((bits_ & (1u << i)) != 0) return static_cast<UnknownFact>(i);
    }
    return UnknownFact{};
  }
  /// Calls `fn(fact)` for each fact in the set, in declaration order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (int i = 0; i < kUnknownFactCount; ++i) {
      if ((bits_ & (1u << i)) != 0) fn(static_cast<UnknownFact>(i));
    }
  }
  friend bool operator==(const UnknownFacts&, const UnknownFacts&) = default;

 private:
  static uint32_t Bit(UnknownFact fact) { return 1u << static_cast<int>(fact); }
  uint32_t bits_ = 0;
};

static_assert(kUnknownFactCount <= 32, "UnknownFacts holds 32 bits");

}  // namespace lir

#endif  // LIR_LIR_UNKNOWN_FACTS_H_
