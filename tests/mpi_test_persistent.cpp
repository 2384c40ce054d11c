// Persistent TUW_Gatherv_init / TUW_Scatterv_init and Optimal_Gatherv_init /
// Optimal_Scatterv_init (the same tests for both, value-parameterized): byte equality with the
// native MPI_Gatherv / MPI_Scatterv on the same buffers over many starts, with the buffer contents
// changed between starts (the data of each start is what the buffers hold then); every root, random
// counts with zeros, permuted displacements with gaps, sub-communicators, MPI_IN_PLACE, differing
// datatypes with one signature, intercommunicators; freeing and reuse; errors on every process, no
// hang.
#include <climits>
#include <cstdio>
#include <cstdlib>

#include "mpi_test_support.hpp"
#include "node_tree.hpp"
#include "scatter_schedule.hpp"
#include "tuwcoll.h"

namespace {
using namespace irrtest;

constexpr int kStarts = 4;

// The two kinds of persistent request: the same arguments, TUW_Start/TUW_Wait/TUW_Request_free.
struct InitFunctions {
  const char* name;
  decltype(&TUW_Gatherv_init) gather;
  decltype(&TUW_Scatterv_init) scatter;
};
const InitFunctions kTuwInit{"TUW", TUW_Gatherv_init, TUW_Scatterv_init};
const InitFunctions kOptimalInit{"Optimal", Optimal_Gatherv_init, Optimal_Scatterv_init};
// TUW at radix k (TUWCOLL_RADIX=3 in the MPI tests): the same semantics and errors.
const InitFunctions kTuwkInit{"TUWk", TUWk_Gatherv_init, TUWk_Scatterv_init};
std::string InitName(const ::testing::TestParamInfo<InitFunctions>& info) {
  return info.param.name;
}

class Persistent : public ::testing::TestWithParam<InitFunctions> {};
INSTANTIATE_TEST_SUITE_P(Init, Persistent, ::testing::Values(kTuwInit, kOptimalInit, kTuwkInit),
                         InitName);

// Element k of rank i's block at start s.
int Value(int rank, int k, int start) { return Pattern(rank, k) + 1000 * start; }

// Block counts of a gather's problem `seed` (RandomCounts where none is given).
using CountsFor = std::vector<int> (*)(int p, int seed);

// How much of a problem a check runs: starts of each request, and the roots (every root up to
// every_root_up_to processes; above, `sampled_roots` of them spread evenly from 0 to p - 1).
struct Coverage {
  int starts = kStarts;
  int every_root_up_to = INT_MAX;
  int sampled_roots = 0;
};
std::vector<int> RootsToCheck(int p, const Coverage& coverage) {
  std::vector<int> roots;
  if (p <= coverage.every_root_up_to || coverage.sampled_roots < 2) {
    for (int root = 0; root < p; ++root) roots.push_back(root);
  } else {
    const int n = coverage.sampled_roots;
    for (int i = 0; i < n; ++i) roots.push_back(static_cast<int>(i * (p - 1LL) / (n - 1)));
  }
  return roots;
}

void CheckGathers(const InitFunctions& init, MPI_Comm comm, int seeds, bool in_place,
                  CountsFor counts_for = nullptr, const Coverage& coverage = {}) {
  const int p = Size(comm), rank = Rank(comm);
  for (int seed = 1; seed <= seeds; ++seed) {
    const std::vector<int> counts = counts_for ? counts_for(p, seed) : RandomCounts(p, 100 + seed);
    int extent = 0;
    const std::vector<int> displs = PermutedDisplacements(counts, seed, &extent);
    for (const int root : RootsToCheck(p, coverage)) {
      const bool is_root = rank == root;
      std::vector<int> send(counts[rank] + 1), recv(is_root ? extent : 1, kFill);
      const void* sendbuf = in_place && is_root ? MPI_IN_PLACE : send.data();
      TUW_Request request = TUW_REQUEST_NULL;
      int rc = init.gather(sendbuf, counts[rank], MPI_INT, recv.data(), counts.data(),
                           displs.data(), MPI_INT, root, comm, MPI_INFO_NULL, &request);
      ASSERT_TRUE(AllRanks(rc == MPI_SUCCESS && request != TUW_REQUEST_NULL, comm));
      for (int start = 0; start < coverage.starts; ++start) {
        for (int k = 0; k < counts[rank]; ++k) send[k] = Value(rank, k, start);
        std::vector<int> reference(is_root ? extent : 1, kFill);
        if (in_place && is_root) {  // the root's block is already in place, in both buffers
          std::fill(recv.begin(), recv.end(), kFill);
          for (int k = 0; k < counts[rank]; ++k) {
            recv[displs[rank] + k] = reference[displs[rank] + k] = send[k];
          }
        } else if (is_root) {
          std::fill(recv.begin(), recv.end(), kFill);
        }
        MPI_Gatherv(in_place && is_root ? MPI_IN_PLACE : send.data(), counts[rank], MPI_INT,
                    reference.data(), counts.data(), displs.data(), MPI_INT, root, comm);
        int start_rc = TUW_Start(&request);
        int wait_rc = TUW_Wait(&request, MPI_STATUS_IGNORE);
        const bool ok =
            start_rc == MPI_SUCCESS && wait_rc == MPI_SUCCESS && (!is_root || recv == reference);
        ASSERT_TRUE(AllRanks(ok, comm)) << "seed " << seed << " root " << root << " start " << start
                                        << " rank " << rank << " rc " << start_rc << "/" << wait_rc;
      }
      rc = TUW_Request_free(&request);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && request == TUW_REQUEST_NULL, comm));
    }
  }
}

void CheckScatters(const InitFunctions& init, MPI_Comm comm, int seeds, bool in_place,
                   CountsFor counts_for = nullptr, const Coverage& coverage = {}) {
  const int p = Size(comm), rank = Rank(comm);
  for (int seed = 1; seed <= seeds; ++seed) {
    const std::vector<int> counts = counts_for ? counts_for(p, seed) : RandomCounts(p, 200 + seed);
    int extent = 0;
    const std::vector<int> displs = PermutedDisplacements(counts, seed, &extent);
    for (const int root : RootsToCheck(p, coverage)) {
      const bool is_root = rank == root;
      std::vector<int> send(is_root ? extent : 1, kFill), recv(counts[rank] + 1, kFill);
      void* recvbuf = in_place && is_root ? MPI_IN_PLACE : recv.data();
      TUW_Request request = TUW_REQUEST_NULL;
      int rc = init.scatter(send.data(), counts.data(), displs.data(), MPI_INT, recvbuf,
                            counts[rank], MPI_INT, root, comm, MPI_INFO_NULL, &request);
      ASSERT_TRUE(AllRanks(rc == MPI_SUCCESS && request != TUW_REQUEST_NULL, comm));
      for (int start = 0; start < coverage.starts; ++start) {
        if (is_root) {
          for (int i = 0; i < p; ++i) {
            for (int k = 0; k < counts[i]; ++k) send[displs[i] + k] = Value(i, k, start);
          }
        }
        std::vector<int> reference(counts[rank] + 1, kFill);
        std::fill(recv.begin(), recv.end(), kFill);
        MPI_Scatterv(send.data(), counts.data(), displs.data(), MPI_INT,
                     in_place && is_root ? MPI_IN_PLACE : reference.data(), counts[rank], MPI_INT,
                     root, comm);
        int start_rc = TUW_Start(&request);
        int wait_rc = TUW_Wait(&request, MPI_STATUS_IGNORE);
        const bool ok = start_rc == MPI_SUCCESS && wait_rc == MPI_SUCCESS && recv == reference;
        ASSERT_TRUE(AllRanks(ok, comm))
            << "seed " << seed << " root " << root << " start " << start << " rank " << rank;
      }
      rc = TUW_Request_free(&request);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && request == TUW_REQUEST_NULL, comm));
    }
  }
}

