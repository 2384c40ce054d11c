// All libtuwcoll algorithms against the MPI library's own MPI_Gatherv / MPI_Scatterv, byte for
// byte over the whole receive buffers (so writes outside the blocks are caught too), and the
// distributed (Lemma 3) trees against the pure construction.
#include <algorithm>
#include <cstring>

#include "../algorithms/src/internal.hpp"
#include "hypercube_tree.hpp"
#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {
using namespace irrtest;

struct Variant {
  const char* name;
  bool permuted;     // displacements in random order with gaps
  bool in_place;     // MPI_IN_PLACE at the root
  bool triple_type;  // 3 x MPI_INT on one side, one contiguous type of 3 ints on the other
};
const Variant kVariants[] = {
    {"contiguous", false, false, false},
    {"permuted", true, false, false},
    {"in-place", true, true, false},
    {"mixed-types", true, false, true},
};

std::vector<int> RootsToTry(int p) {
  if (p <= 9) {
    std::vector<int> all(p);
    for (int i = 0; i < p; ++i) all[i] = i;
    return all;
  }
  return {0, 1, p / 2, p - 1};
}

struct TypeGuard {
  MPI_Datatype triple = MPI_DATATYPE_NULL;
  TypeGuard() {
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
  }
  ~TypeGuard() { MPI_Type_free(&triple); }
};

// The root's displacements for a variant: contiguous, or permuted with gaps.
std::vector<int> DisplacementsFor(const Variant& v, const std::vector<int>& counts,
                                  std::uint64_t seed, int* extent) {
  return v.permuted ? PermutedDisplacements(counts, seed, extent)
                    : ContiguousDisplacements(counts, extent);
}

// What both case runners derive from a problem and a variant.
struct CaseSetup {
  CaseSetup(MPI_Comm comm, int root, const std::vector<int>& counts, const Variant& v,
            std::uint64_t seed)
      : p(Size(comm)),
        rank(Rank(comm)),
        unit(v.triple_type ? 3 : 1),
        at_root(rank == root),
        in_place(at_root && v.in_place),
        displs(DisplacementsFor(v, counts, seed, &extent)),
        garbage(Garbage(p)),
        root_counts(at_root ? counts.data() : garbage.data()),
        root_displs(at_root ? displs.data() : garbage.data()),
        root_type(v.triple_type ? types.triple : MPI_INT) {}
  std::string Describe(int root, const Variant& v, std::uint64_t seed, int rc) const {
    return "rank " + std::to_string(rank) + " root " + std::to_string(root) + " p " +
           std::to_string(p) + " variant " + v.name + " seed " + std::to_string(seed) + " rc " +
           std::to_string(rc);
  }
  TypeGuard types;
  const int p, rank, unit;
  const bool at_root, in_place;
  int extent = 0;  // in root-type elements; set by DisplacementsFor
  const std::vector<int> displs, garbage;
  const int* root_counts;  // counts/displs as passed: garbage on non-roots
  const int* root_displs;
  const MPI_Datatype root_type;  // the root's datatype: MPI_INT or 3 ints in one
};

// Runs one gather problem with `fn` and with MPI_Gatherv; true on every rank iff identical.
bool GatherCase(tuw::GathervFn fn, MPI_Comm comm, int root, const std::vector<int>& counts,
                const Variant& v, std::uint64_t seed, std::string* why) {
  const CaseSetup c(comm, root, counts, v, seed);
  const int own = counts[c.rank] * c.unit;
  std::vector<int> send(own + 1);
  for (int k = 0; k < own; ++k) send[k] = Pattern(c.rank, k);
  std::vector<int> expected(c.at_root ? c.extent * c.unit + 1 : 0, kFill), got(expected);
  if (c.in_place) {
    std::copy(send.begin(), send.end() - 1, expected.begin() + c.displs[root] * c.unit);
    std::copy(send.begin(), send.end() - 1, got.begin() + c.displs[root] * c.unit);
  }
  const void* sendbuf = c.in_place ? MPI_IN_PLACE : send.data();
  int rc_native = MPI_Gatherv(sendbuf, own, MPI_INT, expected.data(), c.root_counts, c.root_displs,
                              c.root_type, root, comm);
  int rc = fn(sendbuf, own, MPI_INT, c.at_root ? got.data() : nullptr, c.root_counts, c.root_displs,
              c.root_type, root, comm);
  bool ok = rc == MPI_SUCCESS && rc_native == MPI_SUCCESS && expected == got;
  if (!ok) {
    *why = c.Describe(root, v, seed, rc);
    for (std::size_t k = 0; k < got.size(); ++k) {
      if (got[k] != expected[k]) {
        *why += " first difference at int " + std::to_string(k) + ": got " +
                std::to_string(got[k]) + " expected " + std::to_string(expected[k]);
        break;
      }
    }
  }
  return AllRanks(ok, comm);
}

