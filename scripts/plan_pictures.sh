#!/usr/bin/env bash
# Renders the README's pictures of the EXCEPT example before and after the
# fused set-difference rewrite: `lir-opt run --analyze=memory
# --analyze_format=dot` on examples/except.plan with the README's data,
# drawn by Graphviz's dot (Debian's graphviz; scripts/setup.sh installs
# it). Writes docs/plan-except-{off,on}.{dot,png}; tests/cli_test.cc checks that the .dot files are what lir-opt prints now.
#
#   scripts/plan_pictures.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:-build}"
lir_opt="${build}/tools/lir-opt/lir-opt"
if [[ ! -x "${lir_opt}" ]]; then
  echo "plan_pictures.sh: ${lir_opt} is not built" >&2
  exit 1
fi
if ! command -v dot >/dev/null; then
  echo "plan_pictures.sh: dot not found (apt-get install graphviz)" >&2
  exit 1
fi

for side in off on; do
  flags=()
  [[ "${side}" == on ]] && flags=(--enable_fused_set_difference)
  "${lir_opt}" run --data=examples/except.data.json --analyze=memory \
    --analyze_format=dot "${flags[@]}" examples/except.plan \
    > "docs/plan-except-${side}.dot"
  dot -Tpng -Gdpi=80 "docs/plan-except-${side}.dot" \
    -o "docs/plan-except-${side}.png"
  echo "docs/plan-except-${side}.png"
done
