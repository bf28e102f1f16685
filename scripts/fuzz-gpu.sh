#!/usr/bin/env bash
# Many fuzz programs on the GPU machine: PROCESSES vkt_fuzz processes of THREADS threads each
# run contiguous shares of programs 0 .. TOTAL-1 of one seed, so together they run each once
# (a failure replays anywhere: vkt_fuzz --seed SEED --first i --programs 1). Threads of one
# process share its device queue and its pipelines; processes each create their own
# pipelines but wait on the device independently. Each process's log (its mismatches and
# its breakdown) goes to OUTDIR; the last line sums them.
# Usage: scripts/fuzz-gpu.sh PROCESSES THREADS SEED TOTAL OUTDIR [SECONDS]
#   SECONDS (default 0: none) stops every process by then; the sum says how many ran.
#   VKT_FUZZ=path picks the binary (default build-gpu/tests/vkt_fuzz).
#   VKT_FUZZ_BASE=N shifts the range to programs N .. N+TOTAL-1, so a run longer than one
#   device call goes on in the next over programs the first did not reach.
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 PROCESSES THREADS SEED TOTAL OUTDIR [SECONDS]" >&2
  exit 2
fi
procs=$1 threads=$2 seed=$3 total=$4 out=$5 seconds=${6:-0}
fuzz=${VKT_FUZZ:-build-gpu/tests/vkt_fuzz}
mkdir -p "$out"
base=${VKT_FUZZ_BASE:-0}
share=$(((total + procs - 1) / procs))
start=$(date +%s.%N)
pids=()
for ((p = 0; p < procs; ++p)); do
  first=$((p * share))
  count=$((total - first < share ? total - first : share))
  [ "$count" -gt 0 ] || break
  "$fuzz" --seed "$seed" --first "$((base + first))" --programs "$count" --threads "$threads" \
    --seconds "$seconds" --progress 30 > "$out/fuzz-$seed-$p.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# Each log ends with "vkt_fuzz: N programs, ... s; M mismatching programs".
read -r programs mismatches < <(cat "$out"/fuzz-"$seed"-*.log | awk '
  /^vkt_fuzz: [0-9]+ programs,/ { n += $2; for (i = 1; i <= NF; i++) if ($i == "mismatching") m += $(i - 1) }
  END { print n + 0, m + 0 }')
rate=$(awk -v n="$programs" -v w="$wall" 'BEGIN { printf "%.1f", n / (w > 0 ? w : 1) }')
echo "fuzz-gpu: seed $seed, $procs processes x $threads threads: $programs programs of $total" \
  "from $base," \
  "$mismatches mismatching programs, $wall s, $rate programs/s (exit status $status)" |
  tee "$out/summary-$seed.txt"
exit "$status"
