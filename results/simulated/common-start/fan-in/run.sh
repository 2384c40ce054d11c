#!/bin/bash
# The runs of results/simulated/common-start/fan-in/README.md: TUWk_Gatherv (told only, the
# library of the commit that added this script) at p = 560 from a common start (irrbench --sync
# window), radix R forced: run.sh R [DISTS]. radix-560-told-only's platform, hosts and fit, root
# 280, 16 ranks a node, b = 1, 3 repetitions after one warm-up; writes raw-radixR.csv here
# (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix.
set -euo pipefail
R=${1:?usage: run.sh RADIX [DISTS]}
DIR=results/simulated/common-start/fan-in
BASE=results/simulated/radix-560-told-only/default
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_MODEL_FIT="$PWD/$BASE/fit.txt"
export TUWCOLL_RADIX="TUWk_Gatherv=$R"
OUT="$DIR/raw-radix$R.csv"
RESUME=()
[ -f "$OUT" ] && RESUME=(--resume)
mapfile -t CONFIG < <(scripts/simulate --print-config)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np 560 \
  -platform "$PWD/harness/platforms/paper-560.xml" -hostfile "$PWD/$BASE/hostfile.txt" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench --ops TUWk_Gatherv \
  --dists "${2:-same}" --b 1 --nrep 3 --warmup 1 --sync window --root 280 "${RESUME[@]}" \
  --out "$OUT"
rm -f smpitmp-hostf*
