#!/usr/bin/env bash
# Installs the Debian packages lir needs to build and test. Runs as root.
# Does nothing (and never touches the network) when everything is present.
set -euo pipefail

packages=(
  cmake
  ninja-build
  g++
  pkg-config
  libabsl-dev
  libre2-dev
  nlohmann-json3-dev
  libgtest-dev
  libbenchmark-dev
  libssl-dev
  # The sanitizer and fuzz build (scripts/sanitize.sh, scripts/fuzz.sh):
  # clang, its ASan/UBSan/libFuzzer runtimes, llvm-symbolizer for reports.
  clang
  libclang-rt-dev
  llvm
  # The PostgreSQL oracle (tests/pg_oracle_test.sh starts the server).
  postgresql
  postgresql-client
  python3
  # Plan pictures: tests render `lir-opt explain --format=dot` with dot, and
  # scripts/plan_pictures.sh makes the README's PNGs.
  graphviz
)

missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "${package}" 2>/dev/null || true)"
  if [[ "${status}" != "install ok installed" ]]; then
    missing+=("${package}")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "setup.sh: installing missing packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
