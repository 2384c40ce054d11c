#!/bin/bash
# The runs of results/simulated/radix-6400-persistent-root-radix/README.md: TUWk_*_init requests
# at the radix their root picks from the case's counts (tuwcoll_init_radix=model, since 12fb0e2)
# at p = 6400 on radix-6400-small-current's platform, hosts and fit, six distributions, one
# repetition (radix-6400-carried/run.sh, whose parameters pass through). From the repository root
# after scripts/build smpi and scripts/build-smpi-waitany-fix (each about 25 minutes, 10 of them
# the start of 6400 processes; the two can run side by side, one core each):
#   run.sh gather    TUWk_Gatherv_init, b = 10, into raw-gather.csv (the radix-9 starts before
#                    the root's choice: ../radix-6400-persistent-pieces/raw.csv)
#   run.sh scatter   TUWk_Scatterv_init and TUW_Scatterv_init, b = 100, into raw-scatter.csv
set -euo pipefail
export OUT_DIR=results/simulated/radix-6400-persistent-root-radix
case ${1:-} in
  gather) OUT_NAME=raw-gather.csv B=10 exec results/simulated/radix-6400-carried/run.sh TUWk_Gatherv_init ;;
  scatter) OUT_NAME=raw-scatter.csv B=100 exec results/simulated/radix-6400-carried/run.sh \
    TUWk_Scatterv_init,TUW_Scatterv_init ;;
  *) echo "usage: $0 gather|scatter" >&2; exit 2 ;;
esac
