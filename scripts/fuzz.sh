#!/usr/bin/env bash
# Builds (if needed) and runs every libFuzzer target of fuzz/ for SECONDS
# each (default 60), LIR_FUZZ_JOBS at a time, on its seed corpus (generated from
# testdata/ and examples/, plus fuzz/seeds/<target> and the saved crashes in
# fuzz/regressions/<target>). Prints the executions per target and exits 1
# if any target found a crash, a leak, a timeout or ran out of memory.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# The build is build-asan (clang, ASan + UBSan, libFuzzer), shared with
# scripts/test.sh's sanitizer step. Environment:
#   LIR_FUZZ_BUILD_DIR  build directory (default build-asan)
#   LIR_BUILD_JOBS      parallel build jobs (default 2)
#   LIR_FUZZ_JOBS       targets fuzzed at once (default LIR_BUILD_JOBS)
#   LIR_FUZZ_SEED       libFuzzer -seed (default: random); CI fixes it
#   LIR_FUZZ_OUT        where corpora, crashes and logs go
#                       (default $LIR_FUZZ_BUILD_DIR/fuzz/out)
#   LIR_FUZZ_KEEP_GOING=1  after a crash, start the target again (from
#                       the corpus grown so far) until its time is up, for
#                       long runs; every crash is kept and the summary
#                       groups the new ones by what they trigger
# New inputs found are kept in $LIR_FUZZ_OUT/corpus/<target> and reused by
# the next run; a crash is written to $LIR_FUZZ_OUT/crashes/<target>/ (copy
# it to fuzz/regressions/<target>/ once it is fixed, so it stays a test).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds="${1:-60}"
shift || true
if ! [[ "${seconds}" =~ ^[0-9]+$ ]] || [[ "${seconds}" -eq 0 ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi
build="${LIR_FUZZ_BUILD_DIR:-build-asan}"
out="${LIR_FUZZ_OUT:-${build}/fuzz/out}"

# Configuring an existing build directory keeps its compiler and other
# settings (CXX matters only the first time); a new one is configured as
# the sanitizer step configures it.
if [[ ! -f "${build}/CMakeCache.txt" ]]; then
  LIR_FUZZ_BUILD_DIR="${build}" ./scripts/sanitize.sh configure >/dev/null
elif ! grep -q '^LIR_FUZZ:BOOL=ON' "${build}/CMakeCache.txt"; then
  cmake -S . -B "${build}" -DLIR_FUZZ=ON >/dev/null
fi
cmake --build "${build}" -j "${LIR_BUILD_JOBS:-2}" --target lir_fuzz

# Per target: the longest input tried. Plans and their JSON forms are a few
# KB; configs and run data (bytes decoded into rows) are short.
max_len() {
  case "$1" in
    text_roundtrip | concise_roundtrip | rewrite) echo 8192 ;;
    json_roundtrip) echo 16384 ;;
    config) echo 1024 ;;
    run) echo 512 ;;
    *) echo 4096 ;;
  esac
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
if command -v llvm-symbolizer >/dev/null; then
  export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer)}"
fi

