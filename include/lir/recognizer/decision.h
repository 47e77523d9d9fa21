// What a rewrite pass says about one candidate: it fires (with what the
// rewrite needs), or it declines with a stable code and a message.
//
// A decline is data, not an error (MLIR's `notifyMatchFailure`): the report
// shows it, and a pass's decision function returns one per bail-out, in the
// order its checks run (DuckDB's `CanOptimize`).
//
// Each pass declares its decline codes once, as an X-macro list
// `X(enumerator, "stable_code")`, from which LIR_DECLARE_DECLINES derives an
// enum, its name table and `DeclineName(code)`. The pass, the tests and the
// plan generators all use that table, so a code's spelling lives in one place
// (the strings are the contract of ../shared/reference/SEMANTICS.md).
#ifndef LIR_RECOGNIZER_DECISION_H_
#define LIR_RECOGNIZER_DECISION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "nlohmann/json.hpp"

namespace lir {

/// One row of a pass's decline-code name table.
template <typename Code>
struct DeclineEntry {
  Code code;
  std::string_view name;  ///< the stable code in reports: "not_co_arranged"
};

// Internal to LIR_DECLARE_DECLINES.
#define LIR_DECLINE_ENUMERATOR_(enumerator, name) enumerator,
#define LIR_DECLINE_ENTRY_(enumerator, name) {Enum_::enumerator, name},

/// Declares `enum class Enum`, `kAll<Enum>` (every code with its name, in
/// declaration order: the name table) and `DeclineName(Enum)`, all from the
/// X-macro list `LIST`, so the enum and its names cannot disagree.
#define LIR_DECLARE_DECLINES(Enum, LIST)                                       \
  enum class Enum : uint8_t { LIST(LIR_DECLINE_ENUMERATOR_) };                 \
  namespace Enum##_internal {                                                  \
    using Enum_ = Enum;                                                        \
    inline constexpr DeclineEntry<Enum> kTable[] = {LIST(LIR_DECLINE_ENTRY_)}; \
  }                                                                            \
  /** Every code of Enum with its stable name, in declaration order. */        \
  inline constexpr const auto& kAll##Enum##s = Enum##_internal::kTable;        \
  /** The stable name of `code` in reports. */                                 \
  constexpr std::string_view DeclineName(Enum code) {                          \
    return Enum##_internal::kTable[static_cast<size_t>(code)].name;            \
  }

/// A pass's verdict on one candidate. `Fire` is what the pass's rewrite
/// needs (keys, which arm is negated, ...); `Code` is its decline enum.
template <typename Code, typename Fire>
struct Decision {
  /// Set exactly when the candidate fires.
  std::optional<Fire> fire;
  /// Why it does not fire (meaningless when it fires).
  Code code{};
  /// For per-arm codes, the arm ("base", "subtract"); else empty.
  std::string arm;
  /// Human-readable detail of the decline; prefixed `<arm> arm: ` when
  /// `arm` is set.
  std::string message;
  /// What a decline reports beside its code (a JSON object merged into the
  /// `--report` record), or null.
  nlohmann::json details;

  /// Whether the rewrite applies.
  bool fires() const { return fire.has_value(); }

  /// A firing decision carrying what the rewrite needs.
  static Decision Fires(Fire plan) {
    Decision d;
    d.fire = std::move(plan);
    return d;
  }

  /// A decline; an `arm` is named in the message as well, so the text
  /// report is self-contained.
  static Decision Declines(Code code, std::string message,
                           std::string_view arm = "") {
    Decision d;
    d.code = code;
    d.arm = std::string(arm);
    d.message = arm.empty() ? std::move(message)
                            : std::string(arm) + " arm: " + message;
    return d;
  }
};

}  // namespace lir

#endif  // LIR_RECOGNIZER_DECISION_H_
