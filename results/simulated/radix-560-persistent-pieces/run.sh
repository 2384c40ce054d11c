#!/bin/bash
# The run of results/simulated/radix-560-persistent-pieces/README.md: TUWk_Gatherv_init's starts
# (their transfers in TUWk_Gatherv's pieces where the LogGP rule says: tuwcoll_gather_pieces=model)
# beside TUW_Gatherv_init at p = 560 on radix-560-current's platform, hosts and fit, six
# distributions, b = 10, 100 and 1000, five repetitions after one (radix-6400-carried/run.sh, whose
# parameters pass through), into raw.csv here (resumable). From the repository root after
# scripts/build smpi and scripts/build-smpi-waitany-fix (about 2 minutes).
set -euo pipefail
OUT_DIR=results/simulated/radix-560-persistent-pieces NP=560 PLATFORM=paper-560.xml \
  BASE=results/simulated/radix-560-current/default NREP=5 WARMUP=1 B=${B:-10,100,1000} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Gatherv_init,TUW_Gatherv_init}"
