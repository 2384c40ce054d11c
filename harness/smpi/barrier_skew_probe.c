// When does each process leave the harness's barrier? A diagnostic for the LogGP model's Two
// blocks cases (docs/irrmodel.md): irrbench's repetitions are MPI_Barrier, the call, MPI_Barrier,
// the call ..., and a repetition's time is the slowest process's own. SimGrid's clock is global,
// so under SMPI this program can print each process's barrier exit next to the root's (p / 2),
// and the Two blocks linear gather and scatter irrbench times (blocks at ranks 0 and p - 1, one
// int each), by rank 0, p / 2 and p - 1, repetition after repetition.
//
// scripts/build smpi builds it (build/smpi/harness/barrier_skew_probe); run the smpirun line of a
// run's simulation.txt (e.g. results/simulated/paper-560/default/) with it in the place of
// irrbench and irrbench's arguments.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { kRepetitions = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int root = p / 2, first = 0, last = p - 1;
  int blocks[2] = {1, 2}, block = 0;
  // [operation][repetition]: 0 scatter, 1 gather. Nothing but the barrier between repetitions,
  // as in irrbench: the exchange of the times waits until the end.
  double exits[2][kRepetitions], elapsed[2][kRepetitions];
  for (int gather = 0; gather <= 1; ++gather) {
    for (int repetition = 0; repetition < kRepetitions; ++repetition) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      if (rank == root) {
        MPI_Request requests[2];
        if (gather) {
          MPI_Irecv(&blocks[0], 1, MPI_INT, first, 0, MPI_COMM_WORLD, &requests[0]);
          MPI_Irecv(&blocks[1], 1, MPI_INT, last, 0, MPI_COMM_WORLD, &requests[1]);
        } else {
          MPI_Isend(&blocks[0], 1, MPI_INT, first, 0, MPI_COMM_WORLD, &requests[0]);
          MPI_Isend(&blocks[1], 1, MPI_INT, last, 0, MPI_COMM_WORLD, &requests[1]);
        }
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
      } else if (rank == first || rank == last) {
        if (gather) {
          MPI_Send(&block, 1, MPI_INT, root, 0, MPI_COMM_WORLD);
        } else {
          MPI_Recv(&block, 1, MPI_INT, root, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      }
      elapsed[gather][repetition] = (MPI_Wtime() - start) * 1e6;
      exits[gather][repetition] = start * 1e6;
    }
  }
  double root_exits[2][kRepetitions];
  memcpy(root_exits, exits, sizeof exits);
  MPI_Bcast(root_exits, 2 * kRepetitions, MPI_DOUBLE, root, MPI_COMM_WORLD);
  for (int turn = 0; turn < 3; ++turn) {
    const int who = turn == 0 ? first : turn == 1 ? root : last;
    if (rank == who) {
      for (int gather = 0; gather <= 1; ++gather) {
        for (int repetition = 0; repetition < kRepetitions; ++repetition) {
          printf(
              "%s repetition %d rank %d: left the barrier %+.3f us after the root, took %.3f us\n",
              gather ? "gather" : "scatter", repetition, rank,
              exits[gather][repetition] - root_exits[gather][repetition],
              elapsed[gather][repetition]);
        }
      }
      fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // Ranks 0..31's exits in the gather's last repetition, next to the root's.
  const double mine = exits[1][kRepetitions - 1] - root_exits[1][kRepetitions - 1];
  double offsets[32];
  const int shown = p < 32 ? p : 32;
  if (rank > 0 && rank < shown) MPI_Send(&mine, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  if (rank == 0) {
    offsets[0] = mine;
    for (int r = 1; r < shown; ++r) {
      MPI_Recv(&offsets[r], 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("gather's last repetition, ranks 0..%d left the barrier (us after the root):",
           shown - 1);
    for (int r = 0; r < shown; ++r) printf(" %+.3f", offsets[r]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
