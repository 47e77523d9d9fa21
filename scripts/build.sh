#!/usr/bin/env bash
# Configures and builds lir (with tests, benchmarks and lir-opt) in ./build.
# Shared by quickstart.sh and test.sh. Two parallel jobs keep memory and CI
# time in check on small machines; override with LIR_BUILD_JOBS.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# LIR_WERROR=ON (set by .ci/run) makes every warning an error.
cmake -S . -B build -G Ninja -DLIR_WERROR="${LIR_WERROR:-OFF}"
cmake --build build -j "${LIR_BUILD_JOBS:-2}"
