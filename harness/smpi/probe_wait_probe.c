// When does MPI_Probe return in SimGrid SMPI? A diagnostic for the LogGP model's oblivious trees
// (docs/irrmodel.md, "The oblivious trees' probes and size messages"): their parents probe each
// child's message before they receive it. Rank 0 sends rank 1 one int after waiting D (usleep:
// simulated time under SMPI), rank 1 probes for it from the start; ranks 2 ... p - 1 probe beside
// it for messages rank 0 sends them after 2D. Printed per D: when the message was sent, how long
// after that rank 1's probe returned, and how long its receive then took. SMPI's probe polls with
// a growing pause (smpi/iprobe times the number of failed polls, a count all processes share), so
// the return is later the longer the probe waited and the more processes probe beside it.
//
// scripts/build smpi builds it (build/smpi/harness/probe_wait_probe); run it with two hosts of a
// platform and scripts/simulate --print-config's options, then with more ranks: smpirun -np 12
// -platform harness/platforms/paper-qdr80.xml -hostfile HOSTS (one host a rank) and the options.
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const unsigned waits_us[] = {0, 1, 5, 10, 20, 40, 80};
  const int cases = (int)(sizeof waits_us / sizeof waits_us[0]);
  int data = 0;
  if (rank == 1) printf("p = %d: %d rank(s) probing beside rank 1\n", p, p > 2 ? p - 2 : 0);
  for (int c = 0; c < cases; ++c) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (rank == 0) {
      if (waits_us[c] > 0) usleep(waits_us[c]);
      const double sent = MPI_Wtime();
      MPI_Send(&data, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
      MPI_Send(&sent, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
      if (waits_us[c] > 0) usleep(waits_us[c]);
      for (int r = 2; r < p; ++r) MPI_Send(&data, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
    } else {
      MPI_Status status;
      MPI_Probe(0, 0, MPI_COMM_WORLD, &status);
      const double probed = MPI_Wtime();
      MPI_Recv(&data, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &status);
      const double received = MPI_Wtime();
      if (rank == 1) {
        double sent = 0;
        MPI_Recv(&sent, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("wait %2u us: sent at %7.3f us, probe returned %.3f us after, receive %.3f us\n",
               waits_us[c], (sent - start) * 1e6, (probed - sent) * 1e6, (received - probed) * 1e6);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