TEST_P(Persistent, GathervManyStartsEveryRootMatchNative) {
  CheckGathers(GetParam(), MPI_COMM_WORLD, SeedCount(3), false);
}
TEST_P(Persistent, ScattervManyStartsEveryRootMatchNative) {
  CheckScatters(GetParam(), MPI_COMM_WORLD, SeedCount(3), false);
}
TEST_P(Persistent, InPlaceAtTheRoot) {
  CheckGathers(GetParam(), MPI_COMM_WORLD, 1, true);
  CheckScatters(GetParam(), MPI_COMM_WORLD, 1, true);
}

// TUWk_*_init's radix chosen by the root on its counts (TUWCOLL_RADIX names TUWk but not
// TUWk_init; the other tests run at radix 3): broadcast at the init, so every process builds the
// same tree, whatever it was given; the same bytes as the native calls, every root, with random
// counts and with 20 KB blocks, where the model prefers other radixes than at 4 bytes.
TEST(PersistentRootRadix, ChosenOnTheCountsMatchNative) {
  const ScopedEnvironment setting("TUWCOLL_RADIX");
  setting.Set("TUWk=3");
  const CountsFor large = [](int p, int) { return std::vector<int>(p, 5000); };
  for (const MPI_Comm comm : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
    CheckGathers(kTuwkInit, comm, 2, false);
    CheckScatters(kTuwkInit, comm, 2, false);
    CheckGathers(kTuwkInit, comm, 1, true, large);
    CheckScatters(kTuwkInit, comm, 1, false, large);
  }
}

TEST_P(Persistent, SubCommunicators) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, Rank() % 2, -Rank(), &half);  // reversed order, too
  CheckGathers(GetParam(), half, 1, false);
  CheckScatters(GetParam(), half, 1, false);
  MPI_Comm_free(&half);
}

// The optimal tree's shape tests (below) run two starts, the second reusing the request (many
// starts are Persistent.*'s), at every root up to 17 processes and 9 roots above: at 31
// oversubscribed processes, four starts at every root had cost 35 of mpi_test_persistent's 49 s.
// Their pure-code counts still visit every root.
constexpr Coverage kShapeCoverage{2, 17, 9};
void CheckOptimalGathers(MPI_Comm comm, bool in_place, CountsFor counts_for = nullptr) {
  CheckGathers(kOptimalInit, comm, 1, in_place, counts_for, kShapeCoverage);
}
void CheckOptimalScatters(MPI_Comm comm, bool in_place, CountsFor counts_for = nullptr) {
  CheckScatters(kOptimalInit, comm, 1, in_place, counts_for, kShapeCoverage);
}

// TUWk_Scatterv_init's link-greedy tree in its second layout (left of the root mirrored), which a
// scatter's root takes where the model prices it faster (tree::WeighLayouts): on the built-in
// costs with counts rising or falling with the rank (at p = 16 and 17 from root 10 on, counted with
// a temporary print). The same bytes as the native calls at every root.
TEST(PersistentRootRadix, LinkGreedyLayoutsMatchNative) {
  const ScopedEnvironment setting("TUWCOLL_RADIX");
  setting.Set("TUWk=3");
  const ScopedEnvironment fit("TUWCOLL_MODEL_FIT");
  fit.Unset();
  const CountsFor rising = [](int p, int) {
    std::vector<int> counts(p);
    for (int i = 0; i < p; ++i) counts[i] = i + 1;
    return counts;
  };
  const CountsFor falling_by_five = [](int p, int) {
    std::vector<int> counts(p);
    for (int i = 0; i < p; ++i) counts[i] = 5 * (p - i);
    return counts;
  };
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, false, falling_by_five, kShapeCoverage);
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, true, rising, kShapeCoverage);
}

// Whether a gather init of one int a process to root 0 (MPI_ERRORS_RETURN around it) fails on
// every process with `expected` and gives no request.
bool GatherInitFailsEverywhere(decltype(&TUW_Gatherv_init) init, int expected) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int p = Size();
  std::vector<int> counts(p, 1), displs(p);
  for (int i = 0; i < p; ++i) displs[i] = i;
  std::vector<int> send(1, Rank()), recv(p, kFill);
  TUW_Request request = TUW_REQUEST_NULL;
  const int rc = init(send.data(), 1, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                      0, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  int error_class = rc;
  MPI_Error_class(rc, &error_class);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  return AllRanks(error_class == expected && request == TUW_REQUEST_NULL);
}

// A fit file of this text for this process (name_RANK.txt), TUWCOLL_MODEL_FIT while it lives,
// removed after.
class ScopedFit {
 public:
  ScopedFit(const std::string& name, const char* text)
      : path_(name + "_" + std::to_string(Rank()) + ".txt"), setting_("TUWCOLL_MODEL_FIT") {
    std::FILE* f = std::fopen(path_.c_str(), "w");
    written_ = f != nullptr && std::fputs(text, f) >= 0;
    if (f != nullptr) written_ = std::fclose(f) == 0 && written_;
    setting_.Set(path_.c_str());
  }
  ScopedFit(const ScopedFit&) = delete;
  ScopedFit& operator=(const ScopedFit&) = delete;
  ~ScopedFit() { std::remove(path_.c_str()); }
  bool Written() const { return written_; }

 private:
  std::string path_;
  ScopedEnvironment setting_;
  bool written_ = false;
};

// TUWk_Gatherv_init's link-greedy tree in its outward layout, which a gather's root takes where
// its node link says (tree::OutwardOnNodeLink): a fit with a node's own alpha (4 us across
// nodes, 2 inside, 0.05 us a byte: outward above 40 bytes pulled) and nodes of four ranks, four
// ints a block (at p = 16, 17 and 31, for 4, 4 and 16 roots, counted with a temporary print).
// The same bytes as the native call at every root; a bad TUWCOLL_RANKS_PER_NODE refused.
TEST(PersistentRootRadix, OutwardLinkGreedyMatchesNative) {
  const ScopedEnvironment radix("TUWCOLL_RADIX");
  radix.Set("TUWk=3");
  const ScopedEnvironment nodes("TUWCOLL_RANKS_PER_NODE");
  nodes.Set("4");
  {
    const ScopedFit fit("mpi_test_persistent_node_fit",
                        "alpha_us=4\nbeta_us_per_byte=0.05\ngamma_us_per_byte=0\nalpha_local_us=2\n"
                        "beta_local_us_per_byte=0.05\noverhead_us=1\ngap_us=0\n");
    ASSERT_TRUE(fit.Written());
    const CountsFor four = [](int p, int) { return std::vector<int>(p, 4); };
    CheckGathers(kTuwkInit, MPI_COMM_WORLD, 1, false, four, kShapeCoverage);
    CheckGathers(kTuwkInit, MPI_COMM_WORLD, 1, true, four, kShapeCoverage);
  }
  // A ranks-a-node setting that is no count: MPI_ERR_ARG on every process, no request.
  for (const char* bad : {"0", "2x"}) {
    nodes.Set(bad);
    EXPECT_TRUE(GatherInitFailsEverywhere(TUWk_Gatherv_init, MPI_ERR_ARG)) << bad;
  }
}