# fuzz_one NAME BINARY SEEDS: fuzzes one target for SECONDS; writes its
# summary line to $out/summary/NAME and what its new inputs trigger to
# $out/findings/NAME; exits 1 if it found anything.
fuzz_one() {
  local name="$1" binary="$2" seeds="$3"
  local corpus="${out}/corpus/${name}"
  local crashes="${out}/crashes/${name}"
  local log="${out}/logs/${name}.log"
  mkdir -p "${corpus}" "${crashes}" "$(dirname "${log}")"
  local extra=()
  [[ -n "${LIR_FUZZ_SEED:-}" ]] && extra+=(-seed="${LIR_FUZZ_SEED}")
  echo "fuzz: ${name} for ${seconds}s (log ${log})"
  : >"${log}"
  shopt -s nullglob
  local before=("${crashes}"/*)
  local deadline=$((SECONDS + seconds))
  local status=ok left
  while :; do
    left=$((deadline - SECONDS))
    # shellcheck disable=SC2086  # seeds is a list of directories
    if "${binary}" -max_total_time="$((left > 0 ? left : 1))" \
        -max_len="$(max_len "${name}")" -rss_limit_mb=2048 -timeout=25 \
        -print_final_stats=1 -artifact_prefix="${crashes}/" "${extra[@]}" \
        "${corpus}" ${seeds} >>"${log}" 2>&1; then
      break
    fi
    status="FAILED (see ${log} and ${crashes}/)"
    # Keep going: a new process resumes from the corpus grown so far (with
    # a fresh seed, or it would walk into the same crash again).
    [[ "${LIR_FUZZ_KEEP_GOING:-0}" == 1 && $((deadline - SECONDS)) -gt 5 ]] || break
    extra=()
  done
  local after=("${crashes}"/*)
  # Every run ends with -print_final_stats; a crashed one too.
  local execs
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" |
    awk '{ n += $1 } END { print n + 0 }')"
  printf '%-16s %12s executions  %s\n' "${name}" "${execs}" "${status}" \
    >"${out}/summary/${name}"
  if [[ "${status}" != ok ]]; then
    grep -a -E "^==[0-9]+==ERROR|lir fuzz property violated|Test unit written" \
      "${log}" | head -n 6 >&2 || true
  fi
  # What each input saved by this run triggers, grouped: crashes and leaks
  # are re-run one by one; timeouts and ooms are counted.
  local new=() artifact line
  for artifact in "${after[@]}"; do
    [[ " ${before[*]} " == *" ${artifact} "* ]] || new+=("${artifact}")
  done
  for artifact in "${new[@]}"; do
    case "$(basename "${artifact}")" in
      crash-* | leak-*)
        line="$(timeout 120 "${binary}" -rss_limit_mb=2048 "${artifact}" 2>&1 |
          grep -a -E "lir fuzz property violated|what\(\)|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|ERROR: libFuzzer" |
          head -n 1 || true)"
        echo "${line:-(does not reproduce)}" |
          sed -E 's/^==[0-9]+==//; s/0x[0-9a-f]+/0x.../g; s/index [0-9]+/index N/'
        ;;
      *) basename "${artifact}" | sed -E 's/-[0-9a-f]{40}$/ input/' ;;
    esac
  done | sort | uniq -c | sed "s/^/    ${name}: /" >"${out}/findings/${name}"
  shopt -u nullglob
  [[ "${status}" == ok ]]
}

# Targets run LIR_FUZZ_JOBS at a time (default LIR_BUILD_JOBS, 2): each is
# one libFuzzer process on one core, so on two cores two targets get as many
# executions in their SECONDS as one alone would.
jobs="${LIR_FUZZ_JOBS:-${LIR_BUILD_JOBS:-2}}"
mkdir -p "${out}"
rm -rf "${out}/summary" "${out}/findings"
mkdir -p "${out}/summary" "${out}/findings"
names=()
running=0
failed=0
while read -r name binary seeds; do
  [[ -n "${name}" ]] || continue
  if [[ $# -gt 0 ]] && ! printf '%s\n' "$@" | grep -qx "${name}"; then
    continue
  fi
  names+=("${name}")
  if [[ ${running} -ge ${jobs} ]]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "${name}" "${binary}" "${seeds}" &
  running=$((running + 1))
done <"${build}/fuzz/targets.list"
while [[ ${running} -gt 0 ]]; do
  wait -n || failed=1
  running=$((running - 1))
done

echo "fuzz summary (${seconds}s per target, ${jobs} at a time):"
: >"${out}/findings.txt"
for name in "${names[@]}"; do
  if [[ -f "${out}/summary/${name}" ]]; then
    sed 's/^/  /' "${out}/summary/${name}"
  else
    echo "  ${name}: no summary (the target's run was killed)"
    failed=1
  fi
  cat "${out}/findings/${name}" >>"${out}/findings.txt" 2>/dev/null || true
done
if [[ -s "${out}/findings.txt" ]]; then
  echo "inputs saved by this run in ${out}/crashes, by what they trigger:"
  cat "${out}/findings.txt"
fi
exit "${failed}"
