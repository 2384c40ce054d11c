/* An ordinary MPI program that knows nothing of libtuwcoll: MPI_Gatherv and MPI_Scatterv of
 * irregular blocks (rank i holds (i * 7) % 5 ints, some empty) at every root, results checked
 * against the values each rank put in. Exits non-zero on any wrong element or error. Run under
 * libtuwcoll_interpose.so it exercises the interposed calls: 2 * p calls of each per process.
 * With an argument T > 1 it asks for MPI_THREAD_MULTIPLE and does all that in T threads at
 * once, each on its own duplicate of MPI_COMM_WORLD: 2 * p * T calls of each per process (it
 * says so and exits 3 where the library provides less). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int Value(int rank, int k) { return 1000 * rank + k + 1; }

struct Work {
  MPI_Comm comm;
  int errors;
};

static void *GatherAndScatterAtEveryRoot(void *arg) {
  struct Work *work = arg;
  MPI_Comm comm = work->comm;
  int rank, p, errors = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
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
      if (MPI_Gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, comm) !=
          MPI_SUCCESS)
        ++errors;
      if (rank == root) {
        for (int i = 0; i < p; ++i)
          for (int k = 0; k < counts[i]; ++k) errors += all[displs[i] + k] != Value(i, k);
      }
      for (int k = 0; k < counts[rank]; ++k) mine[k] = -1;
      if (MPI_Scatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root, comm) !=
          MPI_SUCCESS)
        ++errors;
      for (int k = 0; k < counts[rank]; ++k) errors += mine[k] != Value(rank, k);
    }
  }
  free(counts);
  free(displs);
  free(mine);
  free(all);
  work->errors = errors;
  return NULL;
}

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  if (threads < 1 || threads > 64) {
    fprintf(stderr, "interpose_program: threads %s is not a number from 1 to 64\n", argv[1]);
    return 2;
  }
  int provided = MPI_THREAD_SINGLE;
  if (threads > 1) {
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  int rank, errors = 0, all_errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (threads > 1 && provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("interpose_program: MPI_THREAD_MULTIPLE not provided\n");
    MPI_Finalize();
    return 3;
  }
  struct Work *work = malloc(sizeof(struct Work) * threads);
  for (int t = 0; t < threads; ++t) {
    work[t].errors = 0;
    if (threads == 1) {
      work[t].comm = MPI_COMM_WORLD;
    } else {
      MPI_Comm_dup(MPI_COMM_WORLD, &work[t].comm);
    }
  }
  if (threads == 1) {
    GatherAndScatterAtEveryRoot(&work[0]);
  } else {
    pthread_t *ids = malloc(sizeof(pthread_t) * threads);
    for (int t = 0; t < threads; ++t)
      pthread_create(&ids[t], NULL, GatherAndScatterAtEveryRoot, &work[t]);
    for (int t = 0; t < threads; ++t) pthread_join(ids[t], NULL);
    free(ids);
    for (int t = 0; t < threads; ++t) MPI_Comm_free(&work[t].comm);
  }
  for (int t = 0; t < threads; ++t) errors += work[t].errors;
  free(work);
  MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("interpose_program: %d wrong elements or errors\n", all_errors);
  MPI_Finalize();
  return all_errors == 0 ? 0 : 1;
}
