/* libtuwcoll from C: gathers rank-numbered blocks (rank i sends i+1 ints) with TUW_Gatherv and
 * scatters them back with TUW_Scatterv; exits non-zero on any wrong element. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <tuwcoll.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p, errors = 0, all_errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int root = p / 2;
  int *counts = malloc(sizeof(int) * p), *displs = malloc(sizeof(int) * p);
  int total = 0;
  for (int i = 0; i < p; ++i) {
    counts[i] = i + 1;
    displs[i] = total;
    total += i + 1;
  }
  int *mine = malloc(sizeof(int) * (rank + 1)), *all = malloc(sizeof(int) * total);
  for (int k = 0; k <= rank; ++k) mine[k] = 100 * rank + k;
  TUW_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root) {
    for (int i = 0; i < p; ++i)
      for (int k = 0; k <= i; ++k) errors += all[displs[i] + k] != 100 * i + k;
  }
  for (int k = 0; k <= rank; ++k) mine[k] = -1;
  TUW_Scatterv(all, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, root, MPI_COMM_WORLD);
  for (int k = 0; k <= rank; ++k) errors += mine[k] != 100 * rank + k;
  MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_api_test: %d wrong elements\n", all_errors);
  free(counts);
  free(displs);
  free(mine);
  free(all);
  MPI_Finalize();
  return all_errors != 0;
}
