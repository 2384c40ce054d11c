// Intercommunicators: every algorithm against the native MPI_Gatherv / MPI_Scatterv, byte for
// byte, for every root in either group, groups of unequal sizes (the world split after 1, p/2
// and p-1 ranks), random counts with zeros and permuted displacements with gaps.
#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {
using namespace irrtest;

std::vector<int> Splits(int p) {
  std::vector<int> splits{1};
  if (p / 2 > 1) splits.push_back(p / 2);
  if (p - 1 > p / 2) splits.push_back(p - 1);
  return splits;
}

// The root argument of this process for a root at local rank r of the root group.
int RootArgument(const TwoGroups& g, bool root_in_first, int r) {
  const bool in_root_group = g.in_first == root_in_first;
  if (!in_root_group) return r;
  return Rank(g.local) == r ? MPI_ROOT : MPI_PROC_NULL;
}

TEST(Intercomm, GathervMatchesNativeEveryRootBothGroups) {
  const int p = Size();
  if (p < 2) GTEST_SKIP() << "needs two groups";
  for (int split : Splits(p)) {
    TwoGroups g = SplitIntoGroups(split);
    const int local_rank = Rank(g.local);
    for (bool root_in_first : {true, false}) {
      const int root_group_size = root_in_first ? split : p - split;
      const int q = p - root_group_size;  // the sending group
      for (int r = 0; r < root_group_size; ++r) {
        const std::vector<int> counts = RandomCounts(q, 1000 * split + 10 * r + root_in_first);
        int extent = 0;
        const std::vector<int> displs = PermutedDisplacements(counts, split + r, &extent);
        const int root_arg = RootArgument(g, root_in_first, r);
        const bool sender = g.in_first != root_in_first;
        std::vector<int> send(sender ? counts[local_rank] + 1 : 1);
        for (int k = 0; sender && k < counts[local_rank]; ++k) send[k] = Pattern(local_rank, k);
        const int sendcount = sender ? counts[local_rank] : 0;
        std::vector<int> expected(extent, kFill);
        ASSERT_EQ(MPI_Gatherv(send.data(), sendcount, MPI_INT, expected.data(), counts.data(),
                              displs.data(), MPI_INT, root_arg, g.inter),
                  MPI_SUCCESS);
        for (const auto& algorithm : tuw::kGathervAlgorithms) {
          std::vector<int> recv(extent, kFill);
          const int rc = algorithm.fn(send.data(), sendcount, MPI_INT, recv.data(), counts.data(),
                                      displs.data(), MPI_INT, root_arg, g.inter);
          const bool ok = rc == MPI_SUCCESS && (root_arg != MPI_ROOT || recv == expected);
          EXPECT_TRUE(AllRanks(ok))
              << algorithm.name << " split " << split << " root "
              << (root_in_first ? "first" : "second") << " group rank " << r << " rc " << rc;
        }
      }
    }
    FreeGroups(&g);
  }
}

TEST(Intercomm, ScattervMatchesNativeEveryRootBothGroups) {
  const int p = Size();
  if (p < 2) GTEST_SKIP() << "needs two groups";
  for (int split : Splits(p)) {
    TwoGroups g = SplitIntoGroups(split);
    const int local_rank = Rank(g.local);
    for (bool root_in_first : {true, false}) {
      const int root_group_size = root_in_first ? split : p - split;
      const int q = p - root_group_size;  // the receiving group
      for (int r = 0; r < root_group_size; ++r) {
        const std::vector<int> counts = RandomCounts(q, 2000 * split + 10 * r + root_in_first);
        int extent = 0;
        const std::vector<int> displs = PermutedDisplacements(counts, split + 3 * r, &extent);
        const int root_arg = RootArgument(g, root_in_first, r);
        const bool receiver = g.in_first != root_in_first;
        std::vector<int> send(extent, kFill);
        for (int i = 0; i < q; ++i) {
          for (int k = 0; k < counts[i]; ++k) send[displs[i] + k] = Pattern(i, k);
        }
        const int recvcount = receiver ? counts[local_rank] : 0;
        std::vector<int> expected(recvcount + 1, kFill);
        ASSERT_EQ(MPI_Scatterv(send.data(), counts.data(), displs.data(), MPI_INT, expected.data(),
                               recvcount, MPI_INT, root_arg, g.inter),
                  MPI_SUCCESS);
        for (const auto& algorithm : tuw::kScattervAlgorithms) {
          std::vector<int> recv(recvcount + 1, kFill);
          const int rc = algorithm.fn(send.data(), counts.data(), displs.data(), MPI_INT,
                                      recv.data(), recvcount, MPI_INT, root_arg, g.inter);
          const bool ok = rc == MPI_SUCCESS && recv == expected;
          EXPECT_TRUE(AllRanks(ok))
              << algorithm.name << " split " << split << " root "
              << (root_in_first ? "first" : "second") << " group rank " << r << " rc " << rc;
        }
      }
    }
    FreeGroups(&g);
  }
}

}  // namespace
