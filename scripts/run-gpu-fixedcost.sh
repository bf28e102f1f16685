#!/usr/bin/env bash
# An op's fixed cost on the GPU machine under each of the bench's variants, in one run
# (issue 9, C at most 25 us at 1024). Source scripts/gpu-env.sh first.
# Usage, from the repository root:
#   scripts/run-gpu-fixedcost.sh OUTDIR [build dir]   (default build dir: build-gpu)
# For each variant: vkt-bench overhead (seed ops and add, exp, sum, transpose at 1024, and
# submit_wait: an empty batch's round trip) and vkt-bench ops for the seed ops at 1024.
# Variants (environment):
#   base        the defaults (timeline semaphore polled, opening barrier always, the timer's
#               queries reset from the host where the device can, copies up to the measured
#               crossover by vkCmdCopyBuffer, push descriptors)
#   notimer     VKT_BENCH_DEVICE_TIMER=0: no timestamps around the op (no device columns)
#   nopush      VKT_VK_NO_PUSH_DESCRIPTOR=1: descriptor sets from a pool, not pushed
# Then vkt-bench chain at 16384 (the per-op cost inside a batch) for base.
# VARIANTS="base nopush" runs only those (the chain runs with base).
set -euo pipefail
out=${1:?usage: run-gpu-fixedcost.sh OUTDIR [build dir]}
build=${2:-build-gpu}
bench=$build/vkt-bench
mkdir -p "$out"
seed=concatenate,pad,put_slice,indexed_put,broadcast,gather,take
# The GPU's clocks up first: the fixed cost on a cold GPU was measured markedly higher.
# WARMUP_SIZE: smaller for a smoke test on lavapipe.
"$bench" ops --ops add --sizes "${WARMUP_SIZE:-16777216}" --reps 300 --out "$out/warmup.csv" \
  > /dev/null
variants=(base notimer nopush)
envs=("" "VKT_BENCH_DEVICE_TIMER=0" "VKT_VK_NO_PUSH_DESCRIPTOR=1")
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
rm -f "$out/warmup.csv"
