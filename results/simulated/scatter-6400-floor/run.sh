#!/bin/bash
# The probes of results/simulated/scatter-6400-floor/README.md: compiles probe.cpp against the
# smpi build's tree library and runs each (p, mode, shape, b) below at p = 6400 (radix-6400-greedy's
# platform and hosts, root 3200) and p = 560 (radix-560-scatter's, root 280), two repetitions
# each, two at a time; writes probes.tsv here (the second repetition's time is the one the README
# quotes). From the repository root after scripts/build smpi (about 13 minutes on 2 cores).
set -euo pipefail
DIR=results/simulated/scatter-6400-floor
BIN=build/smpi/scatter-6400-floor-probe
smpicxx -std=c++17 -O2 -Wall -Wextra -Ialgorithms/tree "$DIR/probe.cpp" \
  build/smpi/algorithms/libtuwtree.a -o "$BIN"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# evenK_0's tables: the flow model's best parts of a range (flows.py)
for b in 1 10; do /usr/bin/python3 "$DIR/flows.py" table 6400 $b >"$WORK/table$b"; done
# shape codes (tree::ShapeCode): one level S = S; two levels S/N with 16 ranks a node =
# S + 128 N + 16384 * 16
two() { echo $(($1 + 128 * $2 + 16384 * 16)); }
jobs=()  # "P MODE SHAPE B [TABLE]", in probes.tsv's order
add() { jobs+=("$*"); }
for mode in bcast data root; do add 6400 $mode "$(two 10 4)" 1; done
for mode in bcast data; do add 6400 $mode 8 1; done
add 6400 mpi-bcast 0 1
for step in 5 14 20 40; do
  for mode in bcast data; do add 6400 $mode "$(two $step 4)" 1; done
done
for b in 1 10; do
  for mode in bcast data root; do add 560 $mode 5 $b; done
done
for k in 2 4 6 8; do add 6400 "topk$k" "$(two 10 4)" 1; done
for k in 4 6 12; do add 6400 "topk$k" "$(two 14 4)" 1; done
for k in 2 4 6 8 12 16; do add 560 "topk$k" "$(two 10 4)" 10; done
for mode in data root topk4 topk8 topk16; do add 6400 $mode "$(two 10 4)" 10; done
# acknowledgements, pieces, equal node ranges (the README's "Flows")
for mode in ack1 rootack1; do add 6400 $mode "$(two 10 4)" 1; done
for mode in ack1 ack2 rootack1; do add 560 $mode 5 10; done
for s in 512 1024 2048 3072 4096 8192; do add 560 "piece$s" 5 10; done
for s in 1024 2048; do add 560 "rrpiece$s" 5 10; done
for s in 2048 4096 8192; do add 6400 "piece$s" "$(two 10 4)" 1; done
add 6400 rrpiece4096 "$(two 10 4)" 1
for s in 8192 16384; do add 6400 "piece$s" "$(two 10 4)" 10; done
for mode in even6_6 even8_4 even12_4 even20_4 even10_10 even16_8 even16_16 even16_8b; do
  add 6400 $mode 4 1
done
for mode in even16_8 even24_8 even24_24 even32_4 even32_8 even32_16 even32_32 even40_8 \
  even48_8 even64_8; do
  add 6400 $mode 4 10
done
for b in 1 10; do for mode in even6_6 even12_4; do add 560 $mode 4 $b; done; done
for mode in even4_4 even8_4; do add 560 $mode 4 10; done
add 6400 even4_0 4 1 "$WORK/table1"
add 6400 even39_0 4 10 "$WORK/table10"
# the root's sends one after the other, W in flight, the last T nodes short ranges (2026-11-28)
for mode in tail32_4_0_0 tail32_4_0_2 tail32_4_0_4 tail32_4_0_8 tail32_4_16_4 tail32_4_16_6 \
  tail32_4_16_8 tail32_4_32_8; do
  add 6400 $mode 4 10
done
mapfile -t CONFIG < <(scripts/simulate --print-config)  # every simulation's calibration
run() {  # run INDEX P MODE SHAPE B [TABLE]: the job's two lines into $WORK/INDEX
  local index=$1 p=$2 platform hosts lines
  shift 2
  if [ "$p" = 6400 ]; then
    platform=paper-qdr80.xml hosts=results/simulated/radix-6400-greedy/default/hostfile.txt
  else
    platform=paper-560.xml hosts=results/simulated/radix-560-scatter/default/hostfile.txt
  fi
  # smpirun exits 0 after the probe's MPI_Abort, so a run is checked by its two lines
  lines=$(smpirun -np "$p" -platform "$PWD/harness/platforms/$platform" -hostfile "$PWD/$hosts" \
    "${CONFIG[@]}" --log=root.thres:warning "$BIN" "$1" "$2" "$3" 2 ${4:+"$4"} 2>"$WORK/$index.err")
  if [ "$(grep -c . <<<"$lines")" != 2 ]; then
    echo "run.sh: p $p, $*: no times ($(grep -v 'MPI_Abort was called' "$WORK/$index.err" |
      head -2))" >&2
    return 1
  fi
  sed "s/^/$p\t/" <<<"$lines" >"$WORK/$index"
}
export -f run
export BIN WORK
export CONFIG_LINES="${CONFIG[*]}"
for i in "${!jobs[@]}"; do echo "$i ${jobs[$i]}"; done |
  xargs -P 2 -L 1 bash -c 'CONFIG=($CONFIG_LINES); run "$@"' _
out=$DIR/probes.tsv
printf 'p\tmode\tshape\tb\trep\tus\tfirst_exit_before_root_us\tlast_exit_before_root_us\n' >"$out"
for i in "${!jobs[@]}"; do cat "$WORK/$i" >>"$out"; done
