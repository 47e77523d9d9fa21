// An allocator for the large arrays of arrangement traces (slot storage and
// key indexes, often hundreds of megabytes): large blocks are mapped on their
// own and offered to the kernel as transparent huge pages, so filling them
// takes one page fault per 2 MiB instead of one per 4 KiB and their lookups
// miss the TLB less; freed ones are cached for reuse. Small blocks, and
// platforms without madvise, use std::allocator.
#ifndef LIR_EVAL_BIG_ALLOC_H_
#define LIR_EVAL_BIG_ALLOC_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace lir::eval {

namespace big_alloc_internal {

/// Blocks of at least this many bytes are mapped as huge pages.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// A block of `bytes` (>= kHugePageBytes) aligned to kHugePageBytes, or null
/// when the platform cannot map one (the caller then falls back). `reuse`:
/// a cached block of that size may serve.
void* MapHuge(size_t bytes, bool reuse);
/// Releases a block of `bytes` from MapHuge. `reuse`: into the block cache
/// while it holds less than kCachedBytesLimit, else back to the kernel.
void UnmapHuge(void* block, size_t bytes, bool reuse);
/// Whether MapHuge can serve blocks on this platform.
bool HugeMappingAvailable();

/// Blocks freed with `reuse` are kept, up to this many bytes, for MapHuge
/// to hand out again: a new mapping costs a page fault and the zeroing of
/// every page touched (on a virtual machine, most of the CPU time of
/// loading a large arrangement), and a process that maintains dataflows
/// builds and drops arrangements of the same sizes again and again
/// (docs/BENCHMARKS.md). Only storage freed when its owner dies is reused
/// (a trace's slot chunks, BigAllocator<T, true>): a hash table that grows
/// frees its old table while the new one lives, and caching those would
/// keep a growing table's whole history resident.
inline constexpr size_t kCachedBytesLimit = size_t{1} << 30;

/// What the block cache did since the process started.
struct BlockCacheStats {
  uint64_t mapped = 0;      ///< blocks mapped from the kernel
  uint64_t reused = 0;      ///< blocks handed out again from the cache
  size_t cached_bytes = 0;  ///< bytes held in the cache now
};
BlockCacheStats GetBlockCacheStats();

}  // namespace big_alloc_internal

/// std::allocator, except that blocks of 2 MiB or more are huge-page
/// mappings (see the file comment), reused through the block cache when
/// `kReuse`. Stateless: all instances are equal.
template <typename T, bool kReuse = false>
class BigAllocator {
 public:
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = BigAllocator<U, kReuse>;
  };

  BigAllocator() = default;
  template <typename U>
  BigAllocator(const BigAllocator<U, kReuse>&) {}  // NOLINT: rebinding

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (UseHuge(bytes)) {
      if (void* p = big_alloc_internal::MapHuge(bytes, kReuse)) {
        return static_cast<T*>(p);
      }
      throw std::bad_alloc();  // as std::allocator does when memory runs out
    }
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (UseHuge(bytes)) {
      big_alloc_internal::UnmapHuge(p, bytes, kReuse);
    } else {
      std::allocator<T>().deallocate(p, n);
    }
  }

  friend bool operator==(const BigAllocator&, const BigAllocator&) {
    return true;
  }

 private:
  // The same answer for a block's allocation and deallocation.
  static bool UseHuge(size_t bytes) {
    return bytes >= big_alloc_internal::kHugePageBytes &&
           alignof(T) <= big_alloc_internal::kHugePageBytes &&
           big_alloc_internal::HugeMappingAvailable();
  }
};

}  // namespace lir::eval

#endif  // LIR_EVAL_BIG_ALLOC_H_
