// libtuwcoll under MPI_THREAD_MULTIPLE: several threads of every process call it at the same
// time, each on its own communicator (MPI allows concurrent collectives on different
// communicators, not on one), and every result is checked against the values each rank put in.
// The threads are released together into their first call, which is also the process's first
// call into the library, so its one-time set-up runs under contention. Run by ctest with
// mpi_test_main_threads (MPI_Init_thread, MPI_THREAD_MULTIPLE); where the library provides less,
// the test reports a skip.
#include <algorithm>
#include <atomic>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {

using namespace irrtest;

constexpr int kThreads = 3;
constexpr int kRounds = 3;

// What one thread found wrong, the first problem in words (threads do not assert: GoogleTest
// assertions stop only the thread's function, and the verdict must be agreed by every rank).
struct Findings {
  int problems = 0;
  std::string first;
  void Check(bool ok, const std::string& what) {
    if (!ok && problems++ == 0) first = what;
  }
};

// One round's problem on `comm`: counts and permuted displacements with gaps, the same on
// every rank; `shift` changes the values between rounds.
struct Problem {
  std::vector<int> counts, displs;
  int extent = 0;
  int shift = 0;
  Problem(int p, std::uint64_t seed, int shift_) : counts(RandomCounts(p, seed)), shift(shift_) {
    displs = PermutedDisplacements(counts, seed, &extent);
  }
  int Value(int rank, int k) const { return Pattern(rank, k) + shift; }
  std::vector<int> Block(int rank) const {
    std::vector<int> block(counts[rank]);
    for (int k = 0; k < counts[rank]; ++k) block[k] = Value(rank, k);
    return block;
  }
  // The root's buffer after a gather: every block in place, the gaps untouched.
  std::vector<int> Gathered() const {
    std::vector<int> all(extent, kFill);
    for (std::size_t i = 0; i < counts.size(); ++i) {
      for (int k = 0; k < counts[i]; ++k) all[displs[i] + k] = Value(static_cast<int>(i), k);
    }
    return all;
  }
};

void GatherAndScatterEveryAlgorithm(MPI_Comm comm, const Problem& problem, int root,
                                    const std::string& where, Findings* findings) {
  const int me = Rank(comm);
  const bool is_root = me == root;
  const std::vector<int> mine = problem.Block(me);
  const std::vector<int> expected = problem.Gathered();
  // The library's algorithms first: a thread's first call goes into libtuwcoll.
  for (int a = static_cast<int>(std::size(tuw::kGathervAlgorithms)) - 1; a >= 0; --a) {
    const tuw::GathervAlgorithm& algorithm = tuw::kGathervAlgorithms[a];
    std::vector<int> recv(is_root ? problem.extent : 1, kFill);
    const int rc = algorithm.fn(mine.data(), problem.counts[me], MPI_INT, recv.data(),
                                problem.counts.data(), problem.displs.data(), MPI_INT, root, comm);
    findings->Check(rc == MPI_SUCCESS && (!is_root || recv == expected),
                    std::string(algorithm.name) + " " + where + " rc " + std::to_string(rc));
  }
  for (int a = static_cast<int>(std::size(tuw::kScattervAlgorithms)) - 1; a >= 0; --a) {
    const tuw::ScattervAlgorithm& algorithm = tuw::kScattervAlgorithms[a];
    std::vector<int> recv(problem.counts[me] + 1, kFill);  // one more: nothing may land there
    std::vector<int> expected_recv = mine;
    expected_recv.push_back(kFill);
    const int rc = algorithm.fn(is_root ? expected.data() : nullptr, problem.counts.data(),
                                problem.displs.data(), MPI_INT, recv.data(), problem.counts[me],
                                MPI_INT, root, comm);
    findings->Check(rc == MPI_SUCCESS && recv == expected_recv,
                    std::string(algorithm.name) + " " + where + " rc " + std::to_string(rc));
  }
}

