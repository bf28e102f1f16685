# Sourced on the GPU machine (docs/gpu-machine.md) before anything of ours runs there:
# unpacks the runtime libraries that scripts/gpu-debs.sh put in .gl/ into /opt/gl
# (aside, so the image's own libraries still win), points the loader at NVIDIA's ICD and
# the validation layer, and picks the OpenBLAS variant (VKT_GPU_BLAS=pthread|openmp,
# default openmp: one OpenMP thread team shared with the cpu backend's loops).
#   source scripts/gpu-env.sh
if [ ! -d /opt/gl/usr ]; then
  mkdir -p /opt/gl
  for f in .gl/*.deb; do dpkg -x "$f" /opt/gl; done
fi
g=/opt/gl/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$g/openblas-${VKT_GPU_BLAS:-openmp}:${LD_LIBRARY_PATH:-}:$g
# Without it the image's own OpenBLAS loads (its pthreads build: src/cpu/blas.h), silently.
[ -d "$g/openblas-${VKT_GPU_BLAS:-openmp}" ] ||
  echo "gpu-env: no $g/openblas-${VKT_GPU_BLAS:-openmp} (.gl lacks its package: scripts/pack-gpu.sh fetches it)" >&2
for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json \
           /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
done
for egl in /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -f "$egl" ]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$egl; break; fi
done
export VK_LAYER_PATH=/opt/gl/usr/share/vulkan/explicit_layer.d
# The packed binaries travel gzipped (scripts/pack-gpu.sh): unpacked here unless this very
# archive (by checksum) was unpacked before; files from an older pack are replaced.
if [ -f build-gpu/binaries.tar.gz ]; then
  sum=$(cksum < build-gpu/binaries.tar.gz)
  if [ "$(cat build-gpu/.unpacked 2>/dev/null)" != "$sum" ]; then
    tar -xzmf build-gpu/binaries.tar.gz -C build-gpu && echo "$sum" > build-gpu/.unpacked
  fi
fi
# The commit the packed build was made from (the tree there has no .git), for the peers' CSVs.
if [ -f build-gpu/COMMIT ]; then export VKT_GIT_COMMIT=$(cat build-gpu/COMMIT); fi
