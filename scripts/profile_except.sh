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
filter="BM_Except${phase}/keys:${keys}/fused:${fused}/sched:${SCHED:-1}/eager:1/"
# WARM=1: one untimed-by-perf repetition first, so the profiled one runs as
# a long-lived process would, with memory freed by the first (the block
# cache of src/eval/big_alloc.h) instead of fresh pages.
warm=${WARM:-0}
LIR_BENCH_STOP_BEFORE_TIMED=1 "$bench" --benchmark_filter="$filter" \
  --benchmark_min_time=0.001 --benchmark_repetitions=$((1 + warm)) \
  >/dev/null &
pid=$!
wait_for_stop() {
  until [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" == T ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "eval_bench exited before stopping" >&2
      exit 1
    fi
    sleep 0.05
  done
}
if [[ "$warm" == 1 ]]; then
  wait_for_stop  # before the warm-up's timed part
  kill -CONT "$pid"
  sleep 0.1
  wait_for_stop  # after it
  kill -CONT "$pid"
  sleep 0.1
fi
# Wait until the benchmark has stopped itself before the timed part.
wait_for_stop
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
