#!/usr/bin/env bash
# Does the data's pattern change a memory-bound kernel's speed on the GPU machine (a memory
# controller that compresses the seed's smooth ramp), and does the late-process slowdown of
# runs 30-32 follow the data? One short process per CSV in OUTDIR, 64M f32, ops forward and
# reversed, for the ramp (iota/n + 0.01) and VKT_BENCH_DATA=random (hashed, full mantissas).
# Source scripts/gpu-env.sh first; from the repository root:
#   bash scripts/run-gpu-datapattern.sh OUTDIR [packed build dir, default build-gpu]
set -uo pipefail
out=${1:?usage: run-gpu-datapattern.sh OUTDIR [packed build dir]}
build=${2:-build-gpu}
bench="$build/vkt-bench"
forward=concatenate,pad,broadcast,transpose,add,exp,sum,argmax_all,clip
reversed=clip,argmax_all,sum,exp,add,transpose,broadcast,pad,concatenate
mkdir -p "$out"
status=0
for data in ramp random; do
  for order in forward reversed; do
    VKT_BENCH_DATA=$data "$bench" ops --ops "${!order}" --sizes 67108864 --reps 20 \
      --out "$out/$data-$order.csv" > /dev/null || status=1
  done
done
exit $status
