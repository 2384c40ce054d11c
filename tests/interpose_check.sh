#!/usr/bin/env bash
# libtuwcoll_interpose.so under a real launcher: an unmodified C program and irrbench run with the
# library preloaded, for every TUWCOLL_GATHERV/TUWCOLL_SCATTERV value; results validated by the
# programs themselves, calls counted by TUWCOLL_VERBOSE=1; a bad value stops the run at MPI_Init
# with one message and a non-zero exit, never a hang; three threads per process call at once.
# usage: interpose_check.sh LIB PROGRAM IRRBENCH WORK_DIR MPIEXEC [PREFLAGS...]
set -euo pipefail
lib=$1 program=$2 irrbench=$3 work=$4
shift 4
launch=("$@")
p=3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "interpose_check: FAIL: $*" >&2; exit 1; }

# A bad value: one clear message, non-zero exit, no hang.
log=$work/bad.log
if TUWCOLL_GATHERV=fastest timeout 60 "${launch[@]}" -n $p env LD_PRELOAD="$lib" "$program" \
    >"$log" 2>&1; then
  cat "$log"; fail "TUWCOLL_GATHERV=fastest was accepted"
fi
# The values the interposer lists are every row it can select: each is run below, so a new row
# is tested without an edit here.
valid=$(sed -n 's/.*TUWCOLL_GATHERV=fastest: unknown algorithm; valid: //p' "$log" | head -1)
[[ -n $valid ]] || { cat "$log"; fail "no clear message for TUWCOLL_GATHERV=fastest"; }
for needed in native tuw tuwk; do
  [[ ", $valid, " == *", $needed, "* ]] || fail "'$needed' is not among the valid values: $valid"
done
[[ $(grep -c "unknown algorithm" "$log") -eq 1 ]] ||
  { cat "$log"; fail "the message is not printed once"; }
echo "interpose_check: TUWCOLL_GATHERV=fastest: refused at MPI_Init with one message"

for choice in ${valid//,/}; do
  log=$work/program-$choice.log
  TUWCOLL_GATHERV=$choice TUWCOLL_SCATTERV=$choice TUWCOLL_VERBOSE=1 \
    timeout 120 "${launch[@]}" -n $p env LD_PRELOAD="$lib" "$program" >"$log" 2>&1 ||
    { cat "$log"; fail "$choice: the program failed"; }
  # the row's name: the value in its own case (tuwk: TUWk_Gatherv), native the library's own
  name=$(grep -o "MPI_Gatherv -> [A-Za-z0-9]*_Gatherv" "$log" | head -1 |
    sed 's/.*-> //; s/_Gatherv$//')
  [[ ${name,,} == "$choice" || ( $choice == native && $name == MPI ) ]] ||
    { cat "$log"; fail "$choice: MPI_Gatherv went to '${name}_Gatherv'"; }
  calls=$((2 * p * p))  # 2 * p calls per process
  grep -q "MPI_Gatherv -> ${name}_Gatherv: $calls calls on $p processes" "$log" ||
    { cat "$log"; fail "$choice: MPI_Gatherv calls not counted as ${name}_Gatherv"; }
  grep -q "MPI_Scatterv -> ${name}_Scatterv: $calls calls on $p processes" "$log" ||
    { cat "$log"; fail "$choice: MPI_Scatterv calls not counted as ${name}_Scatterv"; }
  grep -q "0 wrong elements" "$log" || { cat "$log"; fail "$choice: wrong results"; }
  echo "interpose_check: $choice: validated, $calls calls of each counted"
done

# Three threads per process at once, each on its own communicator (MPI_THREAD_MULTIPLE): every
# call counted, every result right.
threads=3
log=$work/program-threads.log
rc=0
TUWCOLL_VERBOSE=1 timeout 120 "${launch[@]}" -n $p env LD_PRELOAD="$lib" "$program" $threads \
  >"$log" 2>&1 || rc=$?
if [[ $rc -eq 3 ]] && grep -q "MPI_THREAD_MULTIPLE not provided" "$log"; then
  echo "interpose_check: $threads threads: skipped, the MPI library lacks MPI_THREAD_MULTIPLE"
else
  [[ $rc -eq 0 ]] || { cat "$log"; fail "$threads threads: the program failed (exit $rc)"; }
  calls=$((2 * p * p * threads))
  for call in Gatherv Scatterv; do
    grep -q "MPI_$call -> TUW_$call: $calls calls on $p processes" "$log" ||
      { cat "$log"; fail "$threads threads: MPI_$call calls not all counted ($calls expected)"; }
  done
  grep -q "0 wrong elements" "$log" || { cat "$log"; fail "$threads threads: wrong results"; }
  echo "interpose_check: $threads threads: validated, $calls calls of each counted"
fi


# irrbench under the interposer: its MPI_Gatherv op runs TUW_Gatherv (validated as every case),
# and the results file and stderr say so.
log=$work/irrbench.log
TUWCOLL_GATHERV=tuw TUWCOLL_VERBOSE=1 timeout 300 "${launch[@]}" -n $p env LD_PRELOAD="$lib" \
  "$irrbench" --ops MPI_Gatherv --dists same,spikes --b 1,10 --nrep 3 --warmup 1 \
  --out "$work/irrbench.csv" >"$log" 2>&1 || { cat "$log"; fail "irrbench under the interposer failed"; }
grep -q "^# interposer=MPI_Gatherv=TUW_Gatherv MPI_Scatterv=TUW_Scatterv" "$work/irrbench.csv" ||
  { head -40 "$work/irrbench.csv"; fail "the results file does not record the interposer"; }
grep -q "WARNING: .*libtuwcoll_interpose" "$log" || { cat "$log"; fail "irrbench did not warn"; }
grep -q "MPI_Gatherv -> TUW_Gatherv: [1-9][0-9]* calls" "$log" ||
  { cat "$log"; fail "irrbench's MPI_Gatherv calls did not reach TUW_Gatherv"; }
echo "interpose_check: irrbench: MPI_Gatherv measured TUW_Gatherv, recorded and warned"
