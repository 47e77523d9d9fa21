// A growable array whose elements never move, for the slot storage of
// arrangement traces.
#ifndef LIR_EVAL_STABLE_VECTOR_H_
#define LIR_EVAL_STABLE_VECTOR_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "src/eval/big_alloc.h"

namespace lir::eval {

/// An array that grows by appending chunks, each twice the size of the one
/// before, instead of reallocating: growing never copies what is stored, so
/// a round that adds a few keys to a large arrangement does not pay to move
/// all of them (a vector's doubling does, in whichever round crosses its
/// capacity), and references to elements stay valid. Element `i` is found
/// with one bit scan. Chunks come from BigAllocator, so the large ones are
/// huge-page mappings, reused by the next StableVector once this one dies.
template <typename T>
class StableVector {
 public:
  StableVector() = default;
  StableVector(const StableVector&) = delete;
  StableVector& operator=(const StableVector&) = delete;
  ~StableVector() {
    for (size_t i = 0; i < size_; ++i) (*this)[i].~T();
    BigAllocator<T, /*kReuse=*/true> alloc;
    for (size_t c = 0; c < chunks_.size(); ++c) {
      alloc.deallocate(chunks_[c], ChunkSize(c));
    }
  }

  /// How many elements it holds.
  size_t size() const { return size_; }

  T& operator[](size_t i) {
    const size_t c = ChunkOf(i);
    return chunks_[c][i + kFirst - (kFirst << c)];
  }
  const T& operator[](size_t i) const {
    const size_t c = ChunkOf(i);
    return chunks_[c][i + kFirst - (kFirst << c)];
  }

  /// Appends a value-initialized element and returns its index.
  size_t EmplaceBack() {
    if (ChunkOf(size_) == chunks_.size()) {
      chunks_.push_back(BigAllocator<T, /*kReuse=*/true>().allocate(
          ChunkSize(chunks_.size())));
    }
    new (&(*this)[size_]) T();
    return size_++;
  }

 private:
  // Chunk c holds elements [kFirst * (2^c - 1), kFirst * (2^(c+1) - 1)).
  static constexpr size_t kFirst = 64;
  static size_t ChunkSize(size_t c) { return kFirst << c; }
  static size_t ChunkOf(size_t i) {
    return static_cast<size_t>(std::bit_width(i / kFirst + 1)) - 1;
  }

  std::vector<T*> chunks_;
  size_t size_ = 0;
};

}  // namespace lir::eval

#endif  // LIR_EVAL_STABLE_VECTOR_H_