bool ScatterCase(tuw::ScattervFn fn, MPI_Comm comm, int root, const std::vector<int>& counts,
                 const Variant& v, std::uint64_t seed, std::string* why) {
  const CaseSetup c(comm, root, counts, v, seed);
  const int own = counts[c.rank] * c.unit;
  std::vector<int> send(c.at_root ? c.extent * c.unit + 1 : 0, kFill);
  if (c.at_root) {
    for (int i = 0; i < c.p; ++i) {
      for (int k = 0; k < counts[i] * c.unit; ++k) send[c.displs[i] * c.unit + k] = Pattern(i, k);
    }
  }
  std::vector<int> expected(own + 4, kFill), got(expected);
  const void* sendbuf = c.at_root ? send.data() : nullptr;
  int rc_native =
      MPI_Scatterv(sendbuf, c.root_counts, c.root_displs, c.root_type,
                   c.in_place ? MPI_IN_PLACE : expected.data(), own, MPI_INT, root, comm);
  int rc = fn(sendbuf, c.root_counts, c.root_displs, c.root_type,
              c.in_place ? MPI_IN_PLACE : got.data(), own, MPI_INT, root, comm);
  bool ok = rc == MPI_SUCCESS && rc_native == MPI_SUCCESS && expected == got;
  if (!ok) *why = c.Describe(root, v, seed, rc);
  return AllRanks(ok, comm);
}

void CheckAllGathers(MPI_Comm comm, int seeds) {
  const int p = Size(comm);
  for (const auto& alg : tuw::kGathervAlgorithms) {
    if (alg.name == "MPI_Gatherv") continue;
    for (int root : RootsToTry(p)) {
      for (int s = 0; s < seeds; ++s) {
        const std::uint64_t seed = 1000 * p + 10 * root + s;
        const std::vector<int> counts = RandomCounts(p, seed);
        for (const Variant& v : kVariants) {
          std::string why;
          EXPECT_TRUE(GatherCase(alg.fn, comm, root, counts, v, seed, &why))
              << alg.name << ": " << why;
        }
      }
    }
  }
}

void CheckAllScatters(MPI_Comm comm, int seeds) {
  const int p = Size(comm);
  for (const auto& alg : tuw::kScattervAlgorithms) {
    if (alg.name == "MPI_Scatterv") continue;
    for (int root : RootsToTry(p)) {
      for (int s = 0; s < seeds; ++s) {
        const std::uint64_t seed = 1000 * p + 10 * root + s + 5;
        const std::vector<int> counts = RandomCounts(p, seed);
        for (const Variant& v : kVariants) {
          std::string why;
          EXPECT_TRUE(ScatterCase(alg.fn, comm, root, counts, v, seed, &why))
              << alg.name << ": " << why;
        }
      }
    }
  }
}

TEST(Gatherv, MatchesNativeForRandomProblems) { CheckAllGathers(MPI_COMM_WORLD, SeedCount(3)); }

TEST(Scatterv, MatchesNativeForRandomProblems) { CheckAllScatters(MPI_COMM_WORLD, SeedCount(3)); }

// Large, small and empty blocks in one call: subtree messages on both sides of the size from
// which a scatter parent sends one message after the other (64 KiB, tree_executor.cpp). Where
// the tests split transfers into pieces of a few bytes, one 66 KB block and two roots keep the
// case within seconds (about 10^4 pieces per transfer).
TEST(Scatterv, LargeAndSmallSubtreesMatchNative) {
  const int p = Size();
  const bool pieces = tuw::detail::MaxMessageBytes() < 1024;
  std::vector<int> counts(p);
  for (int i = 0; i < p; ++i) counts[i] = i % 3 == 0 ? 20000 : (i % 3 == 1 ? 5 : 0);
  if (pieces) {
    std::fill(counts.begin(), counts.end(), 3);
    counts[p / 2] = 16500;
  }
  const std::vector<int> roots = pieces ? std::vector<int>{0, p - 1} : RootsToTry(p);
  for (const auto& alg : tuw::kScattervAlgorithms) {
    for (int root : roots) {
      for (const Variant& v : kVariants) {
        if (pieces && v.permuted) continue;
        std::string why;
        EXPECT_TRUE(ScatterCase(alg.fn, MPI_COMM_WORLD, root, counts, v, 7, &why))
            << alg.name << ": " << why;
      }
    }
  }
}

