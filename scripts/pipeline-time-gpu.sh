#!/usr/bin/env bash
# The driver's pipeline creation per SPIR-V file (vkt-pipeline-time), each file in a fresh
# process with the NVIDIA driver's disk cache off, so every creation is a first one; two
# more creations in the same process follow (repeat_us). Source scripts/gpu-env.sh first.
# PIPELINE_TIME_FLAGS passes options on (--disable-optimization).
#   scripts/pipeline-time-gpu.sh BUILD_DIR OUT.csv FILE.spv...
set -euo pipefail
tool=${1:?usage: pipeline-time-gpu.sh BUILD_DIR OUT.csv FILE.spv...}/vkt-pipeline-time
out=${2:?usage: pipeline-time-gpu.sh BUILD_DIR OUT.csv FILE.spv...}
shift 2
"$tool" --repeats 0 "$1" | head -2 > "$out"
for f in "$@"; do
  __GL_SHADER_DISK_CACHE=0 "$tool" --repeats 2 ${PIPELINE_TIME_FLAGS:-} "$f" | tail -n +3 >> "$out"
done