// TUWk_Scatterv_init's trees over nodes: the node scatter tree
// (algorithms/tree/node_scatter_tree.hpp) and the plain call's greedy tree, which a scatter's root
// on nodes takes where the two-level model prices one at most 0.95 of the tree it would take
// otherwise (tree::PlannedTree): the simulated cluster's class of costs (2.65 us across nodes, 1.28
// inside, 0.3 us a message) and nodes of four ranks, ten ints a block, a rising count, a hundred
// ints or some empty blocks (the node tree taken in 20, 8, 17 and 30 inits at p = 12, 16, 17 and
// 31, the greedy tree in 10, 6, 54 and 7, with empty blocks 0, 1, 7 and 4 of them; counted with a
// temporary print). The same bytes as the native call, in place or not.
TEST(PersistentRootRadix, NodeScatterTreeMatchesNative) {
  const ScopedEnvironment radix("TUWCOLL_RADIX");
  const ScopedEnvironment nodes("TUWCOLL_RANKS_PER_NODE");
  nodes.Set("4");
  const ScopedFit fit(
      "mpi_test_persistent_scatter_fit",
      "alpha_us=2.65\nbeta_us_per_byte=0.000375\ngamma_us_per_byte=0\nalpha_local_us=1.28\n"
      "beta_local_us_per_byte=0.00029\noverhead_us=0.3\ngap_us=0.3\n");
  ASSERT_TRUE(fit.Written());
  const CountsFor ten = [](int p, int) { return std::vector<int>(p, 10); };
  const CountsFor rising = [](int p, int) {
    std::vector<int> counts(p);
    for (int i = 0; i < p; ++i) counts[i] = 5 + i % 11;
    return counts;
  };
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, false, ten, kShapeCoverage);
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, true, ten, kShapeCoverage);
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, false, rising, kShapeCoverage);
  const CountsFor hundred = [](int p, int) { return std::vector<int>(p, 100); };
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, false, hundred, kShapeCoverage);
  const CountsFor some_empty = [](int p, int) {
    std::vector<int> counts(p);
    for (int i = 0; i < p; ++i) counts[i] = i % 3 == 1 ? 0 : 10 + 5 * (i % 4);
    return counts;
  };
  CheckScatters(kTuwkInit, MPI_COMM_WORLD, 1, false, some_empty, kShapeCoverage);
}

// The optimal tree's shape depends on the cost parameters: fit files from latency-bound (a
// binomial-like tree) to bandwidth-bound with free copies (a flat one), then one that cannot be
// read (MPI_ERR_OTHER on every process, no request); then the choice of the DP.
TEST(PersistentOptimal, CostParametersAndDpChoice) {
  const std::vector<std::string> fits = {"alpha_us=100\nbeta_us_per_byte=0.001\n",
                                         "alpha_us=0\nbeta_us_per_byte=1\ngamma_us_per_byte=1\n",
                                         "alpha_us=1\nbeta_us_per_byte=1\ngamma_us_per_byte=0\n"};
  const std::string path = "mpi_test_persistent_fit_" + std::to_string(Rank()) + ".txt";
  for (const std::string& text : fits) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
    setenv("TUWCOLL_MODEL_FIT", path.c_str(), 1);
    CheckOptimalGathers(MPI_COMM_WORLD, false);
    CheckOptimalScatters(MPI_COMM_WORLD, false);
  }
  setenv("TUWCOLL_MODEL_FIT", "/nonexistent/fit.txt", 1);
  EXPECT_TRUE(GatherInitFailsEverywhere(Optimal_Gatherv_init, MPI_ERR_OTHER));
  unsetenv("TUWCOLL_MODEL_FIT");
  std::remove(path.c_str());
  // The DP's choice: an unknown one is MPI_ERR_ARG everywhere; the windowed one (what runs
  // above 256 processes) executed at this p.
  setenv("TUWCOLL_OPTIMAL_DP", "bogus", 1);
  EXPECT_TRUE(GatherInitFailsEverywhere(Optimal_Gatherv_init, MPI_ERR_ARG));
  setenv("TUWCOLL_OPTIMAL_DP", "windowed", 1);
  CheckOptimalGathers(MPI_COMM_WORLD, false);
  CheckOptimalScatters(MPI_COMM_WORLD, false);
  unsetenv("TUWCOLL_OPTIMAL_DP");
}

