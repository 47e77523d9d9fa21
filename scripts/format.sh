#!/usr/bin/env bash
# Formats every C++ source of the repository with clang-format (.clang-format
# at the root: Google style). With --check, changes nothing and exits 1 when
# some file is not formatted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=(-i)
if [[ "${1:-}" == "--check" ]]; then
  mode=(--dry-run -Werror)
fi
git ls-files '*.cc' '*.h' | xargs clang-format --style=file "${mode[@]}"
