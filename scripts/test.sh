#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure -j2