// Optimal_*_init's node-aware tree (algorithms/tree/node_tree.hpp) forced on pretended nodes
// of 1, 2 and 3 consecutive ranks, in place, on the processes' own nodes (MPI_COMM_TYPE_SHARED)
// and on a sub-communicator; then settings that are not valid: MPI_ERR_ARG on every process.
TEST(PersistentOptimal, NodeTree) {
  setenv("TUWCOLL_NODE_TREE", "always", 1);
  for (const char* per_node : {"1", "2", "3"}) {
    setenv("TUWCOLL_RANKS_PER_NODE", per_node, 1);
    CheckOptimalGathers(MPI_COMM_WORLD, false);
    CheckOptimalScatters(MPI_COMM_WORLD, false);
  }
  CheckOptimalGathers(MPI_COMM_WORLD, true);
  CheckOptimalScatters(MPI_COMM_WORLD, true);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, Rank() % 2, -Rank(), &half);
  CheckOptimalGathers(half, false);
  CheckOptimalScatters(half, false);
  MPI_Comm_free(&half);
  unsetenv("TUWCOLL_RANKS_PER_NODE");
  CheckOptimalGathers(MPI_COMM_WORLD, false);
  CheckOptimalScatters(MPI_COMM_WORLD, false);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int p = Size();
  std::vector<int> counts(p, 1), displs(p);
  for (int i = 0; i < p; ++i) displs[i] = i;
  std::vector<int> send(1, Rank()), recv(p, kFill);
  const std::vector<std::pair<const char*, const char*>> bad = {
      {"TUWCOLL_NODE_TREE", "sometimes"},
      {"TUWCOLL_RANKS_PER_NODE", "0"},
      {"TUWCOLL_RANKS_PER_NODE", "2x"},
      {"TUWCOLL_RANKS_PER_NODE", "99999999999"}};
  for (const auto& [name, value] : bad) {
    setenv(name, value, 1);
    TUW_Request request = TUW_REQUEST_NULL;
    const int rc =
        Optimal_Scatterv_init(recv.data(), counts.data(), displs.data(), MPI_INT, send.data(), 1,
                              MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    int error_class = rc;
    MPI_Error_class(rc, &error_class);
    EXPECT_TRUE(AllRanks(error_class == MPI_ERR_ARG && request == TUW_REQUEST_NULL))
        << name << "=" << value;
    unsetenv(name);
    setenv("TUWCOLL_NODE_TREE", "always", 1);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  unsetenv("TUWCOLL_NODE_TREE");
}

// A quarter of the blocks empty, the others 64-128 KiB (on even ranks only where `mixed`, the
// odd ones keeping 4-160 B): nodes that go first as a whole, and nodes whose leader's block goes
// ahead of tiny ones.
std::vector<int> LargeCounts(int p, int seed, bool mixed) {
  std::vector<int> counts = RandomCounts(p, 300 + seed);
  for (int i = 0; i < p; ++i) {
    if (counts[i] != 0 && (i % 2 == 0 || !mixed)) counts[i] = 16384 + 409 * (counts[i] % 41);
  }
  return counts;
}
std::vector<int> AllLargeCounts(int p, int seed) { return LargeCounts(p, seed, false); }
std::vector<int> MixedCounts(int p, int seed) { return LargeCounts(p, seed, true); }
// Blocks of 30 KiB falling by 400 B a rank: each node's first rank leads it, with an own block
// below the part threshold that goes first where the leader holds other nodes.
std::vector<int> FallingCounts(int p, int) {
  std::vector<int> counts(p);
  for (int i = 0; i < p; ++i) counts[i] = std::max(7680 - 100 * i, 512);
  return counts;
}

// The node tree forced, its cost parameters from a latency-bound fit (alpha 100 us, beta
// 0.00001 us/byte, no gamma), which makes the tree over the nodes deep: leaders hold other
// nodes' data. Undone when it goes out of scope.
class DeepNodeTree {
 public:
  static constexpr tuw::tree::CostParams kCost{100, 0.00001, 0};
  DeepNodeTree() : path_("mpi_test_persistent_deep_" + std::to_string(Rank()) + ".txt") {
    std::FILE* f = std::fopen(path_.c_str(), "w");
    if (f != nullptr) {
      std::fputs("alpha_us=100\nbeta_us_per_byte=0.00001\ngamma_us_per_byte=0\n", f);
      std::fclose(f);
    }
    setenv("TUWCOLL_MODEL_FIT", path_.c_str(), 1);
    setenv("TUWCOLL_NODE_TREE", "always", 1);
  }
  ~DeepNodeTree() {
    unsetenv("TUWCOLL_RANKS_PER_NODE");
    unsetenv("TUWCOLL_NODE_TREE");
    unsetenv("TUWCOLL_MODEL_FIT");
    std::remove(path_.c_str());
  }
  // For each block layout (AllLargeCounts, MixedCounts, FallingCounts) on pretended nodes of 2
  // and 3 consecutive ranks: check(counts_for) runs the MPI operations, then visit(view, node) sees
  // every process's node of the tree Optimal_*_init runs there, for every root, with the ranks
  // of its node.
  template <typename Check, typename Visit>
  void ForEachLayout(const Check& check, const Visit& visit) const {
    const int p = Size();
    for (const CountsFor counts_for : {AllLargeCounts, MixedCounts, FallingCounts}) {
      for (const int per_node : {2, 3}) {
        setenv("TUWCOLL_RANKS_PER_NODE", std::to_string(per_node).c_str(), 1);
        check(counts_for);
        const std::vector<int> counts = counts_for(p, 1);
        std::vector<std::int64_t> blocks(counts.begin(), counts.end());
        for (auto& b : blocks) b *= sizeof(int);
        const std::vector<int> node_first = tuw::tree::BlockPlacement(p, per_node);
        for (int root = 0; root < p; ++root) {
          const auto executed = tuw::tree::ExecutedNodeTree(blocks, node_first, kCost, root);
          auto views = tuw::tree::ToNodeViews(executed.tree, blocks);
          tuw::tree::ApplyNodeParts(tuw::tree::ChooseNodeParts(views, node_first), &views);
          for (const auto& v : views.nodes) {
            std::vector<int> node;
            for (int r = 0; r < p; ++r) {
              if (node_first[r] == node_first[v.rank]) node.push_back(r);
            }
            visit(v, node);
          }
        }
      }
    }
  }

 private:
  std::string path_;
};

// The node tree with edges in parts (tree::EdgeParts): leaders send their node's ranks or their
// own block first, in up to three messages the parent takes straight into place. The pure code
// run on the same inputs counts the edges of each kind over every root, and the own blocks
// below the part threshold that go first: all occur from 8 processes.
TEST(PersistentOptimal, EdgesInParts) {
  int own_first = 0, node_first_edges = 0, small_own_first = 0;
  DeepNodeTree().ForEachLayout(
      [](CountsFor counts_for) {
        CheckOptimalGathers(MPI_COMM_WORLD, false, counts_for);
        CheckOptimalGathers(MPI_COMM_WORLD, true, counts_for);
      },
      [&](const tuw::tree::NodeView& v, const std::vector<int>&) {
        if (v.parent_parts.empty()) return;
        const bool own = v.parent_parts[0].lo == v.rank && v.parent_parts[0].hi == v.rank;
        (own ? own_first : node_first_edges) += 1;
        small_own_first += own && v.parent_parts[0].bytes < tuw::tree::kMinNodePartBytes;
      });
  if (Size() >= 8) {
    EXPECT_GT(own_first, 0);
    EXPECT_GT(node_first_edges, 0);
    EXPECT_GT(small_own_first, 0);
  }
}

// A scatter on the node tree sends to the leaves of its node while its first serial network
// send is on the wire (tree::ScatterSchedule), the others waiting for it. The pure code run on
// the same inputs counts the parents over every root that do so: they occur from 4 processes.
TEST(PersistentOptimal, ScatterNodeLeavesDuringNetworkSend) {
  int overlapping = 0;
  DeepNodeTree().ForEachLayout(
      [](CountsFor counts_for) {
        CheckOptimalScatters(MPI_COMM_WORLD, false, counts_for);
        CheckOptimalScatters(MPI_COMM_WORLD, true, counts_for);
      },
      [&](const tuw::tree::NodeView& v, const std::vector<int>& node) {
        const auto schedule = tuw::tree::ScatterSchedule(v, node, tuw::tree::kSerialSendMinBytes);
        overlapping += !schedule.empty() && schedule.front().serial && !schedule.front().wait;
      });
  if (Size() >= 4) {
    EXPECT_GT(overlapping, 0);
  }
}

// Ints sent, pairs of ints received: one signature, two datatypes.
TEST_P(Persistent, DifferentDatatypesOneSignature) {
  const int p = Size(), rank = Rank(), root = p - 1;
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  std::vector<int> pairs(p), displs(p);
  for (int i = 0; i < p; ++i) {
    pairs[i] = i % 3;
    displs[i] = 2 * p - 2 * i;  // pairs, in reverse order
  }
  std::vector<int> send(2 * pairs[rank] + 1), recv(rank == root ? 4 * p + 4 : 1, kFill);
  TUW_Request request = TUW_REQUEST_NULL;
  ASSERT_EQ(GetParam().gather(send.data(), 2 * pairs[rank], MPI_INT, recv.data(), pairs.data(),
                              displs.data(), pair, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request),
            MPI_SUCCESS);
  for (int start = 0; start < kStarts; ++start) {
    for (int k = 0; k < 2 * pairs[rank]; ++k) send[k] = Value(rank, k, start);
    std::vector<int> reference(recv.size(), kFill);
    std::fill(recv.begin(), recv.end(), kFill);
    MPI_Gatherv(send.data(), 2 * pairs[rank], MPI_INT, reference.data(), pairs.data(),
                displs.data(), pair, root, MPI_COMM_WORLD);
    TUW_Start(&request);
    const int rc = TUW_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && recv == reference)) << "start " << start;
  }
  TUW_Request_free(&request);
  MPI_Type_free(&pair);
}

