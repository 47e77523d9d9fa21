#!/usr/bin/env bash
# Configures and builds lir (with tests, benchmarks and lir-opt) in ./build.
# Shared by quickstart.sh and test.sh. Two parallel jobs keep memory and CI
# time in check on small machines; override with LIR_BUILD_JOBS.
#
# The build type is RelWithDebInfo (-O2 -g). LIR_DEBUG_INFO=0 (set by
# .ci/run) keeps -O2 but drops -g: debug info is most of what a test binary
# weighs and a large part of the compile and link time, and CI only runs the
# binaries. Every run passes the flags, so a developer's build gets its debug
# info back with the next plain build.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

flags="-O2 -g -DNDEBUG"
[[ "${LIR_DEBUG_INFO:-1}" == 0 ]] && flags="-O2 -DNDEBUG"
# LIR_WERROR=ON (set by .ci/run) makes every warning an error.
cmake -S . -B build -G Ninja -DLIR_WERROR="${LIR_WERROR:-OFF}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${flags}"
cmake --build build -j "${LIR_BUILD_JOBS:-2}"
