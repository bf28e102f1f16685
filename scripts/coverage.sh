#!/usr/bin/env bash
# Computes the Nx coverage table: runs exactly the tests the Nx callback table links (in the
# binary that has each), then writes OUT.md with vkt-bench coverage from their JSON reports.
# Usage: scripts/coverage.sh OUT.md [build dir]   (default build/)
#        scripts/coverage.sh --check [build dir]  (only fails if a linked test is in no binary)
# VKT_BENCH names another vkt-bench (default: the build dir's).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 1 ]]; then
  echo "[coverage] usage: $0 OUT.md|--check [build dir]" >&2
  exit 2
fi
out=$1
build=${2:-$root/build}
bench=${VKT_BENCH:-$build/vkt-bench}
unit=$build/tests/vkt_unit_tests
vulkan=$build/tests/conformance/vkt_vulkan_tests
for exe in "$bench" "$unit"; do
  [[ -x $exe ]] || { echo "[coverage] $exe is missing (build with -DVKT_BUILD_TESTS=ON)" >&2; exit 1; }
done
binaries=("$unit")
# A build without Vulkan has no conformance binary: its tests stay "not run".
if [[ -x $vulkan ]]; then binaries+=("$vulkan"); fi

# Suite.Name per line, as --gtest_filter spells them.
list_tests() {
  "$1" --gtest_list_tests | awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" coverage --list-tests >"$tmp/linked"
for i in "${!binaries[@]}"; do list_tests "${binaries[$i]}" >"$tmp/listed$i"; done
missing=0
while read -r test; do
  found=0
  for i in "${!binaries[@]}"; do
    if grep -qxF "$test" "$tmp/listed$i"; then
      echo "$test" >>"$tmp/filter$i"
      found=1
    fi
  done
  if [[ $found == 0 ]]; then
    echo "[coverage] linked test '$test' is listed by no test binary" >&2
    missing=1
  fi
done <"$tmp/linked"
if [[ $missing != 0 && ( $out == --check || -x $vulkan ) ]]; then exit 1; fi
if [[ $out == --check ]]; then
  echo "[coverage] all $(wc -l <"$tmp/linked") linked tests exist"
  exit 0
fi

reports=()
for i in "${!binaries[@]}"; do
  [[ -s $tmp/filter$i ]] || continue
  json=$tmp/report$i.json
  # A failing test is a row's outcome, not the script's: only a missing report stops it.
  "${binaries[$i]}" --gtest_filter="$(paste -sd: "$tmp/filter$i")" --gtest_output="json:$json" \
    >"$tmp/log$i" 2>&1 || echo "[coverage] ${binaries[$i]##*/} had failures" >&2
  if [[ ! -s $json ]]; then
    cat "$tmp/log$i" >&2
    echo "[coverage] ${binaries[$i]##*/} wrote no report" >&2
    exit 1
  fi
  grep -E '^\[  (FAILED|SKIPPED) ' "$tmp/log$i" >&2 || true
  reports+=("$json")
done
"$bench" coverage --out "$out" --tests-json "$(IFS=,; echo "${reports[*]}")" >/dev/null
grep -m1 'callbacks have an equivalent' "$out"
