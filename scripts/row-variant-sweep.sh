#!/usr/bin/env bash
# The row kernel's variants (VKT_COMPILE_ROWS, src/vulkan/compile/compiled_rows_variant.h) on the GPU
# machine: for each variant, compiled softmax and layer norm over {4096, 4096} f32 with
# `vkt-bench chain`, first with no cache at all (VKT_CACHE_DIR=off and the NVIDIA driver's
# own shader cache off, so every run pays its pipeline: the first_call_* columns), then with
# the disk cache and 20 reps (C_compiled_us, C_compiled_GBps). Source scripts/gpu-env.sh first.
# Usage, from the repository root:
#   scripts/row-variant-sweep.sh OUTDIR BUILD_DIR VARIANT...   ("default" for the unset variable)
# e.g. scripts/row-variant-sweep.sh out build-gpu default lanes=128 loop=rolled
# ROW_SWEEP_SIZES (default 16777216: {4096, 4096}) sets --sizes.
# The H200 sweep, one device call each (about 10 s a variant), after pack-gpu.sh and
# `source scripts/gpu-env.sh`; the CSVs name their variant (file name, column compile_rows):
#   scripts/row-variant-sweep.sh "$OUT/rows" build-gpu default shuffle=0 lanes=128
#   scripts/row-variant-sweep.sh "$OUT/rows" build-gpu lanes=64 wg=512 wg=1024
#   scripts/row-variant-sweep.sh "$OUT/rows" build-gpu wg=128 loop=rolled lanes=128,loop=rolled
#   scripts/row-variant-sweep.sh "$OUT/rows" build-gpu lanes=32,loop=rolled wg=128,loop=rolled wg=512,lanes=128
#   scripts/row-variant-sweep.sh "$OUT/rows" build-gpu hold=shared,loop=rolled hold=shared lanes=128,hold=shared,loop=rolled
# The per-element arithmetic keys (max=, divide=, exp=, bounds=; the first line is the kernel
# before them):
#   scripts/row-variant-sweep.sh "$OUT/arith" build-gpu default max=combine,divide=plain,exp=plain,bounds=always
#   scripts/row-variant-sweep.sh "$OUT/arith" build-gpu max=combine divide=plain
#   scripts/row-variant-sweep.sh "$OUT/arith" build-gpu exp=bits exp=plain
#   scripts/row-variant-sweep.sh "$OUT/arith" build-gpu bounds=always
set -euo pipefail
out=${1:?usage: row-variant-sweep.sh OUTDIR BUILD_DIR VARIANT...}
bench=${2:?usage: row-variant-sweep.sh OUTDIR BUILD_DIR VARIANT...}/vkt-bench
shift 2
mkdir -p "$out"
host=$(hostname)
day=$(date -u +%Y-%m-%d)
sizes=${ROW_SWEEP_SIZES:-16777216}
# An idle GPU clocks down: a moment of memory-bound work first (run-gpu-benches.sh's warm-up).
"$bench" ops --ops add --sizes 16777216 --reps 200 --out "$out/.warm-up.csv" > /dev/null 2>&1 || true
rm -f "$out/.warm-up.csv"
for v in "$@"; do
  rows=$v
  [ "$v" = default ] && rows=
  tag=$(echo "$v" | tr '=,' '-_')
  VKT_COMPILE_ROWS=$rows VKT_CACHE_DIR=off __GL_SHADER_DISK_CACHE=0 "$bench" chain \
    --ops softmax,layernorm --sizes "$sizes" --reps 5 \
    --out "$out/${host}_rows-firstcall-${tag}_${day}.csv" > /dev/null
  VKT_COMPILE_ROWS=$rows "$bench" chain --ops softmax,layernorm --sizes "$sizes" --reps 20 \
    --out "$out/${host}_rows-${tag}_${day}.csv" > /dev/null
  echo "row-variant-sweep: $v done"
done
