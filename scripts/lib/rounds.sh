# Sourced by the A/B scripts (ab-ops.sh, first-call-samples.sh):
#   rounds N RUN SETTING...
# calls `RUN NAME K VAR=VALUE...` once per setting in each of N rounds, one fresh process per
# call. SETTING is NAME:VAR=VALUE[ VAR=VALUE...] (or NAME: for the defaults). Even rounds take
# the settings in reverse: in run 51 every second process of a pair ran ~30 us slower per
# call on the host side, which a fixed order charges to one setting.
rounds() {
  local n=$1 run=$2
  shift 2
  local forward=("$@") reverse=() order=() i k s
  for ((i = $# - 1; i >= 0; i--)); do reverse+=("${forward[i]}"); done
  for k in $(seq 1 "$n"); do
    if ((k % 2 == 0)); then order=("${reverse[@]}"); else order=("${forward[@]}"); fi
    for s in "${order[@]}"; do
      # shellcheck disable=SC2086  # VAR=VALUE words, split on purpose
      "$run" "${s%%:*}" "$k" ${s#*:}
    done
  done
}
