#!/usr/bin/env bash
# Runs the unit suite and the Vulkan conformance suite (validation layer and output
# poisoning on) on the GPU machine, writing one log each into OUTDIR; exits non-zero if
# either fails. Usage, from the repository root:
#   scripts/run-gpu-tests.sh OUTDIR [packed dir from scripts/pack-gpu.sh]
set -uo pipefail
out=${1:?usage: run-gpu-tests.sh OUTDIR [packed dir]}
packed=${2:-build-gpu}
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
status=0
VKT_GOLDEN_DIR=$PWD/tests/golden/data stdbuf -oL "$packed/tests/vkt_unit_tests" \
  > "$out/${host}_unit-tests_${day}.log" 2>&1 || status=1
VKT_VALIDATION=1 VKT_POISON=1 stdbuf -oL "$packed/tests/vkt_vulkan_tests" \
  > "$out/${host}_vulkan-tests_${day}.log" 2>&1 || status=1
tail -n 3 "$out/${host}_unit-tests_${day}.log" "$out/${host}_vulkan-tests_${day}.log"
exit $status
