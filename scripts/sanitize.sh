#!/usr/bin/env bash
# The sanitizer part of scripts/test.sh, in three steps (all three, in order,
# when none is named):
#
#   scripts/sanitize.sh [configure] [build] [test] [fuzz]
#
#   configure  build-asan: clang, ASan + UBSan with -fno-sanitize-recover=
#              undefined, the libFuzzer targets; no benchmarks, no
#              bench-report, no public-header check (both are properties of
#              the sources that the normal build checks). -O1 with line
#              tables only: enough for ASan's symbolized reports, a fraction
#              of full debug info's compile time. Coverage instrumentation
#              only on what the fuzz targets link (LIR_FUZZ_INSTRUMENT).
#   build      configure if needed, then build (libraries, lir-opt, the test
#              binaries, the fuzz targets and their seeds).
#   test       the ctest suite there: every unit, golden and CLI test and
#              every fuzz seed once; the PostgreSQL oracle and the install
#              check run in the normal build only.
#   fuzz       every fuzz target for LIR_FUZZ_SECONDS (default 30) on its
#              seed corpus (scripts/fuzz.sh), with a fixed libFuzzer seed.
#
# Exits non-zero on the first failure. LIR_SANITIZE_EXCLUDE is a ctest -E
# regex of tests to leave out of the sanitizer run (default: none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build="${LIR_FUZZ_BUILD_DIR:-build-asan}"
export LIR_FUZZ_BUILD_DIR="${build}"
jobs="${LIR_BUILD_JOBS:-2}"

configure() {
  CXX="${LIR_FUZZ_CXX:-clang++}" cmake -S . -B "${build}" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
    -DLIR_SANITIZE=ON -DLIR_FUZZ=ON -DLIR_BUILD_BENCHMARKS=OFF \
    -DLIR_HEADER_CHECK=OFF -DLIR_WERROR="${LIR_WERROR:-OFF}"
}

build_step() {
  configure
  cmake --build "${build}" -j "${jobs}"
}

test_step() {
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
  local exclude=()
  [[ -n "${LIR_SANITIZE_EXCLUDE:-}" ]] && exclude=(-E "${LIR_SANITIZE_EXCLUDE}")
  ctest --test-dir "${build}" --output-on-failure -j "${jobs}" "${exclude[@]}"
}

fuzz_step() {
  # A fixed libFuzzer seed keeps CI's short runs repeatable.
  LIR_FUZZ_SEED="${LIR_FUZZ_SEED:-1}" ./scripts/fuzz.sh "${LIR_FUZZ_SECONDS:-30}"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(build test fuzz)
for step in "${steps[@]}"; do
  case "${step}" in
    configure) configure ;;
    build) build_step ;;
    test) test_step ;;
    fuzz) fuzz_step ;;
    *)
      echo "usage: scripts/sanitize.sh [configure] [build] [test] [fuzz]" >&2
      exit 2
      ;;
  esac
done
