// Huge-page mappings for BigAllocator.
#include "src/eval/big_alloc.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lir::eval::big_alloc_internal {

#if defined(__linux__) && defined(MADV_HUGEPAGE)

bool HugeMappingAvailable() { return true; }

namespace {

/// Blocks freed for reuse, by their mapped size. Sizes repeat (a trace's
/// slot chunks double from a fixed first size; hash tables grow by powers
/// of two), so a block is reused only at its own size: handing out a larger
/// one would lose its tail when it is freed at the smaller size.
struct BlockCache {
  std::mutex mu;
  std::unordered_multimap<size_t, void*> blocks;
  BlockCacheStats stats;
};

BlockCache& Cache() {
  static BlockCache* const cache = new BlockCache;  // never destroyed
  return *cache;
}

size_t MappedSize(size_t bytes) {
  return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
}

}  // namespace

BlockCacheStats GetBlockCacheStats() {
  BlockCache& cache = Cache();
  std::lock_guard<std::mutex> lock(cache.mu);
  return cache.stats;
}

void* MapHuge(size_t bytes, bool reuse) {
  const size_t size = MappedSize(bytes);
  if (reuse) {
    BlockCache& cache = Cache();
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.blocks.find(size);
    if (it != cache.blocks.end()) {
      void* block = it->second;
      cache.blocks.erase(it);
      cache.stats.cached_bytes -= size;
      ++cache.stats.reused;
      return block;
    }
  }
  {
    BlockCache& cache = Cache();
    std::lock_guard<std::mutex> lock(cache.mu);
    ++cache.stats.mapped;
  }
  // Over-map by one huge page to cut an aligned block out of it: the kernel
  // backs only aligned 2 MiB ranges with huge pages.
  const size_t mapped = size + kHugePageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned =
      (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + mapped;
  if (end > aligned + size) {
    munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  }
  void* block = reinterpret_cast<void*>(aligned);
  // Only a hint: without huge pages the block works the same.
  madvise(block, size, MADV_HUGEPAGE);
  return block;
}

void UnmapHuge(void* block, size_t bytes, bool reuse) {
  const size_t size = MappedSize(bytes);
  if (reuse) {
    BlockCache& cache = Cache();
    std::lock_guard<std::mutex> lock(cache.mu);
    if (cache.stats.cached_bytes + size <= kCachedBytesLimit) {
      cache.blocks.emplace(size, block);
      cache.stats.cached_bytes += size;
      return;
    }
  }
  munmap(block, size);
}

#else

bool HugeMappingAvailable() { return false; }
void* MapHuge(size_t, bool) { return nullptr; }
void UnmapHuge(void*, size_t, bool) {}
BlockCacheStats GetBlockCacheStats() { return {}; }

#endif

}  // namespace lir::eval::big_alloc_internal
