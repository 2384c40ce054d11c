// Systematic fault injection (issue: an error on one rank never becomes a hang, and never
// MPI_SUCCESS with wrong data). The definitions below intercept, through the PMPI profiling
// interface, every MPI call libtuwcoll makes while a collective runs, and the library's data
// buffers (its nothrow operator new[]); armed with (rank r, k), the k-th such event on rank r
// fails *without doing anything* (as MPI's argument and resource errors do).
// For each algorithm, root and count pattern, on an intracommunicator and on an
// intercommunicator (root in either group), a dry run counts the events on every rank, then
// every (r, k) is injected in turn. The invariant, checked on every rank after each injection:
//  - the rank with the failure returns an error class (it must not hide it);
//  - every other rank returns MPI_SUCCESS with exactly the result the native call defines (the
//    reference is computed independently from the pattern), or an error class;
//  - nobody hangs (an alarm names the injection point and aborts);
//  - the next, uninjected call on the same communicator is correct on every rank (no stray
//    message of the failed call is left behind).
// Not injected: the once-per-communicator setup (MPI_Comm_dup of the private duplicate and its
// attribute caching: a collective call that fails on one process alone cannot be recovered
// without a fault-tolerant MPI, as for the native collectives) and local queries (sizes, ranks,
// extents, MPI_Get_count).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {

struct Injector {
  bool armed = false;     // counting events
  long fail_at = 0;       // the event that fails on this rank (0: none)
  long events = 0;        // events seen since armed
  bool injected = false;  // the failure happened
};
Injector g_injector;

// True if this event is the one to fail.
bool InjectHere() {
  if (!g_injector.armed) return false;
  ++g_injector.events;
  if (g_injector.events != g_injector.fail_at) return false;
  g_injector.injected = true;
  return true;
}

constexpr int kInjectedError = MPI_ERR_OTHER;

}  // namespace

// Allocations of libtuwcoll's data buffers (TryByteBuffer) go through the nothrow operator new[].
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  if (InjectHere()) return nullptr;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void* operator new[](std::size_t size) {
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

extern "C" {
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Irecv(buf, count, type, source, tag, comm, request);
}
int MPI_Sendrecv(const void* sbuf, int scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status* status) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                       status);
}
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Probe(source, tag, comm, status);
}
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Waitall(count, requests, statuses);
}
int MPI_Pack(const void* inbuf, int incount, MPI_Datatype type, void* outbuf, int outsize,
             int* position, MPI_Comm comm) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Pack(inbuf, incount, type, outbuf, outsize, position, comm);
}
int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
               MPI_Datatype type, MPI_Comm comm) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Unpack(inbuf, insize, position, outbuf, outcount, type, comm);
}
int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}
int MPI_Type_commit(MPI_Datatype* type) {
  if (InjectHere()) return kInjectedError;
  return PMPI_Type_commit(type);
}
}

