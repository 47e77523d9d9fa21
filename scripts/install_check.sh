#!/usr/bin/env bash
# Installs lir into a temporary prefix and builds examples/consumer against
# it, as a project that adopts lir would: find_package(lir) with only the
# prefix on CMAKE_PREFIX_PATH, and again with pkg-config (lir.pc). Each
# consumer build runs on examples/consumer/config.json and its output must
# equal examples/consumer/expected_output.txt. The installed file list must
# equal testdata/install/files.list (static build), and no internal header
# of src/ may be installed.
#
#   scripts/install_check.sh --build-dir build   # an existing build (ctest)
#   scripts/install_check.sh --shared            # a BUILD_SHARED_LIBS=ON build
#                                                # in build-shared/, then the same
#
# REWRITE=1 rewrites the two goldens instead of comparing (read the diff).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source_dir="$(pwd)"

build_dir=""
shared=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    --shared) shared=1; shift ;;
    *) echo "install_check.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

if [[ "${shared}" == 1 ]]; then
  build_dir="${build_dir:-build-shared}"
  cmake -S . -B "${build_dir}" -G Ninja -DBUILD_SHARED_LIBS=ON \
    -DLIR_BUILD_TESTS=OFF -DLIR_BUILD_BENCHMARKS=OFF -DLIR_BUILD_TOOLS=ON \
    -DLIR_WERROR="${LIR_WERROR:-OFF}" >/dev/null
  cmake --build "${build_dir}" -j "${LIR_BUILD_JOBS:-2}"
fi
if [[ -z "${build_dir}" ]]; then
  echo "install_check.sh: give --build-dir DIR or --shared" >&2
  exit 2
fi
build_dir="$(cd "${build_dir}" && pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/lir-install-check.XXXXXX")"
trap 'rm -rf "${work}"' EXIT
prefix="${work}/prefix"
fail=0

echo "== cmake --install ${build_dir} --prefix <tmp>/prefix"
cmake --install "${build_dir}" --prefix "${prefix}" >"${work}/install.log"

# The installed tree, as paths relative to the prefix.
(cd "${prefix}" && find . -type f -o -type l | sed 's|^\./||' | LC_ALL=C sort) \
  >"${work}/files.txt"
if grep -E '(_internal\.h|text_cursor\.h|json_reader\.h|/trace\.h)$' \
     "${work}/files.txt"; then
  echo "install_check.sh: internal headers were installed (above)" >&2
  fail=1
fi
for header in $(grep '^include/' "${work}/files.txt"); do
  if ! cmp -s "${prefix}/${header}" "${source_dir}/${header}"; then
    echo "install_check.sh: ${header} is not a copy of the source tree's" >&2
    fail=1
  fi
done
files_golden="${source_dir}/testdata/install/files.list"
if [[ "${shared}" == 0 ]]; then
  if [[ "${REWRITE:-0}" == 1 ]]; then
    mkdir -p "$(dirname "${files_golden}")"
    cp "${work}/files.txt" "${files_golden}"
  elif ! diff -u "${files_golden}" "${work}/files.txt"; then
    echo "install_check.sh: the installed files differ from ${files_golden}" \
         "(REWRITE=1 after reading the diff)" >&2
    fail=1
  fi
fi

libdir="$(grep -o '[^ ]*/lir\.pc$' "${work}/files.txt" | sed 's|/pkgconfig/lir\.pc$||')"
export LD_LIBRARY_PATH="${prefix}/${libdir}${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"

echo "== installed lir-opt explain examples/except.plan"
"${prefix}/bin/lir-opt" explain --enable_fused_set_difference \
  "${source_dir}/examples/except.plan" >"${work}/explain.txt"
grep -q '^  SetDifference ' "${work}/explain.txt" || {
  echo "install_check.sh: the installed lir-opt did not fuse the example" >&2
  cat "${work}/explain.txt" >&2
  fail=1
}

consumer="${source_dir}/examples/consumer"
expected="${consumer}/expected_output.txt"
check_output() {  # check_output NAME FILE
  if [[ "${REWRITE:-0}" == 1 ]]; then
    cp "$2" "${expected}"
  elif ! diff -u "${expected}" "$2"; then
    echo "install_check.sh: $1 consumer output differs from ${expected}" >&2
    fail=1
  fi
}

echo "== examples/consumer with find_package(lir)"
# Only the prefix: the consumer never sees the source tree or the build.
cmake -S "${consumer}" -B "${work}/consumer-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="${prefix}" -DCMAKE_BUILD_TYPE=Release >"${work}/consumer-configure.log" \
  || { cat "${work}/consumer-configure.log" >&2; exit 1; }
cmake --build "${work}/consumer-build" >"${work}/consumer-build.log" \
  || { cat "${work}/consumer-build.log" >&2; exit 1; }
"${work}/consumer-build/lir_consumer" "${consumer}/config.json" \
  >"${work}/cmake-output.txt"
check_output find_package "${work}/cmake-output.txt"

echo "== examples/consumer with pkg-config lir"
export PKG_CONFIG_PATH="${prefix}/${libdir}/pkgconfig"
# shellcheck disable=SC2046  # pkg-config's words are separate arguments
c++ -std=c++20 -O1 -o "${work}/lir_consumer_pc" "${consumer}/main.cc" \
  $(pkg-config --cflags --libs lir)
"${work}/lir_consumer_pc" "${consumer}/config.json" >"${work}/pc-output.txt"
check_output pkg-config "${work}/pc-output.txt"

echo "== docs/API.md's complete example, built with pkg-config lir"
# The first ```cpp block after "## A complete example": the doc's example
# must compile against the installed headers and do what it says.
awk '/^## A complete example/ {in_section = 1}
     in_section && /^```cpp/ {in_code = 1; next}
     in_code && /^```/ {exit}
     in_code {print}' "${source_dir}/docs/API.md" >"${work}/api_example.cc"
# shellcheck disable=SC2046
c++ -std=c++20 -O1 -o "${work}/api_example" "${work}/api_example.cc" \
  $(pkg-config --cflags --libs lir)
"${work}/api_example" >"${work}/api_example.out"
if ! grep -q '^  SetDifference ' "${work}/api_example.out" ||
   ! grep -q 'fused_set_difference LirId(6): fired' "${work}/api_example.out"; then
  echo "install_check.sh: docs/API.md's example did not fuse its EXCEPT ALL:" >&2
  cat "${work}/api_example.out" >&2
  fail=1
fi

echo "== a bad config makes the consumer fail"
printf '{"features": {"enable_fused_set_difference": maybe}}\n' >"${work}/bad.json"
if "${work}/consumer-build/lir_consumer" "${work}/bad.json" >"${work}/bad.out" 2>"${work}/bad.err"; then
  echo "install_check.sh: the consumer accepted a malformed config" >&2
  fail=1
elif ! grep -q 'bad.json:1:' "${work}/bad.err"; then
  echo "install_check.sh: the consumer's error does not locate the config:" >&2
  cat "${work}/bad.err" >&2
  fail=1
fi

if [[ "${fail}" != 0 ]]; then
  exit 1
fi
kind=static
[[ "${shared}" == 1 ]] && kind=shared
echo "install_check.sh: OK (${kind} libraries)"
