// All libtuwcoll algorithms against the MPI library's own MPI_Gatherv / MPI_Scatterv, byte for
// byte over the whole receive buffers (so writes outside the blocks are caught too), and the
// distributed (Lemma 3) trees against the pure construction.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "../algorithms/src/internal.hpp"
#include "carried_cubes.hpp"
#include "hypercube_tree.hpp"
#include "mpi_test_support.hpp"
#include "scatter_schedule.hpp"
#include "tuwcoll_registry.hpp"

namespace {
using namespace irrtest;

// How a variant lays out the root's elements and the other side's elements, in ints.
enum class Types {
  kInt,      // MPI_INT on both sides
  kTriple,   // 3 x MPI_INT on one side, one contiguous type of 3 ints on the other
  kStrided,  // at the root a pair of ints with holes (ints 0 and 2 of a 4-int extent); on the
             // other side ints with a 2-int extent (every other int): packing and unpacking of
             // types with holes and extents larger than their size, on both sides
};
struct Variant {
  const char* name;
  bool permuted;  // displacements in random order with gaps
  bool in_place;  // MPI_IN_PLACE at the root
  Types types;
};
const Variant kVariants[] = {
    {"contiguous", false, false, Types::kInt},       {"permuted", true, false, Types::kInt},
    {"in-place", true, true, Types::kInt},           {"mixed-types", true, false, Types::kTriple},
    {"strided-types", true, false, Types::kStrided},
};
constexpr int kVariantCount = sizeof(kVariants) / sizeof(kVariants[0]);

std::vector<int> RootsToTry(int p) {
  if (p <= 9) {
    std::vector<int> all(p);
    for (int i = 0; i < p; ++i) all[i] = i;
    return all;
  }
  return {0, 1, p / 2, p - 1};
}

// The root's displacements for a variant: contiguous, or permuted with gaps.
std::vector<int> DisplacementsFor(const Variant& v, const std::vector<int>& counts,
                                  std::uint64_t seed, int* extent) {
  return v.permuted ? PermutedDisplacements(counts, seed, extent)
                    : ContiguousDisplacements(counts, extent);
}

// A variant's datatypes and where their ints lie: at the root, and on every process (send for a
// gather, receive for a scatter).
struct SideTypes {
  MPI_Datatype root_type, own_type;
  IntLayout root, own;
};
SideTypes TypesFor(Types t, const TestTypes& types) {
  switch (t) {
    case Types::kTriple:
      return {types.triple, MPI_INT, kTripleLayout, kIntLayout};
    case Types::kStrided:
      return {types.strided_pair, types.spaced_int, kStridedPairLayout, kSpacedIntLayout};
    case Types::kInt:
      break;
  }
  return {MPI_INT, MPI_INT, kIntLayout, kIntLayout};
}

// What both case runners derive from a problem and a variant.
struct CaseSetup {
  CaseSetup(MPI_Comm comm, int root, const std::vector<int>& counts, const Variant& v,
            std::uint64_t seed)
      : p(Size(comm)),
        rank(Rank(comm)),
        side(TypesFor(v.types, types)),
        at_root(rank == root),
        in_place(at_root && v.in_place),
        displs(DisplacementsFor(v, counts, seed, &extent)),
        garbage(Garbage(p)),
        root_counts(at_root ? counts.data() : garbage.data()),
        root_displs(at_root ? displs.data() : garbage.data()) {}
  std::string Describe(int root, const Variant& v, std::uint64_t seed, int rc) const {
    return "rank " + std::to_string(rank) + " root " + std::to_string(root) + " p " +
           std::to_string(p) + " variant " + v.name + " seed " + std::to_string(seed) + " rc " +
           std::to_string(rc);
  }
  // Ints each process sends (gather) or receives (scatter) for a block of `count` root elements.
  int OwnInts(int count) const { return count * side.root.ints; }
  std::size_t RootInts() const { return static_cast<std::size_t>(extent) * side.root.span + 1; }
  TestTypes types;
  const int p, rank;
  const SideTypes side;
  const bool at_root, in_place;
  int extent = 0;  // in root-type elements; set by DisplacementsFor
  const std::vector<int> displs, garbage;
  const int* root_counts;  // counts/displs as passed: garbage on non-roots
  const int* root_displs;
};

// Runs one gather problem with `fn` and with MPI_Gatherv; true on every rank iff identical.
bool GatherCase(tuw::GathervFn fn, MPI_Comm comm, int root, const std::vector<int>& counts,
                const Variant& v, std::uint64_t seed, std::string* why) {
  const CaseSetup c(comm, root, counts, v, seed);
  const int own = c.OwnInts(counts[c.rank]);
  // The holes of a spaced send buffer hold -1, which must not reach the root.
  std::vector<int> send(own * c.side.own.span + 1, -1);
  for (int k = 0; k < own; ++k) send[c.side.own.Index(0, k)] = Pattern(c.rank, k);
  std::vector<int> expected(c.at_root ? c.RootInts() : 0, kFill), got(expected);
  if (c.in_place) {
    for (int k = 0; k < own; ++k) {
      const int at = c.side.root.Index(c.displs[root], k);
      expected[at] = got[at] = send[c.side.own.Index(0, k)];
    }
  }
  const void* sendbuf = c.in_place ? MPI_IN_PLACE : send.data();
  int rc_native = MPI_Gatherv(sendbuf, own, c.side.own_type, expected.data(), c.root_counts,
                              c.root_displs, c.side.root_type, root, comm);
  int rc = fn(sendbuf, own, c.side.own_type, c.at_root ? got.data() : nullptr, c.root_counts,
              c.root_displs, c.side.root_type, root, comm);
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
  const int own = c.OwnInts(counts[c.rank]);
  // The root's holes hold -1, which must reach no process.
  std::vector<int> send(c.at_root ? c.RootInts() : 0, -1);
  if (c.at_root) {
    for (int i = 0; i < c.p; ++i) {
      for (int k = 0; k < c.OwnInts(counts[i]); ++k) {
        send[c.side.root.Index(c.displs[i], k)] = Pattern(i, k);
      }
    }
  }
  std::vector<int> expected(own * c.side.own.span + 4, kFill), got(expected);
  const void* sendbuf = c.at_root ? send.data() : nullptr;
  int rc_native =
      MPI_Scatterv(sendbuf, c.root_counts, c.root_displs, c.side.root_type,
                   c.in_place ? MPI_IN_PLACE : expected.data(), own, c.side.own_type, root, comm);
  int rc = fn(sendbuf, c.root_counts, c.root_displs, c.side.root_type,
              c.in_place ? MPI_IN_PLACE : got.data(), own, c.side.own_type, root, comm);
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

// MPI lets a scatter's blocks overlap in the root's send buffer (it is only read): every block
// from the start, consecutive blocks shifted by one int, and large blocks shifted by a few.
TEST(Scatterv, OverlappingSendBlocksMatchNative) {
  const int p = Size(), rank = Rank();
  std::vector<int> send(5000);
  for (std::size_t k = 0; k < send.size(); ++k) send[k] = Pattern(-1, static_cast<int>(k));
  for (int pattern = 0; pattern < 3; ++pattern) {
    std::vector<int> counts(p), displs(p);
    for (int i = 0; i < p; ++i) {
      counts[i] = pattern == 2 ? 2000 + i : 3 + i % 4;
      displs[i] = pattern == 0 ? 0 : (pattern == 1 ? i : (p - i) % 3);
    }
    for (int root : RootsToTry(p)) {
      for (const auto& alg : tuw::kScattervAlgorithms) {
        std::vector<int> expected(counts[rank] + 2, kFill), got(expected);
        const int* root_counts = rank == root ? counts.data() : nullptr;
        const int* root_displs = rank == root ? displs.data() : nullptr;
        MPI_Scatterv(send.data(), root_counts, root_displs, MPI_INT, expected.data(), counts[rank],
                     MPI_INT, root, MPI_COMM_WORLD);
        const int rc = alg.fn(send.data(), root_counts, root_displs, MPI_INT, got.data(),
                              counts[rank], MPI_INT, root, MPI_COMM_WORLD);
        EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && got == expected))
            << alg.name << ": rank " << rank << " root " << root << " pattern " << pattern;
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

// Extremes: all blocks empty, and one large block at the rank farthest from the root: 200 KB,
// or where every transfer goes in 7-byte pieces (the .pieces runs) just above the 64 KiB from
// which scatter parents send serially, which it still crosses in a third of the pieces (those
// runs spent 40 s of their 58 here at p = 5).
TEST(Extremes, EmptyAndSingleFarBlock) {
  const int p = Size();
  const int far_count =
      tuw::detail::MaxMessageBytes() >= tuw::tree::kSerialSendMinBytesAfterHeader
          ? 50000
          : static_cast<int>(tuw::tree::kSerialSendMinBytesAfterHeader / sizeof(int)) + 16;
  for (int root : {0, p - 1}) {
    std::vector<int> counts(p, 0);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) counts[root == 0 ? p - 1 : 0] = far_count;
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

// Every rank's view of the Lemma 3 tree equals its node in the pure construction, at radix 2
// (the paper's), 3, 4 and p (one round: every cube a single rank).
TEST(DistributedTree, EqualsPureTree) {
  const int p = Size(), rank = Rank();
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (int radix : {2, 3, 4, std::max(p, 2)}) {
    for (int root : RootsToTry(p)) {
      for (int s = 0; s < SeedCount(3) + 2; ++s) {
        std::vector<int> counts = RandomCounts(p, 77 * p + 3 * root + s);
        if (s == 0) std::fill(counts.begin(), counts.end(), 5);  // all ties
        std::vector<std::int64_t> bytes(counts.begin(), counts.end());
        const auto pure = tuw::tree::BuildTree(tuw::tree::TreeKind::kAdaptive, bytes, root, radix);
        tuw::tree::NodeView view;
        int error_in_tree = -1;
        int rc = tuw::detail::BuildAdaptiveView(comm, rank, p, root, radix, bytes[rank],
                                                MPI_SUCCESS, &view, &error_in_tree);
        const bool ok = rc == MPI_SUCCESS && view == pure.nodes[rank] &&
                        (rank != root || error_in_tree == MPI_SUCCESS);
        EXPECT_TRUE(AllRanks(ok)) << "radix " << radix << " rank " << rank << " root " << root
                                  << " seed " << s << " parent " << view.parent << " vs "
                                  << pure.nodes[rank].parent;
      }
    }
  }
  MPI_Comm_free(&comm);
}

// TUWk_Gatherv's construction carrying small cubes (carried_cubes.hpp): every rank's view and
// whether its part ended in the construction equal the pure BuildCarriedTree's, and the root and
// each carrier hold exactly the bytes carried to them. Carry limits (and to the root told only,
// tree::CarryLimit) 0 (only empty cubes), 64 and 96 (a mix of carried and not at the test's sizes,
// also in the root's group) and the library's (nearly all).
TEST(DistributedTree, CarriedEqualsPureTree) {
  const int p = Size(), rank = Rank();
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const std::pair<std::int64_t, std::int64_t> limits[] = {
      {0, 0}, {64, 96}, {tuw::tree::kCarryMaxBytes, tuw::tree::kCarryToRootMaxBytes}};
  for (const auto& [max_bytes, root_max_bytes] : limits) {
    for (int radix : {2, 3, 4}) {
      for (int root : RootsToTry(p)) {
        for (int s = 0; s < SeedCount(3); ++s) {
          const std::vector<int> counts = RandomCounts(p, 91 * p + 5 * root + s);
          std::vector<std::int64_t> bytes(counts.begin(), counts.end());
          std::vector<char> pure_done;
          const auto pure = tuw::tree::BuildCarriedTree(bytes, root, radix, max_bytes, nullptr,
                                                        &pure_done, root_max_bytes);
          tuw::detail::CarriedData carried;
          carried.max_bytes = max_bytes;
          carried.root_max_bytes = root_max_bytes;
          if (rank != root && bytes[rank] <= tuw::tree::FirstCarryLimit(
                                                 rank, p, radix, root, max_bytes, root_max_bytes)) {
            carried.bytes.assign(bytes[rank], static_cast<char>(rank));
          }
          tuw::tree::NodeView view;
          int error_in_tree = -1;
          const int rc =
              tuw::detail::BuildAdaptiveView(comm, rank, p, root, radix, bytes[rank], MPI_SUCCESS,
                                             &view, &error_in_tree, &carried);
          // What the construction left here: the root's carried ranges, in rank order of their
          // blocks, each filled with its ranks' bytes; a carrier's one range, its own view's.
          bool data_ok = true;
          std::int64_t held = 0;
          for (const auto& r : carried.ranges) {
            std::int64_t at = r.offset;
            for (int i = r.lo; i <= r.hi; ++i) {
              for (std::int64_t k = 0; k < bytes[i]; ++k) {
                data_ok = data_ok && carried.bytes[at++] == static_cast<char>(i);
              }
            }
            data_ok = data_ok && at == r.offset + r.bytes;
            held += r.bytes;
          }
          if (rank != root && !carried.ranges.empty()) data_ok = data_ok && held == view.own_bytes;
          const bool ok = rc == MPI_SUCCESS && view == pure.nodes[rank] &&
                          carried.done == (pure_done[rank] != 0) && data_ok;
          EXPECT_TRUE(AllRanks(ok))
              << "carry " << max_bytes << " to the root " << root_max_bytes << " radix " << radix
              << " rank " << rank << " root " << root << " seed " << s << " parent " << view.parent
              << " vs " << pure.nodes[rank].parent << " own " << view.own_bytes << " vs "
              << pure.nodes[rank].own_bytes << " done " << carried.done << " data " << data_ok;
        }
      }
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
    EXPECT_TRUE(
        GatherCase(g.fn, MPI_COMM_WORLD, root, counts, kVariants[i % kVariantCount], i, &why))
        << g.name << ": " << why;
    EXPECT_TRUE(ScatterCase(s.fn, MPI_COMM_WORLD, root, counts, kVariants[(i + 1) % kVariantCount],
                            i, &why))
        << s.name << ": " << why;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_EQ(received, ((rank + p - 1) % p) * 10 + i);
  }
}

// TUWk_Scatterv's processes take their first message (their subtree's sizes) from any source, as
// they do not know their parent before: calls in a row on trees that change from call to call
// (root and a large block move), with no barrier between them, must not take a later call's
// message for an earlier one's. Radixes 2 and 3 give deep trees, so parents change, and so do
// the greedy trees of a small call (TUWCOLL_SCATTER_STEP: 0 the radix tree, else the step, or
// the network and node steps of the two-level tree over nodes of TUWCOLL_RANKS_PER_NODE ranks, a
// last node short where p is not a multiple, also with equal node ranges "eK/N" and ranges of
// equal bytes "bK/N", the large block enough for two parts of tree::kByteCutMinPartBytes; empty
// blocks among them). Every eighth call is too large for one message a child (its sizes go a
// level ahead of the data; every call under the pieces' limit), on the radix its root names: the
// one set, or with no setting the model's for its size, which is not the small calls'
// (TUWk_Radix_scatter_large; checked here, so that such calls run on a radix the processes do not
// choose themselves; a subtree's shape is its own root's business, so a wrong radix would cost
// time, not data: the header's field is tested for being read, not for the tree it makes).
// The results are checked after all calls against the pattern the root sent.
TEST(Sequences, TuwkScattervCallsInARowOnChangingTrees) {
  const int p = Size(), rank = Rank();
  constexpr int kCalls = 40;
  // Under the pieces' message limit every call here is too large for one message a child.
  const char* limit = std::getenv("TUWCOLL_TEST_MAX_MESSAGE_BYTES");
  const bool pieces = limit != nullptr && *limit != '\0';
  struct Setting {
    const char *radix, *step, *ranks_per_node;
  };
  for (const auto& [radix, step, ranks_per_node] :
       {Setting{"2", "0", ""}, Setting{"3", "0", ""}, Setting{"3", "1", ""}, Setting{"3", "2", ""},
        Setting{"2", "5", ""}, Setting{"3", "2/1", "3"}, Setting{"2", "5/2", "2"},
        Setting{"2", "1/3", "4"}, Setting{"2", "e2/1", "2"}, Setting{"3", "e3/2", "3"},
        Setting{"2", "b2/1", "2"}, Setting{"3", "b3/2", "3"}, Setting{"", "", ""}}) {
    setenv("TUWCOLL_RADIX", radix, 1);
    setenv("TUWCOLL_SCATTER_STEP", step, 1);
    setenv("TUWCOLL_RANKS_PER_NODE", ranks_per_node, 1);
    std::vector<std::vector<int>> received(kCalls);
    for (int i = 0; i < kCalls; ++i) {
      const int root = (i * 7) % p;
      std::vector<int> counts(p, 1 + i % 3);
      counts[(i * 3 + 1) % p] = 2100 + i;  // 8.4 KB: "bK/N" cuts two parts by bytes
      if (i % 8 == 5 && !pieces) counts[(i * 3 + 1) % p] = 140000 + i;  // 560 KB: a large call
      if (i % 4 == 0) counts[(i * 5 + 2) % p] = 0;
      int extent = 0;
      const std::vector<int> displs = ContiguousDisplacements(counts, &extent);
      std::vector<int> send(rank == root ? extent : 1);
      if (rank == root) {
        for (int j = 0; j < p; ++j) {
          for (int k = 0; k < counts[j]; ++k) send[displs[j] + k] = Pattern(j, k + i);
        }
      }
      received[i].assign(counts[rank] + 1, kFill);
      EXPECT_EQ(TUWk_Scatterv(send.data(), counts.data(), displs.data(), MPI_INT,
                              received[i].data(), counts[rank], MPI_INT, root, MPI_COMM_WORLD),
                MPI_SUCCESS)
          << "call " << i << " radix " << radix << " step " << step;
    }
    if (*radix == '\0' && p > 2) {  // the model's radixes: the large calls' differs
      int small = 0, binomialk = 0, large = 0, by_model = 0;
      EXPECT_EQ(TUWk_Radix(MPI_COMM_WORLD, &small, &binomialk), MPI_SUCCESS);
      EXPECT_EQ(TUWk_Radix_scatter_large(MPI_COMM_WORLD, 0, 140000 * 4 / p, &large, &by_model),
                MPI_SUCCESS);
      EXPECT_NE(small, large);
      EXPECT_EQ(by_model, 1);
    }
    unsetenv("TUWCOLL_RADIX");
    unsetenv("TUWCOLL_SCATTER_STEP");
    unsetenv("TUWCOLL_RANKS_PER_NODE");
    bool ok = true;
    for (int i = 0; i < kCalls; ++i) {
      const int own = static_cast<int>(received[i].size()) - 1;
      for (int k = 0; k < own; ++k) ok = ok && received[i][k] == Pattern(rank, k + i);
      ok = ok && received[i][own] == kFill;
    }
    EXPECT_TRUE(AllRanks(ok)) << "radix " << radix << ", step " << step << ", rank " << rank;
  }
}

// MPI_BOTTOM with datatypes of absolute addresses (MPI_Get_address): each process's own block
// is described by a type whose displacement is its buffer's address, passed with MPI_BOTTOM as
// the buffer, on the sending side of a gather and the receiving side of a scatter (the root's
// own block included). The blocking and the persistent algorithms, against the native call
// with plain buffers. A process with an empty block passes one element of a type of size 0:
// the data moved is decided by the type signature, not by the count. MPI_Scatterv of Open MPI
// 4.1 and of MPICH 4.0 hangs there (the root skips a send of count 0 that the receiver, with
// count 1, waits for), so the native call runs only with the plain buffers.
class AbsoluteBlock {
 public:
  AbsoluteBlock(std::vector<int>* buffer, int ints) {
    MPI_Aint address;
    MPI_Get_address(buffer->data(), &address);
    MPI_Type_create_hindexed(1, &ints, &address, MPI_INT, &type_);
    MPI_Type_commit(&type_);
  }
  ~AbsoluteBlock() { MPI_Type_free(&type_); }
  AbsoluteBlock(const AbsoluteBlock&) = delete;
  AbsoluteBlock& operator=(const AbsoluteBlock&) = delete;
  MPI_Datatype type() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// One start of a persistent request: start and wait.
int StartAndWait(TUW_Request* request) {
  const int rc = TUW_Start(request);
  return rc != MPI_SUCCESS ? rc : TUW_Wait(request, MPI_STATUS_IGNORE);
}

TEST(Bottom, AbsoluteAddressTypesMatchNative) {
  const int p = Size(), rank = Rank();
  for (int root : RootsToTry(p)) {
    const std::vector<int> counts = RandomCounts(p, 31 * p + root);
    int extent = 0;
    const std::vector<int> displs = PermutedDisplacements(counts, 5 + root, &extent);
    const int* root_counts = rank == root ? counts.data() : nullptr;
    const int* root_displs = rank == root ? displs.data() : nullptr;
    const int own = counts[rank];
    const std::size_t root_ints = rank == root ? static_cast<std::size_t>(extent) + 1 : 0;

    std::vector<int> send(own + 1);
    const AbsoluteBlock send_block(&send, own);
    std::vector<int> expected(root_ints, kFill), got(expected);
    const auto fill_send = [&](int start) {
      for (int k = 0; k < own; ++k) send[k] = Pattern(rank, k + start);
      std::fill(expected.begin(), expected.end(), kFill);
      std::fill(got.begin(), got.end(), kFill);
      MPI_Gatherv(send.data(), own, MPI_INT, expected.data(), root_counts, root_displs, MPI_INT,
                  root, MPI_COMM_WORLD);
    };
    for (const auto& alg : tuw::kGathervAlgorithms) {
      if (alg.name == "MPI_Gatherv") continue;
      fill_send(0);
      const int rc = alg.fn(MPI_BOTTOM, 1, send_block.type(), got.data(), root_counts, root_displs,
                            MPI_INT, root, MPI_COMM_WORLD);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && got == expected)) << alg.name << " root " << root;
    }
    for (const auto& alg : tuw::kGathervInitAlgorithms) {
      TUW_Request request = TUW_REQUEST_NULL;
      int rc = alg.fn(MPI_BOTTOM, 1, send_block.type(), got.data(), root_counts, root_displs,
                      MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
      bool ok = AllRanks(rc == MPI_SUCCESS);
      EXPECT_TRUE(ok) << alg.name << " init, root " << root;
      for (int start = 0; start < 2 && ok; ++start) {
        fill_send(start);
        rc = StartAndWait(&request);
        ok = AllRanks(rc == MPI_SUCCESS && got == expected);
        EXPECT_TRUE(ok) << alg.name << " root " << root << " start " << start;
      }
      TUW_Request_free(&request);
    }

    std::vector<int> root_send(root_ints, -1);
    std::vector<int> expected_own(own + 1, kFill), got_own(expected_own);
    const AbsoluteBlock receive_block(&got_own, own);
    const auto fill_root = [&](int start) {
      if (rank == root) {
        for (int i = 0; i < p; ++i) {
          for (int k = 0; k < counts[i]; ++k) root_send[displs[i] + k] = Pattern(i, k + start);
        }
      }
      std::fill(expected_own.begin(), expected_own.end(), kFill);
      std::fill(got_own.begin(), got_own.end(), kFill);
      MPI_Scatterv(root_send.data(), root_counts, root_displs, MPI_INT, expected_own.data(), own,
                   MPI_INT, root, MPI_COMM_WORLD);
    };
    for (const auto& alg : tuw::kScattervAlgorithms) {
      if (alg.name == "MPI_Scatterv") continue;
      fill_root(0);
      const int rc = alg.fn(root_send.data(), root_counts, root_displs, MPI_INT, MPI_BOTTOM, 1,
                            receive_block.type(), root, MPI_COMM_WORLD);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS && got_own == expected_own))
          << alg.name << " root " << root;
    }
    for (const auto& alg : tuw::kScattervInitAlgorithms) {
      TUW_Request request = TUW_REQUEST_NULL;
      int rc = alg.fn(root_send.data(), root_counts, root_displs, MPI_INT, MPI_BOTTOM, 1,
                      receive_block.type(), root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
      bool ok = AllRanks(rc == MPI_SUCCESS);
      EXPECT_TRUE(ok) << alg.name << " init, root " << root;
      for (int start = 0; start < 2 && ok; ++start) {
        fill_root(start);
        rc = StartAndWait(&request);
        ok = AllRanks(rc == MPI_SUCCESS && got_own == expected_own);
        EXPECT_TRUE(ok) << alg.name << " root " << root << " start " << start;
      }
      TUW_Request_free(&request);
    }
  }
}

}  // namespace
