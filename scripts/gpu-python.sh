#!/usr/bin/env bash
# Run on the GPU machine after `source scripts/gpu-env.sh`: builds the Python module for its
# python3 from python/src against build-gpu/python-kit.tar.xz (scripts/pack-gpu-python.sh)
# into build-gpu/python, laid out as a build tree's, then prints the PYTHONPATH to use (with
# Debian's pytest and hypothesis from /opt/gl where this python3 has none):
#   export PYTHONPATH=$(bash scripts/gpu-python.sh)
set -euo pipefail
kit=build-gpu/python-kit
out=build-gpu/python/vktensor
rm -rf "$kit" build-gpu/python
mkdir -p "$kit" "$out" "$kit/obj"
tar -C "$kit" -xJf build-gpu/python-kit.tar.xz
py=${PYTHON:-python3}
py_include=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$py" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
[ -f "$py_include/Python.h" ] || { echo "gpu-python: no Python.h under $py_include" >&2; exit 3; }
# PyTorch's pybind11 knows this Python; Debian's (2.10) predates 3.12.
pybind=$("$py" -c "import os, torch; print(os.path.join(os.path.dirname(torch.__file__), 'include'))" \
  2> /dev/null || true)
[ -f "$pybind/pybind11/pybind11.h" ] || pybind=$kit/include
echo "gpu-python: $("$py" --version), pybind11 from $pybind, $(g++ --version | head -1)" >&2
flags=(-O2 -std=c++20 -fPIC -fvisibility=hidden -fopenmp -Iinclude -isystem "$kit/include"
       -isystem "$py_include" -isystem "$pybind")
ls python/src/*.cpp | xargs -P "$(nproc)" -I{} sh -c \
  'g++ "$@" -c {} -o '"$kit"'/obj/$(basename {} .cpp).o' _ "${flags[@]}"
g++ -shared -fopenmp -o "$out/_vktensor$suffix" "$kit"/obj/*.o -L"$kit/lib" -lvktensor \
  -Wl,-rpath,"$(realpath "$kit/lib")"
cp python/vktensor/*.py "$out/"
path=$(realpath build-gpu/python)
"$py" -c 'import pytest, hypothesis' 2> /dev/null || path=$path:/opt/gl/usr/lib/python3/dist-packages
echo "$path"
