#!/usr/bin/env bash
# The README's "Use it in your program" commands, against an installed copy: install the build
# into a scratch prefix, then (1) a CMake project with find_package(tuwcoll), (2) a program
# compiled with mpicc and linked with -ltuwcoll, (3) an unmodified program (no libtuwcoll at
# link time) with libtuwcoll_interpose.so preloaded, and the same program linked with it. Each program runs under the real launcher
# and checks its own results; the preload run must also report that TUW served the calls.
# usage: check_install.sh BUILD_DIR TESTS_DIR WORK_DIR MPICC INTERPOSE(ON|OFF) MPIEXEC [PREFLAGS...]
set -euo pipefail
build=$1 tests=$2 work=$3 mpicc=$4 interpose=$5
shift 5
launch=("$@")
p=3
fail() { echo "check_install: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install failed"
[[ -f $prefix/include/tuwcoll.h ]] || fail "tuwcoll.h not installed"
libdir=$(dirname "$(find "$prefix" -name 'libtuwcoll.so' | head -1)")
[[ -f $libdir/libtuwcoll.so ]] || fail "libtuwcoll.so not installed"

# (1) find_package(tuwcoll), target tuwcoll::tuwcoll.
cmake -S "$tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_C_COMPILER="$mpicc" >"$work/consumer-configure.log" 2>&1 ||
  { cat "$work/consumer-configure.log"; fail "configuring with find_package(tuwcoll) failed"; }
cmake --build "$work/consumer" >"$work/consumer-build.log" 2>&1 ||
  { cat "$work/consumer-build.log"; fail "building the find_package consumer failed"; }
timeout 120 "${launch[@]}" -n $p "$work/consumer/consumer" || fail "the find_package program failed"
echo "check_install: find_package(tuwcoll): built, ran on $p processes, results correct"

# (2) Plain mpicc and -ltuwcoll.
"$mpicc" -I"$prefix/include" "$tests/c_api_test.c" -L"$libdir" -ltuwcoll -Wl,-rpath,"$libdir" \
  -o "$work/linked" || fail "mpicc ... -ltuwcoll failed"
timeout 120 "${launch[@]}" -n $p "$work/linked" || fail "the -ltuwcoll program failed"
echo "check_install: mpicc -ltuwcoll: built, ran on $p processes, results correct"

# (3) LD_PRELOAD into a program that knows nothing of libtuwcoll.
if [[ $interpose == ON ]]; then
  [[ -f $libdir/libtuwcoll_interpose.so ]] || fail "libtuwcoll_interpose.so not installed"
  "$mpicc" "$tests/interpose_program.c" -o "$work/unmodified" || fail "mpicc interpose_program.c"
  ! nm -D "$work/unmodified" | grep -q TUW_ || fail "the unmodified program links libtuwcoll"
  TUWCOLL_VERBOSE=1 timeout 120 "${launch[@]}" -n $p \
    env LD_PRELOAD="$libdir/libtuwcoll_interpose.so" "$work/unmodified" >"$work/preload.log" 2>&1 ||
    { cat "$work/preload.log"; fail "the preloaded program failed"; }
  grep -q "0 wrong elements" "$work/preload.log" || { cat "$work/preload.log"; fail "wrong results"; }
  grep -q "MPI_Gatherv -> TUW_Gatherv: [1-9][0-9]* calls" "$work/preload.log" ||
    { cat "$work/preload.log"; fail "the preload did not reach TUW_Gatherv"; }
  echo "check_install: LD_PRELOAD=libtuwcoll_interpose.so: calls went to TUW, results correct"
  # The same library linked before the MPI library instead of preloaded.
  "$mpicc" "$tests/interpose_program.c" -L"$libdir" -ltuwcoll_interpose -Wl,-rpath,"$libdir" \
    -o "$work/relinked" || fail "mpicc ... -ltuwcoll_interpose failed"
  TUWCOLL_VERBOSE=1 timeout 120 "${launch[@]}" -n $p "$work/relinked" >"$work/linked.log" 2>&1 ||
    { cat "$work/linked.log"; fail "the program linked with -ltuwcoll_interpose failed"; }
  grep -q "0 wrong elements" "$work/linked.log" || { cat "$work/linked.log"; fail "wrong results"; }
  grep -q "MPI_Gatherv -> TUW_Gatherv: [1-9][0-9]* calls" "$work/linked.log" ||
    { cat "$work/linked.log"; fail "linking -ltuwcoll_interpose did not reach TUW_Gatherv"; }
  echo "check_install: -ltuwcoll_interpose before the MPI library: calls went to TUW, results correct"
else
  echo "check_install: this build has no libtuwcoll_interpose.so (SMPI): preload not checked"
fi
