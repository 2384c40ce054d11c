// main() for the MPI GoogleTest programs: MPI is initialised around the whole run and the exit
// status is agreed by all ranks. Only rank 0 prints the normal progress; every rank prints its
// failures. Built twice: mpi_test_main initialises MPI_THREAD_SINGLE, mpi_test_main_threads
// (IRRCOLL_TEST_THREAD_MULTIPLE) asks for MPI_THREAD_MULTIPLE.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>

namespace {
class FailuresOnly : public ::testing::EmptyTestEventListener {
 public:
  explicit FailuresOnly(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed()) {
      std::printf("[rank %d] %s:%d: Failure\n%s\n", rank_, r.file_name() ? r.file_name() : "?",
                  r.line_number(), r.summary());
      std::fflush(stdout);
    }
  }

 private:
  int rank_;
};

// Where ctest asks for MPICH's yield preload (tests/mpich_yield), proves it is in force: the
// wrapper is loaded and, with peers to wait for, MPICH's progress loop went through it.
// Returns 0, or 1 with a message naming what is missing.
int CheckYieldPreload(int rank, int size) {
  if (std::getenv("IRRCOLL_REQUIRE_YIELD_PRELOAD") == nullptr) return 0;
  using Counter = unsigned long (*)();
  auto calls =
      reinterpret_cast<Counter>(dlsym(RTLD_DEFAULT, "irrcoll_yield_preload_progress_calls"));
  if (calls == nullptr) {
    std::printf(
        "[rank %d] IRRCOLL_REQUIRE_YIELD_PRELOAD is set but the yield preload is not loaded\n",
        rank);
    return 1;
  }
  if (size > 1 && calls() == 0) {
    std::printf(
        "[rank %d] the yield preload is loaded but MPICH never called ucp_worker_progress "
        "through it (not a ch4:ucx MPICH?)\n",
        rank);
    return 1;
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
#ifdef IRRCOLL_TEST_THREAD_MULTIPLE
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
#else
  MPI_Init(&argc, &argv);
#endif
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailuresOnly(rank));
  }
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int local = RUN_ALL_TESTS() | CheckYieldPreload(rank, size);
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return global;
}
