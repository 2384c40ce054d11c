// Helpers for GoogleTest under MPI: every rank runs every test; verdicts are agreed collectively
// so that no rank leaves a collective early, and failing ranks print their own details.
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace irrtest {

inline int Rank(MPI_Comm comm = MPI_COMM_WORLD) {
  int r;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int Size(MPI_Comm comm = MPI_COMM_WORLD) {
  int s;
  MPI_Comm_size(comm, &s);
  return s;
}

// True on every rank iff `ok` holds on every rank of comm.
inline bool AllRanks(bool ok, MPI_Comm comm = MPI_COMM_WORLD) {
  int local = ok ? 1 : 0, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_LAND, comm);
  return global == 1;
}

// An environment variable a test sets as it likes: its value before (or its absence) comes back
// when the test's scope ends, so the next test sees the environment CMake gave the binary.
class ScopedEnvironment {
 public:
  explicit ScopedEnvironment(const char* name) : name_(name) {
    const char* before = std::getenv(name);
    had_ = before != nullptr;
    if (had_) saved_ = before;
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
  ~ScopedEnvironment() {
    if (had_) {
      setenv(name_, saved_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  void Set(const char* value) const { setenv(name_, value, 1); }
  void Unset() const { unsetenv(name_); }

 private:
  const char* name_;
  bool had_ = false;
  std::string saved_;
};

// Number of random problems per (algorithm, root); smaller for MPICH runs (IRRCOLL_TEST_SEEDS).
inline int SeedCount(int fallback) {
  const char* env = std::getenv("IRRCOLL_TEST_SEEDS");
  return env ? std::atoi(env) : fallback;
}

// Random block counts, identical on all ranks: ~25% zeros, sometimes a few large blocks.
inline std::vector<int> RandomCounts(int p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> counts(p);
  for (int& c : counts) c = (rng() % 4 == 0) ? 0 : static_cast<int>(1 + rng() % 40);
  if (rng() % 3 == 0) {
    for (int k = 0; k < 2; ++k) counts[rng() % p] = 2000 + static_cast<int>(rng() % 3000);
  }
  return counts;
}

// Displacements for `counts`: blocks in a random order with random gaps between them.
inline std::vector<int> PermutedDisplacements(const std::vector<int>& counts, std::uint64_t seed,
                                              int* extent) {
  std::mt19937_64 rng(seed * 7919 + 1);
  std::vector<int> order(counts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> displs(counts.size());
  int position = static_cast<int>(rng() % 5);
  for (int i : order) {
    displs[i] = position;
    position += counts[i] + static_cast<int>(rng() % 4);
  }
  *extent = position + 3;
  return displs;
}

inline std::vector<int> ContiguousDisplacements(const std::vector<int>& counts, int* extent) {
  std::vector<int> displs(counts.size());
  int position = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = position;
    position += counts[i];
  }
  *extent = position;
  return displs;
}

// The value of element k of rank i's block: recognisable, never equal to the fill value.
inline int Pattern(int rank, int k) { return (rank + 1) * 1000003 + k * 7 + 11; }
constexpr int kFill = -123456789;

// Derived datatypes the tests share (freed at scope end): one contiguous type of 3 ints, a pair
// of ints with holes (ints 0 and 2 of a 4-int extent) and an int with a 2-int extent (every
// other int), so that types with holes and extents larger than their size are packed and
// unpacked on both sides.
struct TestTypes {
  MPI_Datatype triple = MPI_DATATYPE_NULL;
  MPI_Datatype strided_pair = MPI_DATATYPE_NULL;
  MPI_Datatype spaced_int = MPI_DATATYPE_NULL;
  TestTypes() {
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Datatype pair;
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 4 * sizeof(int), &strided_pair);
    MPI_Type_free(&pair);
    MPI_Type_commit(&strided_pair);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spaced_int);
    MPI_Type_commit(&spaced_int);
  }
  ~TestTypes() {
    MPI_Type_free(&triple);
    MPI_Type_free(&strided_pair);
    MPI_Type_free(&spaced_int);
  }
  TestTypes(const TestTypes&) = delete;
  TestTypes& operator=(const TestTypes&) = delete;
};

// Where a datatype's ints lie in a buffer of ints: `ints` per element (its signature), `span`
// ints per extent, `stride` ints between an element's ints.
struct IntLayout {
  int ints, span, stride;
  // Index of int k of the block at displacement `displ` (in elements).
  int Index(int displ, int k) const { return (displ + k / ints) * span + (k % ints) * stride; }
};
constexpr IntLayout kIntLayout{1, 1, 1};          // MPI_INT
constexpr IntLayout kTripleLayout{3, 3, 1};       // TestTypes::triple
constexpr IntLayout kStridedPairLayout{2, 4, 2};  // TestTypes::strided_pair
constexpr IntLayout kSpacedIntLayout{1, 2, 1};    // TestTypes::spaced_int

// Non-root processes get these as recvcounts/displs: an algorithm that reads them goes wrong.
inline std::vector<int> Garbage(int p) { return std::vector<int>(p, -99999); }

// The processes of world as two groups, ranks [0, split) and [split, p), joined by an
// intercommunicator. Free with FreeGroups.
struct TwoGroups {
  MPI_Comm local = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  bool in_first = false;
};

inline TwoGroups SplitIntoGroups(int split, MPI_Comm world = MPI_COMM_WORLD) {
  TwoGroups g;
  const int rank = Rank(world);
  g.in_first = rank < split;
  MPI_Comm_split(world, g.in_first ? 0 : 1, rank, &g.local);
  const int remote_leader = g.in_first ? split : 0;  // ranks in world of the groups' leaders
  MPI_Intercomm_create(g.local, 0, world, remote_leader, 99, &g.inter);
  return g;
}

inline void FreeGroups(TwoGroups* g) {
  MPI_Comm_free(&g->inter);
  MPI_Comm_free(&g->local);
}

// The radix-k rows of the registry (TUWk_*, Binomialk_*): the executor and the transfers of
// their radix-2 counterparts on other trees. Tests of the executor alone (payloads past 2 GiB)
// leave them out; the tests of the trees and their error paths keep them.
inline bool IsRadixKRow(std::string_view name) {
  return name.rfind("TUWk_", 0) == 0 || name.rfind("Binomialk_", 0) == 0;
}
inline bool IsObliviousRadixKRow(std::string_view name) { return name.rfind("Binomialk_", 0) == 0; }

// One uninitialised buffer of at least n elements of T a process, kept for its life and shared
// by the tests that ask (each fills what it reads): first touching gigabytes of fresh pages was
// most of the large-payload tests' time on a virtual machine (page faults of about 20 us each).
template <typename T>
T* ProcessBuffer(std::int64_t n) {
  static std::unique_ptr<T[]> buffer;
  static std::int64_t size = 0;
  if (n > size) {
    buffer.reset(new T[n]);
    size = n;
  }
  return buffer.get();
}

}  // namespace irrtest
