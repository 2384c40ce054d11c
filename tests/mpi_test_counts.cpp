// Message counts of TUW_Gatherv / TUW_Scatterv, observed through the PMPI profiling interface
// (not by timing): the definitions below intercept the library's point-to-point calls.
//  - the root posts at most ceil(log2 p) data receives (gather) / sends (scatter);
//  - construction: each process sends at most 2 ceil(log2 p) and receives at most ceil(log2 p)
//    constant-size messages (Lemma 3: an exchange between fixed roots plus one notice from a
//    fixed root to its gather root per round);
//  - a start of a persistent request (TUW_Gatherv_init) sends no construction message at all;
//  - each block crosses each tree edge on its path once: a process sends exactly its subtree's
//    bytes once and receives exactly its children's bytes, and the root receives sum_{i!=r} m_i;
//  - a start of Optimal_Gatherv_init / Optimal_Scatterv_init moves data along the cost model's
//    optimal tree, computed here independently from the same fit file: each process exchanges
//    its subtree with the DP tree's parent and its children's subtrees with its children;
//  - (run with TUWCOLL_TEST_MAX_MESSAGE_BYTES, mpi_test_counts.pieces) a block above the message
//    limit of a predefined type, blocks back to back, goes in pieces straight from and into the
//    program's buffers: no MPI_Pack / MPI_Unpack through a staging copy; a derived type does;
//  - a persistent request's starts after its first allocate no data buffer (the inner nodes keep
//    theirs between starts), observed through the nothrow operator new[] the library's buffers
//    come from.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <new>
#include <set>

#include "hypercube_tree.hpp"
#include "mpi_test_support.hpp"
#include "optimal_tree.hpp"
#include "tuwcoll.h"

namespace {
struct Traffic {
  std::map<int, long> sends, recvs;            // messages by tag
  std::map<int, long> sent_bytes, recv_bytes;  // bytes by tag
  std::set<int> data_peers;                    // ranks of data sends and (named) data receives
  void Clear() { *this = Traffic{}; }
};
Traffic g_traffic;
bool g_counting = false;
long g_packs = 0;    // MPI_Pack and MPI_Unpack calls while counting
long g_buffers = 0;  // libtuwcoll's data buffers (TryByteBuffer: nothrow new[]) while counting

long Bytes(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<long>(count) * size;
}
void CountSend(int count, MPI_Datatype type, int tag, int dest) {
  if (!g_counting) return;
  if (tag == TUWCOLL_TAG_DATA) g_traffic.data_peers.insert(dest);
  g_traffic.sends[tag]++;
  g_traffic.sent_bytes[tag] += Bytes(count, type);
}
void CountRecv(int count, MPI_Datatype type, int tag, int source) {
  if (!g_counting) return;
  // Data receives take any tag: a poisoned message (an error class) may come instead of data.
  if (tag == MPI_ANY_TAG) tag = TUWCOLL_TAG_DATA;
  if (tag == TUWCOLL_TAG_DATA) g_traffic.data_peers.insert(source);
  g_traffic.recvs[tag]++;
  g_traffic.recv_bytes[tag] += Bytes(count, type);
}
}  // namespace

// Allocations of libtuwcoll's data buffers below 8 MiB go through the nothrow operator new[]; the
// other forms are replaced too, so that every new[] and delete[] pair up (malloc / free).
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  if (g_counting) ++g_buffers;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size) {
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

extern "C" {
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  CountSend(count, type, tag, dest);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  CountSend(count, type, tag, dest);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  CountSend(count, type, tag, dest);
  return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  CountRecv(count, type, tag, source);
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  CountRecv(count, type, tag, source);
  return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}
int MPI_Pack(const void* in, int count, MPI_Datatype type, void* out, int out_size, int* position,
             MPI_Comm comm) {
  if (g_counting) ++g_packs;
  return PMPI_Pack(in, count, type, out, out_size, position, comm);
}
int MPI_Unpack(const void* in, int in_size, int* position, void* out, int count, MPI_Datatype type,
               MPI_Comm comm) {
  if (g_counting) ++g_packs;
  return PMPI_Unpack(in, in_size, position, out, count, type, comm);
}
int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status* status) {
  CountSend(scount, stype, stag, dest);
  CountRecv(rcount, rtype, rtag, source);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                       status);
}
}

