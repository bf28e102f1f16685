#!/usr/bin/env bash
# Packs what the GPU machine needs to build the Python module there (its python3 is
# Ubuntu's, not Debian's 3.11, and a module is built for one Python): libvktensor.so (every
# layer, linked here: the archive's LTO objects are for this g++ only), the DLPack header and
# Debian's pybind11 (used there only if PyTorch ships none); and into .gl, pytest and
# hypothesis (pure Python; used there only if its python3 lacks them). scripts/gpu-python.sh
# builds the module there from python/src. Run after scripts/pack-gpu.sh, into the same folder:
#   scripts/pack-gpu-python.sh [build dir] [packed dir]   (defaults: build, build-gpu)
set -euo pipefail
build=${1:-build}
packed=${2:-build-gpu}
cmake "$build" -DVKT_BUILD_SHARED=ON > /dev/null
cmake --build "$build" --target vktensor_shared -j "$(nproc)" > /dev/null
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$stage/include"
cp "$build/libvktensor.so" "$stage/lib/"
strip --strip-unneeded "$stage/lib/libvktensor.so"
cp -r /usr/include/dlpack /usr/include/pybind11 "$stage/include/"
mkdir -p "$packed"
if ! ls .gl/python3-pytest_*.deb > /dev/null 2>&1; then
  bash scripts/gpu-debs.sh python3-pytest python3-hypothesis python3-attr python3-iniconfig \
    python3-packaging python3-pluggy python3-py python3-sortedcontainers python3-exceptiongroup > /dev/null
fi
tar -C "$stage" -cJf "$packed/python-kit.tar.xz" lib include
du -sh "$packed/python-kit.tar.xz"
