#!/usr/bin/env bash
# An op's fixed cost on the GPU machine under each of the recorder's and the bench's
# variants, in one run (issue 9, C at most 25 us at 1024). Source scripts/gpu-env.sh first.
# Usage, from the repository root:
#   scripts/run-gpu-fixedcost.sh OUTDIR [build dir]   (default build dir: build-gpu)
# For each variant: vkt-bench overhead (seed ops and add, exp, sum, transpose at 1024, and
# submit_wait: an empty batch's round trip) and vkt-bench ops for the seed ops at 1024.
# Variants (environment):
#   base        the defaults (timeline semaphore polled, opening barrier always, the timer's
#               queries reset from the host, copies up to the measured crossover by
#               vkCmdCopyBuffer, push descriptors)
#   fence       VKT_VK_SYNC=fence: one fence per batch instead of the timeline semaphore
#   flag        VKT_VK_SYNC=flag: the host polls a word the batch's last command writes
#   openbusy    VKT_VK_OPEN_BARRIER=busy: no opening barrier when nothing is in flight
#   cmdreset    VKT_VK_TIMER_RESET=command: the timer's query reset recorded in the batch
#               (as before this branch)
#   notimer     VKT_BENCH_DEVICE_TIMER=0: no timestamps around the op (no device columns)
#   nopush      VKT_VK_NO_PUSH_DESCRIPTOR=1: descriptor sets from a pool, not pushed
#   copyshader  VKT_VK_COPY_SMALL_MAX=0: every copy by the measured large-copy path (the
#               shader on the H200), as before this branch
#   hazardall   VKT_VK_HAZARD_STAGES=all: hazard barriers wait on compute and transfer
#               whatever ran before them (as before this branch)
#   uploadcmd   VKT_VK_SMALL_UPLOAD=command: host tensors up to 4 KiB (gather's and
#               indexed_put's host-held indices) uploaded by vkCmdUpdateBuffer, which the op
#               waits on with a barrier, not by a memcpy into device-local mapped memory
#   putcopy     VKT_VK_INDEXED_PUT=copy: indexed_put as a copy, a barrier and the update pass
#   indexold    uploadcmd, putcopy and VKT_VK_GATHER=word together: the indexing path before
#               the indexfix branch
# Then vkt-bench chain at 16384 (the per-op cost inside a batch) for base and hazardall.
# VARIANTS="base fence ..." runs only those (the chain runs with base and hazardall).
set -euo pipefail
out=${1:?usage: run-gpu-fixedcost.sh OUTDIR [build dir]}
build=${2:-build-gpu}
bench=$build/vkt-bench
mkdir -p "$out"
seed=concatenate,pad,put_slice,indexed_put,broadcast,gather,take
# The GPU's clocks up first: the fixed cost on a cold GPU is twice as high (run 11).
# WARMUP_SIZE: smaller for a smoke test on lavapipe.
"$bench" ops --ops add --sizes "${WARMUP_SIZE:-16777216}" --reps 300 --out "$out/warmup.csv" \
  > /dev/null
variants=(base fence flag openbusy cmdreset notimer nopush copyshader hazardall uploadcmd putcopy
  indexold)
envs=("" "VKT_VK_SYNC=fence" "VKT_VK_SYNC=flag" "VKT_VK_OPEN_BARRIER=busy"
  "VKT_VK_TIMER_RESET=command" "VKT_BENCH_DEVICE_TIMER=0" "VKT_VK_NO_PUSH_DESCRIPTOR=1"
  "VKT_VK_COPY_SMALL_MAX=0" "VKT_VK_HAZARD_STAGES=all" "VKT_VK_SMALL_UPLOAD=command"
  "VKT_VK_INDEXED_PUT=copy" "VKT_VK_SMALL_UPLOAD=command VKT_VK_INDEXED_PUT=copy VKT_VK_GATHER=word")
chosen=" ${VARIANTS:-${variants[*]}} "
for i in "${!variants[@]}"; do
  v=${variants[$i]}
  [[ $chosen == *" $v "* ]] || continue
  echo "== $v ${envs[$i]}"
  env ${envs[$i]} "$bench" info | grep -E "copy_|small_uploads" || true
  env ${envs[$i]} "$bench" overhead --reps 300 --out "$out/overhead-$v.csv"
  env ${envs[$i]} "$bench" ops --ops "$seed" --sizes 1024 --reps 200 --out "$out/ops-$v.csv" \
    > /dev/null
done
if [[ $chosen == *" base "* ]]; then
  "$bench" chain --sizes 16384 --reps 200 --out "$out/chain-base.csv" > /dev/null
fi
if [[ $chosen == *" hazardall "* ]]; then
  VKT_VK_HAZARD_STAGES=all "$bench" chain --sizes 16384 --reps 200 \
    --out "$out/chain-hazardall.csv" > /dev/null
fi
rm -f "$out/warmup.csv"
