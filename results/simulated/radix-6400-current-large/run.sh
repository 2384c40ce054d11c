#!/bin/bash
# The runs of results/simulated/radix-6400-current-large/README.md: TUWk_Gatherv beside
# TUW_Gatherv at p = 6400 (radix-6400-carried's runs on radix-6400-small-current's platform, hosts
# and fit, six distributions, one repetition) at B (default 100,1000) into raw.csv here
# (resumable: a second launch with other B adds its cases). OUT_DIR: another directory (the
# scatters: OUT_DIR=results/simulated/radix-6400-current-large/scatter run.sh
# TUWk_Scatterv,TUW_Scatterv).
set -euo pipefail
export B=${B:-100,1000}
OUT_DIR=${OUT_DIR:-results/simulated/radix-6400-current-large} \
  exec results/simulated/radix-6400-carried/run.sh "${1:-TUWk_Gatherv,TUW_Gatherv}"