// Persistent requests made once per thread and started every round with new contents.
void PersistentRounds(MPI_Comm comm, int root, std::uint64_t seed, Findings* findings) {
  const int me = Rank(comm);
  const bool is_root = me == root;
  Problem problem(Size(comm), seed, 0);
  std::vector<int> send(problem.counts[me]), gathered(is_root ? problem.extent : 1, kFill);
  std::vector<int> scatter_send(problem.extent, kFill), scattered(problem.counts[me] + 1, kFill);
  for (const tuw::GathervInitAlgorithm& algorithm : tuw::kGathervInitAlgorithms) {
    const std::string name(algorithm.name);
    // The matching scatter of the same kind (same row of the other table).
    const auto& scatter_init =
        tuw::kScattervInitAlgorithms[&algorithm - std::begin(tuw::kGathervInitAlgorithms)];
    findings->Check(
        name.substr(0, name.find('_')) == scatter_init.name.substr(0, scatter_init.name.find('_')),
        name + " paired with " + std::string(scatter_init.name));
    TUW_Request requests[2] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL};
    int rc = algorithm.fn(send.data(), problem.counts[me], MPI_INT, gathered.data(),
                          problem.counts.data(), problem.displs.data(), MPI_INT, root, comm,
                          MPI_INFO_NULL, &requests[0]);
    findings->Check(rc == MPI_SUCCESS, name + " init rc " + std::to_string(rc));
    rc = scatter_init.fn(scatter_send.data(), problem.counts.data(), problem.displs.data(), MPI_INT,
                         scattered.data(), problem.counts[me], MPI_INT, root, comm, MPI_INFO_NULL,
                         &requests[1]);
    findings->Check(rc == MPI_SUCCESS,
                    std::string(scatter_init.name) + " init rc " + std::to_string(rc));
    if (findings->problems > 0) return;
    for (int round = 0; round < kRounds; ++round) {
      // New contents in the same buffers: the requests hold their addresses.
      problem.shift = 17 * (round + 1);
      const std::vector<int> block = problem.Block(me), all = problem.Gathered();
      std::copy(block.begin(), block.end(), send.begin());
      std::fill(gathered.begin(), gathered.end(), kFill);
      std::copy(all.begin(), all.end(), scatter_send.begin());
      std::fill(scattered.begin(), scattered.end(), kFill);
      const int start_rc = TUW_Startall(2, requests);
      const int wait_rc = TUW_Waitall(2, requests, MPI_STATUSES_IGNORE);
      std::vector<int> expected_scattered = problem.Block(me);
      expected_scattered.push_back(kFill);
      findings->Check(start_rc == MPI_SUCCESS && wait_rc == MPI_SUCCESS &&
                          (!is_root || gathered == problem.Gathered()) &&
                          scattered == expected_scattered,
                      name + " start " + std::to_string(round) + " rc " + std::to_string(start_rc) +
                          "/" + std::to_string(wait_rc));
    }
    for (TUW_Request& request : requests) {
      rc = TUW_Request_free(&request);
      findings->Check(rc == MPI_SUCCESS && request == TUW_REQUEST_NULL,
                      name + " free rc " + std::to_string(rc));
    }
  }
}

void RunThread(int thread, MPI_Comm comm, std::atomic<int>* not_ready, Findings* findings) {
  not_ready->fetch_sub(1);
  while (not_ready->load() > 0) std::this_thread::yield();
  const int p = Size(comm);
  for (int round = 0; round < kRounds; ++round) {
    const int root = (thread + round) % p;
    const std::uint64_t seed = 100 * static_cast<std::uint64_t>(thread) + round + 1;
    const Problem problem(p, seed, round);
    GatherAndScatterEveryAlgorithm(
        comm, problem, root, "round " + std::to_string(round) + " root " + std::to_string(root),
        findings);
  }
  PersistentRounds(comm, (thread + 1) % p, 1000 + thread, findings);
}

TEST(Threads, ConcurrentCallsOnOwnCommunicatorsDeliverEveryBlock) {
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (!AllRanks(level == MPI_THREAD_MULTIPLE)) {
    GTEST_SKIP() << "the MPI library does not provide MPI_THREAD_MULTIPLE";
  }
  // One communicator per thread, made here on the main thread in the same order everywhere.
  std::vector<MPI_Comm> comms(kThreads);
  for (MPI_Comm& comm : comms) MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  std::vector<Findings> findings(kThreads);
  std::atomic<int> not_ready{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back(RunThread, t, comms[t], &not_ready, &findings[t]);
  }
  for (std::thread& thread : threads) thread.join();
  for (MPI_Comm& comm : comms) MPI_Comm_free(&comm);
  bool ok = true;
  for (int t = 0; t < kThreads; ++t) {
    ok = ok && findings[t].problems == 0;
    EXPECT_EQ(findings[t].problems, 0)
        << "rank " << Rank() << " thread " << t << ": " << findings[t].first;
  }
  EXPECT_TRUE(AllRanks(ok));
}

}  // namespace
