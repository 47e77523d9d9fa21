// Huge-page mappings for BigAllocator.
#include "src/eval/big_alloc.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lir::eval::big_alloc_internal {

#if defined(__linux__) && defined(MADV_HUGEPAGE)

bool HugeMappingAvailable() { return true; }

void* MapHuge(size_t bytes) {
  const size_t size = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
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

void UnmapHuge(void* block, size_t bytes) {
  const size_t size = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  munmap(block, size);
}

#else

bool HugeMappingAvailable() { return false; }
void* MapHuge(size_t) { return nullptr; }
void UnmapHuge(void*, size_t) {}

#endif

}  // namespace lir::eval::big_alloc_internal
