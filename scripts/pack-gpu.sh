#!/usr/bin/env bash
# Copies what the GPU machine runs (vkt-bench, vkt-pipeline-time, the two test binaries and the fuzzer) from a build
# folder into a small one that fits the device tool's carry limit (64 MiB). The binaries link
# shaderc, glslang and SPIRV-Tools statically (vkt::compile), ~9 MB each, so they travel
# stripped and gzipped; `source scripts/gpu-env.sh` on the device unpacks them (again after
# each new pack) into build-gpu/vkt-bench and build-gpu/tests/{vkt_unit_tests,
# vkt_vulkan_tests,vkt_fuzz}, where they always were.
# Usage:
#   scripts/pack-gpu.sh [build dir] [packed dir]   (defaults: build, build-gpu)
set -euo pipefail
build=${1:-build}
packed=${2:-build-gpu}
# Built first, so vkt-bench's commit stamp (bench/commit.cmake, refreshed at every build) is
# the commit packed: a pack made after a commit without a rebuild carried the previous
# commit's "-dirty" stamp into runs 15 and 16's CSVs.
cmake --build "$build" -j "$(nproc)" > /dev/null
rm -rf "$packed"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests" "$packed"
cp "$build/vkt-bench" "$build/vkt-pipeline-time" "$stage/"
cp "$build/tests/vkt_unit_tests" "$build/tests/conformance/vkt_vulkan_tests" \
  "$build/tests/fuzz/vkt_fuzz" "$stage/tests/"
strip "$stage/vkt-bench" "$stage/vkt-pipeline-time" "$stage"/tests/*
tar -czf "$packed/binaries.tar.gz" -C "$stage" vkt-bench vkt-pipeline-time tests
git rev-parse --short=12 HEAD > "$packed/COMMIT"
git diff --quiet HEAD -- src include bench || echo "pack-gpu: warning: uncommitted changes in src/include/bench (CSVs will be stamped -dirty)" >&2
du -sh "$packed"
