#!/usr/bin/env bash
# PostgreSQL as an external oracle for `lir-opt run` (SEMANTICS.md, issue
# "semantic fidelity"): starts the oracle's private PostgreSQL server
# (../shared/tools/pg_oracle/start_pg.sh installs Debian's postgresql when it
# is missing), then runs pg_oracle.py over the SQL corpus with the rewrites
# off, with --enable_fused_set_difference and with --enable_antijoin_rendering.
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

status=0
for config in off fused antijoin; do
  args=(--lir-arg=--catalog="$out/catalog.json")
  [[ $config == fused ]] && args+=(--lir-arg=--enable_fused_set_difference)
  [[ $config == antijoin ]] && args+=(--lir-arg=--enable_antijoin_rendering)
  log="$out/$config.log"
  # The oracle exits 1 when a plan fails; the summary line decides.
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
