#!/usr/bin/env bash
# CI as it runs: `.ci/run` (the README's test command) on a fresh clone of this commit, timed,
# with the machine's compiler cache as CI finds it (scripts/build.sh keys ccache on paths
# relative to the checkout, so a clone reuses what earlier builds of the same sources
# compiled; the hit rate is recorded). Writes bench_results/<machine>/ci-time.csv: the total,
# each ctest pass's own total, and the rest (set-up, checks, builds). From the repository root:
#   bash scripts/time-ci.sh [machine folder, default lavapipe]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-lavapipe}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/clone"
ccache --zero-stats > /dev/null 2>&1 || true
start=$(date +%s)
(cd "$tmp/clone" && bash .ci/run) > "$tmp/ci.log" 2>&1
total=$(($(date +%s) - start))
mapfile -t passes < <(grep -o 'Total Test time (real) = *[0-9.]*' "$tmp/ci.log" | grep -o '[0-9.]*$')
hits=$(ccache --print-stats 2>/dev/null | awk -F'\t' '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2} $1=="cache_miss"{m+=$2} END{if(h+m>0) printf "%.1f", 100*h/(h+m); else print "n/a"}')
out="$root/bench_results/$kind/ci-time.csv"
mkdir -p "$(dirname "$out")"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //; s/,//g')
meta="$(nproc),$cpu,$(git -C "$root" rev-parse --short=12 HEAD),$(date -u +%FT%TZ),$hits"
names=("ctest release (unit, bench_cli, install, fuzz, vulkan x3, python)" "ctest ASan+UBSan (unit, fuzz, vulkan)" "ctest TSan (cpu unit)")
{
  echo "step,seconds,cores,cpu,commit,date,ccache_hit_pct"
  tests=0
  for i in "${!passes[@]}"; do
    echo "\"${names[$i]:-ctest pass $i}\",${passes[$i]},$meta"
    tests=$(awk -v a="$tests" -v b="${passes[$i]}" 'BEGIN{printf "%.0f", a+b}')
  done
  echo "set-up + house checks + three builds,$((total - tests)),$meta"
  echo "total,$total,$meta"
} > "$out"
cat "$out"
