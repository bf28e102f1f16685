#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs the whole suite (cpu unit
# and golden tests; Vulkan conformance on the default device with validation on: lavapipe
# where there is no GPU), then the same suite built with ASan+UBSan.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup-debian.sh"
bash "$root/scripts/build.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure)
if [ "${VKT_SKIP_SANITIZE:-0}" != 1 ]; then
  bash "$root/scripts/build.sh" "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVKT_SANITIZE=ON -DVKT_BUILD_BENCH=OFF
  # Leak checks off: the Vulkan loader and Mesa keep process-lifetime allocations. The
  # staging and descriptor-pool reruns of the Vulkan suite are covered by the first pass.
  (cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -E 'vulkan_staging|vulkan_descriptor_pools')
fi
