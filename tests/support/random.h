// Seeded randomness for the plan generators. Both classes draw from
// std::mt19937_64 through their own integer arithmetic, never through the
// standard library's distributions (which differ between platforms), so a
// seed means the same plan everywhere. They differ only in how they map a
// draw, and each generator's sequence of plans per seed depends on that
// mapping, so both are kept rather than one rewritten into the other.
#ifndef LIR_TESTS_SUPPORT_RANDOM_H_
#define LIR_TESTS_SUPPORT_RANDOM_H_

#include <cstdint>
#include <cstdlib>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"

namespace lir::test {

/// The unsigned integer in the environment variable `name` (a property
/// test's seed count or first seed, so a run can be widened or replayed),
/// or `fallback` when it is unset or not a number.
inline uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  uint64_t parsed = 0;
  if (value != nullptr && absl::SimpleAtoi(value, &parsed)) return parsed;
  return fallback;
}

/// Probabilities as doubles and inclusive ranges: the node-tree generator
/// (plan_generator.h) and the recognizer's property test.
class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  /// One raw draw.
  uint64_t Next() { return engine_(); }
  /// Uniform in [lo, hi]; requires lo <= hi.
  int64_t Range(int64_t lo, int64_t hi) {
    return lo +
           static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  /// Range() for ints.
  int Int(int lo, int hi) { return static_cast<int>(Range(lo, hi)); }
  /// Uniform in [0, 1).
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  /// True with probability `p`.
  bool Chance(double p) { return Unit() < p; }
  /// Fisher-Yates, one draw per position.
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i > 1; --i) {
      std::swap(items[i - 1], items[Next() % i]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

/// Percentages and half-open ranges: the text generators (eval_case_gen.h,
/// eval_plan_fuzz_gen.h).
class Dice {
 public:
  explicit Dice(uint64_t seed) : engine_(seed) {}
  /// One raw draw.
  uint64_t Next() { return engine_(); }
  /// Uniform in [0, n); no draw at all when n <= 1.
  int Below(int n) {
    return n <= 1 ? 0 : static_cast<int>(engine_() % static_cast<uint64_t>(n));
  }
  /// True with probability `percent`/100.
  bool Chance(int percent) { return Below(100) < percent; }
  /// A uniformly chosen element of the non-empty `items`.
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(static_cast<int>(items.size()))];
  }
  /// Fisher-Yates, one draw per position.
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    for (int i = static_cast<int>(items.size()) - 1; i > 0; --i) {
      std::swap(items[i], items[Below(i + 1)]);
    }
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_RANDOM_H_
