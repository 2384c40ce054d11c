#!/usr/bin/env bash
# One device call: real, non-oversubscribed MPI timings at p = NP (16 cores), Open MPI then MPICH,
# launches repeated until each library's deadline; everything under $OUT/device-results.tar.gz.
# Ran from the repository root with .devmpi/ carried (kept out of git by .git/info/exclude):
#   .devmpi/mpi-runtime.tar.gz  the files (dpkg -L) of Debian 12's libopenmpi3 openmpi-bin
#       openmpi-common libmpich12 mpich libucx0 libpmix2 libfabric1 libhwloc15 libevent-*
#       libibverbs1 librdmacm1 libpsm2-2 libpsm-infinipath1 libnuma1 libmunge2 libslurm38 and
#       their other libraries, paths under lib/ moved to usr/lib/; unpacked there without
#       replacing any existing file (tar --skip-old-files)
#   .devmpi/openmpi/, .devmpi/mpich/  irrbench and irrfit of build/openmpi, build/mpich
set -u
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
R=/tmp/dev; mkdir -p $R/openmpi $R/mpich
exec > >(tee -a $OUT/log.txt) 2>&1
echo "== machine"; nproc; uname -a; grep -m1 'model name' /proc/cpuinfo; lscpu | grep -E 'Thread|Core|Socket|NUMA node\(s\)|MHz'; head -2 /etc/os-release; free -g | head -2; df -h /dev/shm | tail -1
mkdir -p /opt/stage && tar -C /opt/stage -xzf .devmpi/mpi-runtime.tar.gz
tar -C /opt/stage -cf - . | tar -C / -xf - --skip-old-files --keep-directory-symlink
ldconfig
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 UCX_WARN_UNUSED_ENV_VARS=n
np=${NP:-16}
ops=MPI_Gather,MPI_Gatherv,TUW_Gatherv,TUWk_Gatherv,Binomial_Gatherv,Binomialk_Gatherv,Linear_Gatherv,Guideline2_Gather,MPI_Scatter,MPI_Scatterv,TUW_Scatterv,TUWk_Scatterv,Binomial_Scatterv,Binomialk_Scatterv,Linear_Scatterv,Guideline2_Scatter
save() { tar -C $R -czf $OUT/device-results.tar.gz . ; }
smoke() { timeout 30 "$@" .devmpi/$lib/irrbench --ops MPI_Gatherv,TUW_Gatherv,TUWk_Scatterv --dists same --b 1,1000 --nrep 3 --warmup 1 --out $R/smoke-$lib.csv; }
for lib in openmpi mpich; do
  if [[ $lib == openmpi ]]; then deadline=$((${OMPI_UNTIL:-180})); else deadline=$((${MPICH_UNTIL:-360})); fi
  echo "== $lib at $(elapsed) s"
  launcher=()
  for attempt in 1 2 3; do
    rm -f $R/smoke-$lib.csv
    if [[ $lib == openmpi ]]; then
      case $attempt in
        1) launcher=(mpirun.openmpi --bind-to core -np $np) ;;
        2) export OMPI_MCA_btl_vader_single_copy_mechanism=none; launcher=(mpirun.openmpi --bind-to core -np $np) ;;
        3) launcher=(mpirun.openmpi --oversubscribe --bind-to none --mca btl self,vader -np $np) ;;
      esac
    else
      case $attempt in
        1) launcher=(mpiexec.hydra -bind-to core -n $np) ;;
        2) launcher=(mpiexec.hydra -launcher fork -hosts localhost -bind-to core -n $np) ;;
        3) export UCX_TLS=self,posix,sysv; launcher=(mpiexec.hydra -launcher fork -hosts localhost -bind-to none -n $np) ;;
      esac
    fi
    echo "-- smoke $attempt: ${launcher[*]}"
    if smoke "${launcher[@]}"; then ok=1; break; else ok=0; fi
  done
  ((ok)) || { echo "$lib: no launcher worked"; continue; }
  echo "launcher: ${launcher[*]}" > $R/launcher-$lib.txt; env | grep -E '^(OMPI_MCA|UCX_)' >> $R/launcher-$lib.txt
  fitlauncher=("${launcher[@]}"); fitlauncher[${#fitlauncher[@]}-1]=2
  timeout 60 "${fitlauncher[@]}" .devmpi/$lib/irrfit --out $R/$lib/fit.txt > $R/irrfit-$lib.log 2>&1 || echo "irrfit $lib failed"
  last=0
  for k in $(seq 1 8); do
    (( $(elapsed) + last * 11 / 10 > deadline )) && break
    s=$(elapsed)
    timeout $((deadline - s + 30)) "${launcher[@]}" .devmpi/$lib/irrbench --ops $ops --b ${B:-1,10,100,1000,10000} --launch $k --out $R/$lib/launch-$k/raw.csv || echo "launch $k failed"
    last=$(( $(elapsed) - s )); echo "launch $k of $lib: $last s"
    save
  done
done
echo "== done at $(elapsed) s"; save
