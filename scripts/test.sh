#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs the whole suite (cpu unit
# and golden tests; Vulkan conformance on the default device with validation on: lavapipe
# where there is no GPU), then the same suite built with ASan+UBSan, then the cpu suite
# built with ThreadSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup-debian.sh"
bash "$root/scripts/check-house.sh"
bash "$root/scripts/build.sh" "$root/build" -DVKT_BUILD_TESTS=ON
(cd "$root/build" && ctest --output-on-failure)
if [ "${VKT_SKIP_SANITIZE:-0}" != 1 ]; then
  bash "$root/scripts/build.sh" "$root/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVKT_SANITIZE=ON -DVKT_BUILD_BENCH=OFF -DVKT_BUILD_TESTS=ON
  # Leak checks off: the Vulkan loader and Mesa keep process-lifetime allocations; a failed
  # allocation returns null, as the library expects (tests/unit/sizes_test.cpp). The
  # staging and descriptor-pool reruns of the Vulkan suite are covered by the first pass;
  # this build's Vulkan pass runs without the validation layer and the long sweeps, which
  # the first pass runs validated (tests/conformance/CMakeLists.txt). The Python module's
  # tests run with the sanitizer runtimes preloaded into python3 (python/CMakeLists.txt).
  (cd "$root/build-asan" && ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 ctest --output-on-failure -E 'vulkan_staging|vulkan_descriptor_pools')
fi
if [ "${VKT_SKIP_TSAN:-0}" != 1 ]; then
  # ThreadSanitizer over the cpu backend's threaded loops. Built with clang and LLVM's
  # OpenMP runtime, whose Archer tool tells TSan about OpenMP's barriers and tasks;
  # ignore_noninstrumented_modules drops the runtime's own (uninstrumented) accesses, as
  # Archer's documentation asks. OpenBLAS runs single-threaded here (its threads are not
  # instrumented either); libgomp's OpenBLAS build is not loaded beside libomp.
  CC=clang CXX=clang++ bash "$root/scripts/build.sh" "$root/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVKT_SANITIZE_THREAD=ON -DVKT_WITH_VULKAN=OFF -DVKT_BUILD_BENCH=OFF -DVKT_BUILD_PYTHON=OFF \
    -DVKT_BUILD_TESTS=ON
  (cd "$root/build-tsan" && \
    OMP_TOOL_LIBRARIES="$(dirname "$(readlink -f "$(command -v clang)")")/../lib/libarcher.so" \
    TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1 allocator_may_return_null=1" \
    VKT_BLAS_LIBRARY=libopenblas.so.0 OPENBLAS_NUM_THREADS=1 \
    ctest --output-on-failure -R '^unit$')
fi
