#!/usr/bin/env bash
# Installs every Debian package vktensor needs (build, tests, bench, plots). Idempotent.
# Run as root on Debian 12: bash scripts/setup-debian.sh
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libgtest-dev libgmock-dev
  libopenblas-dev libopenblas0-openmp liblapacke-dev libcli11-dev libkissfft-dev libvkfft-dev
  libdlpack-dev
  glslc libshaderc-dev glslang-dev spirv-tools libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  python3 python3-dev python3-numpy python3-matplotlib nlohmann-json3-dev
  pybind11-dev python3-pytest python3-hypothesis python3-sklearn python3-dask python3-distributed zlib1g-dev
  clang-format clang libomp-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "setup-debian: all ${#packages[@]} packages present"
