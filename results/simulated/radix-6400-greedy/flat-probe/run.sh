#!/bin/bash
# The probe of results/simulated/radix-6400-greedy/flat-probe/README.md: p = 6400 on
# paper-qdr80.xml's costs with one rank per host (every rank its own network link), TUW_Scatterv
# and TUWk_Scatterv (radix 3, greedy step 8 forced: the default run's choices), Same, b = 1.
# Run from the repository root after scripts/build smpi and scripts/build-smpi-waitany-fix;
# then: build/openmpi/model/irrmodel --from-results $DIR/raw.csv
#         --alpha-beta results/simulated/radix-6400-greedy/default/fit.txt --dp windowed
#         --format table --tsv-out $DIR/model.tsv
set -euo pipefail
DIR=results/simulated/radix-6400-greedy/flat-probe
HOSTS=$(mktemp)
for i in $(seq 0 6399); do echo "node-$i:1"; done > "$HOSTS"
export TUWCOLL_RADIX="TUWk=3 Binomialk=9 TUWk_init=9" TUWCOLL_SCATTER_STEP=8
smpirun -wrapper "env LD_PRELOAD=$PWD/build/smpi-waitany-fix/libsmpi_waitany_fix.so" -np 6400 \
  -platform "$PWD/$DIR/platform-flat6400.xml" -hostfile "$HOSTS" \
  --cfg=smpi/simulate-computation:no --cfg=contexts/factory:raw --cfg=smpi/or:0:3e-07:0 \
  --cfg=smpi/os:0:3e-07:0 --cfg=smpi/ois:0:3e-07:0 \
  '--cfg=smpi/lat-factor:65472:8.7327;15424:2.61634;9376:1.94474;5776:1.64097;3484:1.41076;1426:1.20806;732:1.46272;257:1.46506;0:1.511' \
  --cfg=smpi/iprobe:1e-8 --cfg=smpi/barrier:ompi_bruck --cfg=smpi/allreduce:rdb \
  --cfg=smpi/reduce:binomial --log=root.thres:warning build/smpi/harness/irrbench \
  --ops TUW_Scatterv,TUWk_Scatterv --dists same --b 1 --nrep 1 --warmup 0 --launch 1 \
  --out "$DIR/raw.csv"
rm -f "$HOSTS"
