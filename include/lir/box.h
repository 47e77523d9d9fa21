// A value-semantic box: one heap-allocated T that copies deeply, compares by
// value and moves in O(1). Node payloads larger than a few words live in a
// Box so that every plan node stays small (node.h), whatever a payload
// grows to.
#ifndef LIR_LIR_BOX_H_
#define LIR_LIR_BOX_H_

#include <memory>
#include <utility>

namespace lir {

/// Owns exactly one T (never null, except after being moved from, when the
/// only valid operations are assignment and destruction).
template <typename T>
class Box {
 public:
  /// A boxed value-initialized T.
  Box() : value_(std::make_unique<T>()) {}
  /// Boxes `value`. Implicit, so a payload converts to its stored form
  /// wherever a NodeOp is expected.
  Box(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT
  /// A deep copy.
  Box(const Box& other) : value_(std::make_unique<T>(*other.value_)) {}
  Box(Box&&) noexcept = default;
  /// Replaces the value with a deep copy of `other`'s.
  Box& operator=(const Box& other) {
    if (this != &other) value_ = std::make_unique<T>(*other.value_);
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  ~Box() = default;

  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

  /// Equal when the boxed values are.
  friend bool operator==(const Box& a, const Box& b) {
    return *a.value_ == *b.value_;
  }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace lir

#endif  // LIR_LIR_BOX_H_
