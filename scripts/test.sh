#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test; then the sanitizer
# and fuzz build (scripts/sanitize.sh) unless LIR_SKIP_SANITIZERS=1.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure -j2

# Then the same suite under ASan + UBSan, and every fuzz target for 30 s
# (scripts/sanitize.sh). LIR_SKIP_SANITIZERS=1 stops after the normal part.
if [[ "${LIR_SKIP_SANITIZERS:-0}" != 1 ]]; then
  ./scripts/sanitize.sh
fi
