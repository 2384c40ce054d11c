/* An ordinary MPI program that knows nothing of libtuwcoll: MPI_Gatherv and MPI_Scatterv of
 * irregular blocks (rank i holds (i * 7) % 5 ints, some empty) at every root, results checked
 * against the values each rank put in. Exits non-zero on any wrong element or error. Run under
 * libtuwcoll_interpose.so it exercises the interposed calls: 2 * p calls of each per process. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int Value(int rank, int k) { return 1000 * rank + k + 1; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p, errors = 0, all_errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  int total = 0;
  for (int i = 0; i < p; ++i) {
    counts[i] = (i * 7) % 5;
    displs[i] = total;
    total += counts[i];
  }
  int *mine = malloc(sizeof(int) * (counts[rank] + 1)), *all = malloc(sizeof(int) * (total + 1));
  for (int repeat = 0; repeat < 2; ++repeat) {
    for (int root = 0; root < p; ++root) {
      for (int k = 0; k < counts[rank]; ++k) mine[k] = Value(rank, k);
      for (int k = 0; k < total; ++k) all[k] = -1;
      if (MPI_Gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root,
                      MPI_COMM_WORLD) != MPI_SUCCESS)
        ++errors;
      if (rank == root) {
        for (int i = 0; i < p; ++i)
          for (int k = 0; k < counts[i]; ++k) errors += all[displs[i] + k] != Value(i, k);
      }
      for (int k = 0; k < counts[rank]; ++k) mine[k] = -1;
      if (MPI_Scatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root,
                       MPI_COMM_WORLD) != MPI_SUCCESS)
        ++errors;
      for (int k = 0; k < counts[rank]; ++k) errors += mine[k] != Value(rank, k);
    }
  }
  MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("interpose_program: %d wrong elements or errors\n", all_errors);
  MPI_Finalize();
  return all_errors == 0 ? 0 : 1;
}