// A split with reversed rank order: the algorithms must use comm's ranks, not the world's.
TEST(SubCommunicator, GatherAndScatterMatchNative) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, Rank() % 2, -Rank(), &half);
  CheckAllGathers(half, 1);
  CheckAllScatters(half, 1);
  MPI_Comm_free(&half);
}

// Extremes: all blocks empty, and one large block at the rank farthest from the root.
TEST(Extremes, EmptyAndSingleFarBlock) {
  const int p = Size();
  for (int root : {0, p - 1}) {
    std::vector<int> counts(p, 0);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) counts[root == 0 ? p - 1 : 0] = 50000;
      for (const auto& alg : tuw::kGathervAlgorithms) {
        std::string why;
        EXPECT_TRUE(GatherCase(alg.fn, MPI_COMM_WORLD, root, counts, kVariants[1], 1, &why))
            << alg.name << ": " << why;
      }
      for (const auto& alg : tuw::kScattervAlgorithms) {
        std::string why;
        EXPECT_TRUE(ScatterCase(alg.fn, MPI_COMM_WORLD, root, counts, kVariants[1], 1, &why))
            << alg.name << ": " << why;
      }
    }
  }
}

// Every rank's view of the Lemma 3 tree equals its node in the pure construction.
TEST(DistributedTree, EqualsPureTree) {
  const int p = Size(), rank = Rank();
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int root : RootsToTry(p)) {
    for (int s = 0; s < SeedCount(3) + 2; ++s) {
      std::vector<int> counts = RandomCounts(p, 77 * p + 3 * root + s);
      if (s == 0) std::fill(counts.begin(), counts.end(), 5);  // all ties
      std::vector<std::int64_t> bytes(counts.begin(), counts.end());
      const auto pure = tuw::tree::BuildTree(tuw::tree::TreeKind::kAdaptive, bytes, root);
      tuw::tree::NodeView view;
      int error_in_tree = -1;
      int rc = tuw::detail::BuildAdaptiveView(comm, rank, p, root, bytes[rank], MPI_SUCCESS, &view,
                                              &error_in_tree);
      const bool ok = rc == MPI_SUCCESS && view == pure.nodes[rank] &&
                      (rank != root || error_in_tree == MPI_SUCCESS);
      EXPECT_TRUE(AllRanks(ok)) << "rank " << rank << " root " << root << " seed " << s
                                << " parent " << view.parent << " vs " << pure.nodes[rank].parent;
    }
  }
  MPI_Comm_free(&comm);
}

// Many calls in a row on one communicator, alternating algorithms and roots, interleaved with
// user messages on the same communicator and tag values: nothing may be mixed up.
TEST(Sequences, BackToBackCallsAndUserTraffic) {
  const int p = Size(), rank = Rank();
  for (int i = 0; i < 12; ++i) {
    const int root = (i * 5) % p;
    const std::vector<int> counts = RandomCounts(p, 4242 + i);
    // A user message with the library's data tag value, received after the collectives.
    int token = rank * 10 + i, received = -1;
    MPI_Request request;
    MPI_Irecv(&received, 1, MPI_INT, (rank + p - 1) % p, TUWCOLL_TAG_DATA, MPI_COMM_WORLD,
              &request);
    MPI_Send(&token, 1, MPI_INT, (rank + 1) % p, TUWCOLL_TAG_DATA, MPI_COMM_WORLD);
    const auto& g = tuw::kGathervAlgorithms[1 + i % 3];
    const auto& s = tuw::kScattervAlgorithms[1 + (i + 1) % 3];
    std::string why;
    EXPECT_TRUE(GatherCase(g.fn, MPI_COMM_WORLD, root, counts, kVariants[i % 4], i, &why))
        << g.name << ": " << why;
    EXPECT_TRUE(ScatterCase(s.fn, MPI_COMM_WORLD, root, counts, kVariants[(i + 1) % 4], i, &why))
        << s.name << ": " << why;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_EQ(received, ((rank + p - 1) % p) * 10 + i);
  }
}

}  // namespace
