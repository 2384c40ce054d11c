#!/bin/bash
# The runs of results/simulated/radix-6400-two-level/README.md: TUWk_Scatterv's small call (b = 1)
# on the paper platforms with 16 ranks a node, the radix of the default runs, and the small call's
# tree forced: run.sh P STEP DISTS, P 6400 (radix-6400-greedy's platform and hosts), 3200 or 1600
# (paper-3200's, paper-1600's), 1120, 800 or 560q (paper-1600's first 70, 50 or 35 nodes) or 560 (radix-560-scatter's), STEP a TUWCOLL_SCATTER_STEP value
# (8, 5: one level, the model's choices at 6400 and 560; 10/4: two levels) or `model` (none set:
# the library's choice), DISTS irrbench's --dists, B its --b (default 1). From the repository root after scripts/build
# smpi and scripts/build-smpi-waitany-fix; writes raw-P-STEP-DISTS.csv here (/ and , as _ and -), or
# in RUN_DIR; OPS: irrbench --ops (default TUWk_Scatterv); FIT: the fit file the library chooses
# with (default below); NREP, WARMUP: irrbench's (default 1 and 0); SYNC: irrbench's --sync
# (default barrier; window: a common start, the file named -window, WARMUP at least 1).
set -euo pipefail
DIR=${RUN_DIR:-results/simulated/radix-6400-two-level}  # RUN_DIR: another results directory
USAGE="usage: run.sh 6400|3200|1600|1120|800|560q|560 STEP|model DISTS [B]"
P=${1:?$USAGE}
STEP=${2:?$USAGE}
DISTS=${3:?$USAGE}
B=${4:-1}
case "$P" in
  6400) PLATFORM=paper-qdr80.xml HOSTS=results/simulated/radix-6400-greedy/default/hostfile.txt
        RADIX="TUWk=3 Binomialk=9 TUWk_init=9" ;;
  1600|3200) PLATFORM=paper-qdr80.xml HOSTS=results/simulated/paper-$P/default/hostfile.txt
             RADIX="" ;;  # the library's own
  560q|800|1120) PLATFORM=paper-qdr80.xml HOSTS=results/simulated/paper-1600/default/hostfile.txt
            RADIX="" ;;  # the first 35, 50 or 70 of its 100 nodes (560q: p = 560)
  560) PLATFORM=paper-560.xml HOSTS=results/simulated/radix-560-scatter/default/hostfile.txt
       RADIX="TUWk=4 Binomialk=9 TUWk_init=9" ;;
  *) echo "run.sh: p must be 6400, 3200, 1600, 1120, 800, 560q or 560, not $P" >&2; exit 2 ;;
esac
# The fit the library chooses with (`model`): radix-6400-greedy's for paper-qdr80.xml (it measured a
# node's alpha, paper-3200's did not), radix-560-scatter's for paper-560.xml.
case "$PLATFORM" in
  paper-qdr80.xml) DEFAULT_FIT=results/simulated/radix-6400-greedy/default/fit.txt ;;
  *) DEFAULT_FIT=results/simulated/radix-560-scatter/default/fit.txt ;;
esac
FIT=$(realpath "${FIT:-$DEFAULT_FIT}")
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_RADIX="$RADIX" TUWCOLL_MODEL_FIT="$FIT"
if [ "$STEP" != model ]; then export TUWCOLL_SCATTER_STEP="$STEP"; fi
# Every simulation's calibration (scripts/simulate's base_config).
mapfile -t CONFIG < <(scripts/simulate --print-config)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np "${P%q}" \
  -platform "$PWD/harness/platforms/$PLATFORM" -hostfile "$PWD/$HOSTS" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench \
  --ops "${OPS:-TUWk_Scatterv}" --dists "$DISTS" --b "$B" --nrep "${NREP:-1}" --warmup "${WARMUP:-0}" --launch 1 \
  --sync "${SYNC:-barrier}" \
  --out "$DIR/raw-$P-${STEP//\//_}-${DISTS//,/-}$([ "$B" = 1 ] || echo "-b$B")$([ "${SYNC:-barrier}" = barrier ] || echo "-$SYNC").csv"
