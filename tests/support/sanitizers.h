// Whether a test binary was built with a sanitizer (ASan, TSan, MSan), for
// the few tests that cannot run under one or that only cost time there.
#ifndef LIR_TESTS_SUPPORT_SANITIZERS_H_
#define LIR_TESTS_SUPPORT_SANITIZERS_H_

namespace lir::test {

/// True under a sanitizer: its allocator reserves far more address space
/// than `ulimit -v` allows, reports an allocation it cannot serve instead
/// of throwing std::bad_alloc, and runs large workloads several times
/// slower.
inline constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
    true;
#else
    false;
#endif
#else
    false;
#endif

}  // namespace lir::test

#endif  // LIR_TESTS_SUPPORT_SANITIZERS_H_
