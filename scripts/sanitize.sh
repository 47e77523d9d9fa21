#!/usr/bin/env bash
# The sanitizer part of scripts/test.sh: builds build-asan (clang, ASan +
# UBSan with -fno-sanitize-recover=undefined, libFuzzer targets, no
# benchmarks), runs the whole ctest suite there, then every fuzz target for
# LIR_FUZZ_SECONDS (default 30) on its seed corpus. Exits non-zero on the
# first failure. LIR_SANITIZE_EXCLUDE is a ctest -E regex of tests to leave
# out of the sanitizer run (default: none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="${LIR_FUZZ_BUILD_DIR:-build-asan}"
export LIR_FUZZ_BUILD_DIR="${build}"
start=${SECONDS}
CXX="${LIR_FUZZ_CXX:-clang++}" cmake -S . -B "${build}" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIR_SANITIZE=ON -DLIR_FUZZ=ON \
  -DLIR_BUILD_BENCHMARKS=OFF -DLIR_WERROR="${LIR_WERROR:-OFF}"
cmake --build "${build}" -j "${LIR_BUILD_JOBS:-2}"
built=${SECONDS}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
exclude=()
[[ -n "${LIR_SANITIZE_EXCLUDE:-}" ]] && exclude=(-E "${LIR_SANITIZE_EXCLUDE}")
ctest --test-dir "${build}" --output-on-failure -j "${LIR_BUILD_JOBS:-2}" \
  "${exclude[@]}"
tested=${SECONDS}

# A fixed libFuzzer seed keeps CI's short runs repeatable.
LIR_FUZZ_SEED="${LIR_FUZZ_SEED:-1}" ./scripts/fuzz.sh "${LIR_FUZZ_SECONDS:-30}"
echo "sanitize.sh: build $((built - start))s, ctest $((tested - built))s," \
  "fuzz $((SECONDS - tested))s"
