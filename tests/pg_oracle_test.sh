#!/usr/bin/env bash
# PostgreSQL as an external oracle for `lir-opt run` (SEMANTICS.md, issue
# "semantic fidelity"): starts the oracle's private PostgreSQL server
# (../shared/tools/pg_oracle/start_pg.sh installs Debian's postgresql when it
# is missing), then runs pg_oracle.py over the SQL corpus once, checking
# lir-opt with the rewrites off, with --enable_fused_set_difference and with
# --enable_antijoin_rendering against the same PostgreSQL results.
# Passes only when every run ends `pg oracle: 77 passed, 0 failed, 0 skipped`. Exits 77 (ctest: skipped)
# when ../shared is absent.
#
# Usage: pg_oracle_test.sh LIR_OPT SHARED_DIR
set -euo pipefail

lir_opt=$1
shared=$2
oracle="$shared/tools/pg_oracle"
expected="pg oracle: 77 passed, 0 failed, 0 skipped"

if [[ ! -f "$oracle/pg_oracle.py" || ! -d "$shared/corpus/materialize-sql" ]]; then
  echo "SKIPPED: the pg oracle needs $oracle and $shared/corpus (absent)"
  exit 77
fi

eval "$("$oracle/start_pg.sh")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Fast-path peeks name their index but not its key: the catalog says it
# (taken from the corpus's CREATE INDEX statements).
python3 "$(dirname "$0")/pg_oracle_catalog.py" "$shared" "$out/catalog.json"

# One oracle run checks all three configurations against the same PostgreSQL
# results (tests/pg_oracle_configs.py: the PostgreSQL side, nearly all the
# work, does not depend on lir-opt's flags). The oracle exits 1 when a plan
# fails; the summary lines decide.
configs=(--config off --config fused=--enable_fused_set_difference
         --config antijoin=--enable_antijoin_rendering)
log="$out/oracle.log"
code=0
python3 "$(dirname "$0")/pg_oracle_configs.py" "$oracle" "${configs[@]}" -- \
  --lir-opt "$lir_opt" --jobs 2 --out "$out/oracle" \
  --lir-arg=--catalog="$out/catalog.json" >"$log" 2>&1 || code=$?

status=0
if [[ $code -eq 3 ]]; then
  # The oracle's internals changed under the driver: run its command line
  # once per configuration, as its README documents.
  cat "$log"
  for config in off fused antijoin; do
    args=(--lir-arg=--catalog="$out/catalog.json")
    [[ $config == fused ]] && args+=(--lir-arg=--enable_fused_set_difference)
    [[ $config == antijoin ]] && args+=(--lir-arg=--enable_antijoin_rendering)
    log="$out/$config.log"
    python3 "$oracle/pg_oracle.py" --lir-opt "$lir_opt" --jobs 2 \
      --out "$out/$config" "${args[@]}" >"$log" 2>&1 || true
    last=$(grep '^pg oracle:' "$log" | tail -n 1 || true)
    echo "rewrite $config: ${last:-no summary line}"
    if [[ "$last" != "$expected" ]]; then
      grep -E '^(FAIL|SKIP)' "$log" || tail -n 20 "$log"
      status=1
    fi
  done
  exit $status
fi

for config in off fused antijoin; do
  last=$(grep "^rewrite $config: pg oracle:" "$log" | tail -n 1 || true)
  echo "${last:-rewrite $config: no summary line}"
  [[ "$last" == "rewrite $config: $expected" ]] || status=1
done
if [[ $status -ne 0 ]]; then
  grep -E '^(FAIL|SKIP)' "$log" || tail -n 20 "$log"
fi
exit $status
