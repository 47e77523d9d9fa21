#!/usr/bin/env bash
# The EXCEPT A/B (bench/eval_bench) before and after a change, side by side
# in one run: both commits' eval_bench built Release, then the 1M-key
# configuration with b one round after a and eager compaction run
# alternately, rewrite off and on, loading and the retraction round. Prints
# the table (CPU on/off and fused updates per CPU-second, per side, against
# the goals of issue 30) and puts it between the `except-ab` markers of
# docs/BENCHMARKS.md (appended when absent; scripts/bench.sh keeps the
# block when it regenerates the rest).
#
# Usage: scripts/except_ab.sh BEFORE_REF [AFTER_REF] [REPETITIONS]
#   AFTER_REF defaults to the working tree (empty string: the working tree).
# Environment: LIR_AB_DIR (work directory, default /tmp/lir-except-ab),
# LIR_BUILD_JOBS, LIR_AB_KEYS (default 1000000).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
if [[ $# -lt 1 || $# -gt 3 ]]; then
  echo "usage: scripts/except_ab.sh BEFORE_REF [AFTER_REF] [REPETITIONS]" >&2
  exit 2
fi
before_ref="$1"
after_ref="${2:-}"
reps="${3:-3}"
keys="${LIR_AB_KEYS:-1000000}"
work="${LIR_AB_DIR:-/tmp/lir-except-ab}"
jobs="${LIR_BUILD_JOBS:-2}"
mkdir -p "${work}"

# build_side NAME REF: eval_bench at REF (the working tree when empty).
build_side() {
  local name="$1" ref="$2" src
  if [[ -z "${ref}" ]]; then
    src="${root}"
  else
    src="${work}/${name}-src"
    # A worktree already at REF is kept, with its build.
    if [[ "$(git -C "${src}" rev-parse HEAD 2>/dev/null)" != \
          "$(git rev-parse "${ref}^{commit}")" ]]; then
      git worktree remove --force "${src}" 2>/dev/null || rm -rf "${src}"
      git worktree add --detach "${src}" "${ref}" >/dev/null
    fi
  fi
  # The working tree's side shares scripts/bench.sh's Release build.
  local build="${src}/build-ab"
  [[ -z "${ref}" ]] && build="${src}/${LIR_BENCH_BUILD_DIR:-build-release}"
  cmake -S "${src}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "${build}" -j "${jobs}" --target eval_bench >&2
  ln -sfn "${build}/bench/eval_bench" "${work}/${name}"
}
build_side before "${before_ref}"
build_side after "${after_ref}"

# run SIDE PHASE FUSED: one process, REPETITIONS runs; prints the median
# CPU time in ms.
run() {
  local side="$1" phase="$2" fused="$3"
  "${work}/${side}" \
    --benchmark_filter="BM_Except${phase}/keys:${keys}/fused:${fused}/sched:1/eager:1/" \
    --benchmark_repetitions="${reps}" --benchmark_format=json 2>/dev/null |
    python3 -c '
import json, sys
runs = [b for b in json.load(sys.stdin)["benchmarks"] if b.get("run_type") == "aggregate" and b["aggregate_name"] == "median"]
assert len(runs) == 1, runs
scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[runs[0]["time_unit"]]
print(runs[0]["cpu_time"] * scale)'
}

declare -A cpu
for phase in Load Retract; do
  for fused in 0 1; do
    for side in before after; do
      echo "except_ab.sh: ${side} ${phase} fused=${fused}" >&2
      cpu["${side}/${phase}/${fused}"]="$(run "${side}" "${phase}" "${fused}")"
    done
  done
done

label_before="$(git rev-parse --short "${before_ref}")"
label_after="working tree at $(git rev-parse --short HEAD)"
[[ -n "${after_ref}" ]] && label_after="$(git rev-parse --short "${after_ref}")"
table="$(python3 - "${keys}" "${reps}" "${label_before}" "${label_after}" <<PY
import sys
keys, reps, before, after = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
cpu = {
$(for k in "${!cpu[@]}"; do echo "  '${k}': ${cpu[${k}]},"; done)
}
load_updates = keys + keys // 2
retract_updates = (keys + 19) // 20
print("### The EXCEPT A/B at speed: before and after")
print()
print(f"\`scripts/except_ab.sh\`: bench/eval_bench (Release) at {keys} keys, b one round after a, "
      f"eager compaction; both commits built and run alternately in one run, each figure the "
      f"median CPU time of {reps} repetitions in one process (so all but the first reuse memory "
      f"the process freed). Before = {before}, after = {after}. "
      f"Profile either phase with \`scripts/profile_except.sh\`.")
print()
print("| side | load CPU ms off | load CPU ms on | load on/off (goal <= 0.6) | fused load updates/CPU-s (goal >= 2M) "
      "| retract CPU ms off | retract CPU ms on | retract on/off (goal <= 0.8) | fused retract updates/CPU-s (goal >= 1M) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for side in ("before", "after"):
    lo, ln = cpu[f"{side}/Load/0"], cpu[f"{side}/Load/1"]
    ro, rn = cpu[f"{side}/Retract/0"], cpu[f"{side}/Retract/1"]
    print(f"| {side} | {lo:.0f} | {ln:.0f} | {ln / lo:.2f} | {load_updates / (ln / 1e3) / 1e6:.2f}M "
          f"| {ro:.1f} | {rn:.1f} | {rn / ro:.2f} | {retract_updates / (rn / 1e3) / 1e6:.2f}M |")
PY
)"
echo "${table}"
python3 - "${table}" <<'PY'
import pathlib, sys
path = pathlib.Path("docs/BENCHMARKS.md")
begin, end = "<!-- except-ab:begin -->", "<!-- except-ab:end -->"
block = f"{begin}\n{sys.argv[1]}\n{end}"
text = path.read_text()
if begin in text and end in text:
    head, rest = text.split(begin, 1)
    text = head + block + rest.split(end, 1)[1]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
path.write_text(text)
PY
