#!/usr/bin/env bash
# Cold first calls of compiled softmax and layer norm over {4096, 4096} f32 (issue 12's
# 100 ms), one fresh process each with no cache at all (VKT_CACHE_DIR=off, the NVIDIA
# driver's disk cache off), alternating between settings (reversed every second round) so
# drift hits each alike: the driver's pipeline time moves by half between processes (runs
# 42-44), so one sample says little. Source scripts/gpu-env.sh first. Usage, from the repository root:
#   scripts/first-call-samples.sh OUTDIR BUILD_DIR N SETTING...
# SETTING is NAME:VAR=VALUE[ VAR=VALUE...] (or NAME: for the defaults), e.g. none:
#   nopush:VKT_VK_NO_PUSH_DESCRIPTOR=1
# Writes OUTDIR/NAME-K.csv (vkt-bench chain rows, first_call_us) and prints a summary.
set -euo pipefail
out=${1:?usage: first-call-samples.sh OUTDIR BUILD_DIR N SETTING...}
bench=${2:?usage}/vkt-bench
n=${3:?usage}
shift 3
mkdir -p "$out"
# shellcheck source=scripts/lib/rounds.sh
source "$(dirname "$0")/lib/rounds.sh"
first_call() {  # NAME K VAR=VALUE...
  local name=$1 k=$2
  shift 2
  env "$@" VKT_CACHE_DIR=off __GL_SHADER_DISK_CACHE=0 "$bench" chain \
    --ops softmax,layernorm --sizes 16777216 --reps 3 --out "$out/$name-$k.csv" > /dev/null
}
rounds "$n" first_call "$@"
python3 - "$out" "$@" <<'PY'
import csv, glob, statistics, sys
out = sys.argv[1]
for s in sys.argv[2:]:
    name = s.split(':')[0]
    by_op = {}
    # NAME-K.csv only: a setting named NAME-x has files of its own.
    for f in sorted(glob.glob(f'{out}/{name}-[0-9]*.csv')):
        for r in csv.DictReader(open(f)):
            by_op.setdefault(r['op'], []).append(float(r['first_call_us']) / 1000)
    for op, v in by_op.items():
        print(f'{name:10s} {op:10s} first call ms: median {statistics.median(v):.1f} '
              f'min {min(v):.1f} max {max(v):.1f} of {len(v)}')
PY
