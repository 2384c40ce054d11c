#!/bin/bash
# The run of results/simulated/radix-6400-persistent-pieces/README.md: TUWk_Gatherv_init's starts
# with their transfers in TUWk_Gatherv's pieces (tuwcoll_gather_pieces=model: 8933-byte pieces on
# this fit) at p = 6400 on radix-6400-small-current's platform, hosts and fit, six distributions,
# b = 10, one repetition (radix-6400-carried/run.sh, whose parameters pass through), into raw.csv
# here (resumable). From the repository root after scripts/build smpi and
# scripts/build-smpi-waitany-fix (about 25 minutes, 10 of them the start of 6400 processes).
set -euo pipefail
OUT_DIR=results/simulated/radix-6400-persistent-pieces B=${B:-10} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Gatherv_init}"
