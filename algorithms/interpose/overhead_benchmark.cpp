// The cost of going through libtuwcoll_interpose.so: MPI_Gatherv / MPI_Scatterv (the
// interposer's, which dispatches to the algorithm TUWCOLL_GATHERV / TUWCOLL_SCATTERV name)
// against a direct call of that same algorithm, side by side in one run, zero-size blocks so
// that the call itself is what is measured. Blocks of calls alternate between the two ways (in
// turn first), each block's time per call is the slowest process's; the report is the median
// per way and the median of the paired differences.
//
//   TUWCOLL_GATHERV=native TUWCOLL_SCATTERV=native mpiexec -n 2
//     env LD_PRELOAD=.../libtuwcoll_interpose.so interpose_overhead [blocks] [calls]
#include <dlfcn.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuwcoll_registry.hpp>
#include <vector>

namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Seconds per call of `calls` calls, the slowest process's.
template <typename Call>
double TimePerCall(int calls, Call call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < calls; ++i) call();
  const double local = (MPI_Wtime() - start) / calls;
  double slowest = 0;
  MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

std::string Choice(const char* variable) {
  const char* value = std::getenv(variable);
  return value == nullptr ? "tuw" : value;
}

// The function the interposer dispatches to for `choice`, called directly here.
tuw::GathervFn DirectGatherv(const std::string& choice) {
  if (choice == "native") return PMPI_Gatherv;
  for (const auto& a : tuw::kGathervAlgorithms) {
    std::string name(a.name);
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    if (a.fn != MPI_Gatherv && name == choice + "_gatherv") return a.fn;
  }
  return nullptr;
}
tuw::ScattervFn DirectScatterv(const std::string& choice) {
  if (choice == "native") return PMPI_Scatterv;
  for (const auto& a : tuw::kScattervAlgorithms) {
    std::string name(a.name);
    std::transform(name.begin(), name.end(), name.begin(), ::tolower);
    if (a.fn != MPI_Scatterv && name == choice + "_scatterv") return a.fn;
  }
  return nullptr;
}

void Report(const char* what, const std::vector<double>& interposed,
            const std::vector<double>& direct) {
  std::vector<double> difference(interposed.size());
  for (std::size_t i = 0; i < interposed.size(); ++i) difference[i] = interposed[i] - direct[i];
  std::printf("%-12s interposed %8.3f us  direct %8.3f us  overhead %+7.3f us/call\n", what,
              Median(interposed) * 1e6, Median(direct) * 1e6, Median(difference) * 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 200;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 2000;
  auto* interposer =
      reinterpret_cast<const char* (*)()>(dlsym(RTLD_DEFAULT, "tuwcoll_interpose_choice"));
  const std::string gather_choice = Choice("TUWCOLL_GATHERV");
  const std::string scatter_choice = Choice("TUWCOLL_SCATTERV");
  const tuw::GathervFn direct_gatherv = DirectGatherv(gather_choice);
  const tuw::ScattervFn direct_scatterv = DirectScatterv(scatter_choice);
  if (interposer == nullptr || direct_gatherv == nullptr || direct_scatterv == nullptr ||
      blocks < 1 || calls < 1) {
    if (rank == 0) {
      std::fprintf(
          stderr,
          "interpose_overhead: run it with libtuwcoll_interpose.so preloaded (%s), "
          "TUWCOLL_GATHERV/TUWCOLL_SCATTERV = tuw|linear|binomial|tuwk|binomialk|native, and "
          "positive [blocks] [calls] (got %d %d)\n",
          interposer ? "found" : "not found", blocks, calls);
    }
    MPI_Finalize();
    return 2;
  }
  std::vector<int> zeros(p, 0);
  int dummy = 0;
  const int root = 0;
  auto interposed_gather = [&] {
    MPI_Gatherv(&dummy, 0, MPI_INT, &dummy, zeros.data(), zeros.data(), MPI_INT, root,
                MPI_COMM_WORLD);
  };
  auto direct_gather = [&] {
    direct_gatherv(&dummy, 0, MPI_INT, &dummy, zeros.data(), zeros.data(), MPI_INT, root,
                   MPI_COMM_WORLD);
  };
  auto interposed_scatter = [&] {
    MPI_Scatterv(&dummy, zeros.data(), zeros.data(), MPI_INT, &dummy, 0, MPI_INT, root,
                 MPI_COMM_WORLD);
  };
  auto direct_scatter = [&] {
    direct_scatterv(&dummy, zeros.data(), zeros.data(), MPI_INT, &dummy, 0, MPI_INT, root,
                    MPI_COMM_WORLD);
  };
  TimePerCall(calls, interposed_gather);  // warm-up: private communicators, caches
  TimePerCall(calls, direct_gather);
  TimePerCall(calls, interposed_scatter);
  TimePerCall(calls, direct_scatter);
  std::vector<double> gi, gd, si, sd;
  for (int b = 0; b < blocks; ++b) {
    if (b % 2 == 0) {
      gi.push_back(TimePerCall(calls, interposed_gather));
      gd.push_back(TimePerCall(calls, direct_gather));
      si.push_back(TimePerCall(calls, interposed_scatter));
      sd.push_back(TimePerCall(calls, direct_scatter));
    } else {
      gd.push_back(TimePerCall(calls, direct_gather));
      gi.push_back(TimePerCall(calls, interposed_gather));
      sd.push_back(TimePerCall(calls, direct_scatter));
      si.push_back(TimePerCall(calls, interposed_scatter));
    }
  }
  if (rank == 0) {
    std::printf("interpose_overhead: p = %d, zero-size blocks, %d blocks of %d calls, %s\n", p,
                blocks, calls, interposer());
    Report("MPI_Gatherv", gi, gd);
    Report("MPI_Scatterv", si, sd);
  }
  MPI_Finalize();
  return 0;
}
