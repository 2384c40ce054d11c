#!/bin/bash
# The runs of README.md: a start of Optimal_Gatherv_init running the tree of build_tree.py (the
# library patched with tree-file-hook.patch: TUWCOLL_TREE_FILE names a tree that
# Optimal_*_init runs instead of its own), beside TUWk_Gatherv_init, on radix-560-current's
# platform, hosts and fit (or radix-6400-small-current's with NP=6400). From the root of a
# checkout with the patch applied and `scripts/build smpi`, `scripts/build-smpi-waitany-fix`
# done: run.sh B (block size in elements: 1 or 10) writes raw-NP-bB.csv here.
set -euo pipefail
b=${1:?block size in elements (1, 10)}
NP=${NP:-560}
DIR=results/simulated/link-greedy-trees
if [ "$NP" = 6400 ]; then
  BASE=results/simulated/radix-6400-small-current/default PLATFORM=paper-qdr80.xml NREP=${NREP:-1}
  WARMUP=${WARMUP:-0}
else
  BASE=results/simulated/radix-560-current/default PLATFORM=paper-560.xml NREP=${NREP:-5}
  WARMUP=${WARMUP:-1}
fi
TREE=$(mktemp)
CURVE=1 FIT="$BASE/fit.txt" /usr/bin/python3 "$DIR/build_tree.py" "$NP" $((4 * b)) "$TREE" 0 \
  $((NP / 2))
TUWCOLL_TREE_FILE="$TREE" OUT_DIR="$DIR" OUT_NAME="raw-$NP-b$b.csv" NP="$NP" \
  PLATFORM="$PLATFORM" BASE="$BASE" NREP="$NREP" WARMUP="$WARMUP" B="$b" \
  bash results/simulated/radix-6400-carried/run.sh Optimal_Gatherv_init,TUWk_Gatherv_init
rm -f "$TREE"
