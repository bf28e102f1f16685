#!/usr/bin/env bash
# The cold first call of each op named (issue 36: at most 50 ms per elementwise family on
# NVIDIA): one fresh process per op, vkt-bench's disk pipeline cache and the NVIDIA driver's
# shader disk cache both off, so the op's pipelines are created from SPIR-V in that call.
# One CSV, a row per op (vkt-bench firstcall's columns). Source scripts/gpu-env.sh first on
# the GPU machine.
#   scripts/first-call-gpu.sh BENCH OUT.csv [ops (default: one op of each elementwise kind)]
set -euo pipefail
bench=${1:?usage: first-call-gpu.sh BENCH OUT.csv [ops]}
out=${2:?usage: first-call-gpu.sh BENCH OUT.csv [ops]}
ops=${3:-exp,tanh,erf_inv,abs,add,multiply,atan2,pow,equal,max}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for op in ${ops//,/ }; do
  VKT_CACHE_DIR=off __GL_SHADER_DISK_CACHE=0 "$bench" firstcall --ops "$op" --reps 20 \
    --out "$tmp/$i.csv" > /dev/null
  i=$((i + 1))
done
head -n 1 "$tmp/0.csv" > "$out"
for ((j = 0; j < i; ++j)); do tail -n +2 "$tmp/$j.csv" >> "$out"; done
