#!/bin/bash
# The runs of results/simulated/common-start/knomial/README.md: the k-nomial trees (Binomialk) at a
# forced radix on paper-qdr80.xml: run.sh P RPN K DISTS SYNC, P processes RPN a node (node-0 ...,
# one rank a node: RPN 1), Binomialk's radix K, irrbench's --dists and --sync (window: a common
# start; barrier: the harness's default). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix; writes raw-P-RPN-kK-DISTS-SYNC.csv here. OPS: irrbench --ops
# (default Binomialk_Scatterv,Binomialk_Gatherv); B: --b (default 1; another b is named -bB in the
# file); NREP, WARMUP (2 and 1);
# IPROBE: SMPI's poll pause in seconds (smpi/iprobe; default the calibrated 1e-8), the file then
# named -iprobeIPROBE.
set -euo pipefail
USAGE="usage: run.sh P RPN K DISTS window|barrier"
P=${1:?$USAGE} RPN=${2:?$USAGE} K=${3:?$USAGE} DISTS=${4:?$USAGE} SYNC=${5:?$USAGE}
DIR=results/simulated/common-start/knomial
for v in "P=$P" "RPN=$RPN" "K=$K"; do
  case "${v#*=}" in ''|*[!0-9]*|0*) echo "run.sh: ${v%%=*} must be a whole number >= 1, not '${v#*=}'" >&2; exit 2 ;; esac
done
case "$SYNC" in window|barrier) ;; *) echo "run.sh: SYNC must be window or barrier, not '$SYNC'" >&2; exit 2 ;; esac
NODES=$(( (P + RPN - 1) / RPN ))
if [ "$NODES" -gt 400 ]; then echo "run.sh: $P ranks at $RPN a node need $NODES nodes; paper-qdr80.xml has 400" >&2; exit 2; fi
HOSTS=$(mktemp)
trap 'rm -f "$HOSTS"' EXIT
for ((i = 0; i < NODES; ++i)); do echo "node-$i:$RPN"; done > "$HOSTS"
export TUWCOLL_RANKS_PER_NODE=$RPN TUWCOLL_RADIX="Binomialk=$K"
export TUWCOLL_MODEL_FIT=$PWD/results/simulated/radix-6400-greedy/default/fit.txt
mapfile -t CONFIG < <(scripts/simulate --print-config)
SUFFIX=""
if [ "${B:-1}" != 1 ]; then SUFFIX="-b$B"; fi
if [ -n "${IPROBE:-}" ]; then CONFIG+=("--cfg=smpi/iprobe:$IPROBE"); SUFFIX="$SUFFIX-iprobe$IPROBE"; fi
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np "$P" \
  -platform "$PWD/harness/platforms/paper-qdr80.xml" -hostfile "$HOSTS" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench \
  --ops "${OPS:-Binomialk_Scatterv,Binomialk_Gatherv}" --dists "$DISTS" --b "${B:-1}" \
  --nrep "${NREP:-2}" --warmup "${WARMUP:-1}" --launch 1 --sync "$SYNC" \
  --out "$DIR/raw-$P-$RPN-k$K-${DISTS//,/-}-$SYNC$SUFFIX.csv"
