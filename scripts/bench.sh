#!/usr/bin/env bash
# Runs every benchmark and writes docs/BENCHMARKS.md (tables) plus charts in
# docs/ (when gnuplot is available).
#
# Usage: scripts/bench.sh [--quick] [--only=NAME[,NAME...]]
#   --quick  smallest sizes only, tiny min time: seconds, for checking the
#            pipeline; the numbers are noisy. Without it every size runs,
#            which takes many minutes and ~10 GB of memory (explain 10^6).
#   --only   run only these benches (e.g. --only=antijoin_bench) and replace
#            their sections of docs/BENCHMARKS.md (bench-report --update),
#            keeping every other section, the header and the shared charts
#            as they are (a chart a section shows itself, spine_bench's, is
#            redrawn).
# Each bench's Google Benchmark JSON is kept in
# docs/benchmarks-data/bench-<name>.json, the record the report is made from:
# `bench-report --update --out=docs/BENCHMARKS.md
# docs/benchmarks-data/bench-<name>.json` renders a section again without
# rerunning anything.
# Builds Release into build-release/ (separate from the RelWithDebInfo
# ./build, so the numbers are from optimized code). Jobs: LIR_BUILD_JOBS;
# build directory: LIR_BENCH_BUILD_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=0
only=""
for arg in "$@"; do
  case "${arg}" in
    --quick) quick=1 ;;
    --only=*) only="${arg#--only=}" ;;
    *) echo "bench.sh: unknown argument ${arg}" \
         "(usage: bench.sh [--quick] [--only=NAME[,NAME...]])" >&2
       exit 2 ;;
  esac
done

# gnuplot renders the charts; without it the report still has every table.
# Same approach as setup.sh: only touch apt when the package is missing.
# --only leaves the shared charts as they are, so it needs no gnuplot unless
# it runs a bench whose section draws its own chart (spine_bench).
if [[ -z "${only}" || ",${only}," == *,spine_bench,* ]] &&
   ! command -v gnuplot >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" -eq 0 ]]; then
    echo "bench.sh: installing gnuplot-nox for the charts" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update && apt-get install -y --no-install-recommends gnuplot-nox; } ||
      echo "bench.sh: gnuplot-nox install failed; charts skipped" >&2
  else
    echo "bench.sh: gnuplot not found; charts skipped" >&2
  fi
fi

build="${LIR_BENCH_BUILD_DIR:-build-release}"
cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release
# The A/B benches first: their timings are the headline, so they run before
# the 10 GB library runs have churned the machine's memory.
benches=(eval_bench antijoin_bench spine_plan_bench spine_bench explain_bench recognizer_bench analysis_bench)
if [[ -n "${only}" ]]; then
  IFS=, read -r -a selected <<< "${only}"
  for name in "${selected[@]}"; do
    if [[ ! " ${benches[*]} " =~ " ${name} " ]]; then
      echo "bench.sh: unknown bench ${name} (one of: ${benches[*]})" >&2
      exit 2
    fi
  done
  benches=("${selected[@]}")
fi
cmake --build "${build}" -j "${LIR_BUILD_JOBS:-2}" --target bench-report "${benches[@]}"

# --quick filters: the two smallest generated sizes (two, so the ns/node
# chart has lines), the A/B benches' smaller size (keys, rows). Names: see each bench's
# header comment.
declare -A quick_filter=(
  [explain_bench]='/(1000|10000)$'
  [recognizer_bench]='/(1000|10000)$'
  [analysis_bench]='/(mixed/(1000|10000)|letrec/20)$'
  [eval_bench]='/keys:100000/'
  [antijoin_bench]='/rows:100000/'
  [spine_plan_bench]='/keys:10000/'
  [spine_bench]='^BM_Spine(Cell/.*/B:16384/k:(0|256)/E:(0|10)|Real/.*/N:65536/B:1024)/'
)

# Repetitions, for min and median: the A/B's timings are what the report
# compares, and the first run in a process pays for fresh memory.
declare -A repetitions=([eval_bench]=5 [antijoin_bench]=5)

outputs=()
for name in "${benches[@]}"; do
  out="${build}/bench-${name}.json"
  args=(--benchmark_format=json "--benchmark_out=${out}")
  reps="${repetitions[${name}]:-1}"
  if [[ "${quick}" -eq 1 ]]; then
    args+=("--benchmark_filter=${quick_filter[${name}]}" --benchmark_min_time=0.01)
    reps=$(( reps > 2 ? 2 : reps ))
  fi
  args+=("--benchmark_repetitions=${reps}")
  echo "bench.sh: running ${name}" >&2
  # The console table is dropped: the JSON file is the record.
  "${build}/bench/${name}" "${args[@]}" >/dev/null
  outputs+=("${out}")
done

# The JSON the report is made from is kept beside the chart data.
mkdir -p docs/benchmarks-data
records=()
for out in "${outputs[@]}"; do
  record="docs/benchmarks-data/$(basename "${out}")"
  cp "${out}" "${record}"
  records+=("${record}")
done

if [[ -n "${only}" ]]; then
  # --charts draws only the charts a section shows itself (spine_bench's).
  "${build}/tools/bench-report/bench-report" --update --out=docs/BENCHMARKS.md \
    --charts=docs/ "${records[@]}"
  exit 0
fi

# Keep the before/after block scripts/bench_compare.sh wrote (it compares
# two commits, which this script does not rebuild).
# Likewise the peak-memory block bench/peak_rss.py --update wrote (it runs
# lir-opt on generated files, not Google Benchmark).
# Likewise the EXCEPT before/after block scripts/except_ab.sh wrote.
compare_block=""
rss_block=""
ab_block=""
if [[ -f docs/BENCHMARKS.md ]]; then
  compare_block="$(sed -n '/<!-- bench-compare:begin -->/,/<!-- bench-compare:end -->/p' docs/BENCHMARKS.md)"
  rss_block="$(sed -n '/<!-- peak-rss:begin -->/,/<!-- peak-rss:end -->/p' docs/BENCHMARKS.md)"
  ab_block="$(sed -n '/<!-- except-ab:begin -->/,/<!-- except-ab:end -->/p' docs/BENCHMARKS.md)"
fi
"${build}/tools/bench-report/bench-report" --out=docs/BENCHMARKS.md \
  --charts=docs/ "${records[@]}"
if [[ -n "${compare_block}" ]]; then
  printf '\n%s\n' "${compare_block}" >> docs/BENCHMARKS.md
fi
if [[ -n "${rss_block}" ]]; then
  printf '\n%s\n' "${rss_block}" >> docs/BENCHMARKS.md
fi
if [[ -n "${ab_block}" ]]; then
  printf '\n%s\n' "${ab_block}" >> docs/BENCHMARKS.md
fi
