// libtuwcoll_interpose.so: puts libtuwcoll's algorithms into an unmodified MPI program through
// MPI's profiling interface. Preloaded (LD_PRELOAD) or linked before the MPI library, its
// MPI_Gatherv / MPI_Scatterv run the algorithm the environment names, the same on every process:
//   TUWCOLL_GATHERV=tuw|linear|binomial|tuwk|binomialk|native  (default tuw; native = the
//                   library's PMPI_Gatherv; tuwk, binomialk: radix k, see tuwcoll.h)
//   TUWCOLL_SCATTERV=tuw|linear|binomial|tuwk|binomialk|native  (default tuw)
//   TUWCOLL_VERBOSE=1  prints at MPI_Finalize how many calls went to which algorithm.
// An unknown value, or values that differ between processes, stop the program at MPI_Init with
// one message (rank 0) and MPI_Abort: never a silent default.
// The algorithm names come from libtuwcoll's registry (the one table of algorithms); the library's
// objects are linked into this one and kept local (exports.map), so they do not clash with a copy
// the program links itself.
#include <mpi.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "tuwcoll_registry.hpp"

#define TUWCOLL_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// A choice: its name in the environment, the registry's name, the function.
template <typename Fn>
struct Choice {
  std::string value;  // "tuw", "linear", "binomial", "native"
  std::string name;   // "TUW_Gatherv", ..., "MPI_Gatherv"
  Fn fn;
};

// "TUW_Gatherv" -> "tuw"; the MPI row -> "native", bound to the PMPI entry (MPI_Gatherv is us).
template <typename Fn, typename Row>
std::vector<Choice<Fn>> ChoicesOf(const Row& rows, Fn native) {
  std::vector<Choice<Fn>> choices;
  for (const auto& row : rows) {
    std::string name(row.name);
    std::string value = name.substr(0, name.find('_'));
    for (char& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (value == "mpi") {
      choices.push_back({"native", name, native});
    } else {
      choices.push_back({value, name, row.fn});
    }
  }
  return choices;
}

const std::vector<Choice<tuw::GathervFn>>& GathervChoices() {
  static const auto choices = ChoicesOf(tuw::kGathervAlgorithms, tuw::GathervFn{PMPI_Gatherv});
  return choices;
}
const std::vector<Choice<tuw::ScattervFn>>& ScattervChoices() {
  static const auto choices = ChoicesOf(tuw::kScattervAlgorithms, tuw::ScattervFn{PMPI_Scatterv});
  return choices;
}

struct State {
  bool configured = false;
  std::string error;              // a bad environment, reported at MPI_Init
  int gatherv = 0, scatterv = 0;  // indices into the choices
  // Calls made: atomic, as threads may call at once (MPI_THREAD_MULTIPLE, own communicators).
  std::atomic<long> gatherv_calls{0}, scatterv_calls{0};
  std::string description;
};
State g_state;

template <typename Fn>
int Pick(const char* variable, const std::vector<Choice<Fn>>& choices, std::string* error) {
  const char* text = std::getenv(variable);
  const std::string value = text == nullptr || *text == '\0' ? "tuw" : text;
  std::string valid;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].value == value) return static_cast<int>(i);
    valid += (i ? ", " : "") + choices[i].value;
  }
  if (error->empty()) {
    *error = std::string(variable) + "=" + value + ": unknown algorithm; valid: " + valid;
  }
  return 0;
}

// Once per process (a function-local static: safe if threads get here first).
void Configure() {
  static const bool configured = [] {
    g_state.gatherv = Pick("TUWCOLL_GATHERV", GathervChoices(), &g_state.error);
    g_state.scatterv = Pick("TUWCOLL_SCATTERV", ScattervChoices(), &g_state.error);
    g_state.description = "MPI_Gatherv=" + GathervChoices()[g_state.gatherv].name +
                          " MPI_Scatterv=" + ScattervChoices()[g_state.scatterv].name;
    g_state.configured = true;
    return true;
  }();
  (void)configured;
}

// At MPI_Init: a bad value, or a choice that differs between processes, stops the program.
void CheckAtInit() {
  Configure();
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  // [0]: the lowest rank with a bad value (size if none); [1], [2]: the choices.
  int mine[3] = {g_state.error.empty() ? size : rank, g_state.gatherv, g_state.scatterv};
  int low[3], high[3];
  PMPI_Allreduce(mine, low, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  PMPI_Allreduce(mine, high, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  std::string problem;
  int reporter = 0;  // one message, from one process
  if (low[0] < size) {
    problem = g_state.error;
    reporter = low[0];
  } else if (low[1] != high[1] || low[2] != high[2]) {
    problem = "TUWCOLL_GATHERV/TUWCOLL_SCATTERV differ between processes; they must be the same";
  } else {
    return;
  }
  // Only the reporter aborts, after its message is out: an abort from another process may kill
  // the job before that message reaches the terminal. The others wait
  // in a barrier the reporter never enters.
  if (rank == reporter) {
    std::fprintf(stderr, "libtuwcoll_interpose: %s\n", problem.c_str());
    std::fflush(stderr);
    // The launcher forwards output asynchronously; MPICH's loses it in about one abort in 15
    // unless it gets a moment first.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    PMPI_Abort(MPI_COMM_WORLD, 2);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
  PMPI_Abort(MPI_COMM_WORLD, 2);
}

}  // namespace

// What irrbench records when it runs under the interposer (found with dlsym).
TUWCOLL_EXPORT const char* tuwcoll_interpose_choice(void) {
  Configure();
  return g_state.description.c_str();
}

TUWCOLL_EXPORT int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) CheckAtInit();
  return rc;
}

TUWCOLL_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) CheckAtInit();
  return rc;
}

TUWCOLL_EXPORT int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Configure();
  ++g_state.gatherv_calls;
  return GathervChoices()[g_state.gatherv].fn(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, root, comm);
}

TUWCOLL_EXPORT int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                                MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Configure();
  ++g_state.scatterv_calls;
  return ScattervChoices()[g_state.scatterv].fn(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                recvcount, recvtype, root, comm);
}

TUWCOLL_EXPORT int MPI_Finalize(void) {
  const char* verbose = std::getenv("TUWCOLL_VERBOSE");
  if (g_state.configured && verbose != nullptr && std::string(verbose) == "1") {
    int rank = 0, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    long local[2] = {g_state.gatherv_calls.load(), g_state.scatterv_calls.load()};
    long total[2] = {0, 0};
    PMPI_Reduce(local, total, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::fprintf(stderr, "libtuwcoll_interpose: MPI_Gatherv -> %s: %ld calls on %d processes\n",
                   GathervChoices()[g_state.gatherv].name.c_str(), total[0], size);
      std::fprintf(stderr, "libtuwcoll_interpose: MPI_Scatterv -> %s: %ld calls on %d processes\n",
                   ScattervChoices()[g_state.scatterv].name.c_str(), total[1], size);
    }
  }
  return PMPI_Finalize();
}
