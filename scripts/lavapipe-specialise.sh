#!/usr/bin/env bash
# The elementwise pipelines' rule on a CPU device (src/vulkan/ops/elementwise_specialise.h):
# specialised per op against one pipeline per dtype taking the op at run time, on lavapipe,
# two ways: one op's warm run (vkt-bench ops) and one every-op conformance test in a fresh
# process with an empty cache (pipeline creation included, validation on, as in CI).
# Writes bench_results/lavapipe/specialise-ops.csv and specialise-suite.csv. From the
# repository root, after scripts/test.sh's build: bash scripts/lavapipe-specialise.sh [build]
set -euo pipefail
build=${1:-build}
out=bench_results/lavapipe
limit=${LIMIT_S:-900}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in 0 1; do
  "$build/vkt-bench" --override "specialise=$s" ops --ops add,multiply,less,exp,sqrt,tanh \
    --sizes 1048576 --reps 10 --out "$tmp/ops-$s.csv" > /dev/null
done
python3 - "$tmp" "$out/specialise-ops.csv" <<'PY'
import csv, sys
tmp, dest = sys.argv[1], sys.argv[2]
rows = []
for s in ("0", "1"):
    for r in csv.DictReader(open(f"{tmp}/ops-{s}.csv")):
        rows.append({"specialise": s, **r})
with open(dest, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
PY
echo "specialise,test,rc,wall_s,limit_s,device,commit,date" > "$out/specialise-suite.csv"
device=$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["device"])' \
  "$tmp/ops-0.csv" | tr -d ',')
commit=$(git rev-parse --short=12 HEAD)
for s in 0 1; do
  mkdir -p "$tmp/cache-$s"
  start=$(date +%s.%N)
  rc=0
  VKT_CACHE_DIR="$tmp/cache-$s" VKT_VALIDATION=1 VKT_POISON=1 VKT_TEST_OVERRIDES="specialise=$s" \
    VKT_TEST_TIMEOUT_S="$limit" timeout "$limit" "$build/tests/conformance/vkt_vulkan_tests" \
    --gtest_filter=Elementwise.UnaryEveryOpDtypeAndShape > "$tmp/suite-$s.log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  wall=$(python3 -c "print(round($end - $start, 1))")
  echo "$s,Elementwise.UnaryEveryOpDtypeAndShape,$rc,$wall,$limit,$device,$commit,$(date -u +%FT%TZ)" \
    >> "$out/specialise-suite.csv"
done
cat "$out/specialise-suite.csv"
