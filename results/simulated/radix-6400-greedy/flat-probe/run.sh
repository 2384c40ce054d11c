#!/bin/bash
# The probes of results/simulated/radix-6400-greedy/flat-probe/README.md: the paper platforms'
# costs with one rank per host (every rank its own network link), TUW_Scatterv and TUWk_Scatterv
# with the default runs' radix and greedy step forced. Usage: run.sh 6400|560, from the
# repository root after scripts/build smpi and scripts/build-smpi-waitany-fix; then
#   build/openmpi/model/irrmodel --from-results $DIR/raw-P.csv --alpha-beta FIT --dp windowed
#     --format table --tsv-out $DIR/model-P.tsv
# with FIT radix-6400-greedy/default/fit.txt (6400) or radix-560-scatter/default/fit.txt (560).
set -euo pipefail
DIR=results/simulated/radix-6400-greedy/flat-probe
P=${1:?usage: run.sh 6400|560}
case "$P" in
  6400) RADIX=3 STEP=8 CASES=(--dists same --b 1 --nrep 1 --warmup 0) ;;
  560) RADIX=4 STEP=5 CASES=(--dists same,random,spikes,decreasing --b 1,10 --nrep 5 --warmup 1) ;;
  *) echo "run.sh: p must be 6400 or 560, not $P" >&2; exit 2 ;;
esac
HOSTS=$(mktemp)
for ((i = 0; i < P; i++)); do echo "node-$i:1"; done > "$HOSTS"
export TUWCOLL_RADIX="TUWk=$RADIX Binomialk=9 TUWk_init=9" TUWCOLL_SCATTER_STEP=$STEP
# Every simulation's calibration (scripts/simulate's base_config).
mapfile -t CONFIG < <(scripts/simulate --print-config)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np "$P" \
  -platform "$PWD/$DIR/platform-flat$P.xml" -hostfile "$HOSTS" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench \
  --ops TUW_Scatterv,TUWk_Scatterv "${CASES[@]}" --launch 1 --out "$DIR/raw-$P.csv"
rm -f "$HOSTS"
