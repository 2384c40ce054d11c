#!/bin/bash
# The radix sweep of results/simulated/radix-560-direct/README.md: TUWk_Gatherv (carrying small
# cubes, its root told directly) at p = 560 with its own radix forced (TUWCOLL_RADIX=
# "TUWk_Gatherv=R"), on radix-560-carried's platform, hosts and fit, six distributions, b = 1, 10,
# 100, 5 repetitions after one (about 30 s each). From the repository root after scripts/build
# smpi and scripts/build-smpi-waitany-fix: run.sh R writes raw-R.csv here (the library's own
# radix, 5, is ../default). OUT_DIR: another directory for raw-R.csv (a later build's sweep).
set -euo pipefail
OUT_DIR=${OUT_DIR:-results/simulated/radix-560-direct/radix-sweep}
R=${1:?usage: run.sh RADIX}
DIR=results/simulated/radix-560-carried
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_MODEL_FIT="$PWD/$DIR/default/fit.txt"
export TUWCOLL_RADIX="TUWk_Gatherv=$R"
mapfile -t CONFIG < <(scripts/simulate --print-config)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np 560 \
  -platform "$PWD/harness/platforms/paper-560.xml" -hostfile "$PWD/$DIR/default/hostfile.txt" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench --ops TUWk_Gatherv \
  --dists same,random,spikes,decreasing,alternating,two_blocks --b 1,10,100 --nrep 5 --warmup 1 \
  --launch 1 --out "$OUT_DIR/raw-$R.csv"
