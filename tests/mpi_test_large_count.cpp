// MPI-4 large counts: the *_c functions (MPI_Count counts, MPI_Aint displacements), where the
// MPI library has MPI_Gatherv_c (MPICH 4.0 does; Open MPI 4.1 does not, and there the tests
// skip, saying so).
// - Small: every algorithm's *_c result equals native MPI_Gatherv_c / MPI_Scatterv_c byte for
//   byte, every root, random counts with zeros, permuted displacements.
// - Persistent (*_init_c): three starts with the buffers' contents changed between them equal
//   MPI_Gatherv_c / MPI_Scatterv_c of the same contents, every root.
// - Large (2 processes): rank 1's block is 2^31 + 16 MPI_BYTEs, a count above INT_MAX, and rank
//   0's block lies at a displacement above INT_MAX, for the plain and the persistent functions
//   (two starts, other contents in the second). The reference is a pattern computed
//   independently of the algorithms. About 9 GB of memory; run alone with `ctest -L large`.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi_test_support.hpp"
#include "tuwcoll.h"

namespace {
using namespace irrtest;

#if TUWCOLL_HAVE_LARGE_COUNT

using GathervC = int (*)(const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[],
                         const MPI_Aint[], MPI_Datatype, int, MPI_Comm);
using ScattervC = int (*)(const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*,
                          MPI_Count, MPI_Datatype, int, MPI_Comm);

// A gather and its scatter under one name (plain or persistent signatures).
template <typename Gather, typename Scatter>
struct Pair {
  const char* name;
  Gather gatherv;
  Scatter scatterv;
};
using Named = Pair<GathervC, ScattervC>;

// MPI_Gatherv_c itself is in the list: the large test also checks the reference pattern.
const Named kAlgorithms[] = {
    {"MPI_Gatherv_c/MPI_Scatterv_c", MPI_Gatherv_c, MPI_Scatterv_c},
    {"TUW_Gatherv_c/TUW_Scatterv_c", TUW_Gatherv_c, TUW_Scatterv_c},
    {"Linear_Gatherv_c/Linear_Scatterv_c", Linear_Gatherv_c, Linear_Scatterv_c},
    {"Binomial_Gatherv_c/Binomial_Scatterv_c", Binomial_Gatherv_c, Binomial_Scatterv_c},
};

// The radix-k rows: the small cases only (past 2^31 elements they run the radix-2 rows'
// executor).
const Named kRadixK[] = {
    {"TUWk_Gatherv_c/TUWk_Scatterv_c", TUWk_Gatherv_c, TUWk_Scatterv_c},
    {"Binomialk_Gatherv_c/Binomialk_Scatterv_c", Binomialk_Gatherv_c, Binomialk_Scatterv_c},
};
std::vector<Named> SmallCaseAlgorithms() {
  std::vector<Named> all(std::begin(kAlgorithms), std::end(kAlgorithms));
  all.insert(all.end(), std::begin(kRadixK), std::end(kRadixK));
  return all;
}

using GathervInitC = int (*)(const void*, MPI_Count, MPI_Datatype, void*, const MPI_Count[],
                             const MPI_Aint[], MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
using ScattervInitC = int (*)(const void*, const MPI_Count[], const MPI_Aint[], MPI_Datatype, void*,
                              MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
using NamedInit = Pair<GathervInitC, ScattervInitC>;

const NamedInit kPersistent[] = {
    {"TUW_Gatherv_init_c/TUW_Scatterv_init_c", TUW_Gatherv_init_c, TUW_Scatterv_init_c},
    {"Optimal_Gatherv_init_c/Optimal_Scatterv_init_c", Optimal_Gatherv_init_c,
     Optimal_Scatterv_init_c},
};
const NamedInit kPersistentSmall[] = {
    {"TUW_Gatherv_init_c/TUW_Scatterv_init_c", TUW_Gatherv_init_c, TUW_Scatterv_init_c},
    {"Optimal_Gatherv_init_c/Optimal_Scatterv_init_c", Optimal_Gatherv_init_c,
     Optimal_Scatterv_init_c},
    {"TUWk_Gatherv_init_c/TUWk_Scatterv_init_c", TUWk_Gatherv_init_c, TUWk_Scatterv_init_c},
};

TEST(LargeCountSmall, MatchesNativeEveryRoot) {
  if (Size() > 9) GTEST_SKIP() << "small case: p <= 9";
  const int p = Size(), rank = Rank();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::vector<int> counts = RandomCounts(p, seed);
    int extent = 0;
    const std::vector<int> displs = PermutedDisplacements(counts, seed, &extent);
    const std::vector<MPI_Count> counts_c(counts.begin(), counts.end());
    const std::vector<MPI_Aint> displs_c(displs.begin(), displs.end());
    std::vector<int> full(extent);
    for (int k = 0; k < extent; ++k) full[k] = k * 31 + static_cast<int>(seed);
    std::vector<int> own(counts[rank]);
    for (int k = 0; k < counts[rank]; ++k) own[k] = rank * 100000 + k;
    for (int root = 0; root < p; ++root) {
      std::vector<int> gather_reference(extent, -1), scatter_reference(counts[rank], -1);
      MPI_Gatherv_c(own.data(), counts[rank], MPI_INT, gather_reference.data(), counts_c.data(),
                    displs_c.data(), MPI_INT, root, MPI_COMM_WORLD);
      MPI_Scatterv_c(full.data(), counts_c.data(), displs_c.data(), MPI_INT,
                     scatter_reference.data(), counts[rank], MPI_INT, root, MPI_COMM_WORLD);
      for (const Named& a : SmallCaseAlgorithms()) {
        std::vector<int> gathered(extent, -1), scattered(counts[rank], -1);
        const int gather_rc =
            a.gatherv(own.data(), counts[rank], MPI_INT, gathered.data(), counts_c.data(),
                      displs_c.data(), MPI_INT, root, MPI_COMM_WORLD);
        const int scatter_rc =
            a.scatterv(full.data(), counts_c.data(), displs_c.data(), MPI_INT, scattered.data(),
                       counts[rank], MPI_INT, root, MPI_COMM_WORLD);
        const bool ok = gather_rc == MPI_SUCCESS && scatter_rc == MPI_SUCCESS &&
                        (rank != root || gathered == gather_reference) &&
                        scattered == scatter_reference;
        EXPECT_TRUE(AllRanks(ok)) << a.name << " seed " << seed << " root " << root << " rank "
                                  << rank << " rc " << gather_rc << "/" << scatter_rc;
      }
    }
  }
}

TEST(LargeCountSmall, PersistentMatchesNativeEveryRootAndStart) {
  if (Size() > 9) GTEST_SKIP() << "small case: p <= 9";
  const int p = Size(), rank = Rank();
  const std::uint64_t seed = 5;
  const std::vector<int> counts = RandomCounts(p, seed);
  int extent = 0;
  const std::vector<int> displs = PermutedDisplacements(counts, seed, &extent);
  const std::vector<MPI_Count> counts_c(counts.begin(), counts.end());
  const std::vector<MPI_Aint> displs_c(displs.begin(), displs.end());
  for (int root = 0; root < p; ++root) {
    for (const NamedInit& a : kPersistentSmall) {
      std::vector<int> own(counts[rank]), full(extent);
      std::vector<int> gathered(extent, -1), scattered(counts[rank], -1);
      TUW_Request gather = TUW_REQUEST_NULL, scatter = TUW_REQUEST_NULL;
      int rc = a.gatherv(own.data(), counts[rank], MPI_INT, gathered.data(), counts_c.data(),
                         displs_c.data(), MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &gather);
      if (rc == MPI_SUCCESS) {
        rc = a.scatterv(full.data(), counts_c.data(), displs_c.data(), MPI_INT, scattered.data(),
                        counts[rank], MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &scatter);
      }
      ASSERT_TRUE(AllRanks(rc == MPI_SUCCESS)) << a.name << " init, root " << root << " rc " << rc;
      for (int start = 0; start < 3; ++start) {
        for (int k = 0; k < counts[rank]; ++k) own[k] = rank * 100000 + k * 3 + start;
        for (int k = 0; k < extent; ++k) full[k] = k * 31 + start * 1000;
        std::fill(gathered.begin(), gathered.end(), -1);
        std::fill(scattered.begin(), scattered.end(), -1);
        int gather_rc = TUW_Start(&gather);
        if (gather_rc == MPI_SUCCESS) gather_rc = TUW_Wait(&gather, MPI_STATUS_IGNORE);
        int scatter_rc = TUW_Start(&scatter);
        if (scatter_rc == MPI_SUCCESS) scatter_rc = TUW_Wait(&scatter, MPI_STATUS_IGNORE);
        std::vector<int> gather_reference(extent, -1), scatter_reference(counts[rank], -1);
        MPI_Gatherv_c(own.data(), counts[rank], MPI_INT, gather_reference.data(), counts_c.data(),
                      displs_c.data(), MPI_INT, root, MPI_COMM_WORLD);
        MPI_Scatterv_c(full.data(), counts_c.data(), displs_c.data(), MPI_INT,
                       scatter_reference.data(), counts[rank], MPI_INT, root, MPI_COMM_WORLD);
        const bool ok = gather_rc == MPI_SUCCESS && scatter_rc == MPI_SUCCESS &&
                        (rank != root || gathered == gather_reference) &&
                        scattered == scatter_reference;
        EXPECT_TRUE(AllRanks(ok)) << a.name << " root " << root << " start " << start << " rank "
                                  << rank << " rc " << gather_rc << "/" << scatter_rc;
      }
      EXPECT_EQ(TUW_Request_free(&gather), MPI_SUCCESS);
      EXPECT_EQ(TUW_Request_free(&scatter), MPI_SUCCESS);
    }
  }
}

// Rank 1: 2^31 + 16 bytes, a count no int can hold; rank 0: 16 bytes placed after it.
constexpr MPI_Count kLargeCount = (MPI_Count{1} << 31) + 16;
constexpr MPI_Count kSmallCount = 16;

// A rank's data, 8 bytes at a time: word w is a mix of w and the rank (a multiply-xorshift
// hash), so every byte depends on all bits of its word's position and a piece misplaced by any
// number of bytes shows. Words, not bytes: 2 GiB are filled or checked in a fraction of a
// second (the byte-wise pattern took ~2.5 s per pass, half of this test's time).
std::uint64_t PatternWord(int rank, std::uint64_t w) {
  std::uint64_t x =
      (w + 1) * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(rank) * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBULL;
  return x ^ (x >> 29);
}
void FillPattern(unsigned char* out, int rank, std::int64_t n) {
  std::int64_t w = 0;
  for (; 8 * (w + 1) <= n; ++w) {
    const std::uint64_t word = PatternWord(rank, static_cast<std::uint64_t>(w));
    std::memcpy(out + 8 * w, &word, 8);
  }
  const std::uint64_t last = PatternWord(rank, static_cast<std::uint64_t>(w));
  std::memcpy(out + 8 * w, &last, static_cast<std::size_t>(n - 8 * w));
}
bool HasPattern(const unsigned char* in, int rank, std::int64_t n) {
  std::int64_t w = 0;
  for (; 8 * (w + 1) <= n; ++w) {
    std::uint64_t word;
    std::memcpy(&word, in + 8 * w, 8);
    if (word != PatternWord(rank, static_cast<std::uint64_t>(w))) return false;
  }
  const std::uint64_t last = PatternWord(rank, static_cast<std::uint64_t>(w));
  return std::memcmp(in + 8 * w, &last, static_cast<std::size_t>(n - 8 * w)) == 0;
}

// The check that the large cases rely on: it passes the pattern itself and fails it shifted by
// any of 1 ... 16 bytes, or for another rank.
TEST(LargeCountPattern, ShowsAPieceOutOfPlace) {
  std::vector<unsigned char> data(4096 + 16);
  FillPattern(data.data(), 1, 4096 + 16);
  EXPECT_TRUE(HasPattern(data.data(), 1, 4096 + 16));
  EXPECT_TRUE(HasPattern(data.data(), 1, 13));  // a tail shorter than a word
  EXPECT_FALSE(HasPattern(data.data(), 0, 4096));
  for (int shift = 1; shift <= 16; ++shift) {
    EXPECT_FALSE(HasPattern(data.data() + shift, 1, 4096)) << shift;
  }
}

std::unique_ptr<unsigned char[]> Bytes(std::int64_t n) {
  return std::unique_ptr<unsigned char[]>(new unsigned char[n]);  // not touched twice
}

// The process's one large buffer (2^31 + 32 bytes), shared by the four tests below.
unsigned char* LargeBuffer() { return ProcessBuffer<unsigned char>(kLargeCount + kSmallCount); }

class LargeCount : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Size() != 2) GTEST_SKIP() << "needs exactly 2 processes";
    rank_ = Rank();
  }
  static MPI_Count CountOf(int rank) { return rank == 1 ? kLargeCount : kSmallCount; }
  // A buffer for this process's side of the call: LargeBuffer() where the side is large, else
  // 16 bytes of the test's own (each process has one large side: rank 0 the root's, rank 1 its
  // own block).
  unsigned char* Side(bool large) { return large ? LargeBuffer() : small_.get(); }
  std::unique_ptr<unsigned char[]> small_ = Bytes(kSmallCount);
  int rank_ = 0;
  const MPI_Count counts_[2] = {kSmallCount, kLargeCount};
  const MPI_Aint displs_[2] = {static_cast<MPI_Aint>(kLargeCount), 0};  // 2^31 + 16 > INT_MAX
  const std::int64_t total_ = kLargeCount + kSmallCount;
};

