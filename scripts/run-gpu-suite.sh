#!/usr/bin/env bash
# Runs the whole Vulkan conformance suite (nothing left out; validation and output poisoning
# on, as ctest's first pass runs it) on the GPU machine as gtest shards in parallel processes:
# most of the suite's time there is pipeline creation, host work that spreads over the cores
# while the one GPU is mostly idle. Writes each shard's log and JSON report, the device's
# `vkt-bench info` and summary.txt (wall time, counts, failures, the slowest tests) into OUTDIR;
# exits non-zero when a test fails or a shard dies. Usage, from the repository root after
# `source scripts/gpu-env.sh`:
#   scripts/run-gpu-suite.sh OUTDIR [packed dir] [shards (default: the cores)] [gtest filter]
# VKT_SUITE_LIMIT_S stops every shard by then (a shard stopped has no report: a failure), so
# a machine's per-call limit still brings the logs back.
set -uo pipefail
out=${1:?usage: run-gpu-suite.sh OUTDIR [packed dir] [shards] [gtest filter]}
packed=${2:-build-gpu}
shards=${3:-$(nproc)}
filter=${4:-*}
mkdir -p "$out"
"$packed/vkt-bench" info > "$out/info.txt" 2>&1
start=$(date +%s%N)
pids=()
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i VKT_VALIDATION=1 VKT_POISON=1 \
    timeout -k 5 "${VKT_SUITE_LIMIT_S:-0}" stdbuf -oL "$packed/tests/vkt_vulkan_tests" --gtest_filter="$filter" \
    --gtest_output="json:$out/shard-$i.json" > "$out/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "shard $i exited $rc" >> "$out/exits.txt"
  fi
done
wall_ns=$(( $(date +%s%N) - start ))
python3 - "$out" "$shards" "$wall_ns" > "$out/summary.txt" <<'EOF' || status=1
import json, pathlib, sys
out, shards, wall = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1e9
tests, missing = [], []
for i in range(shards):
    f = out / f"shard-{i}.json"
    if not f.exists():
        missing.append(i)
        continue
    for suite in json.loads(f.read_text())["testsuites"]:
        for t in suite["testsuite"]:
            tests.append((f"{suite['name']}.{t['name']}", t.get("result"), bool(t.get("failures")),
                          float(t["time"].rstrip("s")), i))
info = (out / "info.txt").read_text().splitlines()
for key in ("device ", "driver ", "commit ", "date "):
    print(next((l.strip() for l in info if l.startswith(key)), key + "?"))
print(f"wall {wall:.1f} s over {shards} shards; {len(tests)} tests; "
      f"test time summed {sum(t[3] for t in tests):.1f} s")
failed = [t for t in tests if t[2]]
skipped = [t for t in tests if t[1] == "SKIPPED"]
print(f"passed {len(tests) - len(failed) - len(skipped)}, failed {len(failed)}, "
      f"skipped {len(skipped)}, shards without a report {missing}")
for name, _, _, secs, shard in failed:
    print(f"FAILED {name} ({secs:.1f} s, shard {shard})")
for name, _, _, secs, shard in skipped:
    print(f"SKIPPED {name} (shard {shard})")
print("slowest:")
for name, _, _, secs, shard in sorted(tests, key=lambda t: -t[3])[:25]:
    print(f"  {secs:8.2f} s  {name} (shard {shard})")
sys.exit(1 if failed or missing else 0)
EOF
cat "$out/summary.txt"
exit $status
