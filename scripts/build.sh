#!/usr/bin/env bash
# Configures and builds vktensor into build/ (or $1): Release, Vulkan on, the library, vkt-bench
# and the example; tests only when asked (scripts/test.sh passes -DVKT_BUILD_TESTS=ON).
# Extra arguments after the folder go to cmake, e.g. -DVKT_SANITIZE=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
# ccache (when installed) keys on paths relative to the checkout, so a fresh clone anywhere,
# such as CI's, reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVKT_BUILD_TESTS=OFF "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
