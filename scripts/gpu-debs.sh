#!/usr/bin/env bash
# Downloads (here, where Debian's registry is reachable) the runtime libraries a build from
# this machine needs on the GPU machine, which has an NVIDIA driver but no package registry:
# the Vulkan loader, libEGL (NVIDIA's Vulkan driver loads it), the validation layer,
# OpenBLAS (both builds) and its Fortran runtime. Files land in ./.gl/ (git-ignored);
# extra Debian package names may be given as arguments. scripts/gpu-env.sh unpacks them
# there. docs/gpu-machine.md: the whole round trip.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
grep -qxF '/.gl/' .git/info/exclude 2>/dev/null || echo '/.gl/' >> .git/info/exclude
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
mkdir -p .gl "$lists/partial"
apt_opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
apt-get "${apt_opts[@]}" update -qq >/dev/null
cd .gl
apt-get "${apt_opts[@]}" download libvulkan1 libegl1 libglvnd0 vulkan-validationlayers \
  libopenblas0-pthread libopenblas0-openmp libgomp1 libgfortran5 "$@" 2>&1 |
  grep -v '^W: Download is performed unsandboxed' || true
ls -1 "$root/.gl"
