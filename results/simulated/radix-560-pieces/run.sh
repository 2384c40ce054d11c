#!/bin/bash
# The run of results/simulated/radix-560-pieces/README.md: TUWk_Gatherv (its transfers in pieces
# where the LogGP rule says: tuwcoll_gather_pieces=model) beside TUW_Gatherv at p = 560 on
# radix-560-current's platform, hosts and fit, six distributions, b = 10, 100 and 1000, five
# repetitions after one (radix-6400-carried/run.sh, whose parameters pass through), into raw.csv
# here (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix.
set -euo pipefail
OUT_DIR=results/simulated/radix-560-pieces NP=560 PLATFORM=paper-560.xml \
  BASE=results/simulated/radix-560-current/default NREP=5 WARMUP=1 B=${B:-10,100,1000} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Gatherv,TUW_Gatherv}"
