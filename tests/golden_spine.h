// The `spine` command of the golden tests: runs the synthetic workload of
// ../shared/reference/SPINE.md section 6 (include/lir/eval/spine_workload.h)
// and prints what `lir-opt spine` prints.
#ifndef LIR_TESTS_GOLDEN_SPINE_H_
#define LIR_TESTS_GOLDEN_SPINE_H_

#include <functional>
#include <string>

namespace lir::test {

/// Reads a directive argument: the value of `key`, or `fallback`.
using ArgFn =
    std::function<std::string(const std::string& key, const std::string&)>;

/// `spine [policy=...] [exertion=stock|funded] [snapshot=N] [batches=n]
/// [batch_size=B] [idle_turns=k] [empty_batches=E] [close=true]
/// [trace=true] [format=text|json]`, with `lir-opt spine`'s defaults; the
/// input must be empty. Returns the output, or `error: ...`.
std::string RunSpineGolden(const std::string& input, const ArgFn& arg);

}  // namespace lir::test

#endif  // LIR_TESTS_GOLDEN_SPINE_H_
