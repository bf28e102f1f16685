#!/usr/bin/env bash
# An A/B of environment settings on `vkt-bench ops`: N fresh processes per setting,
# alternating between settings (reversed every second round) so the clock and drift hit each
# alike. Source scripts/gpu-env.sh first on the GPU machine. Usage, from the repository root:
#   scripts/ab-ops.sh OUTDIR BUILD_DIR N OPS SIZES SETTING...
# SETTING is NAME:VAR=VALUE[ VAR=VALUE...] (or NAME: for the defaults), e.g.
#   default: staging:VKT_VK_STAGING=1 "pools:VKT_VK_NO_PUSH_DESCRIPTOR=1 VKT_VK_STAGING=1"
# Writes OUTDIR/NAME-K.csv and prints, per setting, op and size, the median over processes of
# each process's median C (vulkan_us) and device time (vulkan_gpu_us).
set -euo pipefail
out=${1:?usage: ab-ops.sh OUTDIR BUILD_DIR N OPS SIZES SETTING...}
bench=${2:?usage}/vkt-bench
n=${3:?usage}
ops=${4:?usage}
sizes=${5:?usage}
shift 5
mkdir -p "$out"
# shellcheck source=scripts/lib/rounds.sh
source "$(dirname "$0")/lib/rounds.sh"
ops_process() {  # NAME K VAR=VALUE...
  local name=$1 k=$2
  shift 2
  env "$@" "$bench" ops --ops "$ops" --sizes "$sizes" --reps 20 --out "$out/$name-$k.csv" > /dev/null
}
rounds "$n" ops_process "$@"
python3 - "$out" "$@" <<'PY'
import csv, glob, statistics, sys
out = sys.argv[1]
for s in sys.argv[2:]:
    name = s.split(':')[0]
    rows = {}
    # NAME-K.csv only: a setting named NAME-x has files of its own.
    for f in sorted(glob.glob(f'{out}/{name}-[0-9]*.csv')):
        for r in csv.DictReader(open(f)):
            rows.setdefault((r['op'], int(r['size'])), []).append(r)
    for (op, size), rs in sorted(rows.items()):
        c = statistics.median(float(r['vulkan_us']) for r in rs)
        g = statistics.median(float(r['vulkan_gpu_us']) for r in rs)
        print(f'{name:10s} {op:12s} {size:>9d}  C {c:8.1f} us  device {g:8.1f} us  ({len(rs)} processes)')
PY