// Types with holes on both sides: at the root pairs of ints with a 4-int extent (ints 0 and 2),
// elsewhere ints with a 2-int extent. The holes hold -1 and must stay untouched where received
// and never travel where sent.
TEST_P(Persistent, StridedDatatypesWithHoles) {
  const int p = Size(), rank = Rank(), root = p / 2;
  const TestTypes types;
  std::vector<int> pairs(p), displs(p);
  for (int i = 0; i < p; ++i) {
    pairs[i] = (i * 7) % 4;
    displs[i] = 4 * (p - 1 - i) + 1;  // in pairs, reverse order, gaps
  }
  const std::size_t root_ints = 4 * (4 * static_cast<std::size_t>(p) + 1);
  const int own = kStridedPairLayout.ints * pairs[rank];  // spaced ints
  std::vector<int> spaced(kSpacedIntLayout.span * own + 1, -1),
      root_buffer(rank == root ? root_ints : 1, -1);
  std::vector<int> gathered(root_buffer.size(), kFill), scattered(spaced.size(), kFill);
  TUW_Request requests[2] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  ASSERT_EQ(GetParam().gather(spaced.data(), own, types.spaced_int, gathered.data(), pairs.data(),
                              displs.data(), types.strided_pair, root, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &requests[0]),
            MPI_SUCCESS);
  ASSERT_EQ(GetParam().scatter(root_buffer.data(), pairs.data(), displs.data(), types.strided_pair,
                               scattered.data(), own, types.spaced_int, root, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &requests[1]),
            MPI_SUCCESS);
  for (int start = 0; start < kStarts; ++start) {
    for (int k = 0; k < own; ++k) spaced[kSpacedIntLayout.Index(0, k)] = Value(rank, k, start);
    if (rank == root) {
      for (int i = 0; i < p; ++i) {
        for (int k = 0; k < kStridedPairLayout.ints * pairs[i]; ++k) {
          root_buffer[kStridedPairLayout.Index(displs[i], k)] = Value(i, k, start) + 7;
        }
      }
    }
    std::vector<int> gather_reference(gathered.size(), kFill);
    std::vector<int> scatter_reference(scattered.size(), kFill);
    std::fill(gathered.begin(), gathered.end(), kFill);
    std::fill(scattered.begin(), scattered.end(), kFill);
    MPI_Gatherv(spaced.data(), own, types.spaced_int, gather_reference.data(), pairs.data(),
                displs.data(), types.strided_pair, root, MPI_COMM_WORLD);
    MPI_Scatterv(root_buffer.data(), pairs.data(), displs.data(), types.strided_pair,
                 scatter_reference.data(), own, types.spaced_int, root, MPI_COMM_WORLD);
    ASSERT_EQ(TUW_Startall(2, requests), MPI_SUCCESS);
    const int rc = TUW_Waitall(2, requests, MPI_STATUSES_IGNORE);
    EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && gathered == gather_reference &&
                         scattered == scatter_reference))
        << "start " << start << " rank " << rank;
  }
  TUW_Request_free(&requests[0]);
  TUW_Request_free(&requests[1]);
}

// The program frees its derived datatypes right after init, as MPI allows (MPI_Type_free:
// communication using the type completes normally; the native persistent collectives hold their
// types): every later start must still move the data as the freed types described. Its own
// copies of the types (TestTypes) give the native reference.
TEST_P(Persistent, DatatypesFreedAfterInit) {
  const int p = Size(), rank = Rank(), root = (p + 1) / 3;
  const TestTypes reference_types;
  std::vector<int> pairs(p), displs(p);
  for (int i = 0; i < p; ++i) {
    pairs[i] = (i * 5 + 1) % 4;
    displs[i] = 4 * (p - 1 - i) + 2;
  }
  const std::size_t root_ints = 4 * (4 * static_cast<std::size_t>(p) + 2);
  const int own = kStridedPairLayout.ints * pairs[rank];
  std::vector<int> spaced(kSpacedIntLayout.span * own + 1, -1),
      root_buffer(rank == root ? root_ints : 1, -1);
  std::vector<int> gathered(root_buffer.size(), kFill), scattered(spaced.size(), kFill);
  TUW_Request requests[2] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  {
    TestTypes freed;  // freed at the end of this scope, before any start
    ASSERT_EQ(GetParam().gather(spaced.data(), own, freed.spaced_int, gathered.data(), pairs.data(),
                                displs.data(), freed.strided_pair, root, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &requests[0]),
              MPI_SUCCESS);
    ASSERT_EQ(GetParam().scatter(root_buffer.data(), pairs.data(), displs.data(),
                                 freed.strided_pair, scattered.data(), own, freed.spaced_int, root,
                                 MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]),
              MPI_SUCCESS);
  }
  // Other types made now may reuse the freed handles' slots.
  const TestTypes unrelated;
  for (int start = 0; start < 3; ++start) {
    for (int k = 0; k < own; ++k) spaced[kSpacedIntLayout.Index(0, k)] = Value(rank, k, start);
    if (rank == root) {
      for (int i = 0; i < p; ++i) {
        for (int k = 0; k < kStridedPairLayout.ints * pairs[i]; ++k) {
          root_buffer[kStridedPairLayout.Index(displs[i], k)] = Value(i, k, start) + 3;
        }
      }
    }
    std::vector<int> gather_reference(gathered.size(), kFill);
    std::vector<int> scatter_reference(scattered.size(), kFill);
    std::fill(gathered.begin(), gathered.end(), kFill);
    std::fill(scattered.begin(), scattered.end(), kFill);
    MPI_Gatherv(spaced.data(), own, reference_types.spaced_int, gather_reference.data(),
                pairs.data(), displs.data(), reference_types.strided_pair, root, MPI_COMM_WORLD);
    MPI_Scatterv(root_buffer.data(), pairs.data(), displs.data(), reference_types.strided_pair,
                 scatter_reference.data(), own, reference_types.spaced_int, root, MPI_COMM_WORLD);
    ASSERT_EQ(TUW_Startall(2, requests), MPI_SUCCESS);
    const int rc = TUW_Waitall(2, requests, MPI_STATUSES_IGNORE);
    EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && gathered == gather_reference &&
                         scattered == scatter_reference))
        << "start " << start << " rank " << rank;
  }
  TUW_Request_free(&requests[0]);
  TUW_Request_free(&requests[1]);
}

