#!/bin/bash
# The library's runs of results/simulated/gather-6400-pieces/README.md: OPS (default
# TUWk_Gatherv) at p = 6400 on radix-6400-small-current's platform, hosts and fit
# (radix-6400-carried/run.sh), Same and Random at b = 10, one repetition, with every transfer above
# PIECE bytes (default 8640) cut into pieces by TUWCOLL_TEST_MAX_MESSAGE_BYTES (the test knob of
# algorithms/src/transfer.hpp: the sender posts all pieces at once, the receiver one after the
# other), into raw-OPS-maxPIECE.csv here (resumable). From the repository root after
# scripts/build smpi and scripts/build-smpi-waitany-fix (about 13 minutes, 10 of them the start of 6400 processes).
set -euo pipefail
OPS=${OPS:-TUWk_Gatherv}
export TUWCOLL_TEST_MAX_MESSAGE_BYTES=${PIECE:-8640}
OUT_DIR=results/simulated/gather-6400-pieces DISTS=same,random B=10 \
  OUT_NAME="raw-$OPS-max$TUWCOLL_TEST_MAX_MESSAGE_BYTES.csv" \
  exec results/simulated/radix-6400-carried/run.sh "$OPS"