namespace {
using namespace irrtest;

// Names the injection point if it hangs.
char g_point[256] = "";
void OnAlarm(int) {
  const char prefix[] = "\nmpi_test_faults: HANG at injection point ";
  (void)!write(2, prefix, sizeof prefix - 1);
  (void)!write(2, g_point, std::strlen(g_point));
  (void)!write(2, "\n", 1);
  _exit(3);
}

struct Problem {
  std::vector<int> counts, displs;
  int extent = 0;
};

Problem MakeProblem(int p, int pattern, int root) {
  Problem problem;
  problem.counts.resize(p);
  if (pattern == 0) {  // small random blocks, about a third of them empty
    std::mt19937 rng(17 * p + root);
    for (int& c : problem.counts) c = rng() % 3 == 0 ? 0 : 1 + static_cast<int>(rng() % 12);
  } else {  // blocks of two pieces or more under TUWCOLL_TEST_MAX_MESSAGE_BYTES=64, and zeros
    for (int i = 0; i < p; ++i) problem.counts[i] = (i % 3 == 1) ? 0 : 17 + i;
  }
  problem.displs = PermutedDisplacements(problem.counts, 5 + pattern, &problem.extent);
  return problem;
}

enum class Outcome { kCorrect, kError, kWrong };

// Where the collective runs: an intracommunicator, or an intercommunicator between the lower
// and upper half of the processes (unequal halves for odd p) with the root in one of them.
struct Setting {
  MPI_Comm comm;
  bool inter;
  int root_group;  // intercommunicator: the group holding the root (0 lower, 1 upper)
  int group;       // intercommunicator: this process's group
};

// This process's root argument and whether it is the root or a sender/receiver of blocks.
struct Role {
  int root_arg;
  bool is_root;
  bool has_block;  // contributes (gather) or receives (scatter) a block
  int block;       // its index in the root's arrays
  int blocks;      // number of blocks at the root
};

Role RoleOf(const Setting& s, int root) {
  const int rank = Rank(s.comm);
  if (!s.inter) return {root, rank == root, true, rank, Size(s.comm)};
  int remote = 0;
  MPI_Comm_remote_size(s.comm, &remote);
  if (s.group == s.root_group) {
    return {rank == root ? MPI_ROOT : MPI_PROC_NULL, rank == root, false, 0, remote};
  }
  return {root, false, true, rank, Size(s.comm)};
}

// Runs one gather (fn) and checks this process's result against the pattern.
Outcome RunGather(tuw::GathervFn fn, const Problem& pr, const Setting& s, int root, int* rc) {
  const Role r = RoleOf(s, root);
  const int own = r.has_block ? pr.counts[r.block] : 0;
  std::vector<int> send(own + 1);
  for (int k = 0; k < own; ++k) send[k] = Pattern(r.block, k);
  std::vector<int> recv(r.is_root ? pr.extent : 1, kFill);
  *rc = fn(send.data(), own, MPI_INT, recv.data(), pr.counts.data(), pr.displs.data(), MPI_INT,
           r.root_arg, s.comm);
  if (*rc != MPI_SUCCESS) return Outcome::kError;
  if (!r.is_root) return Outcome::kCorrect;
  std::vector<int> expected(pr.extent, kFill);
  for (int i = 0; i < r.blocks; ++i) {
    for (int k = 0; k < pr.counts[i]; ++k) expected[pr.displs[i] + k] = Pattern(i, k);
  }
  return recv == expected ? Outcome::kCorrect : Outcome::kWrong;
}

Outcome RunScatter(tuw::ScattervFn fn, const Problem& pr, const Setting& s, int root, int* rc) {
  const Role r = RoleOf(s, root);
  std::vector<int> send(r.is_root ? pr.extent : 1, kFill);
  if (r.is_root) {
    for (int i = 0; i < r.blocks; ++i) {
      for (int k = 0; k < pr.counts[i]; ++k) send[pr.displs[i] + k] = Pattern(i, k);
    }
  }
  const int own = r.has_block ? pr.counts[r.block] : 0;
  std::vector<int> recv(own + 1, kFill);
  *rc = fn(send.data(), pr.counts.data(), pr.displs.data(), MPI_INT, recv.data(), own, MPI_INT,
           r.root_arg, s.comm);
  if (*rc != MPI_SUCCESS) return Outcome::kError;
  for (int k = 0; k < own; ++k) {
    if (recv[k] != Pattern(r.block, k)) return Outcome::kWrong;
  }
  return recv[own] == kFill ? Outcome::kCorrect : Outcome::kWrong;
}

struct Algorithm {
  std::string name;
  tuw::GathervFn gather = nullptr;
  tuw::ScattervFn scatter = nullptr;
};

std::vector<Algorithm> Algorithms() {
  std::vector<Algorithm> all;
  // Binomialk_* runs Binomial_*'s code paths on another tree: injected once, in Binomial_*.
  // TUWk_* stays: its construction exchanges with several cubes at once.
  for (const auto& a : tuw::kGathervAlgorithms) {
    if (a.name.rfind("MPI_", 0) != 0 && !irrtest::IsObliviousRadixKRow(a.name)) {
      all.push_back({std::string(a.name), a.fn, nullptr});
    }
  }
  for (const auto& a : tuw::kScattervAlgorithms) {
    if (a.name.rfind("MPI_", 0) != 0 && !irrtest::IsObliviousRadixKRow(a.name)) {
      all.push_back({std::string(a.name), nullptr, a.fn});
    }
  }
  return all;
}

Outcome RunOnce(const Algorithm& a, const Problem& pr, const Setting& s, int root, int* rc) {
  return a.gather ? RunGather(a.gather, pr, s, root, rc) : RunScatter(a.scatter, pr, s, root, rc);
}

// Roots to sweep: 0, p/2 and p-1 (IRRCOLL_FAULT_ROOTS=first keeps root 0 only, for slow runs).
std::vector<int> Roots(int p) {
  const char* env = std::getenv("IRRCOLL_FAULT_ROOTS");
  if (env != nullptr && std::string(env) == "first") return {0};
  std::vector<int> roots{0};
  if (p / 2 != 0) roots.push_back(p / 2);
  if (p - 1 != p / 2 && p > 1) roots.push_back(p - 1);
  return roots;
}

struct Tally {
  long points = 0, failed = 0;
};

// Every (rank, event) of one algorithm, root and pattern in `s`; verdicts agreed over `world`.
void SweepCase(const Algorithm& a, const Setting& s, int root, int pattern, const char* where,
               MPI_Comm world, Tally* tally) {
  const int rank = Rank(world), p = Size(world);
  const Role role = RoleOf(s, root);
  // Blocks at the root: the root group's processes know it as the other group's size.
  const Problem pr = MakeProblem(role.blocks, pattern, s.inter ? 0 : root);
  int rc = 0;
  // Dry run: the private communicators exist from here on; count every process's events.
  bool dry_ok = RunOnce(a, pr, s, root, &rc) == Outcome::kCorrect;
  g_injector = Injector{true, 0, 0, false};
  dry_ok = RunOnce(a, pr, s, root, &rc) == Outcome::kCorrect && dry_ok;
  g_injector.armed = false;
  ASSERT_TRUE(AllRanks(dry_ok, world)) << a.name << " " << where << ": wrong without injection";
  std::vector<long> events(p);
  PMPI_Allgather(&g_injector.events, 1, MPI_LONG, events.data(), 1, MPI_LONG, world);
  for (int target = 0; target < p; ++target) {
    for (long k = 1; k <= events[target]; ++k) {
      std::snprintf(g_point, sizeof g_point, "%s %s p=%d root=%d pattern=%d rank=%d event=%ld",
                    a.name.c_str(), where, p, root, pattern, target, k);
      alarm(60);
      g_injector = Injector{true, rank == target ? k : 0, 0, false};
      const Outcome outcome = RunOnce(a, pr, s, root, &rc);
      g_injector.armed = false;
      // The injected process must report its failure; nobody may report wrong data.
      bool ok = outcome != Outcome::kWrong && !(g_injector.injected && rc == MPI_SUCCESS);
      // The same call again, uninjected: correct everywhere.
      const Outcome after = RunOnce(a, pr, s, root, &rc);
      ok = ok && after == Outcome::kCorrect;
      alarm(0);
      const bool all_ok = AllRanks(ok, world);
      ++tally->points;
      if (!all_ok) ++tally->failed;
      EXPECT_TRUE(all_ok) << g_point << ": rank " << rank << " outcome "
                          << static_cast<int>(outcome) << " injected " << g_injector.injected
                          << " then " << static_cast<int>(after);
      if (tally->failed > 5) FAIL() << "stopping after 5 failed injection points";
    }
  }
}

TEST(FaultInjection, EveryCallSiteEveryRankNoHangNoFalseSuccess) {
  MPI_Comm world;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_dup(MPI_COMM_WORLD, &world);
  MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);
  const int rank = Rank(world), p = Size(world);
  signal(SIGALRM, OnAlarm);
  Tally intra, inter;
  const Setting intra_setting{world, false, 0, 0};
  for (const Algorithm& a : Algorithms()) {
    for (int root : Roots(p)) {
      for (int pattern = 0; pattern < 2; ++pattern) {
        SweepCase(a, intra_setting, root, pattern, "intracomm", world, &intra);
        if (HasFailure()) break;
      }
    }
  }
  // Intercommunicator: the lower (p+1)/2 processes and the rest; the root is the first process
  // of the lower group, then the last of the upper group (IRRCOLL_FAULT_ROOTS=first: the first).
  if (p >= 2 && !HasFailure()) {
    const int lower = (p + 1) / 2;
    TwoGroups groups = SplitIntoGroups(lower, world);
    const MPI_Comm intercomm = groups.inter;
    const int group = groups.in_first ? 0 : 1;
    MPI_Comm_set_errhandler(intercomm, MPI_ERRORS_RETURN);
    const int roots = Roots(p).size() > 1 ? 2 : 1;
    for (const Algorithm& a : Algorithms()) {
      for (int root_group = 0; root_group < roots; ++root_group) {
        const int root = root_group == 0 ? 0 : p - lower - 1;  // local rank in its group
        const Setting s{intercomm, true, root_group, group};
        for (int pattern = 0; pattern < 2; ++pattern) {
          SweepCase(a, s, root, pattern,
                    root_group == 0 ? "intercomm-lower-root" : "intercomm-upper-root", world,
                    &inter);
          if (HasFailure()) break;
        }
      }
    }
    FreeGroups(&groups);
  }
  if (rank == 0) {
    std::printf(
        "mpi_test_faults: p = %d, %ld injection points exercised (%ld intracommunicator, %ld "
        "intercommunicator), %ld failed\n",
        p, intra.points + inter.points, intra.points, inter.points, intra.failed + inter.failed);
  }
  MPI_Comm_free(&world);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

}  // namespace