// Several requests alive at once on one communicator, completed in the same order everywhere,
// and a request freed and made again.
TEST_P(Persistent, SeveralRequestsAndReuse) {
  const int p = Size(), rank = Rank();
  std::vector<int> counts(p), displs(p);
  for (int i = 0; i < p; ++i) {
    counts[i] = i + 1;
    displs[i] = i * (p + 1);
  }
  const int extent = p * (p + 1);
  std::vector<int> send(rank + 1), a(extent, kFill), b(extent, kFill);
  for (int round = 0; round < 2; ++round) {
    TUW_Request to_first = TUW_REQUEST_NULL, to_last = TUW_REQUEST_NULL;
    GetParam().gather(send.data(), rank + 1, MPI_INT, a.data(), counts.data(), displs.data(),
                      MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &to_first);
    GetParam().gather(send.data(), rank + 1, MPI_INT, b.data(), counts.data(), displs.data(),
                      MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &to_last);
    for (int start = 0; start < 3; ++start) {
      for (int k = 0; k <= rank; ++k) send[k] = Value(rank, k, start + round);
      TUW_Start(&to_first);
      TUW_Start(&to_last);
      const int rc1 = TUW_Wait(&to_first, MPI_STATUS_IGNORE);
      const int rc2 = TUW_Wait(&to_last, MPI_STATUS_IGNORE);
      bool ok = rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS;
      for (int i = 0; i < p && ok; ++i) {
        for (int k = 0; k <= i; ++k) {
          if (rank == 0 && a[displs[i] + k] != Value(i, k, start + round)) ok = false;
          if (rank == p - 1 && b[displs[i] + k] != Value(i, k, start + round)) ok = false;
        }
      }
      EXPECT_TRUE(AllRanks(ok)) << "round " << round << " start " << start;
    }
    TUW_Request_free(&to_first);
    TUW_Request_free(&to_last);
  }
}

// TUW_Startall / TUW_Waitall over a gather, a scatter and a null request: the same bytes as
// MPI_Gatherv / MPI_Scatterv at every start, an empty successful status for each request.
TEST_P(Persistent, StartallWaitallMatchNative) {
  const int p = Size(), rank = Rank(), gather_root = 0, scatter_root = p - 1;
  const std::vector<int> counts = RandomCounts(p, 31);
  int extent = 0;
  const std::vector<int> displs = PermutedDisplacements(counts, 7, &extent);
  std::vector<int> gather_send(counts[rank] + 1), gathered(extent, kFill);
  std::vector<int> scatter_send(extent, kFill), scattered(counts[rank] + 1, kFill);
  TUW_Request requests[3] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  int rc1 = GetParam().gather(gather_send.data(), counts[rank], MPI_INT, gathered.data(),
                              counts.data(), displs.data(), MPI_INT, gather_root, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &requests[0]);
  int rc2 = GetParam().scatter(scatter_send.data(), counts.data(), displs.data(), MPI_INT,
                               scattered.data(), counts[rank], MPI_INT, scatter_root,
                               MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]);
  ASSERT_TRUE(AllRanks(rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS));
  for (int start = 0; start < kStarts; ++start) {
    for (int k = 0; k < counts[rank]; ++k) gather_send[k] = Value(rank, k, start);
    for (int i = 0; rank == scatter_root && i < p; ++i) {
      for (int k = 0; k < counts[i]; ++k) scatter_send[displs[i] + k] = Value(i, k, start + 7);
    }
    std::vector<int> gather_reference(extent, kFill), scatter_reference(counts[rank] + 1, kFill);
    MPI_Gatherv(gather_send.data(), counts[rank], MPI_INT, gather_reference.data(), counts.data(),
                displs.data(), MPI_INT, gather_root, MPI_COMM_WORLD);
    MPI_Scatterv(scatter_send.data(), counts.data(), displs.data(), MPI_INT,
                 scatter_reference.data(), counts[rank], MPI_INT, scatter_root, MPI_COMM_WORLD);
    std::fill(gathered.begin(), gathered.end(), kFill);
    std::fill(scattered.begin(), scattered.end(), kFill);
    MPI_Status statuses[3];
    for (MPI_Status& s : statuses) s.MPI_ERROR = MPI_ERR_OTHER;
    const int start_rc = TUW_Startall(2, requests);  // not the null third one
    const int wait_rc = TUW_Waitall(3, requests, statuses);
    bool ok = start_rc == MPI_SUCCESS && wait_rc == MPI_SUCCESS && scattered == scatter_reference &&
              (rank != gather_root || gathered == gather_reference);
    for (const MPI_Status& s : statuses) ok = ok && s.MPI_ERROR == MPI_SUCCESS;
    EXPECT_TRUE(AllRanks(ok)) << "start " << start << " rank " << rank << " rc " << start_rc << "/"
                              << wait_rc;
  }
  EXPECT_EQ(TUW_Request_free(&requests[0]), MPI_SUCCESS);
  EXPECT_EQ(TUW_Request_free(&requests[1]), MPI_SUCCESS);
}

// Intercommunicators, both directions, a root that is not local rank 0, gather and scatter: the
// same bytes as MPI_Gatherv / MPI_Scatterv on the intercommunicator at every start.
TEST_P(Persistent, IntercommunicatorGatherAndScatter) {
  const InitFunctions& init = GetParam();
  const int p = Size();
  if (p < 2) GTEST_SKIP() << "needs 2 processes";
  const int rank = Rank(), lower = (p + 1) / 2;
  TwoGroups groups = SplitIntoGroups(lower);
  const MPI_Comm local = groups.local, inter = groups.inter;
  const int group = groups.in_first ? 0 : 1;
  const int group_size[2] = {lower, p - lower};
  for (int root_group = 0; root_group < 2; ++root_group) {
    const int q = group_size[1 - root_group];     // the other group's processes send or receive
    const int root = group_size[root_group] - 1;  // the root group's last local rank
    std::vector<int> counts(q), displs(q);
    for (int i = 0; i < q; ++i) {
      counts[i] = (i * 5 + root_group) % 4;
      displs[i] = 4 * (q - 1 - i);
    }
    const bool in_root_group = group == root_group;
    const bool is_root = in_root_group && Rank(local) == root;
    const int root_arg = !in_root_group ? root : (is_root ? MPI_ROOT : MPI_PROC_NULL);
    const int mine = in_root_group ? 0 : counts[Rank(local)];
    std::vector<int> send(mine + 1), recv(4 * q + 1, kFill);
    TUW_Request gather = TUW_REQUEST_NULL, scatter = TUW_REQUEST_NULL;
    // The requests get a derived int that is freed right after init (DatatypesFreedAfterInit,
    // here on both sides of an intercommunicator); the native reference runs with MPI_INT.
    MPI_Datatype one_int;
    MPI_Type_contiguous(1, MPI_INT, &one_int);
    MPI_Type_commit(&one_int);
    ASSERT_EQ(init.gather(send.data(), mine, one_int, recv.data(), counts.data(), displs.data(),
                          one_int, root_arg, inter, MPI_INFO_NULL, &gather),
              MPI_SUCCESS);
    // The scatter goes the other way: the root's recv array is its send buffer.
    std::vector<int> block(mine + 1, kFill), root_data(4 * q + 1);
    ASSERT_EQ(init.scatter(root_data.data(), counts.data(), displs.data(), one_int, block.data(),
                           mine, one_int, root_arg, inter, MPI_INFO_NULL, &scatter),
              MPI_SUCCESS);
    MPI_Type_free(&one_int);
    for (int start = 0; start < kStarts; ++start) {
      for (int k = 0; k < mine; ++k) send[k] = Value(Rank(local), k, start);
      std::vector<int> reference(recv.size(), kFill);
      std::fill(recv.begin(), recv.end(), kFill);
      MPI_Gatherv(send.data(), mine, MPI_INT, reference.data(), counts.data(), displs.data(),
                  MPI_INT, root_arg, inter);
      TUW_Start(&gather);
      int rc = TUW_Wait(&gather, MPI_STATUS_IGNORE);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && recv == reference))
          << init.name << " gather, root group " << root_group << ", start " << start;

      for (std::size_t k = 0; k < root_data.size(); ++k) {
        root_data[k] = Value(rank, static_cast<int>(k), start);
      }
      std::vector<int> expected(block.size(), kFill);
      std::fill(block.begin(), block.end(), kFill);
      MPI_Scatterv(root_data.data(), counts.data(), displs.data(), MPI_INT, expected.data(), mine,
                   MPI_INT, root_arg, inter);
      TUW_Start(&scatter);
      rc = TUW_Wait(&scatter, MPI_STATUS_IGNORE);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && block == expected))
          << init.name << " scatter, root group " << root_group << ", start " << start;
    }
    EXPECT_EQ(TUW_Request_free(&gather), MPI_SUCCESS);
    EXPECT_EQ(TUW_Request_free(&scatter), MPI_SUCCESS);
  }
  FreeGroups(&groups);
}

