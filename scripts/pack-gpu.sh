#!/usr/bin/env bash
# Copies what the GPU machine runs (vkt-bench, the two test binaries and the fuzzer) from a build
# folder into a small one that fits the device tool's carry limit. Usage:
#   scripts/pack-gpu.sh [build dir] [packed dir]   (defaults: build, build-gpu)
set -euo pipefail
build=${1:-build}
packed=${2:-build-gpu}
rm -rf "$packed"
mkdir -p "$packed/tests"
cp "$build/vkt-bench" "$packed/"
cp "$build/tests/vkt_unit_tests" "$build/tests/conformance/vkt_vulkan_tests" \
  "$build/tests/fuzz/vkt_fuzz" "$packed/tests/"
# The binaries travel gzipped (mostly embedded SPIR-V: 44 MB -> 14 MB), under the device
# tool's 64 MiB carry limit with .gl; scripts/gpu-env.sh unpacks them there.
tar czf "$packed/binaries.tgz" -C "$packed" vkt-bench tests
rm -rf "$packed/vkt-bench" "$packed/tests"
git rev-parse --short=12 HEAD > "$packed/COMMIT"
git diff --quiet HEAD -- src include bench || echo "pack-gpu: warning: uncommitted changes in src/include/bench" >&2
du -sh "$packed"
