#!/bin/bash
# The runs of README.md: TUWk_Gatherv_init as the library runs it since 77b67ed (its root takes
# the link-greedy tree where the model prices it faster than its radix tree, tree::PlannedTree)
# beside TUW_Gatherv_init, in one run; with OP=Scatterv TUWk_Scatterv_init (since 1920225: the
# link-greedy tree where priced at most 0.9 of the radix tree) beside TUW_Scatterv_init. p = 560
# on radix-560-current's platform, hosts and fit (5 starts after 1), or NP=6400 on
# radix-6400-small-current's (1 start after none). From the repository root after scripts/build
# smpi and scripts/build-smpi-waitany-fix: run.sh writes raw-NP.csv (raw-scatter-NP.csv) here
# (resumable); B and DISTS as radix-6400-carried/run.sh's (default: b = 1, 10, 100, 1000 and the
# six distributions at 560; b = 1, 10 and Same, Random, Alternating at 6400). TAG=-layouts names
# the files raw-NP-layouts.csv (the runs since 77ae977, the tree in the faster of two layouts).
set -euo pipefail
NP=${NP:-560}
DIR=results/simulated/link-greedy-init
if [ "$NP" = 6400 ]; then
  BASE=results/simulated/radix-6400-small-current/default PLATFORM=paper-qdr80.xml NREP=1
  WARMUP=0 B=${B:-1,10} DISTS=${DISTS:-same,random,alternating}
else
  BASE=results/simulated/radix-560-current/default PLATFORM=paper-560.xml NREP=5 WARMUP=1
  B=${B:-1,10,100,1000} DISTS=${DISTS:-same,random,spikes,decreasing,alternating,two_blocks}
fi
OP=${OP:-Gatherv}
TAG=${TAG:-}
NAME=raw-$NP$TAG.csv
[ "$OP" = Scatterv ] && NAME=raw-scatter-$NP$TAG.csv
OUT_DIR="$DIR" OUT_NAME="$NAME" NP="$NP" PLATFORM="$PLATFORM" BASE="$BASE" NREP="$NREP" \
  WARMUP="$WARMUP" B="$B" DISTS="$DISTS" \
  bash results/simulated/radix-6400-carried/run.sh "TUWk_${OP}_init,TUW_${OP}_init"