// MPI_ERRORS_RETURN on MPI_COMM_WORLD for the test's length.
class ErrorsReturned : public ::testing::Test {
 protected:
  void SetUp() override { MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); }
  void TearDown() override { MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL); }
  int ErrorClass(int rc) {
    int error_class = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &error_class);
    return error_class;
  }
};
class PersistentErrors : public ErrorsReturned,
                         public ::testing::WithParamInterface<InitFunctions> {};

INSTANTIATE_TEST_SUITE_P(Init, PersistentErrors,
                         ::testing::Values(kTuwInit, kOptimalInit, kTuwkInit), InitName);

TEST_P(PersistentErrors, MismatchedCountsAtInitEveryProcess) {
  const InitFunctions& init = GetParam();
  const int p = Size(), rank = Rank(), root = 0;
  if (p < 2) GTEST_SKIP() << "needs 2 processes";
  std::vector<int> counts(p, 2), displs(p);
  for (int i = 0; i < p; ++i) displs[i] = 3 * i;
  const int mine = rank == p - 1 ? 3 : 2;  // the last process sends one more
  std::vector<int> send(3, 1), recv(3 * p + 3, kFill);
  TUW_Request request = TUW_REQUEST_NULL;
  int rc = init.gather(send.data(), mine, MPI_INT, recv.data(), counts.data(), displs.data(),
                       MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_TRUNCATE && request == TUW_REQUEST_NULL))
      << "rank " << rank << " rc " << rc;
  std::vector<int> scatter_recv(3, kFill);
  rc = init.scatter(recv.data(), counts.data(), displs.data(), MPI_INT, scatter_recv.data(), mine,
                    MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_TRUNCATE && request == TUW_REQUEST_NULL))
      << "rank " << rank << " rc " << rc;
  // A negative count on one process: MPI_ERR_COUNT everywhere.
  rc = init.gather(send.data(), rank == 0 ? -1 : 2, MPI_INT, recv.data(), counts.data(),
                   displs.data(), MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_COUNT && request == TUW_REQUEST_NULL))
      << "rank " << rank << " rc " << rc;
  // A negative count in the root's array: MPI_ERR_COUNT everywhere.
  counts[p - 1] = -2;
  rc = init.gather(send.data(), 2, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                   root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_COUNT && request == TUW_REQUEST_NULL))
      << "rank " << rank << " rc " << rc;
}

// The world's lower (p+1)/2 processes (group 0, the root at its local rank 0) and the rest
// (group 1, whose last process is the bad one), joined by an intercommunicator that returns
// errors; freed at the end of the test.
struct BadCountAcross {
  explicit BadCountAcross(int p) : groups(SplitIntoGroups((p + 1) / 2)), q(p - (p + 1) / 2) {
    MPI_Comm_set_errhandler(groups.inter, MPI_ERRORS_RETURN);
    group = groups.in_first ? 0 : 1;
    const int local_rank = Rank(groups.local);
    root_arg = group == 1 ? 0 : (local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL);
    bad = group == 1 && local_rank == q - 1;
  }
  ~BadCountAcross() { FreeGroups(&groups); }
  BadCountAcross(const BadCountAcross&) = delete;
  BadCountAcross& operator=(const BadCountAcross&) = delete;
  TwoGroups groups;
  const int q;  // group 1's processes
  int group = 0, root_arg = MPI_PROC_NULL;
  bool bad = false;
};

// Optimal_*_init on an intercommunicator plans the non-root group's tree at init, so a bad count
// there is an error of init: MPI_ERR_COUNT in that whole group and at the root, no request;
// the root group's MPI_PROC_NULL processes take no part (MPI_SUCCESS, a request that does
// nothing).
TEST_F(ErrorsReturned, OptimalIntercommunicatorVerdictAtInit) {
  const int p = Size();
  if (p < 2) GTEST_SKIP() << "needs 2 processes";
  const int rank = Rank();
  BadCountAcross s(p);
  const int q = s.q, root_arg = s.root_arg, group = s.group;
  const bool bad = s.bad;
  const MPI_Comm inter = s.groups.inter;
  std::vector<int> counts(q, 1), displs(q);
  for (int i = 0; i < q; ++i) displs[i] = i;
  std::vector<int> send(1), recv(q + 1);
  TUW_Request request = TUW_REQUEST_NULL;
  int rc = Optimal_Gatherv_init(send.data(), bad ? -1 : group, MPI_INT, recv.data(), counts.data(),
                                displs.data(), MPI_INT, root_arg, inter, MPI_INFO_NULL, &request);
  const bool idle = root_arg == MPI_PROC_NULL;
  EXPECT_TRUE(AllRanks(idle ? rc == MPI_SUCCESS && request != TUW_REQUEST_NULL
                            : ErrorClass(rc) == MPI_ERR_COUNT && request == TUW_REQUEST_NULL))
      << "gather: rank " << rank << " rc " << rc;
  if (request != TUW_REQUEST_NULL) TUW_Request_free(&request);
  rc = Optimal_Scatterv_init(recv.data(), counts.data(), displs.data(), MPI_INT, send.data(),
                             bad ? -1 : group, MPI_INT, root_arg, inter, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(idle ? rc == MPI_SUCCESS && request != TUW_REQUEST_NULL
                            : ErrorClass(rc) == MPI_ERR_COUNT && request == TUW_REQUEST_NULL))
      << "scatter: rank " << rank << " rc " << rc;
  if (request != TUW_REQUEST_NULL) TUW_Request_free(&request);
}

