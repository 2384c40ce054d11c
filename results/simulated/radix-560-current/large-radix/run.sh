#!/bin/bash
# The run of results/simulated/radix-560-current/README.md's "large-radix": TUWk_Scatterv beside
# TUW_Scatterv at p = 560 (radix-560-current's platform, hosts, fit and repetitions, six
# distributions) at b = 1000 and 10^4, the sizes whose calls are too large for one message a
# child, into raw.csv here (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix.
set -euo pipefail
DIR=results/simulated/radix-560-current/large-radix
BASE=results/simulated/radix-560-current/default
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_MODEL_FIT="$PWD/$BASE/fit.txt"
unset TUWCOLL_RADIX
mapfile -t CONFIG < <(scripts/simulate --print-config)
RESUME=()
[ -f "$DIR/raw.csv" ] && RESUME=(--resume)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np 560 \
  -platform "$PWD/harness/platforms/paper-560.xml" -hostfile "$PWD/$BASE/hostfile.txt" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench \
  --ops TUWk_Scatterv,TUW_Scatterv --dists same,random,spikes,decreasing,alternating,two_blocks \
  --b 1000,10000 --nrep 5 --warmup 1 --launch 1 "${RESUME[@]}" --out "$DIR/raw.csv"
