#!/bin/bash
# The runs of results/simulated/radix-6400-carried/README.md: TUWk_Gatherv (its construction
# carrying small cubes' data) at p = 6400 on radix-6400-small-current's platform, hosts and fit
# (the library's own radix for TUWk_Gatherv from it: 6 since 3485ce8), six distributions, b = 1
# and 10, one repetition after none (the radix-6400-small experiment's), beside that run's
# TUW_Gatherv, TUWk_Gatherv (without carrying) and Binomialk_Gatherv. From the repository root
# after scripts/build smpi and scripts/build-smpi-waitany-fix: run.sh [OPS] writes raw.csv here
# (resumable: --resume); with RADIX=R set, TUWk's radix forced to R (TUWCOLL_RADIX="TUWk=R",
# which TUWk_Gatherv takes where its own is not named), into raw-radixR.csv. OUT_DIR: another
# directory for them (a later build's runs); B: other block sizes than 1,10. Another platform's
# runs (../radix-560-current/large-radix/run.sh): NP processes (6400) on PLATFORM
# (paper-qdr80.xml) with BASE's hosts and fit (radix-6400-small-current/default), NREP
# repetitions (1) after WARMUP (0), DISTS (the six), OUT_NAME (raw.csv; raw-radixR.csv with
# RADIX) in the directory.
set -euo pipefail
DIR=${OUT_DIR:-results/simulated/radix-6400-carried}
BASE=${BASE:-results/simulated/radix-6400-small-current/default}
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_MODEL_FIT="$PWD/$BASE/fit.txt"
OUT="$DIR/${OUT_NAME:-raw.csv}"
if [ -n "${RADIX:-}" ]; then
  export TUWCOLL_RADIX="TUWk=$RADIX"
  OUT="$DIR/${OUT_NAME:-raw-radix$RADIX.csv}"
else
  unset TUWCOLL_RADIX
fi
mapfile -t CONFIG < <(scripts/simulate --print-config)
RESUME=()
[ -f "$OUT" ] && RESUME=(--resume)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" \
  -np "${NP:-6400}" -platform "$PWD/harness/platforms/${PLATFORM:-paper-qdr80.xml}" \
  -hostfile "$PWD/$BASE/hostfile.txt" "${CONFIG[@]}" --log=root.thres:warning \
  build/smpi/harness/irrbench --ops "${1:-TUWk_Gatherv}" \
  --dists "${DISTS:-same,random,spikes,decreasing,alternating,two_blocks}" --b "${B:-1,10}" \
  --nrep "${NREP:-1}" --warmup "${WARMUP:-0}" --launch 1 "${RESUME[@]}" --out "$OUT"
