/* libtuwcoll from C: gathers rank-numbered blocks (rank i sends i+1 ints) with TUW_Gatherv and
 * scatters them back with TUW_Scatterv, then gathers and scatters over three steps with
 * persistent requests (TUW_Gatherv_init, TUW_Scatterv_init, TUW_Startall, TUW_Waitall,
 * TUW_Request_free), the blocks changed between steps; exits non-zero on any wrong element or
 * error code. */
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
  /* Persistent: gather mine into all at the root, scatter source (the root's) into back. */
  int *back = malloc(sizeof(int) * (rank + 1)), *source = malloc(sizeof(int) * total);
  TUW_Request requests[2] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  errors += TUW_Gatherv_init(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, root,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &requests[0]) != MPI_SUCCESS;
  errors += TUW_Scatterv_init(source, counts, displs, MPI_INT, back, rank + 1, MPI_INT, root,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]) != MPI_SUCCESS;
  for (int step = 1; step <= 3; ++step) {
    for (int k = 0; k <= rank; ++k) mine[k] = 100 * rank + k + 10000 * step;
    for (int i = 0; i < p; ++i)
      for (int k = 0; k <= i; ++k) source[displs[i] + k] = 100 * i + k - 10000 * step;
    errors += TUW_Startall(2, requests) != MPI_SUCCESS;
    errors += TUW_Waitall(2, requests, MPI_STATUSES_IGNORE) != MPI_SUCCESS;
    if (rank == root) {
      for (int i = 0; i < p; ++i)
        for (int k = 0; k <= i; ++k) errors += all[displs[i] + k] != 100 * i + k + 10000 * step;
    }
    for (int k = 0; k <= rank; ++k) errors += back[k] != 100 * rank + k - 10000 * step;
  }
  errors += TUW_Request_free(&requests[0]) != MPI_SUCCESS;
  errors += TUW_Request_free(&requests[1]) != MPI_SUCCESS;
  free(back);
  free(source);
  MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("c_api_test: %d wrong elements\n", all_errors);
  free(counts);
  free(displs);
  free(mine);
  free(all);
  MPI_Finalize();
  return all_errors != 0;
}
