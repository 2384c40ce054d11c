// How irrbench times a case: MPI_Barrier before each repetition and the slowest process's time
// (Traeff 2017, Section 5), or a common start window on offset-corrected clocks.
#pragma once

#include <mpi.h>

#include <vector>

#include "operations.hpp"

namespace irr::bench {

struct Timing {
  std::vector<double> seconds;  // per repetition, valid at rank 0
  std::vector<int> late;        // 1 where a process reached the common start late (window)
};

// warmup untimed calls, then nrep timed ones, each after MPI_Barrier; a repetition's time is the
// slowest process's end - start on its own clock.
Timing TimeWithBarrier(Case& c, int warmup, int nrep, MPI_Comm comm);

// Clock offsets to rank 0 by ping-pongs (the one with the smallest round trip wins), as in
// ReproMPI/SKaMPI: returns this rank's offset (local clock - rank 0's); at rank 0 *spread is
// the spread of all offsets and *worst_rtt the largest best round trip.
double ClockOffset(MPI_Comm comm, double* spread, double* worst_rtt);

// All processes start each repetition at a common future time (rank 0's clock, shifted by each
// offset); the time is the latest end minus that start. The warm-ups size the window.
Timing TimeWithWindow(Case& c, int warmup, int nrep, MPI_Comm comm, double offset);

}  // namespace irr::bench
