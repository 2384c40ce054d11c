#!/bin/bash
# The run of results/simulated/radix-6400-pieces/README.md: TUWk_Gatherv with its transfers in
# pieces where the LogGP rule says (tuwcoll_gather_pieces=model: 8933-byte pieces on this fit) at
# p = 6400 on radix-6400-small-current's platform, hosts and fit, six distributions, b = 1, 10
# and 100, one repetition (radix-6400-carried/run.sh, whose parameters pass through), into
# raw.csv here (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix (about 40 minutes, 10 of them the start of 6400 processes).
set -euo pipefail
OUT_DIR=results/simulated/radix-6400-pieces B=${B:-1,10,100} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Gatherv}"
