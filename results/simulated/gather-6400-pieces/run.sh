#!/bin/bash
# The probes of results/simulated/gather-6400-pieces/README.md: compiles probe.cpp with smpicxx
# and runs each (p, mode, radix, b) below, p = 6400 on radix-6400-greedy's platform and hosts
# (root 3200), p = 560 on radix-560-scatter's (root 280), two repetitions each (the second is the
# one quoted); writes probes.tsv here. From the repository root after scripts/install-deps
# (about 8 minutes on 2 cores; 25-45 s a run at p = 6400).
set -euo pipefail
DIR=results/simulated/gather-6400-pieces
BIN=$(mktemp)
trap 'rm -f "$BIN"' EXIT
smpicxx -std=c++17 -O2 -Wall -Wextra "$DIR/probe.cpp" -o "$BIN"
mapfile -t CONFIG < <(scripts/simulate --print-config)  # every simulation's calibration
out=$DIR/probes.tsv
printf 'p\tmode\tradix\tb\trep\tus\n' >"$out"
while read -r p mode k b; do
  if [ "$p" = 6400 ]; then
    platform=paper-qdr80.xml hosts=results/simulated/radix-6400-greedy/default/hostfile.txt
  else
    platform=paper-560.xml hosts=results/simulated/radix-560-scatter/default/hostfile.txt
  fi
  smpirun -np "$p" -platform "$PWD/harness/platforms/$platform" -hostfile "$PWD/$hosts" \
    "${CONFIG[@]}" --log=root.thres:warning "$BIN" "$mode" "$k" "$b" 2 |
    sed "s/^/$p\t/" | tail -1 >>"$out"
done <<'JOBS'
560 store 5 1
560 fwd1 5 1
560 store 5 10
560 fwd1 5 10
6400 store 6 1
6400 fwd1 6 1
6400 store 4 10
6400 fwd1 4 10
6400 piece8640 4 10
6400 store 6 10
6400 fwd1 6 10
6400 fwd2 6 10
6400 piece4000 6 10
6400 piece8640 6 10
6400 piece16000 6 10
6400 store 9 10
6400 fwd1 9 10
6400 piece8640 9 10
6400 store 6 100
6400 fwd1 6 100
6400 piece8640 6 100
JOBS
