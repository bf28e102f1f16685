#!/usr/bin/env bash
# The memory-bound kernels of issue 9 (sum, argmax, clip, transpose, inner-axis concatenate)
# on the GPU machine: a CSV in OUTDIR plus the conformance log, about a minute per bench
# line. Source scripts/gpu-env.sh first; from the repository root:
#   bash scripts/run-gpu-memory-sweep.sh OUTDIR [packed build dir, default build-gpu]
# memory-tests.log      reductions, clip, movement conformance with validation on (the tests
#                       force each rule's other side themselves)
# default.csv           the device's rules (vec4 reductions and clip, the 64x65 quad
#                       transpose tile)
set -uo pipefail
out=${1:?usage: run-gpu-memory-sweep.sh OUTDIR [packed build dir]}
build=${2:-build-gpu}
bench="$build/vkt-bench"
ops=sum,argmax,clip,transpose,concatenate_inner
mkdir -p "$out"
status=0
VKT_VALIDATION=1 "$build/tests/vkt_vulkan_tests" \
  --gtest_filter='NativeReduce.*:VulkanIndex.Clip*:VulkanMovement.*:VulkanCompileRows.*:VulkanCompileReduce.*' \
  >> "$out/memory-tests.log" 2>&1 || status=1
tail -n 3 "$out/memory-tests.log"
"$bench" ops --ops "$ops" --sizes 1048576,67108864 --reps 20 --out "$out/default.csv" || status=1
exit $status
