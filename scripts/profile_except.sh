#!/usr/bin/env bash
# Profiles only the timed part of one iteration of bench/eval_bench's EXCEPT
# A/B (b one round after a, eager compaction; docs/BENCHMARKS.md): the
# benchmark stops itself right before and right after the timed part
# (LIR_BENCH_STOP_BEFORE_TIMED=1), and perf records in between.
#
#   scripts/profile_except.sh BUILD_DIR Load|Retract FUSED(0|1) [KEYS] [OUT]
#
# Writes OUT (default /tmp/except-<phase>-fused<F>.perf.data) and prints the
# top of `perf report --no-children`.
set -euo pipefail
build=${1:?build dir}
phase=${2:?phase Load or Retract}
fused=${3:?fused 0 or 1}
keys=${4:-1000000}
out=${5:-/tmp/except-${phase}-fused${fused}.perf.data}
bench="$build/bench/eval_bench"
filter="BM_Except${phase}/keys:${keys}/fused:${fused}/sched:1/eager:1/"
LIR_BENCH_STOP_BEFORE_TIMED=1 "$bench" --benchmark_filter="$filter" \
  --benchmark_min_time=0.001 >/dev/null &
pid=$!
# Wait until the benchmark has stopped itself before the timed part.
until [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" == T ]]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "eval_bench exited before stopping" >&2
    exit 1
  fi
  sleep 0.05
done
perf record -q --call-graph dwarf,16384 -F 2999 -o "$out" -p "$pid" &
perf_pid=$!
sleep 1  # let perf attach
kill -CONT "$pid"
# The benchmark stops again right after it: stop perf, then the benchmark.
sleep 0.05
while kill -0 "$pid" 2>/dev/null; do
  if [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" == T ]]; then
    kill -INT "$perf_pid"
    kill -KILL "$pid"
    break
  fi
  sleep 0.02
done
wait "$perf_pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
perf report -i "$out" --no-children --percent-limit 1.5 --stdio 2>/dev/null |
  grep -v '^$' | head -60
