#include "timing.hpp"

#include <algorithm>

namespace irr::bench {
namespace {

// After the last timed repetition: every process waits for the others before anything else
// moves. Without it the processes done first went on to the next case (its validation call)
// while the last repetition's stragglers still received, and that traffic slowed them: simulated
// p = 560, TUWk_Scatterv, Decreasing b = 100, the last of 10 repetitions 153.45 us where the
// others took 109.20, when a case followed (108.81 as the run's last case). Between repetitions
// the next one's barrier does the same.
void EndOfRepetitions(MPI_Comm comm) { MPI_Barrier(comm); }

}  // namespace

Timing TimeWithBarrier(Case& c, int warmup, int nrep, MPI_Comm comm) {
  std::vector<double> local(nrep), slowest(nrep);
  for (int r = 0; r < warmup + nrep; ++r) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    c.Run();
    const double end = MPI_Wtime();
    if (r >= warmup) local[r - warmup] = end - start;
  }
  EndOfRepetitions(comm);
  MPI_Reduce(local.data(), slowest.data(), nrep, MPI_DOUBLE, MPI_MAX, 0, comm);
  return {slowest, std::vector<int>(nrep, 0)};
}

double ClockOffset(MPI_Comm comm, double* spread, double* worst_rtt) {
  int p = 0, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  constexpr int kPingPongs = 20;
  double my_offset = 0;
  std::vector<double> offsets(p, 0.0);
  *worst_rtt = 0;
  for (int peer = 1; peer < p; ++peer) {
    if (rank == 0) {
      double best_rtt = 1e30, best = 0;
      for (int k = 0; k < kPingPongs; ++k) {
        double remote = 0;
        const double t1 = MPI_Wtime();
        MPI_Send(&t1, 1, MPI_DOUBLE, peer, 1, comm);
        MPI_Recv(&remote, 1, MPI_DOUBLE, peer, 2, comm, MPI_STATUS_IGNORE);
        const double t2 = MPI_Wtime();
        if (t2 - t1 < best_rtt) {
          best_rtt = t2 - t1;
          best = remote - (t1 + t2) / 2;
        }
      }
      offsets[peer] = best;
      *worst_rtt = std::max(*worst_rtt, best_rtt);
      MPI_Send(&best, 1, MPI_DOUBLE, peer, 3, comm);
    } else if (rank == peer) {
      for (int k = 0; k < kPingPongs; ++k) {
        double t1 = 0;
        MPI_Recv(&t1, 1, MPI_DOUBLE, 0, 1, comm, MPI_STATUS_IGNORE);
        const double now = MPI_Wtime();
        MPI_Send(&now, 1, MPI_DOUBLE, 0, 2, comm);
      }
      MPI_Recv(&my_offset, 1, MPI_DOUBLE, 0, 3, comm, MPI_STATUS_IGNORE);
    }
  }
  const auto [lo, hi] = std::minmax_element(offsets.begin(), offsets.end());
  *spread = *hi - *lo;
  return my_offset;
}

Timing TimeWithWindow(Case& c, int warmup, int nrep, MPI_Comm comm, double offset) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double window = 0;
  for (int r = 0; r < warmup; ++r) {  // warm-ups size the window
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    c.Run();
    window = std::max(window, MPI_Wtime() - start);
  }
  MPI_Allreduce(MPI_IN_PLACE, &window, 1, MPI_DOUBLE, MPI_MAX, comm);
  window = 2 * window + 1e-4;
  std::vector<double> ends(nrep), latest(nrep), starts(nrep);
  std::vector<int> late(nrep), any_late(nrep);
  for (int r = 0; r < nrep; ++r) {
    double start_at = rank == 0 ? MPI_Wtime() + window : 0;
    MPI_Bcast(&start_at, 1, MPI_DOUBLE, 0, comm);
    starts[r] = start_at;
    const double local_start = start_at + offset;
    late[r] = MPI_Wtime() > local_start ? 1 : 0;
    while (MPI_Wtime() < local_start) {
    }
    c.Run();
    ends[r] = MPI_Wtime() - offset;
  }
  EndOfRepetitions(comm);
  MPI_Reduce(ends.data(), latest.data(), nrep, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(late.data(), any_late.data(), nrep, MPI_INT, MPI_MAX, 0, comm);
  Timing t{std::vector<double>(nrep), any_late};
  for (int r = 0; r < nrep; ++r) t.seconds[r] = latest[r] - starts[r];
  return t;
}

}  // namespace irr::bench
