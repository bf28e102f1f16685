#!/usr/bin/env bash
# The README's main job timed as a new user meets it: a fresh clone of this commit, built with
# no compiler cache (scripts/build.sh: the library, vkt-bench, the example), then
# `vkt-bench consumer` on the default device. Package installation is left out (it runs once
# per machine; scripts/setup-debian.sh). Writes bench_results/<machine>/main-job.csv, where
# <machine> is lavapipe on a machine without a GPU. From the repository root:
#   bash scripts/time-main-job.sh [machine folder, default lavapipe]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-lavapipe}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q "$root" "$tmp/clone"
cd "$tmp/clone"
start=$(date +%s)
CCACHE_DISABLE=1 bash scripts/build.sh > "$tmp/build.log" 2>&1
built=$(date +%s)
./build/vkt-bench consumer --out "$tmp/consumer.csv" > "$tmp/consumer.log" 2>&1
done_at=$(date +%s)
out="$root/bench_results/$kind/main-job.csv"
mkdir -p "$(dirname "$out")"
{
  echo "step,seconds,cores,cpu,commit,date"
  cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //; s/,//g')
  meta="$(nproc),$cpu,$(git rev-parse --short=12 HEAD),$(date -u +%FT%TZ)"
  echo "build (no compiler cache),$((built - start)),$meta"
  echo "vkt-bench consumer,$((done_at - built)),$meta"
  echo "total,$((done_at - start)),$meta"
} > "$out"
cat "$out"
