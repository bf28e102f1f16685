#!/usr/bin/env bash
# Copies what the GPU machine runs (vkt-bench, the probes vkt-pipeline-time and
# vkt-coopmat-peak with its kernels, the two test binaries and the fuzzer) from a build
# folder into a small one that fits the device tool's carry limit (64 MiB). The binaries link
# shaderc, glslang and SPIRV-Tools statically (vkt::compile), ~9 MB each, so they travel
# stripped and gzipped; `source scripts/gpu-env.sh` on the device unpacks them (again after
# each new pack) into build-gpu/vkt-bench and build-gpu/tests/{vkt_unit_tests,
# vkt_vulkan_tests,vkt_fuzz}, where they always were.
# Usage:
#   scripts/pack-gpu.sh [build dir] [packed dir] [lean]   (defaults: build, build-gpu)
# "lean" leaves out the unit tests (which run the same on any machine), for a pack that stays
# under the carry limit beside .gl (about 33 MiB with the fuzzer, against .gl's 19).
set -euo pipefail
build=${1:-build}
packed=${2:-build-gpu}
lean=${3:-}
# Built first, so vkt-bench's commit stamp (bench/commit.cmake, refreshed at every build) is
# the commit packed: a pack made after a commit without a rebuild carried the previous
# commit's "-dirty" stamp into the CSVs of the benches that followed.
# The probes and tests are off in a plain build (scripts/build.sh): turned on here.
cmake "$build" -DVKT_BUILD_TOOLS=ON -DVKT_BUILD_TESTS=ON > /dev/null
cmake --build "$build" -j "$(nproc)" > /dev/null
# The cpu baseline there needs OpenBLAS's OpenMP build (src/cpu/blas.h; scripts/gpu-env.sh
# puts it first): where .gl lacked it, benches loaded the image's pthreads build, whose
# spinning threads slowed the mlp's 1024^3 dot beside the cpu's OpenMP loops many times over.
if ! ls .gl/libopenblas0-openmp_*.deb > /dev/null 2>&1; then
  bash scripts/gpu-debs.sh > /dev/null
fi
rm -rf "$packed"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests" "$packed"
cp "$build/vkt-bench" "$build/vkt-pipeline-time" "$build/vkt-coopmat-peak" "$stage/"
# The training example and its data (the GPU image has no python3-sklearn).
cp "$build/vkt-train-digits" /usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz "$stage/"
cp "$build"/coopmat_peak_*.spv "$build"/gemm_ladder.spv "$stage/"
cp "$build/tests/conformance/vkt_vulkan_tests" "$build/tests/fuzz/vkt_fuzz" "$stage/tests/"
if [ "$lean" != lean ]; then
  cp "$build/tests/vkt_unit_tests" "$stage/tests/"
fi
strip "$stage/vkt-bench" "$stage/vkt-pipeline-time" "$stage/vkt-coopmat-peak" "$stage/vkt-train-digits" \
  "$stage"/tests/*
(cd "$stage" && tar -czf - vkt-bench vkt-pipeline-time vkt-coopmat-peak coopmat_peak_*.spv gemm_ladder.spv \
  vkt-train-digits digits.csv.gz tests) \
  > "$packed/binaries.tar.gz"
git rev-parse --short=12 HEAD > "$packed/COMMIT"
git diff --quiet HEAD -- src include bench || echo "pack-gpu: warning: uncommitted changes in src/include/bench (CSVs will be stamped -dirty)" >&2
du -sh "$packed"