namespace {
using namespace irrtest;

TEST(MessageCounts, GatherAndScatterOnTheAdaptiveTree) {
  const int p = Size(), rank = Rank();
  const long levels = tuw::tree::CeilLog2(p);
  for (int root : {0, p / 2, p - 1}) {
    for (int seed = 0; seed < 4; ++seed) {
      const std::vector<int> counts = RandomCounts(p, 31 * seed + root);
      std::vector<std::int64_t> bytes(counts.size());
      long others = 0;
      for (int i = 0; i < p; ++i) {
        bytes[i] = 4L * counts[i];
        if (i != root) others += bytes[i];
      }
      const auto tree = tuw::tree::BuildTree(tuw::tree::TreeKind::kAdaptive, bytes, root);
      const auto& node = tree.nodes[rank];
      long child_bytes = 0, nonempty_children = 0;
      for (const auto& c : node.children) {
        child_bytes += c.bytes;
        nonempty_children += c.bytes > 0;
      }
      std::vector<int> displs(p), send(counts[rank] + 1, rank), recv;
      int total = 0;
      for (int i = 0; i < p; ++i) {
        displs[i] = total;
        total += counts[i];
      }
      if (rank == root) recv.resize(total + 1);
      // op 0: TUW_Gatherv, 1: TUW_Scatterv, 2 and 3: a start of their persistent requests.
      for (int op = 0; op < 4; ++op) {
        TUW_Gatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(), displs.data(),
                    MPI_INT, root, MPI_COMM_WORLD);  // creates the private communicator first
        TUW_Request request = TUW_REQUEST_NULL;
        if (op == 2) {
          TUW_Gatherv_init(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(),
                           displs.data(), MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
        } else if (op == 3) {
          TUW_Scatterv_init(recv.data(), counts.data(), displs.data(), MPI_INT, send.data(),
                            counts[rank], MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
        }
        g_traffic.Clear();
        g_counting = true;
        if (op == 0) {
          TUW_Gatherv(send.data(), counts[rank], MPI_INT, recv.data(), counts.data(), displs.data(),
                      MPI_INT, root, MPI_COMM_WORLD);
        } else if (op == 1) {
          TUW_Scatterv(recv.data(), counts.data(), displs.data(), MPI_INT, send.data(),
                       counts[rank], MPI_INT, root, MPI_COMM_WORLD);
        } else {
          TUW_Start(&request);
          TUW_Wait(&request, MPI_STATUS_IGNORE);
        }
        g_counting = false;
        if (request != TUW_REQUEST_NULL) TUW_Request_free(&request);
        Traffic& t = g_traffic;
        const long construct_sends = t.sends[TUWCOLL_TAG_CONSTRUCT] + t.sends[TUWCOLL_TAG_INFORM];
        const long construct_recvs = t.recvs[TUWCOLL_TAG_CONSTRUCT] + t.recvs[TUWCOLL_TAG_INFORM];
        const bool persistent = op >= 2;  // built at init: no construction message at a start
        bool ok = persistent ? construct_sends == 0 && construct_recvs == 0
                             : construct_sends <= 2 * levels && construct_recvs <= levels;
        const bool gather = op % 2 == 0;
        const long data_in = gather ? t.recvs[TUWCOLL_TAG_DATA] : t.sends[TUWCOLL_TAG_DATA];
        const long bytes_down =
            gather ? t.recv_bytes[TUWCOLL_TAG_DATA] : t.sent_bytes[TUWCOLL_TAG_DATA];
        const long bytes_up =
            gather ? t.sent_bytes[TUWCOLL_TAG_DATA] : t.recv_bytes[TUWCOLL_TAG_DATA];
        const long messages_up = gather ? t.sends[TUWCOLL_TAG_DATA] : t.recvs[TUWCOLL_TAG_DATA];
        ok = ok && data_in == nonempty_children && data_in <= levels;
        if (rank == root) {
          // Each non-root block reaches (or leaves) the root exactly once.
          ok = ok && bytes_down == others && messages_up == 0;
        } else {
          ok = ok && bytes_down == child_bytes && bytes_up == node.bytes &&
               messages_up == (node.bytes > 0 ? 1 : 0);
        }
        EXPECT_TRUE(AllRanks(ok)) << (persistent ? "persistent " : "")
                                  << (gather ? "gather" : "scatter") << " rank " << rank << " root "
                                  << root << " construct sends " << construct_sends << " recvs "
                                  << construct_recvs << " data messages to children " << data_in
                                  << " bytes " << bytes_down << "/" << bytes_up;
      }
    }
  }
}

TEST(MessageCounts, OptimalStartsFollowTheModelsTree) {
  const int p = Size(), rank = Rank();
  const std::string path = "mpi_test_counts_fit_" + std::to_string(rank) + ".txt";
  const std::vector<tuw::tree::CostParams> costs = {{10, 0.01, 0.001}, {0, 1, 1}, {1, 1, 0}};
  int differs_from_adaptive = 0;
  for (const tuw::tree::CostParams& cost : costs) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f, "alpha_us=%g\nbeta_us_per_byte=%g\ngamma_us_per_byte=%g\n", cost.alpha,
                 cost.beta, cost.gamma);
    std::fclose(f);
    setenv("TUWCOLL_MODEL_FIT", path.c_str(), 1);
    for (int root : {0, p / 2, p - 1}) {
      for (int seed = 0; seed < 3; ++seed) {
        std::vector<int> counts = RandomCounts(p, 17 * seed + root);
        if (seed == 2) {  // decreasing blocks: a large block first
          for (int i = 0; i < p; ++i) counts[i] = 40 * (p - i);
        }
        std::vector<std::int64_t> bytes(p);
        for (int i = 0; i < p; ++i) bytes[i] = 4L * counts[i];
        // The tree the library executes at this p (exact DP; adaptive where it gains < 5 %).
        const auto executed =
            tuw::tree::OptimalInitTree(bytes, cost, root, tuw::tree::ExecutedDpMethod(p));
        const auto tree = tuw::tree::ToNodeViews(executed.tree, bytes);
        differs_from_adaptive += executed.optimal;
        const auto& node = tree.nodes[rank];
        std::set<int> peers;
        long child_bytes = 0;
        for (const auto& c : node.children) {
          if (c.bytes > 0) peers.insert(c.child), child_bytes += c.bytes;
        }
        if (rank != root && node.bytes > 0) peers.insert(node.parent);
        std::vector<int> displs(p), send(counts[rank] + 1, rank), recv;
        int total = 0;
        for (int i = 0; i < p; ++i) displs[i] = total, total += counts[i];
        if (rank == root) recv.resize(total + 1);
        for (bool gather : {true, false}) {
          TUW_Request request = TUW_REQUEST_NULL;
          const int rc = gather
                             ? Optimal_Gatherv_init(send.data(), counts[rank], MPI_INT, recv.data(),
                                                    counts.data(), displs.data(), MPI_INT, root,
                                                    MPI_COMM_WORLD, MPI_INFO_NULL, &request)
                             : Optimal_Scatterv_init(recv.data(), counts.data(), displs.data(),
                                                     MPI_INT, send.data(), counts[rank], MPI_INT,
                                                     root, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
          ASSERT_EQ(rc, MPI_SUCCESS);
          g_traffic.Clear();
          g_counting = true;
          TUW_Start(&request);
          TUW_Wait(&request, MPI_STATUS_IGNORE);
          g_counting = false;
          TUW_Request_free(&request);
          Traffic& t = g_traffic;
          const long down =
              gather ? t.recv_bytes[TUWCOLL_TAG_DATA] : t.sent_bytes[TUWCOLL_TAG_DATA];
          const long up = gather ? t.sent_bytes[TUWCOLL_TAG_DATA] : t.recv_bytes[TUWCOLL_TAG_DATA];
          const bool ok =
              t.data_peers == peers && down == child_bytes && up == (rank == root ? 0 : node.bytes);
          EXPECT_TRUE(AllRanks(ok))
              << (gather ? "gather" : "scatter") << " alpha " << cost.alpha << " root " << root
              << " seed " << seed << " rank " << rank << " bytes to/from children " << down << "/"
              << child_bytes << " to/from parent " << up << "/" << node.bytes;
        }
      }
    }
  }
  unsetenv("TUWCOLL_MODEL_FIT");
  std::remove(path.c_str());
  // Not a vacuous check: somewhere the DP's tree runs, not TUW's (when p allows a choice).
  if (p >= 4) {
    EXPECT_GT(differs_from_adaptive, 0);
  }
}

// The library's plain gather and scatter of one algorithm, in pairs.
struct PlainPair {
  const char* name;
  int (*gatherv)(const void*, int, MPI_Datatype, void*, const int[], const int[], MPI_Datatype, int,
                 MPI_Comm);
  int (*scatterv)(const void*, const int[], const int[], MPI_Datatype, void*, int, MPI_Datatype,
                  int, MPI_Comm);
};
const PlainPair kTreePairs[] = {{"TUW", TUW_Gatherv, TUW_Scatterv},
                                {"TUWk", TUWk_Gatherv, TUWk_Scatterv},
                                {"Binomial", Binomial_Gatherv, Binomial_Scatterv},
                                {"Binomialk", Binomialk_Gatherv, Binomialk_Scatterv}};
const PlainPair kLinearPair = {"Linear", Linear_Gatherv, Linear_Scatterv};

// The reference of the tests below: native MPI_Gatherv of `own` into *gathered and
// MPI_Scatterv of `source` into *part (MPI_INT; source may be *gathered).
void NativeReference(const std::vector<int>& own, const std::vector<int>& counts,
                     const std::vector<int>& displs, const std::vector<int>& source, int root,
                     std::vector<int>* gathered, std::vector<int>* part) {
  const int rank = Rank();
  MPI_Gatherv(own.data(), counts[rank], MPI_INT, gathered->data(), counts.data(), displs.data(),
              MPI_INT, root, MPI_COMM_WORLD);
  MPI_Scatterv(source.data(), counts.data(), displs.data(), MPI_INT, part->data(), counts[rank],
               MPI_INT, root, MPI_COMM_WORLD);
}

// Two processes, so that every one is the root or a leaf (an inner node packs its own block
// into its subtree's buffer whatever the type).
TEST(Staging, BlocksAboveTheMessageLimitSkipTheStagingCopy) {
  const char* limit = std::getenv("TUWCOLL_TEST_MAX_MESSAGE_BYTES");
  if (limit == nullptr || Size() != 2) GTEST_SKIP() << "mpi_test_counts.pieces: 2 processes";
  const int rank = Rank();
  MPI_Datatype derived;  // the same bytes as MPI_INT, but a derived type: packed
  MPI_Type_contiguous(1, MPI_INT, &derived);
  MPI_Type_commit(&derived);
  const PlainPair algorithms[] = {kTreePairs[0], kTreePairs[1], kTreePairs[2], kLinearPair};
  const std::vector<int> counts = {5, 9}, displs = {0, 5};  // back to back, 20 and 36 bytes
  for (const auto& a : algorithms) {
    for (int root = 0; root < 2; ++root) {
      for (MPI_Datatype type : {MPI_INT, derived}) {
        std::vector<int> own(counts[rank]), all(14, -1), native(14, -1);
        for (int i = 0; i < counts[rank]; ++i) own[i] = 100 * rank + i;
        std::vector<int> scattered(counts[rank], -1), native_scattered(counts[rank], -1);
        g_packs = 0;
        g_counting = true;
        const int gather_rc = a.gatherv(own.data(), counts[rank], type, all.data(), counts.data(),
                                        displs.data(), type, root, MPI_COMM_WORLD);
        const int scatter_rc =
            a.scatterv(all.data(), counts.data(), displs.data(), type, scattered.data(),
                       counts[rank], type, root, MPI_COMM_WORLD);
        g_counting = false;
        const long packs = g_packs;
        NativeReference(own, counts, displs, native, root, &native, &native_scattered);
        const bool same = gather_rc == MPI_SUCCESS && scatter_rc == MPI_SUCCESS &&
                          (rank != root || all == native) && scattered == native_scattered;
        EXPECT_TRUE(AllRanks(same)) << a.name << " root " << root << " rank " << rank;
        if (type == MPI_INT) {
          EXPECT_EQ(packs, 0) << a.name << " root " << root << " rank " << rank;
        } else {
          long all_packs = 0;  // the root's staged blocks, on either side
          MPI_Allreduce(&packs, &all_packs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
          EXPECT_GT(all_packs, 0) << a.name << " root " << root << " (derived type)";
        }
      }
    }
  }
  MPI_Type_free(&derived);
}

// Three starts of each persistent gather and scatter (TUW's tree, TUWk's): the first may allocate
// the inner nodes' buffers, the others none; every start's result equals the native call's.
TEST(Buffers, PersistentStartsAfterTheFirstAllocateNone) {
  const int p = Size(), rank = Rank();
  std::vector<int> counts(p), displs(p);
  for (int i = 0, at = 0; i < p; ++i) counts[i] = 1 + i % 3, displs[i] = at, at += counts[i];
  const int total = displs[p - 1] + counts[p - 1];
  using GathervInit = int (*)(const void*, int, MPI_Datatype, void*, const int[], const int[],
                              MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
  using ScattervInit = int (*)(const void*, const int[], const int[], MPI_Datatype, void*, int,
                               MPI_Datatype, int, MPI_Comm, MPI_Info, TUW_Request*);
  const struct {
    const char* name;
    GathervInit gatherv;
    ScattervInit scatterv;
  } kinds[] = {{"TUW", TUW_Gatherv_init, TUW_Scatterv_init},
               {"TUWk", TUWk_Gatherv_init, TUWk_Scatterv_init}};
  const int root = p / 2;
  for (const auto& kind : kinds) {
    std::vector<int> own(counts[rank]), all(total), native(total);
    std::vector<int> part(counts[rank]), native_part(counts[rank]);
    TUW_Request gather = TUW_REQUEST_NULL, scatter = TUW_REQUEST_NULL;
    ASSERT_EQ(kind.gatherv(own.data(), counts[rank], MPI_INT, all.data(), counts.data(),
                           displs.data(), MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &gather),
              MPI_SUCCESS);
    ASSERT_EQ(kind.scatterv(all.data(), counts.data(), displs.data(), MPI_INT, part.data(),
                            counts[rank], MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &scatter),
              MPI_SUCCESS);
    long first = 0;
    for (int start = 0; start < 3; ++start) {
      for (int i = 0; i < counts[rank]; ++i) own[i] = 1000 * start + 10 * rank + i;
      g_buffers = 0;
      g_counting = true;
      int rc = TUW_Start(&gather);
      if (rc == MPI_SUCCESS) rc = TUW_Wait(&gather, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS) rc = TUW_Start(&scatter);
      if (rc == MPI_SUCCESS) rc = TUW_Wait(&scatter, MPI_STATUS_IGNORE);
      g_counting = false;
      const long buffers = g_buffers;
      NativeReference(own, counts, displs, all, root, &native, &native_part);
      const bool same = rc == MPI_SUCCESS && (rank != root || all == native) && part == native_part;
      EXPECT_TRUE(AllRanks(same)) << kind.name << " start " << start << " rank " << rank;
      if (start == 0) {
        MPI_Allreduce(&buffers, &first, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      } else {
        EXPECT_EQ(buffers, 0) << kind.name << " start " << start << " rank " << rank;
      }
    }
    // From 5 processes on (root p / 2) some non-root has children and a buffer to keep: the
    // counter sees it at the first start (at 3 and 4 the root takes every block itself).
    if (p >= 5) {
      EXPECT_GT(first, 0) << kind.name;
    }
    EXPECT_EQ(TUW_Request_free(&gather), MPI_SUCCESS);
    EXPECT_EQ(TUW_Request_free(&scatter), MPI_SUCCESS);
  }
}

// Three plain calls of each tree gather and scatter, small (TUWk_Scatterv's one message) and
// large (over tree::kOneMessageMaxBytes, 512 KiB, in all: its sizes a level ahead): the first may
// allocate the buffers a process keeps for the communicator, the others none. Allocated and freed
// at every call, they made TUWk_Scatterv 2.8x slower than TUW_Scatterv on 16 real cores (glibc gave
// the heap's top back at each call; CallBuffers in internal.hpp). Every call's result equals the
// native call's.
TEST(Buffers, PlainCallsAfterTheFirstAllocateNone) {
  const int p = Size(), rank = Rank();
  const auto& algorithms = kTreePairs;
  const int root = p / 2;
  MPI_Comm comm;  // its own: no earlier test's calls have made its buffers
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  for (const int block : {3, 200000 / p}) {  // ints: 12 bytes; 800 kB in all
    std::vector<int> counts(p), displs(p);
    for (int i = 0, at = 0; i < p; ++i) counts[i] = block + i % 3, displs[i] = at, at += counts[i];
    const int total = displs[p - 1] + counts[p - 1];
    for (const auto& a : algorithms) {
      long first = 0;
      for (int call = 0; call < 3; ++call) {
        std::vector<int> own(counts[rank]), all(total, -1), native(total, -1);
        for (int i = 0; i < counts[rank]; ++i) own[i] = 1000 * call + 10 * rank + i;
        std::vector<int> part(counts[rank], -1), native_part(counts[rank], -1);
        g_buffers = 0;
        g_counting = true;
        int rc = a.gatherv(own.data(), counts[rank], MPI_INT, all.data(), counts.data(),
                           displs.data(), MPI_INT, root, comm);
        if (rc == MPI_SUCCESS) {
          rc = a.scatterv(all.data(), counts.data(), displs.data(), MPI_INT, part.data(),
                          counts[rank], MPI_INT, root, comm);
        }
        g_counting = false;
        const long buffers = g_buffers;
        NativeReference(own, counts, displs, all, root, &native, &native_part);
        const bool same =
            rc == MPI_SUCCESS && (rank != root || all == native) && part == native_part;
        EXPECT_TRUE(AllRanks(same)) << a.name << " block " << block << " call " << call;
        if (call == 0) {
          MPI_Allreduce(&buffers, &first, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        } else {
          EXPECT_EQ(buffers, 0) << a.name << " block " << block << " call " << call << " rank "
                                << rank;
        }
      }
      // The communicator's buffers are made at the first call with inner non-roots (from 5
      // processes on): the first algorithm's.
      if (p >= 5 && a.gatherv == TUW_Gatherv && block == 3) {
        EXPECT_GT(first, 0);
      }
    }
  }
  MPI_Comm_free(&comm);
}

}  // namespace
