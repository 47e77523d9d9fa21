#!/usr/bin/env bash
# Before/after comparison of plan-scale costs between two commits, in one
# run on one machine: node size, traversal, text parse and the analyses on
# generated 10^5- and 10^6-node plans (ns per node and peak RSS).
#
# Usage: scripts/bench_compare.sh BEFORE_REF [AFTER_REF]
#   AFTER_REF defaults to the working tree. Each ref is built (Release) in a
#   temporary worktree; every workload runs in its own process, alternating
#   before and after, so the peak RSS is the workload's own and both sides
#   see the same machine state. The summary replaces the block between the
#   `bench-compare` markers in docs/BENCHMARKS.md (scripts/bench.sh keeps
#   that block when it regenerates the rest).
# Needs ~12 GB of memory for the 10^6-node text parse.
# Environment: LIR_COMPARE_DIR (work directory; keep it under the ccache
# base_dir to reuse objects), LIR_COMPARE_BUILD_TYPE (default Release),
# LIR_COMPARE_BUILD_ONLY=1 (build both sides and stop),
# LIR_COMPARE_BEFORE_BUILD=DIR / LIR_COMPARE_AFTER_BUILD=DIR (use the
# benchmarks already built in DIR for that side, e.g. a CI checkout's
# build/, instead of building them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: scripts/bench_compare.sh BEFORE_REF [AFTER_REF]" >&2
  exit 2
fi
before_ref="$1"
after_ref="${2:-}"
work="${LIR_COMPARE_DIR:-/tmp/lir-bench-compare}"
mkdir -p "${work}"
jobs="${LIR_BUILD_JOBS:-2}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# build_side NAME REF: a Release build of the two benchmarks at REF (the
# working tree when REF is empty) in ${work}/NAME.
build_side() {
  local name="$1" ref="$2" src
  if [[ -z "${ref}" ]]; then
    src="${root}"
  else
    src="${work}/${name}-src"
    git worktree remove --force "${src}" 2>/dev/null || rm -rf "${src}"
    git worktree add --detach "${src}" "${ref}" >/dev/null
  fi
  # The build sits inside the source tree, as ./build does, so ccache can
  # reuse objects compiled by other checkouts (same relative paths).
  ln -sfn "${src}/build-compare" "${work}/${name}"
  cmake -S "${src}" -B "${src}/build-compare" -G Ninja \
    -DCMAKE_BUILD_TYPE="${LIR_COMPARE_BUILD_TYPE:-Release}" \
    -DLIR_BUILD_TESTS=OFF -DLIR_BUILD_TOOLS=OFF "${launcher[@]}" >/dev/null
  cmake --build "${src}/build-compare" -j "${jobs}" --target analysis_bench explain_bench
}

if [[ -n "${LIR_COMPARE_BEFORE_BUILD:-}" ]]; then
  ln -sfn "${LIR_COMPARE_BEFORE_BUILD}" "${work}/before"
else
  build_side before "${before_ref}"
fi
if [[ -n "${LIR_COMPARE_AFTER_BUILD:-}" ]]; then
  ln -sfn "${LIR_COMPARE_AFTER_BUILD}" "${work}/after"
else
  build_side after "${after_ref}"
fi
if [[ "${LIR_COMPARE_BUILD_ONLY:-0}" == 1 ]]; then
  exit 0
fi

# bench|filter: one process each. Names are those of the benchmarks'
# registration (see each bench's header comment).
workloads=(
  "analysis_bench|^traverse/mixed/100000$"
  "analysis_bench|^(arity|monotonic|arrangements|document_all_five)/mixed/100000$"
  "explain_bench|^TextParse/100000$"
  "analysis_bench|^traverse/mixed/1000000$"
  "analysis_bench|^(arity|monotonic|arrangements|document_all_five)/mixed/1000000$"
  "explain_bench|^TextParse/1000000$"
)
outputs=()
i=0
for entry in "${workloads[@]}"; do
  bench="${entry%%|*}"
  filter="${entry#*|}"
  for side in before after; do
    out="${work}/${side}-${i}.json"
    echo "bench_compare: ${side} ${bench} ${filter}" >&2
    MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=100000000000 \
      "${work}/${side}/bench/${bench}" "--benchmark_filter=${filter}" \
      --benchmark_repetitions=3 --benchmark_report_aggregates_only=false \
      --benchmark_format=json "--benchmark_out=${out}" >/dev/null
    outputs+=("${side}=${out}")
  done
  i=$((i + 1))
done

label_before="$(git rev-parse --short "${before_ref}")"
label_after="working tree"
[[ -n "${after_ref}" ]] && label_after="$(git rev-parse --short "${after_ref}")"
python3 scripts/bench_compare.py --before-label "${label_before}" \
  --after-label "${label_after}" --build-type "${LIR_COMPARE_BUILD_TYPE:-Release}" \
  --markdown docs/BENCHMARKS.md "${outputs[@]}"