TEST_F(LargeCount, GathervCountAboveIntMax) {
  unsigned char* send = Side(rank_ == 1);
  FillPattern(send, rank_, CountOf(rank_));
  unsigned char* recv = Side(rank_ == 0);
  for (const Named& a : kAlgorithms) {
    if (rank_ == 0) std::fill_n(recv, total_, 0);
    const double start = MPI_Wtime();
    const int rc = a.gatherv(send, CountOf(rank_), MPI_BYTE, recv, counts_, displs_, MPI_BYTE, 0,
                             MPI_COMM_WORLD);
    const double seconds = MPI_Wtime() - start;
    bool ok = rc == MPI_SUCCESS;
    for (int i = 0; ok && rank_ == 0 && i < 2; ++i)
      ok = HasPattern(&recv[displs_[i]], i, counts_[i]);
    if (rank_ == 0) std::printf("%s gather: %.1f s\n", a.name, seconds);
    EXPECT_TRUE(AllRanks(ok)) << a.name << " rank " << rank_ << " rc " << rc;
  }
}

TEST_F(LargeCount, ScattervCountAboveIntMax) {
  unsigned char* send = Side(rank_ == 0);
  for (int i = 0; rank_ == 0 && i < 2; ++i) {
    FillPattern(&send[displs_[i]], i, counts_[i]);
  }
  unsigned char* recv = Side(rank_ == 1);
  for (const Named& a : kAlgorithms) {
    std::fill_n(recv, CountOf(rank_), 0);
    const double start = MPI_Wtime();
    const int rc = a.scatterv(send, counts_, displs_, MPI_BYTE, recv, CountOf(rank_), MPI_BYTE, 0,
                              MPI_COMM_WORLD);
    const double seconds = MPI_Wtime() - start;
    bool ok = rc == MPI_SUCCESS;
    ok = ok && HasPattern(recv, rank_, CountOf(rank_));
    if (rank_ == 0) std::printf("%s scatter: %.1f s\n", a.name, seconds);
    EXPECT_TRUE(AllRanks(ok)) << a.name << " rank " << rank_ << " rc " << rc;
  }
}

