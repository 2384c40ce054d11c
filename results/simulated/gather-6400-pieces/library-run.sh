#!/bin/bash
# The library's runs of results/simulated/gather-6400-pieces/README.md: OPS (default
# TUWk_Gatherv) at p = 6400 on radix-6400-small-current's platform, hosts and fit (as
# radix-6400-carried/run.sh), Same and Random at b = 10, one repetition, with every transfer above
# PIECE bytes (default 8640) cut into pieces by TUWCOLL_TEST_MAX_MESSAGE_BYTES (the test knob of
# algorithms/src/transfer.hpp: the sender posts all pieces at once, the receiver one after the
# other), into raw-OPS-maxPIECE.csv here. From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix (about 13 minutes, 10 of them the start of 6400 processes).
set -euo pipefail
DIR=results/simulated/gather-6400-pieces
BASE=results/simulated/radix-6400-small-current/default
OPS=${OPS:-TUWk_Gatherv}
export TUWCOLL_RANKS_PER_NODE=16 TUWCOLL_MODEL_FIT="$PWD/$BASE/fit.txt"
export TUWCOLL_TEST_MAX_MESSAGE_BYTES=${PIECE:-8640}
mapfile -t CONFIG < <(scripts/simulate --print-config)
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np 6400 \
  -platform "$PWD/harness/platforms/paper-qdr80.xml" -hostfile "$PWD/$BASE/hostfile.txt" \
  "${CONFIG[@]}" --log=root.thres:warning build/smpi/harness/irrbench \
  --ops "$OPS" --dists same,random --b 10 --nrep 1 --warmup 0 --launch 1 \
  --out "$DIR/raw-$OPS-max$TUWCOLL_TEST_MAX_MESSAGE_BYTES.csv"