TEST_P(PersistentErrors, StartFreedOrActiveAndFreeActive) {
  const int p = Size(), rank = Rank();
  std::vector<int> counts(p, 1), displs(p);
  for (int i = 0; i < p; ++i) displs[i] = i;
  std::vector<int> send(1, rank), recv(p, kFill);
  TUW_Request request = TUW_REQUEST_NULL;
  ASSERT_EQ(GetParam().gather(send.data(), 1, MPI_INT, recv.data(), counts.data(), displs.data(),
                              MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &request),
            MPI_SUCCESS);
  EXPECT_EQ(TUW_Start(&request), MPI_SUCCESS);
  EXPECT_EQ(ErrorClass(TUW_Start(&request)), MPI_ERR_REQUEST);         // already active
  EXPECT_EQ(ErrorClass(TUW_Request_free(&request)), MPI_ERR_REQUEST);  // active
  EXPECT_EQ(TUW_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(TUW_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);  // inactive: returns at once
  for (int i = 0; rank == 0 && i < p; ++i) EXPECT_EQ(recv[i], i);
  EXPECT_EQ(TUW_Request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, TUW_REQUEST_NULL);
  EXPECT_EQ(ErrorClass(TUW_Start(&request)), MPI_ERR_REQUEST);  // freed
  EXPECT_EQ(ErrorClass(TUW_Request_free(&request)), MPI_ERR_REQUEST);
  EXPECT_TRUE(AllRanks(!HasFailure()));
}

// TUW_Startall starts all or none: with an active, a repeated or a null request in the array it
// is MPI_ERR_REQUEST and the others stay inactive (a start of them then succeeds); a negative
// count is MPI_ERR_COUNT. TUW_Waitall passes over null and inactive requests.
TEST_P(PersistentErrors, StartallAllOrNone) {
  const int p = Size(), rank = Rank();
  std::vector<int> counts(p, 1), displs(p);
  for (int i = 0; i < p; ++i) displs[i] = i;
  std::vector<int> send(1, rank), recv_a(p, kFill), recv_b(p, kFill);
  TUW_Request requests[2] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  ASSERT_EQ(GetParam().gather(send.data(), 1, MPI_INT, recv_a.data(), counts.data(), displs.data(),
                              MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &requests[0]),
            MPI_SUCCESS);
  ASSERT_EQ(GetParam().gather(send.data(), 1, MPI_INT, recv_b.data(), counts.data(), displs.data(),
                              MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &requests[1]),
            MPI_SUCCESS);
  EXPECT_EQ(TUW_Start(&requests[1]), MPI_SUCCESS);
  EXPECT_EQ(ErrorClass(TUW_Startall(2, requests)), MPI_ERR_REQUEST);  // the second is active
  EXPECT_EQ(TUW_Start(&requests[0]), MPI_SUCCESS);                    // so the first was not
  EXPECT_EQ(TUW_Waitall(2, requests, MPI_STATUSES_IGNORE), MPI_SUCCESS);
  for (int i = 0; i < p; ++i) {
    if (rank == 0) {
      EXPECT_EQ(recv_a[i], i);
    }
    if (rank == p - 1) {
      EXPECT_EQ(recv_b[i], i);
    }
  }
  TUW_Request repeated[2] = {requests[0], requests[0]};
  EXPECT_EQ(ErrorClass(TUW_Startall(2, repeated)), MPI_ERR_REQUEST);
  TUW_Request with_null[2] = {requests[0], TUW_REQUEST_NULL};
  EXPECT_EQ(ErrorClass(TUW_Startall(2, with_null)), MPI_ERR_REQUEST);
  EXPECT_EQ(ErrorClass(TUW_Startall(-1, requests)), MPI_ERR_COUNT);
  EXPECT_EQ(ErrorClass(TUW_Waitall(-1, requests, MPI_STATUSES_IGNORE)), MPI_ERR_COUNT);
  EXPECT_EQ(TUW_Request_free(&requests[0]), MPI_SUCCESS);  // inactive after all of that
  EXPECT_EQ(TUW_Request_free(&requests[1]), MPI_SUCCESS);
  MPI_Status statuses[2];
  EXPECT_EQ(TUW_Waitall(2, requests, statuses), MPI_SUCCESS);  // both null now
  EXPECT_TRUE(AllRanks(!HasFailure()));
}

// A failure inside TUW_Waitall: TUW_Gatherv_init on an intercommunicator checks nothing at init
// (each wait runs TUW_Gatherv whole), so a negative count in the non-root group fails in the
// wait. The requests after it still complete (else the processes it did not fail on would wait
// for this one), and a process it failed on gets MPI_ERR_IN_STATUS with MPI_ERR_COUNT in the
// failed request's status and MPI_SUCCESS in the others'.
TEST_F(ErrorsReturned, WaitallCompletesEveryRequestAfterAFailure) {
  const int p = Size();
  if (p < 2) GTEST_SKIP() << "needs 2 processes";
  const int rank = Rank();
  BadCountAcross s(p);
  const int q = s.q, root_arg = s.root_arg;
  const bool bad = s.bad;
  const MPI_Comm inter = s.groups.inter;
  std::vector<int> inter_counts(q, 1), inter_displs(q), inter_recv(q, kFill), send(1, rank);
  for (int i = 0; i < q; ++i) inter_displs[i] = i;
  std::vector<int> counts(p, 1), displs(p), first(p, kFill), last(p, kFill);
  for (int i = 0; i < p; ++i) displs[i] = i;
  TUW_Request requests[3] = {TUW_REQUEST_NULL, TUW_REQUEST_NULL, TUW_REQUEST_NULL};
  int rc0 = TUW_Gatherv_init(send.data(), 1, MPI_INT, first.data(), counts.data(), displs.data(),
                             MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &requests[0]);
  int rc1 =
      TUW_Gatherv_init(send.data(), bad ? -1 : 1, MPI_INT, inter_recv.data(), inter_counts.data(),
                       inter_displs.data(), MPI_INT, root_arg, inter, MPI_INFO_NULL, &requests[1]);
  int rc2 = TUW_Gatherv_init(send.data(), 1, MPI_INT, last.data(), counts.data(), displs.data(),
                             MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &requests[2]);
  ASSERT_TRUE(AllRanks(rc0 == MPI_SUCCESS && rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS));
  MPI_Status statuses[3];
  const int start_rc = TUW_Startall(3, requests);
  const int wait_rc = TUW_Waitall(3, requests, statuses);
  bool ok = start_rc == MPI_SUCCESS && statuses[0].MPI_ERROR == MPI_SUCCESS &&
            statuses[2].MPI_ERROR == MPI_SUCCESS;
  if (wait_rc == MPI_SUCCESS) {
    ok = ok && !bad && statuses[1].MPI_ERROR == MPI_SUCCESS;
  } else {
    ok = ok && ErrorClass(wait_rc) == MPI_ERR_IN_STATUS &&
         ErrorClass(statuses[1].MPI_ERROR) == MPI_ERR_COUNT;
  }
  for (int i = 0; i < p; ++i) {
    if (rank == 0) ok = ok && first[i] == i;
    if (rank == p - 1) ok = ok && last[i] == i;
  }
  EXPECT_TRUE(AllRanks(ok)) << "rank " << rank << " rc " << wait_rc;
  for (TUW_Request& r : requests) TUW_Request_free(&r);
}

}  // namespace
