#!/usr/bin/env bash
# Quick start: install dependencies, build, and explain the bundled example.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
./scripts/build.sh
build/tools/lir-opt/lir-opt explain examples/except.plan
