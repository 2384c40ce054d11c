#!/bin/bash
# The run of results/simulated/radix-560-persistent-scatter-large/README.md: TUWk_Scatterv_init
# beside TUW_Scatterv_init at p = 560 on radix-560-current's platform, hosts and fit, six
# distributions, b = 100, 1000 and 10^4, five starts after one (radix-6400-carried/run.sh, whose
# parameters pass through), into raw.csv here (resumable). From the repository root after
# scripts/build smpi and scripts/build-smpi-waitany-fix (about a minute).
set -euo pipefail
OUT_DIR=results/simulated/radix-560-persistent-scatter-large NP=560 PLATFORM=paper-560.xml \
  BASE=results/simulated/radix-560-current/default NREP=5 WARMUP=1 B=${B:-100,1000,10000} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Scatterv_init,TUW_Scatterv_init}"
