#!/usr/bin/env bash
# Quick start: install dependencies, build, and explain the bundled example.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

./scripts/setup.sh
./scripts/build.sh
build/tools/lir-opt/lir-opt explain examples/except.plan
# Run it on data with the fused rewrite on: the contents after each round and
# the arrangements the incremental engine maintained.
build/tools/lir-opt/lir-opt run --data=examples/except.data.json \
    --enable_fused_set_difference --arrangement_sizes examples/except.plan
