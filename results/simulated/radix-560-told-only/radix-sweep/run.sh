#!/bin/bash
# The radix sweep of results/simulated/radix-560-told-only/README.md: radix-560-direct's sweep
# (TUWk_Gatherv at p = 560 with its own radix forced, six distributions, b = 1, 10, 100) by the
# build whose root group is told only: run.sh R writes raw-R.csv here (about 35 s each).
set -euo pipefail
OUT_DIR=results/simulated/radix-560-told-only/radix-sweep \
  exec results/simulated/radix-560-direct/radix-sweep/run.sh "$@"
