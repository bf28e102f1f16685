#!/usr/bin/env bash
# The memory-bound kernel variants of issue 9 (sum, argmax, clip, transpose, inner-axis
# concatenate) on the GPU machine: one CSV per variant in OUTDIR plus the conformance log,
# about a minute per bench line. Each variable is read at every call (src/vulkan/README.md).
# Source scripts/gpu-env.sh first; from the repository root:
#   bash scripts/run-gpu-memory-sweep.sh OUTDIR [packed build dir, default build-gpu]
# memory-tests.log      reductions, clip, movement conformance with validation on, each new
#                       path forced both ways
# default.csv           every new path on (vec4 reductions and clip, 16-byte strided words,
#                       the 64x65 quad transpose tile)
# baseline.csv          every new path off (the element-word kernels of 307553c)
# groups-<g>.csv        sum/argmax with VKT_VK_REDUCE_GROUPS=<g> (split rows' workgroups)
set -uo pipefail
out=${1:?usage: run-gpu-memory-sweep.sh OUTDIR [packed build dir]}
build=${2:-build-gpu}
bench="$build/vkt-bench"
ops=sum,argmax,clip,transpose,concatenate_inner
mkdir -p "$out"
status=0
for v in "" "VKT_VK_REDUCE=scalar VKT_VK_CLIP=word VKT_VK_STRIDED=word VKT_VK_TRANSPOSE=tile32"; do
  env VKT_VALIDATION=1 $v "$build/tests/vkt_vulkan_tests" \
    --gtest_filter='NativeReduce.*:VulkanIndex.Clip*:VulkanMovement.*:VulkanCompileRows.*:VulkanCompileReduce.*' \
    >> "$out/memory-tests.log" 2>&1 || status=1
done
tail -n 3 "$out/memory-tests.log"
"$bench" ops --ops "$ops" --sizes 1048576,67108864 --reps 20 --out "$out/default.csv" || status=1
env VKT_VK_REDUCE=scalar VKT_VK_CLIP=word VKT_VK_STRIDED=word VKT_VK_TRANSPOSE=tile32 \
  "$bench" ops --ops "$ops" --sizes 1048576,67108864 --reps 20 --out "$out/baseline.csv" || status=1
for g in 264 528 1056 4096; do
  VKT_VK_REDUCE_GROUPS=$g "$bench" ops --ops sum,argmax --sizes 67108864 --reps 20 \
    --out "$out/groups-$g.csv" || status=1
done
exit $status
