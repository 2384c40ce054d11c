#!/bin/bash
# The probes of results/simulated/scatter-6400-floor/README.md: compiles probe.cpp against the
# smpi build's tree library and runs each (mode, shape, b) below at p = 6400 (radix-6400-greedy's
# platform and hosts, root 3200) and p = 560 (radix-560-scatter's, root 280), two repetitions
# each; writes probes.tsv here (the second repetition's time is the one the README quotes). From
# the repository root after scripts/build smpi.
set -euo pipefail
DIR=results/simulated/scatter-6400-floor
BIN=build/smpi/scatter-6400-floor-probe
smpicxx -std=c++17 -O2 -Wall -Wextra -Ialgorithms/tree "$DIR/probe.cpp" \
  build/smpi/algorithms/libtuwtree.a -o "$BIN"
mapfile -t CONFIG < <(scripts/simulate --print-config)  # every simulation's calibration
# shape codes (tree::ShapeCode): one level S = S; two levels S/N with 16 ranks a node =
# S + 128 N + 16384 * 16
two() { echo $(($1 + 128 * $2 + 16384 * 16)); }
run() {  # run P MODE SHAPE B
  local platform hosts
  if [ "$1" = 6400 ]; then
    platform=paper-qdr80.xml hosts=results/simulated/radix-6400-greedy/default/hostfile.txt
  else
    platform=paper-560.xml hosts=results/simulated/radix-560-scatter/default/hostfile.txt
  fi
  # smpirun exits 0 after the probe's MPI_Abort, so a run is checked by its two lines
  local lines
  lines=$(smpirun -np "$1" -platform "$PWD/harness/platforms/$platform" -hostfile "$PWD/$hosts" \
    "${CONFIG[@]}" --log=root.thres:warning "$BIN" "$2" "$3" "$4" 2)
  if [ "$(grep -c . <<<"$lines")" != 2 ]; then
    echo "run.sh: p $1, $2, shape $3, b $4 gave no times" >&2
    exit 1
  fi
  sed "s/^/$1\t/" <<<"$lines"
}
out=$DIR/probes.tsv
printf 'p\tmode\tshape\tb\trep\tus\n' >"$out"
for mode in bcast data root; do run 6400 $mode "$(two 10 4)" 1 >>"$out"; done
for mode in bcast data; do run 6400 $mode 8 1 >>"$out"; done
run 6400 mpi-bcast 0 1 >>"$out"
for step in 5 14 20 40; do
  for mode in bcast data; do run 6400 $mode "$(two $step 4)" 1 >>"$out"; done
done
for b in 1 10; do
  for mode in bcast data root; do run 560 $mode 5 $b >>"$out"; done
done
for k in 2 4 6 8; do run 6400 "topk$k" "$(two 10 4)" 1 >>"$out"; done
for k in 4 6 12; do run 6400 "topk$k" "$(two 14 4)" 1 >>"$out"; done
for k in 2 4 6 8 12 16; do run 560 "topk$k" "$(two 10 4)" 10 >>"$out"; done
for mode in data root topk4 topk8 topk16; do run 6400 $mode "$(two 10 4)" 10 >>"$out"; done
