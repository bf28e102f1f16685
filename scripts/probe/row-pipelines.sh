#!/usr/bin/env bash
# Builds the SPIR-V set that the pipeline-creation probe times on the GPU machine
# (scripts/pipeline-time-gpu.sh): the compiled softmax and layer norm row kernels by
# VKT_COMPILE_ROWS variant (their GLSL from VKT_COMPILE_DUMP; glslc -O, and -O0 as
# vkt::compile's shaderc), timing-only cuts of the rare=inline softmax kernel
# (row_kernel_variants.py), and eager shaders for scale. Usage, from the repository root
# after a build:
#   scripts/probe/row-pipelines.sh BUILD_DIR OUTDIR
set -euo pipefail
build=${1:?usage: row-pipelines.sh BUILD_DIR OUTDIR}
out=${2:?usage: row-pipelines.sh BUILD_DIR OUTDIR}
mkdir -p "$out"
shaders=src/vulkan/shaders
inc=(-I "$shaders" -I "$build/src/vulkan/glsl")
dump() {  # name ops VKT_COMPILE_ROWS
  VKT_COMPILE_ROWS="$3" VKT_COMPILE_DUMP=1 VKT_CACHE_DIR=off \
    "$build/vkt-bench" chain --ops "$2" --sizes 1048576 --reps 1 --out "$out/.dump.csv" 2>&1 |
    awk '/generated GLSL/{f=1;next} /^vkt::compile: pipeline generated/{if(f){exit}} f' > "$out/$1.comp" || true  # awk stops at the first kernel
  [ -s "$out/$1.comp" ] || { echo "row-pipelines: no GLSL for $1" >&2; exit 1; }
}
dump softmax softmax ""
dump softmax_rareinline softmax "rare=inline"
dump softmax_run27 softmax "max=combine,divide=plain,exp=plain,bounds=always"
dump softmax_rolled softmax "loop=rolled"
dump softmax_divplain softmax "divide=plain"
dump layernorm layernorm ""
dump layernorm_rolled layernorm "loop=rolled"
dump softmax_split2 softmax "split=2"
dump layernorm_split2 layernorm "split=2"
dump softmax_shuffle0 softmax "shuffle=0"
dump layernorm_shuffle0 layernorm "shuffle=0"
rm -f "$out/.dump.csv"
python3 scripts/probe/row_kernel_variants.py "$out/softmax_rareinline.comp" "$out"
python3 scripts/probe/row_kernel_variants.py --once "$out/softmax.comp" "$out"
for f in "$out"/*.comp; do
  glslc -O --target-env=vulkan1.1 -fshader-stage=comp "${inc[@]}" "$f" -o "${f%.comp}.spv"
done
# vkt::compile hands the driver unoptimised SPIR-V (kernel_cache.cpp): the same kernels so.
for k in softmax softmax_rareinline layernorm softmax_split2 layernorm_split2; do
  glslc -O0 --target-env=vulkan1.1 -fshader-stage=comp "${inc[@]}" "$out/$k.comp" -o "$out/${k}_O0.spv"
done
glslc -O --target-env=vulkan1.1 "${inc[@]}" -DVKT_ONLY_OPS -DVKT_KEEP_OP_EXP \
  "$shaders/elementwise_unary.comp" -o "$out/eager_unary_exp_only.spv"
# Cheap spirv-opt pass lists over the -O0 modules (what vkt::compile could run in-process):
# inlined; inlined and simplified (SSA, constants propagated, dead code out); spirv-opt -O.
cheap=(--inline-entry-points-exhaustive --eliminate-dead-functions)
simplify=(--ssa-rewrite --ccp --eliminate-dead-code-aggressive)
for k in softmax layernorm; do
  spirv-opt "${cheap[@]}" "$out/${k}_O0.spv" -o "$out/${k}_O0_inline.spv"
  spirv-opt "${cheap[@]}" "${simplify[@]}" "$out/${k}_O0.spv" -o "$out/${k}_O0_simplify.spv"
  spirv-opt "${cheap[@]}" "${simplify[@]}" --merge-blocks --simplify-instructions \
    --redundancy-elimination "$out/${k}_O0.spv" -o "$out/${k}_O0_simplify2.spv"
  spirv-opt -O "$out/${k}_O0.spv" -o "$out/${k}_O0_opt.spv"
done
for s in elementwise_unary elementwise_binary reduce_f32_sg movement_copy; do
  cp "$build/src/vulkan/spv/$s.spv" "$out/eager_$s.spv"
done
ls "$out"/*.spv | wc -l
