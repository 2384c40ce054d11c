/* Test-only preload for MPICH 4.0 (ch4:ucx) on machines with more ranks than cores.
 *
 * MPICH's blocking calls spin in MPIDI_progress_test, which calls ucp_worker_progress on every
 * turn; no setting of MPICH 4.0.2 makes that loop give up the processor
 * (MPIR_CVAR_POLLS_BEFORE_YIELD, MPIR_CVAR_DEFAULT_THREAD_LEVEL=MPI_THREAD_MULTIPLE,
 * MPIR_CVAR_ASYNC_PROGRESS, MPIR_CVAR_CH4_GLOBAL_PROGRESS=0 and UCX_TLS=self,sm were tried: none
 * changed the time of an oversubscribed loop). So a spinning rank holds its core for a whole time
 * slice while the rank it waits for is descheduled. This wrapper yields the processor whenever a
 * progress call found nothing to do: the ranks then take turns as Open MPI's do when it knows it is
 * oversubscribed. Scheduling only; MPI's semantics are untouched. The counters let a test prove it
 * is in force (tests/mpi_test_main.cpp, IRRCOLL_REQUIRE_YIELD_PRELOAD). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef unsigned (*ProgressFunction)(void *worker);

static ProgressFunction real_progress;
static atomic_ulong progress_calls;
static atomic_ulong yields;

/* Resolved once at load, before any thread exists: libucp is a dependency of libmpich and is
 * loaded with it. Processes without UCX (mpiexec, env) never call the wrapper. */
__attribute__((constructor)) static void resolve_progress(void) {
  real_progress = (ProgressFunction)dlsym(RTLD_NEXT, "ucp_worker_progress");
}

unsigned ucp_worker_progress(void *worker) {
  if (!real_progress) {
    fprintf(stderr, "yield_when_idle: ucp_worker_progress not found after the preload\n");
    abort();
  }
  atomic_fetch_add_explicit(&progress_calls, 1, memory_order_relaxed);
  const unsigned events = real_progress(worker);
  if (events == 0) {
    atomic_fetch_add_explicit(&yields, 1, memory_order_relaxed);
    sched_yield();
  }
  return events;
}

/* How many progress calls went through the wrapper, and how many of them yielded. */
unsigned long irrcoll_yield_preload_progress_calls(void) { return atomic_load(&progress_calls); }
unsigned long irrcoll_yield_preload_yields(void) { return atomic_load(&yields); }
