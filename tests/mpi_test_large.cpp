// Payloads past 2 GiB with valid int counts: 4 processes, ranks 2 and 3 each hold 1.1e9 bytes
// (275 million MPI_INTs) and rank 0 is the root, so the subtree of ranks 2 and 3 carries 2.2e9
// bytes > INT_MAX through one tree edge (the case that made TUW_* and Binomial_* fail with
// MPI_ERR_COUNT, and Binomial_Gatherv hang). Every algorithm must return MPI_SUCCESS on every
// rank with every element where MPI puts it; the reference is a pattern computed independently
// of the algorithms. About 9 GB of memory in all; run alone with `ctest -L large`.
#include <cstdint>
#include <memory>

#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {
using namespace irrtest;

constexpr int kLargeCount = 275'000'000;  // 1.1e9 bytes of MPI_INT
constexpr int kSmallCount = 7;

int CountOf(int rank) { return rank >= 2 ? kLargeCount : kSmallCount; }
int Value(int rank, std::int64_t k) {
  return static_cast<int>((rank * 1000003LL + k * 7) & 0x7fffffff);
}

// An uninitialised int buffer (a vector would touch every page twice).
std::unique_ptr<int[]> Ints(std::int64_t n) { return std::unique_ptr<int[]>(new int[n]); }

class LargePayload : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Size() != 4) GTEST_SKIP() << "needs exactly 4 processes";
    rank_ = Rank();
    std::int64_t total = 0;
    for (int i = 0; i < 4; ++i) {
      counts_.push_back(CountOf(i));
      displs_.push_back(static_cast<int>(total));
      total += CountOf(i);
    }
    total_ = total;  // 550,000,014 ints: every displacement is a valid int
  }
  // A buffer of n ints for this process's side of the call: ProcessBuffer where it is large, else
  // kSmallCount ints of the test's own (one a side: the two sides never alias).
  int* Side(std::int64_t n) {
    if (n > kSmallCount) return ProcessBuffer<int>(n);  // shared by both tests
    small_.push_back(Ints(kSmallCount));
    return small_.back().get();
  }
  std::vector<std::unique_ptr<int[]>> small_;
  int rank_ = 0;
  std::vector<int> counts_, displs_;
  std::int64_t total_ = 0;
};

TEST_F(LargePayload, GathervSubtreeAboveIntMax) {
  int* send = Side(CountOf(rank_));
  for (std::int64_t k = 0; k < CountOf(rank_); ++k) send[k] = Value(rank_, k);
  int* recv = Side(rank_ == 0 ? total_ : 1);
  for (const auto& algorithm : tuw::kGathervAlgorithms) {
    if (IsRadixKRow(algorithm.name)) continue;  // the same executor and pieces as radix 2
    if (rank_ == 0) std::fill_n(recv, total_, -1);
    const double start = MPI_Wtime();
    const int rc = algorithm.fn(send, CountOf(rank_), MPI_INT, recv, counts_.data(), displs_.data(),
                                MPI_INT, 0, MPI_COMM_WORLD);
    if (rank_ == 0)
      std::printf("%s: %.1f s\n", std::string(algorithm.name).c_str(), MPI_Wtime() - start);
    bool ok = rc == MPI_SUCCESS;
    if (ok && rank_ == 0) {
      for (int i = 0; i < 4 && ok; ++i) {
        for (std::int64_t k = 0; k < counts_[i]; ++k) {
          if (recv[displs_[i] + k] != Value(i, k)) {
            ok = false;
            break;
          }
        }
      }
    }
    EXPECT_TRUE(AllRanks(ok)) << algorithm.name << " rank " << rank_ << " rc " << rc;
  }
}

TEST_F(LargePayload, ScattervSubtreeAboveIntMax) {
  int* send = Side(rank_ == 0 ? total_ : 1);
  if (rank_ == 0) {
    for (int i = 0; i < 4; ++i) {
      for (std::int64_t k = 0; k < counts_[i]; ++k) send[displs_[i] + k] = Value(i, k);
    }
  }
  int* recv = Side(CountOf(rank_));
  for (const auto& algorithm : tuw::kScattervAlgorithms) {
    if (IsRadixKRow(algorithm.name)) continue;
    std::fill_n(recv, CountOf(rank_), -1);
    const double start = MPI_Wtime();
    const int rc = algorithm.fn(send, counts_.data(), displs_.data(), MPI_INT, recv, CountOf(rank_),
                                MPI_INT, 0, MPI_COMM_WORLD);
    if (rank_ == 0)
      std::printf("%s: %.1f s\n", std::string(algorithm.name).c_str(), MPI_Wtime() - start);
    bool ok = rc == MPI_SUCCESS;
    for (std::int64_t k = 0; ok && k < CountOf(rank_); ++k) ok = recv[k] == Value(rank_, k);
    EXPECT_TRUE(AllRanks(ok)) << algorithm.name << " rank " << rank_ << " rc " << rc;
  }
}

}  // namespace
