#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test; then the sanitizer
# build, its tests and the fuzz targets (scripts/sanitize.sh) unless
# LIR_SKIP_SANITIZERS=1. Ends with a table of the seconds each phase took
# (also when a phase fails), which closing notes quote.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

phases=()
started=${SECONDS}
current=""
phase_start=${SECONDS}

timing_table() {
  local status=$?
  [[ -n "${current}" ]] && phases+=("${current}|$((SECONDS - phase_start))|FAILED")
  echo
  echo "test.sh timing (seconds):"
  local row name seconds note
  for row in "${phases[@]}"; do
    IFS='|' read -r name seconds note <<<"${row}"
    printf '  %-16s %6d  %s\n' "${name}" "${seconds}" "${note}"
  done
  printf '  %-16s %6d  %s\n' "total" "$((SECONDS - started))" \
    "$([[ ${status} -eq 0 ]] && echo ok || echo "FAILED (exit ${status})")"
}
trap timing_table EXIT

# phase NAME COMMAND...: runs COMMAND and records how long it took.
phase() {
  current="$1"
  phase_start=${SECONDS}
  shift
  "$@"
  phases+=("${current}|$((SECONDS - phase_start))|ok")
  current=""
}

skip() { phases+=("$1|0|skipped (LIR_SKIP_SANITIZERS=1)"); }

phase setup ./scripts/setup.sh
phase build ./scripts/build.sh
phase tests ctest --test-dir build --output-on-failure -j2

# Then the suite under ASan + UBSan and every fuzz target for 30 s
# (scripts/sanitize.sh). LIR_SKIP_SANITIZERS=1 stops after the normal part.
if [[ "${LIR_SKIP_SANITIZERS:-0}" != 1 ]]; then
  phase "sanitizer build" ./scripts/sanitize.sh build
  phase "sanitizer tests" ./scripts/sanitize.sh test
  phase fuzz ./scripts/sanitize.sh fuzz
else
  skip "sanitizer build"
  skip "sanitizer tests"
  skip fuzz
fi
