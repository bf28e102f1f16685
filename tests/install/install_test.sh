#!/usr/bin/env bash
# Installs the built library into a temporary prefix, then configures, builds and runs a
# downstream project that finds it with find_package(vktensor CONFIG).
set -euo pipefail
build_dir=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
cmake -S "$here" -B "$tmp/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/build"
"$tmp/build/consumer"
