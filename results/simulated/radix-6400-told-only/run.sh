#!/bin/bash
# The runs of results/simulated/radix-6400-told-only/README.md: radix-6400-carried's runs
# (TUWk_Gatherv at p = 6400 on radix-6400-small-current's platform, hosts and fit, six
# distributions, b = 1 and 10, one repetition; RADIX=R forces the radix) by the build whose root
# group is told only, into raw.csv (or raw-radixR.csv) here.
set -euo pipefail
OUT_DIR=results/simulated/radix-6400-told-only exec results/simulated/radix-6400-carried/run.sh "$@"
