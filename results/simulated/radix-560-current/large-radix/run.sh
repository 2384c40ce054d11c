#!/bin/bash
# The run of results/simulated/radix-560-current/README.md's "large-radix": TUWk_Scatterv beside
# TUW_Scatterv at p = 560 (radix-560-current's platform, hosts, fit and repetitions, six
# distributions) at b = 1000 and 10^4, the sizes whose calls are too large for one message a
# child, into raw.csv here (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix.
set -euo pipefail
OUT_DIR=results/simulated/radix-560-current/large-radix NP=560 PLATFORM=paper-560.xml \
  BASE=results/simulated/radix-560-current/default NREP=5 WARMUP=1 B=1000,10000 \
  exec results/simulated/radix-6400-carried/run.sh TUWk_Scatterv,TUW_Scatterv