// Two starts of each persistent request; the second moves other contents (the pattern of
// rank + 2), so a start that replayed the first data would show.
TEST_F(LargeCount, PersistentGathervCountAboveIntMax) {
  unsigned char* send = Side(rank_ == 1);
  unsigned char* recv = Side(rank_ == 0);
  for (const NamedInit& a : kPersistent) {
    TUW_Request request = TUW_REQUEST_NULL;
    const int init_rc = a.gatherv(send, CountOf(rank_), MPI_BYTE, recv, counts_, displs_, MPI_BYTE,
                                  0, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    ASSERT_TRUE(AllRanks(init_rc == MPI_SUCCESS)) << a.name << " init rc " << init_rc;
    for (int start = 0; start < 2; ++start) {
      FillPattern(send, rank_ + 2 * start, CountOf(rank_));
      if (rank_ == 0) std::fill_n(recv, total_, 0);
      int rc = TUW_Start(&request);
      if (rc == MPI_SUCCESS) rc = TUW_Wait(&request, MPI_STATUS_IGNORE);
      bool ok = rc == MPI_SUCCESS;
      for (int i = 0; ok && rank_ == 0 && i < 2; ++i) {
        ok = HasPattern(&recv[displs_[i]], i + 2 * start, counts_[i]);
      }
      EXPECT_TRUE(AllRanks(ok)) << a.name << " start " << start << " rank " << rank_ << " rc "
                                << rc;
    }
    EXPECT_EQ(TUW_Request_free(&request), MPI_SUCCESS);
  }
}

TEST_F(LargeCount, PersistentScattervCountAboveIntMax) {
  unsigned char* send = Side(rank_ == 0);
  unsigned char* recv = Side(rank_ == 1);
  for (const NamedInit& a : kPersistent) {
    TUW_Request request = TUW_REQUEST_NULL;
    const int init_rc = a.scatterv(send, counts_, displs_, MPI_BYTE, recv, CountOf(rank_), MPI_BYTE,
                                   0, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    ASSERT_TRUE(AllRanks(init_rc == MPI_SUCCESS)) << a.name << " init rc " << init_rc;
    for (int start = 0; start < 2; ++start) {
      for (int i = 0; rank_ == 0 && i < 2; ++i) {
        FillPattern(&send[displs_[i]], i + 2 * start, counts_[i]);
      }
      std::fill_n(recv, CountOf(rank_), 0);
      int rc = TUW_Start(&request);
      if (rc == MPI_SUCCESS) rc = TUW_Wait(&request, MPI_STATUS_IGNORE);
      bool ok = rc == MPI_SUCCESS;
      ok = ok && HasPattern(recv, rank_ + 2 * start, CountOf(rank_));
      EXPECT_TRUE(AllRanks(ok)) << a.name << " start " << start << " rank " << rank_ << " rc "
                                << rc;
    }
    EXPECT_EQ(TUW_Request_free(&request), MPI_SUCCESS);
  }
}

#else

TEST(LargeCount, CompiledOut) {
  GTEST_SKIP() << "this MPI library has no MPI_Gatherv_c (MPI-4 large counts): the *_c "
                  "functions of libtuwcoll are compiled out";
}

#endif

}  // namespace
